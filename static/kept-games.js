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
   nothing kept. Every page works without this file: the form then posts as it always did. */
import { ANSWER_WITHIN, button, detailOf, fill, htmx, later, messages, postForm, sender, targetOf, whenParsed, words } from "./common.js";
import { store } from "./store.js";

/**
 * A game started on this phone, kept until the server has started it.
 * @typedef {object} KeptGame
 * @property {number} [key] its place in the store
 * @property {string} id the game's id, made here
 * @property {string} token its edit token, made here
 * @property {string} body the new-game form's fields
 * @property {string} what what it is, as the player sees it
 * @property {string} made_at when it was started (ISO)
 * @property {"waiting" | "refused"} state
 * @property {string} why the server's reason, when it refused
 */

const me = /** @type {HTMLElement | null} */ (document.querySelector("script[data-new-game]"));
const NEW_GAME = me && me.dataset.newGame ? me.dataset.newGame : "/games/new";
const GAME = me && me.dataset.game ? me.dataset.game : "/games/{id}";
const MADE_HERE = me && me.dataset.madeHere ? me.dataset.madeHere : "/offline/games/{ruleset}";
/** @type {KeptGame[]} */
let kept = [];
const channel = window.BroadcastChannel ? new BroadcastChannel("scorekeeper-games") : null;

/* --- the store: IndexedDB `scorekeeper`'s `games` (static/store.js) -------------------- */

/**
 * @param {IDBTransactionMode} mode
 * @param {(games: IDBObjectStore) => IDBRequest<any>} work
 */
function transact(mode, work) { return store.transact("games", mode, work); }

async function readAll() {
  kept = (await transact("readonly", (games) => games.getAll())) || [];
  render();
  return kept;
}

function changed() {
  if (channel) { channel.postMessage("changed"); }
  return readAll();
}

/** @param {KeptGame} entry */
async function put(entry) {
  await transact("readwrite", (games) => games.put(entry));
  return changed();
}

/** @param {number | undefined} key */
async function drop(key) {
  await transact("readwrite", (games) => games.delete(/** @type {number} */ (key)));
  return changed();
}

/* --- what the page shows ------------------------------------------------------------- */

function box() { return document.getElementById("kept-games"); }

/**
 * @param {string} name
 * @param {import("./common.js").Values} [values]
 */
function text(name, values) { return words(box(), name, values); }

/** @param {string} message */
function say(message) {
  const element = box();
  const line = element ? element.querySelector(".kept-games-said") : null;
  if (line) { line.textContent = message; }
}

function render() {
  const element = box();
  if (!element) { return; }
  const list = /** @type {HTMLElement} */ (element.querySelector(".kept-games-list"));
  list.textContent = "";
  kept.forEach((entry) => {
    const item = document.createElement("li");
    item.className = `kept-game is-${entry.state}`;
    item.id = `kept-game-${entry.key}`;
    const what = document.createElement("p");
    what.className = "kept-game-what";
    what.textContent = entry.what;
    item.appendChild(what);
    const line = document.createElement("p");
    line.textContent = text(entry.state, { why: entry.why || text("unknown") });
    item.appendChild(line);
    if (entry.state === "waiting") {
      /* Its page on this phone: the deals are entered, kept and scored there. */
      const play = document.createElement("a");
      play.className = "button primary";
      play.href = madeHere(entry);
      play.textContent = text("play");
      item.appendChild(play);
    }
    if (entry.state === "refused") {
      const actions = document.createElement("div");
      actions.className = "actions";
      actions.appendChild(button(text("toForm"), "keptGame", "form", String(entry.key)));
      actions.appendChild(button(text("discard"), "keptGame", "discard", String(entry.key)));
      item.appendChild(actions);
    }
    list.appendChild(item);
  });
  const said = element.querySelector(".kept-games-said");
  element.hidden = kept.length === 0 && !(said && said.textContent);
}

/** @param {KeptGame} entry */
function madeHere(entry) {
  const ruleset = new URLSearchParams(entry.body).get("ruleset") || "";
  return `${MADE_HERE.replace("{ruleset}", encodeURIComponent(ruleset))}#${encodeURIComponent(entry.id)}`;
}

/* --- the new-game form ----------------------------------------------------------------- */

function newGameForm() { return /** @type {HTMLFormElement | null} */ (document.querySelector("form[data-kept-games]")); }

