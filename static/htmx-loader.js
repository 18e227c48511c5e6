/* Load htmx without holding the page: the pinned CDN copy (checked by its integrity hash),
   or this server's own copy when the CDN fails, is blocked, or has not answered in time.
   It starts once the page has loaded, so a stalled CDN never delays the first paint, and
   htmx, finding the document complete, sets itself up at once. Every page works without it. */
(function () {
  "use strict";
  var me = document.currentScript;
  var wait = Number(me.dataset.wait) || 1500;

  function script(src) {
    var element = document.createElement("script");
    element.src = src;
    return element;
  }

  function start() {
    if (window.htmx) { return; }
    var done = false;
    var cdn = script(me.dataset.cdn);
    cdn.integrity = me.dataset.integrity;
    cdn.crossOrigin = "anonymous";
    var timer = window.setTimeout(fallBack, wait);

    function fallBack() {
      if (done) { return; }
      done = true;
      window.clearTimeout(timer);
      /* A script moved into another document never runs, so a CDN answer arriving late
         cannot start a second htmx beside the local one. */
      document.implementation.createHTMLDocument("").body.appendChild(cdn);
      document.head.appendChild(script(me.dataset.local));
    }

    cdn.addEventListener("load", function () {
      done = true;
      window.clearTimeout(timer);
    });
    cdn.addEventListener("error", fallBack);
    document.head.appendChild(cdn);
  }

  if (document.readyState === "complete") {
    start();
  } else {
    window.addEventListener("load", start);
  }
})();
