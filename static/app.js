/* Small helpers on top of the server-rendered forms; every page works without this file. */
import { detailOf, htmx, targetOf, words } from "./common.js";
import { uploadProgress } from "./progress.js";
import { auctionOffers, calledPointChoice, dealerPlays, shownSuit, suitForRank, undoesDealerPlays } from "./deal-taps.js";

/** @typedef {import("./deal-taps.js").Choice} Choice */
/** @typedef {import("./deal-taps.js").DealerPlays} DealerPlays */

/**
 * @param {ParentNode} form
 * @param {string | undefined} name
 * @returns {HTMLInputElement[]}
 */

function radios(form, name) {
  return Array.from(form.querySelectorAll(`input[type="radio"][name="${name}"]`));
}

/**
 * @param {ParentNode} form
 * @param {string | null | undefined} name
 * @returns {string | null}
 */
function value(form, name) {
  const checked = /** @type {HTMLInputElement | null} */ (form.querySelector(`input[type="radio"][name="${name}"]:checked`));
  return checked ? checked.value : null;
}

/**
 * @param {ParentNode} form
 * @param {string} name
 * @param {string | null} val
 */
function check(form, name, val) {
  radios(form, name).forEach(function (input) {
    if (input.value === val) { input.checked = true; }
  });
}

/* Narrow the deal form to what still makes sense, from what the page says of the game
   (data attributes written from the ruleset's description); the server checks
   everything anyway, so nothing here decides a rule. */
/**
 * @param {HTMLFormElement} form
 * @param {HTMLInputElement | null} changed
 */
function narrowDeal(form, changed) {
  const fields = /** @type {HTMLElement | null} */ (form.querySelector(".deal-fields"));
  if (!fields) { return; }

  /* The auction, seat by seat: each bid beats every earlier one, so a row offers only the
     calls above the highest bid before it (a call tapped already stays, for the server to
     refuse beside the auction). Its last bid names the seat the auction decides. */
  /** @type {Record<string, string>} */
  const named = {};
  fields.querySelectorAll("details.auction[data-auction]").forEach(function (found) {
    const auction = /** @type {HTMLElement} */ (found);
    const speakers = (auction.dataset.speakers || "").split(" ");
    const rows = speakers.map(function (_seat, row) { return radios(form, auction.dataset.auction + "-" + row); });
    const offers = auctionOffers(rows.map(function (calls) {
      const bid = calls.findIndex(function (input) { return input.checked && input.value !== "none"; });
      return bid >= 0 ? bid : null;
    }));
    rows.forEach(function (calls, row) {
      calls.forEach(function (input, index) {
        if (input.value === "none") { return; }
        input.disabled = index <= offers.above[row] && !input.checked;
        const chip = /** @type {HTMLElement | null} */ (input.closest(".chip"));
        if (chip) { chip.classList.toggle("is-below", input.disabled); }
      });
    });
    if (offers.bidderRow !== null && auction.dataset.names) { named[auction.dataset.names] = speakers[offers.bidderRow]; }
  });

  /* A seat field that never equals another (the partner is never the bidder), chosen
     itself or named by the auction. */
  fields.querySelectorAll("[data-not-same-as]").forEach(function (found) {
    const group = /** @type {HTMLElement} */ (found);
    var name = group.dataset.notSameAs || "";
    var other = named[name] !== undefined ? named[name] : value(form, name);
    radios(form, group.dataset.field).forEach(function (input) {
      var same = input.value === other;
      const chip = /** @type {HTMLElement | null} */ (input.closest(".chip"));
      if (chip) { chip.hidden = same; }
      if (same && input.checked) { input.checked = false; }
    });
  });

  /** @type {Record<string, string>} */
  const calledPoints = JSON.parse(fields.dataset.calledPoints || "{}");
  var suitField = fields.dataset.suitField;
  fields.querySelectorAll("[data-card]").forEach(function (found) {
    const group = /** @type {HTMLElement} */ (found);
    var name = group.dataset.card;
    var holder = group.dataset.holder;
    var rank = value(form, name + "_rank");
    var specials = (group.dataset.specials || "").split(" ");
    /* No card called, or a card that has no suit to choose: the suits are not asked. */
    var noSuit = rank === "none" || specials.indexOf(rank || "") >= 0;
    var suitGroup = /** @type {HTMLElement | null} */ (form.querySelector("#" + name + "_suit-group"));
    if (suitGroup) { suitGroup.hidden = noSuit; }
    /* With trump known, the ranks stand for cards of trump ("A♥") until another suit is
       tapped: a rank's tap calls that very card. */
    var trump = suitField ? value(form, suitField) : null;
    var suit = value(form, name + "_suit");
    showSuit(form, group, shownSuit(suit, trump), specials);
    /* A suit chosen for the scorekeeper follows trump when trump changes; a rank tapped
       before trump gets trump's suit as its chips now show it. */
    var rankWaits = !suit && suitForRank({ rank: rank, suit: null, trump: trump, specials: specials }) !== null;
    if (changed && suitField && changed.name === suitField && trump && (rankWaits || chosenFor(form, name + "_suit"))) {
      choose(form, [name + "_suit", trump]);
      suit = trump;
      showSuit(form, group, suit, specials);
    }
    if (changed && changed.name === name + "_rank") {
      var forRank = suitForRank({ rank: rank, suit: suit, trump: trump, specials: specials });
      if (forRank) {
        choose(form, [name + "_suit", forRank]);
        suit = forRank;
      }
    }
    if (!holder) { return; }
    if (changed && changed.name === name + "_rank" && rank === "none") { check(form, holder, "none"); }

    /* Calling this rank of trump makes its holder take the point: fill in the obvious. */
    var trumpCalled = trump && !noSuit && suit === trump;
    var point = trumpCalled && rank ? calledPoints[rank] || null : null;
    if (changed) {
      var choice = calledPointChoice({
        point: point,
        partner: value(form, holder),
        holderOfPoint: point ? value(form, point) : null,
        changed: changed.name,
        cardSide: [suitField || "", name + "_rank", name + "_suit", holder],
        holder: holder,
      });
      if (choice) { choose(form, choice); }
    }
  });

  /* Everyone passed where the dealer must then play: the dealer bids, at the set bid. */
  fields.querySelectorAll("input[data-dealer-plays]").forEach(function (found) {
    const box = /** @type {HTMLInputElement} */ (found);
    /** @type {DealerPlays} */
    const plays = JSON.parse(box.dataset.dealerPlays || "null");
    var dealer = fields.dataset.dealer;
    if (changed === box) {
      dealerPlays(plays, dealer).forEach(function (choice) {
        if (box.checked) { choose(form, choice); } else { unchoose(form, choice[0]); }
      });
    } else if (changed && box.checked && undoesDealerPlays(plays, dealer, changed.name, changed.value)) {
      box.checked = false;
    }
  });
}

