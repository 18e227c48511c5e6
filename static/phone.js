/* The engine on the scorekeeper's phone. On a game page with edit rights, once the page is
   idle, this starts a module worker (/phone/worker.js) that runs the server's own engine in
   Pyodide; until it is ready, and on a phone that cannot run it, everything works as
   before (the server's preview, deals kept in the outbox when offline).

   Once ready:
   - each tap shows the preview worked out on the phone at once; when online the server's
     preview follows and replaces it (the same words); offline, or while deals kept on the
     phone wait (the server does not know them yet), the phone's preview is the one shown;
   - a Save that the outbox keeps (offline) is checked first: what the rules refuse is
     shown beside its field, as the server shows it, and nothing is kept;
   - the deals kept on the phone are scored: each one's score and "why", and the scores,
     dealer and outcome after them ("On this phone"), with Undo for the last one.
   No rule is written here: every answer comes from scorekeeper/phone.py in the worker. */
(function () {
  "use strict";
  var first = document.getElementById("outbox");
  if (!first || !first.dataset.engine || !window.Worker || !window.fetch || !window.Promise) { return; }

  var worker = null;
  var ready = false;
  var waiting = {};
  var count = 0;
  var game = first.dataset.game;
  var loaded = null; /* the stored game as the worker holds it: {number, ...} */
  var checked = { taps: null, value: null }; /* the last check of the form's fields */
  var shown = 0; /* which preview asked for is shown (a late answer never replaces a newer) */

  function outbox() { return document.getElementById("outbox"); }

  function call(name, args) {
    return new Promise(function (resolve, reject) {
      count += 1;
      waiting[count] = { resolve: resolve, reject: reject };
      worker.postMessage({ id: count, call: name, args: args });
    });
  }

  function received(event) {
    var data = event.data || {};
    if (data.ready !== undefined) {
      if (!data.ready) {
        /* The page goes on as without it: the server's preview, the outbox. */
        document.documentElement.dataset.phoneEngine = "failed";
        if (window.console) { console.warn("The engine did not start on this phone: " + data.error); }
        worker.terminate();
        worker = null;
        return;
      }
      document.documentElement.dataset.phoneEngineMs = String(data.ms);
      var language = document.documentElement.lang || "en";
      call("start", [language]).then(function () {
        ready = true;
        keepForOffline();
        return load();
      }).catch(function () { ready = false; });
      return;
    }
    var promise = waiting[data.id];
    if (!promise) { return; }
    delete waiting[data.id];
    if (data.error !== undefined) { promise.reject(new Error(data.error)); } else { promise.resolve(data.value); }
  }

  function start() {
    if (worker) { return; }
    try {
      worker = new Worker(first.dataset.engine, { type: "module" });
    } catch (unsupported) { worker = null; return; }
    worker.addEventListener("message", received);
    worker.addEventListener("error", function () { ready = false; });
  }

  /* The service worker keeps every file the engine needs, for the next start offline. On a
     first visit the engine may be ready before the worker controls the page: the worker is
     asked once it does, for the game's export too (fetched without it, so not kept). */
  function keepForOffline(late) {
    var controller = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (!controller) { return; }
    controller.postMessage("keepPhone");
    var element = outbox();
    if (late && !madeHere && element && element.dataset.export) {
      controller.postMessage({ keepExport: element.dataset.export });
    }
  }
  if (navigator.serviceWorker) {
    navigator.serviceWorker.addEventListener("controllerchange", function () {
      if (ready) { keepForOffline(true); }
    });
  }

  /* --- the game as stored, and the deals kept on this phone --------------------------- */

  /* A game started on this phone (static/made-here.js): the server has no export of it;
     the engine starts it from its new-game fields as kept. */
  var madeHere = window.scorekeeperMadeHere || null;

  function stored() {
    if (madeHere) {
      return madeHere.setup.then(function (kept) {
        return call("made_here", [game, JSON.stringify(pairs(kept.body))]);
      });
    }
    return fetch(outbox().dataset.export, { credentials: "same-origin" }).then(function (answer) {
      if (!answer.ok) { throw new Error("no export"); }
      return answer.text();
    }).then(function (text) { return call("load", [text]); });
  }

  function load() {
    var element = outbox();
    if (!ready || !element) { return Promise.resolve(); }
    return stored().then(function (board) {
      loaded = JSON.parse(board);
      document.documentElement.dataset.phoneEngine = "ready";
      return scoreKept().then(preview);
    }).catch(function () { return null; });
  }

  function pairs(body) {
    var found = [];
    new URLSearchParams(body).forEach(function (value, name) {
      if (name !== "csrf_token") { found.push([name, value]); }
    });
    return found;
  }

  /* The deals kept that the server does not have yet, oldest first, while they wait in
     order (a deal held back, and those after it, are not the game's yet). */
  function kept() {
    if (!window.scorekeeperOutbox || !loaded) { return []; }
    var mine = window.scorekeeperOutbox.kept().filter(function (entry) {
      return entry.game === game && entry.number >= loaded.number;
    });
    var going = [];
    for (var i = 0; i < mine.length && mine[i].state === "waiting"; i += 1) { going.push(mine[i]); }
    return going;
  }

  function keptTaps() { return JSON.stringify(kept().map(function (entry) { return pairs(entry.body); })); }

  function formTaps(form) {
    var found = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrf_token" && typeof value === "string") { found.push([name, value]); }
    });
    return JSON.stringify(found);
  }

  /* The server's preview knows only the deals it stores. */
  function phoneOnly() { return Boolean(madeHere) || navigator.onLine === false || kept().length > 0; }

  /* --- what the page shows ------------------------------------------------------------ */

  function element(tag, className, text) {
    var made = document.createElement(tag);
    if (className) { made.className = className; }
    if (text !== undefined && text !== null) { made.textContent = text; }
    return made;
  }

  /* The preview as templates/games/_preview.html writes it. */
  function previewNodes(preview, withHeading) {
    var nodes = [];
    if (preview.kind === "result") {
      var line = element("p", "preview-line");
      if (withHeading) {
        line.appendChild(element("strong", "", preview.if_saved));
        line.appendChild(document.createTextNode(" "));
      }
      if (preview.thrown_in) {
        line.appendChild(document.createTextNode(preview.thrown_in));
      } else {
        line.appendChild(element("span", "outcome " + (preview.made ? "is-made" : "is-set"), preview.said));
        line.appendChild(document.createTextNode(" —"));
        preview.sides.forEach(function (side, index) {
          line.appendChild(document.createTextNode(" "));
          var span = element("span", "preview-side" + (side.on_bid ? " on-bid" : ""), side.label + " " + side.delta);
          span.appendChild(element("span", "vh", " " + side.to));
          line.appendChild(span);
          if (index < preview.sides.length - 1) { line.appendChild(document.createTextNode(",")); }
        });
      }
      nodes.push(line);
      var why = element("details", "preview-why");
      why.appendChild(element("summary", "", preview.why_title));
      preview.why.forEach(function (sentence) { why.appendChild(element("p", "", sentence)); });
      nodes.push(why);
    } else if (preview.kind === "problems") {
      var list = element("ul", "preview-problems");
      preview.problems.concat(preview.more ? [preview.more] : []).forEach(function (message) {
        list.appendChild(element("li", "", message));
      });
      nodes.push(list);
    }
    return nodes;
  }

  function showPreview(target, preview) {
    target.textContent = "";
    previewNodes(preview, true).forEach(function (node) { target.appendChild(node); });
    target.dataset.from = "phone";
  }

  function preview() {
    var form = document.getElementById("deal-form");
    var target = document.getElementById("deal-preview");
    if (!ready || !loaded || !form || !target) { return Promise.resolve(); }
    shown += 1;
    var asked = shown;
    var taps = formTaps(form);
    var before = keptTaps();
    /* The preview is shown as soon as the worker has it; the check for a Save (asked after
       it, so answered after it) never holds it back. */
    var previewed = call("preview", [game, before, taps]).then(function (answer) {
      if (asked !== shown || !target.isConnected) { return; }
      showPreview(target, JSON.parse(answer));
    });
    var checking = call("check", [game, before, taps]).then(function (answer) {
      checked = { taps: taps, value: JSON.parse(answer) };
    });
    return Promise.all([previewed, checking]).catch(function () { return null; });
  }

  document.addEventListener("change", function (event) {
    if (event.target.closest && event.target.closest("#deal-form")) { preview(); }
  });

  /* The server's preview: asked when it can know the answer, and then it confirms. */
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (!elt || elt.id !== "deal-preview" || !ready || !loaded) { return; }
    if (phoneOnly()) { event.preventDefault(); }
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail.target;
    if (target && target.id === "deal-preview") { delete target.dataset.from; }
  });

  /* --- a Save kept on the phone: checked by the engine first -------------------------- */

  function fieldOf(form, name) {
    var group = document.getElementById(name + "-group");
    if (group) { return group; }
    var control = form.querySelector('[name="' + CSS.escape(name) + '"], [name^="' + CSS.escape(name) + '-"], [name^="' + CSS.escape(name) + '_"]');
    return control ? control.closest("fieldset, details, .field") : null;
  }

  function showRefusals(form, fields) {
    var entry = document.getElementById("deal-entry");
    entry.querySelectorAll(".form-errors, .field-errors").forEach(function (e) { e.remove(); });
    var top = [];
    var firstShown = null;
    Object.keys(fields).forEach(function (name) {
      var place = name ? fieldOf(form, name) : null;
      if (!place) { top = top.concat(fields[name]); return; }
      var list = element("ul", "field-errors");
      list.id = name + "-errors";
      fields[name].forEach(function (message) { list.appendChild(element("li", "", message)); });
      place.appendChild(list);
      place.classList.add("has-error");
      firstShown = firstShown || place;
    });
    if (top.length) {
      var box = element("div", "form-errors");
      box.setAttribute("role", "alert");
      var list = element("ul");
      top.forEach(function (message) { list.appendChild(element("li", "", message)); });
      box.appendChild(list);
      form.insertBefore(box, form.firstChild);
      firstShown = box;
    }
    if (firstShown) { firstShown.scrollIntoView({ block: "center" }); }
  }

  /* Heard before the outbox (on the window, as the event goes down): a deal the rules
     refuse is not kept, just as the server would not save it. */
  window.addEventListener("submit", function (event) {
    var form = event.target;
    if (!ready || !loaded || !form || form.id !== "deal-form" || !phoneOnly()) { return; }
    if (event.submitter && event.submitter.name) { return; } /* "Discard mine", "Save mine as …" */
    var taps = formTaps(form);
    if (checked.taps !== taps || !checked.value || checked.value.ok) { return; }
    event.preventDefault();
    event.stopImmediatePropagation();
    showRefusals(form, checked.value.fields);
  }, true);

  /* --- the deals kept, scored on the phone --------------------------------------------- */

  function text(name, values) {
    var element = outbox();
    var template = element ? element.dataset[name] || "" : "";
    return template.replace(/\{(\w+)\}/g, function (all, key) {
      return values && values[key] !== undefined ? values[key] : all;
    });
  }

  function boardNodes(played) {
    var section = element("div", "outbox-board");
    section.appendChild(element("h3", "", text("boardTitle")));
    var list = element("ol", "scores");
    played.sides.forEach(function (side) {
      var row = element("li", "score-row" + (side.dealer ? " is-dealer" : "") + (side.winner ? " is-winner" : ""));
      row.appendChild(element("span", "name", side.label));
      var tags = element("span", "tags");
      if (side.dealer && !played.finished) { tags.appendChild(element("span", "tag tag-dealer", text("dealsNext"))); }
      if (side.winner) { tags.appendChild(element("span", "tag tag-win", text("winner"))); }
      row.appendChild(tags);
      row.appendChild(element("span", "delta", side.delta || ""));
      row.appendChild(element("span", "score", String(side.score)));
      list.appendChild(row);
    });
    section.appendChild(list);
    if (!played.finished) { section.appendChild(element("p", "meta", played.dealer_line)); }
    section.appendChild(element("p", "outbox-outcome" + (played.finished ? " is-finished" : ""), played.outcome));
    return section;
  }

  /* The form for the deal after the deals kept: who deals it and speaks first, the
     auction's rows in that order, and no form once the game is over. */
  function fitTurn(played) {
    var entry = document.getElementById("deal-entry");
    var form = document.getElementById("deal-form");
    if (!entry || !form) { return; }
    var number = Number((form.querySelector('input[name="number"]') || {}).value);
    if (number !== played.number) { return; }
    entry.querySelectorAll("[data-turn]").forEach(function (turn) {
      turn.textContent = played.turn;
      turn.hidden = false;
    });
    form.querySelectorAll("details.auction .call-row > legend").forEach(function (legend, index) {
      if (played.speakers[index] !== undefined) { legend.textContent = played.speakers[index]; }
    });
    entry.querySelectorAll("#deal-form, .flag, .turn").forEach(function (part) { part.hidden = played.finished; });
    var over = entry.querySelector(".deal-entry-over");
    if (played.finished && !over) {
      over = element("p", "note deal-entry-over", text("over"));
      entry.appendChild(over);
    }
    if (over) { over.hidden = !played.finished; }
  }

  /* The deals kept, scored, at the top of the game's history (templates/games/_deal.html's
     words): newest first, each said to be on this phone only. */
  function showInHistory(played) {
    var history = document.getElementById("history");
    if (!history) { return; }
    history.querySelectorAll(".deals-kept").forEach(function (old) { old.remove(); });
    var scored = played.deals.filter(function (deal) { return deal.result; });
    var none = history.querySelector(":scope > p.meta");
    if (none) { none.hidden = scored.length > 0; }
    if (!scored.length) { return; }
    var list = element("ol", "deals deals-kept");
    list.setAttribute("aria-label", text("historyKept"));
    scored.slice().reverse().forEach(function (deal) {
      var result = deal.result;
      var item = element("li", "deal is-kept " + (result.thrown_in ? "is-thrown-in" : result.made ? "is-made" : "is-set"));
      item.id = "kept-deal-" + deal.number;
      var title = element("h3", "", text("deal", { n: deal.number }) + " ");
      title.appendChild(element("span", "sub", result.dealt_by + " · " + text("notSent")));
      item.appendChild(title);
      if (result.thrown_in) {
        item.appendChild(element("p", "", result.thrown_in));
      } else {
        var contract = element("p", "contract");
        contract.appendChild(element("strong", "outcome", result.said));
        item.appendChild(contract);
        var changes = element("ul", "changes");
        changes.setAttribute("aria-label", text("changes", { n: deal.number }));
        result.sides.forEach(function (side) {
          var row = element("li", side.on_bid ? "on-bid" : "");
          row.appendChild(element("span", "name", side.label));
          row.appendChild(document.createTextNode(" "));
          row.appendChild(element("span", "delta", side.delta));
          changes.appendChild(row);
        });
        item.appendChild(changes);
      }
      var why = element("details", "why");
      why.appendChild(element("summary", "", result.why_title));
      result.why.forEach(function (sentence) { why.appendChild(element("p", "", sentence)); });
      item.appendChild(why);
      list.appendChild(item);
    });
    var heading = history.querySelector("h2");
    if (heading) { heading.after(list); } else { history.prepend(list); }
  }

  function scoreKept() {
    var going = kept();
    var element = outbox();
    var place = document.querySelector("[data-phone-board]");
    if (!ready || !loaded || !element) { return Promise.resolve(); }
    var old = element.querySelector(".outbox-board");
    if (!going.length && !place) {
      if (old) { old.remove(); }
      showInHistory({ deals: [] });
      return Promise.resolve();
    }
    return call("play", [game, keptTaps()]).then(function (answer) {
      var played = JSON.parse(answer);
      var box = outbox();
      if (!box) { return; }
      fitTurn(played);
      played.deals.forEach(function (deal, index) {
        var item = document.getElementById("kept-" + deal.number);
        if (!item) { return; }
        item.querySelectorAll(".outbox-score, .outbox-refused").forEach(function (e) { e.remove(); });
        var part = document.createElement("div");
        if (deal.result) {
          part.className = "outbox-score";
          previewNodes(deal.result, false).forEach(function (node) { part.appendChild(node); });
        } else {
          part.className = "outbox-refused";
          var list = document.createElement("ul");
          list.className = "preview-problems";
          deal.refused.forEach(function (message) { var li = document.createElement("li"); li.textContent = message; list.appendChild(li); });
          part.appendChild(list);
        }
        item.appendChild(part);
        if (index === going.length - 1 && !item.querySelector('[data-outbox="discard"]')) {
          var undo = document.createElement("button");
          undo.type = "button";
          undo.className = "secondary";
          undo.textContent = text("undo", { n: deal.number });
          undo.dataset.outbox = "discard";
          undo.dataset.key = String(going[index].key);
          item.appendChild(undo);
        }
      });
      showInHistory(played);
      var made = boardNodes(played);
      /* The page of a game started on this phone has its scoreboard from here alone. */
      var board = place ? place.querySelector(".outbox-board") : box.querySelector(".outbox-board");
      if (board) { board.replaceWith(made); } else if (place) { place.appendChild(made); } else { box.insertBefore(made, box.querySelector(".outbox-deals")); }
    }).catch(function () { return null; });
  }

  document.addEventListener("outbox:kept", function () { scoreKept().then(preview); });

  /* A live answer (a deal saved here or on another phone): the game as stored again. */
  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail.target;
    if (target && (target.id === "game" || target.id === "scoreboard") && navigator.onLine !== false && !madeHere) { load(); }
  });

  function idle() {
    if (window.requestIdleCallback) { window.requestIdleCallback(start, { timeout: 3000 }); } else { window.setTimeout(start, 1000); }
  }
  if (document.readyState === "complete") { idle(); } else { window.addEventListener("load", idle); }

  /* For the tests and the bench: the worker's answers, as the page gets them. */
  window.scorekeeperPhone = {
    ready: function () { return ready && Boolean(loaded); },
    call: function (name, args) { return call(name, args); },
    render: function (preview) {
      var holder = document.createElement("div");
      previewNodes(preview, true).forEach(function (node) { holder.appendChild(node); });
      return holder.innerHTML;
    },
  };
})();
