/* The page of a game started on this phone with no connection (templates/offline/game.html,
   kept by the service worker from the start, one per ruleset). Its address ends with
   "#<the game's id>": this reads that game from the phone (IndexedDB `games`, kept by
   static/kept-games.js), writes its names in, and puts in the deal entry the server made
   for its setup (its seats and house rules). Then the page is a game page like any other
   for the scripts after this one: the outbox (static/outbox.js) keeps each deal saved for
   the game's id and sends them, in order, once the server has started the game; the
   phone's engine (static/phone.js) previews and scores them, and shows the scoreboard.
   Nothing of the rules is here: which entry fits a setup, the server said. */
(function () {
  "use strict";
  var page = document.querySelector("[data-made-here-game]");
  var box = document.getElementById("outbox");
  if (!page || !box) { return; }
  var MARK = page.dataset.madeHereGame;
  var id = "";
  try { id = decodeURIComponent(location.hash.slice(1)); } catch (error) { id = ""; }
  var known = /^[A-Za-z0-9_-]{16,64}$/.test(id);

  function missing() {
    var note = document.querySelector("[data-made-here-missing]");
    if (note) { note.hidden = false; }
    var entry = document.getElementById("deal-entry");
    if (entry) { entry.hidden = true; }
  }

  /* Known at once, before the outbox and the engine read it: the game this page is for. */
  if (known) {
    box.dataset.game = id;
    if (box.dataset.export) { box.dataset.export = box.dataset.export.replace(MARK, encodeURIComponent(id)); }
  }

  var found = null;
  var setup = new Promise(function (resolve) { found = resolve; });
  /* For the phone's engine: the game's new-game fields as kept, once read. */
  window.scorekeeperMadeHere = { id: id, setup: setup };

  function escape(text) {
    return text.replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }

  /* The names in seat order, as the new-game form reads them: empty seats at the end that
     the game does not need are left out. */
  function names(body) {
    var most = Number(page.dataset.maxPlayers);
    var least = Number(page.dataset.minPlayers);
    var found = [];
    for (var seat = 0; seat < most; seat += 1) { found.push((body.get("players-" + seat) || "").trim()); }
    while (found.length > least && !found[found.length - 1]) { found.pop(); }
    return found;
  }

  /* The deal entry of this setup, from the entries the page carries (a base per seat count
     and the lines each setup changes in it). */
  function entryFor(body, players) {
    var element = document.getElementById("made-here-entries");
    var data = element ? JSON.parse(element.textContent) : null;
    if (!data) { return null; }
    var rules = page.dataset.houseRules ? page.dataset.houseRules.split(" ") : [];
    var defaults = page.dataset.defaults ? page.dataset.defaults.split(" ") : [];
    var key = [String(players.length)].concat(rules.map(function (name, index) {
      return body.get("hr_" + name) || defaults[index];
    })).join(" ");
    var variant = data.variants.filter(function (v) { return v.setups.indexOf(key) >= 0; })[0];
    if (!variant) { return null; }
    var lines = data.bases[variant.base].split("\n");
    /* From the last change to the first, so each keeps its line numbers. */
    variant.patch.slice().reverse().forEach(function (change) {
      Array.prototype.splice.apply(lines, [change[0], change[1] - change[0]].concat(change[2]));
    });
    return lines.join("\n");
  }

  function build(kept) {
    var body = new URLSearchParams(kept.body);
    var players = names(body);
    var html = entryFor(body, players);
    if (html === null) { missing(); return; }
    html = html.split("/" + MARK + "/").join("/" + encodeURIComponent(id) + "/")
      .replace(/\u27e6(\d+)\u27e7/g, function (all, seat) { return escape(players[Number(seat)] || ""); });
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var entry = holder.querySelector("#deal-entry");
    if (!entry) { missing(); return; }
    /* A plain form: the outbox keeps every save of a game the server does not know yet. */
    entry.querySelectorAll("*").forEach(function (element) {
      Array.prototype.slice.call(element.attributes).forEach(function (attribute) {
        if (attribute.name.indexOf("hx-") === 0) { element.removeAttribute(attribute.name); }
      });
    });
    /* With the names written in, a chip is wide for a long label, as the server makes it. */
    entry.querySelectorAll("label.chip").forEach(function (chip) {
      var input = chip.querySelector("input");
      var label = chip.querySelector(".suit-name") || chip.querySelector("span");
      var value = input ? input.value : "";
      var wide = value === "none" || value === "random" || (label && label.textContent.trim().length > 12);
      chip.classList.toggle("chip-wide", Boolean(wide));
    });
    /* Who deals and who speaks first come from the phone's engine (static/phone.js). */
    entry.querySelectorAll("[data-turn]").forEach(function (turn) { turn.hidden = true; });
    document.getElementById("deal-entry").replaceWith(entry);
    var title = document.querySelector("[data-made-here-title]");
    if (title) { title.textContent = players.join(", "); }
    document.title = players.join(", ") + " · " + document.title.split(" · ").pop();
    var what = document.querySelector("[data-made-here-what]");
    if (what) { what.textContent = kept.what || ""; }
    /* The outbox numbers the form after the deals kept; the page's scripts set it up. */
    document.dispatchEvent(new CustomEvent("outbox:changed"));
    var form = document.getElementById("deal-form");
    if (form) { form.dispatchEvent(new Event("change", { bubbles: true })); }
    found(kept);
  }

  function start() {
    if (!known || !window.scorekeeperStore) { missing(); return; }
    window.scorekeeperStore.transact("games", "readonly", function (store) { return store.getAll(); }).then(function (all) {
      var kept = (all || []).filter(function (entry) { return entry.id === id; })[0];
      if (kept) { build(kept); } else { missing(); }
    }, missing);
  }

  /* Once every script has run (the outbox opens the phone's store). */
  if (document.readyState === "complete") {
    start();
  } else {
    document.addEventListener("DOMContentLoaded", start);
  }
})();