/**
 * Check a choice the rules made for the scorekeeper, marked as such until they tap it.
 * @param {HTMLFormElement} form
 * @param {Choice} choice
 */
function choose(form, [name, val]) {
  radios(form, name).forEach(function (input) {
    if (input.value === val) { input.checked = true; }
    const label = input.closest("label");
    if (!label) { return; }
    label.classList.toggle("is-chosen-for-you", input.value === val);
    label.dataset.chosen = chosenWord(form);
  });
}

/**
 * The page's word for a choice the rules made (written by the server in its language).
 * @param {HTMLFormElement} form
 */
function chosenWord(form) {
  const fields = /** @type {HTMLElement | null} */ (form.querySelector(".deal-fields"));
  return (fields && fields.dataset.chosenWord) || "";
}

/**
 * Whether the group's checked choice was made for the scorekeeper.
 * @param {HTMLFormElement} form
 * @param {string} name
 */
function chosenFor(form, name) {
  return radios(form, name).some(function (input) {
    return input.checked && !!input.closest(".is-chosen-for-you");
  });
}

/**
 * Take back a choice made for the scorekeeper (not one they tapped themselves).
 * @param {HTMLFormElement} form
 * @param {string} name
 */
function unchoose(form, name) {
  radios(form, name).forEach(function (input) {
    const label = input.closest("label");
    if (label && label.classList.contains("is-chosen-for-you")) {
      input.checked = false;
      label.classList.remove("is-chosen-for-you");
    }
  });
}

/**
 * A tap is the scorekeeper's own choice: its group is no longer marked as chosen for them.
 * @param {HTMLFormElement} form
 * @param {HTMLInputElement} tapped
 */
