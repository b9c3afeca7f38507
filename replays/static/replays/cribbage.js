/* The running scores on a cribbage board, as pub players keep them (Fives and Threes).
 *
 * One track a side: 61 holes, the first 30 out along the top row (in groups of five), the
 * next 30 back along the row under it, and the 61st, the game hole, at the end; a start
 * hole before the first. Each side has two pegs: the front one in the hole of its score,
 * the back one in the hole of its score before its last scoring play (so a peg leapfrogs
 * the other with each scoring play). A board for a match to 61 has a hole a point; for any
 * other target the track is scaled to it (a hole is target/61 points, the game hole is the
 * target), the scores written beside each track in full. The holes are drawn once; a move
 * moves the pegs. The words (the sides' names) come from the page; this file holds none.
 *
 * FivesCribbage.draw(svg, {target, names, scores, back}) draws or moves; used by the match
 * page (replay.js) and the recorder (recorder.js).
 */
(function () {
  "use strict";
  const SVG = "http://www.w3.org/2000/svg";
  const HOLES = 61; // the game hole
  const LAP = 30; // holes out, then as many back
  const PITCH = 10; // between two holes of a group
  const GAP = 5; // more between two groups of five
  const X0 = 24; // the first hole out (the start and game holes lie left of it)
  const END_X = 9; // the start hole (top) and the game hole (bottom)
  const LABEL = 14; // the name and score above a track
  const ROW = 10; // between the row out and the row back
  const TRACK = LABEL + ROW + 13; // one side's track, with the space after it
  const WIDTH = X0 + (LAP - 1) * PITCH + ((LAP / 5) - 1) * GAP + 10;

  function el(name, attrs, parent) {
    const node = document.createElementNS(SVG, name);
    for (const k in attrs) node.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(node);
    return node;
  }
  function columnX(k) { // k: 1..30 along the row
    return X0 + (k - 1) * PITCH + Math.floor((k - 1) / 5) * GAP;
  }
  /* Where hole `hole` (0 the start, 1-60 the track, 61 the game hole) of track `t` lies. */
  function holeAt(t, hole) {
    const top = t * TRACK + LABEL + 4;
    if (hole <= 0) return [END_X, top];
    if (hole >= HOLES) return [END_X, top + ROW];
    if (hole <= LAP) return [columnX(hole), top];
    return [columnX(2 * LAP + 1 - hole), top + ROW];
  }
  /* The hole a score is pegged in: its own on a board to 61, else scaled to the target. */
  function holeOf(score, target) {
    if (score >= target) return HOLES;
    if (score <= 0) return 0;
    return Math.min(HOLES - 1, Math.floor((score * HOLES) / target));
  }

  function build(svg, tracks) {
    for (const child of Array.from(svg.children)) if (child.tagName !== "title") child.remove();
    const height = tracks * TRACK - 1;
    svg.setAttribute("viewBox", "0 0 " + WIDTH + " " + height);
    svg.dataset.tracks = String(tracks);
    el("rect", { x: 0, y: 0, width: WIDTH, height: height, rx: 5, class: "crib-wood" }, svg);
    for (let t = 0; t < tracks; t += 1) {
      const g = el("g", { class: "crib-track team-" + t, "data-team": t }, svg);
      const top = t * TRACK + LABEL + 4;
      el("rect", { x: 3, y: top - 5, width: WIDTH - 6, height: ROW + 10, rx: 5, class: "crib-lane" }, g);
      el("text", { x: 5, y: t * TRACK + LABEL - 3, class: "crib-name" }, g);
      el("text", { x: WIDTH - 5, y: t * TRACK + LABEL - 3, "text-anchor": "end", class: "crib-score" }, g);
      for (let hole = 0; hole <= HOLES; hole += 1) {
        const [x, y] = holeAt(t, hole);
        const end = hole === 0 || hole === HOLES;
        el("circle", { cx: x, cy: y, r: end ? 2.6 : 1.8, class: "crib-hole" + (end ? " crib-end" : ""), "data-hole": hole }, g);
      }
      el("circle", { r: 4, class: "crib-peg crib-back", cx: END_X, cy: top }, g);
      el("circle", { r: 4, class: "crib-peg crib-front", cx: END_X, cy: top }, g);
    }
  }

  function draw(svg, options) {
    const scores = options.scores || [];
    const back = options.back || scores;
    const target = options.target || HOLES;
    const tracks = scores.length;
    if (svg.dataset.tracks !== String(tracks)) build(svg, tracks);
    svg.dataset.target = String(target);
    const groups = svg.querySelectorAll(".crib-track");
    for (let t = 0; t < tracks; t += 1) {
      const g = groups[t];
      const front = holeOf(scores[t], target);
      const behind = holeOf(back[t], target);
      const [fx, fy] = holeAt(t, front);
      const [bx, by] = holeAt(t, behind);
      const frontPeg = g.querySelector(".crib-front");
      const backPeg = g.querySelector(".crib-back");
      frontPeg.setAttribute("cx", fx);
      frontPeg.setAttribute("cy", fy);
      frontPeg.dataset.hole = String(front);
      backPeg.setAttribute("cx", bx);
      backPeg.setAttribute("cy", by);
      backPeg.dataset.hole = String(behind);
      // Both pegs in one hole (the start, or a scaled board's): the back one is not drawn.
      backPeg.style.display = behind === front ? "none" : "";
      g.querySelector(".crib-name").textContent = (options.names || [])[t] || "";
      g.querySelector(".crib-score").textContent = String(scores[t]);
      g.dataset.score = String(scores[t]);
    }
  }

  window.FivesCribbage = { draw: draw, holeOf: holeOf, HOLES: HOLES };
})();
