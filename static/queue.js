/* What the outbox (static/outbox.js) decides about the deals kept on the phone: which one
   goes next, what number a deal gets, what a refusal leaves kept. No page, no store here:
   each function takes the deals kept, oldest first, and returns its answer. */

/**
 * A deal kept on the phone.
 * - `waiting`: to be sent; `conflict`: another phone saved its number first; `refused`: the
 *   rules refuse it; `correcting`: to be sent as a correction of theirs to mine;
 *   `editing`: back in the form, to be saved from there.
 * @typedef {"waiting" | "conflict" | "refused" | "correcting" | "editing"} DealState
 * @typedef {object} KeptDeal
 * @property {number} [key] its place in the store (given when it is first kept)
 * @property {string} game the game's id
 * @property {string} url the address the form posts to
 * @property {string} body the form's fields, as posted
 * @property {number} number the deal's number
 * @property {DealState} state
 * @property {string} why the server's reason, when it refused
 * @property {number} at when it was kept (ms)
 * @property {number | null} [next] the number the server would take it as (a conflict)
 * @property {string | null} [theirs] the deal the other phone saved, as the server said it
 * @property {string | null} [mine] this one, as the server said it
 */

/**
 * What the server's page said of a refused deal.
 * @typedef {object} Refusal
 * @property {string} why
 * @property {number | null} next
 * @property {string | null} theirs
 * @property {string | null} mine
 */

/**
 * @param {KeptDeal[]} kept
 * @param {string | null} game
 * @returns {KeptDeal[]}
 */
export function ofGame(kept, game) { return kept.filter((entry) => entry.game === game); }

/**
 * The number of the last deal of this game kept (0 when none): the next one is after it.
 * @param {KeptDeal[]} kept
 * @param {string | null} game
 * @returns {number}
 */
export function lastKept(kept, game) {
  return ofGame(kept, game).reduce((most, entry) => Math.max(most, entry.number), 0);
}

/**
 * The deal kept for correcting in the form, if a post of this number is it.
 * @param {KeptDeal[]} kept
 * @param {string | null} game
 * @param {number} number
 * @returns {KeptDeal | undefined}
 */
export function editing(kept, game, number) {
  return ofGame(kept, game).find((e) => e.state === "editing" && e.number === number);
}

/**
 * Deals of this game kept before a post of this number: while any wait, it waits behind them.
 * @param {KeptDeal[]} kept
 * @param {string | null} game
 * @param {number} number
 * @returns {KeptDeal[]}
 */
export function before(kept, game, number) {
  const fixing = editing(kept, game, number);
  return ofGame(kept, game).filter((entry) => entry !== fixing && (!fixing || (entry.key || 0) < (fixing.key || 0)));
}

/**
 * The oldest deal that may go now: a game's deals go in order, so one the server refused (or
 * one back in the form) holds back those kept after it. The deals of a game in `skip` (one
 * the server does not know yet) never go.
 * @param {KeptDeal[]} kept
 * @param {(game: string) => boolean} skip
 * @returns {KeptDeal | null}
 */
export function nextToSend(kept, skip) {
  /** @type {Set<string>} */
  const waits = new Set();
  for (const entry of kept) {
    if (waits.has(entry.game) || skip(entry.game)) { continue; }
    if (entry.state === "waiting" || entry.state === "correcting") { return entry; }
    waits.add(entry.game);
  }
  return null;
}

/**
 * A deal saved now, to be kept: "Save mine as deal N" is kept as what it is, a save of deal
 * N; a deal back in the form keeps its place (its key) in the order.
 * @param {KeptDeal[]} kept
 * @param {string} url
 * @param {string} game
 * @param {URLSearchParams} body
 * @param {number} now
 * @returns {KeptDeal}
 */
export function toKeep(kept, url, game, body, now) {
  const params = new URLSearchParams(body);
  const saveAs = params.get("save_as");
  if (saveAs) {
    params.set("number", saveAs);
    params.delete("save_as");
  }
  const number = Number(params.get("number"));
  /** @type {KeptDeal} */
  const entry = { game, url, body: params.toString(), number, state: "waiting", why: "", at: now };
  const fixing = editing(kept, game, number);
  if (fixing) { entry.key = fixing.key; }
  return entry;
}

