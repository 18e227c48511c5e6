/* A game started with no connection. On the new-game page (a copy kept by the service
   worker), "Start game" with the phone offline keeps the game on this phone, in IndexedDB
   (store `games`), with an id and an edit token made here at random; it is listed on home
   and on the new-game page, and sent by itself, as the new-game form's own post with that
   id and token, as soon as the server answers again. The server stores it once (a second
   send finds it) and this phone, holding its edit rights, then opens it. Choosing another
   game offline shows its setup from the kept copy of its new-game page. Online, "Start
   game" is posted from here with an id and token made here too: when the server does not
   answer in time or answers with an error (the rule static/outbox.js keeps deals by), the
   game is kept as when offline, and a post that did reach the server finds that game
   again, so it is stored once; a refused setup shows the server's form with its messages,
   nothing kept. Every page works
   without this file: the form then posts as it always did. */
(function () {
  "use strict";
  if (!window.indexedDB || !window.fetch || !window.URLSearchParams || !window.crypto ||
      !window.scorekeeperStore) { return; }

  var me = document.currentScript;
  var NEW_GAME = me ? me.dataset.newGame : "/games/new";
  var GAME = me ? me.dataset.game : "/games/{id}";
  var MADE_HERE = me ? me.dataset.madeHere : "/offline/games/{ruleset}";
  var RETRY_EVERY = 10000; /* ms between tries while games wait */
  var kept = [];
  var sending = false;
  var channel = window.BroadcastChannel ? new BroadcastChannel("scorekeeper-games") : null;

  /* --- the store: IndexedDB `scorekeeper`'s `games`, opened by static/outbox.js -------- */

  function transact(mode, work) {
    return window.scorekeeperStore.transact("games", mode, work);
  }

  function readAll() {
    return transact("readonly", function (store) { return store.getAll(); }).then(function (all) {
      kept = all || [];
      render();
      return kept;
    });
  }

  function changed() {
    if (channel) { channel.postMessage("changed"); }
    return readAll();
  }

  function put(entry) {
    return transact("readwrite", function (store) { return store.put(entry); }).then(changed);
  }

  function drop(key) {
    return transact("readwrite", function (store) { return store.delete(key); }).then(changed);
  }

  if (channel) { channel.onmessage = function () { readAll(); }; }

  /* --- what the page shows ----------------------------------------------------------- */

  function box() { return document.getElementById("kept-games"); }

  function text(name, values) {
    var element = box();
    var template = element ? element.dataset[name] || "" : "";
    return template.replace(/\{(\w+)\}/g, function (all, key) {
      return values && values[key] !== undefined ? values[key] : all;
    });
  }

  function say(message) {
    var element = box();
    var line = element ? element.querySelector(".kept-games-said") : null;
    if (line) { line.textContent = message; }
  }

  function button(label, action, key) {
    var element = document.createElement("button");
    element.type = "button";
    element.className = "secondary";
    element.textContent = label;
    element.dataset.keptGame = action;
    element.dataset.key = String(key);
    return element;
  }

  function render() {
    var element = box();
    if (!element) { return; }
    var list = element.querySelector(".kept-games-list");
    list.textContent = "";
    kept.forEach(function (entry) {
      var item = document.createElement("li");
      item.className = "kept-game is-" + entry.state;
      item.id = "kept-game-" + entry.key;
      var what = document.createElement("p");
      what.className = "kept-game-what";
      what.textContent = entry.what;
      item.appendChild(what);
      var line = document.createElement("p");
      line.textContent = text(entry.state, { why: entry.why || text("unknown") });
      item.appendChild(line);
      if (entry.state === "waiting") {
        /* Its page on this phone: the deals are entered, kept and scored there. */
        var play = document.createElement("a");
        play.className = "button primary";
        play.href = madeHere(entry);
        play.textContent = text("play");
        item.appendChild(play);
      }
      if (entry.state === "refused") {
        var actions = document.createElement("div");
        actions.className = "actions";
        actions.appendChild(button(text("toForm"), "form", entry.key));
        actions.appendChild(button(text("discard"), "discard", entry.key));
        item.appendChild(actions);
      }
      list.appendChild(item);
    });
    element.hidden = kept.length === 0 && !element.querySelector(".kept-games-said").textContent;
  }

  function madeHere(entry) {
    var ruleset = new URLSearchParams(entry.body).get("ruleset") || "";
    return MADE_HERE.replace("{ruleset}", encodeURIComponent(ruleset)) + "#" + encodeURIComponent(entry.id);
  }

  /* --- the new-game form ------------------------------------------------------------- */

  function newGameForm() { return document.querySelector("form[data-kept-games]"); }

  function random(bytes) {
    var values = crypto.getRandomValues(new Uint8Array(bytes));
    var binary = "";
    values.forEach(function (b) { binary += String.fromCharCode(b); });
    return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  /* "Shmear to 11: Ann, Bob, Cy, Di", read from the form as the player sees it. */
  function describe(form, body) {
    var chosen = form.querySelector('input[name="ruleset"]:checked');
    var label = chosen && chosen.labels && chosen.labels[0] ? chosen.labels[0].textContent.trim() : body.get("ruleset");
    var names = [];
    body.forEach(function (value, name) {
      if (/^players-\d+$/.test(name) && value.trim()) { names.push(value.trim()); }
    });
    return text("what", { game: label, target: body.get("target") || "", players: names.join(", ") });
  }

  /* No connection: the phone says so, or this page is the copy the phone kept because the
     server did not answer (a post from it would most likely get no answer either). */
  function cutOff() {
    return navigator.onLine === false || document.documentElement.dataset.offlineCopy !== undefined;
  }

  /* Keep the game on this phone; `said` names the sentence that says why. */
  function keepGame(entry, said) {
    return put(entry).then(function () {
      say(text(said));
      render();
      box().scrollIntoView({ block: "start" });
      send(); /* the server may answer again already */
    }, function () {
      say(text("notKept"));
      render();
    });
  }

  /* Its refusal (the setup is wrong): the server's form, with its messages, as without
     this file; nothing is kept. */
  function showRefused(form, html) {
    var page = new DOMParser().parseFromString(html, "text/html");
    var fields = page.querySelector("form[data-kept-games] #setup-fields");
    var now = form.querySelector("#setup-fields");
    if (!fields || !now) {
      /* Not the form (a page the server shows for a refused post of any kind): shown whole. */
      document.open();
      document.write(html);
      document.close();
      return;
    }
    var adopted = document.importNode(fields, true);
    now.replaceWith(adopted);
    if (window.htmx) { window.htmx.process(adopted); }
    adopted.dispatchEvent(new Event("scorekeeper:setup", { bubbles: true }));
    var first = adopted.querySelector(".form-errors, .has-error") || adopted;
    first.scrollIntoView({ block: "start" });
  }

  /* The new-game form's post of a game made here: its fields, the id and edit token made
     on this phone, and `more` (a fresh CSRF token, when it was started). The answer to a
     game started is a redirect to it: not followed here, the page goes there itself, and
     the redirect has given this browser its edit rights. A post that hangs is given up
     after the time a deal's save is (static/outbox.js), so it holds back no later try. */
  function postGame(url, entry, more) {
    var body = new URLSearchParams(entry.body);
    body.set("offline_id", entry.id);
    body.set("offline_token", entry.token);
    Object.keys(more).forEach(function (name) { body.set(name, more[name]); });
    var options = {
      method: "POST",
      body: body.toString(),
      credentials: "same-origin",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    };
    if (window.AbortSignal && AbortSignal.timeout) {
      options.signal = AbortSignal.timeout(window.scorekeeperStore.answerWithin);
    }
    return fetch(url, options);
  }

  /* Online: the form's post, with the id and token made here, so that the game kept when
     no answer comes (no answer in time, a server error: the rule static/outbox.js keeps
     deals by) is the same game, stored once even if this post reached the server. */
  function startOnline(form, entry) {
    var store = window.scorekeeperStore;
    form.dataset.starting = "1";
    var url = new URL(form.getAttribute("action"), location.href).href;
    return postGame(url, entry, {}).then(function (response) {
      if (response.type === "opaqueredirect") {
        /* Started: the redirect gave this browser its edit rights; the game opens. */
        location.assign(GAME.replace("{id}", encodeURIComponent(entry.id)));
        return null;
      }
      delete form.dataset.starting;
      if (store.later(response.status)) { return keepGame(entry, "unanswered"); }
      return response.text().then(function (html) { showRefused(form, html); });
    }, function () {
      delete form.dataset.starting;
      return keepGame(entry, "unanswered");
    });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form !== newGameForm()) { return; }
    var offline = cutOff();
    var body = new URLSearchParams(event.submitter ? new FormData(form, event.submitter) : new FormData(form));
    if (body.get("switch") && !offline) { return; }
    event.preventDefault();
    event.stopPropagation();
    if (form.dataset.starting) { return; } /* tapped again while the first is on its way */
    if (body.get("switch")) { switchOffline(form); return; }
    /* "Draw at random" is drawn here: the deals entered on this phone are dealt from it. */
    if (body.get("first_dealer") === "random") {
      var seats = 0;
      body.forEach(function (value, name) {
        var seat = /^players-(\d+)$/.exec(name);
        if (seat && value.trim()) { seats = Math.max(seats, Number(seat[1]) + 1); }
      });
      if (seats) { body.set("first_dealer", String(crypto.getRandomValues(new Uint32Array(1))[0] % seats)); }
    }
    var entry = {
      id: random(16),
      token: random(32),
      body: body.toString(),
      what: describe(form, body),
      made_at: new Date().toISOString(),
      state: "waiting",
      why: "",
    };
    if (offline) { keepGame(entry, "kept"); } else { startOnline(form, entry); }
  }, true);

  /* Back to this page from the game (the browser's back): the form may start another. */
  window.addEventListener("pageshow", function () {
    var form = newGameForm();
    if (form) { delete form.dataset.starting; }
  });

  /* Another game chosen with no connection: its setup from the copy of its page, with
     the names typed, or those of a recent line-up (`names`). */
  function switchOffline(form, names) {
    var chosen = form.querySelector('input[name="ruleset"]:checked');
    if (!chosen || !window.caches) { return; }
    var url = new URL(form.getAttribute("action"), location.href);
    url.searchParams.set("ruleset", chosen.value);
    caches.match(url.href, { ignoreVary: true }).then(function (copy) {
      return copy ? copy.text() : null;
    }).then(function (html) {
      var now = form.querySelector("#setup-fields");
      var page = html ? new DOMParser().parseFromString(html, "text/html") : null;
      var fields = page ? page.querySelector("#setup-fields") : null;
      if (!now || !fields) { return; }
      /* What was typed stays, as the server's own refresh keeps it: the names, and a
         target the player changed (the box no longer holds the one it was filled with). */
      fields.querySelectorAll('input[name^="players-"]').forEach(function (input) {
        var typed = now.querySelector('input[name="' + CSS.escape(input.name) + '"]');
        if (typed) { input.setAttribute("value", typed.value); }
      });
      var target = now.querySelector('input[name="target"]');
      var shown = now.querySelector('input[name="target_shown"]');
      var typedTarget = target ? target.value.trim() : "";
      if (typedTarget && shown && typedTarget !== shown.value.trim()) {
        var targetBox = fields.querySelector('input[name="target"]');
        if (targetBox) { targetBox.setAttribute("value", typedTarget); }
      }
      if (names) {
        fields.querySelectorAll('input[name^="players-"]').forEach(function (input) {
          var seat = Number(input.name.slice("players-".length));
          input.setAttribute("value", names[seat] || "");
        });
      }
      var token = now.querySelector('input[name="csrf_token"]');
      var theirs = fields.querySelector('input[name="csrf_token"]');
      if (token && theirs) { theirs.setAttribute("value", token.value); }
      var adopted = document.importNode(fields, true);
      now.replaceWith(adopted);
      if (window.htmx) { window.htmx.process(adopted); }
      adopted.dispatchEvent(new Event("scorekeeper:setup", { bubbles: true }));
    }).catch(function () { return null; });
  }

  /* "Same players again?" with no connection: that line-up's game and names, from the
     copy (the line-up's own address was never kept). */
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[data-names]");
    var form = newGameForm();
    if (!link || !form || !cutOff()) { return; }
    var names;
    try { names = JSON.parse(link.dataset.names); } catch (error) { return; }
    var chip = form.querySelector('input[name="ruleset"][value="' + CSS.escape(link.dataset.ruleset) + '"]');
    if (!chip || !Array.isArray(names)) { return; }
    event.preventDefault();
    chip.checked = true;
    switchOffline(form, names);
    form.scrollIntoView({ block: "start" });
  });

  /* The setup's own refresh (htmx) that got no answer: the ruleset's comes from the copy. */
  document.addEventListener("htmx:sendError", function (event) {
    var form = newGameForm();
    var elt = event.detail.elt;
    if (!form || !elt || !form.contains(elt) || elt.id === "house-rules") { return; }
    switchOffline(form);
  });

  /* --- sending what is kept ---------------------------------------------------------- */

  /* A token for this browser's session as it is now (the copy's may be older). */
  function freshToken(url) {
    var options = { credentials: "same-origin" };
    if (window.AbortSignal && AbortSignal.timeout) {
      options.signal = AbortSignal.timeout(window.scorekeeperStore.answerWithin);
    }
    return fetch(url, options).then(function (response) {
      if (!response.ok) { throw new Error("no answer"); }
      return response.text();
    }).then(function (html) {
      var input = new DOMParser().parseFromString(html, "text/html").querySelector('input[name="csrf_token"]');
      if (!input) { throw new Error("no token"); }
      return input.value;
    });
  }

  function reasons(html) {
    var page = new DOMParser().parseFromString(html, "text/html");
    var seen = [];
    page.querySelectorAll(".form-errors li, .field-errors li").forEach(function (item) {
      var message = item.textContent.trim();
      if (message && seen.indexOf(message) < 0) { seen.push(message); }
    });
    return seen.join(" ");
  }

  function sendOne(entry, url) {
    return freshToken(url).then(function (token) {
      return postGame(url, entry, { csrf_token: token, made_at: entry.made_at });
    }).then(function (response) {
      if (response.type === "opaqueredirect") {
        return drop(entry.key).then(function () { return entry; });
      }
      if (window.scorekeeperStore.later(response.status)) { return null; } /* later */
      return response.text().then(function (html) {
        say("");
        entry.state = "refused";
        entry.why = reasons(html);
        return put(entry).then(function () { return null; });
      });
    }, function () { return null; }); /* no answer: later */
  }

  /* The game this page is for, when it is the page of a game started on this phone. */
  function pageGame() { return window.scorekeeperMadeHere ? window.scorekeeperMadeHere.id : null; }

  function sendAll() {
    var url = new URL(NEW_GAME, location.href).href;
    var waiting = kept.filter(function (e) { return e.state === "waiting"; });
    var started = null;
    return waiting.reduce(function (chain, entry) {
      return chain.then(function () {
        return sendOne(entry, url).then(function (done) {
          if (done && (!started || done.id === pageGame())) { started = done; }
        });
      });
    }, Promise.resolve()).then(function () { return started; });
  }

  function send() {
    if (sending || !kept.some(function (e) { return e.state === "waiting"; })) { return Promise.resolve(); }
    sending = true;
    function run() { return readAll().then(sendAll); }
    var done = navigator.locks ? navigator.locks.request("scorekeeper-games", run) : run();
    return Promise.resolve(done).then(function (started) {
      sending = false;
      /* Started: this phone holds its edit rights; from home, the new-game page or the
         game's page on this phone it goes to the game at once (elsewhere the game waits
         in the list on home); there the deals kept for it are sent, in order. */
      if (started && (box() || started.id === pageGame())) {
        location.assign(GAME.replace("{id}", encodeURIComponent(started.id)));
      }
    }, function () { sending = false; });
  }

  /* --- the scorekeeper's choices for a game the server would not start --------------- */

  function toForm(entry) {
    var params = new URLSearchParams(entry.body);
    var url = new URL(NEW_GAME, location.href);
    url.searchParams.set("ruleset", params.get("ruleset") || "");
    url.hash = "kept-game-" + entry.key;
    if (url.pathname === location.pathname && url.search === location.search) {
      location.hash = url.hash;
      fillForm();
    } else {
      location.assign(url.href);
    }
  }

  /* Back on the new-game page for a game the server refused: its choices in the form. */
  function fillForm() {
    var found = /^#kept-game-(\d+)$/.exec(location.hash);
    var form = newGameForm();
    if (!found || !form) { return; }
    var entry = kept.filter(function (e) { return String(e.key) === found[1]; })[0];
    if (!entry) { return; }
    new URLSearchParams(entry.body).forEach(function (value, name) {
      if (name === "csrf_token") { return; }
      form.querySelectorAll('[name="' + CSS.escape(name) + '"]').forEach(function (input) {
        if (input.type === "radio" || input.type === "checkbox") { input.checked = input.value === value; }
        else if (input.type !== "hidden" || name === "target_shown") { input.value = value; }
      });
    });
    drop(entry.key).then(function () {
      history.replaceState(null, "", location.pathname + location.search);
      form.scrollIntoView({ block: "start" });
    });
  }

  document.addEventListener("click", function (event) {
    var target = event.target.closest && event.target.closest("[data-kept-game]");
    if (!target) { return; }
    var entry = kept.filter(function (e) { return String(e.key) === target.dataset.key; })[0];
    if (!entry) { return; }
    if (target.dataset.keptGame === "discard") { drop(entry.key); }
    else if (target.dataset.keptGame === "form") { toForm(entry); }
  });

  window.addEventListener("online", function () { send(); });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { send(); }
  });
  window.setInterval(function () { send(); }, RETRY_EVERY);

  function start() { readAll().then(function () { fillForm(); return send(); }); }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
