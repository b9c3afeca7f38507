/* The match page's expected-value analysis: ask for it (the API, not a page load), show its
 * progress while a worker runs it (polling GET /api/v1/matches/{id}/analysis/), and list
 * every play's figures when that list is opened: fetched then, so the page stays light.
 * Without this script the button posts a form and the page says the rest. */
(function () {
  "use strict";
  const root = document.getElementById("analysis");
  if (!root) return;
  const text = JSON.parse(document.getElementById("analysis-text").textContent);
  const api = root.getAttribute("data-api");
  const progress = root.querySelector("[data-analysis-progress]");
  const bar = root.querySelector("progress");
  const count = root.querySelector("[data-analysis-count]");
  const message = root.querySelector("[data-analysis-message]");
  const form = root.querySelector("[data-analysis-form]");
  const POLL = 1000; // ms between two looks at the progress

  function fmt(template, values) {
    return template.replace(/%\((\w+)\)s/g, (_, name) => String(values[name]));
  }
  /* A play as the engine writes it ("4-6 on N", or "4-6" for a lead) in the reader's words
   * (as replay.js says it). */
  function playName(play) {
    const [tile, , end] = String(play || "").split(" ");
    return end ? tile + " " + fmt(text.on_end, { end: text["end_" + end] || end }) : tile;
  }
  /* A figure as the page's own tables write it: "3,11" on a Russian or Georgian page. */
  const lang = document.documentElement.lang || undefined;
  function number(value, digits) {
    if (value === null || value === undefined) return "—";
    return Number(value).toLocaleString(lang, {
      minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false,
    });
  }

  /* Show where the run stands; once it ends, load the page again: its summary, chart and
   * list are drawn by the server (the address keeps the replay's position). */
  function show(state) {
    if (state.status === "done" || state.status === "failed") {
      location.reload();
      return false;
    }
    progress.hidden = false;
    bar.max = Math.max(state.total, 1);
    bar.value = state.done;
    count.textContent = state.total ? fmt(text.count, state) : text.waiting;
    return true;
  }
  function poll() {
    fetch(api, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then((answer) => (answer.ok ? answer.json() : Promise.reject(answer.status)))
      .then((state) => { if (show(state)) setTimeout(poll, POLL); })
      .catch(() => setTimeout(poll, 4 * POLL));
  }

  if (form) {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const button = form.querySelector("button");
      button.disabled = true;
      message.textContent = "";
      fetch(api, {
        method: "POST",
        credentials: "same-origin",
        headers: {
          Accept: "application/json",
          "X-CSRFToken": form.querySelector("[name=csrfmiddlewaretoken]").value,
        },
      })
        .then((answer) => answer.json().then((body) => ({ ok: answer.ok, body: body })))
        .then(({ ok, body }) => {
          if (!ok) {
            message.textContent = body.error ? body.error.message : text.load_failed;
            button.disabled = false;
            return;
          }
          form.hidden = true;
          if (show(body)) setTimeout(poll, POLL);
        })
        .catch(() => {
          message.textContent = text.load_failed;
          button.disabled = false;
        });
    });
  }
  if (root.hasAttribute("data-under-way")) setTimeout(poll, POLL);

  // --- every play, on demand ---------------------------------------------------------------
  const plays = root.querySelector("[data-analysis-plays]");
  let listed = false;
  function cell(row, value, className) {
    const td = document.createElement("td");
    if (className) td.className = className;
    td.textContent = value;
    row.appendChild(td);
    return td;
  }
  /* A play's loss is given in the unit of its mark and of the move list beside the board
   * (the rule of replays.analysis.replay_marks): in winning chances where the review has
   * them, the points under them in smaller print; else in points. The two lists once gave
   * the same play's loss as 18.3 (chances) and 12.88 (points). */
  function inChances(play) {
    return play.unit === "chance" && play.chance_loss !== null && play.chance_loss !== undefined;
  }
  function percent(value) {
    return number(value, 1) + " %";
  }
  function withPoints(td, said) {
    const small = document.createElement("small");
    small.className = "other-unit";
    small.textContent = fmt(text.in_points, { points: said });
    td.appendChild(small);
    return td;
  }
  function chanceCells(row, play) {
    const spread = play.exact ? "" : " ±" + number(play.stderr, 2);
    withPoints(cell(row, number(play.chance_loss, 1), "num"), number(play.loss, 2));
    cell(row, play.mark ? text[play.mark] : "", "mark");
    withPoints(cell(row, playName(play.played) + " " + percent(play.chance), "play"), number(play.value, 2) + spread);
    const best = play.chance_best === play.played ? text.best_same : playName(play.chance_best) + " " + percent(play.best_chance);
    // In points the best play may be another: named then.
    const bestPoints = (play.best === play.chance_best ? "" : playName(play.best) + " ") + number(play.best_value, 2);
    withPoints(cell(row, best, "play"), bestPoints);
  }
  function list(state) {
    const players = state.result.players;
    const body = plays.querySelector("tbody");
    const fragment = document.createDocumentFragment();
    for (const play of state.result.plays) {
      const row = document.createElement("tr");
      if (play.mark) row.className = "mark-" + play.mark;
      const where = cell(row, "");
      const link = document.createElement("a");
      // The API numbers hands and moves from 1, as the replay's addresses do.
      link.href = "#h" + play.hand + "m" + play.move;
      link.textContent = play.hand + "." + play.move;
      link.title = fmt(text.position, { hand: play.hand, move: play.move });
      where.appendChild(link);
      cell(row, players[play.seat]);
      // What a reader scans for first (the loss and its mark) fits a phone's width; the
      // plays and their values follow, the table scrolling sideways in its box.
      if (inChances(play)) {
        chanceCells(row, play);
        fragment.appendChild(row);
        continue;
      }
      cell(row, number(play.loss, 2), "num");
      cell(row, play.mark ? text[play.mark] : "", "mark");
      const spread = play.exact ? "" : " ±" + number(play.stderr, 2);
      cell(row, playName(play.played) + " " + number(play.value, 2) + spread, "play");
      cell(row, play.best === play.played ? text.best_same : playName(play.best) + " " + number(play.best_value, 2), "play");
      fragment.appendChild(row);
    }
    body.textContent = "";
    body.appendChild(fragment);
  }
  if (plays) {
    plays.addEventListener("toggle", () => {
      if (!plays.open || listed) return;
      listed = true;
      message.textContent = text.loading;
      fetch(api, { headers: { Accept: "application/json" }, credentials: "same-origin" })
        .then((answer) => (answer.ok ? answer.json() : Promise.reject(answer.status)))
        .then((state) => {
          message.textContent = "";
          if (state.result) list(state);
        })
        .catch(() => {
          listed = false;
          message.textContent = text.load_failed;
        });
    });
  }
})();
