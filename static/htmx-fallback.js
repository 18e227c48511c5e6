/* Load the vendored htmx when the CDN copy did not arrive (offline, blocked, or failed SRI). */
if (!window.htmx) {
  document.write('<script src="' + document.currentScript.dataset.local + '"><\/script>');
}
