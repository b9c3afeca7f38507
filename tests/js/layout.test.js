/* The board's geometry (replays/static/replays/layout.js) over simulated matches and over
 * the longest arms the rules allow: no two tiles overlap, every joint touches, doubles lie
 * across the line, the spinner's cross is free, and a hand laid out once keeps its tiles.
 *
 * Run by tests/js/test_js.py (`node --test`), which writes the engine's states to the file
 * named by FIVES_LAYOUT_STATES: {"matches": [{"name": ..., "hands": [[layout, ...], ...]}]}.
 */
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const Layout = require(path.join(__dirname, "../../replays/static/replays/layout.js"));

const EPS = 1e-9;
function touches(p, q) {
  const xs = Math.min(p.x + p.w, q.x + q.w) - Math.max(p.x, q.x);
  const ys = Math.min(p.y + p.h, q.y + q.h) - Math.max(p.y, q.y);
  return (xs > EPS && Math.abs(ys) < EPS) || (ys > EPS && Math.abs(xs) < EPS);
}
function spinnerOf(layout) {
  const s = layout.spinner;
  if (!s) return null;
  return s.arm === null ? ["lead", 0] : [s.arm, s.index];
}

/* Every property of one placed layout; returns a list of what is wrong. */
function problems(layout, placed) {
  const wrong = [];
  const tiles = placed.tiles;
  const count = (layout.lead ? 1 : 0) + ["W", "E", "N", "S"].reduce((n, arm) => n + layout.arms[arm].length, 0);
  if (tiles.length !== count) wrong.push(`placed ${tiles.length} tiles of ${count}`);
  for (let i = 0; i < tiles.length; i += 1) {
    for (let j = i + 1; j < tiles.length; j += 1) {
      if (Layout.overlap(tiles[i], tiles[j])) wrong.push(`overlap ${tiles[i].arm}${tiles[i].index} ${tiles[j].arm}${tiles[j].index}`);
    }
  }
  const at = new Map(tiles.map((r) => [r.arm + r.index, r]));
  const spin = spinnerOf(layout);
  const cross = spin ? at.get(spin[0] + spin[1]) : null;
  for (const r of tiles) {
    const want = r.arm === "lead" ? layout.lead : layout.arms[r.arm][r.index].tile;
    if (r.tile !== want) wrong.push(`tile ${r.arm}${r.index} ${r.tile} is not ${want}`);
    const long = r.w > r.h ? "x" : "y";
    const along = r.dir[0] !== 0 ? "x" : "y";
    if (r.double && r.corner) wrong.push(`double ${r.tile} on a corner`);
    if (r.double && long === along) wrong.push(`double ${r.tile} lies in line`);
    if (!r.double && long !== along) wrong.push(`tile ${r.tile} lies across its line`);
    // Each tile touches the one it joins.
    let before = null;
    if (r.arm === "W" || r.arm === "E") before = r.index === 0 ? at.get("lead0") : at.get(r.arm + (r.index - 1));
    if (r.arm === "N" || r.arm === "S") before = r.index === 0 ? cross : at.get(r.arm + (r.index - 1));
    if (r.arm !== "lead" && !(before && touches(before, r))) wrong.push(`joint before ${r.arm}${r.index} not visible`);
  }
  if (cross) {
    if (cross.corner) wrong.push("the spinner is on a corner");
    if (!(cross.h > cross.w)) wrong.push("the spinner does not lie across the line");
    if (Math.abs(cross.y + cross.h / 2) > EPS) wrong.push("the spinner is off the line");
    for (const arm of ["N", "S"]) {
      const first = at.get(arm + 0);
      if (first && Math.abs(first.x + first.w / 2 - (cross.x + cross.w / 2)) > EPS) wrong.push(`${arm} does not leave the spinner's middle`);
    }
  }
  return wrong;
}

/* A hand: each state's own layout, and the hand's last layout shown move by move. */
function checkHand(name, hand) {
  const last = hand[hand.length - 1];
  const frame = Layout.place(last);
  let positions = 0;
  for (const [move, layout] of hand.entries()) {
    positions += 1;
    const alone = problems(layout, Layout.place(layout));
    assert.deepEqual(alone, [], `${name} move ${move}: ${alone.join("; ")}`);
    const shown = Layout.visible(frame, layout);
    const own = Layout.place(layout).tiles.map((r) => r.arm + r.index + ":" + r.tile).sort();
    assert.deepEqual(shown.map((r) => r.arm + r.index + ":" + r.tile).sort(), own, `${name} move ${move}: the hand's frame shows other tiles`);
  }
  assert.deepEqual(problems(last, frame), [], `${name}: last layout`);
  return { positions: positions, box: frame.box };
}

const file = process.env.FIVES_LAYOUT_STATES;
test("simulated matches: every position of every hand", { skip: !file && "FIVES_LAYOUT_STATES not set" }, () => {
  const data = JSON.parse(fs.readFileSync(file, "utf8"));
  let positions = 0;
  let worst = { w: 0, h: 0 };
  for (const match of data.matches) {
    // The board of a match: the largest hand, each hand centred in it.
    const boxes = match.hands.map((hand, h) => checkHand(`${match.name} hand ${h + 1}`, hand)).map((r) => {
      positions += r.positions;
      return r.box;
    }).filter(Boolean);
    const w = Math.max(...boxes.map((b) => b.x1 - b.x0));
    const h = Math.max(...boxes.map((b) => b.y1 - b.y0));
    for (const b of boxes) {
      const dx = -(b.x0 + b.x1) / 2;
      const dy = -(b.y0 + b.y1) / 2;
      assert.ok(b.x0 + dx >= -w / 2 - EPS && b.x1 + dx <= w / 2 + EPS && b.y0 + dy >= -h / 2 - EPS && b.y1 + dy <= h / 2 + EPS, `${match.name}: a hand leaves the board`);
    }
    if (w * h > worst.w * worst.h) worst = { w: w, h: h, name: match.name };
  }
  console.log(`layout: ${data.matches.length} matches, ${positions} positions; largest board ${worst.w} x ${worst.h} (${worst.name})`);
  assert.ok(positions > 1000);
});