/**
 * The post that sends a kept deal: the form's post saying it was kept (so that a 409
 * describes it too), or, to correct theirs to mine, the correction page's post of that deal.
 * @param {KeptDeal} entry
 * @returns {{url: string, body: URLSearchParams}}
 */
export function postOf(entry) {
  const body = new URLSearchParams(entry.body);
  if (entry.state === "correcting") { return { url: `${entry.url}/${entry.number}/edit`, body }; }
  body.set("kept", "1");
  return { url: entry.url, body };
}

/**
 * The deal as kept once the server refused it with `status`: a correction goes back to the
 * choice with the reason; a deal another phone saved first (409) is a conflict holding both
 * deals and the number it could take; any other refusal is refused, with the reason.
 * @param {KeptDeal} entry
 * @param {number} status
 * @param {Refusal} found
 * @returns {KeptDeal}
 */
export function refused(entry, status, found) {
  if (entry.state === "correcting") { return { ...entry, state: "conflict", why: found.why }; }
  const conflict = status === 409;
  return {
    ...entry,
    state: conflict ? "conflict" : "refused",
    why: found.why,
    next: conflict ? found.next : null,
    theirs: conflict ? found.theirs : null,
    mine: conflict ? found.mine : null,
  };
}

/**
 * "Save mine as deal N": this deal and every one of its game kept after it move on by as
 * many numbers; this one waits again, the others stay as they were.
 * @param {KeptDeal[]} kept
 * @param {KeptDeal} entry
 * @returns {KeptDeal[]}
 */
export function movedOn(kept, entry) {
  const shift = (entry.next || entry.number) - entry.number;
  return ofGame(kept, entry.game).filter((e) => (e.key || 0) >= (entry.key || 0)).map((e) => {
    const params = new URLSearchParams(e.body);
    const number = e.number + shift;
    params.set("number", String(number));
    return {
      ...e,
      number,
      body: params.toString(),
      state: e.key === entry.key ? "waiting" : e.state,
      why: "",
      next: null,
      theirs: null,
      mine: null,
    };
  });
}

/**
 * The number the deal form shows, given the number it shows now: a deal back in the form
 * keeps its own until it is saved or discarded; otherwise the form is for the deal after
 * the last one kept, and after the `stored` deals the phone knows the server stores (a
 * page kept before they were saved shows an earlier form). Null: it stays as it is.
 * @param {KeptDeal[]} kept
 * @param {string} game
 * @param {number} shown
 * @param {number} [stored]
 * @returns {number | null}
 */
export function formNumber(kept, game, shown, stored = 0) {
  const fixing = ofGame(kept, game).find((e) => e.state === "editing");
  if (fixing) { return shown === fixing.number ? null : fixing.number; }
  const last = lastKept(kept, game);
  const next = Math.max(last ? last + 1 : 0, stored ? stored + 1 : 0);
  return next && shown < next ? next : null;
}

/**
 * How many deals a game's export document (/games/<id>/export.json) holds.
 * @param {string} document
 * @returns {number}
 */
export function storedDeals(document) {
  const data = JSON.parse(document);
  const game = data.games ? data.games[0] : data;
  return Array.isArray(game.deals) ? game.deals.length : 0;
}

/**
 * Whether two export documents (static/state.js) hold the same game: equal but for when
 * each was exported (`exported_at`, new in every answer).
 * @param {string} kept
 * @param {string} fetched
 * @returns {boolean}
 */
export function sameGame(kept, fetched) {
  if (kept === fetched) { return true; }
  const [a, b] = [JSON.parse(kept), JSON.parse(fetched)];
  delete a.exported_at;
  delete b.exported_at;
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Whether the page shown is older than what the phone last learnt of its game: it is a
 * copy the service worker kept (`copied`, the time it was kept, from data-offline-copy)
 * from before the phone's record of the game (`learnt`, ms).
 * @param {string | undefined} copied
 * @param {number | undefined} learnt
 * @returns {boolean}
 */
export function olderThan(copied, learnt) {
  if (copied === undefined || learnt === undefined) { return false; }
  const kept = Date.parse(copied);
  return Number.isNaN(kept) || kept < learnt;
}
