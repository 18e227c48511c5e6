/* The page of a game started on this phone with no connection (templates/offline/game.html,
   kept by the service worker from the start, one per ruleset). Its address ends with
   "#<the game's id>": this reads that game from the phone (IndexedDB `games`, kept by
   static/kept-games.js), writes its names in, and puts in the deal entry the server made
   for its setup (its seats and house rules). Then the page is a game page like any other
   for the other scripts: the outbox (static/outbox.js) keeps each deal saved for
   the game's id and sends them, in order, once the server has started the game; the
   phone's engine (static/phone.js) previews and scores them, and shows the scoreboard.
   Nothing of the rules is here: which entry fits a setup, the server said. */
import { readAll } from "./outbox.js";
import { store } from "./store.js";

/**
 * The game of this page: its id (from the address), and its new-game fields as kept, once
 * read (static/phone.js starts the engine's game from them).
 * @typedef {object} MadeHere
 * @property {string} id
 * @property {Promise<{body: string, what?: string}>} setup
 */

/**
 * @param {string} text
 * @returns {string}
 */
function escape(text) {
  /** @type {Record<string, string>} */
  const entities = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
  return text.replace(/[&<>"']/g, (c) => entities[c]);
}

/** @returns {MadeHere | null} */
function setUp() {
  const page = /** @type {HTMLElement | null} */ (document.querySelector("[data-made-here-game]"));
  const box = document.getElementById("outbox");
  if (!page || !box) { return null; }
  const MARK = page.dataset.madeHereGame || "";
  let id = "";
  try { id = decodeURIComponent(location.hash.slice(1)); } catch { id = ""; }
  const known = /^[A-Za-z0-9_-]{16,64}$/.test(id);

  function missing() {
    const note = /** @type {HTMLElement | null} */ (document.querySelector("[data-made-here-missing]"));
    if (note) { note.hidden = false; }
    const entry = document.getElementById("deal-entry");
    if (entry) { entry.hidden = true; }
  }

  /* Known at once, before the outbox and the engine read it: the game this page is for. */
  if (known) {
    box.dataset.game = id;
    if (box.dataset.export) { box.dataset.export = box.dataset.export.replace(MARK, encodeURIComponent(id)); }
  }

  /** @type {(kept: {body: string, what?: string}) => void} */
  let found = () => {};
  /** @type {Promise<{body: string, what?: string}>} */
  const setup = new Promise((resolve) => { found = resolve; });

  /**
   * The names in seat order, as the new-game form reads them: empty seats at the end that
   * the game does not need are left out.
   * @param {URLSearchParams} body
   */
  function names(body) {
    const most = Number(page?.dataset.maxPlayers);
    const least = Number(page?.dataset.minPlayers);
    /** @type {string[]} */
    const seats = [];
    for (let seat = 0; seat < most; seat += 1) { seats.push((body.get(`players-${seat}`) || "").trim()); }
    while (seats.length > least && !seats[seats.length - 1]) { seats.pop(); }
    return seats;
  }

  /**
   * The deal entry of this setup, from the entries the page carries (a base per seat count
   * and the lines each setup changes in it).
   * @param {URLSearchParams} body
   * @param {string[]} players
   * @returns {string | null}
   */
  function entryFor(body, players) {
    const element = document.getElementById("made-here-entries");
    /** @type {{bases: string[], variants: {setups: string[], base: number, patch: [number, number, string[]][]}[]} | null} */
    const data = element ? JSON.parse(element.textContent || "null") : null;
    if (!data || !page) { return null; }
    const rules = page.dataset.houseRules ? page.dataset.houseRules.split(" ") : [];
    const defaults = page.dataset.defaults ? page.dataset.defaults.split(" ") : [];
    const key = [String(players.length), ...rules.map((name, index) => body.get(`hr_${name}`) || defaults[index])].join(" ");
    const variant = data.variants.find((v) => v.setups.indexOf(key) >= 0);
    if (!variant) { return null; }
    const lines = data.bases[variant.base].split("\n");
    /* From the last change to the first, so each keeps its line numbers. */
    variant.patch.slice().reverse().forEach(([from, to, instead]) => { lines.splice(from, to - from, ...instead); });
    return lines.join("\n");
  }

  /** @param {{body: string, what?: string}} kept */
  function build(kept) {
    const body = new URLSearchParams(kept.body);
    const players = names(body);
    let html = entryFor(body, players);
    if (html === null) { missing(); return; }
    html = html.split(`/${MARK}/`).join(`/${encodeURIComponent(id)}/`)
      .replace(/\u27e6(\d+)\u27e7/g, (all, seat) => escape(players[Number(seat)] || ""));
    const holder = document.createElement("div");
    holder.innerHTML = html;
    const entry = holder.querySelector("#deal-entry");
    const placeholder = document.getElementById("deal-entry");
    if (!entry || !placeholder) { missing(); return; }
    /* A plain form: the outbox keeps every save of a game the server does not know yet. */
    entry.querySelectorAll("*").forEach((element) => {
      Array.from(element.attributes).forEach((attribute) => {
        if (attribute.name.indexOf("hx-") === 0) { element.removeAttribute(attribute.name); }
      });
    });
    /* With the names written in, a chip is wide for a long label, as the server makes it. */
    entry.querySelectorAll("label.chip").forEach((chip) => {
      const input = /** @type {HTMLInputElement | null} */ (chip.querySelector("input"));
      const label = chip.querySelector(".suit-name") || chip.querySelector("span");
      const value = input ? input.value : "";
      const wide = value === "none" || value === "random" || (label && (label.textContent || "").trim().length > 12);
      chip.classList.toggle("chip-wide", Boolean(wide));
    });
    /* Who deals and who speaks first come from the phone's engine (static/phone.js). */
    entry.querySelectorAll("[data-turn]").forEach((turn) => { /** @type {HTMLElement} */ (turn).hidden = true; });
    placeholder.replaceWith(entry);
    const title = document.querySelector("[data-made-here-title]");
    if (title) { title.textContent = players.join(", "); }
    document.title = `${players.join(", ")} · ${document.title.split(" · ").pop()}`;
    const what = document.querySelector("[data-made-here-what]");
    if (what) { what.textContent = kept.what || ""; }
    /* The outbox numbers the form after the deals kept; the page's scripts set it up. */
    readAll();
    const form = document.getElementById("deal-form");
    if (form) { form.dispatchEvent(new Event("change", { bubbles: true })); }
    found(kept);
  }

  async function start() {
    if (!known) { missing(); return; }
    try {
      const all = /** @type {{id: string, body: string, what?: string}[] | undefined} */ (await store.transact("games", "readonly", (games) => games.getAll()));
      const kept = (all || []).find((entry) => entry.id === id);
      if (kept) { build(kept); } else { missing(); }
    } catch {
      missing();
    }
  }

  /* Once every script has run (the page's own set the form up). */
  if (document.readyState === "complete") {
    start();
  } else {
    document.addEventListener("DOMContentLoaded", start);
  }
  return { id, setup };
}

/** The game started on this phone that this page is for; null on any other page. */
export const madeHere = setUp();
