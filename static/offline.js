/* The app on this phone with no connection. Registers the service worker (/sw.js), which
   keeps the app's files and a copy of every page opened here; a page served from that copy
   says so: "Offline — last update HH:MM", the time the copy was kept (a game's page, which
   follows its game, clears the mark itself once the server answers: static/live.js). */
(function () {
  "use strict";
  var me = document.currentScript;
  var copy = document.documentElement.dataset.offlineCopy;

  function at(time) {
    return new Date(time).toLocaleTimeString(document.documentElement.lang || undefined, { hour: "2-digit", minute: "2-digit" });
  }

  function markCopy() {
    /* What the page said once (a deal just saved) was said then, not now. */
    document.querySelectorAll(".flash").forEach(function (flash) { flash.textContent = ""; });
    var mark = document.getElementById("offline-mark");
    if (!mark || document.querySelector("[data-live][data-events]")) { return; }
    mark.textContent = mark.dataset.text.replace("{time}", at(Date.parse(copy) || Date.now()));
    mark.hidden = false;
    document.documentElement.classList.add("is-offline");
  }

  function version() {
    var board = document.querySelector("[data-live][data-version]");
    return board ? board.dataset.version : null;
  }

  if (copy !== undefined) {
    if (document.readyState === "loading") {
      document.addEventListener("DOMContentLoaded", markCopy);
    } else {
      markCopy();
    }
  }

  if (!("serviceWorker" in navigator) || !window.isSecureContext || !me) { return; }
  /* Once the page has loaded: the worker's first fetches (the shell, home and the rules)
     never compete with the page's own on a slow connection. */
  if (document.readyState === "complete") {
    register();
  } else {
    window.addEventListener("load", register);
  }

  function register() {
    navigator.serviceWorker.register(me.dataset.worker, { scope: me.dataset.scope, updateViaCache: "none" })
      .then(function (registration) {
        /* This page was loaded before the worker ran here: ask it to keep a copy now. */
        if (!navigator.serviceWorker.controller && copy === undefined) {
          navigator.serviceWorker.ready.then(function (ready) {
            if (ready.active) { ready.active.postMessage({ keep: location.href }); }
          });
        }
        /* Back online: a new release, if there is one, is fetched now, not at the next visit. */
        /* A game's page changes as it is played: when the phone puts the page away (screen
           off, another app), the worker keeps its copy again if the game moved on since. */
        var keptVersion = version();
        document.addEventListener("visibilitychange", function () {
          var now = version();
          if (document.visibilityState !== "hidden" || now === keptVersion || !navigator.serviceWorker.controller) { return; }
          keptVersion = now;
          navigator.serviceWorker.controller.postMessage({ keep: location.href });
        });
        function update(tries) {
          registration.update().catch(function () {
            if (tries > 1) { window.setTimeout(function () { update(tries - 1); }, 2000); }
          });
        }
        window.addEventListener("online", function () { update(3); });
      })
      .catch(function () { return null; });
  }
})();
