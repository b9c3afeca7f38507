/* The live pages: a club night's tables (/clubs/<slug>/live/) and one live match
 * (/live/<id>/), following the table as it is recorded.
 *
 * With the event stream (config.stream: the archive has Redis) each change comes as it
 * happens; the browser reconnects by itself and the stream sends what was missed (it
 * knows the last revision seen from Last-Event-ID). Without it (make run) the page asks
 * again every config.poll_ms. A live match's change is {revision, count, steps: [{n,
 * view}], undone, end}: the views of the steps written since, the number of steps now (an
 * undo lowers it), whether the last change took a tap back and, once over, where the stored
 * match is.
 *
 * Each table says which state it is in (stateOf), in the same words on both pages: set up
 * with no tile yet, a hand in play, a hand over, the match over, a tap taken back,
 * abandoned, storing, stored, refused. */
const config = JSON.parse(document.getElementById("live-config").textContent);
const text = JSON.parse(document.getElementById("live-text").textContent);
const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";

function say(template, values) {
  return template.replace(/%\((\w+)\)s/g, (_, name) => (values && name in values ? String(values[name]) : ""));
}
function status(message) {
  $("live-status").textContent = message;
}

/* The state a table is in, from its summary (a club night's table) or a match page's last
 * view and end: [key, words]. The key is the table's data-state (styles and tests read it). */
function stateOf(steps, phase, hand, turn, end) {
  if (end && end.abandoned) return ["abandoned", text.abandoned];
  if (end && end.storing) return ["storing", text.storing];
  if (end && end.refused) return ["refused", text.refused];
  if (end && end.url && end.waiting) return ["stored-waiting", text.stored_waiting];
  if (end && end.url) return ["stored", text.stored_table];
  if (!steps) return ["waiting", text.waiting];
  if (phase === "over") return ["over", text.over];
  if (phase === "left" || phase === "next-hand") return ["hand-over", say(text.hand_over, { hand: hand })];
  return ["play", turn ? say(text.turn, { player: turn }) : ""];
}

/* Follow `url`: the stream when there is one, else ask `poll(after)` again and again. */
function follow(onChange, streamUrl, pollUrl) {
  if (streamUrl && window.EventSource) {
    const source = new EventSource(streamUrl);
    source.onopen = () => status(text.following);
    source.onerror = () => { if (source.readyState !== EventSource.CLOSED) status(text.reconnecting); };
    source.onmessage = (event) => {
      status(text.following); // after a reconnect, the stream is back
      const closed = onChange(JSON.parse(event.data));
      if (closed) source.close();
    };
    return;
  }
  status(text.polling);
  const ask = async () => {
    try {
      const response = await fetch(pollUrl(), { credentials: "same-origin" });
      if (!response.ok) throw new Error(String(response.status));
      status(text.polling); // a failed ask said the connection was lost: it is back
      if (onChange(await response.json())) return;
    } catch (e) { status(text.reconnecting); }
    setTimeout(ask, config.poll_ms);
  };
  setTimeout(ask, config.poll_ms);
}

/* --- one match ----------------------------------------------------------------------------- */
const views = [];
let revision = 0;

let undone = false; // the last change took a tap back
let end = null;

