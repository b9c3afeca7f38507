/* The recorder: a match recorded tap by tap at the table.
 *
 * Every tap makes a candidate `fives/1` table record; the rules engine (the archive's own
 * Python, engine/fives_engine, run here by Pyodide) says what the table looks like after it, or
 * why it cannot be (its report's message, in the page's language). Only what the engine
 * accepts is recorded. The match in progress (a log of its taps, see "storage") and the
 * matches waiting to be sent live in localStorage; a service worker keeps the page and the
 * engine for a table without network.
 */
const config = JSON.parse(document.getElementById("recorder-config").textContent);
const text = JSON.parse(document.getElementById("recorder-text").textContent);
const $ = (id) => document.getElementById(id);
const STORE = "fives-recorder/" + config.user;

function say(template, values) {
  return template.replace(/%\((\w+)\)s/g, (_, name) => (values && name in values ? String(values[name]) : ""));
}
// An end's name in the reader's language ("W" is "З" in Russian).
function endName(end) {
  return text["end_" + end] || end;
}
function tileName(t) {
  const [a, b] = t.split("-").map(Number);
  return Math.min(a, b) + "-" + Math.max(a, b);
}

/* --- storage -----------------------------------------------------------------------------
 * The match in progress is an append-only log of its steps: its set-up under KEY.match, one
 * key per step (KEY.step(0), KEY.step(1)...) and their number under KEY.steps. A tap writes
 * its step and the new number, a few dozen bytes however long the match; undo is a pop. The
 * record is rebuilt from the steps (rebuild), and the engine says what the table looks like.
 * A step is one of: {m: move} a move of the last hand; {turn: 1} the lead turned round;
 * {seat, shown: tile} a tile a seat shows at the hand's end; {left: [[tiles]...]} the tiles
 * shown, all of them (the record's `left`); {hand: leader} the next hand.
 * Before this log the whole store was one key, STORE, with every earlier version of the
 * match kept for undo (a megabyte a tap by the end of a match): read once and migrated. */
const KEY = {
  match: STORE + "/match",
  steps: STORE + "/steps",
  step: (index) => STORE + "/step/" + index,
  outbox: STORE + "/outbox",
  sent: STORE + "/sent",
  draft: STORE + "/draft",
};
// The matches sent from this phone it lists (the latest first).
const SENT_KEPT = 20;
function readJSON(key, fallback) {
  try {
    const value = JSON.parse(localStorage.getItem(key));
    return value === null || value === undefined ? fallback : value;
  } catch (e) {
    return fallback; // a broken entry starts afresh
  }
}
function load() {
  migrate();
  const loaded = { current: null, outbox: readJSON(KEY.outbox, []), sent: readJSON(KEY.sent, []) };
  // Before the list was shown the latest came last, without a time: the latest first now.
  if (loaded.sent.length && !loaded.sent[0].at) loaded.sent.reverse();
  const setup = readJSON(KEY.match, null);
  if (setup && setup.doc) {
    const count = Number(localStorage.getItem(KEY.steps)) || 0;
    const steps = [];
    for (let index = 0; index < count; index += 1) {
      const step = readJSON(KEY.step(index), null);
      if (!step) break; // a step lost: the match goes on from the one before
      steps.push(step);
    }
    loaded.current = rebuild(setup, steps);
  }
  return loaded;
}
/* The match in memory from its set-up and steps: {setup, steps, club, doc, left (the tiles
 * each seat shows, being entered, or null), drawShown (the next tile tapped is a draw shown)}. */
function rebuild(setup, steps) {
  const doc = { ...structuredClone(setup.doc), hands: [{ leader: setup.leader, moves: [] }] };
  const cur = { setup: setup, steps: steps.slice(), club: setup.club, doc: doc, left: null, drawShown: false };
  // Each move copied into the record: a lead turned round ({turn: 1}) turns the record's
  // move, never the step kept, or each rebuild (an undo) would turn the lead once more.
  for (const step of steps) applyStep(cur, step.m ? { ...step, m: { ...step.m } } : step);
  return cur;
}
function applyStep(cur, step) {
  const hands = cur.doc.hands;
  const hand = hands[hands.length - 1];
  if (step.m) hand.moves.push(step.m);
  else if (step.turn) hand.moves[0].play = hand.moves[0].play.split("-").reverse().join("-");
  else if (step.shown) {
    cur.left = cur.left || cur.doc.players.map(() => []);
    cur.left[step.seat].push(step.shown);
  } else if (step.left) {
    hand.left = step.left;
    cur.left = null;
  } else if (step.hand !== undefined) {
    hands.push({ leader: step.hand, moves: [] });
    cur.left = null;
  }
}
/* The match after one more step, as a new object: the current one stays as it is until the
 * engine accepts the step. */
function withStep(cur, step) {
  const next = { ...cur, doc: structuredClone(cur.doc), left: cur.left && cur.left.map((t) => t.slice()) };
  applyStep(next, step);
  return next;
}
/* Keep `next` (the current match with `step` applied): write the step, then their number,
 * and tell the live sender. `checked` false: in memory only, for a tap drawn before the
 * engine's check (`drawForeseen`), which writes it once the engine has checked it (`written`):
 * only what the engine accepts is kept, and the tap's frame writes nothing. */
function keep(next, step, checked = true) {
  next.steps = [...next.steps, step];
  store.current = next;
  if (checked) written(next);
}
function written(cur) {
  const index = cur.steps.length - 1;
  localStorage.setItem(KEY.step(index), JSON.stringify(cur.steps[index]));
  localStorage.setItem(KEY.steps, String(cur.steps.length));
  tell(cur);
}
/* Tell the live sender (live-send.js) the match's steps as they are now. */
function tell(cur) {
  if (!cur) return;
  window.dispatchEvent(new CustomEvent("fives:steps", {
    detail: { id: cur.setup.doc.id, club: cur.club, user: config.user, setup: { doc: cur.setup.doc, leader: cur.setup.leader }, steps: cur.steps },
  }));
}
/* Undo: the last step popped (its number first, so a reader never counts a step removed). */
function pop() {
  const cur = store.current;
  const steps = cur.steps.slice(0, -1);
  localStorage.setItem(KEY.steps, String(steps.length));
  localStorage.removeItem(KEY.step(steps.length));
  store.current = rebuild(cur.setup, steps);
  tell(store.current);
}
function writeMatch(setup, steps) {
  clearMatch();
  steps.forEach((step, index) => localStorage.setItem(KEY.step(index), JSON.stringify(step)));
  localStorage.setItem(KEY.steps, String(steps.length));
  localStorage.setItem(KEY.match, JSON.stringify(setup));
}
function clearMatch() {
  localStorage.removeItem(KEY.match);
  localStorage.removeItem(KEY.steps);
  const prefix = KEY.step("");
  const keys = [];
  for (let i = 0; i < localStorage.length; i += 1) {
    const key = localStorage.key(i);
    if (key && key.startsWith(prefix)) keys.push(key);
  }
  for (const key of keys) localStorage.removeItem(key);
}
function writeOutbox() {
  localStorage.setItem(KEY.outbox, JSON.stringify(store.outbox));
  localStorage.setItem(KEY.sent, JSON.stringify(store.sent));
}
/* The steps that make a record: each hand's moves and `left`, then the tiles being shown. */
function stepsOf(doc, left) {
  const steps = [];
  doc.hands.forEach((hand, index) => {
    if (index > 0) steps.push({ hand: hand.leader });
    for (const m of hand.moves) steps.push({ m: m });
    if (hand.left) steps.push({ left: hand.left });
  });
  (left || []).forEach((tiles, seat) => { for (const tile of tiles) steps.push({ seat: seat, shown: tile }); });
  return steps;
}
function setupOf(club, doc) {
  const { hands, final_scores, ...head } = doc;
  return { club: club, doc: head, leader: hands[0].leader };
}
/* A store of the format before the log (one key: {current: {club, doc, left, history},
 * outbox, sent}): its match in progress becomes a log, its outbox and sent list are kept. */
