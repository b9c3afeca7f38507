// Behaviour of every page, kept out of the HTML so that the Content-Security-Policy can
// forbid inline scripts: a select marked data-submit-on-change sends its form when changed.
document.addEventListener("change", (event) => {
  const target = event.target;
  if (target instanceof HTMLSelectElement && target.hasAttribute("data-submit-on-change")) {
    target.form.submit();
  }
});
