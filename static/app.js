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
    root.querySelectorAll(".deal-form").forEach(function (form) { narrowDeal(form, null); });
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
    if (form) { narrowDeal(form, event.target); }
  });

  document.addEventListener("input", function (event) {
    if (event.target.dataset && event.target.dataset.seat !== undefined) { nameDealers(event.target); }
  });

  document.addEventListener("DOMContentLoaded", function () { setUp(document); });

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
    setUp(document);
    var status = event.detail.xhr ? event.detail.xhr.status : 200;
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
