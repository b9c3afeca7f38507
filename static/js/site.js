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

// A button marked data-copy copies the text of the element it names (an invitation link, a
// new token), and says so; the button is hidden where the browser cannot copy.
document.addEventListener("click", (event) => {
  const button = event.target instanceof Element && event.target.closest("[data-copy]");
  if (!button) return;
  const source = document.getElementById(button.dataset.copy);
  if (!source || !navigator.clipboard) return;
  navigator.clipboard.writeText(source.textContent.trim()).then(() => {
    button.textContent = button.dataset.done;
  });
});
for (const button of document.querySelectorAll("[data-copy]")) {
  button.hidden = !navigator.clipboard;
}

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

// A button marked data-copy-from copies the text of the field it names (the embed code).
// Where the page has no clipboard (a plain-http address), the text is selected to copy.
document.addEventListener("click", (event) => {
  const button = event.target instanceof Element && event.target.closest("[data-copy-from]");
  if (!button) return;
  const field = document.getElementById(button.dataset.copyFrom);
  if (!field) return;
  field.select();
  if (!navigator.clipboard) return;
  navigator.clipboard.writeText(field.value).then(() => {
    button.textContent = button.dataset.done;
  });
});

// A chart's hand (or point) says its figures where it is tapped or clicked: its <title>
// shows only under a hovering pointer, which a touch screen has not.
document.addEventListener("click", (event) => {
  const figure = event.target instanceof Element && event.target.closest(".score-chart");
  if (!figure) return;
  const svg = figure.querySelector("svg");
  let node = event.target;
  let title = null;
  while (node && node !== svg && !title) {
    title = node.querySelector(":scope > title");
    node = node.parentNode;
  }
  if (!title) return;
  let readout = figure.querySelector(".chart-readout");
  if (!readout) {
    readout = document.createElement("p");
    readout.className = "chart-readout";
    readout.setAttribute("aria-live", "polite");
    figure.insertBefore(readout, svg.nextSibling);
  }
  readout.textContent = title.textContent;
  figure.querySelectorAll(".chosen").forEach((chosen) => chosen.classList.remove("chosen"));
  title.parentNode.classList.add("chosen");
});

// The site's menu on a phone: a bar with a Menu button that opens the links under it.
// Without this script the button is a link to #menu, which opens it through CSS :target.
document.addEventListener("click", (event) => {
  const button = event.target instanceof Element && event.target.closest("[data-menu-button]");
  if (!button) return;
  event.preventDefault();
  const header = button.closest("header");
  const open = !header.classList.contains("menu-open");
  header.classList.toggle("menu-open", open);
  button.setAttribute("aria-expanded", String(open));
});

// A file field names the file chosen beside its button, in the page's language (the
// browser's own input, which says it in the browser's, is hidden: see .file-field in site.css).
(() => {
  const name = (input) => {
    const shown = input.closest(".file-field")?.querySelector(".file-name");
    if (shown) shown.textContent = [...input.files].map((file) => file.name).join(", ") || shown.dataset.none;
  };
  document.addEventListener("change", (event) => {
    if (event.target instanceof HTMLInputElement && event.target.type === "file") name(event.target);
  });
  for (const input of document.querySelectorAll(".file-field input[type=file]")) name(input);
})();

// A league's points scheme (a select marked data-scheme-points, its presets' numbers by
// slug) fills in the numbers as a scheme is chosen; a number changed by hand makes the
// scheme "custom", so that what is saved is what is shown.
document.addEventListener("change", (event) => {
  const target = event.target;
  if (!(target instanceof Element) || !target.form) return;
  const select = target.form.querySelector("select[data-scheme-points]");
  if (!select) return;
  const schemes = JSON.parse(select.dataset.schemePoints);
  if (target === select) {
    for (const [name, value] of Object.entries(schemes[select.value] || {})) {
      if (target.form.elements[name]) target.form.elements[name].value = value;
    }
  } else if (target.name in (schemes[select.value] || {})) {
    select.value = "custom";
  }
});
