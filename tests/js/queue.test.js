/* The outbox's decisions (static/queue.js): which kept deal goes next, the numbers deals
   get, what a refusal keeps. */
import assert from "node:assert/strict";
import { test } from "node:test";

import { before, editing, formNumber, lastKept, movedOn, nextToSend, olderThan, postOf, refused, sameGame, storedDeals, toKeep } from "../../static/queue.js";

const URL_A = "https://pad.example/games/a/deals";

/**
 * A kept deal of game `game`, number `number`, in state `state`, at place `key`.
 * @param {number} key
 * @param {string} game
 * @param {number} number
 * @param {import("../../static/queue.js").DealState} [state]
 */
function deal(key, game, number, state = "waiting") {
  return { key, game, url: `https://pad.example/games/${game}/deals`, body: `number=${number}&bid=4`, number, state, why: "", at: key };
}

const nothingSkipped = () => false;

test("the oldest waiting deal goes first", () => {
  const kept = [deal(1, "a", 3), deal(2, "a", 4), deal(3, "b", 1)];
  assert.equal(nextToSend(kept, nothingSkipped)?.key, 1);
});

test("a refused or conflicting deal holds back the later deals of its game, not another game's", () => {
  for (const state of /** @type {const} */ (["refused", "conflict", "editing"])) {
    const kept = [deal(1, "a", 3, state), deal(2, "a", 4), deal(3, "b", 1)];
    assert.equal(nextToSend(kept, nothingSkipped)?.key, 3, state);
  }
});

test("a correction chosen goes as soon as it is first of its game", () => {
  const kept = [deal(1, "a", 3, "correcting"), deal(2, "a", 4)];
  assert.equal(nextToSend(kept, nothingSkipped)?.key, 1);
});

test("the deals of a game the server does not know yet never go", () => {
  const kept = [deal(1, "made-here", 1), deal(2, "a", 1)];
  assert.equal(nextToSend(kept, (game) => game === "made-here")?.key, 2);
  assert.equal(nextToSend([deal(1, "made-here", 1)], (game) => game === "made-here"), null);
});

test("nothing to send when nothing waits", () => {
  assert.equal(nextToSend([], nothingSkipped), null);
  assert.equal(nextToSend([deal(1, "a", 1, "refused")], nothingSkipped), null);
});

test("the next deal is numbered after the last one kept of its game", () => {
  const kept = [deal(1, "a", 3), deal(2, "a", 5), deal(3, "b", 9)];
  assert.equal(lastKept(kept, "a"), 5);
  assert.equal(lastKept(kept, "c"), 0);
  assert.equal(formNumber(kept, "a", 4), 6);
  assert.equal(formNumber(kept, "a", 6), null, "a form already past the deals kept stays");
  assert.equal(formNumber([], "a", 4), null);
});

test("a page kept before deals were stored numbers its form after them, and after the deals kept", () => {
  /* The copy shows deal 1's form; the phone knows the server stores 1 deal. */
  assert.equal(formNumber([], "a", 1, 1), 2);
  assert.equal(formNumber([], "a", 2, 1), null);
  assert.equal(formNumber([], "a", 3, 1), null, "a form already past them stays");
  /* Deals kept after them: the form is after those. */
  assert.equal(formNumber([deal(1, "a", 2), deal(2, "a", 3)], "a", 1, 1), 4);
  /* Deals kept on another game do not count. */
  assert.equal(formNumber([deal(1, "b", 7)], "a", 1, 2), 3);
  /* A deal back in the form keeps its number still. */
  assert.equal(formNumber([deal(1, "a", 2, "editing")], "a", 1, 3), 2);
});

test("the deals a game's document stores are counted, in the export file or a game alone", () => {
  const game = { id: "a", deals: [{ number: 1 }, { number: 2 }] };
  assert.equal(storedDeals(JSON.stringify({ format: "scorekeeper-export", games: [game] })), 2);
  assert.equal(storedDeals(JSON.stringify(game)), 2);
  assert.equal(storedDeals(JSON.stringify({ games: [{ id: "a", deals: [] }] })), 0);
});

test("two exports hold the same game when they differ only in when they were exported", () => {
  const game = { id: "a", deals: [{ number: 1 }] };
  const at = (time) => JSON.stringify({ format: "scorekeeper-export", version: 1, exported_at: time, games: [game] });
  assert.equal(sameGame(at("2026-12-07T01:00:00Z"), at("2026-12-07T01:00:09Z")), true);
  const moved = JSON.stringify({ format: "scorekeeper-export", version: 1, exported_at: "2026-12-07T01:00:09Z", games: [{ ...game, deals: [{ number: 1 }, { number: 2 }] }] });
  assert.equal(sameGame(at("2026-12-07T01:00:00Z"), moved), false, "a deal more");
  assert.equal(sameGame(JSON.stringify(game), JSON.stringify({ ...game, id: "b" })), false);
});

