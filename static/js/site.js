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
