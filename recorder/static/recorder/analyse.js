/* The analysis board (recorder/board.html): a fives/1 position set up by taps or opened from
 * the address, every legal play valued in the recorder's engine worker (engine-worker.js:
 * Pyodide running fives_engine.position.Board), at first over 24 layouts of the tiles the seat
 * cannot see and then over more while the reader looks. A play is marked worse than the best
 * only beyond twice the noise of its difference. The position goes into the address
 * (?position=, base64url of its JSON) so that it can be shared. body[data-layouts] and
 * body[data-first-ms] are for the tests and bench/analyse_board.py. */
const config = JSON.parse(document.getElementById("analyse-config").textContent);
const words = document.getElementById("words").dataset;
const $ = (id) => document.getElementById(id);
const say = (text, params) => text.replace(/%\((\w+)\)s/g, (_, key) => String(params[key]));
const STEPS = [24, 48, 96, 192, 384, 768];

const TILES = [];
for (let a = 0; a <= 6; a += 1) for (let b = a; b <= 6; b += 1) TILES.push(`${a}-${b}`);
const norm = (text) => text.split("-").map(Number).sort((x, y) => x - y).join("-");

let doc = config.position && typeof config.position === "object" ? config.position : null;
let state = fromState(doc);

function fromState(position) {
  const base = { ruleset: "all-fives", players: 2, teams: null, scores: [0, 0], leader: 0, seat: 0, tiles: [], moves: [] };
  if (!position) return base;
  return { ...base, ...position };
}
function playersOf() { return Array.isArray(state.players) ? state.players.length : Number(state.players); }
function document_() {
  const out = { format: "fives/1", kind: "position", ruleset: state.ruleset, players: state.players,
    teams: state.teams, scores: state.scores, leader: state.leader, seat: state.seat,
    tiles: state.tiles, moves: state.moves };
  return out;
}
function encode(value) {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  let text = "";
  bytes.forEach((byte) => { text += String.fromCharCode(byte); });
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
function equityOf(position) {
  const base = typeof position.ruleset === "string" ? position.ruleset : position.ruleset && position.ruleset.base;
  const players = Array.isArray(position.players) ? position.players.length : Number(position.players);
  let name = null;
  if (players === 2) name = `${base}-2`;
  else if (players === 4 && position.teams) name = `${base}-4-teams`;
  if (!name || !config.presets.includes(base)) return null;
  return { name, url: config.equity.replace("NAME", name) };
}

/* The worker. */
let worker = null;
let asked = 0;
const waiting = new Map();
function startEngine() {
  worker = new Worker(config.engine_worker, { type: "module" });
  return new Promise((resolve, reject) => {
    worker.onmessage = (event) => {
      const message = event.data;
      if (message.ready) return resolve();
      if (message.failed) return reject(new Error(message.failed));
      const promise = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.error) promise.reject(new Error(message.error));
      else promise.resolve(message.answer);
    };
    worker.onerror = (event) => reject(new Error(event.message || "engine worker"));
    worker.postMessage({ init: { pyodide: config.pyodide, stdlib: config.stdlib, engine: config.engine, catalogue: config.catalogue } });
  });
}
function ask(position, layouts) {
  return new Promise((resolve, reject) => {
    asked += 1;
    waiting.set(asked, { resolve, reject });
    worker.postMessage({ id: asked, board: { position, layouts, equity: equityOf(position) } });
  });
}

