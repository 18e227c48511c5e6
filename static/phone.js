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
import { detailOf, element, targetOf, words } from "./common.js";
import { keptDeals, learnt, onKept } from "./outbox.js";
import { keepBoard, newerThanPage, onLearnt, recordOf } from "./state.js";

/** @typedef {import("./queue.js").KeptDeal} KeptDeal */
/** @typedef {[string, string][]} Taps the fields of a form, in order */
/**
 * The worker's answers (scorekeeper/phone.py), as JSON.
 * @typedef {{label: string, score: number, delta?: string, dealer: boolean, winner: boolean}} BoardSide
 * @typedef {{number: number, score?: string, html?: string, refused?: string[]}} PlayedDeal
 *   a deal scored (`score`: what it scored and why, templates/games/_preview.html; `html`: the
 *   deal as the history shows it, templates/games/_deal.html; both as the server renders them)
 *   or refused (`refused`: the engine's words)
 * @typedef {{number: number, finished: boolean, sides: BoardSide[], dealer_seat: number, dealer_line: string, outcome: string, meta: string, turn: string, speakers: string[], speaker_seats: number[]}} Board
 *   (`meta` and `turn`: HTML, templates/macros/game.html's lines as the server renders them)
 * @typedef {Board & {deals: PlayedDeal[], board_html: string}} Played
 *   (`board_html`: templates/games/_phone_board.html, the game after the deals kept)
 * @typedef {Board & {recent: PlayedDeal[]}} Stored the game as the server stores it, its last deals scored
 * @typedef {{ok: boolean, fields: Record<string, string>, top: string}} Checked a Save's refusals
 *   as HTML, as the server's form lists them: each field's beside it, the rest above the form
 */

/* The page of a game started on this phone (static/made-here.js, which only that page
   needs): the engine starts its game from the new-game fields kept. */
const madeHere = document.querySelector("[data-made-here-game]") ? (await import("./made-here.js")).madeHere : null;

/** The worker's answers, as the page gets them: for the tests and the bench. */
export const phone = {
  ready() { return false; },
  /** @type {(name: string, args: unknown[]) => Promise<any>} */
  call() { return Promise.reject(new Error("no engine on this page")); },
  /** @type {(html: string) => string} */
  render() { return ""; },
};

const first = document.getElementById("outbox");
if (first && first.dataset.engine && window.Worker) { setUp(first); }

