/* The table's board as an SVG: the engine's layout (state.layout, placed by
 * replays/layout.js) drawn tile by tile, the tile just laid marked: the recorder's table
 * (recorder.js) and the live pages' (live.js). Each half shows its pips as dots, as the
 * match page's board does (replays/replay.js): a figure written as SVG text is laid out
 * again by the browser whenever the board's scale changes, which a tap's tile often does.
 *
 * A draw changes only what changed: a tile already on the board where the layout puts it is
 * kept (its mark moved), so a tap adds one tile's elements instead of building the board
 * again; and the board's width and the window's height are read once and then followed (a
 * ResizeObserver, the resize event) instead of being asked of a layout the tap has just
 * changed, which the browser would lay out at once to answer: a recorder's tap is drawn in
 * the frame of the tap (issue 56). */
(function () {
  const SVG = "http://www.w3.org/2000/svg";
  // Per board: its tiles drawn (by arm, place and tile: the element and where it lies) and
  // its width and the root font size, as last measured.
  const boards = new WeakMap();
  let windowHeight = window.innerHeight;
  window.addEventListener("resize", () => { windowHeight = window.innerHeight; });

  function measured(board) {
    let known = boards.get(board);
    if (!known) {
      known = { tiles: new Map(), width: board.clientWidth, rem: rootRem() };
      boards.set(board, known);
      if (window.ResizeObserver) {
        new ResizeObserver((entries) => {
          const box = entries[entries.length - 1].contentRect;
          known.width = box.width;
          known.rem = rootRem();
        }).observe(board);
      }
    }
    return known;
  }
  function rootRem() {
    return parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
  }

  // Where a half's dots lie, in steps from its centre (across, along the tile).
  const PIPS = {
    0: [], 1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]],
    4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
    6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
  };
  const DOT = 0.09; // a dot's radius, a tile being 1 wide
  function svg(name, attrs, parent) {
    const node = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    parent.append(node);
    return node;
  }

  function tileElement(r) {
    const g = document.createElementNS(SVG, "g");
    g.dataset.tile = r.tile;
    svg("rect", { x: r.x + 0.04, y: r.y + 0.04, width: r.w - 0.08, height: r.h - 0.08, rx: 0.12 }, g);
    // The two halves, in the tile's direction: first pip nearer the start.
    const [dx, dy] = r.dir;
    const cx = r.x + r.w / 2;
    const cy = r.y + r.h / 2;
    const lengthwise = r.w > r.h;
    const along = lengthwise ? [0.5, 0] : [0, 0.5];
    if (lengthwise) svg("line", { x1: cx, y1: r.y + 0.12, x2: cx, y2: r.y + r.h - 0.12 }, g);
    else svg("line", { x1: r.x + 0.12, y1: cy, x2: r.x + r.w - 0.12, y2: cy }, g);
    const sign = (dx || dy) < 0 ? -1 : 1;
    // The tile's dots as one path (two arcs a dot): one element to lay out and paint where a
    // circle each made up to twelve.
    let dots = "";
    for (const [value, s] of [[r.first, -1], [r.second, 1]]) {
      const hx = cx + s * sign * along[0];
      const hy = cy + s * sign * along[1];
      // Sixes run along the tile's length, as printed.
      for (const [a, b] of PIPS[value] || []) {
        const [px, py] = lengthwise ? [b, a] : [a, b];
        const x = hx + px * 0.27 - DOT;
        const y = hy + py * 0.27;
        dots += `M${x.toFixed(3)} ${y.toFixed(3)}a${DOT} ${DOT} 0 1 0 ${2 * DOT} 0a${DOT} ${DOT} 0 1 0 ${-2 * DOT} 0`;
      }
    }
    if (dots) svg("path", { d: dots }, g);
    return g;
  }

  function draw(board, state, options) {
    const opts = Object.assign({ maxRem: 14, screenShare: 0.3 }, options || {});
    const known = measured(board);
    const Layout = window.FivesLayout;
    if (!state || !state.layout || !state.layout.lead || !Layout) {
      board.replaceChildren();
      known.tiles.clear();
      board.setAttribute("viewBox", "-5 -3 10 6");
      board.style.height = "";
      return;
    }
    const placed = Layout.place(state.layout);
    const box = placed.box;
    const pad = 0.5;
    const width = box.x1 - box.x0 + 2 * pad;
    const height = box.y1 - box.y0 + 2 * pad;
    // (Each written only where it changed: the browser lays the board out again on a write.)
    const viewBox = [box.x0 - pad, box.y0 - pad, width, height].join(" ");
    if (board.getAttribute("viewBox") !== viewBox) board.setAttribute("viewBox", viewBox);
    // As tall as the picture needs at the screen's width, within bounds: a cross of arms
    // keeps its tiles as large as a line's instead of shrinking into a fixed height.
    const rem = known.rem;
    const wanted = known.width * (height / width);
    const tall = Math.max(8 * rem, Math.min(wanted, opts.maxRem * rem, windowHeight * opts.screenShare)) + "px";
    if (board.style.height !== tall) board.style.height = tall;
    const drawn = new Map();
    for (const r of placed.tiles) {
      // A tile is kept where the same tile lies at the same place, the same way round.
      const key = [r.arm, r.index, r.tile, r.x, r.y, r.w, r.h, r.dir, r.first, r.second].join(" ");
      let g = known.tiles.get(key);
      known.tiles.delete(key);
      if (!g || g.parentNode !== board) { // (emptied by another hand: drawn anew)
        g = tileElement(r);
        board.append(g);
      }
      const last = r.arm === state.placed && (r.arm === "lead" || r.index === state.layout.arms[r.arm].length - 1);
      const marked = "rec-domino" + (last ? " last" : "");
      if (g.getAttribute("class") !== marked) g.setAttribute("class", marked);
      drawn.set(key, g);
    }
    for (const gone of known.tiles.values()) gone.remove(); // taken back, or moved
    known.tiles = drawn;
  }

  window.FivesBoard = { draw: draw };
})();