/** @param {number} bytes */
function random(bytes) {
  const values = crypto.getRandomValues(new Uint8Array(bytes));
  let binary = "";
  values.forEach((b) => { binary += String.fromCharCode(b); });
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * "Shmear to 11: Ann, Bob, Cy, Di", read from the form as the player sees it.
 * @param {HTMLFormElement} form
 * @param {URLSearchParams} body
 */
function describe(form, body) {
  const chosen = /** @type {HTMLInputElement | null} */ (form.querySelector('input[name="ruleset"]:checked'));
  const label = chosen && chosen.labels && chosen.labels[0] ? (chosen.labels[0].textContent || "").trim() : body.get("ruleset") || "";
  /** @type {string[]} */
  const names = [];
  body.forEach((value, name) => {
    if (/^players-\d+$/.test(name) && value.trim()) { names.push(value.trim()); }
  });
  return text("what", { game: label, target: body.get("target") || "", players: names.join(", ") });
}

/* No connection: the phone says so, or this page is the copy the phone kept because the
   server did not answer (a post from it would most likely get no answer either). */
function cutOff() {
  return navigator.onLine === false || document.documentElement.dataset.offlineCopy !== undefined;
}

/**
 * Keep the game on this phone; `said` names the sentence that says why.
 * @param {KeptGame} entry
 * @param {string} said
 */
async function keepGame(entry, said) {
  try {
    await put(entry);
  } catch {
    say(text("notKept"));
    render();
    return;
  }
  say(text(said));
  render();
  box()?.scrollIntoView({ block: "start" });
  send(); /* the server may answer again already */
}

/**
 * The new setup fields in the form, set up as the page's own.
 * @param {Element} now
 * @param {Element} fields
 */
function adopt(now, fields) {
  const adopted = /** @type {HTMLElement} */ (document.importNode(fields, true));
  now.replaceWith(adopted);
  if (htmx()) { htmx().process(adopted); }
  adopted.dispatchEvent(new Event("scorekeeper:setup", { bubbles: true }));
  return adopted;
}

/**
 * Its refusal (the setup is wrong): the server's form, with its messages, as without this
 * file; nothing is kept.
 * @param {HTMLFormElement} form
 * @param {string} html
 */
function showRefused(form, html) {
  const page = new DOMParser().parseFromString(html, "text/html");
  const fields = page.querySelector("form[data-kept-games] #setup-fields");
  const now = form.querySelector("#setup-fields");
  if (!fields || !now) {
    /* Not the form (a page the server shows for a refused post of any kind): shown whole. */
    document.open();
    document.write(html);
    document.close();
    return;
  }
  const adopted = adopt(now, fields);
  const first = adopted.querySelector(".form-errors, .has-error") || adopted;
  first.scrollIntoView({ block: "start" });
}

/**
 * The new-game form's post of a game made here: its fields, the id and edit token made on
 * this phone, and `more` (a fresh CSRF token, when it was started). The answer to a game
 * started is a redirect to it: not followed here, the page goes there itself, and the
 * redirect has given this browser its edit rights. A post that hangs is given up after the
 * time a deal's save is, so it holds back no later try.
 * @param {string} url
 * @param {KeptGame} entry
 * @param {Record<string, string>} more
 */
function postGame(url, entry, more) {
  const body = new URLSearchParams(entry.body);
  body.set("offline_id", entry.id);
  body.set("offline_token", entry.token);
  Object.keys(more).forEach((name) => { body.set(name, more[name]); });
  return postForm(url, body, { redirect: "manual" });
}

/**
 * Online: the form's post, with the id and token made here, so that the game kept when no
 * answer comes (no answer in time, a server error: the rule deals are kept by) is the same
 * game, stored once even if this post reached the server.
 * @param {HTMLFormElement} form
 * @param {KeptGame} entry
 */
async function startOnline(form, entry) {
  form.dataset.starting = "1";
  const url = new URL(form.getAttribute("action") || "", location.href).href;
  /** @type {Response} */
  let response;
  try {
    response = await postGame(url, entry, {});
  } catch {
    delete form.dataset.starting;
    return keepGame(entry, "unanswered");
  }
  if (response.type === "opaqueredirect") {
    /* Started: the redirect gave this browser its edit rights; the game opens. */
    location.assign(GAME.replace("{id}", encodeURIComponent(entry.id)));
    return null;
  }
  delete form.dataset.starting;
  if (later(response.status)) { return keepGame(entry, "unanswered"); }
  return showRefused(form, await response.text());
}

/**
 * Another game chosen with no connection: its setup from the copy of its page, with the
 * names typed, or those of a recent line-up (`names`).
 * @param {HTMLFormElement} form
 * @param {string[]} [names]
 */
async function switchOffline(form, names) {
  const chosen = /** @type {HTMLInputElement | null} */ (form.querySelector('input[name="ruleset"]:checked'));
  if (!chosen || !window.caches) { return; }
  const url = new URL(form.getAttribute("action") || "", location.href);
  url.searchParams.set("ruleset", chosen.value);
  try {
    const copy = await caches.match(url.href, { ignoreVary: true });
    const html = copy ? await copy.text() : null;
    const now = form.querySelector("#setup-fields");
    const page = html ? new DOMParser().parseFromString(html, "text/html") : null;
    const fields = page ? page.querySelector("#setup-fields") : null;
    if (!now || !fields) { return; }
    /** @param {ParentNode} root @param {string} selector */
    const input = (root, selector) => /** @type {HTMLInputElement | null} */ (root.querySelector(selector));
    /* What was typed stays, as the server's own refresh keeps it: the names, and a target
       the player changed (the box no longer holds the one it was filled with). */
    fields.querySelectorAll('input[name^="players-"]').forEach((found) => {
      const name = /** @type {HTMLInputElement} */ (found).name;
      const typed = input(now, `input[name="${CSS.escape(name)}"]`);
      if (typed) { found.setAttribute("value", typed.value); }
    });
    const target = input(now, 'input[name="target"]');
    const shown = input(now, 'input[name="target_shown"]');
    const typedTarget = target ? target.value.trim() : "";
    if (typedTarget && shown && typedTarget !== shown.value.trim()) {
      const targetBox = fields.querySelector('input[name="target"]');
      if (targetBox) { targetBox.setAttribute("value", typedTarget); }
    }
    if (names) {
      fields.querySelectorAll('input[name^="players-"]').forEach((found) => {
        const seat = Number(/** @type {HTMLInputElement} */ (found).name.slice("players-".length));
        found.setAttribute("value", names[seat] || "");
      });
    }
    const token = input(now, 'input[name="csrf_token"]');
    const theirs = fields.querySelector('input[name="csrf_token"]');
    if (token && theirs) { theirs.setAttribute("value", token.value); }
    adopt(now, fields);
  } catch {
    /* no copy of that page: the form stays as it is */
  }
}

/* --- sending what is kept ------------------------------------------------------------ */

/**
 * A token for this browser's session as it is now (the copy's may be older).
 * @param {string} url
 */
async function freshToken(url) {
  /** @type {RequestInit} */
  const options = { credentials: "same-origin" };
  if (window.AbortSignal && AbortSignal.timeout) { options.signal = AbortSignal.timeout(ANSWER_WITHIN); }
  const response = await fetch(url, options);
  if (!response.ok) { throw new Error("no answer"); }
  const html = await response.text();
  const input = /** @type {HTMLInputElement | null} */ (new DOMParser().parseFromString(html, "text/html").querySelector('input[name="csrf_token"]'));
  if (!input) { throw new Error("no token"); }
  return input.value;
}

/**
 * Send one kept game; the game when the server started it, else null.
 * @param {KeptGame} entry
 * @param {string} url
 * @returns {Promise<KeptGame | null>}
 */
async function sendOne(entry, url) {
  /** @type {Response} */
  let response;
  try {
    const token = await freshToken(url);
    response = await postGame(url, entry, { csrf_token: token, made_at: entry.made_at });
  } catch {
    return null; /* no answer: later */
  }
  if (response.type === "opaqueredirect") {
    await drop(entry.key);
    return entry;
  }
  if (later(response.status)) { return null; }
  const html = await response.text();
  say("");
  await put({ ...entry, state: "refused", why: messages(new DOMParser().parseFromString(html, "text/html"), ".form-errors li, .field-errors li") });
  return null;
}

/* The game this page is for, when it is the page of a game started on this phone. */
function pageGame() {
  const outbox = document.getElementById("outbox");
  return document.querySelector("[data-made-here-game]") && outbox ? outbox.dataset.game || null : null;
}

/* Send the games kept, oldest first. One started: this phone holds its edit rights; from
   home, the new-game page or the game's page on this phone it goes to the game at once
   (elsewhere the game waits in the list on home); there the deals kept for it are sent, in
   order. */
async function sendAll() {
  await readAll();
  const url = new URL(NEW_GAME, location.href).href;
  /** @type {KeptGame | null} */
  let started = null;
  for (const entry of kept.filter((e) => e.state === "waiting")) {
    const done = await sendOne(entry, url);
    if (done && (!started || done.id === pageGame())) { started = done; }
  }
  if (started && (box() || started.id === pageGame())) {
    location.assign(GAME.replace("{id}", encodeURIComponent(started.id)));
  }
}

const send = sender("scorekeeper-games", () => kept.some((e) => e.state === "waiting"), sendAll);

/* --- the scorekeeper's choices for a game the server would not start ----------------- */

/** @param {KeptGame} entry */
function toForm(entry) {
  const params = new URLSearchParams(entry.body);
  const url = new URL(NEW_GAME, location.href);
  url.searchParams.set("ruleset", params.get("ruleset") || "");
  url.hash = `kept-game-${entry.key}`;
  if (url.pathname === location.pathname && url.search === location.search) {
    location.hash = url.hash;
    fillForm();
  } else {
    location.assign(url.href);
  }
}

/* Back on the new-game page for a game the server refused: its choices in the form. */
function fillForm() {
  const found = /^#kept-game-(\d+)$/.exec(location.hash);
  const form = newGameForm();
  if (!found || !form) { return; }
  const entry = kept.find((e) => String(e.key) === found[1]);
  if (!entry) { return; }
  fill(form, entry.body, (name) => name === "target_shown");
  drop(entry.key).then(() => {
    history.replaceState(null, "", location.pathname + location.search);
    form.scrollIntoView({ block: "start" });
  });
}

function listen() {
  if (channel) { channel.onmessage = () => { readAll(); }; }

  document.addEventListener("submit", (event) => {
    const form = newGameForm();
    if (!form || event.target !== form) { return; }
    const offline = cutOff();
    const body = new URLSearchParams(/** @type {any} */ (event.submitter ? new FormData(form, event.submitter) : new FormData(form)));
    if (body.get("switch") && !offline) { return; }
    event.preventDefault();
    event.stopPropagation();
    if (form.dataset.starting) { return; } /* tapped again while the first is on its way */
    if (body.get("switch")) { switchOffline(form); return; }
    /* "Draw at random" is drawn here: the deals entered on this phone are dealt from it. */
    if (body.get("first_dealer") === "random") {
      let seats = 0;
      body.forEach((value, name) => {
        const seat = /^players-(\d+)$/.exec(name);
        if (seat && value.trim()) { seats = Math.max(seats, Number(seat[1]) + 1); }
      });
      if (seats) { body.set("first_dealer", String(crypto.getRandomValues(new Uint32Array(1))[0] % seats)); }
    }
    /** @type {KeptGame} */
    const entry = {
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
  window.addEventListener("pageshow", () => {
    const form = newGameForm();
    if (form) { delete form.dataset.starting; }
  });

  /* "Same players again?" with no connection: that line-up's game and names, from the
     copy (the line-up's own address was never kept). */
  document.addEventListener("click", (event) => {
    const link = /** @type {HTMLElement | null} */ (targetOf(event)?.closest("a[data-names]") || null);
    const form = newGameForm();
    if (!link || !form || !cutOff()) { return; }
    /** @type {unknown} */
    let names;
    try { names = JSON.parse(link.dataset.names || ""); } catch { return; }
    const chip = /** @type {HTMLInputElement | null} */ (form.querySelector(`input[name="ruleset"][value="${CSS.escape(link.dataset.ruleset || "")}"]`));
    if (!chip || !Array.isArray(names)) { return; }
    event.preventDefault();
    chip.checked = true;
    switchOffline(form, names);
    form.scrollIntoView({ block: "start" });
  });

  /* The setup's own refresh (htmx) that got no answer: the ruleset's comes from the copy. */
  document.addEventListener("htmx:sendError", (event) => {
    const form = newGameForm();
    const elt = detailOf(event).elt;
    if (!form || !elt || !form.contains(elt) || elt.id === "house-rules") { return; }
    switchOffline(form);
  });

  document.addEventListener("click", (event) => {
    const target = /** @type {HTMLElement | null} */ (targetOf(event)?.closest("[data-kept-game]") || null);
    if (!target) { return; }
    const entry = kept.find((e) => String(e.key) === target.dataset.key);
    if (!entry) { return; }
    if (target.dataset.keptGame === "discard") { drop(entry.key); }
    else if (target.dataset.keptGame === "form") { toForm(entry); }
  });

  whenParsed(() => { readAll().then(() => { fillForm(); return send(); }); });
}

if (window.indexedDB) { listen(); }
