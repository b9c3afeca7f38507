/* Where each domino of a Fives layout lies on the table: pure geometry, no DOM.
 *
 * In: a replay state's `layout` (the lead, the arms W/E/N/S outwards with each tile written
 * inner pip first, the spinner's arm and index). Out: one rectangle per tile, in units of a
 * tile's width (a tile is 2 by 1; a double lies across the line, 1 along it and 2 across).
 *
 * The table reads like a real one. The line runs west and east through the lead; the
 * spinner's arms run north and south from it. Each arm grows outwards and, at the table's
 * edge, bends the way players bend a long line: a corner tile, then back alongside itself,
 * a snake. The four arms turn the same way round (east turns south, south west, west north,
 * north east), so each snakes in its own quarter of the table and none crosses another:
 * east below the line right of the spinner, west above it to the left, north above right,
 * south below left. Doubles always lie across the line (a double is never a corner: it
 * goes on the row, one unit past the edge at most, and the next tile turns), every joint
 * touches, and the spinner always sits on the straight line with its cross free.
 *
 * Used by replay.js in the page (window.FivesLayout) and by node in the tests (require).
 */
(function (root, factory) {
  const api = factory();
  if (typeof module === "object" && module.exports) module.exports = api;
  else root.FivesLayout = api;
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  const REACH = 11; // how far the line runs from the spinner (or the lead) to the table's edge
  const DEPTH = 7; // how far the spinner's arms run before they first bend
  const INNER = 2.5; // how close a row coming back may come to the cross

  function pips(tile) {
    return tile.split("-").map(Number);
  }
  function isDouble(tile) {
    const [a, b] = pips(tile);
    return a === b;
  }

  /* Lay one arm as a snake. Local frame: `a` along the arm's first direction `d`, `b` towards
   * the side it turns to, `t`; world = origin + a*d + b*t. Segments alternate +a and -a;
   * outward ones stop at `outer`, those coming back at `inner`; each holds one tile at
   * least, and a corner tile (never a double) joins them. */
  function snake(tiles, origin, d, t, outer, inner, arm, first) {
    const out = [];
    let a = 0;
    let b = 0;
    let s = 1; // +1 outwards, -1 coming back
    let inSegment = 0;
    let half = 0.5; // half the across-size of the tile before
    const world = (pa, pb) => [origin[0] + pa * d[0] + pb * t[0], origin[1] + pa * d[1] + pb * t[1]];
    function rect(a0, a1, b0, b1, dir, tile, index, corner) {
      const [x0, y0] = world(a0, b0);
      const [x1, y1] = world(a1, b1);
      const [inner, outer] = pips(tile);
      out.push({
        arm: arm, index: index, tile: tile, double: inner === outer, corner: corner,
        x: Math.min(x0, x1), y: Math.min(y0, y1), w: Math.abs(x1 - x0), h: Math.abs(y1 - y0),
        dir: dir, first: inner, second: outer,
      });
    }
    tiles.forEach((entry, i) => {
      const tile = entry.tile;
      const dbl = isDouble(tile);
      const length = dbl ? 1 : 2;
      const fits = s > 0 ? a + length <= outer : a - length >= inner;
      if (fits || dbl || inSegment === 0) {
        const a1 = a + s * length;
        const across = dbl ? 1 : 0.5;
        const dir = s > 0 ? d : [-d[0], -d[1]];
        rect(a, a1, b - across, b + across, dir, tile, first + i, false);
        a = a1;
        half = across;
        inSegment += 1;
        return;
      }
      // A corner: across the end of the last tile, towards t, then back the other way.
      const line = a - s * 0.5;
      rect(line - 0.5, line + 0.5, b + half, b + half + 2, t, tile, first + i, true);
      a -= s;
      b += half + 1.5;
      s = -s;
      half = 0.5;
      inSegment = 0;
    });
    return out;
  }

  /* Return {tiles, box} for a layout: every tile's rectangle and the box round them all. */
  function place(layout) {
    const tiles = [];
    if (!layout || !layout.lead) return { tiles: tiles, box: null, centre: [0, 0] };
    const arms = layout.arms;
    const spinner = layout.spinner;
    const [w, e] = pips(layout.lead);
    const leadDouble = w === e;
    const leadHalf = leadDouble ? 0.5 : 1;
    tiles.push({
      arm: "lead", index: 0, tile: layout.lead, double: leadDouble, corner: false,
      x: -leadHalf, y: leadDouble ? -1 : -0.5, w: 2 * leadHalf, h: leadDouble ? 2 : 1,
      dir: [1, 0], first: w, second: e,
    });
    // The centre of the cross: the spinner on the line, else the lead.
    let c = 0;
    let cross = false;
    if (spinner) {
      cross = true;
      if (spinner.arm === "E" || spinner.arm === "W") {
        let run = leadHalf;
        for (let i = 0; i < spinner.index; i += 1) run += isDouble(arms[spinner.arm][i].tile) ? 1 : 2;
        c = (spinner.arm === "E" ? 1 : -1) * (run + 0.5);
      }
    }
    const right = Math.max(c, 0) + REACH;
    const left = Math.min(c, 0) - REACH;
    // West first: the tiles in the order lead, W, E, N, S.
    tiles.push(...snake(arms.W || [], [-leadHalf, 0], [-1, 0], [0, -1], -leadHalf - left, -leadHalf - c + INNER, "W", 0));
    tiles.push(...snake(arms.E || [], [leadHalf, 0], [1, 0], [0, 1], right - leadHalf, c + INNER - leadHalf, "E", 0));
    if (cross && ((arms.N || []).length || (arms.S || []).length)) {
      // The spinner's arms: the shallowest depth at which both stay within the line's reach.
      let north = [];
      let south = [];
      for (let depth = DEPTH; depth < DEPTH + 40; depth += 1) {
        north = snake(arms.N || [], [c, -1], [0, -1], [1, 0], depth, INNER - 1, "N", 0);
        south = snake(arms.S || [], [c, 1], [0, 1], [-1, 0], depth, INNER - 1, "S", 0);
        const east = Math.max(c + 1, ...north.map((r) => r.x + r.w));
        const west = Math.min(c - 1, ...south.map((r) => r.x));
        if (east <= right + 1 && west >= left - 1) break;
      }
      tiles.push(...north, ...south);
    }
    const box = {
      x0: Math.min(...tiles.map((r) => r.x)),
      y0: Math.min(...tiles.map((r) => r.y)),
      x1: Math.max(...tiles.map((r) => r.x + r.w)),
      y1: Math.max(...tiles.map((r) => r.y + r.h)),
    };
    return { tiles: tiles, box: box, centre: [(box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2] };
  }

  /* Whether two rectangles share any area (touching edges do not count). */
  function overlap(p, q) {
    const eps = 1e-9;
    return p.x < q.x + q.w - eps && q.x < p.x + p.w - eps && p.y < q.y + q.h - eps && q.y < p.y + p.h - eps;
  }

  /* The tiles of `frame` (a hand's last layout, placed) that `layout` holds: so a hand
   * laid out once keeps every tile where it is from move to move. */
  function visible(placed, layout) {
    if (!layout || !layout.lead) return [];
    return placed.tiles.filter((r) => r.arm === "lead" || r.index < (layout.arms[r.arm] || []).length);
  }

  /* A layout written short (the page's per-hand summary): {l: lead, W: "a-b c-d", ..., s: "E3"
   * or "L" for the lead, absent for none}; the replay state's form back. */
  function expand(short) {
    if (!short || !short.l) return { lead: null, arms: { W: [], E: [], N: [], S: [] }, spinner: null };
    const arms = {};
    for (const name of ["W", "E", "N", "S"]) {
      arms[name] = (short[name] ? short[name].split(" ") : []).map((tile) => ({ tile: tile, double: isDouble(tile) }));
    }
    let spinner = null;
    if (short.s === "L") spinner = { arm: null, index: null };
    else if (short.s) spinner = { arm: short.s[0], index: Number(short.s.slice(1)) };
    return { lead: short.l, arms: arms, spinner: spinner };
  }

  return { place: place, overlap: overlap, visible: visible, expand: expand, REACH: REACH };
});
