/* The table's board as an SVG: the engine's layout (state.layout, placed by
 * replays/layout.js) drawn tile by tile, the tile just laid marked: the recorder's table
 * (recorder.js) and the live pages' (live.js). */
(function () {
  const SVG = "http://www.w3.org/2000/svg";

  function draw(board, state, options) {
    const opts = Object.assign({ maxRem: 14, screenShare: 0.3 }, options || {});
    board.replaceChildren();
    const Layout = window.FivesLayout;
    if (!state || !state.layout || !state.layout.lead || !Layout) {
      board.setAttribute("viewBox", "-5 -3 10 6");
      board.style.height = "";
      return;
    }
    const placed = Layout.place(state.layout);
    const box = placed.box;
    const pad = 0.5;
    const width = box.x1 - box.x0 + 2 * pad;
    const height = box.y1 - box.y0 + 2 * pad;
    board.setAttribute("viewBox", [box.x0 - pad, box.y0 - pad, width, height].join(" "));
    // As tall as the picture needs at the screen's width, within bounds: a cross of arms
    // keeps its tiles as large as a line's instead of shrinking into a fixed height.
    const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
    const wanted = board.clientWidth * (height / width);
    board.style.height = Math.max(8 * rem, Math.min(wanted, opts.maxRem * rem, window.innerHeight * opts.screenShare)) + "px";
    for (const r of placed.tiles) {
      const g = document.createElementNS(SVG, "g");
      const last = r.arm === state.placed && (r.arm === "lead" || r.index === state.layout.arms[r.arm].length - 1);
      g.setAttribute("class", "rec-domino" + (last ? " last" : ""));
      g.dataset.tile = r.tile;
      const rect = document.createElementNS(SVG, "rect");
      for (const [k, v] of Object.entries({ x: r.x + 0.04, y: r.y + 0.04, width: r.w - 0.08, height: r.h - 0.08, rx: 0.12 })) rect.setAttribute(k, String(v));
      g.append(rect);
      // The two halves, in the tile's direction: first pip nearer the start.
      const [dx, dy] = r.dir;
      const cx = r.x + r.w / 2;
      const cy = r.y + r.h / 2;
      const along = r.w > r.h ? [0.5, 0] : [0, 0.5];
      const sign = (dx || dy) < 0 ? -1 : 1;
      for (const [value, s] of [[r.first, -1], [r.second, 1]]) {
        const t = document.createElementNS(SVG, "text");
        t.setAttribute("x", String(cx + s * sign * along[0]));
        t.setAttribute("y", String(cy + s * sign * along[1] + 0.18));
        t.setAttribute("text-anchor", "middle");
        t.textContent = String(value);
        g.append(t);
      }
      board.append(g);
    }
  }

  window.FivesBoard = { draw: draw };
})();
