/* Follow the game on this page as it is saved: the server streams each new version
   (server-sent events, /games/<id>/events) and the scoreboard then asks for its live parts
   once. While the stream is open the scoreboard's own 2-second poll stands down; whenever
   it is not (no EventSource, a proxy that buffers, the network away) the poll goes on as
   before, so the page is never left behind. The browser reopens a dropped stream itself. */
(function () {
  "use strict";

  /* The live parts replace the history whole. A phone that loaded earlier deals (below
     the last ones the page shows by itself, from data-recent-from) says the oldest it
     shows, and the server's history then starts there: reading old deals, nobody is
     sent back to the recent ones when a deal is saved. */
  document.addEventListener("htmx:configRequest", function (event) {
    var history = document.getElementById("history");
    if (!event.detail.elt.hasAttribute("data-live") || !history) { return; }
    var rows = history.querySelectorAll("li.deal[id^='deal-']");
    if (!rows.length) { return; }
    var oldest = parseInt(rows[rows.length - 1].id.slice("deal-".length), 10);
    if (oldest < parseInt(history.dataset.recentFrom, 10)) {
      event.detail.headers["X-History-From"] = String(oldest);
    }
  });

  if (!window.EventSource) { return; }

  var source = null;
  var heard = null; /* the newest version the stream told of */

  /* The page says how it follows the game: data-stream="open" or "down" on <html>. */
  function say(state) { document.documentElement.dataset.stream = state; }

  function scoreboard() { return document.querySelector("[data-live][data-events]"); }

  function open() {
    var board = scoreboard();
    if (!board || source) { return; }
    source = new EventSource(board.dataset.events);
    source.addEventListener("version", function (event) {
      heard = event.data;
      var current = scoreboard();
      if (current && current.dataset.version !== event.data && window.htmx) {
        window.htmx.trigger(current, "live");
      }
    });
    source.addEventListener("open", function () { say("open"); });
    source.addEventListener("error", function () {
      say("down");
      if (source.readyState === EventSource.CLOSED) { source = null; window.setTimeout(open, 5000); }
    });
  }

  /* The scoreboard's timer poll has no triggering event; one the stream asked for has.
     The timer's poll stands down only while the stream is open and the page shows what it
     last told (a version heard before htmx had loaded is fetched by the next tick). */
  document.addEventListener("htmx:beforeRequest", function (event) {
    var detail = event.detail;
    if (!detail.elt.hasAttribute("data-live") || detail.requestConfig.triggeringEvent) { return; }
    var open = source && source.readyState === EventSource.OPEN;
    if (open && heard === detail.elt.dataset.version) { event.preventDefault(); }
  });

  /* A page brought back from the back-forward cache has lost its stream. */
  window.addEventListener("pageshow", function () { if (!source) { open(); } });
  window.addEventListener("pagehide", function () {
    if (source) { source.close(); source = null; say("down"); }
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", open);
  } else {
    open();
  }
})();
