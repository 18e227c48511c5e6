/* htmx's second way in. The page loads this server's copy first (a deferred script: a hashed,
   compressed file kept a year, which the service worker holds too), so no phone waits on the
   CDN. Only when that copy did not come (this server or a proxy failing it) is the pinned CDN
   copy asked, checked by its integrity hash, once the page has loaded: htmx, finding the
   document complete, sets itself up at once. Every page works without it. */
(function () {
  "use strict";
  var me = document.currentScript;

  function fromCdn() {
    if (window.htmx) { return; }
    var cdn = document.createElement("script");
    cdn.src = me.dataset.cdn;
    cdn.integrity = me.dataset.integrity;
    cdn.crossOrigin = "anonymous";
    document.head.appendChild(cdn);
  }

  if (window.htmx) { return; }  /* this server's copy ran before this script */
  if (document.readyState === "complete") {
    fromCdn();
  } else {
    window.addEventListener("load", fromCdn);
  }
})();
