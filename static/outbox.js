/* Never a silent save. A deal saved while the server cannot be reached (no signal, no
   answer in time, a server error) is kept on this phone at once, in IndexedDB (it outlasts
   a reload and a closed tab), shown as saved on this phone but not sent yet, and sent by
   itself, oldest first and with the deal number it was entered as, as soon as the server
   answers again. A kept deal the server will not take (another phone saved that number, or
   the rules refuse it) stays kept and shown until the scorekeeper chooses what to do: for
   a deal another phone saved first, both deals are shown, and the choice is to keep theirs
   and drop mine, to add mine as the next deal, or to correct theirs to mine. What is
   decided (which deal goes, its number, what a refusal keeps) is static/queue.js.
   Every page works without this file: the form then posts as it always did. */
import { ANSWER_WITHIN, button, detailOf, fill, htmx, later, messages, postForm, sender, targetOf, whenParsed, words } from "./common.js";
import { before, editing, formNumber, lastKept, movedOn, nextToSend, ofGame, postOf, refused, storedDeals, toKeep } from "./queue.js";
import { mayAsk, newerThanPage, refresh } from "./state.js";
import { store } from "./store.js";

/** @typedef {import("./queue.js").KeptDeal} KeptDeal */

export { store };

const DEALS = /\/games\/([^/?#]+)\/deals$/;
const usable = Boolean(window.indexedDB);

/** @type {KeptDeal[]} the deals kept on this phone, oldest first, as last read */
let kept = [];
/** @type {Set<string>} games started on this phone the server has not started yet */
let held = new Set();
/** @type {number} the deals the phone knows the server stores, when the page shown is older */
let stored = 0;
/** @type {Set<() => void>} */
const listeners = new Set();
const channel = window.BroadcastChannel ? new BroadcastChannel("scorekeeper-outbox") : null;

/** What the phone's engine reads: the deals kept, oldest first, as last read. */
export function keptDeals() { return kept.slice(); }

/**
 * Be told each time the deals kept have been read again (static/phone.js scores them).
 * @param {() => void} listener
 */
export function onKept(listener) { listeners.add(listener); }

/**
 * @param {string} mode
 * @param {(store: IDBObjectStore) => IDBRequest<any> | null} work
 */
function transact(mode, work) {
  return store.transact("outbox", /** @type {IDBTransactionMode} */ (mode), work);
}

/* The games started on this phone that the server has not started yet (static/kept-
   games.js): their deals are kept, never posted, until it has. */
async function readHeld() {
  try {
    const all = /** @type {{id: string}[] | undefined} */ (await store.transact("games", "readonly", (games) => games.getAll()));
    held = new Set((all || []).map((game) => game.id));
  } catch {
    /* the games are read again next time */
  }
}

/* What the phone knows of the page's game, when the page is a copy kept before it: its
   form is then numbered after the deals stored (static/state.js). */
async function readStored() {
  const game = pageGame();
  const record = game && !madeHere() ? await newerThanPage(game) : undefined;
  stored = record ? storedDeals(record.document) : 0;
}

/**
 * Keep the page game's document again (static/state.js), once the server told of a change.
 * @param {number | null} version the version the page shows, null when not known yet
 */
export function learn(version) {
  const element = box();
  const game = pageGame();
  if (!element || !game || madeHere() || !element.dataset.export) { return Promise.resolve(undefined); }
  return refresh(game, element.dataset.export, version);
}

/** The phone's record of the page's game, asked of the server again if it moved on. */
export function learnt() { return learn(shownVersion()); }

/** The game's version the page shows (its scoreboard's), null if none. */
function shownVersion() {
  const board = document.querySelector("[data-live][data-events]");
  const version = board ? Number(/** @type {HTMLElement} */ (board).dataset.version) : NaN;
  return Number.isNaN(version) ? null : version;
}

/** Read the deals kept again, show them, and tell who listens. */
export async function readAll() {
  const [all] = await Promise.all([transact("readonly", (outbox) => outbox.getAll()), readHeld(), readStored()]);
  kept = all || [];
  render();
  fitForm();
  listeners.forEach((listener) => listener());
  return kept;
}

function changed() {
  if (channel) { channel.postMessage("changed"); }
  return readAll();
}

/** @param {KeptDeal[]} entries */
async function put(entries) {
  await transact("readwrite", (outbox) => {
    /** @type {IDBRequest<IDBValidKey> | null} */
    let last = null;
    entries.forEach((entry) => { last = outbox.put(entry); });
    return last;
  });
  return changed();
}

/** @param {number | undefined} key */
async function drop(key) {
  await transact("readwrite", (outbox) => outbox.delete(/** @type {number} */ (key)));
  return changed();
}

/* --- which deals, which game ------------------------------------------------------- */

/**
 * @param {string | null} url
 * @returns {string | null}
 */
function gameOf(url) {
  const found = DEALS.exec(new URL(url || "", location.href).pathname);
  return found ? found[1] : null;
}

function box() { return document.getElementById("outbox"); }

function pageGame() {
  const element = box();
  return element ? element.dataset.game || null : null;
}

/* The game of the page of a game started on this phone (static/made-here.js): its deals
   are kept, never sent from that page; once the server has started the game, the phone
   opens the server's page of it, which sends them. */
function madeHere() {
  return document.querySelector("[data-made-here-game]") ? pageGame() : null;
}

/**
 * @param {Element | null} form
 * @returns {form is HTMLFormElement}
 */
function isDealForm(form) {
  return Boolean(form && form.matches("#deal-form, .flag-form") && form.closest("#deal-entry"));
}

/**
 * A deal form's post, even from a form a live answer has since replaced on the page.
 * @param {Element | null} form
 * @returns {form is HTMLFormElement}
 */
function isDealPost(form) {
  return Boolean(form && form.matches("#deal-form, .flag-form") && gameOf(form.getAttribute("action")));
}

function skipped() {
  const here = madeHere();
  return (/** @type {string} */ game) => held.has(game) || game === here;
}

/* --- what the page shows ------------------------------------------------------------- */

/**
 * @param {string} name
 * @param {import("./common.js").Values} [values]
 */
function text(name, values) { return words(box(), name, values); }

/**
 * @param {string} message
 * @param {string} kind
 */
function say(message, kind) {
  const flash = document.querySelector("#game .flash");
  if (!flash || !message) { return; }
  flash.textContent = "";
  const line = document.createElement("p");
  line.className = kind ? `is-${kind}` : "";
  line.textContent = message;
  flash.appendChild(line);
}

function render() {
  const element = box();
  if (!element) { return; }
  const list = /** @type {HTMLElement} */ (element.querySelector(".outbox-deals"));
  const mine = ofGame(kept, element.dataset.game || null);
  list.textContent = "";
  mine.forEach((entry) => {
    const item = document.createElement("li");
    item.className = `outbox-deal is-${entry.state}`;
    item.id = `kept-${entry.number}`;
    const line = document.createElement("p");
    const values = { n: entry.number, why: entry.why || text("unknown") };
    line.textContent = text(entry.state, values);
    item.appendChild(line);
    if (entry.state === "conflict" || entry.state === "correcting") { item.appendChild(both(entry)); }
    if (entry.state === "conflict" || entry.state === "refused") {
      const actions = document.createElement("div");
      actions.className = "actions";
      const key = String(entry.key);
      if (entry.state === "conflict" && entry.theirs) {
        /* Another phone saved this number: the same hand most often, so theirs first. */
        actions.appendChild(button(text("keepTheirs"), "outbox", "discard", key));
      }
      if (entry.state === "conflict" && entry.next) {
        actions.appendChild(button(text("asNext", { n: entry.next }), "outbox", "next", key));
      }
      if (entry.state === "conflict" && entry.theirs && entry.mine) {
        actions.appendChild(button(text("correct", values), "outbox", "correct", key));
      }
      if (entry.state === "refused") {
        actions.appendChild(button(text("toForm"), "outbox", "form", key));
      }
      if (!(entry.state === "conflict" && entry.theirs)) {
        actions.appendChild(button(text("discard"), "outbox", "discard", key));
      }
      item.appendChild(actions);
    }
    list.appendChild(item);
  });
  element.hidden = mine.length === 0;
}

/**
 * Both deals of a conflict, as the server described them when it refused this one: the
 * one stored (theirs) and the one kept here (mine, as that deal).
 * @param {KeptDeal} entry
 */
function both(entry) {
  const list = document.createElement("dl");
  list.className = "outbox-both";
  /** @type {[string, string | null | undefined, string][]} */
  const rows = [["theirsTitle", entry.theirs, "theirs"], ["mineTitle", entry.mine, "mine"]];
  rows.forEach(([title, said, whose]) => {
    if (!said) { return; }
    const term = document.createElement("dt");
    term.textContent = text(title, { n: entry.number });
    const what = document.createElement("dd");
    what.className = `outbox-${whose}`;
    what.textContent = said;
    list.appendChild(term);
    list.appendChild(what);
  });
  return list;
}

/**
 * The form on the page is for the deal after the last one kept.
 * @param {number} number
 */
function numberForm(number) {
  const entry = document.getElementById("deal-entry");
  if (!entry || !entry.querySelector("#deal-form")) { return; }
  entry.querySelectorAll('input[name="number"]').forEach((input) => { /** @type {HTMLInputElement} */ (input).value = String(number); });
  if (entry.dataset.number === String(number)) { return; }
  entry.dataset.number = String(number);
  const title = entry.querySelector("#deal-entry-title");
  /* Who deals it is known once the deals before it are scored: the heading says the number. */
  if (title) { title.textContent = text("deal", { n: number }); }
  entry.querySelectorAll("[data-stale]").forEach((note) => { /** @type {HTMLElement} */ (note).hidden = true; });
  /* Nor is who deals it and speaks first: that line waits for the server's answer. */
  entry.querySelectorAll("[data-turn]").forEach((turn) => { /** @type {HTMLElement} */ (turn).hidden = true; });
  entry.querySelectorAll(".flag-form button[type=submit]").forEach((flagButton) => {
    flagButton.textContent = (flagButton.textContent || "").replace(/\d+/, String(number));
  });
}

/** @returns {number} */
function shownNumber() {
  const input = /** @type {HTMLInputElement | null} */ (document.querySelector('#deal-form input[name="number"]'));
  return Number(input ? input.value : NaN);
}

function fitForm() {
  const game = pageGame();
  if (!game || !document.getElementById("deal-form")) { return; }
  const number = formNumber(kept, game, shownNumber(), stored);
  if (number !== null) { numberForm(number); }
}

function clearForm() {
  const entry = document.getElementById("deal-entry");
  const form = /** @type {HTMLFormElement | null} */ (document.getElementById("deal-form"));
  if (!entry || !form) { return; }
  Array.prototype.forEach.call(form.elements, (/** @type {HTMLInputElement} */ input) => {
    if (input.type === "radio" || input.type === "checkbox") { input.checked = false; }
    else if (input.type === "number" || input.type === "text") { input.value = ""; }
  });
  entry.querySelectorAll(".form-errors, .field-errors").forEach((e) => { e.remove(); });
  entry.querySelectorAll(".has-error").forEach((e) => { e.classList.remove("has-error"); });
  entry.querySelectorAll("details.flag[open]").forEach((d) => { /** @type {HTMLDetailsElement} */ (d).open = false; });
  const preview = document.getElementById("deal-preview");
  if (preview) { preview.textContent = ""; }
  /* A form that was held beside another phone's deal gets its Save button back. */
  const conflict = form.querySelector("#deal-conflict");
  if (conflict) {
    const save = document.createElement("button");
    save.type = "submit";
    save.className = "primary";
    save.dataset.save = "";
    save.textContent = text("save");
    conflict.replaceWith(save);
  }
  form.dispatchEvent(new Event("change", { bubbles: true }));
}

/* --- keeping a deal ------------------------------------------------------------------ */

/**
 * @param {HTMLFormElement} form
 * @param {URLSearchParams} body
 */
async function keep(form, body) {
  const url = new URL(form.getAttribute("action") || "", location.href).href;
  const entry = toKeep(kept, url, gameOf(url) || "", body, Date.now());
  form.dataset.keeping = "1";
  try {
    await put([entry]);
  } catch {
    /* The phone would not store it: the form keeps the taps, and says so. */
    delete form.dataset.keeping;
    say(text("notKept", { n: entry.number }), "error");
    return;
  }
  delete form.dataset.keeping;
  /* The form still shown is cleared for the next deal; one already replaced is gone. */
  if (form.isConnected) { clearForm(); }
  numberForm(lastKept(kept, entry.game) + 1);
  say(text("kept", { n: entry.number }), "kept");
  const board = document.getElementById("scoreboard");
  if (board) { board.scrollIntoView({ block: "start" }); }
  send();
}

/* --- sending what is kept ------------------------------------------------------------ */

/**
 * What the server's page said of a refused deal.
 * @param {string} html
 * @returns {import("./queue.js").Refusal}
 */
function reasons(html) {
  const page = new DOMParser().parseFromString(html, "text/html");
  const entry = /** @type {HTMLElement | null} */ (page.querySelector("#deal-entry[data-number]"));
  /** @param {string} selector */
  function said(selector) {
    const element = page.querySelector(selector);
    return element ? (element.textContent || "").replace(/\s+/g, " ").trim() : null;
  }
  return {
    why: messages(page, "#deal-conflict .conflict-title, .form-errors li, .field-errors li"),
    next: entry ? Number(entry.dataset.number) : null,
    theirs: said("#deal-conflict .conflict-saved"),
    mine: said("#deal-conflict .conflict-mine"),
  };
}

/** @param {string} game */
function catchUp(game) {
  if (game !== pageGame()) { return; }
  const board = document.querySelector("[data-live][data-events]");
  if (board && htmx()) { htmx().trigger(board, "live"); }
  if (ofGame(kept, game).length === 0) { say(text("sent"), ""); }
}

/**
 * Send the deals that may go, one after the other, until one cannot.
 * @returns {Promise<void>}
 */
async function sendNext() {
  const entry = nextToSend(kept, skipped());
  if (!entry) { return; }
  const { url, body } = postOf(entry);
  /** @type {Response} */
  let response;
  try {
    response = await postForm(url, body, { headers: { "HX-Request": "true" } });
  } catch {
    return; /* no answer: try again later */
  }
  if (response.ok) {
    await drop(entry.key);
    /* The phone's record of the game follows at once: a reload with no signal shows it. */
    if (entry.game === pageGame()) { await learn(null); }
    catchUp(entry.game);
    if (entry.state === "correcting" && entry.game === pageGame()) { say(text("corrected", { n: entry.number }), ""); }
    return sendNext();
  }
  if (later(response.status)) { return; }
  await put([refused(entry, response.status, reasons(await response.text()))]);
  catchUp(entry.game);
  return sendNext();
}

const send = sender("scorekeeper-outbox", () => Boolean(nextToSend(kept, skipped())), async () => {
  await readAll();
  return sendNext();
});

/* --- the scorekeeper's choices for a deal the server would not take ---------------- */

/** @param {KeptDeal} entry */
async function toForm(entry) {
  const form = /** @type {HTMLFormElement | null} */ (document.getElementById("deal-form"));
  if (!form) { return; }
  clearForm();
  const params = new URLSearchParams(entry.body);
  params.delete("number");
  fill(form, params.toString());
  /* Known as being edited at once, not only once the phone has stored it: a live answer
     settling in between would otherwise number the form past it. */
  /** @type {KeptDeal} */
  const fixing = { ...entry, state: "editing" };
  kept = kept.map((e) => (e.key === entry.key ? fixing : e));
  numberForm(entry.number);
  form.dispatchEvent(new Event("change", { bubbles: true }));
  await put([fixing]);
  const dealEntry = document.getElementById("deal-entry");
  if (dealEntry) { dealEntry.scrollIntoView({ block: "start" }); }
}

/**
 * With a deal discarded, the form may be for one number too far on: it follows the deals
 * still kept, or the game (its next live answer brings the right form).
 * @param {string} game
 */
function fitAfterDiscard(game) {
  if (game !== pageGame()) { return; }
  const last = lastKept(kept, game);
  if (last) { numberForm(last + 1); }
  const board = document.querySelector("[data-live][data-events]");
  if (board && htmx()) { htmx().trigger(board, "live"); }
}

/**
 * The form that asked (the event itself may reach a parent once the form is swapped out).
 * @param {Event} event
 * @returns {Element | null}
 */
function asker(event) {
  const detail = detailOf(event);
  return detail.requestConfig ? detail.requestConfig.elt : detail.elt;
}

/** @param {Event} event */
function keepFailed(event) {
  const elt = asker(event);
  if (!isDealPost(elt)) { return; }
  keep(elt, new URLSearchParams(detailOf(event).requestConfig.formData));
}

/** @param {Event} event */
function keepRefused(event) {
  if (later(detailOf(event).xhr.status)) { keepFailed(event); }
}

function listen() {
  if (channel) { channel.onmessage = () => { readAll(); }; }
  /* A game started on this phone was started on the server: its deals may go now. */
  if (window.BroadcastChannel) {
    new BroadcastChannel("scorekeeper-games").onmessage = () => { readAll().then(send); };
  }

  /* Tapped with no connection, or behind deals still waiting: keep it, do not post. */
  document.addEventListener("submit", (event) => {
    const form = targetOf(event);
    if (!isDealForm(form)) { return; }
    if (form.dataset.keeping) {
      event.preventDefault();
      event.stopPropagation();
      return;
    }
    /* With the button tapped: "Discard mine" or "Save mine as deal N" say what is meant. */
    const data = event.submitter ? new FormData(form, event.submitter) : new FormData(form);
    const body = new URLSearchParams(/** @type {any} */ (data));
    const game = gameOf(form.getAttribute("action"));
    /* A game the server does not know yet (or that only its page on this phone shows)
       keeps every deal: there is no server page to post it to. */
    const unknown = game !== null && skipped()(game);
    if (navigator.onLine !== false && !unknown && before(kept, game, Number(body.get("number"))).length === 0) { return; }
    event.preventDefault();
    event.stopPropagation();
    if (body.get("discard")) {
      /* "Discard mine" stores nothing: with no server to ask, the form is simply cleared. */
      const next = /** @type {HTMLInputElement | null} */ (form.querySelector('[name="save_as"]'));
      clearForm();
      if (next) { numberForm(Number(next.value)); }
      say(text("discarded"), "");
      return;
    }
    keep(form, body);
  }, true);

  /* A save through htmx that gets no answer in time must not hang: it is kept instead. */
  document.addEventListener("htmx:configRequest", (event) => {
    const detail = detailOf(event);
    if (isDealForm(detail.elt) && !detail.timeout) { detail.timeout = ANSWER_WITHIN; }
  });

  /* Heard on the form itself: a live answer may take it off the page while its save is on
     the way, and an event on a form no longer in the page never reaches the document. */
  document.addEventListener("htmx:beforeRequest", (event) => {
    const elt = asker(event);
    if (!isDealForm(elt) || elt.dataset.watched) { return; }
    elt.dataset.watched = "1";
    elt.addEventListener("htmx:sendError", keepFailed);
    elt.addEventListener("htmx:timeout", keepFailed);
    elt.addEventListener("htmx:responseError", keepRefused);
  });

  /* The deal kept for correcting, saved from the form: it is no longer kept. */
  document.addEventListener("htmx:afterRequest", (event) => {
    const elt = asker(event);
    const detail = detailOf(event);
    if (!isDealForm(elt) || !detail.xhr || detail.xhr.status !== 200) { return; }
    const fixed = editing(kept, gameOf(elt.getAttribute("action")), Number(detail.requestConfig.formData.get("number")));
    if (fixed) { drop(fixed.key).then(send); }
  });

  document.addEventListener("click", (event) => {
    const target = /** @type {HTMLElement | null} */ (targetOf(event)?.closest("[data-outbox]") || null);
    if (!target) { return; }
    const entry = kept.find((e) => String(e.key) === target.dataset.key);
    if (!entry) { return; }
    const action = target.dataset.outbox;
    if (action === "discard") {
      drop(entry.key).then(() => {
        if (entry.state === "conflict" && entry.theirs) { say(text("dropped", { n: entry.number }), ""); }
        fitAfterDiscard(entry.game);
        send();
      });
    } else if (action === "next") {
      put(movedOn(kept, entry)).then(send);
    } else if (action === "correct") {
      /* Kept as chosen before it is sent: a reload on the way sends the correction again. */
      put([{ ...entry, state: "correcting" }]).then(send);
    } else if (action === "form") {
      toForm(entry);
    }
  });

  /* A live answer brings the server's form for its next deal: while deals are kept on
     this phone, the form here is already past those, and stays. */
  document.addEventListener("htmx:oobBeforeSwap", (event) => {
    const detail = detailOf(event);
    if (!detail.target || detail.target.id !== "deal-entry") { return; }
    const fragment = detail.fragment;
    const incoming = fragment && fragment.querySelector ? fragment.querySelector("#deal-entry") : null;
    const last = lastKept(kept, pageGame());
    if (last && incoming && incoming.dataset.number && Number(incoming.dataset.number) <= last) {
      detail.shouldSwap = false;
    }
  });

  document.addEventListener("htmx:afterSettle", (event) => {
    const target = detailOf(event).target;
    /* A save's answer or a live update: the server's game, kept as the phone's record. */
    if (target && (target.id === "game" || target.id === "scoreboard") && navigator.onLine !== false) {
      learn(shownVersion());
    }
    render();
    fitForm();
  });
  /* A page the server just served: the game as it is now, asked once the page has loaded
     and is idle (the page's own requests come first). */
  const asOpened = () => { if (mayAsk()) { learn(shownVersion()); } };
  const idle = () => { if (window.requestIdleCallback) { window.requestIdleCallback(asOpened, { timeout: 3000 }); } else { window.setTimeout(asOpened, 1000); } };
  if (document.readyState === "complete") { idle(); } else { window.addEventListener("load", idle); }
  whenParsed(() => { readAll().then(send); });
}

if (usable) { listen(); }