function ownChoice(form, tapped) {
  if (tapped.type !== "radio") { return; }
  radios(form, tapped.name).forEach(function (input) {
    const label = input.closest("label");
    if (label) { label.classList.remove("is-chosen-for-you"); }
  });
}

/**
 * Show on each suited rank of a card field the suit its tap calls.
 * @param {HTMLFormElement} form
 * @param {HTMLElement} group
 * @param {string | null} suit
 * @param {string[]} specials
 */
function showSuit(form, group, suit, specials) {
  const name = group.dataset.card;
  const suitInput = suit ? form.querySelector(`input[name="${name}_suit"][value="${suit}"]`) : null;
  const symbol = suitInput && suitInput.parentElement ? suitInput.parentElement.querySelector(".suit") : null;
  radios(form, name + "_rank").forEach(function (input) {
    const label = input.nextElementSibling;
    if (!label || input.value === "none" || specials.indexOf(input.value) >= 0) { return; }
    let shown = label.querySelector("[data-of-suit]");
    if (!symbol) {
      if (shown) { shown.remove(); }
      return;
    }
    if (!shown) {
      /* Decoration, as on the suits' own chips: the suit's radio says which suit. */
      shown = document.createElement("span");
      shown.setAttribute("data-of-suit", "");
      shown.setAttribute("aria-hidden", "true");
      label.appendChild(shown);
    }
    shown.className = symbol.className;
    shown.textContent = symbol.textContent;
  });
}

/* Mark the bidding side in the form as soon as it is chosen: the seats the side's fields
   name (bidder, partner), with their teams where the page lists teams. Which fields
   and teams those are is written by the server from the ruleset's description. */
/** @param {HTMLFormElement} form */
function markSide(form) {
  const fields = /** @type {HTMLElement | null} */ (form.querySelector(".deal-fields"));
  if (!fields || !fields.dataset.side) { return; }
  /** @type {{fields: string[], teams?: number[][]}} */
  const side = JSON.parse(fields.dataset.side);
  /** @type {string[]} */
  const seats = [];
  side.fields.forEach(function (name) {
    const seat = value(form, name);
    if (seat === null || seat === "none") { return; }
    const team = (side.teams || []).find(function (t) { return t.indexOf(Number(seat)) >= 0; });
    (team || [Number(seat)]).forEach(function (s) { seats.push(String(s)); });
  });
  form.querySelectorAll(".point-grid [data-seat]").forEach(function (found) {
    const element = /** @type {HTMLElement} */ (found);
    element.classList.toggle("on-bid", seats.indexOf(element.dataset.seat || "") >= 0);
  });
}

/* The card counter (templates/games/_card_counter.html): each side's total is the sum
   of the values the server wrote on the cards tapped for it (data-value), and the counts
   it fills are the inputs it names (data-inputs). The server adds them up again with the
   engine; nothing here knows what a card is worth. */
/**
 * @param {HTMLDetailsElement} counter
 * @param {boolean} tapped
 */
function countCards(counter, tapped) {
  const outputs = /** @type {NodeListOf<HTMLElement>} */ (counter.querySelectorAll("[data-total]"));
  const totals = Array.from(outputs, function () { return 0; });
  var left = 0;
  var any = false;
  counter.querySelectorAll("[data-value]").forEach(function (found) {
    const row = /** @type {HTMLElement} */ (found);
    const worth = Number(row.dataset.value);
    const checked = /** @type {HTMLInputElement | null} */ (row.querySelector("input:checked"));
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
    const input = /** @type {HTMLInputElement | null} */ (id ? document.getElementById(id) : null);
    if (input) { input.value = any ? String(totals[index]) : ""; }
  });
  /* The counts now say who took the point: a side chosen for it by hand gives way. */
  const group = /** @type {HTMLElement | null} */ (counter.closest("fieldset.group[data-field]"));
  var form = counter.closest("form");
  if (any && group && form) {
    radios(form, group.dataset.field).forEach(function (input) { input.checked = false; });
  }
}

/* "Use these counts": the counts are filled already, so the sheet just closes. */
/**
 * Close the card counter, the focus back on its summary.
 * @param {HTMLDetailsElement} counter
 */
function closeCounter(counter) {
  counter.open = false;
  const summary = counter.querySelector("summary");
  if (summary) { summary.focus({ preventScroll: true }); }
}

