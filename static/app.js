/* Small helpers on top of the server-rendered forms; every page works without this file. */
(function () {
  "use strict";

  function radios(form, name) {
    return Array.prototype.slice.call(form.querySelectorAll('input[type="radio"][name="' + name + '"]'));
  }

  function value(form, name) {
    var checked = form.querySelector('input[type="radio"][name="' + name + '"]:checked');
    return checked ? checked.value : null;
  }

  function check(form, name, val) {
    radios(form, name).forEach(function (input) {
      if (input.value === val) { input.checked = true; }
    });
  }

  /* Narrow the deal form to what still makes sense, from what the page says of the game
     (data attributes written from the ruleset's description); the server checks
     everything anyway, so nothing here decides a rule. */
  function narrowDeal(form, changed) {
    var fields = form.querySelector(".deal-fields");
    if (!fields) { return; }

    /* A seat field that never equals another (the partner is never the bidder). */
    fields.querySelectorAll("[data-not-same-as]").forEach(function (group) {
      var other = value(form, group.dataset.notSameAs);
      radios(form, group.dataset.field).forEach(function (input) {
        var same = input.value === other;
        input.closest(".chip").hidden = same;
        if (same && input.checked) { input.checked = false; }
      });
    });

    var calledPoints = JSON.parse(fields.dataset.calledPoints || "{}");
    var suitField = fields.dataset.suitField;
    fields.querySelectorAll("[data-card]").forEach(function (group) {
      var name = group.dataset.card;
      var holder = group.dataset.holder;
      var rank = value(form, name + "_rank");
      var specials = (group.dataset.specials || "").split(" ");
      /* No card called, or a card that has no suit to choose: the suits are not asked. */
      var noSuit = rank === "none" || specials.indexOf(rank) >= 0;
      var suitGroup = form.querySelector("#" + name + "_suit-group");
      if (suitGroup) { suitGroup.hidden = noSuit; }
      if (!holder) { return; }
      if (changed && changed.name === name + "_rank" && rank === "none") { check(form, holder, "none"); }

      /* Calling this rank of trump makes its holder take the point: fill in the obvious. */
      var trump = suitField ? value(form, suitField) : null;
      var suit = value(form, name + "_suit");
      var trumpCalled = trump && !noSuit && suit === trump;
      var point = trumpCalled ? calledPoints[rank] : null;
      var partner = value(form, holder);
      var cardSide = [suitField, name + "_rank", name + "_suit", holder];
      if (point && changed) {
        if (cardSide.indexOf(changed.name) >= 0 && partner && partner !== "none") {
          check(form, point, partner);
        } else if (changed.name === point && (!partner || partner === "none")) {
          check(form, holder, value(form, point));
        }
      }
    });
  }

  /* Mark the bidding side in the form as soon as it is chosen: the seats the side's fields
     name (bidder, partner), with their teams where the page lists teams. Which fields
     and teams those are is written by the server from the ruleset's description. */
  function markSide(form) {
    var fields = form.querySelector(".deal-fields");
    if (!fields || !fields.dataset.side) { return; }
    var side = JSON.parse(fields.dataset.side);
    var seats = [];
    side.fields.forEach(function (name) {
      var seat = value(form, name);
      if (seat === null || seat === "none") { return; }
      var team = (side.teams || []).filter(function (t) { return t.indexOf(Number(seat)) >= 0; })[0];
      (team || [Number(seat)]).forEach(function (s) { seats.push(String(s)); });
    });
    form.querySelectorAll(".point-grid [data-seat]").forEach(function (element) {
      element.classList.toggle("on-bid", seats.indexOf(element.dataset.seat) >= 0);
    });
  }

  /* The card counter (templates/games/_card_counter.html): each side's total is the sum
     of the values the server wrote on the cards tapped for it (data-value), and the counts
     it fills are the inputs it names (data-inputs). The server adds them up again with the
     engine; nothing here knows what a card is worth. */
  function countCards(counter, tapped) {
    var outputs = counter.querySelectorAll("[data-total]");
    var totals = Array.prototype.map.call(outputs, function () { return 0; });
    var left = 0;
    var any = false;
    counter.querySelectorAll("[data-value]").forEach(function (row) {
      var worth = Number(row.dataset.value);
      var checked = row.querySelector("input:checked");
      var side = checked && /^[0-9]+$/.test(checked.value) ? Number(checked.value) : -1;
      if (side < 0 || side >= totals.length) {
        left += worth;
        return;
      }
      totals[side] += worth;
      any = true;
    });
    outputs.forEach(function (output) { output.textContent = String(totals[Number(output.dataset.total)]); });
    var rest = counter.querySelector("[data-left]");
    if (rest) { rest.textContent = String(left); }
    if (!tapped) { return; }
    (counter.dataset.inputs || "").split(" ").forEach(function (id, index) {
      var input = id ? document.getElementById(id) : null;
      if (input) { input.value = any ? String(totals[index]) : ""; }
    });
    /* The counts now say who took the point: a side chosen for it by hand gives way. */
    var group = counter.closest("fieldset.group[data-field]");
    var form = counter.closest("form");
    if (any && group && form) {
      radios(form, group.dataset.field).forEach(function (input) { input.checked = false; });
    }
  }

  /* "Use these counts": the counts are filled already, so the sheet just closes. */
  document.addEventListener("click", function (event) {
    var done = event.target.closest && event.target.closest("[data-counter-done]");
    var counter = done && done.closest(".card-counter");
    if (!counter) { return; }
    event.preventDefault();
    countCards(counter, true);
    counter.open = false;
    counter.querySelector("summary").focus({ preventScroll: true });
    counter.scrollIntoView({ block: "center" });
  });

  document.addEventListener("keydown", function (event) {
    var counter = event.key === "Escape" && event.target.closest && event.target.closest(".card-counter[open]");
    if (!counter) { return; }
    counter.open = false;
    counter.querySelector("summary").focus({ preventScroll: true });
  });

  /* Whether the reader has tapped anything in the form yet. */
  function touched(form) {
    return Array.prototype.some.call(form.elements, function (input) {
      if (input.type === "radio" || input.type === "checkbox") { return input.checked; }
      if (input.type === "number" || input.type === "text") { return input.value !== ""; }
      return false;
    });
  }

  /* Put this form's choices into another one (the form for the deal now next). */
  function carryTaps(from, to) {
    Array.prototype.forEach.call(from.elements, function (input) {
      if (!input.name || input.type === "hidden") { return; }
      var twins = to.querySelectorAll('[name="' + CSS.escape(input.name) + '"]');
      twins.forEach(function (twin) {
        if (input.type === "radio" || input.type === "checkbox") {
          if (twin.value === input.value) { twin.checked = input.checked; }
        } else {
          twin.value = input.value;
        }
      });
    });
  }

  /* Taps made for one deal are never saved as the next by a single tap: the form keeps
     the number it was for (the server refuses it now), and where its Save button was come
     what the other phone saved, "Discard mine" and "Save mine as deal N" (the form's
     <template data-conflict>, written by the server). */
  function holdTaps(from, to) {
    var template = to.querySelector("template[data-conflict]");
    var save = to.querySelector("[data-save]");
    var kept = from.querySelector('input[name="number"]');
    var number = to.querySelector('input[name="number"]');
    if (!template || !save || !kept || !number) { return; }
    save.replaceWith(template.content.cloneNode(true));
    template.remove();
    number.value = kept.value;
  }

  /* A live answer brings an editor's deal entry. Same deal number: keep the form as it is.
     The game ended: the form goes (the banner says why). Another phone saved the deal
     this form was for: the new form comes in, and if the reader had tapped, the taps
     come with it, held beside what that phone saved (holdTaps). */
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    if (!target || target.id !== "deal-entry") { return; }
    var fragment = event.detail.fragment;
    var incoming = fragment.querySelector ? fragment.querySelector("#deal-entry") : null;
    var oldForm = target.querySelector("#deal-form");
    var newForm = fragment.querySelector ? fragment.querySelector("#deal-form") : null;
    if (!oldForm || !newForm || !incoming) { return; }
    if (target.dataset.number === incoming.dataset.number) {
      event.detail.shouldSwap = false;
      return;
    }
    if (touched(oldForm)) {
      carryTaps(oldForm, newForm);
      holdTaps(oldForm, newForm);
      newForm.dataset.carried = "1";
    }
  });

  document.addEventListener("htmx:oobAfterSwap", function (event) {
    var target = event.detail.target;
    if (!target || target.id !== "deal-entry") { return; }
    var entry = document.getElementById("deal-entry");
    var form = entry && entry.querySelector("#deal-form");
    if (!form) { return; }
    narrowDeal(form, null);
    markSide(form);
    if (form.dataset.carried && window.htmx) { window.htmx.trigger(form, "change"); }
  });

  /* On the new-game page, name the first-dealer choices and the teams after the players
     as they are typed. */
  function nameDealers(input) {
    var seat = Number(input.dataset.seat);
    var name = input.value.trim();
    var label = document.querySelector("#first_dealer-" + (seat + 1) + " + span");
    if (label) {
      label.textContent = name || label.dataset.placeholder || label.textContent;
    }
    document.querySelectorAll('[data-seat-name="' + seat + '"]').forEach(function (span) {
      span.textContent = name || span.dataset.placeholder;
    });
  }

  function setUp(root) {
    root.querySelectorAll(".deal-form").forEach(function (form) {
      narrowDeal(form, null);
      markSide(form);
    });
    root.querySelectorAll(".card-counter").forEach(function (counter) { countCards(counter, false); });
    root.querySelectorAll("input[data-seat]").forEach(function (input) {
      var label = document.querySelector("#first_dealer-" + (Number(input.dataset.seat) + 1) + " + span");
      if (label && !label.dataset.placeholder) { label.dataset.placeholder = label.textContent; }
      if (input.value.trim()) { nameDealers(input); }
    });
    /* With htmx the setup swaps by itself when the game changes: no button needed. */
    if (window.htmx) {
      root.querySelectorAll(".no-htmx").forEach(function (element) { element.hidden = true; });
    }
  }

  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest(".deal-form");
    if (form) {
      var counter = event.target.closest(".card-counter");
      if (counter) { countCards(counter, true); }
      narrowDeal(form, event.target);
      markSide(form);
    }
  });

  document.addEventListener("input", function (event) {
    if (event.target.dataset && event.target.dataset.seat !== undefined) { nameDealers(event.target); }
  });

  /* The scripts the page does not need to be usable (templates/base.html's
     <template id="later-scripts">: the live stream, the wake lock, the games kept on the
     phone, the phone's engine, the service worker) are asked for once the page is parsed:
     on a slow phone they neither hold back its DOMContentLoaded (htmx set up) nor take
     the connection from the files it waits for. They run in their order, each with its
     data attributes (document.currentScript), and the page's load event waits for them. */
  function loadLater() {
    var later = document.getElementById("later-scripts");
    if (!later || !later.content) { return; }
    later.remove();
    Array.prototype.forEach.call(later.content.querySelectorAll("script"), function (inert) {
      var script = document.createElement("script");
      Array.prototype.forEach.call(inert.attributes, function (attribute) {
        script.setAttribute(attribute.name, attribute.value);
      });
      script.async = false;
      document.head.appendChild(script);
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    setUp(document);
    loadLater();
  });

  /* A live answer that arrives after this page replaced the scoreboard itself (its own
     save) is older than what is shown: drop it, out-of-band parts included. Otherwise
     note which sections the reader has open, to open them again after the swap. */
  var openBeforeLive = [];
  document.addEventListener("htmx:beforeSwap", function (event) {
    var source = event.detail.requestConfig && event.detail.requestConfig.elt;
    if (!(source && source.hasAttribute && source.hasAttribute("data-live"))) { return; }
    if (!source.isConnected) {
      event.detail.shouldSwap = false;
      return;
    }
    openBeforeLive = Array.prototype.map.call(document.querySelectorAll("details[open][id]"), function (d) { return d.id; });
  });

  /* After htmx swapped in the game: show the new scores, or the first message to fix. */
  document.addEventListener("htmx:afterSettle", function (event) {
    /* A live update from another phone must not move this reader's page. */
    var source = event.detail.requestConfig && event.detail.requestConfig.elt;
    if (source && source.hasAttribute && source.hasAttribute("data-live")) {
      openBeforeLive.forEach(function (id) {
        var details = document.getElementById(id);
        if (details) { details.open = true; }
      });
      return;
    }
    /* The preview under the form changes with every tap: it must not move the page. */
    if (source && source.id === "deal-preview") { return; }
    setUp(document);
    var status = event.detail.xhr ? event.detail.xhr.status : 200;
    /* Refused because another phone saved that deal: the choice is where the thumb is. */
    var conflict = status === 409 ? document.getElementById("deal-conflict") : null;
    if (conflict) {
      conflict.querySelector("button").focus({ preventScroll: true });
      return;
    }
    var target = status >= 400 ? document.querySelector(".form-errors, .has-error") : document.getElementById("scoreboard");
    if (target) {
      target.scrollIntoView({ block: "start" });
      if (status >= 400) {
        var first = target.querySelector("input") || target;
        if (first.focus) { first.focus({ preventScroll: true }); }
      }
    }
  });
})();