function migrate() {
  const text = localStorage.getItem(STORE);
  if (text === null) return;
  let old = null;
  try { old = JSON.parse(text); } catch (e) { /* unreadable: nothing to keep */ }
  if (old && typeof old === "object") {
    const write = () => {
      for (const [key, list] of [[KEY.outbox, old.outbox], [KEY.sent, old.sent]]) {
        const kept = readJSON(key, []);
        for (const entry of list || []) if (!kept.some((e) => e.id === entry.id)) kept.push(entry);
        localStorage.setItem(key, JSON.stringify(kept));
      }
      const cur = old.current;
      if (cur && cur.doc && Array.isArray(cur.doc.hands) && cur.doc.hands.length) {
        writeMatch(setupOf(cur.club, cur.doc), stepsOf(cur.doc, cur.left));
      }
    };
    try {
      write();
    } catch (e) {
      // The old store, every earlier version kept for undo, may leave no room for the log:
      // without those versions it is small, and the match itself is all there.
      localStorage.setItem(STORE, JSON.stringify({ ...old, current: old.current && { ...old.current, history: [] } }));
      write();
    }
  }
  localStorage.removeItem(STORE);
}
let store = load();

/* --- the engine, in this phone ----------------------------------------------------------- */
let py = null;
const loading = $("loading");
// Whether the service worker controls the page: on a first visit the page waits for it
// (a moment: it keeps only the page and the small files), so that what the page fetches
// next is kept as it comes and crosses the wire once. Without a worker, false.
const controlled = (async () => {
  if (!("serviceWorker" in navigator)) return false;
  try {
    await navigator.serviceWorker.register(config.worker, { scope: config.scope });
  } catch (e) { return false; }
  if (navigator.serviceWorker.controller) return true;
  return new Promise((resolve) => {
    navigator.serviceWorker.addEventListener("controllerchange", () => resolve(true), { once: true });
    setTimeout(() => resolve(Boolean(navigator.serviceWorker.controller)), 20000);
  });
})();
function megabytes(bytes) {
  return new Intl.NumberFormat(document.documentElement.lang || undefined,
    { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(bytes / 1e6);
}
/* Fetch what the engine needs and is not kept yet (through the worker, which keeps it), the
 * bar showing how much has come. Pyodide then finds every file kept. */
async function download() {
  const files = [...config.download, { url: config.engine, size: config.engine_size }];
  const kept = await Promise.all(files.map((f) => caches.match(f.url).then(Boolean, () => false)));
  const missing = files.filter((f, i) => !kept[i]);
  if (!missing.length) { loading.hidden = true; return; } // all kept: nothing to download
  const total = missing.reduce((sum, f) => sum + f.size, 0);
  const wire = config.download_wire || total; // on the wire (compressed), as the page says
  const bar = $("download-progress");
  let done = 0;
  const shown = () => {
    bar.value = Math.min(done / total, 1);
    $("download-done").textContent = say(loading.dataset.progress,
      { done: megabytes(wire * Math.min(done / total, 1)), total: megabytes(wire) });
  };
  shown();
  await Promise.all(missing.map(async (f) => {
    const response = await fetch(f.url);
    if (!response.ok) throw new Error(f.url + ": " + response.status);
    const reader = response.body.getReader();
    for (;;) {
      const { done: end, value } = await reader.read();
      if (end) break;
      done += value.length;
      shown();
    }
  }));
}
/* The engine runs in a worker of its own (engine-worker.js): the page's main thread only
 * draws, so a tap paints at once while the engine checks it. */
let engineWorker = null;
let asked = 0;
const answers = new Map(); // a question's id -> its promise's resolve and reject
async function startEngine() {
  const started = performance.now();
  // Without a service worker Pyodide fetches its files itself, the bar left unmeasured.
  if (await controlled) await download();
  performance.mark("fives-downloaded"); // the steps' times, for bench/phone_recorder.py
  document.body.dataset.workerAt = String(Math.round(performance.now())); // since navigation
  engineWorker = new Worker(config.engine_worker, { type: "module" });
  await new Promise((resolve, reject) => {
    engineWorker.onmessage = (event) => {
      const message = event.data;
      if (message.ready) {
        document.body.dataset.engineSteps = JSON.stringify(message.steps || {});
        return resolve();
      }
      if (message.failed) return reject(new Error(message.failed));
      const waiting = answers.get(message.id);
      answers.delete(message.id);
      if (message.error) waiting.reject(new Error(message.error));
      else waiting.resolve(message.answer);
    };
    engineWorker.onerror = (event) => reject(new Error(event.message || "engine worker"));
    engineWorker.postMessage({ init: { pyodide: config.pyodide, stdlib: config.stdlib, engine: config.engine, catalogue: config.catalogue } });
  });
  performance.mark("fives-pyodide");
  py = true;
  document.body.dataset.engineMs = String(Math.round(performance.now() - started));
}
/* What the engine says of a record: a promise of its answer (recorder.table.analyse). */
function analyse(doc) {
  return new Promise((resolve, reject) => {
    asked += 1;
    answers.set(asked, { resolve, reject });
    engineWorker.postMessage({ id: asked, doc: doc });
  });
}
/* Taps are answered in order, each against the table the one before left: a tap paints at
 * once (see `pending`) and its work waits its turn here. `body[data-busy]` counts the taps
 * still being checked (the tests wait for 0). */
let acting = Promise.resolve();
const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
let busy = 0;
function act(work) {
  busy += 1;
  document.body.dataset.busy = String(busy);
  const done = () => { busy -= 1; document.body.dataset.busy = String(busy); };
  // The tap's own frame first (what `pending` drew), then the engine's answer and the table
  // drawn from it: the redraw never holds back the frame that shows the tap.
  acting = acting.then(nextFrame).then(work)
    .catch((e) => showError(String(e && e.message ? e.message : e))).then(done);
  return acting;
}
/* A tap the engine did not foresee (see `foreseen`), shown at once before the engine has
 * checked it: the tile greyed and the call written with an ellipsis; the engine's answer
 * then draws the table, or a refusal takes it back with the engine's words. */
function pending(call, tile) {
  settled();
  $("call").textContent = call + "…";
  $("call").classList.add("pending");
  if (tile) {
    const button = $("picker").querySelector(`[data-tile="${tile}"]`);
    if (button) { button.disabled = true; button.classList.add("pending"); }
  }
}
function settled() {
  // The call written at once gives way to the engine's (render writes it where it is empty).
  if ($("call").classList.contains("pending")) $("call").textContent = "";
  $("call").classList.remove("pending");
  for (const button of $("picker").querySelectorAll(".pending")) button.classList.remove("pending");
}

/* --- the match in progress ----------------------------------------------------------------
 * `store.current`: the match rebuilt from its steps (see rebuild). */
let view = null; // what the engine said of current.doc

/* --- taps the engine answered before they came ---------------------------------------------
 * With each answer the engine in the worker answers the taps that may come next
 * (`view.ahead`, recorder.table.foresee: each tile, each end of a tile that fits two, a draw,
 * a knock), so a tap is drawn in its own frame from the engine's own answer: the page works
 * out no rule. The engine then checks the record as kept, and a disagreement is drawn again
 * from its answer (`confirm`). */
let reconciled = 0; // taps the engine's check drew again (body[data-reconciled], for tests)
/* The engine's answer to a tap, answered before it (`key`: "play 3-5", "play 3-5 W",
 * "draw ?", "pass"), or null: while an earlier tap is being checked, the view may not be the
 * table's yet, and such a tap waits its turn. */
function foreseen(key) {
  if (busy || !view || !view.ahead || store.current.drawShown) return null;
  return view.ahead[key] || null;
}
/* Draw a tap from its foreseen answer, now: a refusal in the engine's words, the ends asked
 * of a tile that fits two, or the move (as the engine would keep it: its end and points)
 * kept and the table drawn from the answer; then the engine checks it (`raw`: the move as
 * tapped, asked again should the engine refuse the kept one). */
function drawForeseen(answer, raw, tile) {
  const error = answer.report.errors[0];
  if (error && error.code === "ambiguous-end") { render(); return askEnd(tile, error.params.ends); }
  if (error) { showError(errorText(answer.report)); return render(); }
  const next = showForeseen(answer);
  act(() => confirm(next, answer, raw));
}
/* The move of a foreseen answer (one the engine accepts) kept in memory and drawn: the match
 * as it is now (`store.current`). */
function showForeseen(answer) {
  const s = { m: answer.move };
  const next = withStep(store.current, s);
  keep(next, s, false);
  view = answer;
  // The call is this move's (the one before may be written still: a tile that fits two ends
  // asked its end first).
  $("call").textContent = "";
  render();
  return next;
}

/* --- a tap drawn on its press --------------------------------------------------------------
 * A tap the engine answered before is drawn when the button goes down (`pointerdown`), as a
 * key is seen to go down, instead of when it comes up (`click`), a frame or more later on a
 * phone (issue 56). It plays as a button's click does, once, when let go over the button: the
 * move is then checked, kept and sent. A press let go elsewhere, or taken by the browser for a
 * scroll (`pointercancel`), plays nothing: the table is drawn back as it was. The click that
 * follows a press let go over its button is the same tap and does nothing more; a click with
 * no press (Enter or Space on the button, a screen reader's activation) plays as it did. A tap
 * the engine did not foresee (or refuses, or asks the end of) is left to its click. */
let press = null; // the press drawn: its button, where, the table before it, the move
const SLOP = 16; // px a press may move and still be a tap (about chromium's touch slop)
let released = null; // a press let go over its button: its button, until its click
function pressable(button, ask) {
  button.addEventListener("pointerdown", (event) => {
    if (released) unrelease();
    if (press || !event.isPrimary || event.button !== 0 || button.disabled) return;
    const tap = view && view.phase === "play" && view.state ? ask() : null;
    const answer = tap && foreseen(tap.key);
    if (!answer || answer.report.errors.length) return;
    press = { button: button, x: event.clientX, y: event.clientY, tap: tap, answer: answer, before: {
      current: store.current, view: view, call: $("call").textContent,
      error: $("error").textContent, setupError: $("setup-error").textContent,
      endPicker: $("end-picker").hidden } };
    clearMessages();
    if (tap.before) tap.before();
    press.next = showForeseen(answer);
  });
}
function pressEnded(event, cancelled) {
  if (!press || !event.isPrimary) return;
  const done = press;
  press = null;
  // Let go over the button: where it was pressed (within a tap's slop: the drawn move may
  // have moved the button), or on it (a mouse; a finger's events all go to the button it
  // pressed). Asked of the events alone: a button's place read now would lay the page out.
  const near = Math.hypot(event.clientX - done.x, event.clientY - done.y) <= SLOP;
  const on = event.pointerType !== "touch" && done.button.contains(event.target);
  const over = !cancelled && (near || on);
  if (store.current !== done.next) return; // the match was changed meanwhile (another tab)
  if (over) {
    const was = released = { button: done.button, at: event.timeStamp };
    act(() => confirm(done.next, done.answer, done.tap.raw));
    // (Its click comes at once: should it not, the button is as the table has it.)
    setTimeout(() => { if (released === was) unrelease(); }, 1000);
    return;
  }
  // Not played: the table as it was.
  const b = done.before;
  store.current = b.current;
  view = b.view;
  $("call").textContent = b.call;
  $("error").textContent = b.error;
  $("setup-error").textContent = b.setupError;
  $("end-picker").hidden = b.endPicker;
  render();
}
document.addEventListener("pointerup", (event) => pressEnded(event, false), true);
document.addEventListener("pointercancel", (event) => pressEnded(event, true), true);
/* The click of a press already played (see `pressable`), or any while a press is drawn: true,
 * and nothing more to do. */
function pressedClick(button, event) {
  if (press) return true; // a press is drawn (another finger's click): it plays first, alone
  const was = released;
  if (!was || was.button !== button || !event.detail) return false;
  unrelease();
  return event.timeStamp - was.at < 1000;
}
function unrelease() {
  released = null;
  if (view && store.current) pickerDisabled();
}
/* An answer as drawn: without the next taps' answers and the move a foreseen one carries. */
function drawn(answer) {
  return JSON.stringify({ ...answer, ahead: undefined, move: undefined });
}
/* The engine's check of a tap drawn from its foreseen answer, after the tap's frame. The same
 * answer: its answers to the next taps kept. Another: the table drawn again from it. A
 * refusal: the step taken back and the tap asked of the engine as it was tapped (its words,
 * or the move as the engine keeps it). */
async function confirm(next, shown, raw) {
  const answer = await analyse(next.doc);
  if (store.current !== next) return; // another tab's match was taken meanwhile: it is drawn
  if (drawn(answer) === drawn(shown)) {
    view = answer;
    // Written and sent live once the engine has checked it (as before a tap was drawn at
    // once): a step the archive refused would make it stop following the match.
    written(next);
    return;
  }
  reconciled += 1;
  document.body.dataset.reconciled = String(reconciled);
  $("call").textContent = ""; // the call drawn was the foreseen answer's: the engine's now
  if (!answer.report.errors.length) {
    view = answer;
    written(next);
    render();
    return;
  }
  pop();
  view = await analyse(store.current.doc);
  render();
  await move(raw);
}

/* Ask the engine about the match with one more step; keep the step if it accepts it. */
async function step(s) {
  const next = withStep(store.current, s);
  const answer = await tryDoc(next.doc);
  if (!answer) return;
  keep(next, s);
  afterCommit(answer);
}
function lastHand() { const hands = store.current.doc.hands; return hands[hands.length - 1]; }
function names() { return store.current.doc.players; }
function teamNames() {
  const doc = store.current.doc;
  if (!doc.teams) return doc.players.slice();
  return doc.teams.map((team) => team.map((seat) => doc.players[seat]).join(" & "));
}
function errorText(report) {
  const error = report.errors[0];
  const title = config.titles[error.code];
  return title ? title + ": " + error.message : error.message;
}

/* Ask the engine about a candidate record: its answer, or show why not and null. */
async function tryDoc(doc) {
  const answer = await analyse(doc);
  if (answer.report.errors.length) {
    showError(errorText(answer.report));
    render(); // what the tap showed at once is taken back
    return null;
  }
  return answer;
}
function showError(message) { $("error").textContent = message; $("setup-error").textContent = message; }

function tapTile(tile) {
  clearMessages();
  if (view && view.phase === "play" && view.state) {
    const known = foreseen("play " + tile);
    if (known) return drawForeseen(known, { seat: view.state.turn, play: tile }, tile);
  }
  // At once, from what the page knows: the tile greyed and who laid it.
  const who = view && view.state && view.state.turn !== null ? names()[view.state.turn] : "";
  pending(store.current.drawShown ? say(text.drew_tile, { player: who, tile: tile }) : (view.phase === "left" ? tile : say(text.no_points, { player: who, tile: tile })), tile);
  act(() => tapTileNow(tile));
}
async function tapTileNow(tile) {
  const cur = store.current;
  if (view.phase === "left") return tapLeft(tile);
  if (view.phase !== "play") return render();
  const seat = view.state.turn;
  if (cur.drawShown) {
    cur.drawShown = false;
    return move({ seat: seat, draw: tile });
  }
  const doc = structuredClone(cur.doc);
  const hand = doc.hands[doc.hands.length - 1];
  hand.moves.push({ seat: seat, play: tile });
  const answer = await analyse(doc);
  const error = answer.report.errors[0];
  if (error && error.code === "ambiguous-end") { render(); return askEnd(tile, error.params.ends); }
  if (error) { showError(errorText(answer.report)); return render(); }
  return move({ seat: seat, play: tile }, answer);
}

async function move(m, answer) {
  const s = { m: m };
  const next = withStep(store.current, s);
  answer = answer || (await tryDoc(next.doc));
  if (!answer) return;
  // The engine says where the tile went and what it scored: the record (and the step) say it too.
  if (m.play && !m.end && answer.state.placed !== "lead") m.end = answer.state.placed;
  if (m.play && answer.state.points) m.points = answer.state.points;
  keep(next, s);
  afterCommit(answer);
}

function askEnd(tile, ends) {
  $("end-question").textContent = say(text.which_end, { tile: tile });
  const box = $("end-buttons");
  box.replaceChildren();
  const open = new Map(view.state.open_ends.map((e) => [e.end, e.pip]));
  for (const end of ends) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.end = end;
    b.className = "rec-big";
    b.textContent = say(text.end_pip, { end: endName(end), pip: open.get(end) });
    b.addEventListener("click", (event) => {
      if (pressedClick(b, event)) return;
      $("end-picker").hidden = true;
      const raw = { seat: view.state.turn, play: tile, end: end };
      const known = foreseen("play " + tile + " " + end);
      if (known) return drawForeseen(known, raw, tile);
      pending(say(text.no_points, { player: names()[view.state.turn], tile: tile }), tile);
      act(() => move(raw));
    });
    pressable(b, () => ({ key: "play " + tile + " " + end, raw: { seat: view.state.turn, play: tile, end: end },
      before: () => { $("end-picker").hidden = true; } }));
    box.append(b);
  }
  $("end-picker").hidden = false;
}

function tapLeft(tile) {
  const cur = store.current;
  const left = cur.left || view.held.map(() => []);
  const seat = leftSeat(left);
  if (seat === null) return;
  const next = left.map((tiles) => tiles.slice());
  next[seat].push(tile);
  // The last tile shown writes the hand's `left`, which the engine checks and settles.
  if (leftSeat(next) === null) return step({ left: next });
  const s = { seat: seat, shown: tile };
  keep(withStep(cur, s), s);
  $("call").textContent = "";
  render();
}
/* The first seat whose shown tiles are not all entered yet (null: all are). */
function leftSeat(left) {
  for (let seat = 0; seat < view.held.length; seat += 1) if (left[seat].length < view.held[seat]) return seat;
  return null;
}

function afterCommit(answer) {
  view = answer;
  render();
}

/* Whether the seat to play may knock or draw: the engine says (``may_knock``, ``may_draw``:
 * before the lead nobody may, the leader plays any tile). */
function mayKnock() { return view.phase === "play" && !!view.may_knock; }
function drew() {
  clearMessages();
  if (!mayKnock() || !view.may_draw) return;
  const raw = { seat: view.state.turn, draw: "?" };
  const known = foreseen("draw ?");
  if (known) return drawForeseen(known, raw);
  pending(say(text.drew, { player: names()[view.state.turn] }));
  act(() => move(raw));
}
function drewShown() {
  clearMessages();
  if (!mayKnock() || !view.may_draw) return;
  store.current.drawShown = !store.current.drawShown;
  if (store.current.drawShown) $("call").textContent = text.draw_shown_hint;
  render();
}
function knocked() {
  clearMessages();
  if (!mayKnock()) return;
  const raw = { seat: view.state.turn, pass: true };
  const known = foreseen("pass");
  if (known) return drawForeseen(known, raw);
  pending(say(text.knocked, { player: names()[view.state.turn] }));
  act(() => move(raw));
}
/* Turn the lead round (its first pip faces W): the table's picture, recorded. */
function turnLead() {
  clearMessages();
  const moves = lastHand().moves;
  if (moves.length !== 1 || !moves[0].play) return;
  act(() => step({ turn: 1 }));
}
function undo() {
  clearMessages();
  const cur = store.current;
  if (!cur) return; // the match is saved: it waits to be sent, and is not changed
  if (!cur.steps.length) {
    // Before the first move: back to the set-up.
    store.current = null;
    clearMatch();
    return showSetup();
  }
  act(async () => {
    pop();
    view = await analyse(store.current.doc);
    $("call").textContent = text.undone;
    render();
  });
}
/* Abandon the match in one confirmed action: it is kept as a draft until the next match
 * starts (the set-up offers to take it back), and leaves the club night's live tables. */
function abandonAsk() {
  clearMessages();
  $("abandon-question").textContent = text.abandon_question;
  $("abandon-confirm").hidden = false;
  $("abandon-yes").focus();
}
function abandon() {
  $("abandon-confirm").hidden = true;
  const cur = store.current;
  if (!cur) return;
  localStorage.setItem(KEY.draft, JSON.stringify({ setup: cur.setup, steps: cur.steps }));
  window.dispatchEvent(new CustomEvent("fives:steps", { detail: { id: cur.setup.doc.id, abandoned: true } }));
  store.current = null;
  clearMatch();
  showSetup();
  $("setup-error").textContent = text.abandoned;
}
function renderDraft() {
  const draft = readJSON(KEY.draft, null);
  $("draft").hidden = !draft;
  if (!draft) return;
  const players = draft.setup.doc.players || [];
  $("draft-text").textContent = say(text.draft, { sides: players.join(" – "), steps: draft.steps.length });
}
function resumeDraft() {
  const draft = readJSON(KEY.draft, null);
  if (!draft || !py) return;
  localStorage.removeItem(KEY.draft);
  writeMatch(draft.setup, draft.steps);
  store.current = rebuild(draft.setup, draft.steps);
  act(async () => {
    view = await analyse(store.current.doc);
    showTable();
    tell(store.current);
  });
}
function nextHand() {
  clearMessages();
  const chosen = document.querySelector("#leaders [aria-pressed=true]");
  act(() => step({ hand: Number(chosen ? chosen.dataset.leader : 0) }));
}

/* --- sending ------------------------------------------------------------------------------ */
function save() {
  const cur = store.current;
  if (!cur || view.phase !== "over") return;
  // What the players write down at the end: the engine's scores.
  const doc = { ...cur.doc, final_scores: view.report.scores };
  const entry = { id: doc.id, club: cur.club, user: config.user, text: JSON.stringify(doc) };
  if (!store.outbox.some((e) => e.id === entry.id)) store.outbox.push(entry);
  // The outbox first: should the page stop between the two, the match is still there.
  writeOutbox();
  store.current = null;
  clearMatch();
  $("save").hidden = true;
  $("undo").disabled = true;
  $("saved").hidden = false;
  $("saved").textContent = text.saved_waiting;
  $("new-match").hidden = false;
  flush();
}
let flushing = false;
// Past the person's upload budget the archive answers 429 with Retry-After: the match stays
// in the outbox, and nothing is sent before that many seconds have passed (each try would
// count against the budget too); then the outbox is sent again.
let sendAfter = 0;
let sendTimer = null;
async function flush() {
  if (flushing) return;
  if (Date.now() < sendAfter) {
    renderOutbox();
    return;
  }
  flushing = true;
  try {
    // The live sender's last step first (live-send.js): the archive stores the match once.
    if (window.fivesLive) await window.fivesLive.idle();
    while (store.outbox.length) {
      const entry = store.outbox[0];
      let response;
      try {
        response = await fetch(config.send, {
          method: "POST",
          credentials: "same-origin",
          headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
          // Who recorded it: the archive refuses it from another account (signed in
          // since, in another tab), and it waits here for its own.
          body: JSON.stringify({ club: entry.club, log: entry.text, user: entry.user || config.user }),
        });
      } catch (e) {
        break; // no connection: try again when it returns
      }
      const answer = await response.json().catch(() => ({}));
      if (response.status === 429) {
        const seconds = Math.max(
          1, parseInt(response.headers.get("Retry-After"), 10) || Number(answer.retry_after) || 60);
        sendAfter = Date.now() + seconds * 1000;
        clearTimeout(sendTimer);
        sendTimer = setTimeout(flush, seconds * 1000);
        break; // kept in the outbox: sent when the wait is over
      }
      if (response.status === 201) {
        $("error").textContent = "";
        $("setup-error").textContent = "";
        store.outbox.shift();
        const match = (answer.match_ids || [])[0];
        keepSent({ id: entry.id, upload: answer.upload, url: answer.url, match: match,
          match_url: (answer.matches || [])[0], sides: sidesOf(entry) });
        const saved = $("saved");
        saved.replaceChildren(sentLink(store.sent[0]));
        saved.hidden = false;
        banner(store.sent[0]);
      } else if ((response.status === 400 || response.status === 403) && answer.upload) {
        // Refused, and kept by the archive as an upload saying why: it leaves the outbox
        // (sending it again would be refused again) and the banner says what to do.
        store.outbox.shift();
        keepSent({ id: entry.id, upload: answer.upload, url: answer.url, refused: answer.error,
          club: response.status === 403, sides: sidesOf(entry) });
        banner(store.sent[0]);
        $("saved").replaceChildren(sentLink(store.sent[0]));
      } else {
        showError(say(text.send_failed, { reason: answer.error || response.status }));
        break;
      }
    }
  } finally {
    flushing = false;
    renderOutbox();
  }
}
/* The sides of a match waiting or sent ("Nino – Giorgi"), from its record. */
function sidesOf(entry) {
  try {
    const doc = JSON.parse(entry.text);
    const players = doc.players || [];
    return (doc.teams ? doc.teams.map((team) => team.map((s) => players[s]).join(" & ")) : players).join(" – ");
  } catch (e) { return ""; }
}
function keepSent(sent) {
  store.sent = [{ ...sent, at: Date.now() }, ...store.sent.filter((e) => e.id !== sent.id)].slice(0, SENT_KEPT);
  writeOutbox();
  renderSent();
}
/* A link to what a send became: the stored match, else its upload. */
function sentLink(sent) {
  const link = document.createElement("a");
  if (sent.refused) {
    link.href = sent.url;
    link.textContent = say(text.sent_refused, { sides: sent.sides, upload: sent.upload });
  } else if (sent.match) {
    link.href = sent.match_url;
    link.textContent = say(text.sent_match, { match: sent.match, sides: sent.sides });
  } else {
    link.href = sent.url;
    link.textContent = say(text.sent, { upload: sent.upload });
  }
  return link;
}
/* The banner: "Stored in the archive: match 348 — open", or why it was refused. */
function banner(sent) {
  const box = $("banner");
  const open = document.createElement("a");
  open.textContent = text.open;
  box.classList.toggle("refused", Boolean(sent.refused));
  if (sent.refused) {
    open.href = sent.url;
    box.replaceChildren(say(text.refused, { reason: sent.refused }) + " " +
      (sent.club ? text.refused_club : text.refused_other) + " ", open);
  } else {
    open.href = sent.match_url || sent.url;
    const said = sent.match ? say(text.stored_match, { match: sent.match }) : say(text.stored_upload, { upload: sent.upload });
    box.replaceChildren(said + " — ", open);
  }
  box.hidden = false;
  document.body.dataset.sent = String(sent.match || sent.upload);
}
function renderSent() {
  $("sent-heading").textContent = text.sent_heading;
  $("sent-list").replaceChildren(...store.sent.map((sent) => {
    const li = document.createElement("li");
    li.append(sentLink(sent));
    if (sent.at) li.append(" · " + new Date(sent.at).toLocaleString(document.documentElement.lang || undefined, { dateStyle: "short", timeStyle: "short" }));
    return li;
  }));
  $("sent-box").hidden = store.sent.length === 0;
}
function csrfToken() {
  const match = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
  if (match) return decodeURIComponent(match[1]);
  const input = document.querySelector("input[name=csrfmiddlewaretoken]");
  return input ? input.value : "";
}
function renderOutbox() {
  const box = $("outbox");
  const parts = [];
  if (!navigator.onLine) parts.push(text.offline);
  if (store.outbox.length) parts.push(say(text.outbox, { count: store.outbox.length }));
  const wait = Math.ceil((sendAfter - Date.now()) / 1000);
  if (store.outbox.length && wait > 0) parts.push(say(text.send_later, { seconds: wait }));
  setData(document.body, "sendWait", store.outbox.length && wait > 0 ? String(wait) : "");
  put(box, parts.join(" "));
  setIf(box, "hidden", !parts.length);
  setData(document.body, "outbox", String(store.outbox.length));
}

/* --- set-up ------------------------------------------------------------------------------- */
function showSetup() {
  $("table").hidden = true;
  $("setup").hidden = false;
  renderDraft();
  renderSent();
  const clubSelect = $("club");
  clubSelect.replaceChildren(...config.clubs.map((c) => new Option(c.name, c.slug)));
  const onClub = () => {
    const club = config.clubs.find((c) => c.slug === clubSelect.value);
    $("ruleset").replaceChildren(...(club ? club.rulesets : config.rulesets).map((r) => new Option((config.preset_names || {})[r] || r, r)));
    $("handles").replaceChildren(...(club ? club.players : []).map((h) => new Option(h)));
    // What the match counts for: an event, a cup tie or a league leg around today, else
    // whatever the club's events take by the day (the log's `event` left out).
    const events = (club && club.events) || [];
    $("event").replaceChildren(new Option(text.no_event, ""), ...events.map((e) => new Option(e.label, e.value)));
    $("event-row").hidden = events.length === 0;
  };
  clubSelect.onchange = onClub;
  onClub();
  drawSeats();
}
function playerCount() { return Number(document.querySelector("input[name=count]:checked").value); }
function drawSeats() {
  const n = playerCount();
  const box = $("seats");
  const old = [...box.querySelectorAll("input")].map((i) => i.value);
  box.replaceChildren();
  for (let seat = 0; seat < n; seat += 1) {
    const label = document.createElement("label");
    // People count seats from 1 ("Seat 1" is seat 0 of the log); ids and values stay 0-based.
    label.textContent = say(text.seat, { number: seat + 1 }) + " ";
    const input = document.createElement("input");
    input.id = "seat-" + seat;
    input.setAttribute("list", "handles");
    input.autocomplete = "off";
    input.value = old[seat] || "";
    input.addEventListener("input", nameLeaders);
    label.append(input);
    box.append(label);
  }
  $("teams-row").hidden = n !== 4;
  if (n !== 4) $("teams").checked = false;
  nameLeaders();
}
/* Who may lead the first hand, each seat by its number and the name typed for it. */
function nameLeaders() {
  const select = $("first-leader");
  const chosen = select.value;
  const n = playerCount();
  select.replaceChildren(...Array.from({ length: n }, (_, s) => {
    const name = $("seat-" + s).value.trim();
    return new Option(say(text.seat, { number: s + 1 }) + (name ? ": " + name : ""), String(s));
  }));
  if (chosen !== "" && Number(chosen) < n) select.value = chosen;
}
/* The target chosen instead of the ruleset's, or 0 (a page kept from before had no choice). */
function target() { return $("target") ? Number($("target").value) || 0 : 0; }
/* The ruleset as the record writes it: the preset's name, or the preset with the target
 * chosen and, when the table stops the moment a play reaches it, `end_at_target`. */
function rulesetSpec() {
  const spec = { base: $("ruleset").value };
  if (target()) spec.target = target();
  if ($("at-once") && $("at-once").checked) spec.end_at_target = "immediately";
  return Object.keys(spec).length > 1 ? spec : spec.base;
}

// When the match was played as the table's clock says it, with its offset from UTC
// ("2026-11-20T20:05:00+04:00"): the archive shows a match in the time it was played in.
function localMoment(date) {
  const pad = (n) => String(n).padStart(2, "0");
  const east = -date.getTimezoneOffset(); // minutes east of UTC
  const zone = (east < 0 ? "-" : "+") + pad(Math.floor(Math.abs(east) / 60)) + ":" + pad(Math.abs(east) % 60);
  return date.getFullYear() + "-" + pad(date.getMonth() + 1) + "-" + pad(date.getDate()) +
    "T" + pad(date.getHours()) + ":" + pad(date.getMinutes()) + ":" + pad(date.getSeconds()) + zone;
}

async function start() {
  clearMessages();
  const club = $("club").value;
  if (!club) return showError(text.need_club);
  const n = playerCount();
  const players = Array.from({ length: n }, (_, s) => $("seat-" + s).value.trim());
  if (players.some((p) => !p) || new Set(players).size !== n) return showError(text.need_players);
  const clubName = config.clubs.find((c) => c.slug === club).name;
  const doc = {
    format: "fives/1",
    record: "table",
    id: "rec-" + (crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random()),
    ruleset: rulesetSpec(),
    players: players,
    teams: $("teams").checked ? [[0, 2], [1, 3]] : null,
    club: clubName,
    ...($("event").value ? { event: $("event").value } : {}),
    played_at: localMoment(new Date()),
    source: "fives recorder",
    hands: [{ leader: Number($("first-leader").value), moves: [] }],
  };
  const answer = await tryDoc(doc);
  if (!answer) return;
  const setup = setupOf(club, doc);
  localStorage.removeItem(KEY.draft); // a new match drops the abandoned one
  writeMatch(setup, []);
  store.current = rebuild(setup, []);
  view = answer;
  showTable();
  tell(store.current);
}
function showTable() {
  $("undo").disabled = false;
  $("setup").hidden = true;
  $("table").hidden = false;
  render();
}

/* --- drawing ------------------------------------------------------------------------------ */
function clearMessages() { $("error").textContent = ""; $("setup-error").textContent = ""; $("call").textContent = ""; }

/* Write `value` into an element's text only where it changed: a tap's frame lays out and
 * paints only what the tap changed (issue 56: drawn in the frame of the tap at CPU x4). */
function put(element, value) {
  if (element.textContent !== value) element.textContent = value;
}
/* An element's property (hidden, disabled), data or attribute set only where it changed, for
 * the same reason: the browser recalculates an element's style on every write of one. */
function setIf(element, name, value) {
  if (element[name] !== value) element[name] = value;
}
function setData(element, key, value) {
  if (element.dataset[key] !== value) element.dataset[key] = value;
}
function setAttr(element, name, value) {
  if (element.getAttribute(name) !== value) element.setAttribute(name, value);
}
/* A list's items, each {text, data: {key: value}, out}, written into `list` in place. */
function putList(list, items) {
  while (list.children.length > items.length) list.lastElementChild.remove();
  items.forEach((item, index) => {
    let li = list.children[index];
    if (!li) li = list.appendChild(document.createElement("li"));
    put(li, item.text);
    for (const [key, value] of Object.entries(item.data)) if (li.dataset[key] !== value) li.dataset[key] = value;
    if (li.classList.contains("out") !== Boolean(item.out)) li.classList.toggle("out", Boolean(item.out));
  });
}

function render() {
  settled();
  const cur = store.current;
  const state = view.state;
  const players = names();
  const phase = view.phase;
  setData(document.body, "phase", phase);
  put($("turn"), phase === "play" && state && state.turn !== null
    ? say(state.move === null ? text.leads : text.turn, { player: players[state.turn] }) + " · " + say(text.hand, { hand: state.hand + 1 })
    : say(text.hand, { hand: (state ? state.hand : 0) + 1 }));
  setData($("turn"), "seat", state && state.turn !== null ? String(state.turn) : "");
  const scores = state ? state.scores : view.report.scores;
  putList($("scores"), teamNames().map((name, team) => ({ text: name + ": " + scores[team], data: { team: String(team) } })));
  const ends = state ? state.open_ends : [];
  put($("ends"), ends.length ? say(text.ends, { ends: ends.map((e) => say(text.end_pip, { end: endName(e.end), pip: e.pip })).join(", ") }) : text.no_ends);
  put($("count"), say(text.count, { count: state ? state.count : 0 }));
  if (state && state.action && !$("call").textContent) {
    const who = players[state.seat];
    const action = state.action;
    // What the play scored is the engine's: the go-out bonus in it, nothing for a bust.
    if (action.play && view.bust) $("call").textContent = say(text.no_points, { player: who, tile: action.play }) + ". " + say(text.bust, view.bust);
    else if (action.play) $("call").textContent = state.points ? say(text.points, { player: who, points: state.points }) + (view.bonus ? " (" + say(text.went_out, { points: view.bonus }) + ")" : "") : say(text.no_points, { player: who, tile: action.play });
    else if (action.draw) $("call").textContent = action.draw === "?" ? say(text.drew, { player: who }) : say(text.drew_tile, { player: who, tile: action.draw });
    else if (action.pass) $("call").textContent = say(text.knocked, { player: who });
  }
  setData($("call"), "points", state && state.points ? String(state.points) : "0");
  setData($("call"), "bust", view.bust ? String(view.bust.would) : "");
  drawBoard(state);
  drawPegs();
  // The tiles each seat holds, as a count.
  putList($("held"), players.map((name, seat) => {
    const held = view.held ? view.held[seat] : 0;
    // A seat out while its partner plays on: the engine skips its turn.
    const out = phase === "play" && state && state.move !== null && held === 0;
    return { text: out ? say(text.is_out, { player: name }) : name + ": " + say(text.tiles_held, { count: held }), data: { seat: String(seat) }, out: out };
  }));
  const picker = $("picker");
  if (!picker.childElementCount) {
    for (const t of view.tiles) {  // the engine's tile set
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.tile = t;
      b.className = "rec-tile";
      b.textContent = t;
      b.addEventListener("click", (event) => { if (!pressedClick(b, event)) tapTile(t); });
      pressable(b, () => ({ key: "play " + t, raw: { seat: view.state.turn, play: t } }));
      picker.append(b);
    }
  }
  pickerDisabled();
  picker.classList.toggle("drawing", !!cur.drawShown);
  // Draw buttons only where the ruleset draws (the engine says), usable while a seat may draw.
  for (const id of ["drew", "drew-shown"]) {
    setIf($(id), "hidden", !view.draws);
    setIf($(id), "disabled", phase !== "play" || !view.may_knock || !view.may_draw);
  }
  setIf($("knock"), "disabled", phase !== "play" || !view.may_knock);
  setData(document.querySelector(".rec-actions"), "draws", view.draws ? "yes" : "no");
  const moves = lastHand().moves;
  const lead = moves.length === 1 && moves[0].play ? moves[0].play.split("-") : null;
  setIf($("turn-lead"), "hidden", !(lead && lead[0] !== lead[1] && phase === "play"));
  setAttr($("drew-shown"), "aria-pressed", cur.drawShown ? "true" : "false");
  // The end of a hand: the tiles shown, then the settlement and the next leader.
  const leftHeading = $("left-heading");
  setIf(leftHeading, "hidden", phase !== "left");
  if (phase === "left") {
    const left = cur.left || view.held.map(() => []);
    const seat = leftSeat(left);
    if (seat !== null) {
      leftHeading.textContent = say(text.left_heading, { player: players[seat], done: left[seat].length, count: view.held[seat] });
      leftHeading.dataset.seat = String(seat);
    }
  }
  setIf($("next"), "hidden", phase !== "next-hand");
  if (phase === "next-hand") renderNext(state);
  setIf($("over"), "hidden", phase !== "over");
  if (phase === "over") {
    const winner = view.report.winner;
    // A hand stopped at the target (the ruleset ends the match there) is not settled, and
    // nobody is asked the tiles left: the engine's phase says which.
    const stopped = state && state.hand_end === "target" ? say(text.hand_over, { hand: state.hand + 1, how: text.end_target }) + " " : "";
    $("over-text").textContent = stopped + say(text.over, { team: teamNames()[winner] }) + " " + settlementText(state);
    $("save").hidden = false;
    $("saved").hidden = true;
    $("new-match").hidden = true;
  }
  renderOutbox();
}
/* The picker's tiles laid (or shown) disabled, all of them outside play, but the button of a
 * tap drawn on its press: it takes its click (`pressedClick`), as a button does. */
function pickerDisabled() {
  const phase = view.phase;
  // The picker: laid tiles (and tiles already shown at the end) greyed out.
  const laid = new Set(view.laid || []);
  const cur = store.current;
  if (cur.left) for (const tiles of cur.left) for (const t of tiles) laid.add(tileName(t));
  const held = press ? press.button : released ? released.button : null;
  for (const b of $("picker").children) setIf(b, "disabled", b !== held && (laid.has(b.dataset.tile) || !(phase === "play" || phase === "left")));
}
function settlementText(state) {
  if (!state || !state.settlement) return "";
  const list = teamNames().map((name, team) => name + " " + state.settlement[team]).join(", ");
  return say(text.settlement, { list: list });
}
function renderNext(state) {
  const how = { domino: text.end_domino, block: text.end_block, target: text.end_target }[state.hand_end] || "";
  $("hand-result").textContent = say(text.hand_over, { hand: state.hand + 1, how: how });
  $("settlement").textContent = settlementText(state);
  const proposed = view.next_leaders;
  const previous = lastHand().leader;
  const choice = proposed && proposed.length ? proposed[0] : (previous + 1) % names().length;
  const box = $("leaders");
  box.replaceChildren(...names().map((name, seat) => {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.leader = String(seat);
    b.textContent = name + (proposed && proposed.includes(seat) ? " (" + text.proposed + ")" : "");
    b.setAttribute("aria-pressed", seat === choice ? "true" : "false");
    b.addEventListener("click", () => {
      for (const other of box.children) other.setAttribute("aria-pressed", "false");
      b.setAttribute("aria-pressed", "true");
    });
    return b;
  }));
}

/* The scores on a cribbage board (a match to 61): the engine's pegs, each side's score and
 * its score before its last scoring play. */
function drawPegs() {
  const box = $("cribbage-box");
  const pegs = view.pegs;
  setIf(box, "hidden", !(pegs && pegs.target === 61 && window.FivesCribbage));
  if (box.hidden) return;
  window.FivesCribbage.draw($("cribbage"), { target: pegs.target, names: teamNames(), scores: pegs.scores, back: pegs.back });
}

function drawBoard(state) {
  // The board (board.js): as tall as the picture needs, at most 14rem or 30% of the screen,
  // so a phone still shows the tiles to tap and the buttons below without a scroll.
  if (window.FivesBoard) window.FivesBoard.draw($("board"), state, { maxRem: 14, screenShare: 0.3 });
}

/* --- start -------------------------------------------------------------------------------- */
// The set-up is filled in while the engine loads: a tap on Start waits for it.
$("start").addEventListener("click", async () => {
  if (!py) {
    $("setup-error").textContent = loading.dataset.waiting;
    $("start").disabled = true;
    try { await engine; } catch (e) { return; } finally { $("start").disabled = false; }
    $("setup-error").textContent = "";
  }
  act(start);
});
$("drew").addEventListener("click", (event) => { if (!pressedClick($("drew"), event)) drew(); });
pressable($("drew"), () => (mayKnock() && view.may_draw ? { key: "draw ?", raw: { seat: view.state.turn, draw: "?" } } : null));
$("drew-shown").addEventListener("click", drewShown);
$("knock").addEventListener("click", (event) => { if (!pressedClick($("knock"), event)) knocked(); });
pressable($("knock"), () => (mayKnock() ? { key: "pass", raw: { seat: view.state.turn, pass: true } } : null));
$("undo").addEventListener("click", undo);
$("turn-lead").addEventListener("click", turnLead);
$("next-hand").addEventListener("click", nextHand);
$("save").addEventListener("click", save);
$("new-match").addEventListener("click", () => { clearMessages(); showSetup(); });
$("abandon").addEventListener("click", abandonAsk);
$("abandon-yes").addEventListener("click", abandon);
$("abandon-no").addEventListener("click", () => { $("abandon-confirm").hidden = true; });
$("draft-resume").addEventListener("click", resumeDraft);
$("end-cancel").addEventListener("click", () => { $("end-picker").hidden = true; });
for (const radio of document.querySelectorAll("input[name=count]")) radio.addEventListener("change", drawSeats);
// Another tab of this recorder changed the match or the outbox: take its state, so that
// this tab, shown again, goes on from there instead of writing its older state over it.
// A tap there writes a step, then the number of steps: the number (or the set-up, or the
// outbox; STORE: a page of the old format still open) says there is something to take, and
// the events of one change are taken together.
let reloading = null;
window.addEventListener("storage", (event) => {
  if (![KEY.match, KEY.steps, KEY.outbox, STORE, null].includes(event.key)) return;
  clearTimeout(reloading);
  reloading = setTimeout(() => {
    store = load();
    if (!py) return;
    clearMessages();
    if (store.current) {
      act(async () => {
        view = await analyse(store.current.doc);
        showTable();
      });
    } else {
      showSetup();
    }
    renderOutbox();
  }, 50);
});
window.addEventListener("online", flush);
window.addEventListener("offline", renderOutbox);
setInterval(() => { if (store.outbox.length && navigator.onLine) flush(); }, 5000);

renderOutbox();
flush();
// The set-up at once (a match in progress needs the engine to be drawn: it waits).
const resuming = Boolean(store.current);
if (!resuming) showSetup();
const engine = startEngine();
try {
  await engine;
  loading.hidden = true;
  $("status").textContent = text.engine_ready;
  document.body.dataset.readyMs = String(Math.round(performance.now())); // since navigation
  document.body.dataset.engine = "ready";
  // Everything is kept once the worker controls the page and the engine has loaded through it.
  if (await controlled) document.body.dataset.offline = "ready";
  // A match started while the engine loaded (Start waited for it) is on the table already.
  if (store.current && $("table").hidden) {
    view = await analyse(store.current.doc);
    if (resuming) $("call").textContent = text.resumed;
    showTable();
    tell(store.current); // steps kept while the page was closed go to the live match now
  } else if (!store.current && $("setup").hidden) {
    showSetup();
  }
} catch (e) {
  $("status").textContent = say(text.engine_failed, { reason: e && e.message ? e.message : String(e) });
  document.body.dataset.engine = "failed";
}