/** @param {HTMLElement} first */
function setUp(first) {
  /** @type {Worker | null} */
  let worker = null;
  let ready = false;
  /** @type {Map<number, {resolve: (value: any) => void, reject: (error: Error) => void}>} */
  const waiting = new Map();
  let count = 0;
  const game = first.dataset.game || "";
  /** @type {Stored | null} the stored game as the worker holds it */
  let loaded = null;
  /** @type {string | null} the document the worker holds it from */
  let loadedFrom = null;
  /** @type {{taps: string | null, value: Checked | null}} the last check of the form's fields */
  let checked = { taps: null, value: null };
  let shown = 0; /* which preview asked for is shown (a late answer never replaces a newer) */

  function outbox() { return document.getElementById("outbox"); }

  /**
   * Ask the worker; its answer (scorekeeper/phone.py's, JSON mostly) once it comes.
   * @param {string} name
   * @param {unknown[]} args
   * @returns {Promise<any>}
   */
  function call(name, args) {
    return new Promise(function (resolve, reject) {
      if (!worker) { reject(new Error("no engine")); return; }
      count += 1;
      waiting.set(count, { resolve: resolve, reject: reject });
      worker.postMessage({ id: count, call: name, args: args });
    });
  }

  /** @param {MessageEvent} event */
  function received(event) {
    var data = event.data || {};
    if (data.ready !== undefined) {
      if (!data.ready) {
        /* The page goes on as without it: the server's preview, the outbox. */
        document.documentElement.dataset.phoneEngine = "failed";
        if (window.console) { console.warn("The engine did not start on this phone: " + data.error); }
        if (worker) { worker.terminate(); }
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
    const promise = waiting.get(data.id);
    if (!promise) { return; }
    waiting.delete(data.id);
    if (data.error !== undefined) { promise.reject(new Error(data.error)); } else { promise.resolve(data.value); }
  }

  function start() {
    if (worker) { return; }
    try {
      worker = new Worker(first.dataset.engine || "", { type: "module" });
    } catch { worker = null; return; }
    worker.addEventListener("message", received);
    worker.addEventListener("error", function () { ready = false; });
  }

  /* The service worker keeps every file the engine needs, for the next start offline. On a
     first visit the engine may be ready before the worker controls the page: the worker is
     asked once it does, for the game's export too (fetched without it, so not kept). */
  /** @param {boolean} [late] */
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

  /* A game the server stores: the engine starts from the phone's record of it
     (static/state.js), the document the page last got from the server, asked again when
     the server can be asked; its answer is kept with the record, for the next page opened
     from a copy to show at once. */

  /**
   * @param {import("./state.js").GameRecord} record
   * @returns {Promise<Stored | null>}
   */
  function fromRecord(record) {
    if (!ready || madeHere) { return Promise.resolve(null); }
    if (loaded && loadedFrom === record.document) {
      const known = loaded;
      /* Worked out already; kept with the record if the record lacks it. */
      return record.board ? Promise.resolve(known) : keepBoard(game, record.document, known).then(function () { return known; });
    }
    return call("load", [record.document]).then(function (answer) {
      /** @type {Stored} */
      const board = JSON.parse(answer);
      loaded = board;
      loadedFrom = record.document;
      return keepBoard(game, record.document, board).then(function () { return board; });
    });
  }
  onLearnt(fromRecord);

  /** @returns {Promise<Stored | null>} */
  function stored() {
    if (madeHere) {
      return madeHere.setup.then(function (kept) {
        return call("made_here", [game, JSON.stringify(pairs(kept.body))]);
      }).then(function (answer) { return JSON.parse(answer); });
    }
    const record = navigator.onLine === false ? recordOf(game) : learnt();
    return record.then(function (found) {
      if (!found) { throw new Error("no record of the game"); }
      return fromRecord(found);
    });
  }

  function load() {
    var element = outbox();
    if (!ready || !element) { return Promise.resolve(); }
    return stored().then(function (board) {
      if (!board) { return null; }
      loaded = board;
      document.documentElement.dataset.phoneEngine = "ready";
      return showRecord().then(scoreKept).then(preview).then(function () { return null; });
    }).catch(function () { return null; });
  }

  /**
   * @param {string} body
   * @returns {Taps}
   */
  function pairs(body) {
    /** @type {Taps} */
    const found = [];
    new URLSearchParams(body).forEach(function (value, name) {
      if (name !== "csrf_token") { found.push([name, value]); }
    });
    return found;
  }

  /* The deals kept that the server does not have yet, oldest first, while they wait in
     order (a deal held back, and those after it, are not the game's yet). */
  /** @returns {KeptDeal[]} */
  function kept() {
    const from = loaded ? loaded.number : null;
    if (from === null) { return []; }
    const mine = keptDeals().filter(function (entry) {
      return entry.game === game && entry.number >= from;
    });
    /** @type {KeptDeal[]} */
    const going = [];
    for (var i = 0; i < mine.length && mine[i].state === "waiting"; i += 1) { going.push(mine[i]); }
    return going;
  }

  function keptTaps() { return JSON.stringify(kept().map(function (entry) { return pairs(entry.body); })); }

  /** @param {HTMLFormElement} form */
  function formTaps(form) {
    /** @type {Taps} */
    const found = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrf_token" && typeof value === "string") { found.push([name, value]); }
    });
    return JSON.stringify(found);
  }

  /* The server's preview knows only the deals it stores. */
  function phoneOnly() { return Boolean(madeHere) || navigator.onLine === false || kept().length > 0; }

  /* --- what the page shows ------------------------------------------------------------ */

  /**
   * Markup the worker rendered from the server's own templates (escaped by Jinja), as nodes.
   * @param {string} html
   * @returns {DocumentFragment}
   */
  function fragment(html) {
    const holder = document.createElement("template");
    holder.innerHTML = html;
    return holder.content;
  }

  /**
   * The preview as the server's answer puts it in place: its parts marked `hx-swap-oob`
   * (a folded section's refusals) in place of the page's element of their id, as htmx
   * swaps them, the rest under the form.
   * @param {HTMLElement} target
   * @param {string} html templates/games/_preview.html, rendered by the worker
   */
  function showPreview(target, html) {
    const parts = fragment(html);
    parts.querySelectorAll("[hx-swap-oob]").forEach(function (part) {
      part.removeAttribute("hx-swap-oob");
      const old = part.id ? document.getElementById(part.id) : null;
      if (old) { old.replaceWith(part); } else { part.remove(); }
    });
    target.replaceChildren(parts);
    target.dataset.from = "phone";
  }

  /** @returns {Promise<unknown>} */
  function preview() {
    const form = /** @type {HTMLFormElement | null} */ (document.getElementById("deal-form"));
    var target = document.getElementById("deal-preview");
    if (!ready || !loaded || !form || !target) { return Promise.resolve(); }
    shown += 1;
    var asked = shown;
    var taps = formTaps(form);
    var before = keptTaps();
    /* The preview is shown as soon as the worker has it; the check for a Save (asked after
       it, so answered after it) never holds it back. */
    var previewed = call("preview", [game, before, taps]).then(function (answer) {
      if (asked !== shown || !target || !target.isConnected) { return; }
      showPreview(target, answer);
    });
    var checking = call("check", [game, before, taps]).then(function (answer) {
      checked = { taps: taps, value: JSON.parse(answer) };
    });
    return Promise.all([previewed, checking]).catch(function () { return null; });
  }

  document.addEventListener("change", function (event) {
    if (targetOf(event)?.closest("#deal-form")) { preview(); }
  });

  /* The server's preview: asked when it can know the answer, and then it confirms. */
  document.addEventListener("htmx:beforeRequest", function (event) {
    const elt = detailOf(event).elt;
    if (!elt || elt.id !== "deal-preview" || !ready || !loaded) { return; }
    if (phoneOnly()) { event.preventDefault(); }
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    const target = detailOf(event).target;
    if (target && target.id === "deal-preview") { delete target.dataset.from; }
  });

  /* --- a Save kept on the phone: checked by the engine first -------------------------- */

  /**
   * @param {HTMLFormElement} form
   * @param {string} name
   * @returns {Element | null}
   */
  function fieldOf(form, name) {
    var group = document.getElementById(name + "-group");
    if (group) { return group; }
    var control = form.querySelector('[name="' + CSS.escape(name) + '"], [name^="' + CSS.escape(name) + '-"], [name^="' + CSS.escape(name) + '_"]');
    return control ? control.closest("fieldset, details, .field") : null;
  }

  /**
   * The refusals as the worker rendered them with the server's macros: each field's list
   * beside it (at the top of the form if the page has no place for it), the rest above.
   * @param {HTMLFormElement} form
   * @param {Checked} refused
   */
  function showRefusals(form, refused) {
    const entry = document.getElementById("deal-entry");
    if (entry) { entry.querySelectorAll(".form-errors, .field-errors").forEach(function (e) { e.remove(); }); }
    const top = fragment(refused.top);
    /** @type {Element | null} */
    let firstShown = null;
    Object.keys(refused.fields).forEach(function (name) {
      const list = fragment(refused.fields[name]);
      const place = fieldOf(form, name);
      if (!place) { top.appendChild(list); return; }
      place.appendChild(list);
      place.classList.add("has-error");
      firstShown = firstShown || place;
    });
    const box = top.firstElementChild;
    if (box) {
      form.insertBefore(top, form.firstChild);
      firstShown = box;
    }
    if (firstShown) { firstShown.scrollIntoView({ block: "center" }); }
  }

  /* Heard before the outbox (on the window, as the event goes down): a deal the rules
     refuse is not kept, just as the server would not save it. */
  window.addEventListener("submit", function (event) {
    const form = event.target;
    if (!ready || !loaded || !(form instanceof HTMLFormElement) || form.id !== "deal-form" || !phoneOnly()) { return; }
    if (event.submitter && /** @type {HTMLButtonElement} */ (event.submitter).name) { return; } /* "Discard mine", "Save mine as …" */
    var taps = formTaps(form);
    if (checked.taps !== taps || !checked.value || checked.value.ok) { return; }
    event.preventDefault();
    event.stopImmediatePropagation();
    showRefusals(form, checked.value);
  }, true);

  /* --- the deals kept, scored on the phone --------------------------------------------- */

  /**
   * @param {string} name
   * @param {import("./common.js").Values} [values]
   */
  function text(name, values) { return words(outbox(), name, values); }

  /* The form for the deal after the deals kept: who deals it and speaks first, the
     auction's rows in that order, and no form once the game is over. */
  /** @param {Board} played */
  function fitTurn(played) {
    const entry = document.getElementById("deal-entry");
    const form = document.getElementById("deal-form");
    if (!entry || !form) { return; }
    const numberInput = /** @type {HTMLInputElement | null} */ (form.querySelector('input[name="number"]'));
    const number = Number(numberInput ? numberInput.value : NaN);
    if (number !== played.number) { return; }
    entry.querySelectorAll("[data-turn]").forEach(function (turn) {
      turn.replaceChildren(fragment(played.turn));
      /** @type {HTMLElement} */ (turn).hidden = false;
    });
    const fields = /** @type {HTMLElement | null} */ (form.querySelector(".deal-fields"));
    if (fields) { fields.dataset.dealer = String(played.dealer_seat); }
    form.querySelectorAll("details.auction[data-speakers]").forEach(function (auction) {
      /** @type {HTMLElement} */ (auction).dataset.speakers = played.speaker_seats.join(" ");
    });
    form.querySelectorAll("details.auction .call-row > legend").forEach(function (legend, index) {
      if (played.speakers[index] !== undefined) { legend.textContent = played.speakers[index]; }
    });
    entry.querySelectorAll("#deal-form, .flag, .turn").forEach(function (part) { /** @type {HTMLElement} */ (part).hidden = played.finished; });
    let over = /** @type {HTMLElement | null} */ (entry.querySelector(".deal-entry-over"));
    if (played.finished && !over) {
      over = element("p", "note deal-entry-over", text("over"));
      entry.appendChild(over);
    }
    if (over) { over.hidden = !played.finished; }
  }

  /* The deals kept, scored, at the top of the game's history (templates/games/_deal.html,
     rendered by the worker): newest first, each said to be on this phone only. */
  /** @param {{deals: PlayedDeal[]}} played */
  function showInHistory(played) {
    var history = document.getElementById("history");
    if (!history) { return; }
    history.querySelectorAll(".deals-kept").forEach(function (old) { old.remove(); });
    var scored = played.deals.filter(function (deal) { return deal.html; });
    const none = /** @type {HTMLElement | null} */ (history.querySelector(":scope > p.meta"));
    if (none) { none.hidden = scored.length > 0 || Boolean(history.querySelector(".deals-learnt")); }
    if (!scored.length) { return; }
    var list = dealList(scored, "deals-kept");
    list.setAttribute("aria-label", text("historyKept"));
    var heading = history.querySelector("h2");
    if (heading) { heading.after(list); } else { history.prepend(list); }
  }

  /* The deals the server stores that a page kept before them lacks (the engine's, from the
     phone's record): above the page's own, as the server's history would show them. */
  /** @param {PlayedDeal[]} recent */
  function showLearnt(recent) {
    var history = document.getElementById("history");
    if (!history) { return; }
    history.querySelectorAll(".deals-learnt").forEach(function (old) { old.remove(); });
    var newest = history.querySelector("li.deal[id^='deal-']");
    var inPage = newest ? parseInt(newest.id.slice("deal-".length), 10) || 0 : 0;
    var missing = recent.filter(function (deal) { return deal.html && deal.number > inPage; });
    if (!missing.length) { return; }
    var list = dealList(missing, "deals-learnt");
    const none = /** @type {HTMLElement | null} */ (history.querySelector(":scope > p.meta"));
    if (none) { none.hidden = true; }
    var before = history.querySelector(".deals-kept") || history.querySelector("h2");
    if (before) { before.after(list); } else { history.prepend(list); }
  }

  /**
   * Deals scored, newest first: each as the worker rendered it with the server's own
   * templates/games/_deal.html.
   * @param {PlayedDeal[]} scored
   * @param {string} kind the list's class
   */
  function dealList(scored, kind) {
    var list = element("ol", "deals " + kind);
    scored.slice().reverse().forEach(function (deal) {
      if (deal.html) { list.appendChild(fragment(deal.html)); }
    });
    return list;
  }

  /* The server's scoreboard as the engine works it out from the phone's record: on a page
     kept before the record, until the server's live parts come. Each side keeps its row
     (the copy's, the same game); its score, last change, dealer and winner are the
     record's. */
  /** @param {Stored} board */
  function showStored(board) {
    var scoreboard = document.getElementById("scoreboard");
    if (!scoreboard) { return; }
    var rows = scoreboard.querySelectorAll(".score-row");
    if (rows.length !== board.sides.length) { return; }
    board.sides.forEach(function (side, index) {
      var row = rows[index];
      var dealer = side.dealer && !board.finished;
      row.classList.toggle("is-dealer", dealer);
      row.classList.toggle("is-winner", side.winner);
      row.classList.remove("is-bidding");
      var score = row.querySelector(".score");
      if (score) { score.textContent = String(side.score); }
      var delta = row.querySelector(".delta");
      if (delta) { delta.textContent = side.delta || ""; }
      var tags = row.querySelector(".tags");
      if (!tags) { return; }
      tags.querySelectorAll(".tag-dealer, .tag-win").forEach(function (tag) { tag.remove(); });
      if (dealer) { tags.prepend(element("span", "tag tag-dealer", row.classList.contains("is-team") ? board.dealer_line : text("dealsNext"))); }
      if (side.winner) { tags.appendChild(element("span", "tag tag-win", text("winner"))); }
    });
    var meta = scoreboard.querySelector(".scoreboard-head .meta");
    if (meta) { meta.replaceChildren(fragment(board.meta)); }
    /* The copy's last deal is not the last one: the history says it. */
    var last = /** @type {HTMLElement | null} */ (scoreboard.querySelector(".last-deal"));
    if (last) { last.hidden = true; }
    fitTurn(board);
    showLearnt(board.recent || []);
  }

  /* A page kept before what the phone knows (static/state.js): shown from the record at
     once, as the engine last worked it out, and again once the engine holds the record. */
  /** @returns {Promise<unknown>} */
  function showRecord() {
    if (madeHere) { return Promise.resolve(); }
    return newerThanPage(game).then(function (record) {
      if (!record) { return; }
      if (loaded && loadedFrom === record.document) { showStored(loaded); return; }
      if (record.board) { showStored(/** @type {Stored} */ (record.board)); }
    }).catch(function () { return null; });
  }

  /** @returns {Promise<unknown>} */
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
      /** @type {Played} */
      const played = JSON.parse(answer);
      var box = outbox();
      if (!box) { return; }
      fitTurn(played);
      played.deals.forEach(function (deal, index) {
        var item = document.getElementById("kept-" + deal.number);
        if (!item) { return; }
        item.querySelectorAll(".outbox-score, .outbox-refused").forEach(function (e) { e.remove(); });
        var part = document.createElement("div");
        if (deal.score) {
          part.className = "outbox-score";
          part.appendChild(fragment(deal.score));
        } else {
          part.className = "outbox-refused";
          var list = document.createElement("ul");
          list.className = "preview-problems";
          (deal.refused || []).forEach(function (message) { var li = document.createElement("li"); li.textContent = message; list.appendChild(li); });
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
      var made = fragment(played.board_html);
      /* The page of a game started on this phone has its scoreboard from here alone. */
      var board = place ? place.querySelector(".outbox-board") : box.querySelector(".outbox-board");
      if (board) { board.replaceWith(made); } else if (place) { place.appendChild(made); } else { box.insertBefore(made, box.querySelector(".outbox-deals")); }
    }).catch(function () { return null; });
  }

  /* Shown from the record as soon as this module runs, and again each time the outbox
     has read the deals kept (and numbered the form: this module may load after it). */
  showRecord();
  onKept(function () { showRecord().then(scoreKept).then(preview); });

  /* A live answer (a deal saved here or on another phone): the game as stored again. */
  document.addEventListener("htmx:afterSettle", function (event) {
    const target = detailOf(event).target;
    if (target && (target.id === "game" || target.id === "scoreboard") && navigator.onLine !== false && !madeHere) { load(); }
  });

  function idle() {
    if (window.requestIdleCallback) { window.requestIdleCallback(start, { timeout: 3000 }); } else { window.setTimeout(start, 1000); }
  }
  if (document.readyState === "complete") { idle(); } else { window.addEventListener("load", idle); }

  phone.ready = () => ready && Boolean(loaded);
  phone.call = call;
  /* The preview as it is put under the form (without what goes beside a folded section). */
  phone.render = (html) => {
    const holder = document.createElement("div");
    holder.appendChild(fragment(html));
    holder.querySelectorAll("[hx-swap-oob]").forEach((part) => { part.remove(); });
    return holder.innerHTML;
  };
}
