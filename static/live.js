/* Follow the game on this page as it is saved: the server streams each new version
   (server-sent events, /games/<id>/events) and the scoreboard then asks for its live parts
   once. While the stream is open the scoreboard's own 2-second poll stands down; whenever
   it is not (no EventSource, a proxy that buffers, the network away) the poll goes on as
   before, so the page is never left behind. The browser reopens a dropped stream itself.
   When both the stream and the polls are lost, the page says so ("Offline — last update
   HH:MM", the last time it heard from the server) and catches up as soon as a poll is
   answered again. */
import { detailOf, htmx, whenParsed } from "./common.js";

/** @type {EventSource | null} */
let source = null;
/** @type {string | null} the newest version the stream told of */
let heard = null;
/* When the server last answered: the page was just served, or it is the copy this phone
   kept (static/offline.js), and then the server has not answered yet. */
var copied = document.documentElement.dataset.offlineCopy;
var lastHeard = (copied && Date.parse(copied)) || Date.now();
var pollsLost = copied !== undefined;

/** @returns {HTMLElement | null} */
function scoreboard() { return document.querySelector("[data-live][data-events]"); }

function streamOpen() { return Boolean(source && source.readyState === EventSource.OPEN); }

/* Show or clear the offline mark: shown while neither the stream nor a poll gets through. */
function mark() {
  var element = document.getElementById("offline-mark");
  if (!element || !scoreboard()) { return; }
  var lost = pollsLost && !streamOpen();
  if (lost) {
    var time = new Date(lastHeard).toLocaleTimeString(document.documentElement.lang || undefined, { hour: "2-digit", minute: "2-digit" });
    element.textContent = (element.dataset.text || "").replace("{time}", time);
  }
  element.hidden = !lost;
  document.documentElement.classList.toggle("is-offline", lost);
}

function heardNow() {
  lastHeard = Date.now();
  pollsLost = false;
  mark();
}

/** @param {Event} event */
function isPoll(event) {
  const detail = detailOf(event);
  const elt = detail && detail.elt;
  return Boolean(elt && elt.hasAttribute && elt.hasAttribute("data-live"));
}

/* A poll answered (a new version, or 304 for the same) means the server is there. */
document.addEventListener("htmx:afterRequest", function (event) {
  if (!isPoll(event)) { return; }
  const detail = detailOf(event);
  const status = detail.xhr ? detail.xhr.status : 0;
  if (status >= 200 && status < 400) { heardNow(); }
});
["htmx:sendError", "htmx:timeout"].forEach(function (name) {
  document.addEventListener(name, function (event) {
    if (!isPoll(event)) { return; }
    pollsLost = true;
    mark();
  });
});

/* The phone says it lost its network: the stream is of no use any more (it may not even
   notice), so polls take over and the mark shows at once; back online, catch up now. */
window.addEventListener("offline", function () {
  if (source) { source.close(); source = null; say("down"); }
  pollsLost = true;
  mark();
});
window.addEventListener("online", function () {
  var board = scoreboard();
  if (board && htmx()) { htmx().trigger(board, "live"); }
  open();
});

/* The live parts replace the history whole. A phone that loaded earlier deals (below
   the last ones the page shows by itself, from data-recent-from) says the oldest it
   shows, and the server's history then starts there: reading old deals, nobody is
   sent back to the recent ones when a deal is saved. */
document.addEventListener("htmx:configRequest", function (event) {
  const detail = detailOf(event);
  const history = document.getElementById("history");
  if (!detail.elt.hasAttribute("data-live") || !history) { return; }
  var rows = history.querySelectorAll("li.deal[id^='deal-']");
  if (!rows.length) { return; }
  var oldest = parseInt(rows[rows.length - 1].id.slice("deal-".length), 10);
  if (oldest < parseInt(history.dataset.recentFrom || "", 10)) {
    detail.headers["X-History-From"] = String(oldest);
  }
});

/* The page says how it follows the game: data-stream="open" or "down" on <html>. */
/** @param {"open" | "down"} state */
function say(state) { document.documentElement.dataset.stream = state; }

function open() {
  var board = scoreboard();
  if (!window.EventSource || !board || source) { return; }
  const stream = new EventSource(board.dataset.events || "");
  source = stream;
  stream.addEventListener("version", function (event) {
    heard = event.data;
    heardNow();
    var current = scoreboard();
    if (current && current.dataset.version !== event.data && htmx()) {
      htmx().trigger(current, "live");
    }
  });
  stream.addEventListener("open", function () { say("open"); heardNow(); });
  stream.addEventListener("error", function () {
    /* Up to now the stream had told everything: the page was current until this moment. */
    if (document.documentElement.dataset.stream === "open") { lastHeard = Date.now(); }
    say("down");
    mark();
    if (stream.readyState === EventSource.CLOSED) { source = null; window.setTimeout(open, 5000); }
  });
}

/* The scoreboard's timer poll has no triggering event; one the stream asked for has.
   The timer's poll stands down only while the stream is open and the page shows what it
   last told (a version heard before htmx had loaded is fetched by the next tick). */
document.addEventListener("htmx:beforeRequest", function (event) {
  const detail = detailOf(event);
  if (!detail.elt.hasAttribute("data-live") || detail.requestConfig.triggeringEvent) { return; }
  if (streamOpen() && heard === detail.elt.dataset.version) { event.preventDefault(); }
});

/* A page brought back from the back-forward cache has lost its stream. */
window.addEventListener("pageshow", function () { if (!source) { open(); } });
window.addEventListener("pagehide", function () {
  if (source) { source.close(); source = null; say("down"); }
});

whenParsed(() => { mark(); open(); });
