/* Step-through replay of a Fives match.
 *
 * Draws the states the rules engine computed: it knows no rule, only how to show them. The
 * page holds every state, packed (what changed since the state before: see unpackHand,
 * which unpacks a hand when it is first shown), and each hand's last layout; a very long match holds its first hand and fetches the rest
 * from the replay API after the first paint. The move list shows the current hand only,
 * so a step costs the same at hand 150 as at hand 1. Swipe the board left or right to
 * step on a touch screen. Where the tiles
 * lie is layout.js's business: each hand is laid out once, from its last layout, so no tile
 * moves while stepping, and the board keeps one size for the whole match (its largest
 * hand), each hand centred in it. Positions have addresses (#h3m17: hand 3, move 17; m0 is
 * the start of a hand), so a link opens at that move and the back button returns. Keys act
 * only while the replay has the focus or the pointer.
 */
(function () {
  "use strict";
  const root = document.getElementById("replay");
  if (!root || !window.FivesLayout) return;
  const Layout = window.FivesLayout;
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const text = JSON.parse(document.getElementById("replay-text").textContent);
  const SVG = "http://www.w3.org/2000/svg";
  const S = 20; // a tile's width in the board's units: a tile is 2S by S
  const MARGIN = 0.6; // round the largest hand, in tiles' widths
  const $ = (id) => root.querySelector("#" + id);
  const board = $("board");
  const timings = (window.replayTimings = []);
  // For the tests: every state, unpacked.
  window.replayStates = () => Array.from({ length: loaded }, (_, i) => stateAt(i));
  let current = 0;
  let view = "all";
  let timer = null;
  // The review's marks by the address of the table just after the play ("h3m17": hand and
  // move from 1, as the page gives them): [mark, loss, best play, unit], where the match is
  // analysed; shown unless the reader hid them (kept in this browser).
  const reviewData = document.getElementById("review-marks");
  const marks = new Map();
  if (reviewData) {
    for (const [hand, move, mark, loss, best, unit] of JSON.parse(reviewData.textContent)) {
      marks.set("h" + hand + "m" + move, { mark, loss, best, unit });
    }
  }
  const MARK_SIGNS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
  let showMarks = true;
  try {
    showMarks = window.localStorage.getItem("fives-review-marks") !== "hidden";
  } catch (error) {
    showMarks = true; // storage refused: marks shown
  }
  /* The review of the play of `state` that the reader may see (its seat's tiles are shown
     and the marks are not hidden), or null. */
  function reviewOf(state) {
    if (!showMarks || !state.action || !("play" in state.action) || !sees(state.seat)) return null;
    return marks.get(key(state)) || null;
  }
  function lossWords(review) {
    return fmt(review.unit === "chance" ? text.lost_chance : text.lost_points, { loss: review.loss });
  }

  // An end's name in the reader's language ("W" is "З" in Russian), and a play as the
  // engine writes it ("4-6 on N", or "4-6" for a lead) in the reader's words.
  function endName(end) {
    return text["end_" + end] || end;
  }

  function playName(play) {
    const [tile, , end] = String(play || "").split(" ");
    return end ? tile + " " + fmt(text.on_end, { end: endName(end) }) : tile;
  }

  function fmt(template, values) {
    return template.replace(/%\((\w+)\)s/g, (_, name) => String(values[name]));
  }
  function key(state) {
    return "h" + (state.hand + 1) + "m" + (state.move === null ? 0 : state.move + 1);
  }

  // --- the board's frame: each hand laid out once, the board sized by the largest -------
  const lasts = data.hands.map((hand) => Layout.expand(hand.layout));
  const frames = lasts.map((layout) => Layout.place(layout));
  const boxes = frames.map((f) => f.box).filter(Boolean);
  const width = Math.max(12, ...boxes.map((b) => b.x1 - b.x0)) + 2 * MARGIN;
  const height = Math.max(5, ...boxes.map((b) => b.y1 - b.y0)) + 2 * MARGIN;
  board.setAttribute("viewBox", [(-width / 2) * S, (-height / 2) * S, width * S, height * S].join(" "));
  board.setAttribute("data-width", width * S);
  board.setAttribute("data-height", height * S);
  // The board keeps the shape of the largest hand, whatever it shows: its size on the page
  // never changes while stepping (the buttons under it stay still).
  board.style.aspectRatio = width + " / " + height;
  // The fewest tiles' widths the board shows across: it closes in on the tiles laid so far
  // (a phone's board is small), but a lone lead is not drawn huge.
  const LEAST = 10;

  /* Show the tiles laid (``tiles``, about the frame's centre ox, oy) as large as the board
   * allows: their box and the margin, at the board's shape, never narrower than LEAST. */
  function frameTiles(tiles, ox, oy) {
    let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const r of tiles) {
      x0 = Math.min(x0, r.x - ox);
      y0 = Math.min(y0, r.y - oy);
      x1 = Math.max(x1, r.x + r.w - ox);
      y1 = Math.max(y1, r.y + r.h - oy);
    }
    if (x0 > x1) [x0, y0, x1, y1] = [0, 0, 0, 0];
    const w = Math.max(x1 - x0 + 2 * MARGIN, (y1 - y0 + 2 * MARGIN) * (width / height), LEAST);
    const h = w * (height / width);
    const cx = (x0 + x1) / 2;
    const cy = (y0 + y1) / 2;
    board.setAttribute("viewBox", [(cx - w / 2) * S, (cy - h / 2) * S, w * S, h * S].join(" "));
  }

  // --- the states, unpacked -------------------------------------------------------------
  /* The states from the page's packed form (replays.wire.states_packed): each packed
   * state holds what changed since the state before it in its hand (everything at a
   * hand's start, null for what went away); the layout is how many tiles of each arm of
   * the hand's last layout lie on the table ("2 1 0 0", W E N S), or the layout itself. */
  function spinnerAt(short) {
    if (!short) return null;
    return short === "L" ? { arm: null, index: null } : { arm: short[0], index: Number(short.slice(1)) };
  }
  /* What a packed state leaves out, worked out from the state before it and the move
   * (replays.wire.state_predicted, the same): the tiles on the table, one more on the
   * arm played to, and the hand of the seat that moved. */
  function predict(before, now) {
    const guess = {};
    const action = now.action;
    if (!action) return guess;
    if (typeof before.tiles === "string" && now.placed) {
      if (now.placed === "lead") guess.tiles = "0 0 0 0";
      else if ("WENS".includes(now.placed) && before.tiles) {
        const numbers = before.tiles.split(" ").map(Number);
        numbers["WENS".indexOf(now.placed)] += 1;
        guess.tiles = numbers.join(" ");
      }
    }
    const seat = "h" + action.seat;
    const held = before[seat];
    if (typeof held === "string") {
      let hand = held ? held.split(" ") : [];
      if ("play" in action) {
        const [low, high] = String(action.play).split("-");
        let at = hand.indexOf(action.play);
        if (at < 0) at = hand.indexOf(high + "-" + low);
        if (at < 0) hand = null;
        else hand.splice(at, 1);
      } else if ("draw" in action) {
        hand.push(action.draw);
        hand.sort();
      }
      if (hand) guess[seat] = hand.join(" ");
    }
    return guess;
  }
  // Where each hand starts among the positions: a position's place is worked out, not
  // looked up, and a hand is unpacked when it is first shown (a step into it, a link).
  const starts = [];
  data.hands.reduce((at, hand) => { starts.push(at); return at + hand.moves + 1; }, 0);
  let loaded = data.packed.length; // the positions the page holds (all but in a very long match)
  let complete = loaded === data.total;
  let full = null; // a very long match's states, from the API
  const unpacked = [];
  function handOf(i) {
    let [low, high] = [0, starts.length - 1];
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle] <= i) low = middle;
      else high = middle - 1;
    }
    return low;
  }
  function stateAt(i) {
    if (full) return full[i];
    if (!unpacked[i]) unpackHand(handOf(i));
    return unpacked[i];
  }
  /* The position of an address ("h3m17": hand 3, move 17; m0 the deal), or undefined. */
  function position(address) {
    const found = /^h(\d+)m(\d+)$/.exec(address);
    if (!found) return undefined;
    const hand = Number(found[1]) - 1;
    const move = Number(found[2]);
    if (hand < 0 || hand >= starts.length || move > data.hands[hand].moves) return undefined;
    return starts[hand] + move;
  }
  function unpackHand(hand) {
    let now = {};
    for (let move = -1; move < data.hands[hand].moves; move++) {
      const i = starts[hand] + move + 1;
      const change = data.packed[i];
      const before = now;
      now = Object.assign({}, before, change);
      const guess = move < 0 ? {} : predict(before, now);
      for (const name in guess) if (!(name in change)) now[name] = guess[name];
      let layout;
      if (now.layout) layout = Layout.expand(now.layout);
      else if (!now.tiles) layout = Layout.expand(null);
      else {
        const counts = now.tiles.split(" ").map(Number);
        const last = lasts[hand];
        const arms = {};
        ["W", "E", "N", "S"].forEach((arm, k) => { arms[arm] = last.arms[arm].slice(0, counts[k]); });
        layout = { lead: last.lead, arms: arms, spinner: spinnerAt(now.spinner) };
      }
      const action = now.action || null;
      unpacked[i] = {
        hand: hand, move: move < 0 ? null : move, action: action,
        seat: action ? action.seat : (now.seat === undefined ? null : now.seat),
        placed: now.placed, count: now.count, points: now.points, scores: now.scores,
        layout: layout,
        open_ends: now.open_ends ? now.open_ends.split(" ").map((e) => ({ end: e[0], pip: Number(e.slice(1)) })) : [],
        hands: data.players.map((_, seat) => (now["h" + seat] ? now["h" + seat].split(" ") : [])),
        pips: now.pips || null, boneyard: now.boneyard, turn: now.turn === undefined ? null : now.turn,
        hand_end: now.hand_end || null, settlement: now.settlement || null,
        winner: now.winner === undefined ? null : now.winner,
        best: now.best === undefined ? null : now.best, best_play: now.best_play || null,
      };
    }
  }

  // --- dominoes ---------------------------------------------------------------------------
  const PIPS = {
    0: [], 1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]],
    4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
    6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
  };
  function el(name, attrs, parent) {
    const node = document.createElementNS(SVG, name);
    for (const k in attrs) node.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(node);
    return node;
  }
  function half(group, cx, cy, pips, size, vertical) {
    const step = size * 0.27;
    for (const [a, b] of PIPS[pips]) {
      // Sixes run along the tile's length, as printed.
      const [dx, dy] = vertical ? [a, b] : [b, a];
      el("circle", { cx: cx + dx * step, cy: cy + dy * step, r: size * 0.09, class: "pip" }, group);
    }
  }
  /* A tile in the rectangle (x, y, w, h); along `dir` it shows `first` then `second`. */
  function tile(parent, x, y, w, h, dir, first, second, size, attrs) {
    const g = el("g", Object.assign({ class: "tile" }, attrs), parent);
    el("rect", { x: x + 1, y: y + 1, width: w - 2, height: h - 2, rx: size * 0.18, class: "face" }, g);
    const cx = x + w / 2;
    const cy = y + h / 2;
    if (w > h) {
      el("line", { x1: cx, y1: y + 4, x2: cx, y2: y + h - 4, class: "divider" }, g);
      const reversed = dir[0] < 0 || (dir[0] === 0 && dir[1] < 0);
      half(g, cx - w / 4, cy, reversed ? second : first, size, false);
      half(g, cx + w / 4, cy, reversed ? first : second, size, false);
    } else {
      el("line", { x1: x + 4, y1: cy, x2: x + w - 4, y2: cy, class: "divider" }, g);
      const reversed = dir[1] < 0 || (dir[1] === 0 && dir[0] < 0);
      half(g, cx, cy - h / 4, reversed ? second : first, size, true);
      half(g, cx, cy + h / 4, reversed ? first : second, size, true);
    }
    return g;
  }

  /* Draw a state's tiles. Within a hand a tile never moves, so a step adds or takes away
   * only the tiles that changed (redrawing the whole table made a step cost more). */
  let drawn = { hand: null, group: null, nodes: new Map() };
  function clearBoard() {
    while (board.firstChild) board.removeChild(board.firstChild);
    drawn = { hand: null, group: null, nodes: new Map() };
  }
  function drawBoard(state) {
    const layout = state.layout;
    if (!layout.lead) {
      clearBoard();
      frameTiles([], 0, 0);
      const note = el("text", { x: 0, y: 5, "text-anchor": "middle", class: "empty" }, board);
      note.textContent = text.empty_table;
      return;
    }
    const frame = frames[state.hand];
    const [ox, oy] = frame.centre;
    if (drawn.hand !== state.hand || !drawn.group) {
      clearBoard();
      drawn.hand = state.hand;
      drawn.group = el("g", { transform: "translate(" + -ox * S + " " + -oy * S + ")" }, board);
    }
    const group = drawn.group;
    const spinner = layout.spinner;
    const laid = Layout.visible(frame, layout);
    frameTiles(laid, ox, oy);
    const keep = new Set();
    let before = null; // the node drawn before this one: the tiles stay in the layout's order
    for (const r of laid) {
      const id = r.arm + r.index;
      keep.add(id);
      let node = drawn.nodes.get(id);
      if (!node) {
        node = tile(group, r.x * S, r.y * S, r.w * S, r.h * S, r.dir, r.first, r.second, S, {
          "data-tile": r.tile, "data-arm": r.arm, "data-index": r.index,
        });
        group.insertBefore(node, before ? before.nextSibling : group.firstChild);
        drawn.nodes.set(id, node);
      }
      node.classList.toggle("spinner", Boolean(spinner && ((spinner.arm === null && r.arm === "lead") || (spinner.arm === r.arm && spinner.index === r.index))));
      node.classList.toggle("last", Boolean(state.placed && r.arm === state.placed && (r.arm === "lead" || r.index === layout.arms[r.arm].length - 1)));
      before = node;
    }
    for (const [id, node] of drawn.nodes) {
      if (!keep.has(id)) {
        node.remove();
        drawn.nodes.delete(id);
      }
    }
  }

  function smallTiles(container, tiles, hidden) {
    const svg = el("svg", { class: "hand-tiles", viewBox: "0 0 " + Math.max(tiles.length, 1) * 22 + " 40", role: "img" }, null);
    tiles.forEach((t, i) => {
      const [a, b] = t.split("-").map(Number);
      if (hidden) {
        el("rect", { x: i * 22 + 2, y: 2, width: 18, height: 36, rx: 3, class: "back" }, svg);
      } else {
        tile(svg, i * 22 + 2, 2, 18, 36, [0, 1], a, b, 18, { "data-tile": t });
      }
    });
    if (tiles.length) {
      svg.setAttribute("aria-label", hidden ? fmt(text.hidden_tiles, { count: tiles.length }) : tiles.join(", "));
    } else {
      // A seat with no tile left (it went out): nothing to picture, nor to name.
      svg.removeAttribute("role");
      svg.setAttribute("aria-hidden", "true");
    }
    container.appendChild(svg);
  }

  // --- the panels -------------------------------------------------------------------------
  /* Whether the chosen view may see what `seat` holds: everyone's, or that seat's own. */
  function sees(seat) {
    return view === "all" || Number(view) === seat;
  }
  // A drawn tile is named for whoever may see that seat's tiles, and only when the log
  // names it: a table record writes a draw nobody saw as "?".
  function shown(state) {
    return sees(state.seat) && state.action.draw !== "?";
  }
  function describe(state) {
    if (!state.action) return fmt(text.hand_start, { hand: state.hand + 1 });
    const who = data.players[state.seat];
    const action = state.action;
    if ("play" in action) {
      const where = state.placed === "lead" ? text.leads : fmt(text.on_end, { end: endName(state.placed) });
      const scored = state.points ? fmt(text.count_points, { count: state.count, points: state.points }) : fmt(text.count_only, { count: state.count });
      let said = fmt(text.plays, { player: who, tile: action.play, where: where }) + " — " + scored;
      // A better play names a tile of that hand: only for whoever may see it.
      if (state.best > state.points && sees(state.seat)) said += " · " + fmt(text.missed, { best: state.best, play: playName(state.best_play) });
      if ("points" in action && action.points !== state.points) said += " · " + fmt(text.claimed, { claimed: action.points });
      const review = reviewOf(state);
      if (review) {
        said += " · " + (review.mark ? MARK_SIGNS[review.mark] + " " + text["mark_" + review.mark] + ", " : "") + lossWords(review);
      }
      return said;
    }
    if ("draw" in action) {
      return shown(state) ? fmt(text.draws, { player: who, tile: action.draw }) : fmt(text.draws_hidden, { player: who });
    }
    return fmt(text.passes, { player: who });
  }

  function render(i) {
    const started = performance.now();
    current = i;
    const state = stateAt(i);
    drawBoard(state);
    $("position").textContent = state.move === null
      ? fmt(text.position_start, { hand: state.hand + 1 })
      : fmt(text.position, { hand: state.hand + 1, move: state.move + 1 });
    // "Analyse from here": the board at the position before the next play (from 1).
    const here = document.getElementById("analyse-here");
    if (here) here.href = here.dataset.base + "&hand=" + (state.hand + 1) + "&move=" + (state.move === null ? 1 : state.move + 2);
    $("open-ends").textContent = state.open_ends.map((e) => endName(e.end) + " " + e.pip).join(", ") || "—";
    $("count").textContent = state.count;
    $("last-move").textContent = describe(state);
    // Beside the board: the best play where the play made was marked.
    const review = reviewOf(state);
    const best = $("review-best");
    if (review && review.mark) {
      best.textContent = fmt(text.review_best, { play: playName(review.best) });
      best.className = "review-best mark-" + review.mark;
      best.hidden = false;
    } else {
      best.hidden = true;
    }
    $("boneyard").textContent = state.boneyard;
    $("turn").textContent = state.turn === null ? "—" : data.players[state.turn];
    const scores = $("scores");
    scores.textContent = "";
    data.team_names.forEach((name, team) => {
      const item = document.createElement("li");
      item.setAttribute("data-team", team);
      const label = document.createElement("span");
      label.textContent = name + ": ";
      const value = document.createElement("strong");
      value.className = "score";
      value.textContent = state.scores[team];
      item.append(label, value);
      if (state.winner === team) item.classList.add("winner");
      scores.appendChild(item);
    });
    // A seat's row is drawn again only when what it shows changed (one seat a move).
    const hands = $("hands");
    state.hands.forEach((tiles, seat) => {
      const hidden = !sees(seat);
      const named = data.players[seat] + (state.hand_end ? " · " + fmt(text.pips_left, { pips: state.pips[seat] }) : "");
      const shows = [hidden, named, tiles.join(" ")].join("|");
      let row = hands.children[seat];
      if (!row) {
        row = document.createElement("div");
        row.setAttribute("data-seat", seat);
        hands.appendChild(row);
      }
      row.className = "seat" + (state.turn === seat ? " to-play" : "");
      if (row.dataset.shows === shows) return;
      row.dataset.shows = shows;
      row.textContent = "";
      row.setAttribute("data-hidden", hidden ? "1" : "0");
      const name = document.createElement("span");
      name.className = "seat-name";
      name.textContent = named;
      row.appendChild(name);
      smallTiles(row, tiles, hidden);
    });
    const end = $("hand-end");
    if (state.hand_end) {
      const settled = state.settlement ? data.team_names.map((n, t) => n + " " + (state.settlement[t] >= 0 ? "+" : "") + state.settlement[t]).join(", ") : "";
      end.textContent = fmt(text.hand_ended, { how: text["end_" + state.hand_end] }) + (settled ? " " + fmt(text.settlement, { list: settled }) : "");
      end.classList.remove("quiet");
    } else {
      end.textContent = " ";
      end.classList.add("quiet");
    }
    drawCribbage(i);
    if (state.hand !== listed) buildMoveList(state.hand);
    markMove(i);
    $("prev").disabled = $("first").disabled = i === 0;
    $("next").disabled = $("last").disabled = complete && i === loaded - 1;
    timings.push(performance.now() - started);
  }

  /* The scores at position i on the cribbage board beside the score chart (cribbage.js),
   * while it is open: each side's front peg at its score, its back peg at its score before
   * its last scoring play (the positions before i, walked back until each side changed). */
  const cribbageBox = document.getElementById("cribbage-box");
  function drawCribbage(i) {
    if (!cribbageBox || !cribbageBox.open || !window.FivesCribbage) return;
    const now = stateAt(i).scores;
    const back = now.map(() => null);
    for (let j = i - 1; j >= 0 && back.includes(null); j--) {
      stateAt(j).scores.forEach((score, team) => {
        if (back[team] === null && score !== now[team]) back[team] = score;
      });
    }
    window.FivesCribbage.draw(cribbageBox.querySelector("svg"), {
      target: Number(cribbageBox.dataset.target), names: data.team_names,
      scores: now, back: back.map((score) => (score === null ? 0 : score)),
    });
  }
  if (cribbageBox) cribbageBox.addEventListener("toggle", () => drawCribbage(current));

  /* Mark the move in the list and scroll the list alone (never the page, nor a host page
   * round an embed). */
  function markMove(i) {
    const list = $("move-list");
    const old = list.querySelector("[aria-current]");
    if (old) old.removeAttribute("aria-current");
    const mine = list.querySelector('[data-state="' + i + '"]');
    if (!mine) return;
    mine.setAttribute("aria-current", "true");
    if (list.matches(":hover") || list.scrollHeight <= list.clientHeight) return;
    const top = mine.getBoundingClientRect().top - list.getBoundingClientRect().top + list.scrollTop;
    if (top < list.scrollTop || top + mine.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = Math.max(0, top - list.clientHeight / 2);
    }
  }

  let wanted = null; // an address beyond the states loaded yet
  function go(i, push) {
    if (!complete && i > loaded - 1) {
      wanted = i;
      i = loaded - 1;
    }
    i = Math.max(0, Math.min(loaded - 1, i));
    const address = "#" + key(stateAt(i));
    if (push) history.pushState(null, "", address);
    else history.replaceState(null, "", address);
    render(i);
  }
  function handStart(from, direction) {
    const state = stateAt(from);
    if (direction < 0 && state.move !== null) return starts[state.hand];
    const start = starts[state.hand + direction];
    return start === undefined ? from : start; // beyond what is loaded: go() waits for it
  }
  function lastIndex() {
    return data.total - 1;
  }
  function stop() {
    if (timer) clearInterval(timer);
    timer = null;
    $("play").setAttribute("aria-pressed", "false");
    $("play").textContent = "▶";
    $("play").setAttribute("aria-label", text.play);
  }
  function toggle() {
    if (timer) return stop();
    if (complete && current === loaded - 1) go(0, false);
    $("play").setAttribute("aria-pressed", "true");
    $("play").textContent = "❚❚";
    $("play").setAttribute("aria-label", text.pause);
    timer = setInterval(() => {
      if (current >= loaded - 1) return stop();
      go(current + 1, false);
    }, 700);
  }

  // --- the move list ----------------------------------------------------------------------
  /* The moves of one hand (the current one), with the hands before and after it as links:
   * a list of every move of a 200-hand match held 12,000 elements and made each step
   * longer than a frame. */
  let listed = -1; // the hand the list shows
  function handButton(hand, label, parent) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = label;
    button.setAttribute("data-state", starts[hand]);
    parent.appendChild(button);
    return button;
  }
  function buildMoveList(hand) {
    listed = hand;
    const list = $("move-list");
    list.textContent = "";
    const fragment = document.createDocumentFragment();
    const hands = data.hands.length;
    if (hand > 0) {
      handButton(hand - 1, "‹ " + fmt(text.hand_heading, { hand: hand }), fragment).className = "other-hand";
    }
    const heading = document.createElement("h3");
    handButton(hand, fmt(text.hand_of, { hand: hand + 1, hands: hands }), heading);
    fragment.appendChild(heading);
    const ol = document.createElement("ol");
    const start = starts[hand];
    const end = Math.min(start + data.hands[hand].moves, loaded - 1);
    for (let i = start + 1; i <= end; i++) {
      const state = stateAt(i);
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.setAttribute("data-state", i);
      const action = state.action;
      const seen = sees(state.seat);
      const what = "play" in action ? action.play : "draw" in action ? (shown(state) ? text.draw + " " + action.draw : text.draw) : text.pass;
      button.textContent = data.players[state.seat] + " " + what + (state.points ? " +" + state.points : "");
      if (state.points) button.classList.add("scored");
      if (state.best > state.points && seen) {
        button.classList.add("missed");
        button.title = fmt(text.missed, { best: state.best, play: playName(state.best_play) });
        button.textContent += " (" + fmt(text.missed_short, { missed: state.best - state.points }) + ")";
      }
      const review = reviewOf(state);
      if (review && review.mark) {
        const badge = document.createElement("span");
        badge.className = "review-mark mark-" + review.mark;
        badge.textContent = " " + MARK_SIGNS[review.mark] + " −" + review.loss;
        badge.title = text["mark_" + review.mark] + ": " + lossWords(review);
        button.appendChild(badge);
      }
      item.appendChild(button);
      ol.appendChild(item);
    }
    fragment.appendChild(ol);
    if (start >= loaded) {
      const more = document.createElement("p");
      more.className = "muted loading";
      more.textContent = text.loading;
      fragment.appendChild(more);
    }
    if (hand < hands - 1) {
      handButton(hand + 1, fmt(text.hand_heading, { hand: hand + 2 }) + " ›", fragment).className = "other-hand";
    }
    list.appendChild(fragment);
  }

  // --- wiring -----------------------------------------------------------------------------
  $("move-list").addEventListener("click", (event) => {
    const target = event.target.closest("[data-state]");
    if (target) {
      stop();
      go(Number(target.getAttribute("data-state")), true);
    }
  });
  $("first").addEventListener("click", () => { stop(); go(0, false); });
  $("prev").addEventListener("click", () => { stop(); go(current - 1, false); });
  $("next").addEventListener("click", () => { stop(); go(current + 1, false); });
  $("last").addEventListener("click", () => { stop(); go(lastIndex(), false); });
  $("prev-hand").addEventListener("click", () => { stop(); go(handStart(current, -1), true); });
  $("next-hand").addEventListener("click", () => { stop(); go(handStart(current, 1), true); });
  $("play").addEventListener("click", toggle);
  const marksToggle = $("show-marks");
  if (marksToggle && marks.size) {
    marksToggle.checked = showMarks;
    marksToggle.closest("label").hidden = false;
    marksToggle.addEventListener("change", () => {
      showMarks = marksToggle.checked;
      try {
        window.localStorage.setItem("fives-review-marks", showMarks ? "shown" : "hidden");
      } catch (error) {
        // storage refused: the choice holds for this page only
      }
      listed = -1;
      render(current);
    });
  }
  $("view").addEventListener("change", (event) => {
    view = event.target.value;
    listed = -1; // the list names what this view may see
    render(current);
  });
  // Keys belong to the replay: they act while it has the focus or the pointer is over it.
  let pointer = false;
  root.addEventListener("pointerenter", () => { pointer = true; });
  root.addEventListener("pointerleave", () => { pointer = false; });
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
    const focused = root.contains(document.activeElement);
    if (!focused && !pointer) return;
    const target = event.target;
    // A table's scroll box keeps the arrows it scrolls by; the replay's letters still step
    // it while the pointer is over the board.
    const box = target.getAttribute && target.getAttribute("role") === "region";
    const page = target === document.body || target === document.documentElement;
    if (!focused && !page && !(box && (event.key === "j" || event.key === "k"))) return;
    const tag = (target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "select" || tag === "textarea") return;
    const moves = { ArrowLeft: -1, k: -1, ArrowRight: 1, j: 1 };
    if (event.key in moves) { stop(); go(current + moves[event.key], false); }
    else if (event.key === "ArrowUp") { stop(); go(handStart(current, -1), true); }
    else if (event.key === "ArrowDown") { stop(); go(handStart(current, 1), true); }
    else if (event.key === "Home") { stop(); go(0, false); }
    else if (event.key === "End") { stop(); go(lastIndex(), false); }
    else return;
    event.preventDefault();
  });
  // Swipe the board left for the next move, right for the one before. The board lets
  // the page scroll up and down (touch-action in site.css), so a swipe up still scrolls.
  const frameBox = root.querySelector(".board-frame");
  let touch = null;
  frameBox.addEventListener("touchstart", (event) => {
    touch = event.touches.length === 1 ? { x: event.touches[0].clientX, y: event.touches[0].clientY } : null;
  }, { passive: true });
  frameBox.addEventListener("touchcancel", () => { touch = null; });
  frameBox.addEventListener("touchend", (event) => {
    if (!touch || event.changedTouches.length !== 1) return;
    const dx = event.changedTouches[0].clientX - touch.x;
    const dy = event.changedTouches[0].clientY - touch.y;
    touch = null;
    if (Math.abs(dx) < 40 || Math.abs(dx) < 1.5 * Math.abs(dy)) return;
    stop();
    go(current + (dx < 0 ? 1 : -1), false);
  });

  function fromAddress() {
    const found = position(location.hash.slice(1));
    return found === undefined || found >= loaded ? 0 : found;
  }
  window.addEventListener("popstate", () => { stop(); render(fromAddress()); });
  window.addEventListener("hashchange", () => { stop(); render(fromAddress()); });

  /* The rest of a long match, from the replay API, once the page is up. */
  function loadRest() {
    fetch(data.api, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then((response) => {
        if (!response.ok) throw new Error(response.status);
        return response.json();
      })
      .then((body) => {
        // The API numbers hands and moves from 1 (docs/api.md); the page counts from 0.
        for (const state of body.states) {
          state.hand -= 1;
          if (state.move !== null) state.move -= 1;
        }
        full = body.states;
        loaded = full.length;
        complete = true;
        listed = -1;
        const address = position(location.hash.slice(1));
        if (wanted !== null) go(wanted, false);
        else if (address !== undefined) render(address);
        else render(current);
        wanted = null;
        root.setAttribute("data-complete", "1");
        performance.mark("replay-complete");
      })
      .catch(() => {
        const more = $("move-list").querySelector(".loading");
        if (more) more.textContent = text.load_failed;
      });
  }

  // An address beyond the first states opens there once the rest is loaded (loadRest).
  render(fromAddress());
  timings.length = 0;
  root.setAttribute("data-ready", "1");
  performance.mark("replay-ready");
  if (complete) {
    root.setAttribute("data-complete", "1");
    performance.mark("replay-complete"); // every move steppable
  }
  if (!complete) {
    if (window.requestAnimationFrame) requestAnimationFrame(() => setTimeout(loadRest, 0));
    else setTimeout(loadRest, 0);
  }
})();
