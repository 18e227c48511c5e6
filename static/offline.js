/* The app on this phone with no connection. Registers the service worker (/sw.js, a module
   worker), which keeps the app's files and a copy of every page opened here; a page served
   from that copy says so: "Offline — last update HH:MM", the time the copy was kept (a
   game's page, which follows its game, clears the mark itself once the server answers:
   static/live.js). */
import { whenParsed } from "./common.js";

const me = /** @type {HTMLScriptElement | null} */ (document.querySelector("script[data-worker]"));
const copy = document.documentElement.dataset.offlineCopy;

/** @param {number} time */
function at(time) {
  return new Date(time).toLocaleTimeString(document.documentElement.lang || undefined, { hour: "2-digit", minute: "2-digit" });
}

function markCopy() {
  /* What the page said once (a deal just saved) was said then, not now. */
  document.querySelectorAll(".flash").forEach((flash) => { flash.textContent = ""; });
  const mark = document.getElementById("offline-mark");
  if (!mark || document.querySelector("[data-live][data-events]")) { return; }
  mark.textContent = (mark.dataset.text || "").replace("{time}", at(Date.parse(copy || "") || Date.now()));
  mark.hidden = false;
  document.documentElement.classList.add("is-offline");
}

function version() {
  const board = /** @type {HTMLElement | null} */ (document.querySelector("[data-live][data-version]"));
  return board ? board.dataset.version : null;
}

/** @param {HTMLScriptElement} script */
async function register(script) {
  const worker = navigator.serviceWorker;
  /** @type {ServiceWorkerRegistration} */
  let registration;
  try {
    registration = await worker.register(script.dataset.worker || "/sw.js", { type: "module", scope: script.dataset.scope, updateViaCache: "none" });
  } catch {
    return;
  }
  /* A new release installed beside an old one busy with a request can stay waiting: the
     worker asks to skip waiting as it installs, and Chromium does not ask again once the
     old one is free. Asked once more here, when it is installed, it takes over (Workbox's
     messageSkipWaiting does the same). */
  /** @param {ServiceWorker | null} waiting */
  const hurry = (waiting) => { if (waiting && registration.active) { waiting.postMessage("skipWaiting"); } };
  hurry(registration.waiting);
  registration.addEventListener("updatefound", () => {
    const installing = registration.installing;
    if (!installing) { return; }
    installing.addEventListener("statechange", () => {
      if (installing.state !== "installed") { return; }
      [0, 1000, 5000].forEach((at) => window.setTimeout(() => {
        if (installing.state === "installed") { hurry(installing); }
      }, at));
    });
  });
  /* This page was loaded before the worker ran here: ask it to keep a copy now. */
  if (!worker.controller && copy === undefined) {
    worker.ready.then((ready) => {
      if (ready.active) { ready.active.postMessage({ keep: location.href }); }
    });
  }
  /* A game's page changes as it is played: when the phone puts the page away (screen off,
     another app), the worker keeps its copy again if the game moved on since. */
  let keptVersion = version();
  document.addEventListener("visibilitychange", () => {
    const now = version();
    if (document.visibilityState !== "hidden" || now === keptVersion || !worker.controller) { return; }
    keptVersion = now;
    worker.controller.postMessage({ keep: location.href });
  });
  /* Back online: a new release, if there is one, is fetched now, not at the next visit.
     The phone says it is online a moment before every fetch gets through, and a check
     made in that moment may fail or find nothing new: the release is asked for at once
     and again 1, 3, 7, 15 and 31 seconds later, until a new worker is on its way. */
  /** @type {number[]} */
  let checks = [];
  window.addEventListener("online", () => {
    checks.forEach((check) => { window.clearTimeout(check); });
    checks = [0, 1000, 3000, 7000, 15000, 31000].map((at) => window.setTimeout(() => {
      if (registration.waiting) { hurry(registration.waiting); return; }
      if (!registration.installing) { registration.update().catch(() => null); }
    }, at));
  });
}

if (copy !== undefined) { whenParsed(markCopy); }

/* Once the page has loaded: the worker's first fetches (the shell, home and the rules)
   never compete with the page's own on a slow connection. */
if ("serviceWorker" in navigator && window.isSecureContext && me) {
  if (document.readyState === "complete") {
    register(me);
  } else {
    window.addEventListener("load", () => { register(me); });
  }
}
