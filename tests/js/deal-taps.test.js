/* What the deal form chooses for the scorekeeper (static/deal-taps.js): the dealer's play
   after an all-pass auction, the called card's suit, a called point's holder. */
import assert from "node:assert/strict";
import { test } from "node:test";

import { auctionOffers, calledPointChoice, dealerPlays, shownSuit, suitForRank, undoesDealerPlays } from "../../static/deal-taps.js";

const PLAYS = { bidder: "bidder", bid: "bid", value: "2" };

test("everyone passed: the dealer is the bidder, at the set bid", () => {
  assert.deepEqual(dealerPlays(PLAYS, "3"), [["bidder", "3"], ["bid", "2"]]);
});

test("without the description or the dealer nothing is chosen", () => {
  assert.deepEqual(dealerPlays(null, "3"), []);
  assert.deepEqual(dealerPlays(PLAYS, undefined), []);
  assert.deepEqual(dealerPlays(PLAYS, ""), []);
});

test("another bidder or bid takes back the all-pass choices; the same ones do not", () => {
  assert.equal(undoesDealerPlays(PLAYS, "3", "bidder", "1"), true);
  assert.equal(undoesDealerPlays(PLAYS, "3", "bid", "4"), true);
  assert.equal(undoesDealerPlays(PLAYS, "3", "bidder", "3"), false);
  assert.equal(undoesDealerPlays(PLAYS, "3", "trump", "H"), false);
});

test("the ranks stand for the suit tapped, else for trump, else for none", () => {
  assert.equal(shownSuit("S", "H"), "S");
  assert.equal(shownSuit(null, "H"), "H");
  assert.equal(shownSuit(null, null), null);
});

test("a rank tapped with trump known and no suit tapped calls that card of trump", () => {
  assert.equal(suitForRank({ rank: "A", suit: null, trump: "H", specials: [] }), "H");
});

test("a suit already tapped, no trump, no card or a card without a suit: no suit chosen", () => {
  assert.equal(suitForRank({ rank: "A", suit: "S", trump: "H", specials: [] }), null);
  assert.equal(suitForRank({ rank: "A", suit: null, trump: null, specials: [] }), null);
  assert.equal(suitForRank({ rank: "none", suit: null, trump: "H", specials: [] }), null);
  assert.equal(suitForRank({ rank: "JOKER", suit: null, trump: "H", specials: ["JOKER"] }), null);
  assert.equal(suitForRank({ rank: null, suit: null, trump: "H", specials: [] }), null);
});

const CARD_SIDE = ["trump", "called_card_rank", "called_card_suit", "partner"];

test("the partner tapped after the ace of trump was called takes High", () => {
  const called = { point: "high", partner: "2", holderOfPoint: null, changed: "partner", cardSide: CARD_SIDE, holder: "partner" };
  assert.deepEqual(calledPointChoice(called), ["high", "2"]);
});

test("High tapped with no partner yet, after the ace of trump was called, names the partner", () => {
  const called = { point: "high", partner: null, holderOfPoint: "4", changed: "high", cardSide: CARD_SIDE, holder: "partner" };
  assert.deepEqual(calledPointChoice(called), ["partner", "4"]);
});

test("a card that decides no point, no partner, or another field: nothing is chosen", () => {
  const base = { point: "high", partner: "2", holderOfPoint: "2", changed: "partner", cardSide: CARD_SIDE, holder: "partner" };
  assert.equal(calledPointChoice({ ...base, point: null }), null);
  assert.equal(calledPointChoice({ ...base, partner: "none", changed: "partner" }), null);
  assert.equal(calledPointChoice({ ...base, changed: "jack" }), null);
  assert.equal(calledPointChoice({ ...base, changed: "high" }), null);
});

test("an auction offers each row only the calls above the highest bid before it", () => {
  // Places: 0 is the pass, then 2, 3, 4, moon at 1 to 4.
  assert.deepEqual(auctionOffers([null, null, null, null]), { above: [-1, -1, -1, -1], bidderRow: null });
  assert.deepEqual(auctionOffers([2, null, 3, null]), { above: [-1, 2, 2, 3], bidderRow: 2 });
});

test("a lower bid tapped anyway neither lowers what later rows must beat nor is skipped as the last", () => {
  assert.deepEqual(auctionOffers([3, 1, null]), { above: [-1, 3, 3], bidderRow: 1 });
});