/* The analysis, refined while the same position stands. */
let generation = 0;
async function analyse() {
  generation += 1;
  const mine = generation;
  const position = document_();
  const started = performance.now();
  document.body.dataset.layouts = "0";
  for (const layouts of STEPS) {
    $("layouts").textContent = words.refining;
    const answer = await ask(position, layouts);
    if (mine !== generation) return;
    if (answer.error) return refuse(answer.error.code, answer.error.message);
    $("refused").hidden = true;
    if (layouts === STEPS[0]) document.body.dataset.firstMs = String(Math.round(performance.now() - started));
    show(answer);
    document.body.dataset.layouts = String(answer.layouts);
    document.body.dataset["ms" + answer.layouts] = String(Math.round(performance.now() - started));
    document.body.dataset.doneMs = String(Math.round(performance.now() - started));
    if (answer.exact) break;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}
function fixed(value, digits) { return new Intl.NumberFormat(document.documentElement.lang || undefined, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value); }
function show(answer) {
  const body = $("plays");
  body.replaceChildren();
  const chances = answer.unit === "chance";
  for (const play of answer.plays) {
    const row = document.createElement("tr");
    row.dataset.play = play.play;
    const cells = [
      play.play,
      play.chance === null ? "—" : `${fixed(play.chance, 1)} % ± ${fixed(play.chance_se, 1)}`,
      `${fixed(play.value, 1)} ± ${fixed(play.value_se, 1)}`,
    ];
    let mark = "";
    if (play.play === answer.best) { mark = words.best; row.classList.add("an-best"); }
    else if (play.loss > 2 * play.loss_se) {
      mark = say(words.worse, { loss: chances ? `${fixed(play.loss, 1)} %` : fixed(play.loss, 1) });
      row.classList.add("an-worse");
    } else mark = words.within;
    cells.push(mark);
    for (const text of cells) {
      const cell = document.createElement("td");
      cell.textContent = text;
      row.append(cell);
    }
    body.append(row);
  }
  $("layouts").textContent = say(answer.exact ? words.exact : words.layouts, { count: answer.layouts });
}
function refuse(code, message) {
  const key = code.replace(/-(\w)/g, (_, c) => c.toUpperCase());
  const text = words[key] || words.refused;
  $("refused").textContent = message ? `${text} (${code}: ${message})` : text;
  $("refused").hidden = false;
  $("plays").replaceChildren();
  $("layouts").textContent = "";
  document.body.dataset.refused = code;
}

/* The set-up by taps. */
function seatsSelect(select, value) {
  select.replaceChildren();
  for (let seat = 0; seat < playersOf(); seat += 1) {
    const option = document.createElement("option");
    option.value = String(seat);
    option.textContent = String(seat + 1);
    select.append(option);
  }
  select.value = String(value);
}
function teamsCount() { return state.teams ? 2 : playersOf(); }
function turnAfterMoves() {
  let turn = state.leader;
  for (const move of state.moves) if (!("draw" in move)) turn = (turn + 1) % playersOf();
  return turn;
}
function laid() { return new Set(state.moves.filter((m) => "play" in m).map((m) => norm(m.play))); }
function drawForm() {
  $("ruleset").value = typeof state.ruleset === "string" ? state.ruleset : state.ruleset.base;
  $("players").value = String(playersOf());
  $("teams").checked = Boolean(state.teams);
  $("teams").disabled = playersOf() !== 4;
  seatsSelect($("leader"), state.leader);
  seatsSelect($("seat"), state.seat);
  const scores = $("scores");
  scores.replaceChildren();
  state.scores.forEach((score, index) => {
    const input = document.createElement("input");
    input.type = "number";
    input.value = String(score);
    input.className = "an-score";
    input.setAttribute("aria-label", `${index + 1}`);
    input.addEventListener("change", () => { state.scores[index] = Number(input.value) || 0; changed(); });
    scores.append(input);
  });
  const tiles = $("tiles");
  tiles.replaceChildren();
  const onTable = laid();
  const mine = new Set(state.tiles.map(norm));
  for (const tile of TILES) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "an-tile";
    button.textContent = tile;
    button.dataset.tile = tile;
    if (mine.has(tile)) button.classList.add("an-mine");
    if (onTable.has(tile)) { button.classList.add("an-laid"); button.disabled = true; }
    button.setAttribute("aria-pressed", mine.has(tile) ? "true" : "false");
    button.addEventListener("click", () => tap(tile));
    tiles.append(button);
  }
  const list = $("moves");
  list.replaceChildren();
  for (const move of state.moves) {
    const item = document.createElement("li");
    const seat = move.seat + 1;
    if ("play" in move) item.textContent = say(words.play, { seat, tile: move.play + (move.end ? ` ${move.end}` : "") });
    else if ("draw" in move) item.textContent = say(words.draw, { seat });
    else item.textContent = say(words.pass, { seat });
    list.append(item);
  }
  if (!state.moves.length && !state.tiles.length) {
    const item = document.createElement("li");
    item.textContent = words.empty;
    list.append(item);
  }
}
function tap(tile) {
  const mode = document.querySelector("input[name=mode]:checked").value;
  if (mode === "hand") {
    const index = state.tiles.map(norm).indexOf(tile);
    if (index >= 0) state.tiles.splice(index, 1); else state.tiles.push(tile);
  } else {
    const end = document.querySelector("input[name=end]:checked").value;
    const seat = turnAfterMoves();
    const move = { seat, play: tile };
    if (end && state.moves.some((m) => "play" in m)) move.end = end;
    state.moves.push(move);
    state.tiles = state.tiles.filter((t) => norm(t) !== tile);
    state.seat = turnAfterMoves();
  }
  changed();
}
function changed() {
  const position = document_();
  {
    const url = new URL(window.location.href);
    url.search = `?position=${encode(position)}`;
    window.history.replaceState(null, "", url);
  }
  drawForm();
  if (!state.tiles.length) {
    $("plays").replaceChildren();
    $("layouts").textContent = words.empty;
    return;
  }
  if (worker) analyse().catch((e) => refuse("failed", e.message));
}
function wire() {
  $("ruleset").addEventListener("change", () => { state.ruleset = $("ruleset").value; changed(); });
  $("players").addEventListener("change", () => {
    state.players = Number($("players").value);
    state.teams = null;
    state.scores = new Array(teamsCount()).fill(0);
    state.leader = 0; state.seat = 0; state.moves = [];
    changed();
  });
  $("teams").addEventListener("change", () => {
    state.teams = $("teams").checked ? [[0, 2], [1, 3]] : null;
    state.scores = new Array(teamsCount()).fill(0);
    changed();
  });
  $("leader").addEventListener("change", () => { state.leader = Number($("leader").value); state.seat = turnAfterMoves(); changed(); });
  $("seat").addEventListener("change", () => { state.seat = Number($("seat").value); changed(); });
  $("draw").addEventListener("click", () => { state.moves.push({ seat: turnAfterMoves(), draw: "?" }); changed(); });
  $("pass").addEventListener("click", () => { state.moves.push({ seat: turnAfterMoves(), pass: true }); state.seat = turnAfterMoves(); changed(); });
  $("undo").addEventListener("click", () => { state.moves.pop(); state.seat = turnAfterMoves(); changed(); });
  $("clear").addEventListener("click", () => { state = fromState(null); changed(); });
}

wire();
drawForm();
document.body.dataset.shownAt = String(Math.round(performance.now()));
if (config.refused) refuse(config.refused, "");
startEngine().then(() => {
  $("status").textContent = words.ready;
  document.body.dataset.engine = "ready";
  if (!config.refused && state.tiles.length) analyse().catch((e) => refuse("failed", e.message));
  else if (!state.tiles.length) $("layouts").textContent = words.empty;
}, (error) => {
  $("status").textContent = `${words.failed} ${error.message}`;
  document.body.dataset.engine = "failed";
});
