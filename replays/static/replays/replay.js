/* Step-through replay of a Fives match.
 *
 * Draws the states the rules engine computed (the JSON in #replay-data): it knows no rule,
 * only how to lay dominoes out. Positions have addresses (#h3m17: hand 3, move 17; m0 is
 * the start of a hand), so a link opens at that move and the back button returns.
 */
(function () {
  "use strict";
  const root = document.getElementById("replay");
  if (!root) return;
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const text = JSON.parse(document.getElementById("replay-text").textContent);
  const states = data.states;
  const SVG = "http://www.w3.org/2000/svg";
  const S = 20; // half a tile: a tile is 2S by S
  const RUN = { W: 10 * S, E: 10 * S, N: 6 * S, S: 6 * S };
  const $ = (id) => root.querySelector("#" + id);
  const board = $("board");
  const timings = (window.replayTimings = []);
  let current = 0;
  let view = "all";
  let timer = null;

  function fmt(template, values) {
    return template.replace(/%\((\w+)\)s/g, (_, name) => String(values[name]));
  }
  function key(state) {
    return "h" + (state.hand + 1) + "m" + (state.move === null ? 0 : state.move + 1);
  }
  const index = new Map(states.map((state, i) => [key(state), i]));

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
  /* A tile centred at (cx, cy). Along the direction (dx, dy) it shows `first` then
   * `second`; a double lies across the line. */
  function tile(parent, cx, cy, dx, dy, first, second, size, attrs, upright) {
    const double = first === second && !upright;
    const along = double ? size : 2 * size;
    const across = double ? 2 * size : size;
    const horizontal = dx !== 0;
    const w = horizontal ? along : across;
    const h = horizontal ? across : along;
    const g = el("g", Object.assign({ class: "tile" }, attrs), parent);
    el("rect", { x: cx - w / 2 + 1, y: cy - h / 2 + 1, width: w - 2, height: h - 2, rx: size * 0.18, class: "face" }, g);
    if (w > h) {
      el("line", { x1: cx, y1: cy - h / 2 + 4, x2: cx, y2: cy + h / 2 - 4, class: "divider" }, g);
      const left = dx < 0 ? second : first;
      const right = dx < 0 ? first : second;
      half(g, cx - w / 4, cy, left, size, false);
      half(g, cx + w / 4, cy, right, size, false);
    } else {
      el("line", { x1: cx - w / 2 + 4, y1: cy, x2: cx + w / 2 - 4, y2: cy, class: "divider" }, g);
      const top = dy < 0 ? second : first;
      const bottom = dy < 0 ? first : second;
      half(g, cx, cy - h / 4, top, size, true);
      half(g, cx, cy + h / 4, bottom, size, true);
    }
    return { x0: cx - w / 2, y0: cy - h / 2, x1: cx + w / 2, y1: cy + h / 2 };
  }

  /* Lay an arm outwards from `start` in direction `dir`; a long arm steps aside by one
   * tile (turning clockwise, then back) so the layout stays compact. Returns the boxes and,
   * when the spinner lies in this arm, where its cross starts. */
  function layArm(group, tiles, start, dir, limit, name, spinnerIndex, boxes) {
    let [x, y] = start;
    let [dx, dy] = dir;
    const main = dir;
    const side = [-dir[1], dir[0]];
    let run = 0;
    let stepping = false;
    let lastAcross = S / 2;
    let cross = null;
    tiles.forEach((t, i) => {
      const [a, b] = t.tile.split("-").map(Number);
      const length = t.double ? S : 2 * S;
      let turn = null;
      if (stepping) {
        turn = main;
        stepping = false;
        run = 0;
      } else if (run + length > limit && i > 0) {
        turn = side;
        stepping = true;
      }
      if (turn) {
        x += -dx * (S / 2) + turn[0] * lastAcross;
        y += -dy * (S / 2) + turn[1] * lastAcross;
        [dx, dy] = turn;
      }
      const cx = x + (dx * length) / 2;
      const cy = y + (dy * length) / 2;
      boxes.push(tile(group, cx, cy, dx, dy, a, b, S, { "data-tile": t.tile, "data-arm": name, "data-index": i }));
      if (i === spinnerIndex) {
        const up = dy === 0 ? [0, -1] : [-1, 0];
        cross = { centre: [cx, cy], up: up };
      }
      x += dx * length;
      y += dy * length;
      run += length;
      lastAcross = t.double ? S : S / 2;
    });
    return cross;
  }

  function drawBoard(state) {
    while (board.firstChild) board.removeChild(board.firstChild);
    const layout = state.layout;
    const group = el("g", {}, board);
    const boxes = [];
    if (!layout.lead) {
      board.setAttribute("viewBox", "-60 -30 120 60");
      const note = el("text", { x: 0, y: 5, "text-anchor": "middle", class: "empty" }, group);
      note.textContent = text.empty_table;
      return;
    }
    const [w, e] = layout.lead.split("-").map(Number);
    const leadDouble = w === e;
    boxes.push(tile(group, 0, 0, 1, 0, w, e, S, { "data-tile": layout.lead, "data-arm": "lead", "data-index": 0 }));
    const half = leadDouble ? S / 2 : S;
    const spinner = layout.spinner;
    const inArm = (name) => (spinner && spinner.arm === name ? spinner.index : -1);
    const crossW = layArm(group, layout.arms.W, [-half, 0], [-1, 0], RUN.W, "W", inArm("W"), boxes);
    const crossE = layArm(group, layout.arms.E, [half, 0], [1, 0], RUN.E, "E", inArm("E"), boxes);
    let cross = crossW || crossE;
    if (spinner && spinner.arm === null) cross = { centre: [0, 0], up: [0, -1] };
    if (cross) {
      const [cx, cy] = cross.centre;
      const [ux, uy] = cross.up;
      layArm(group, layout.arms.N, [cx + ux * S, cy + uy * S], [ux, uy], RUN.N, "N", -1, boxes);
      layArm(group, layout.arms.S, [cx - ux * S, cy - uy * S], [-ux, -uy], RUN.S, "S", -1, boxes);
    }
    // Mark the spinner and the tile just played.
    const tiles = group.querySelectorAll(".tile");
    tiles.forEach((node) => {
      const arm = node.getAttribute("data-arm");
      const i = Number(node.getAttribute("data-index"));
      if (spinner && ((spinner.arm === null && arm === "lead") || (spinner.arm === arm && spinner.index === i))) {
        node.classList.add("spinner");
      }
      if (state.placed && arm === state.placed && (arm === "lead" || i === layout.arms[arm].length - 1)) {
        node.classList.add("last");
      }
    });
    const x0 = Math.min(...boxes.map((b) => b.x0)) - S;
    const y0 = Math.min(...boxes.map((b) => b.y0)) - S;
    const x1 = Math.max(...boxes.map((b) => b.x1)) + S;
    const y1 = Math.max(...boxes.map((b) => b.y1)) + S;
    board.setAttribute("viewBox", [x0, y0, Math.max(x1 - x0, 12 * S), Math.max(y1 - y0, 6 * S)].join(" "));
  }

  function smallTiles(container, tiles, hidden) {
    const svg = el("svg", { class: "hand-tiles", viewBox: "0 0 " + Math.max(tiles.length, 1) * 22 + " 40", role: "img" }, null);
    tiles.forEach((t, i) => {
      const [a, b] = t.split("-").map(Number);
      if (hidden) {
        el("rect", { x: i * 22 + 2, y: 2, width: 18, height: 36, rx: 3, class: "back" }, svg);
      } else {
        tile(svg, i * 22 + 11, 20, 0, 1, a, b, 18, { "data-tile": t }, true);
      }
    });
    svg.setAttribute("aria-label", hidden ? fmt(text.hidden_tiles, { count: tiles.length }) : tiles.join(", "));
    container.appendChild(svg);
  }

  // --- the panels -------------------------------------------------------------------------
  function describe(state) {
    if (!state.action) return fmt(text.hand_start, { hand: state.hand + 1 });
    const who = data.players[state.seat];
    const action = state.action;
    if ("play" in action) {
      const where = state.placed === "lead" ? text.leads : fmt(text.on_end, { end: state.placed });
      const scored = state.points ? fmt(text.count_points, { count: state.count, points: state.points }) : fmt(text.count_only, { count: state.count });
      let said = fmt(text.plays, { player: who, tile: action.play, where: where }) + " — " + scored;
      if (state.best > state.points) said += " · " + fmt(text.missed, { best: state.best, play: state.best_play });
      if ("points" in action && action.points !== state.points) said += " · " + fmt(text.claimed, { claimed: action.points });
      return said;
    }
    if ("draw" in action) return fmt(text.draws, { player: who, tile: action.draw });
    return fmt(text.passes, { player: who });
  }

  function render(i) {
    const started = performance.now();
    current = i;
    const state = states[i];
    drawBoard(state);
    $("position").textContent = state.move === null
      ? fmt(text.position_start, { hand: state.hand + 1 })
      : fmt(text.position, { hand: state.hand + 1, move: state.move + 1 });
    $("open-ends").textContent = state.open_ends.map((e) => e.end + " " + e.pip).join(", ") || "—";
    $("count").textContent = state.count;
    $("last-move").textContent = describe(state);
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
    const hands = $("hands");
    hands.textContent = "";
    state.hands.forEach((tiles, seat) => {
      const row = document.createElement("div");
      row.className = "seat" + (state.turn === seat ? " to-play" : "");
      row.setAttribute("data-seat", seat);
      const hidden = view !== "all" && Number(view) !== seat;
      row.setAttribute("data-hidden", hidden ? "1" : "0");
      const name = document.createElement("span");
      name.className = "seat-name";
      name.textContent = data.players[seat] + (state.hand_end ? " · " + fmt(text.pips_left, { pips: state.pips[seat] }) : "");
      row.appendChild(name);
      smallTiles(row, tiles, hidden);
      hands.appendChild(row);
    });
    const end = $("hand-end");
    if (state.hand_end) {
      const settled = state.settlement ? data.team_names.map((n, t) => n + " " + (state.settlement[t] >= 0 ? "+" : "") + state.settlement[t]).join(", ") : "";
      end.textContent = fmt(text.hand_ended, { how: text["end_" + state.hand_end] }) + (settled ? " " + fmt(text.settlement, { list: settled }) : "");
      end.hidden = false;
    } else {
      end.hidden = true;
    }
    const list = $("move-list");
    const old = list.querySelector("[aria-current]");
    if (old) old.removeAttribute("aria-current");
    const mine = list.querySelector('[data-state="' + i + '"]');
    if (mine) {
      mine.setAttribute("aria-current", "true");
      if (mine.scrollIntoView && !list.matches(":hover")) mine.scrollIntoView({ block: "nearest" });
    }
    $("prev").disabled = $("first").disabled = i === 0;
    $("next").disabled = $("last").disabled = i === states.length - 1;
    timings.push(performance.now() - started);
  }

  function go(i, push) {
    i = Math.max(0, Math.min(states.length - 1, i));
    const address = "#" + key(states[i]);
    if (push) history.pushState(null, "", address);
    else history.replaceState(null, "", address);
    render(i);
  }
  function handStart(from, direction) {
    const hand = states[from].hand + direction;
    if (direction < 0 && states[from].move !== null) return index.get("h" + (states[from].hand + 1) + "m0");
    const i = index.get("h" + (hand + 1) + "m0");
    return i === undefined ? from : i;
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
    if (current === states.length - 1) go(0, false);
    $("play").setAttribute("aria-pressed", "true");
    $("play").textContent = "❚❚";
    $("play").setAttribute("aria-label", text.pause);
    timer = setInterval(() => {
      if (current >= states.length - 1) return stop();
      go(current + 1, false);
    }, 700);
  }

  // --- the move list ----------------------------------------------------------------------
  function buildMoveList() {
    const list = $("move-list");
    let ol = null;
    states.forEach((state, i) => {
      if (state.move === null) {
        const heading = document.createElement("h3");
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = fmt(text.hand_heading, { hand: state.hand + 1 });
        button.setAttribute("data-state", i);
        heading.appendChild(button);
        list.appendChild(heading);
        ol = document.createElement("ol");
        list.appendChild(ol);
        return;
      }
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.setAttribute("data-state", i);
      const action = state.action;
      const what = "play" in action ? action.play : "draw" in action ? text.draw + " " + action.draw : text.pass;
      button.textContent = data.players[state.seat] + " " + what + (state.points ? " +" + state.points : "");
      if (state.points) button.classList.add("scored");
      if (state.best > state.points) {
        button.classList.add("missed");
        button.title = fmt(text.missed, { best: state.best, play: state.best_play });
        button.textContent += " (" + fmt(text.missed_short, { missed: state.best - state.points }) + ")";
      }
      item.appendChild(button);
      ol.appendChild(item);
    });
    list.addEventListener("click", (event) => {
      const target = event.target.closest("[data-state]");
      if (target) {
        stop();
        go(Number(target.getAttribute("data-state")), true);
      }
    });
  }

  // --- wiring -----------------------------------------------------------------------------
  buildMoveList();
  $("first").addEventListener("click", () => { stop(); go(0, false); });
  $("prev").addEventListener("click", () => { stop(); go(current - 1, false); });
  $("next").addEventListener("click", () => { stop(); go(current + 1, false); });
  $("last").addEventListener("click", () => { stop(); go(states.length - 1, false); });
  $("prev-hand").addEventListener("click", () => { stop(); go(handStart(current, -1), true); });
  $("next-hand").addEventListener("click", () => { stop(); go(handStart(current, 1), true); });
  $("play").addEventListener("click", toggle);
  $("view").addEventListener("change", (event) => { view = event.target.value; render(current); });
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "select" || tag === "textarea") return;
    const moves = { ArrowLeft: -1, k: -1, ArrowRight: 1, j: 1 };
    if (event.key in moves) { stop(); go(current + moves[event.key], false); }
    else if (event.key === "ArrowUp") { stop(); go(handStart(current, -1), true); }
    else if (event.key === "ArrowDown") { stop(); go(handStart(current, 1), true); }
    else if (event.key === "Home") { stop(); go(0, false); }
    else if (event.key === "End") { stop(); go(states.length - 1, false); }
    else return;
    event.preventDefault();
  });
  function fromAddress() {
    const found = index.get(location.hash.slice(1));
    return found === undefined ? 0 : found;
  }
  window.addEventListener("popstate", () => { stop(); render(fromAddress()); });
  window.addEventListener("hashchange", () => { stop(); render(fromAddress()); });
  render(fromAddress());
  timings.length = 0;
  root.setAttribute("data-ready", "1");
  performance.mark("replay-ready");
})();
