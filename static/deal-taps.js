/* What the deal form chooses for the scorekeeper from what is already tapped, where the
   ruleset's description (written into the page by the server) says the rules decide it.
   Nothing here knows a game: the fields, the ranks and the bid come from the page, and
   the server checks every entry anyway. Each choice is shown as chosen and can be changed. */

/**
 * A choice made for the scorekeeper: the radio group's name and the value to check.
 * @typedef {[string, string]} Choice
 */

/**
 * What an auction in which everyone passed decides, as the page describes it
 * (`DealerPlays` in scorekeeper/engine/describe.py).
 * @typedef {{bidder: string, bid: string, value: string}} DealerPlays
 */

/**
 * Everyone passed and the dealer must play: the dealer is the bidder, at the set bid.
 * @param {DealerPlays | null} plays
 * @param {string | undefined} dealer the dealer's seat
 * @returns {Choice[]}
 */
export function dealerPlays(plays, dealer) {
  if (!plays || dealer === undefined || dealer === "") { return []; }
  return [[plays.bidder, dealer], [plays.bid, String(plays.value)]];
}

/**
 * Whether a tap of `name` = `val` takes back the all-pass auction's choices: a bidder
 * other than the dealer, or another bid.
 * @param {DealerPlays | null} plays
 * @param {string | undefined} dealer
 * @param {string} name
 * @param {string} val
 */
export function undoesDealerPlays(plays, dealer, name, val) {
  return dealerPlays(plays, dealer).some(function ([field, chosen]) {
    return field === name && chosen !== val;
  });
}

/**
 * The suit a called card's ranks stand for: the suit tapped, else trump once it is known
 * (the chips then read "A♥": tapping one calls that very card).
 * @param {string | null} suit the called card's suit tapped, if any
 * @param {string | null} trump
 * @returns {string | null}
 */
export function shownSuit(suit, trump) {
  return suit || trump || null;
}

/**
 * The called card's suit to check when its rank is tapped: the suit its chips stand for,
 * where none is tapped yet and the rank is a suited card.
 * @param {{rank: string | null, suit: string | null, trump: string | null, specials: string[]}} card
 * @returns {string | null}
 */
export function suitForRank(card) {
  if (!card.rank || card.rank === "none" || card.specials.indexOf(card.rank) >= 0) { return null; }
  if (card.suit) { return null; }
  return card.trump || null;
}

/**
 * Calling a rank of trump whose holder takes a point (the ace of trump: High) makes the
 * partner that point's holder, and that point's holder the partner. Returns what the tap
 * of `changed` decides, if anything.
 * @param {{point: string | null, partner: string | null, holderOfPoint: string | null, changed: string, cardSide: string[], holder: string}} called
 * @returns {Choice | null}
 */
export function calledPointChoice(called) {
  if (!called.point) { return null; }
  var partner = called.partner && called.partner !== "none" ? called.partner : null;
  if (called.cardSide.indexOf(called.changed) >= 0 && partner) {
    return [called.point, partner];
  }
  if (called.changed === called.point && !partner && called.holderOfPoint) {
    return [called.holder, called.holderOfPoint];
  }
  return null;
}

/**
 * The auction as tapped, row by row from the dealer's left: each bid must beat every
 * earlier one, so a row offers only the calls above the highest bid before it; the last
 * row with a bid names the bidder.
 * @param {Array<number | null>} bids per row, the place of the bid tapped among the row's
 *   calls (a higher bid, a higher place), or null for a pass or nothing tapped
 * @returns {{above: number[], bidderRow: number | null}} per row the place a call must be
 *   above to be offered (-1: any), and the row of the last bid
 */
export function auctionOffers(bids) {
  /** @type {number[]} */
  const above = [];
  var highest = -1;
  /** @type {number | null} */
  var bidderRow = null;
  bids.forEach(function (bid, row) {
    above.push(highest);
    if (bid !== null) {
      highest = Math.max(highest, bid);
      bidderRow = row;
    }
  });
  return { above: above, bidderRow: bidderRow };
}