document.addEventListener("click", function (event) {
  const done = targetOf(event)?.closest("[data-counter-done]");
  const counter = /** @type {HTMLDetailsElement | null} */ (done ? done.closest(".card-counter") : null);
  if (!counter) { return; }
  event.preventDefault();
  countCards(counter, true);
  closeCounter(counter);
  counter.scrollIntoView({ block: "center" });
});

document.addEventListener("keydown", function (event) {
  const counter = event.key === "Escape" ? targetOf(event)?.closest(".card-counter[open]") : null;
  if (counter) { closeCounter(/** @type {HTMLDetailsElement} */ (counter)); }
});

/**
 * The form's inputs (its buttons and fieldsets read as inputs without a value).
 * @param {HTMLFormElement} form
 * @returns {HTMLInputElement[]}
 */
function inputs(form) { return /** @type {HTMLInputElement[]} */ (Array.from(form.elements)); }

/**
 * Whether the reader has tapped anything in the form yet.
 * @param {HTMLFormElement} form
 */
function touched(form) {
  return inputs(form).some(function (input) {
    if (input.type === "radio" || input.type === "checkbox") { return input.checked; }
    if (input.type === "number" || input.type === "text") { return input.value !== ""; }
    return false;
  });
}

/**
 * Put this form's choices into another one (the form for the deal now next).
 * @param {HTMLFormElement} from
 * @param {HTMLFormElement} to
 */