test("a page is older than the record when it is a copy kept before the record was learnt", () => {
  const kept = "2026-12-06T10:00:00.000Z";
  const at = Date.parse(kept);
  assert.equal(olderThan(kept, at + 1000), true);
  assert.equal(olderThan(kept, at - 1000), false, "kept after: the copy is as new");
  assert.equal(olderThan(undefined, at), false, "a page the server just served");
  assert.equal(olderThan(kept, undefined), false, "no record");
  assert.equal(olderThan("not a time", at), true, "a copy of unknown age is taken as older");
});

test("a deal back in the form keeps its own number until it is saved", () => {
  const kept = [deal(1, "a", 3, "editing"), deal(2, "a", 4)];
  assert.equal(formNumber(kept, "a", 5), 3);
  assert.equal(formNumber(kept, "a", 3), null);
  assert.equal(editing(kept, "a", 3)?.key, 1);
  assert.equal(editing(kept, "a", 4), undefined);
});

test("a post waits behind the deals of its game kept before it", () => {
  const kept = [deal(1, "a", 3), deal(2, "a", 4, "editing"), deal(3, "a", 5), deal(4, "b", 1)];
  assert.deepEqual(before(kept, "a", 6).map((e) => e.key), [1, 2, 3]);
  /* the deal back in the form, saved again: only what was kept before it */
  assert.deepEqual(before(kept, "a", 4).map((e) => e.key), [1]);
  assert.deepEqual(before(kept, "c", 1), []);
});

test("'Save mine as deal N' is kept as a save of deal N", () => {
  const entry = toKeep([], URL_A, "a", new URLSearchParams("number=3&save_as=5&bid=4"), 7);
  assert.equal(entry.number, 5);
  assert.deepEqual(Object.fromEntries(new URLSearchParams(entry.body)), { number: "5", bid: "4" });
  assert.equal(entry.state, "waiting");
  assert.equal(entry.key, undefined, "a new deal gets its place when it is stored");
});

test("a deal saved from the form again keeps its place in the order", () => {
  const entry = toKeep([deal(4, "a", 3, "editing")], URL_A, "a", new URLSearchParams("number=3&bid=5"), 7);
  assert.equal(entry.key, 4);
  assert.equal(entry.state, "waiting");
});

test("a kept deal goes as the form's post saying it was kept; a correction to its edit page", () => {
  const sent = postOf(deal(1, "a", 3));
  assert.equal(sent.url, "https://pad.example/games/a/deals");
  assert.equal(sent.body.get("kept"), "1");
  const correction = postOf(deal(1, "a", 3, "correcting"));
  assert.equal(correction.url, "https://pad.example/games/a/deals/3/edit");
  assert.equal(correction.body.get("kept"), null);
});

const FOUND = { why: "Deal 3 was saved on another phone.", next: 4, theirs: "Bob bid 4", mine: "Ann bid 5" };

test("a conflict (409) keeps both deals and the number mine could take", () => {
  const record = refused(deal(1, "a", 3), 409, FOUND);
  assert.equal(record.state, "conflict");
  assert.equal(record.why, FOUND.why);
  assert.equal(record.next, 4);
  assert.equal(record.theirs, "Bob bid 4");
  assert.equal(record.mine, "Ann bid 5");
  assert.equal(record.key, 1);
});

test("a refusal of the rules keeps the reason and no conflict", () => {
  const record = refused(deal(1, "a", 3), 422, FOUND);
  assert.equal(record.state, "refused");
  assert.equal(record.why, FOUND.why);
  assert.equal(record.next, null);
  assert.equal(record.theirs, null);
  assert.equal(record.mine, null);
});

test("a correction refused goes back to the choice, both deals still shown", () => {
  const correcting = { ...deal(1, "a", 3, "correcting"), theirs: "Bob bid 4", mine: "Ann bid 5", next: 4 };
  const record = refused(correcting, 422, { why: "A later deal could not stay.", next: null, theirs: null, mine: null });
  assert.equal(record.state, "conflict");
  assert.equal(record.why, "A later deal could not stay.");
  assert.equal(record.theirs, "Bob bid 4");
  assert.equal(record.next, 4);
});

test("'as the next deal' moves it and every later deal of its game on by as many numbers", () => {
  const conflict = { ...deal(2, "a", 3, "conflict"), next: 5, theirs: "t", mine: "m" };
  const kept = [deal(1, "a", 2, "refused"), conflict, deal(3, "a", 4, "waiting"), deal(4, "b", 3)];
  const moved = movedOn(kept, conflict);
  assert.deepEqual(moved.map((e) => [e.key, e.number, e.state]), [[2, 5, "waiting"], [3, 6, "waiting"]]);
  assert.deepEqual(moved.map((e) => new URLSearchParams(e.body).get("number")), ["5", "6"]);
  assert.deepEqual(moved.map((e) => [e.next, e.theirs, e.mine, e.why]), [[null, null, null, ""], [null, null, null, ""]]);
});
