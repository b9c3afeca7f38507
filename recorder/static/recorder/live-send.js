/* Live steps: while online, the recorder sends each step as it keeps it, so that the club
 * night's page and the match's watchers follow the table (recorder/live.py).
 *
 * recorder.js tells every change of the match in progress with a "fives:steps" event
 * ({id, club, user, setup, steps}: the whole step list; {id, abandoned: true} when the match
 * is abandoned). What the archive has is known by a count, `acked`: the steps before it are
 * the archive's too. It is kept in memory only (a tap writes nothing more to the phone's
 * storage): a page opened again sends the whole match once, which the archive finds it has
 * and takes as nothing new. A send says "from step
 * `acked` on, the match is these steps": sent twice, it changes nothing; after an undo the
 * count falls to the steps left, and the next send replaces what was taken back. Offline,
 * nothing is lost: the steps wait in the match's own log and go with the next send (the
 * connection back, or the next tap), and so they do when the archive answers that it failed
 * or is busy (5xx, 429, 408): only a refusal (any other 4xx) stops the sends. The finished
 * match is still saved and sent by the recorder's outbox; the archive answers it with the
 * upload the live match became. */
const config = JSON.parse(document.getElementById("recorder-config").textContent);
// How long to wait before trying again after a send failed for want of a connection, or
// the archive failed it.
const RETRY_MS = 3000;

let latest = null; // the last change told: {id, club, user, setup, steps}
let lowest = Infinity; // the fewest steps the match had since the send in flight began
let dirty = false; // a change told since the last send the archive answered
let inFlight = false;
let refused = null; // the id of a match the archive refused to follow: not sent again
let retry = null;

let kept = { id: null, acked: 0 }; // the archive has the first `acked` steps of match `id`
function keepAcked(id, acked) {
  kept = { id: id, acked: acked };
}
function acked(id) {
  return kept.id === id ? kept.acked : 0;
}
function csrfToken() {
  const match = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}
async function post(url, body) {
  return fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
    body: JSON.stringify(body),
  });
}

window.addEventListener("fives:steps", (event) => {
  const change = event.detail;
  if (change.abandoned) {
    latest = null;
    post(config.live_abandon, { id: change.id }).catch(() => {});
    return;
  }
  if (change.id === refused) return;
  if (!latest || latest.id !== change.id) lowest = Infinity;
  latest = change;
  dirty = true;
  // Steps taken back below what the archive has: it has only those before them now.
  const count = change.steps.length;
  lowest = Math.min(lowest, count);
  if (acked(change.id) > count) keepAcked(change.id, count);
  send();
});
window.addEventListener("online", () => send());

/* A promise that the send in flight is answered: the recorder's save waits for it, so the
 * archive stores the finished match once, from whichever came first, never from two
 * requests at the same moment. */
let answered = Promise.resolve();
async function idle() {
  while (inFlight) await answered; // a send answered may start the next at once
}
window.fivesLive = { idle: idle };

async function send() {
  if (inFlight || !latest || !dirty || !navigator.onLine) return;
  const change = latest;
  const from = Math.min(acked(change.id), change.steps.length);
  dirty = false;
  inFlight = true;
  let done;
  answered = new Promise((resolve) => { done = resolve; });
  lowest = change.steps.length;
  clearTimeout(retry);
  let again = false;
  try {
    const response = await post(config.live, {
      id: change.id, club: change.club, user: change.user, setup: change.setup,
      from: from, steps: change.steps.slice(from),
    });
    const answer = await response.json().catch(() => ({}));
    if (response.ok || (response.status === 409 && answer.code === "gap")) {
      // What the archive has now, less whatever was taken back meanwhile.
      keepAcked(change.id, Math.min(answer.count, lowest));
      document.body.dataset.liveSent = String(answer.count);
      if (answer.url) document.body.dataset.liveUrl = answer.url;
      if (response.status === 409) dirty = true; // sent again from the archive's count
      again = dirty;
    } else if (response.status >= 500 || response.status === 429 || response.status === 408) {
      // The archive failed or is busy (a restart behind the proxy, a database short of
      // connections): not a refusal. The steps wait and go again, after Retry-After if said.
      dirty = true;
      const wait = Number(response.headers.get("Retry-After")) * 1000;
      retry = setTimeout(send, wait > 0 ? wait : RETRY_MS);
    } else {
      // Refused (the club, the account, a step the archive's engine will not take): the
      // match goes on in the phone and is sent whole at its end, through the outbox.
      document.body.dataset.liveRefused = String(response.status);
      refused = change.id;
      latest = null;
    }
  } catch (e) {
    dirty = true;
    retry = setTimeout(send, RETRY_MS); // no connection: the steps wait in the match's log
  } finally {
    inFlight = false;
    done();
  }
  if (again) send();
}
