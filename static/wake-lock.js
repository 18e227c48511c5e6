/* The game page's "Keep the screen on" switch, on the Screen Wake Lock API. The switch stays
   hidden where the API is missing; the phone may still refuse, and the switch then says so
   and turns itself off. The lock ends whenever the page is hidden, so it is asked for again
   each time the page comes back while the switch is on. The choice is kept on this phone. */
(function () {
  "use strict";
  var KEY = "scorekeeper.keepScreenOn";

  function setUp() {
    var box = document.getElementById("wake-lock");
    var input = document.getElementById("wake-lock-switch");
    var status = document.getElementById("wake-lock-status");
    if (!box || !input || !("wakeLock" in navigator)) { return; }
    var lock = null;
    box.hidden = false;

    function remember(on) {
      try { window.localStorage.setItem(KEY, on ? "1" : "0"); } catch (e) { /* private mode */ }
    }

    function wanted() {
      try { return window.localStorage.getItem(KEY) === "1"; } catch (e) { return false; }
    }

    function say(text) { status.textContent = text; }

    function acquire() {
      if (lock || document.visibilityState !== "visible") { return; }
      navigator.wakeLock.request("screen").then(function (sentinel) {
        if (!input.checked) { sentinel.release(); return; }
        lock = sentinel;
        lock.addEventListener("release", function () { lock = null; });
        say(box.dataset.on);
      }, function () {
        input.checked = false;
        remember(false);
        say(box.dataset.refused);
      });
    }

    function release() {
      if (lock) { lock.release(); lock = null; }
      say(box.dataset.off);
    }

    input.addEventListener("change", function () {
      remember(input.checked);
      if (input.checked) { acquire(); } else { release(); }
    });

    document.addEventListener("visibilitychange", function () {
      if (input.checked && document.visibilityState === "visible") { acquire(); }
    });

    if (wanted()) {
      input.checked = true;
      acquire();
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUp);
  } else {
    setUp();
  }
})();