function applyChange(change) {
  for (const step of change.steps) views[step.n] = step.view;
  views.length = change.count;
  revision = change.revision;
  undone = Boolean(change.undone);
  end = change.end || null;
  document.body.dataset.revision = String(revision);
  document.body.dataset.steps = String(views.length);
  drawMatch();
  return ending(change.end);
}
/* Where a match that ended goes: return true when nothing more will come. */
function ending(end) {
  if (!end) return false;
  if (end.abandoned) { status(text.abandoned); return true; }
  if (end.storing) { status(text.storing); return false; }
  document.body.dataset.stored = end.url;
  // A match waiting for approval is a 404 to all but its uploader and the club's admins:
  // the rest are told where it stands, not sent there.
  if (end.waiting && !config.sees_waiting) { status(text.stored_waiting); return true; }
  status(end.refused ? text.refused : text.stored);
  if (!end.refused) window.location.assign(end.url);
  else $("live-end").replaceChildren(link(end.url, text.why_refused));
  return true;
}
function link(href, label) {
  const a = document.createElement("a");
  a.href = href;
  a.textContent = label;
  return a;
}
/* What the last step was, in words ("" for a step that lays nothing: a new hand). */
function callOf(view) {
  const players = config.setup.players;
  const action = view.action;
  if (!action) return "";
  const who = players[view.seat];
  if (action.play) return view.points ? say(text.scored, { player: who, tile: action.play, points: view.points }) : say(text.played, { player: who, tile: action.play });
  if (action.draw) return say(text.drew, { player: who });
  return say(text.knocked, { player: who });
}
function drawMatch() {
  const view = views[views.length - 1] || null;
  const sides = config.setup.sides;
  const scores = view && view.scores ? view.scores : sides.map(() => 0);
  $("live-scores").replaceChildren(...sides.map((name, side) => {
    const li = document.createElement("li");
    li.textContent = name + ": " + scores[side];
    li.dataset.side = String(side);
    return li;
  }));
  const hand = view ? (view.hand || 0) + 1 : 1;
  const turn = view && view.turn !== null && view.turn !== undefined ? config.setup.players[view.turn] : null;
  const [key, words] = stateOf(views.length, view && view.phase, hand, turn, end);
  document.body.dataset.state = key;
  const parts = [];
  if (view) parts.push(say(text.hand, { hand: hand }), say(text.count, { count: view.count || 0 }));
  // The end's own words are the status line's (ending): here, where the table is.
  if (words && !end) parts.push(words);
  if (views.length) parts.push(say(text.steps, { count: views.length }));
  $("live-where").textContent = parts.join(" · ");
  // After an undo the last step left is one the watcher saw already: say what happened.
  $("live-call").textContent = undone && !end ? text.undone : view ? callOf(view) : "";
  if (window.FivesBoard) window.FivesBoard.draw($("live-board"), view, { maxRem: 16, screenShare: 0.4 });
  drawChart(sides);
}
/* Each side's score after every step, one line a side. */
function drawChart(sides) {
  const chart = $("live-chart");
  const width = 300;
  const height = 100;
  const points = views.map((v) => (v && v.scores) || sides.map(() => 0));
  const top = Math.max(config.setup.target || 0, ...points.flat(), 10);
  const x = (i) => (points.length > 1 ? (i / (points.length - 1)) * width : 0);
  const y = (score) => height - (Math.max(score, 0) / top) * height;
  chart.replaceChildren();
  sides.forEach((name, side) => {
    const line = document.createElementNS(SVG, "polyline");
    line.setAttribute("points", points.map((p, i) => x(i).toFixed(1) + "," + y(p[side]).toFixed(1)).join(" "));
    line.setAttribute("class", "live-line side-" + side);
    const title = document.createElementNS(SVG, "title");
    title.textContent = name;
    line.append(title);
    chart.append(line);
  });
}

/* --- a club night ------------------------------------------------------------------------- */
const tables = new Map();

function applyTables(data) {
  if (data.tables) {
    tables.clear();
    for (const t of data.tables) tables.set(t.id, t);
  }
  if (data.table) tables.set(data.table.id, data.table);
  drawTables();
  return false;
}
function drawTables() {
  const list = $("live-tables");
  // Abandoned and finished tables stay for an hour (recorder/live.py club_tables), saying so.
  const shown = [...tables.values()];
  document.body.dataset.tables = String(shown.length);
  $("live-none").hidden = shown.length > 0;
  list.replaceChildren(...shown.map((t) => {
    const li = document.createElement("li");
    li.className = "live-table";
    li.dataset.table = String(t.id);
    li.dataset.steps = String(t.steps);
    const score = document.createElement("p");
    score.className = "live-table-score";
    // A table stored before its summary had sides (one sent before its first tile) has none.
    const sides = t.sides || [], scores = t.scores || [];
    score.textContent = sides.map((name, side) => name + " " + scores[side]).join(" · ");
    const end = t.end || null;
    const [key, words] = stateOf(t.steps, t.phase, t.hand, t.turn, end);
    li.dataset.state = key;
    const where = document.createElement("p");
    where.className = "live-table-where";
    // Where the play is, while a hand is played (set up, between hands or ended: none).
    if (key === "play") where.textContent = [say(text.hand, { hand: t.hand }), say(text.count, { count: t.count })].join(" · ");
    const state = document.createElement("p");
    state.className = "live-table-state";
    state.textContent = t.undone && !end ? [words, text.undone].filter(Boolean).join(" · ") : words;
    li.append(score, where, state);
    // Where to go from it: the stored match, why it was refused, or the table itself (an
    // abandoned one has nothing more to show).
    if (key === "stored" || (key === "stored-waiting" && config.sees_waiting)) li.append(link(end.url, text.open_match));
    else if (key === "refused") li.append(link(end.url, text.why_refused));
    else if (key !== "abandoned") li.append(link(t.url, text.watch));
    return li;
  }));
}

if (config.tables) {
  applyTables({ tables: config.tables });
  follow(applyTables, config.stream, () => config.state);
} else {
  if (!applyChange(config.since)) {
    const streamUrl = config.stream ? config.stream + "?after=" + revision : null;
    follow(applyChange, streamUrl, () => config.state + "?after=" + revision);
  }
}
