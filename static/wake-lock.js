/* The game page's "Keep the screen on" switch, on the Screen Wake Lock API. The switch stays
   hidden where the API is missing; the phone may still refuse, and the switch then says so
   and turns itself off. The lock ends whenever the page is hidden, so it is asked for again
   each time the page comes back while the switch is on. The choice is kept on this phone. */
import { whenParsed } from "./common.js";

const KEY = "scorekeeper.keepScreenOn";

/** @param {boolean} on */
function remember(on) {
  try { window.localStorage.setItem(KEY, on ? "1" : "0"); } catch { /* private mode */ }
}

function wanted() {
  try { return window.localStorage.getItem(KEY) === "1"; } catch { return false; }
}

function setUp() {
  const box = document.getElementById("wake-lock");
  const input = /** @type {HTMLInputElement | null} */ (document.getElementById("wake-lock-switch"));
  const status = document.getElementById("wake-lock-status");
  if (!box || !input || !status || !("wakeLock" in navigator)) { return; }
  /** @type {WakeLockSentinel | null} */
  let lock = null;
  box.hidden = false;

  /** @param {string | undefined} text */
  function say(text) { if (status) { status.textContent = text || ""; } }

  function acquire() {
    if (lock || document.visibilityState !== "visible") { return; }
    navigator.wakeLock.request("screen").then((sentinel) => {
      if (!input || !input.checked) { sentinel.release(); return; }
      lock = sentinel;
      lock.addEventListener("release", () => { lock = null; });
      say(box?.dataset.on);
    }, () => {
      if (input) { input.checked = false; }
      remember(false);
      say(box?.dataset.refused);
    });
  }

  function release() {
    if (lock) { lock.release(); lock = null; }
    say(box?.dataset.off);
  }

  input.addEventListener("change", () => {
    remember(input.checked);
    if (input.checked) { acquire(); } else { release(); }
  });

  document.addEventListener("visibilitychange", () => {
    if (input.checked && document.visibilityState === "visible") { acquire(); }
  });

  if (wanted()) {
    input.checked = true;
    acquire();
  }
}

whenParsed(setUp);
