// Behaviour of every page, kept out of the HTML so that the Content-Security-Policy can
// forbid inline scripts: a select marked data-submit-on-change sends its form when changed.
document.addEventListener("change", (event) => {
  const target = event.target;
  if (target instanceof HTMLSelectElement && target.hasAttribute("data-submit-on-change")) {
    target.form.submit();
  }
});

// A button marked data-copy-link copies the page's address, the replay's position included.
document.addEventListener("click", (event) => {
  const button = event.target instanceof Element && event.target.closest("[data-copy-link]");
  if (!button || !navigator.clipboard) return;
  navigator.clipboard.writeText(window.location.href).then(() => {
    button.textContent = button.dataset.done;
  });
});

// The review form of a club's manage page asks before it decides: how many matches, and
// that there is no undo (texts from the page, in its language). Confirmed, it is sent once
// for the whole batch; without this script, the archive asks on a page of its own.
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-confirm-review")) return;
  const button = event.submitter;
  const reject = button && button.name === "decision" && button.value === "reject";
  let count = form.querySelectorAll('input[name="match"]:checked').length;
  if (button && button.name === "one") count = 1;
  if (button && button.name === "scope") count = form.querySelectorAll('input[name="shown"]').length;
  // Nothing chosen, or a rejection without a reason: the archive says what is missing.
  if (count === 0 || (reject && !form.elements.reason.value.trim())) return;
  const text = reject ? form.dataset.confirmReject : form.dataset.confirmApprove;
  if (!window.confirm(text.replace("{count}", String(count)))) {
    event.preventDefault();
    return;
  }
  form.elements.confirmed.value = "1";
});

// The reader's time zone, as the browser knows it, for the times the archive shows them
// (the archive checks it is a zone). A new club's time zone starts as the organiser's.
(() => {
  let zone = "";
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch {
    return;
  }
  if (zone && !document.cookie.split("; ").includes("tz=" + encodeURIComponent(zone))) {
    document.cookie = "tz=" + encodeURIComponent(zone) + "; path=/; max-age=31536000; SameSite=Lax";
  }
  for (const input of document.querySelectorAll("input[data-browser-zone]")) {
    if (!input.value && zone) input.value = zone;
  }
})();

// A field marked data-player-names suggests the handles that contain what is typed (those
// the reader may see), from the archive's small list of names, into its datalist.
(() => {
  let timer = 0;
  let asked = "";
  document.addEventListener("input", (event) => {
    const input = event.target;
    if (!(input instanceof HTMLInputElement) || !input.hasAttribute("data-player-names")) return;
    const list = input.list;
    const text = input.value.trim();
    clearTimeout(timer);
    if (!list || !list.dataset.source || text.length < 1 || text === asked) return;
    timer = setTimeout(() => {
      asked = text;
      fetch(list.dataset.source + "?q=" + encodeURIComponent(text), { credentials: "same-origin" })
        .then((response) => (response.ok ? response.json() : { players: [] }))
        .then((body) => {
          list.replaceChildren(
            ...body.players.map((player) => {
              const option = document.createElement("option");
              option.value = player.handle;
              option.label = player.club;
              return option;
            }),
          );
        })
        .catch(() => {});
    }, 150);
  });
})();