// --- the longest arms the rules allow ---------------------------------------------------
/* All 28 tiles of the double-six set in one line (an Euler circuit of the pips 0..6, each
 * with its loop): consecutive tiles join, and no two doubles are neighbours. */
function eulerLine(startPip) {
  const used = new Set();
  const name = (a, b) => (a <= b ? `${a}-${b}` : `${b}-${a}`);
  const path = [];
  (function walk(pip) {
    for (let next = 0; next <= 6; next += 1) {
      const key = name(pip, next);
      if (used.has(key)) continue;
      used.add(key);
      walk(next);
      path.push([next, pip]);
    }
  })(startPip);
  return path.reverse().map(([a, b]) => `${a}-${b}`);
}
const LINES = [0, 3, 6].map(eulerLine);
function arm(tiles) {
  return tiles.map((t) => ({ tile: t, double: t.split("-")[0] === t.split("-")[1] }));
}
function* extremes() {
  for (const line of LINES) {
    assert.equal(new Set(line.map((t) => t.split("-").sort().join("-"))).size, 28);
    for (let lead = 0; lead < 28; lead += 1) {
      // A line without a spinner: the lead somewhere, everything else on its two arms.
      const rest = line.slice(lead + 1).concat(line.slice(0, lead));
      for (const west of [0, 1, 5, 13, rest.length]) {
        yield { lead: line[lead], arms: { W: arm(rest.slice(0, west)), E: arm(rest.slice(west)), N: [], S: [] }, spinner: null };
      }
      // With a spinner: each double of an arm in turn, the rest shared out between the cross's arms.
      for (const [name, other] of [["E", "W"], ["W", "E"]]) {
        for (const [k, tile] of rest.entries()) {
          if (tile.split("-")[0] !== tile.split("-")[1]) continue;
          const mine = rest.slice(0, k + 1);
          const left = rest.slice(k + 1);
          for (const share of [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1], [0.25, 0.25, 0.25, 0.25], [0, 0.5, 0.5, 0], [0.5, 0, 0, 0.5], [0.1, 0.1, 0.4, 0.4]]) {
            const sizes = share.map((f) => Math.floor(f * left.length));
            sizes[0] += left.length - sizes.reduce((a, b) => a + b, 0);
            let at = 0;
            const piece = (n) => { const p = left.slice(at, at + n); at += n; return p; };
            const more = piece(sizes[0]);
            const arms = { W: [], E: [], N: [], S: [] };
            arms[name] = arm(mine.concat(more));
            arms[other] = arm(piece(sizes[1]));
            arms.N = arm(piece(sizes[2]));
            arms.S = arm(piece(sizes[3]));
            yield { lead: line[lead], arms: arms, spinner: { arm: name, index: k } };
          }
        }
      }
      // A double lead is the spinner itself.
      if (line[lead].split("-")[0] === line[lead].split("-")[1]) {
        for (let n = 0; n <= rest.length; n += 3) {
          for (let m = 0; m <= rest.length - n; m += 4) {
            const arms = { W: arm(rest.slice(0, n)), E: arm(rest.slice(n, n + m)), N: [], S: [] };
            const left = rest.slice(n + m);
            arms.N = arm(left.slice(0, Math.ceil(left.length / 2)));
            arms.S = arm(left.slice(Math.ceil(left.length / 2)));
            yield { lead: line[lead], arms: arms, spinner: { arm: null, index: null } };
          }
        }
      }
    }
  }
}

test("the longest arms the rules allow, every spinner place", () => {
  let count = 0;
  let longest = 0;
  for (const layout of extremes()) {
    // Grown one tile at a time, outermost first, like a hand.
    const hand = [];
    const grow = { lead: layout.lead, arms: { W: [], E: [], N: [], S: [] }, spinner: null };
    hand.push(JSON.parse(JSON.stringify(grow)));
    for (const name of ["W", "E", "N", "S"]) {
      layout.arms[name].forEach((t, i) => {
        grow.arms[name].push(t);
        if (layout.spinner && layout.spinner.arm === name && layout.spinner.index === i) grow.spinner = layout.spinner;
        hand.push(JSON.parse(JSON.stringify(grow)));
      });
    }
    if (layout.spinner && layout.spinner.arm === null) hand.forEach((l) => { l.spinner = layout.spinner; });
    // Outer arms before the spinner would not exist: keep N/S only once there is a spinner.
    const real = hand.filter((l) => l.spinner || (!l.arms.N.length && !l.arms.S.length));
    checkHand(`extreme ${count}`, real);
    count += 1;
    longest = Math.max(longest, ...["W", "E", "N", "S"].map((a) => layout.arms[a].length));
  }
  console.log(`layout: ${count} extreme layouts, the longest arm ${longest} tiles`);
  assert.equal(longest, 27);
});

module.exports = { problems, eulerLine };