function carryTaps(from, to) {
  inputs(from).forEach(function (input) {
    if (!input.name || input.type === "hidden") { return; }
    const twins = /** @type {NodeListOf<HTMLInputElement>} */ (to.querySelectorAll(`[name="${CSS.escape(input.name)}"]`));
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
/**
 * @param {HTMLFormElement} from
 * @param {HTMLFormElement} to
 */
function holdTaps(from, to) {
  const template = /** @type {HTMLTemplateElement | null} */ (to.querySelector("template[data-conflict]"));
  const save = to.querySelector("[data-save]");
  const kept = /** @type {HTMLInputElement | null} */ (from.querySelector('input[name="number"]'));
  const number = /** @type {HTMLInputElement | null} */ (to.querySelector('input[name="number"]'));
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
  const detail = detailOf(event);
  const target = detail.target;
  if (!target || target.id !== "deal-entry") { return; }
  const fragment = detail.fragment;
  var incoming = fragment.querySelector ? fragment.querySelector("#deal-entry") : null;
  var oldForm = target.querySelector("#deal-form");
  var newForm = fragment.querySelector ? fragment.querySelector("#deal-form") : null;
  if (!oldForm || !newForm || !incoming) { return; }
  if (target.dataset.number === incoming.dataset.number) {
    detail.shouldSwap = false;
    return;
  }
  if (touched(oldForm)) {
    carryTaps(oldForm, newForm);
    holdTaps(oldForm, newForm);
    newForm.dataset.carried = "1";
  }
});

/* The choice another phone's save asks for, whole on the screen with the taps it asks about
   right above it (it ends the form, static/app.css). Where it is whole in view already the
   page stays still. */
/** @param {Element} conflict */
function showConflict(conflict) {
  const box = conflict.getBoundingClientRect();
  if (box.top < 0 || box.bottom > window.innerHeight) { conflict.scrollIntoView({ block: "end" }); }
}

document.addEventListener("htmx:oobAfterSwap", function (event) {
  const target = detailOf(event).target;
  if (!target || target.id !== "deal-entry") { return; }
  const entry = document.getElementById("deal-entry");
  const form = /** @type {HTMLFormElement | null} */ (entry && entry.querySelector("#deal-form"));
  if (!form) { return; }
  narrowDeal(form, null);
  markSide(form);
  if (form.dataset.carried && htmx()) { htmx().trigger(form, "change"); }
  const conflict = form.querySelector("#deal-conflict");
  if (conflict) { showConflict(conflict); }
});

/* On the new-game page, name the first-dealer choices and the teams after the players
   as they are typed. */
/** @param {HTMLInputElement} input */
function nameDealers(input) {
  const seat = Number(input.dataset.seat);
  const name = input.value.trim();
  const label = /** @type {HTMLElement | null} */ (document.querySelector(`#first_dealer-${seat + 1} + span`));
  if (label) {
    label.textContent = name || label.dataset.placeholder || label.textContent;
  }
  document.querySelectorAll(`[data-seat-name="${seat}"]`).forEach(function (span) {
    span.textContent = name || /** @type {HTMLElement} */ (span).dataset.placeholder || "";
  });
}

/** @param {ParentNode} root */
function setUp(root) {
  root.querySelectorAll(".deal-form").forEach(function (form) {
    narrowDeal(/** @type {HTMLFormElement} */ (form), null);
    markSide(/** @type {HTMLFormElement} */ (form));
  });
  root.querySelectorAll(".card-counter").forEach(function (counter) { countCards(/** @type {HTMLDetailsElement} */ (counter), false); });
  root.querySelectorAll("input[data-seat]").forEach(function (found) {
    const input = /** @type {HTMLInputElement} */ (found);
    const label = /** @type {HTMLElement | null} */ (document.querySelector(`#first_dealer-${Number(input.dataset.seat) + 1} + span`));
    if (label && !label.dataset.placeholder) { label.dataset.placeholder = label.textContent; }
    if (input.value.trim()) { nameDealers(input); }
  });
  /* With htmx the setup swaps by itself when the game changes: no button needed. */
  if (htmx()) {
    root.querySelectorAll(".no-htmx").forEach(function (element) { /** @type {HTMLElement} */ (element).hidden = true; });
  }
}

document.addEventListener("change", function (event) {
  const target = /** @type {HTMLInputElement | null} */ (targetOf(event));
  const form = /** @type {HTMLFormElement | null} */ (target ? target.closest(".deal-form") : null);
  if (target && form) {
    const counter = /** @type {HTMLDetailsElement | null} */ (target.closest(".card-counter"));
    if (counter) { countCards(counter, true); }
    narrowDeal(form, target);
    markSide(form);
    keepAboveBar(form, target);
  }
});

/* A tap on a choice makes it the scorekeeper's own, even one already chosen for them. */
document.addEventListener("click", function (event) {
  const target = targetOf(event);
  const form = /** @type {HTMLFormElement | null} */ (target ? target.closest(".deal-form") : null);
  if (form && target instanceof HTMLInputElement) { ownChoice(form, target); }
});

/* The first tap holds the bar (the preview and Save) at the bottom of the screen, but a
   bar never rises above its form's top: where the form starts low on the screen (the
   scorekeeper's page puts it on the first one), the bar would lie over the chip just
   tapped. The page then moves up until that chip is above the bar, as the page's
   scroll-padding says for what it brings into view. */
/**
 * @param {HTMLFormElement} form
 * @param {HTMLInputElement} target
 */
function keepAboveBar(form, target) {
  const bar = form.querySelector(".sticky-actions");
  const chip = target.closest(".chip") || target;
  if (!bar || bar.contains(chip)) { return; }
  const barTop = bar.getBoundingClientRect().top;
  if (chip.getBoundingClientRect().bottom > barTop && barTop < window.innerHeight) {
    chip.scrollIntoView({ block: "nearest" });
  }
}

document.addEventListener("input", function (event) {
  const target = targetOf(event);
  if (target instanceof HTMLInputElement && target.dataset.seat !== undefined) { nameDealers(target); }
});

/* The scripts the page does not need to be usable (templates/base.html's
   <template id="later-scripts">: the live stream, the wake lock, the games kept on the
   phone, the phone's engine, the service worker) are asked for once the page is parsed:
   on a slow phone they neither hold back its DOMContentLoaded (htmx set up) nor take
   the connection from the files it waits for. They run in their order, each with its
   data attributes (each module finds its own script element by them), and the page's load
   event waits for them. */
function loadLater() {
  const later = /** @type {HTMLTemplateElement | null} */ (document.getElementById("later-scripts"));
  if (!later || !later.content) { return; }
  later.remove();
  later.content.querySelectorAll("script").forEach(function (inert) {
    const script = document.createElement("script");
    Array.from(inert.attributes).forEach(function (attribute) {
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
/** @type {string[]} */
let openBeforeLive = [];
document.addEventListener("htmx:beforeSwap", function (event) {
  const detail = detailOf(event);
  const source = detail.requestConfig && detail.requestConfig.elt;
  if (!(source && source.hasAttribute && source.hasAttribute("data-live"))) { return; }
  if (!source.isConnected) {
    detail.shouldSwap = false;
    return;
  }
  openBeforeLive = Array.from(document.querySelectorAll("details[open][id]"), function (d) { return d.id; });
});

/* After htmx swapped in the game: show the new scores, or the first message to fix. */
document.addEventListener("htmx:afterSettle", function (event) {
  /* A live update from another phone must not move this reader's page. */
  const detail = detailOf(event);
  const source = detail.requestConfig && detail.requestConfig.elt;
  if (source && source.hasAttribute && source.hasAttribute("data-live")) {
    openBeforeLive.forEach(function (id) {
      const details = /** @type {HTMLDetailsElement | null} */ (document.getElementById(id));
      if (details) { details.open = true; }
    });
    return;
  }
  /* The preview under the form changes with every tap: it must not move the page. */
  if (source && source.id === "deal-preview") { return; }
  setUp(document);
  const status = detail.xhr ? detail.xhr.status : 200;
  /* Refused because another phone saved that deal: the choice is where the thumb is. */
  const conflict = status === 409 ? document.getElementById("deal-conflict") : null;
  const choice = conflict ? conflict.querySelector("button") : null;
  if (conflict && choice) {
    showConflict(conflict);
    choice.focus({ preventScroll: true });
    return;
  }
  const target = /** @type {HTMLElement | null} */ (status >= 400 ? document.querySelector(".form-errors, .has-error") : document.getElementById("scoreboard"));
  if (target) {
    target.scrollIntoView({ block: "start" });
    if (status >= 400) {
      const first = target.querySelector("input") || target;
      first.focus({ preventScroll: true });
    }
  }
});

/* The import page: while the file is sent, how much of it; then that it is being checked.
   A refusal of the file's size (413) is a page like any other refusal: it is shown. */
/** @type {import("./progress.js").Progress | null} */
let importing = null;

/**
 * The import form the event is about, if it is one.
 * @param {Event} event
 * @returns {HTMLFormElement | null}
 */
function importForm(event) {
  const target = targetOf(event);
  return /** @type {HTMLFormElement | null} */ (target ? target.closest("form[data-import-progress]") : null);
}

/**
 * Show `progress` in the import form's status box.
 * @param {HTMLFormElement} form
 * @param {import("./progress.js").Progress} progress
 */
function showImport(form, progress) {
  const box = /** @type {HTMLElement | null} */ (form.querySelector("#import-progress"));
  const bar = box ? box.querySelector("progress") : null;
  const line = box ? box.querySelector("p") : null;
  if (!box || !bar || !line) { return; }
  box.hidden = false;
  if (progress.percent === null) { bar.removeAttribute("value"); } else { bar.value = progress.percent; }
  const name = progress.phase === "checking" ? "checking" : progress.percent === null ? "sendingUnknown" : "sending";
  line.textContent = words(box, name, { n: progress.percent === null ? "" : progress.percent });
}

document.addEventListener("htmx:beforeRequest", function (event) {
  const form = importForm(event);
  if (!form) { return; }
  importing = null;
  form.querySelectorAll("button[type=submit]").forEach(function (button) { /** @type {HTMLButtonElement} */ (button).disabled = true; });
  showImport(form, { phase: "sending", percent: 0 });
});

document.addEventListener("htmx:xhr:progress", function (event) {
  const form = importForm(event);
  if (!form) { return; }
  importing = uploadProgress(importing, detailOf(event));
  showImport(form, importing);
});

document.addEventListener("htmx:beforeSwap", function (event) {
  const detail = detailOf(event);
  const source = detail.requestConfig && detail.requestConfig.elt;
  const fromImport = source instanceof Element && source.closest("form[data-import-progress]");
  if (fromImport && detail.xhr && detail.xhr.status === 413) {
    detail.shouldSwap = true;
    detail.isError = false;
  }
});

document.addEventListener("htmx:afterRequest", function (event) {
  const form = importForm(event);
  if (!form || !form.isConnected) { return; }
  /* Not answered (no connection): the form is as it was, to send again. */
  form.querySelectorAll("button[type=submit]").forEach(function (button) { /** @type {HTMLButtonElement} */ (button).disabled = false; });
  const box = /** @type {HTMLElement | null} */ (form.querySelector("#import-progress"));
  if (box) { box.hidden = true; }
});
