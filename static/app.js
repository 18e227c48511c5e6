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

  /* Narrow the deal form to what still makes sense; the server checks everything anyway. */
  function narrowDeal(form, changed) {
    var bidder = value(form, "bidder");
    radios(form, "partner").forEach(function (input) {
      var isBidder = input.value === bidder;
      input.closest(".chip").hidden = isBidder;
      if (isBidder && input.checked) { input.checked = false; }
    });

    var rank = value(form, "called_rank");
    var suitGroup = form.querySelector("#called_suit-group");
    var noSuit = rank === "none" || rank === "JOKER";
    if (suitGroup) { suitGroup.hidden = noSuit; }
    if (changed && changed.name === "called_rank" && rank === "none") { check(form, "partner", "none"); }

    var trump = value(form, "trump");
    var suit = value(form, "called_suit");
    var trumpCalled = trump && !noSuit && suit === trump;
    var partner = value(form, "partner");
    var pointOfCard = trumpCalled ? { A: "high", 4: "low" }[rank] : null;
    var cardSide = ["trump", "called_rank", "called_suit", "partner"];
    if (pointOfCard && changed) {
      if (cardSide.indexOf(changed.name) >= 0 && partner && partner !== "none") {
        check(form, pointOfCard, partner);
      } else if (changed.name === pointOfCard && (!partner || partner === "none")) {
        check(form, "partner", value(form, pointOfCard));
      }
    }
  }

  /* On the new-game page, name the first-dealer choices after the players as they are typed. */
  function nameDealers(input) {
    var seat = Number(input.dataset.seat);
    var label = document.querySelector("#first_dealer-" + (seat + 1) + " + span");
    if (label) {
      label.textContent = input.value.trim() || label.dataset.placeholder || label.textContent;
    }
  }

  function setUp(root) {
    root.querySelectorAll(".deal-form").forEach(function (form) { narrowDeal(form, null); });
    root.querySelectorAll("input[data-seat]").forEach(function (input) {
      var label = document.querySelector("#first_dealer-" + (Number(input.dataset.seat) + 1) + " + span");
      if (label && !label.dataset.placeholder) { label.dataset.placeholder = label.textContent; }
      if (input.value.trim()) { nameDealers(input); }
    });
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
