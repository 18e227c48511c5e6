/* The phone's record of a game: the last document of it the page got from the server (its
   export, /games/<id>/export.json), kept in IndexedDB (`states`, one record a game), with
   the engine's answer for it (static/phone.js: scores, dealer, who bids first, deal number).
   It is refreshed whenever the page learns of a change (a save's answer, a live update, a
   kept deal sent), so a page opened from a copy kept before that change is put right from
   it (static/outbox.js numbers the form after its deals, static/phone.js shows the
   engine's answer) at once, with no connection. No rule here: the document is the
   server's, the answer the engine's. */
import { ANSWER_WITHIN } from "./common.js";
import { olderThan, sameGame, storedDeals } from "./queue.js";
import { store } from "./store.js";

/**
 * @typedef {object} GameRecord
 * @property {string} game the game's id
 * @property {string} document its export, as the server sent it
 * @property {string | null} [etag] the export's ETag (the game's version on the server)
 * @property {number | null} version the game's version the page had then, when it knew it
 * @property {number} at when the page learnt of it (ms)
 * @property {unknown} board the engine's answer for the document, once it gave one
 */

/** @type {Map<string, Promise<GameRecord | undefined>>} refreshes on their way, by game */
const asked = new Map();
/** @type {Set<(record: GameRecord) => Promise<unknown>>} */
const learners = new Set();
/* Once the server's live parts are in the page, the page is as new as the record. */
let answered = false;
document.addEventListener("htmx:afterSettle", (event) => {
  const target = /** @type {CustomEvent} */ (event).detail?.target;
  if (target && (target.id === "game" || target.id === "scoreboard")) { answered = true; }
});

/**
 * Be told of each document kept (static/phone.js: the engine's answer for it, kept with it
 * before the refresh is done).
 * @param {(record: GameRecord) => Promise<unknown>} learner
 */
export function onLearnt(learner) { learners.add(learner); }

/**
 * The record of this game, if the phone has one.
 * @param {string} game
 * @returns {Promise<GameRecord | undefined>}
 */
export async function recordOf(game) {
  try {
    return /** @type {GameRecord | undefined} */ (await store.transact("states", "readonly", (states) => states.get(game)));
  } catch {
    return undefined;
  }
}

/**
 * Ask the server for the game's document and keep it; at a version the record already has,
 * the record as it is. Answers the record (the one kept before when the server does not).
 * @param {string} game
 * @param {string} url the game's export
 * @param {number | null} version the game's version the page shows, when known
 * @returns {Promise<GameRecord | undefined>}
 */
export function refresh(game, url, version) {
  const going = asked.get(game);
  if (going) { return going.then(() => refresh(game, url, version)); }
  const work = (async () => {
    const known = await recordOf(game);
    if (known && version !== null && known.version === version) { return known; }
    let document = "";
    /** @type {string | null} */
    let etag = null;
    try {
      /* Never waited for longer than a save is: a kept deal's sending waits for this. */
      const answer = await fetch(url, { credentials: "same-origin", signal: AbortSignal.timeout(ANSWER_WITHIN) });
      if (!answer.ok) { return known; }
      etag = answer.headers.get("ETag");
      /* The same game again: the record stands, with the engine's answer kept for it (a
         page reopened offline shows it at once). The ETags say whether it is, without
         reading it (the browser asked with the record's, and got 304); a record kept
         before ETags is compared with the document. */
      const byEtag = Boolean(known && known.etag && etag);
      const unchanged = byEtag && known?.etag === etag;
      if (!unchanged) {
        document = await answer.text();
        storedDeals(document);
      }
      if (known && (byEtag ? unchanged : sameGame(known.document, document))) {
        const versioned = version === null || known.version === version ? known : { ...known, version };
        const same = versioned.etag === etag ? versioned : { ...versioned, etag };
        if (same !== known) { await keep(same); }
        /* Kept while the engine was not running: it works it out now. */
        if (!same.board) { await tell(same); }
        return same;
      }
    } catch {
      return known;
    }
    /** @type {GameRecord} */
    const record = { game, document, version, etag, at: Date.now(), board: null };
    await keep(record);
    await tell(record);
    return record;
  })();
  asked.set(game, work);
  return work.finally(() => { asked.delete(game); });
}

/**
 * Tell who listens of a record kept (static/phone.js keeps the engine's answer with it).
 * @param {GameRecord} record
 */
async function tell(record) {
  await Promise.all(Array.from(learners, (learner) => learner(record).catch(() => null)));
}

/**
 * Keep the engine's answer for this document with the record (not if the record moved on).
 * @param {string} game
 * @param {string} document
 * @param {unknown} board
 */
export async function keepBoard(game, document, board) {
  const known = await recordOf(game);
  if (!known || known.document !== document) { return; }
  await keep({ ...known, board });
}

/** @param {GameRecord} record */
async function keep(record) {
  try {
    await store.transact("states", "readwrite", (states) => states.put(record));
  } catch {
    /* not kept: the next change tries again */
  }
}

/**
 * The record, when the page shown is older than it: a copy kept before the phone learnt
 * of the game as the record holds it.
 * @param {string} game
 * @returns {Promise<GameRecord | undefined>}
 */
export async function newerThanPage(game) {
  if (answered) { return undefined; }
  const record = await recordOf(game);
  return record && olderThan(document.documentElement.dataset.offlineCopy, record.at) ? record : undefined;
}

/** Whether the page may ask the server (not a copy shown with no answer, not offline). */
export function mayAsk() {
  return navigator.onLine !== false && document.documentElement.dataset.offlineCopy === undefined;
}
