/* Never a silent save. A deal saved while the server cannot be reached (no signal, no
   answer in time, a server error) is kept on this phone at once, in IndexedDB (it outlasts
   a reload and a closed tab), shown as saved on this phone but not sent yet, and sent by
   itself, oldest first and with the deal number it was entered as, as soon as the server
   answers again. A kept deal the server will not take (another phone saved that number, or
   the rules refuse it) stays kept and shown until the scorekeeper chooses what to do: for
   a deal another phone saved first, both deals are shown, and the choice is to keep theirs
   and drop mine, to add mine as the next deal, or to correct theirs to mine.
   Every page works without this file: the form then posts as it always did. */
(function () {
  "use strict";
  if (!window.indexedDB || !window.fetch || !window.URLSearchParams) { return; }

  var RETRY_EVERY = 10000; /* ms between tries while deals wait and the server is away */
  var ANSWER_WITHIN = 10000; /* ms a save may take before it is kept on the phone */
  var DEALS = /\/games\/([^/?#]+)\/deals$/;

  var kept = []; /* the deals kept on this phone, oldest first, as last read */
  var sending = false;
  var opened = null;
  var channel = window.BroadcastChannel ? new BroadcastChannel("scorekeeper-outbox") : null;

  /* --- the store: IndexedDB `scorekeeper`, one object store a kind of thing kept ------ */
  /* `outbox` holds the deals kept, in the order they were kept; `games` (version 2) the
     games started offline (static/kept-games.js, which loads after this file and uses
     `window.scorekeeperStore`, so the database's shape is written here only). */

  var VERSION = 2;

  /* Said while a tab left open on an older page holds the store at its older version. */
  function blocked(on) {
    var note = document.getElementById("store-blocked");
    if (note) { note.hidden = !on; }
  }

  /* A newer page (in another tab) asks for a newer version: this page lets go at once, and
     opens the store again at its next use, as the newer page left it. */
  function ready(db, resolve) {
    db.onversionchange = function () { db.close(); opened = null; };
    resolve(db);
  }

  /* The store at the version a newer page made: its stores are still these. */
  function openAsItIs(resolve, reject) {
    var request = indexedDB.open("scorekeeper");
    request.onsuccess = function () {
      var db = request.result;
      if (!db.objectStoreNames.contains("outbox") || !db.objectStoreNames.contains("games")) {
        db.close();
        reject(new Error("the phone's store lacks its object stores"));
        return;
      }
      ready(db, resolve);
    };
    request.onerror = function () { reject(request.error); };
  }

  function database() {
    if (!opened) {
      opened = new Promise(function (resolve, reject) {
        var request = indexedDB.open("scorekeeper", VERSION);
        request.onupgradeneeded = function () {
          var db = request.result;
          ["outbox", "games"].forEach(function (name) {
            if (!db.objectStoreNames.contains(name)) {
              db.createObjectStore(name, { keyPath: "key", autoIncrement: true });
            }
          });
        };
        /* Another tab holds an older version open and does not let go: said on the page;
           this request goes on by itself once that tab closes or reloads. */
        request.onblocked = function () { blocked(true); };
        request.onsuccess = function () { blocked(false); ready(request.result, resolve); };
        request.onerror = function () {
          blocked(false);
          if (request.error && request.error.name === "VersionError") { openAsItIs(resolve, reject); }
          else { reject(request.error); }
        };
      });
      /* Not opened: the next use tries again. */
      opened.catch(function () { opened = null; });
    }
    return opened;
  }

  /* Run `work` on one object store in one transaction; resolve with its request's result. */
  function transactOn(name, mode, work) {
    return database().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(name, mode);
        var request = work(tx.objectStore(name));
        tx.oncomplete = function () { resolve(request ? request.result : undefined); };
        tx.onerror = function () { reject(tx.error); };
        tx.onabort = function () { reject(tx.error); };
      });
    });
  }

  /* A server error or "too many requests" is an answer to try again later, as no answer is. */
  function later(status) { return status >= 500 || status === 429; }

  /* The store, and the one rule of when a post is kept on the phone instead (the games
     started on this phone, static/kept-games.js, follow it too). */
  window.scorekeeperStore = { transact: transactOn, answerWithin: ANSWER_WITHIN, later: later };

  function transact(mode, work) {
    return transactOn("outbox", mode, work);
  }

  /* The games started on this phone that the server has not started yet (static/kept-
     games.js): their deals are kept, never posted, until it has. */
  var held = {};

  function readHeld() {
    return transactOn("games", "readonly", function (store) { return store.getAll(); }).then(function (all) {
      held = {};
      (all || []).forEach(function (game) { held[game.id] = true; });
    }, function () { return null; });
  }

  function readAll() {
    return Promise.all([
      transact("readonly", function (store) { return store.getAll(); }),
      readHeld(),
    ]).then(function (read) {
      var all = read[0];
      kept = all || [];
      render();
      fitForm();
      /* The phone's engine (static/phone.js) scores the deals kept. */
      document.dispatchEvent(new CustomEvent("outbox:kept"));
      return kept;
    });
  }

  function changed() {
    if (channel) { channel.postMessage("changed"); }
    return readAll();
  }

  function put(entries) {
    return transact("readwrite", function (store) {
      var last = null;
      entries.forEach(function (entry) { last = store.put(entry); });
      return last;
    }).then(changed);
  }

  function drop(key) {
    return transact("readwrite", function (store) { return store.delete(key); }).then(changed);
  }

  if (channel) { channel.onmessage = function () { readAll(); }; }
  /* A game started on this phone was started on the server: its deals may go now. */
  if (window.BroadcastChannel) {
    new BroadcastChannel("scorekeeper-games").onmessage = function () { readAll().then(send); };
  }
  /* Another script changed what the page shows (static/made-here.js put in its form). */
  document.addEventListener("outbox:changed", function () { readAll(); });

  /* What the phone's engine reads: the deals kept, oldest first, as last read. */
  window.scorekeeperOutbox = { kept: function () { return kept.slice(); } };

  /* --- which deals, which game ----------------------------------------------------- */

  function gameOf(url) {
    var found = DEALS.exec(new URL(url, location.href).pathname);
    return found ? found[1] : null;
  }

  function box() { return document.getElementById("outbox"); }

  function pageGame() {
    var element = box();
    return element ? element.dataset.game : null;
  }

  function ofGame(game) { return kept.filter(function (entry) { return entry.game === game; }); }

  /* The number the next deal entered on this phone will have: after the last one kept. */
  function lastKept(game) {
    return ofGame(game).reduce(function (most, entry) { return Math.max(most, entry.number); }, 0);
  }

  function isDealForm(form) {
    return Boolean(form && form.matches && form.matches("#deal-form, .flag-form") && form.closest("#deal-entry"));
  }

  /* A deal form's post, even from a form a live answer has since replaced on the page. */
  function isDealPost(form) {
    return Boolean(form && form.matches && form.matches("#deal-form, .flag-form") && gameOf(form.getAttribute("action")));
  }

  function numberOf(body) { return Number(new URLSearchParams(body).get("number")); }

  /* The deal kept for correcting in the form, if this post is it. */
  function editing(game, number) {
    return ofGame(game).filter(function (e) { return e.state === "editing" && e.number === number; })[0];
  }

  /* Deals of this game kept before this one: while any wait, a new deal waits behind them. */
  function before(game, number) {
    var fixing = editing(game, number);
    return ofGame(game).filter(function (entry) {
      return entry !== fixing && (!fixing || entry.key < fixing.key);
    });
  }

  /* --- what the page shows --------------------------------------------------------- */

  function text(name, values) {
    var element = box();
    var template = element ? element.dataset[name] || "" : "";
    return template.replace(/\{(\w+)\}/g, function (all, key) {
      return values && values[key] !== undefined ? values[key] : all;
    });
  }

  function say(message, kind) {
    var flash = document.querySelector("#game .flash");
    if (!flash || !message) { return; }
    flash.textContent = "";
    var line = document.createElement("p");
    line.className = kind ? "is-" + kind : "";
    line.textContent = message;
    flash.appendChild(line);
  }

  function button(label, action, key) {
    var element = document.createElement("button");
    element.type = "button";
    element.className = "secondary";
    element.textContent = label;
    element.dataset.outbox = action;
    element.dataset.key = String(key);
    return element;
  }

  function render() {
    var element = box();
    if (!element) { return; }
    var list = element.querySelector(".outbox-deals");
    var mine = ofGame(element.dataset.game);
    list.textContent = "";
    mine.forEach(function (entry) {
      var item = document.createElement("li");
      item.className = "outbox-deal is-" + entry.state;
      item.id = "kept-" + entry.number;
      var line = document.createElement("p");
      var values = { n: entry.number, why: entry.why || text("unknown") };
      line.textContent = text(entry.state, values);
      item.appendChild(line);
      if (entry.state === "conflict" || entry.state === "correcting") { item.appendChild(both(entry)); }
      if (entry.state === "conflict" || entry.state === "refused") {
        var actions = document.createElement("div");
        actions.className = "actions";
        if (entry.state === "conflict" && entry.theirs) {
          /* Another phone saved this number: the same hand most often, so theirs first. */
          actions.appendChild(button(text("keepTheirs"), "discard", entry.key));
        }
        if (entry.state === "conflict" && entry.next) {
          actions.appendChild(button(text("asNext", { n: entry.next }), "next", entry.key));
        }
        if (entry.state === "conflict" && entry.theirs && entry.mine) {
          actions.appendChild(button(text("correct", values), "correct", entry.key));
        }
        if (entry.state === "refused") {
          actions.appendChild(button(text("toForm"), "form", entry.key));
        }
        if (!(entry.state === "conflict" && entry.theirs)) {
          actions.appendChild(button(text("discard"), "discard", entry.key));
        }
        item.appendChild(actions);
      }
      list.appendChild(item);
    });
    element.hidden = mine.length === 0;
  }

  /* Both deals of a conflict, as the server described them when it refused this one: the
     one stored (theirs) and the one kept here (mine, as that deal). */
  function both(entry) {
    var list = document.createElement("dl");
    list.className = "outbox-both";
    [["theirsTitle", entry.theirs, "theirs"], ["mineTitle", entry.mine, "mine"]].forEach(function (row) {
      if (!row[1]) { return; }
      var term = document.createElement("dt");
      term.textContent = text(row[0], { n: entry.number });
      var what = document.createElement("dd");
      what.className = "outbox-" + row[2];
      what.textContent = row[1];
      list.appendChild(term);
      list.appendChild(what);
    });
    return list;
  }

  /* The form on the page is for the deal after the last one kept. */
  function numberForm(number) {
    var entry = document.getElementById("deal-entry");
    if (!entry || !entry.querySelector("#deal-form")) { return; }
    entry.querySelectorAll('input[name="number"]').forEach(function (input) { input.value = String(number); });
    if (entry.dataset.number === String(number)) { return; }
    entry.dataset.number = String(number);
    var title = entry.querySelector("#deal-entry-title");
    /* Who deals it is known once the deals before it are scored: the heading says the number. */
    if (title) { title.textContent = text("deal", { n: number }); }
    entry.querySelectorAll("[data-stale]").forEach(function (note) { note.hidden = true; });
    /* Nor is who deals it and speaks first: that line waits for the server's answer. */
    entry.querySelectorAll("[data-turn]").forEach(function (turn) { turn.hidden = true; });
    entry.querySelectorAll(".flag-form button[type=submit]").forEach(function (flagButton) {
      flagButton.textContent = flagButton.textContent.replace(/\d+/, String(number));
    });
  }

  function fitForm() {
    var game = pageGame();
    var form = document.getElementById("deal-form");
    if (!game || !form) { return; }
    var last = lastKept(game);
    var number = Number((form.querySelector('input[name="number"]') || {}).value);
    var fixing = ofGame(game).filter(function (e) { return e.state === "editing"; })[0];
    /* A deal brought back to the form keeps its number until it is saved or discarded. */
    if (fixing) {
      if (number !== fixing.number) { numberForm(fixing.number); }
      return;
    }
    if (last && number <= last) { numberForm(last + 1); }
  }

  function clearForm() {
    var entry = document.getElementById("deal-entry");
    var form = document.getElementById("deal-form");
    if (!entry || !form) { return; }
    Array.prototype.forEach.call(form.elements, function (input) {
      if (input.type === "radio" || input.type === "checkbox") { input.checked = false; }
      else if (input.type === "number" || input.type === "text") { input.value = ""; }
    });
    entry.querySelectorAll(".form-errors, .field-errors").forEach(function (e) { e.remove(); });
    entry.querySelectorAll(".has-error").forEach(function (e) { e.classList.remove("has-error"); });
    entry.querySelectorAll("details.flag[open]").forEach(function (d) { d.open = false; });
    var preview = document.getElementById("deal-preview");
    if (preview) { preview.textContent = ""; }
    /* A form that was held beside another phone's deal gets its Save button back. */
    var conflict = form.querySelector("#deal-conflict");
    if (conflict) {
      var save = document.createElement("button");
      save.type = "submit";
      save.className = "primary";
      save.dataset.save = "";
      save.textContent = text("save");
      conflict.replaceWith(save);
    }
    form.dispatchEvent(new Event("change", { bubbles: true }));
  }

  /* --- keeping a deal -------------------------------------------------------------- */

  function keep(form, body) {
    var url = new URL(form.getAttribute("action"), location.href).href;
    var game = gameOf(url);
    var params = new URLSearchParams(body);
    /* "Save mine as deal N": kept as what it is, a save of deal N. */
    if (params.get("save_as")) {
      params.set("number", params.get("save_as"));
      params.delete("save_as");
    }
    var number = Number(params.get("number"));
    var entry = { game: game, url: url, body: params.toString(), number: number, state: "waiting", why: "", at: Date.now() };
    var fixing = editing(game, number);
    if (fixing) { entry.key = fixing.key; }
    form.dataset.keeping = "1";
    return put([entry]).then(function () {
      delete form.dataset.keeping;
      /* The form still shown is cleared for the next deal; one already replaced is gone. */
      if (form.isConnected) { clearForm(); }
      numberForm(lastKept(game) + 1);
      say(text("kept", { n: number }), "kept");
      var board = document.getElementById("scoreboard");
      if (board) { board.scrollIntoView({ block: "start" }); }
      send();
    }, function () {
      /* The phone would not store it: the form keeps the taps, and says so. */
      delete form.dataset.keeping;
      say(text("notKept", { n: number }), "error");
    });
  }

  /* Tapped with no connection, or behind deals still waiting: keep it, do not post. */
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!isDealForm(form)) { return; }
    if (form.dataset.keeping) {
      event.preventDefault();
      event.stopPropagation();
      return;
    }
    /* With the button tapped: "Discard mine" or "Save mine as deal N" say what is meant. */
    var data = event.submitter ? new FormData(form, event.submitter) : new FormData(form);
    var body = new URLSearchParams(data);
    var game = gameOf(form.getAttribute("action"));
    /* A game the server does not know yet (or that only its page on this phone shows)
       keeps every deal: there is no server page to post it to. */
    var unknown = held[game] || (window.scorekeeperMadeHere && window.scorekeeperMadeHere.id === game);
    if (navigator.onLine !== false && !unknown && before(game, Number(body.get("number"))).length === 0) { return; }
    event.preventDefault();
    event.stopPropagation();
    if (body.get("discard")) {
      /* "Discard mine" stores nothing: with no server to ask, the form is simply cleared. */
      var next = form.querySelector('[name="save_as"]');
      clearForm();
      if (next) { numberForm(Number(next.value)); }
      say(text("discarded"), "");
      return;
    }
    keep(form, body);
  }, true);

  /* A save through htmx that gets no answer in time must not hang: it is kept instead. */
  document.addEventListener("htmx:configRequest", function (event) {
    if (isDealForm(event.detail.elt) && !event.detail.timeout) { event.detail.timeout = ANSWER_WITHIN; }
  });

  /* The form that asked (the event itself may reach a parent once the form is swapped out). */
  function asker(event) { return event.detail.requestConfig ? event.detail.requestConfig.elt : event.detail.elt; }

  function keepFailed(event) {
    var elt = asker(event);
    if (!isDealPost(elt)) { return; }
    keep(elt, new URLSearchParams(event.detail.requestConfig.formData));
  }
  function keepRefused(event) {
    var status = event.detail.xhr.status;
    if (later(status)) { keepFailed(event); }
  }

  /* Heard on the form itself: a live answer may take it off the page while its save is on
     the way, and an event on a form no longer in the page never reaches the document. */
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = asker(event);
    if (!isDealForm(elt) || elt.dataset.watched) { return; }
    elt.dataset.watched = "1";
    elt.addEventListener("htmx:sendError", keepFailed);
    elt.addEventListener("htmx:timeout", keepFailed);
    elt.addEventListener("htmx:responseError", keepRefused);
  });

  /* The deal kept for correcting, saved from the form: it is no longer kept. */
  document.addEventListener("htmx:afterRequest", function (event) {
    var elt = asker(event);
    if (!isDealForm(elt) || !event.detail.xhr || event.detail.xhr.status !== 200) { return; }
    var game = gameOf(elt.getAttribute("action"));
    var fixed = editing(game, Number(event.detail.requestConfig.formData.get("number")));
    if (fixed) { drop(fixed.key).then(send); }
  });

  /* --- sending what is kept -------------------------------------------------------- */

  /* The oldest deal that may go now: a game's deals go in order, so one the server
     refused holds back the ones kept after it. */
  function nextToSend() {
    /* The page of a game started on this phone never sends its deals: once the server has
       started the game, the phone opens the server's page of it, which sends them. */
    var here = window.scorekeeperMadeHere ? window.scorekeeperMadeHere.id : null;
    var waits = {};
    for (var i = 0; i < kept.length; i += 1) {
      var entry = kept[i];
      if (waits[entry.game] || held[entry.game] || entry.game === here) { continue; }
      if (entry.state === "waiting" || entry.state === "correcting") { return entry; }
      waits[entry.game] = true;
    }
    return null;
  }

  function reasons(html) {
    var page = new DOMParser().parseFromString(html, "text/html");
    var seen = [];
    page.querySelectorAll("#deal-conflict .conflict-title, .form-errors li, .field-errors li").forEach(function (item) {
      var message = item.textContent.trim();
      if (message && seen.indexOf(message) < 0) { seen.push(message); }
    });
    var entry = page.querySelector("#deal-entry[data-number]");
    function said(selector) {
      var element = page.querySelector(selector);
      return element ? element.textContent.replace(/\s+/g, " ").trim() : null;
    }
    return {
      why: seen.join(" "),
      next: entry ? Number(entry.dataset.number) : null,
      theirs: said("#deal-conflict .conflict-saved"),
      mine: said("#deal-conflict .conflict-mine"),
    };
  }

  /* A kept deal goes as the form's post (saying it was kept, so that a 409 describes it
     too); a correction of theirs to mine as the correction page's post for that deal. */
  function post(entry) {
    var correcting = entry.state === "correcting";
    var body = new URLSearchParams(entry.body);
    if (!correcting) { body.set("kept", "1"); }
    var options = {
      method: "POST",
      body: body.toString(),
      credentials: "same-origin",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true" },
    };
    if (window.AbortSignal && AbortSignal.timeout) { options.signal = AbortSignal.timeout(ANSWER_WITHIN); }
    return fetch(correcting ? entry.url + "/" + entry.number + "/edit" : entry.url, options);
  }

  function catchUp(game) {
    if (game !== pageGame()) { return; }
    var board = document.querySelector("[data-live][data-events]");
    if (board && window.htmx) { window.htmx.trigger(board, "live"); }
    if (ofGame(game).length === 0) { say(text("sent"), ""); }
  }

  function sendNext() {
    var entry = nextToSend();
    if (!entry) { return null; }
    return post(entry).then(function (response) {
      if (response.ok) {
        return drop(entry.key).then(function () {
          catchUp(entry.game);
          if (entry.state === "correcting" && entry.game === pageGame()) { say(text("corrected", { n: entry.number }), ""); }
          return sendNext();
        });
      }
      if (later(response.status)) { return null; } /* later */
      return response.text().then(function (html) {
        var found = reasons(html);
        if (entry.state === "correcting") {
          /* The correction was refused (a later deal could not stay, say): back to the
             choice, with the server's reason. */
          entry.state = "conflict";
          entry.why = found.why;
        } else {
          entry.state = response.status === 409 ? "conflict" : "refused";
          entry.why = found.why;
          entry.next = response.status === 409 ? found.next : null;
          entry.theirs = response.status === 409 ? found.theirs : null;
          entry.mine = response.status === 409 ? found.mine : null;
        }
        return put([entry]).then(function () { catchUp(entry.game); return sendNext(); });
      });
    }, function () { return null; }); /* no answer: try again later */
  }

  function send() {
    if (sending || !nextToSend()) { return Promise.resolve(); }
    sending = true;
    function run() { return readAll().then(sendNext); }
    var done = navigator.locks ? navigator.locks.request("scorekeeper-outbox", run) : run();
    return Promise.resolve(done).catch(function () { return null; }).then(function () { sending = false; });
  }

  /* --- the scorekeeper's choices for a deal the server would not take -------------- */

  function asNext(entry) {
    /* This deal and every one kept after it move on by as many numbers. */
    var shift = entry.next - entry.number;
    var moved = ofGame(entry.game).filter(function (e) { return e.key >= entry.key; }).map(function (e) {
      var params = new URLSearchParams(e.body);
      var number = e.number + shift;
      params.set("number", String(number));
      return Object.assign({}, e, { number: number, body: params.toString(), state: e.key === entry.key ? "waiting" : e.state, why: "", next: null, theirs: null, mine: null });
    });
    return put(moved).then(send);
  }

  function toForm(entry) {
    var form = document.getElementById("deal-form");
    if (!form) { return Promise.resolve(); }
    clearForm();
    new URLSearchParams(entry.body).forEach(function (value, name) {
      if (name === "csrf_token" || name === "number") { return; }
      form.querySelectorAll('[name="' + CSS.escape(name) + '"]').forEach(function (input) {
        if (input.type === "radio" || input.type === "checkbox") { input.checked = input.value === value; }
        else if (input.type !== "hidden") { input.value = value; }
      });
    });
    /* Known as being edited at once, not only once the phone has stored it: a live answer
       settling in between would otherwise number the form past it. */
    var fixing = Object.assign({}, entry, { state: "editing" });
    kept = kept.map(function (e) { return e.key === entry.key ? fixing : e; });
    numberForm(entry.number);
    form.dispatchEvent(new Event("change", { bubbles: true }));
    return put([fixing]).then(function () {
      document.getElementById("deal-entry").scrollIntoView({ block: "start" });
    });
  }

  document.addEventListener("click", function (event) {
    var target = event.target.closest && event.target.closest("[data-outbox]");
    if (!target) { return; }
    var entry = kept.filter(function (e) { return String(e.key) === target.dataset.key; })[0];
    if (!entry) { return; }
    var action = target.dataset.outbox;
    if (action === "discard") {
      drop(entry.key).then(function () {
        if (entry.state === "conflict" && entry.theirs) { say(text("dropped", { n: entry.number }), ""); }
        fitAfterDiscard(entry.game);
        send();
      });
    } else if (action === "next") {
      asNext(entry);
    } else if (action === "correct") {
      /* Kept as chosen before it is sent: a reload on the way sends the correction again. */
      put([Object.assign({}, entry, { state: "correcting" })]).then(send);
    } else if (action === "form") {
      toForm(entry);
    }
  });

  /* With a deal discarded, the form may be for one number too far on: it follows the
     deals still kept, or the game (its next live answer brings the right form). */
  function fitAfterDiscard(game) {
    if (game !== pageGame()) { return; }
    var last = lastKept(game);
    if (last) { numberForm(last + 1); }
    var board = document.querySelector("[data-live][data-events]");
    if (board && window.htmx) { window.htmx.trigger(board, "live"); }
  }

  /* A live answer brings the server's form for its next deal: while deals are kept on
     this phone, the form here is already past those, and stays. */
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    if (!target || target.id !== "deal-entry") { return; }
    var fragment = event.detail.fragment;
    var incoming = fragment && fragment.querySelector ? fragment.querySelector("#deal-entry") : null;
    var last = lastKept(pageGame());
    if (last && incoming && incoming.dataset.number && Number(incoming.dataset.number) <= last) {
      event.detail.shouldSwap = false;
    }
  });

  document.addEventListener("htmx:afterSettle", function () { render(); fitForm(); });
  window.addEventListener("online", function () { send(); });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { send(); }
  });
  window.setInterval(function () { if (nextToSend()) { send(); } }, RETRY_EVERY);

  function start() { readAll().then(send); }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
