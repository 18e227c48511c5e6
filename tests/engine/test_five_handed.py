"""Five-Handed Schmier as docs/rules.md#five-handed-schmier and API.md's deal entry state it.

Every table starts a new game dealt by Ann (seat 0), so the first speaker in an
auction is Bob (seat 1). BASE is API.md's example: Bob bids 4 in hearts and calls
the KH, held by Di (seat 3).
"""

import pytest

from scorekeeper.engine import (
    DealKind,
    DealResult,
    FrozenMap,
    RuleViolation,
    WrongType,
    check_deal,
    explain_deal,
    get_ruleset,
    parse_entry,
)

from .builders import BASE, PLAYERS, alone, config, deal, play, refusal, result, start

PASSES = [None, None, None, None, None]
POINTS = ("high", "low", "jack", "off_jack", "joker")
RULES = get_ruleset("five-handed-schmier")


# -- entries the rules accept ------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "house_rules", "bidders"),
    [
        pytest.param(deal(), {}, (1, 3), id="called-card-held-by-partner"),
        pytest.param(deal(called_card=None, partner=None), {}, (1,), id="alone-by-choice"),
        pytest.param(deal(called_card="9S", partner=None), {}, (1,), id="called-card-out-of-play"),
        pytest.param(
            deal(called_card="JS", partner=None), {}, (1,), id="black-jack-out-of-play-in-hearts"
        ),
        pytest.param(
            deal(called_card="AS", partner=None), {}, (1,), id="ace-of-non-trump-out-of-play"
        ),
        pytest.param(
            deal(called_card="4C", partner=None), {}, (1,), id="four-of-non-trump-out-of-play"
        ),
        pytest.param(deal(called_card="AH", high=3), {}, (1, 3), id="ace-of-trump-partner-high"),
        pytest.param(deal(called_card="4H", low=3), {}, (1, 3), id="four-of-trump-partner-low"),
        pytest.param(deal(called_card="JH"), {}, (1, 3), id="right-bauer-called"),
        pytest.param(deal(called_card="JD"), {}, (1, 3), id="left-bauer-called"),
        pytest.param(deal(called_card="10C"), {}, (1, 3), id="ten-of-clubs-called"),
        pytest.param(
            deal(called_card="JOKER"), {"joker_callable": True}, (1, 3), id="joker-callable"
        ),
        pytest.param(
            deal(bidder=None, bid=None, auction=[4, None, None, None, None]),
            {},
            (1, 3),
            id="auction-instead-of-bidder-and-bid",
        ),
        pytest.param(
            deal(auction=[None, 3, None, None, None], bidder=2, bid=3),
            {},
            (2, 3),
            id="auction-agreeing-with-bidder-and-bid",
        ),
        pytest.param(
            deal(bidder=None, bid=None, auction=[3, 4, None, 6]),
            {},
            (4, 3),
            id="auction-ended-by-a-6",
        ),
        pytest.param(
            deal(bidder=None, bid=None, auction=[6]), {}, (1, 3), id="first-speaker-bids-6"
        ),
        pytest.param(
            deal(bidder=None, bid=None, auction=[None, None, None, None, 3]),
            {},
            (0, 3),
            id="dealer-bids-after-four-passes",
        ),
        pytest.param(
            deal(game_points=None, game="opponents"), {}, (1, 3), id="game-given-as-a-side"
        ),
        pytest.param(deal(game_points=None, game="none"), {}, (1, 3), id="game-given-as-tied"),
        pytest.param(
            deal(game_points={"bidders": 20, "opponents": 20}), {}, (1, 3), id="game-counts-tied"
        ),
        pytest.param(
            deal(game_points={"bidders": 41, "opponents": 40}), {}, (1, 3), id="counts-add-to-81"
        ),
        pytest.param(
            deal(game_points={"bidders": 6, "opponents": 1}),
            {},
            (1, 3),
            id="counts-at-their-least-high-jack-joker-6-off-jack-1",
        ),
        pytest.param(
            deal(high=1, off_jack=3, game_points={"bidders": 7, "opponents": 0}),
            {},
            (1, 3),
            id="side-with-only-low-may-count-0",
        ),
        pytest.param(
            deal(high=0, low=0, game_points={"bidders": 2, "opponents": 5}),
            {},
            (1, 3),
            id="low-adds-nothing-to-the-least-count",
        ),
        pytest.param(deal(thrown_in=False), {}, (1, 3), id="thrown-in-false-on-a-played-deal"),
        pytest.param(deal(number=1), {}, (1, 3), id="number-sent"),
        pytest.param(
            deal(auction=None, thrown_in=None, joker=1), {}, (1, 3), id="explicit-nulls-ignored"
        ),
    ],
)
def test_apply_deal_accepts_entry_the_rules_allow(raw, house_rules, bidders):
    state = start(**house_rules)
    assert check_deal(state, parse_entry(state.config, raw)) is None
    assert result(state, raw).bidders == bidders


SUITED = [
    f"{rank}{suit}"
    for rank in ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4")
    for suit in ("S", "H", "D", "C")
]


@pytest.mark.parametrize("card", [pytest.param(card, id=card) for card in SUITED])
def test_apply_deal_accepts_each_of_the_44_suited_cards_as_called_card(card):
    done = result(start(), deal(called_card=card, high=3, low=3))
    assert done.called_card == card
    assert done.bidders == (1, 3)


@pytest.mark.parametrize(
    "card", [pytest.param(f"{rank}{suit}", id=f"{rank}{suit}") for rank in "23" for suit in "SHDC"]
)
@pytest.mark.parametrize("partner", [3, None], ids=["with-partner", "out-of-play"])
def test_apply_deal_rejects_a_2_or_3_as_called_card(card, partner):
    violation = refusal(start(), deal(called_card=card, partner=partner))
    assert set(violation.problems) == {"called_card"}


def test_apply_deal_fills_bidder_and_bid_in_from_the_auction():
    done = result(start(), deal(bidder=None, bid=None, auction=[None, 3, None, 5, None]))
    assert (done.bidder, done.bid) == (4, 5)
    assert done.auction == (None, 3, None, 5, None)
    assert done.to_document()["bidder"] == 4


@pytest.mark.parametrize(
    ("first_dealer", "auction", "bidder"),
    [
        pytest.param(0, [3, None, None, None, None], 1, id="dealer-0-first-speaker-is-1"),
        pytest.param(0, [None, None, None, None, 4], 0, id="dealer-0-last-speaker-is-dealer"),
        pytest.param(2, [None, 5, None, None, None], 4, id="dealer-2-second-speaker-is-4"),
        pytest.param(3, [None, 4, None, None, None], 0, id="dealer-3-second-speaker-wraps-to-0"),
        pytest.param(4, [6], 0, id="dealer-4-first-speaker-bids-6"),
        pytest.param(4, [3, 4, 5, None, None], 2, id="dealer-4-third-speaker-outbids"),
        pytest.param(1, [None, None, None, 3, 4], 1, id="dealer-1-outbids-the-fourth-speaker"),
    ],
)
def test_auction_entry_i_is_the_i_plus_1th_speaker_from_the_dealers_left(
    first_dealer, auction, bidder
):
    raw = {"auction": auction, "trump": "S", **dict.fromkeys(POINTS, 0), "game": "none"}
    done = result(start(first_dealer), raw)
    assert done.dealer == first_dealer
    assert done.bidder == bidder
    assert done.bid == max(b for b in auction if b is not None)


# -- entries the rules refuse, with the field API.md names -------------------------------

ALWAYS_IN_PLAY = [
    ("AH", "H", "ace-of-trump-hearts"),
    ("JH", "H", "right-bauer-hearts"),
    ("JD", "H", "left-bauer-hearts-is-jack-of-diamonds"),
    ("4H", "H", "four-of-trump-hearts"),
    ("AS", "S", "ace-of-trump-spades"),
    ("JS", "S", "right-bauer-spades"),
    ("JC", "S", "left-bauer-spades-is-jack-of-clubs"),
    ("4S", "S", "four-of-trump-spades"),
    ("JH", "D", "left-bauer-diamonds-is-jack-of-hearts"),
    ("JS", "C", "left-bauer-clubs-is-jack-of-spades"),
    ("AC", "C", "ace-of-trump-clubs"),
    ("4D", "D", "four-of-trump-diamonds"),
]


def assert_refused(raw: dict, house_rules: dict, fields: set[str]) -> None:
    """Assert the entry is refused (422) naming exactly `fields`, in sentences."""
    violation = refusal(start(**house_rules), raw)
    assert type(violation) is RuleViolation
    assert set(violation.problems) == fields
    assert all(str(m).endswith(".") for msgs in violation.problems.values() for m in msgs)


BID_RANGE = [
    pytest.param(deal(bid=2), {}, {"bid"}, id="bid-2"),
    pytest.param(deal(bid=7), {}, {"bid"}, id="bid-7"),
    pytest.param(deal(bid=0), {}, {"bid"}, id="bid-0"),
    pytest.param(deal(bid=-4), {}, {"bid"}, id="bid-negative"),
    pytest.param(deal(bid=None), {}, {"bid"}, id="bid-missing"),
]


@pytest.mark.parametrize(("raw", "house_rules", "fields"), BID_RANGE)
def test_apply_deal_rejects_bid_outside_3_to_6(raw, house_rules, fields):
    assert_refused(raw, house_rules, fields)


SEATS = [
    pytest.param(deal(bidder=5), {}, {"bidder"}, id="bidder-seat-5"),
    pytest.param(deal(bidder=-1), {}, {"bidder"}, id="bidder-seat-negative"),
    pytest.param(deal(bidder=None), {}, {"bidder"}, id="bidder-missing"),
    pytest.param(deal(partner=5), {}, {"partner"}, id="partner-seat-5"),
    pytest.param(deal(high=5), {}, {"high"}, id="high-seat-5"),
    pytest.param(deal(low=-1), {}, {"low"}, id="low-seat-negative"),
    pytest.param(deal(jack=7), {}, {"jack"}, id="jack-seat-7"),
    pytest.param(deal(off_jack=5), {}, {"off_jack"}, id="off-jack-seat-5"),
    pytest.param(deal(joker=99), {}, {"joker"}, id="joker-seat-99"),
]


@pytest.mark.parametrize(("raw", "house_rules", "fields"), SEATS)
def test_apply_deal_rejects_seat_not_at_the_table(raw, house_rules, fields):
    assert_refused(raw, house_rules, fields)


TRUMPS = [
    pytest.param(deal(trump="X"), {}, {"trump"}, id="trump-X"),
    pytest.param(deal(trump="h"), {}, {"trump"}, id="trump-lower-case"),
    pytest.param(deal(trump="HEARTS"), {}, {"trump"}, id="trump-spelled-out"),
    pytest.param(deal(trump=""), {}, {"trump"}, id="trump-empty"),
    pytest.param(deal(trump=None), {}, {"trump"}, id="trump-missing"),
]


@pytest.mark.parametrize(("raw", "house_rules", "fields"), TRUMPS)
def test_apply_deal_rejects_trump_that_is_not_a_suit(raw, house_rules, fields):
    assert_refused(raw, house_rules, fields)


UNCALLABLE = [
    pytest.param(deal(called_card="2H"), {}, {"called_card"}, id="called-2H-not-in-deck"),
    pytest.param(deal(called_card="3S"), {}, {"called_card"}, id="called-3S-not-in-deck"),
    pytest.param(deal(called_card="JOKER"), {}, {"called_card"}, id="joker-not-callable"),
    pytest.param(
        deal(called_card="JOKER", partner=None),
        {},
        {"called_card"},
        id="joker-not-callable-no-partner",
    ),
    pytest.param(deal(called_card="1H"), {}, {"called_card"}, id="called-rank-1"),
    pytest.param(deal(called_card="KX"), {}, {"called_card"}, id="called-suit-X"),
    pytest.param(deal(called_card="kh"), {}, {"called_card"}, id="called-lower-case"),
    pytest.param(deal(called_card="10"), {}, {"called_card"}, id="called-no-suit"),
    pytest.param(deal(called_card=""), {}, {"called_card"}, id="called-empty"),
]


@pytest.mark.parametrize(("raw", "house_rules", "fields"), UNCALLABLE)
def test_apply_deal_rejects_called_card_not_callable_in_this_deck(raw, house_rules, fields):
    assert_refused(raw, house_rules, fields)


PARTNER_IS_BIDDER = [
    pytest.param(deal(partner=1), {}, {"partner"}, id="partner-equals-bidder"),
    pytest.param(
        deal(partner=1, called_card=None), {}, {"partner"}, id="partner-equals-bidder-no-call"
    ),
]


@pytest.mark.parametrize(("raw", "house_rules", "fields"), PARTNER_IS_BIDDER)
def test_apply_deal_rejects_partner_equal_to_bidder(raw, house_rules, fields):
    assert_refused(raw, house_rules, fields)


PARTNER_UNCALLED = [
    pytest.param(deal(called_card=None), {}, {"partner"}, id="partner-without-called-card"),
]


@pytest.mark.parametrize(("raw", "house_rules", "fields"), PARTNER_UNCALLED)
def test_apply_deal_rejects_partner_without_a_called_card(raw, house_rules, fields):
    assert_refused(raw, house_rules, fields)


ALWAYS_CALLED_ALONE = [
    *[
        pytest.param(
            deal(trump=trump, called_card=card, partner=None),
            {},
            {"partner"},
            id=f"{name}-called-{card}-no-partner",
        )
        for card, trump, name in ALWAYS_IN_PLAY
    ],
    pytest.param(
        deal(called_card="JOKER", partner=None),
        {"joker_callable": True},
        {"partner"},
        id="callable-joker-called-no-partner",
    ),
]


@pytest.mark.parametrize(("raw", "house_rules", "fields"), ALWAYS_CALLED_ALONE)
def test_apply_deal_rejects_always_in_play_trump_called_with_no_partner(raw, house_rules, fields):
    assert_refused(raw, house_rules, fields)


ACE_HIGH_ELSEWHERE = [
    pytest.param(
        deal(called_card="AH", high=0), {}, {"high"}, id="ace-of-trump-called-high-to-opponent"
    ),
    pytest.param(
        deal(called_card="AH", high=1), {}, {"high"}, id="ace-of-trump-called-high-to-bidder"
    ),
    pytest.param(
        deal(trump="C", called_card="AC", high=4), {}, {"high"}, id="ace-of-clubs-trump-high-4"
    ),
]


@pytest.mark.parametrize(("raw", "house_rules", "fields"), ACE_HIGH_ELSEWHERE)
def test_apply_deal_rejects_called_ace_of_trump_with_high_elsewhere(raw, house_rules, fields):
    assert_refused(raw, house_rules, fields)


FOUR_LOW_ELSEWHERE = [
    pytest.param(
        deal(called_card="4H", low=0), {}, {"low"}, id="four-of-trump-called-low-to-opponent"
    ),
    pytest.param(
        deal(called_card="4H", low=1), {}, {"low"}, id="four-of-trump-called-low-to-bidder"
    ),
    pytest.param(
        deal(trump="D", called_card="4D", low=2), {}, {"low"}, id="four-of-diamonds-trump-low-2"
    ),
]


@pytest.mark.parametrize(("raw", "house_rules", "fields"), FOUR_LOW_ELSEWHERE)
def test_apply_deal_rejects_called_4_of_trump_with_low_elsewhere(raw, house_rules, fields):
    assert_refused(raw, house_rules, fields)


POINT_MISSING = [
    pytest.param(deal(high=None), {}, {"high"}, id="high-not-awarded"),
    pytest.param(deal(low=None), {}, {"low"}, id="low-not-awarded"),
    pytest.param(deal(jack=None), {}, {"jack"}, id="jack-not-awarded"),
    pytest.param(deal(off_jack=None), {}, {"off_jack"}, id="off-jack-not-awarded"),
    pytest.param(deal(joker=None), {}, {"joker"}, id="joker-not-awarded"),
]


@pytest.mark.parametrize(("raw", "house_rules", "fields"), POINT_MISSING)
def test_apply_deal_rejects_a_point_not_awarded(raw, house_rules, fields):
    assert_refused(raw, house_rules, fields)


GAME_FORMS = [
    pytest.param(deal(game="bidders"), {}, {"game"}, id="game-and-game-points-both"),
    pytest.param(deal(game_points=None), {}, {"game"}, id="game-and-game-points-neither"),
    pytest.param(deal(game_points=None, game="bidder"), {}, {"game"}, id="game-bidder-singular"),
    pytest.param(deal(game_points=None, game="tie"), {}, {"game"}, id="game-tie-not-none"),
]


@pytest.mark.parametrize(("raw", "house_rules", "fields"), GAME_FORMS)
def test_apply_deal_rejects_both_or_neither_of_game_and_game_points_or_a_bad_game(
    raw, house_rules, fields
):
    assert_refused(raw, house_rules, fields)


COUNTS = [
    pytest.param(
        deal(game_points={"bidders": -1, "opponents": 18}), {}, {"game_points"}, id="count-below-0"
    ),
    pytest.param(
        deal(high=1, off_jack=3, game_points={"bidders": 7, "opponents": -1}),
        {},
        {"game_points"},
        id="count-below-0-for-a-side-with-only-low",
    ),
    pytest.param(
        deal(game_points={"bidders": 42, "opponents": 40}),
        {},
        {"game_points"},
        id="counts-add-to-82",
    ),
    pytest.param(
        deal(game_points={"bidders": 81, "opponents": 81}),
        {},
        {"game_points"},
        id="counts-add-to-162",
    ),
    pytest.param(
        deal(game_points={"bidders": 27}), {}, {"game_points"}, id="counts-opponents-missing"
    ),
    pytest.param(
        deal(game_points={"bidders": 27, "opponents": None}),
        {},
        {"game_points"},
        id="counts-opponents-null",
    ),
    pytest.param(
        deal(game_points={"bidders": 27, "opponents": 18, "nobody": 0}),
        {},
        {"game_points"},
        id="counts-unknown-side",
    ),
    pytest.param(deal(game_points={}), {}, {"game_points"}, id="counts-empty"),
    pytest.param(
        deal(game_points={"bidders": 5, "opponents": 18}),
        {},
        {"game_points"},
        id="high-jack-joker-side-counts-5-below-6",
    ),
    pytest.param(
        deal(high=0, jack=0, joker=0, game_points={"bidders": 0, "opponents": 6}),
        {},
        {"game_points"},
        id="high-jack-off-jack-joker-side-counts-6-below-7",
    ),
    pytest.param(
        deal(high=0, jack=3, joker=2, game_points={"bidders": 10, "opponents": 3}),
        {},
        {"game_points"},
        id="high-side-counts-3-below-4",
    ),
    pytest.param(
        deal(game_points={"bidders": 27, "opponents": 0}),
        {},
        {"game_points"},
        id="off-jack-side-counts-0-below-1",
    ),
    pytest.param(
        deal(high=1, jack=3, off_jack=1, joker=4, game_points={"bidders": 10, "opponents": 0}),
        {},
        {"game_points"},
        id="joker-side-counts-0-below-1",
    ),
]


@pytest.mark.parametrize(("raw", "house_rules", "fields"), COUNTS)
def test_apply_deal_rejects_game_counts_breaking_the_count_rules(raw, house_rules, fields):
    assert_refused(raw, house_rules, fields)


UNKNOWN_KEYS = [
    pytest.param(deal(dealer=0), {}, {"dealer"}, id="unknown-key-dealer"),
    pytest.param(deal(scores=[0, 0, 0, 0, 0]), {}, {"scores"}, id="unknown-key-scores"),
    pytest.param(deal(Bidder=1), {}, {"Bidder"}, id="unknown-key-capitalised"),
    pytest.param(deal(called="KH"), {}, {"called"}, id="unknown-key-called"),
]


@pytest.mark.parametrize(("raw", "house_rules", "fields"), UNKNOWN_KEYS)
def test_apply_deal_rejects_an_unknown_key_naming_it(raw, house_rules, fields):
    assert_refused(raw, house_rules, fields)


AUCTION_DISAGREES = [
    pytest.param(
        deal(auction=[None, 4, None, None, None]),
        {},
        {"auction", "bidder"},
        id="auction-disagrees-with-bidder",
    ),
    pytest.param(
        deal(auction=[3, None, None, None, None]),
        {},
        {"auction", "bid"},
        id="auction-disagrees-with-bid",
    ),
    pytest.param(
        deal(auction=[None, 5, None, None, None]),
        {},
        {"auction", "bidder", "bid"},
        id="auction-disagrees-with-bidder-and-bid",
    ),
]


@pytest.mark.parametrize(("raw", "house_rules", "fields"), AUCTION_DISAGREES)
def test_apply_deal_rejects_auction_disagreeing_with_bidder_or_bid(raw, house_rules, fields):
    assert_refused(raw, house_rules, fields)


BAD_AUCTIONS = [
    pytest.param(deal(auction=[]), {}, {"auction"}, id="auction-empty"),
    pytest.param(
        deal(auction=[4, None, None, None, None, None]), {}, {"auction"}, id="auction-6-entries"
    ),
    pytest.param(deal(auction=[4, None, None, None]), {}, {"auction"}, id="auction-4-entries"),
    pytest.param(deal(auction=[4]), {}, {"auction"}, id="auction-1-entry-without-6"),
    pytest.param(
        deal(auction=[3, 4, 4, None, None], bidder=None, bid=None),
        {},
        {"auction"},
        id="auction-bid-does-not-rise",
    ),
    pytest.param(
        deal(auction=[4, 3, None, None, None], bidder=None, bid=None),
        {},
        {"auction"},
        id="auction-bid-falls",
    ),
    pytest.param(
        deal(auction=[4, None, 3, None, None]), {}, {"auction"}, id="auction-lower-after-pass"
    ),
    pytest.param(deal(auction=[6, None]), {}, {"auction"}, id="auction-goes-on-after-6"),
    pytest.param(
        deal(auction=[None, 6, None, None, None], bidder=None, bid=None),
        {},
        {"auction"},
        id="auction-five-entries-after-6",
    ),
    pytest.param(
        deal(auction=[2, None, None, None, None], bidder=None, bid=None),
        {},
        {"auction"},
        id="auction-bid-2",
    ),
    pytest.param(deal(auction=[7], bidder=None, bid=None), {}, {"auction"}, id="auction-bid-7"),
]


@pytest.mark.parametrize(("raw", "house_rules", "fields"), BAD_AUCTIONS)
def test_apply_deal_rejects_auction_too_long_too_short_not_rising_or_past_6(
    raw, house_rules, fields
):
    assert_refused(raw, house_rules, fields)


THROWN_IN_WITH_FIELDS = [
    pytest.param(
        {"thrown_in": True, "bidder": 1}, {}, {"thrown_in", "bidder"}, id="thrown-in-bidder"
    ),
    pytest.param(
        {"thrown_in": True, "trump": "H", "high": 3},
        {},
        {"thrown_in", "trump", "high"},
        id="thrown-in-trump-and-high",
    ),
    pytest.param({**BASE, "thrown_in": True}, {}, {"thrown_in", *BASE}, id="thrown-in-full-deal"),
    pytest.param(
        {"thrown_in": True, "auction": [None, None, None, None]},
        {},
        {"auction"},
        id="thrown-in-auction-of-4-passes",
    ),
]


@pytest.mark.parametrize(("raw", "house_rules", "fields"), THROWN_IN_WITH_FIELDS)
def test_apply_deal_rejects_other_fields_with_a_thrown_in_deal(raw, house_rules, fields):
    assert_refused(raw, house_rules, fields)


@pytest.mark.parametrize(
    ("raw", "fields"),
    [
        pytest.param(
            {"auction": PASSES, "thrown_in": False},
            {"auction"},
            id="all-pass-auction-with-thrown-in-false",
        ),
        pytest.param(
            {"auction": PASSES, "bid": 3}, {"auction", "bid"}, id="all-pass-auction-with-a-bid"
        ),
        pytest.param(
            {"auction": PASSES, "bidder": 1, "bid": 3},
            {"auction", "bidder", "bid"},
            id="all-pass-auction-with-bidder-and-bid",
        ),
        pytest.param(
            {"auction": PASSES, "trump": "H"}, {"trump"}, id="all-pass-auction-with-trump"
        ),
        pytest.param(
            {"thrown_in": True, "auction": [3, None, None, None, None]},
            {"auction"},
            id="thrown-in-with-a-bid-in-the-auction",
        ),
        pytest.param({"thrown_in": True, "points": 6}, {"points"}, id="thrown-in-unknown-key"),
        pytest.param({"thrown_in": False}, {"bidder", "bid"}, id="thrown-in-false-alone"),
    ],
)
def test_apply_deal_rejects_inconsistent_thrown_in_deal(raw, fields):
    """API.md: any other field with a thrown-in deal, or an all-pass auction with a bid."""
    violation = refusal(start(), raw)
    assert fields <= set(violation.problems)


def test_apply_deal_reports_every_problem_at_once():
    raw = deal(
        bid=9,
        trump="X",
        called_card="2S",
        partner=1,
        high=None,
        low=7,
        game="bidders",
        dealer=0,
    )
    violation = refusal(start(), raw)
    assert set(violation.problems) == {
        "bid",
        "trump",
        "called_card",
        "partner",
        "high",
        "low",
        "game",
        "dealer",
    }
    assert set(violation.fields) == set(violation.problems)


def test_apply_deal_reports_every_problem_of_a_thrown_in_deal_at_once():
    violation = refusal(start(), {"thrown_in": True, "bidder": 1, "game": "none", "x": 1})
    assert {"thrown_in", "bidder", "game", "x"} <= set(violation.problems)


# -- entries with the wrong JSON types ----------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value"),
    [
        pytest.param("bidder", "1", id="bidder-string"),
        pytest.param("bidder", 1.0, id="bidder-float"),
        pytest.param("bidder", True, id="bidder-true"),
        pytest.param("bid", "4", id="bid-string"),
        pytest.param("bid", 4.0, id="bid-float"),
        pytest.param("bid", True, id="bid-true"),
        pytest.param("partner", 3.5, id="partner-float"),
        pytest.param("partner", False, id="partner-false"),
        pytest.param("high", True, id="high-true"),
        pytest.param("low", "0", id="low-string"),
        pytest.param("jack", [1], id="jack-list"),
        pytest.param("off_jack", {"seat": 2}, id="off-jack-object"),
        pytest.param("joker", 1.0, id="joker-float"),
        pytest.param("trump", 3, id="trump-number"),
        pytest.param("trump", ["H"], id="trump-list"),
        pytest.param("called_card", 10, id="called-card-number"),
        pytest.param("called_card", ["K", "H"], id="called-card-list"),
        pytest.param("auction", "4", id="auction-string"),
        pytest.param("auction", 4, id="auction-number"),
        pytest.param("auction", [True, None, None, None, None], id="auction-true"),
        pytest.param("auction", ["4", None, None, None, None], id="auction-string-bid"),
        pytest.param("auction", [4.0, None, None, None, None], id="auction-float-bid"),
        pytest.param("auction", {"0": 4}, id="auction-object"),
        pytest.param("game_points", [27, 18], id="game-points-list"),
        pytest.param("game_points", {"bidders": "27", "opponents": 18}, id="count-string"),
        pytest.param("game_points", {"bidders": 27.0, "opponents": 18}, id="count-float"),
        pytest.param("game_points", {"bidders": True, "opponents": 18}, id="count-true"),
        pytest.param("game_points", 45, id="game-points-number"),
        pytest.param("game", True, id="game-true"),
        pytest.param("game", 1, id="game-number"),
        pytest.param("thrown_in", "true", id="thrown-in-string"),
        pytest.param("thrown_in", 1, id="thrown-in-1"),
        pytest.param("thrown_in", 0, id="thrown-in-0"),
        pytest.param("number", "1", id="number-string"),
        pytest.param("number", 1.0, id="number-float"),
        pytest.param("number", True, id="number-true"),
    ],
)
def test_parse_entry_refuses_wrong_json_type_naming_the_field(field, value):
    with pytest.raises(WrongType) as info:
        parse_entry(config(), deal(**{field: value}))
    assert set(info.value.problems) == {field}


def test_parse_entry_names_every_wrong_type_at_once():
    with pytest.raises(WrongType) as info:
        parse_entry(config(), deal(bid="4", high=True, game_points=[1, 2]))
    assert set(info.value.problems) == {"bid", "high", "game_points"}


@pytest.mark.parametrize(
    "body",
    [
        pytest.param([BASE], id="list"),
        pytest.param("deal", id="string"),
        pytest.param(3, id="number"),
        pytest.param(None, id="null"),
        pytest.param(True, id="true"),
    ],
)
def test_parse_entry_refuses_a_body_that_is_not_an_object(body):
    with pytest.raises(WrongType) as info:
        parse_entry(config(), body)
    assert None in info.value.problems


def test_parse_entry_treats_null_as_left_out_and_drops_number():
    entry = parse_entry(config(), {"number": 4, "bidder": 1, "partner": None, "auction": None})
    assert entry.raw == {"bidder": 1}
    assert entry.number == 4


def test_parse_entry_keeps_unknown_keys_for_check_deal_to_refuse():
    entry = parse_entry(config(), deal(dealer="anything"))
    assert entry.raw["dealer"] == "anything"
    with pytest.raises(RuleViolation) as info:
        check_deal(start(), entry)
    assert type(info.value) is RuleViolation
    assert set(info.value.problems) == {"dealer"}


def test_parse_entry_copies_the_body_so_later_changes_do_not_leak_in():
    raw = deal()
    entry = parse_entry(config(), raw)
    raw["game_points"]["bidders"] = 99
    raw["bid"] = 6
    assert entry.raw["game_points"] == {"bidders": 27, "opponents": 18}
    assert entry.raw["bid"] == 4


# -- thrown-in deals -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param({"thrown_in": True}, id="thrown-in-flag"),
        pytest.param({"auction": PASSES}, id="all-pass-auction-alone"),
        pytest.param({"thrown_in": True, "auction": PASSES}, id="flag-and-all-pass-auction"),
        pytest.param({"thrown_in": True, "number": 1}, id="flag-and-number"),
        pytest.param({"thrown_in": True, "bidder": None, "game": None}, id="flag-and-nulls"),
    ],
)
def test_thrown_in_deal_scores_nothing_and_records_nothing_else(raw):
    state = start(first_dealer=2)
    done = result(state, raw)
    doc = done.to_document()
    assert done.thrown_in is True
    assert done.dealer == 2
    assert done.deltas == (0, 0, 0, 0, 0)
    assert done.scores == (0, 0, 0, 0, 0)
    assert doc["auction"] == (list(raw["auction"]) if "auction" in raw else None)
    computed = {"number", "dealer", "thrown_in", "auction", "deltas", "scores"}
    assert {k: v for k, v in doc.items() if k not in computed} == dict.fromkeys(set(doc) - computed)


# -- scoring a hand ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "points", "made", "deltas"),
    [
        pytest.param(
            deal(bid=4, game_points=None, game="bidders"),
            {"bidders": 4, "opponents": 2},
            True,
            (2, 4, 2, 4, 2),
            id="made-exactly-each-bidder-adds-4",
        ),
        pytest.param(
            deal(bid=3, game_points=None, game="bidders"),
            {"bidders": 4, "opponents": 2},
            True,
            (2, 4, 2, 4, 2),
            id="made-with-more-than-bid-each-adds-all-4",
        ),
        pytest.param(
            deal(bid=5, game_points=None, game="bidders"),
            {"bidders": 4, "opponents": 2},
            False,
            (2, -5, 2, -5, 2),
            id="set-each-bidder-subtracts-5",
        ),
        pytest.param(
            deal(bid=6, high=1, low=3, off_jack=3, game="bidders", game_points=None),
            {"bidders": 6, "opponents": 0},
            True,
            (0, 6, 0, 6, 0),
            id="bid-6-made-with-all-six",
        ),
        pytest.param(
            deal(bid=6, high=1, low=3, off_jack=3, game="none", game_points=None),
            {"bidders": 5, "opponents": 0},
            False,
            (0, -6, 0, -6, 0),
            id="bid-6-set-by-tied-game",
        ),
        pytest.param(
            deal(
                bid=3,
                high=0,
                low=2,
                jack=4,
                off_jack=0,
                joker=2,
                game="opponents",
                game_points=None,
            ),
            {"bidders": 0, "opponents": 6},
            False,
            (6, -3, 6, -3, 6),
            id="bidders-take-nothing",
        ),
        pytest.param(
            deal(bid=3, game_points={"bidders": 30, "opponents": 30}),
            {"bidders": 3, "opponents": 2},
            True,
            (2, 3, 2, 3, 2),
            id="game-counts-tied-score-nobody",
        ),
        pytest.param(
            deal(bid=4, game_points=None, game="none"),
            {"bidders": 3, "opponents": 2},
            False,
            (2, -4, 2, -4, 2),
            id="game-tied-costs-the-contract",
        ),
        pytest.param(
            deal(bid=3, game_points={"bidders": 10, "opponents": 30}),
            {"bidders": 3, "opponents": 3},
            True,
            (3, 3, 3, 3, 3),
            id="opponents-higher-count-take-game",
        ),
        pytest.param(
            alone(1, bid=6, took=("high", "low", "jack", "off_jack", "joker", "game")),
            {"bidders": 6, "opponents": 0},
            True,
            (0, 6, 0, 0, 0),
            id="alone-made-all-six",
        ),
        pytest.param(
            alone(1, bid=3, took=("high", "jack")),
            {"bidders": 2, "opponents": 4},
            False,
            (4, -3, 4, 4, 4),
            id="alone-set-each-of-four-opponents-adds-4",
        ),
        pytest.param(
            deal(called_card="9S", partner=None, game_points=None, game="bidders", bid=3),
            {"bidders": 3, "opponents": 3},
            True,
            (3, 3, 3, 3, 3),
            id="called-card-out-of-play-di-is-an-opponent",
        ),
    ],
)
def test_deal_scores_bidders_and_opponents(raw, points, made, deltas):
    done = result(start(), raw)
    assert done.points == points
    assert done.made is made
    assert done.deltas == deltas
    assert done.scores == deltas


@pytest.mark.parametrize(
    ("game_points", "game"),
    [
        pytest.param({"bidders": 27, "opponents": 18}, "bidders", id="bidders-higher"),
        pytest.param({"bidders": 18, "opponents": 27}, "opponents", id="opponents-higher"),
        pytest.param({"bidders": 20, "opponents": 20}, "none", id="equal"),
        pytest.param({"bidders": 7, "opponents": 1}, "bidders", id="low-counts"),
    ],
)
def test_game_goes_to_the_higher_count_and_a_tie_to_nobody(game_points, game):
    done = result(start(), deal(game_points=game_points))
    assert done.game == game
    assert done.game_points == game_points


def test_game_given_as_a_side_stores_no_counts():
    done = result(start(), deal(game_points=None, game="opponents"))
    assert done.game == "opponents"
    assert done.game_points is None


def test_scores_may_go_negative_and_add_up_over_deals():
    state = play(start(), deal(bid=5), deal(bid=6, bidder=2, partner=4, called_card="KH"))
    assert state.last.deltas == (4, 4, -6, 4, -6)
    assert state.scores == (6, -1, -4, -1, -4)


# -- the win check, in docs/rules.md's order ---------------------------------------------------


def last_deal(bidder: int | None, partner: int | None) -> DealResult:
    """Return a stand-in for the deal just scored: only its bidder and partner matter."""
    return DealResult(
        number=1,
        dealer=0,
        kind=DealKind.PLAYED,
        bidders=None,
        made=None,
        deltas=(),
        scores=(),
        detail=FrozenMap(bidder=bidder, partner=partner),
    )


@pytest.mark.parametrize(
    ("scores", "bidder", "partner", "house_rules", "target", "expected"),
    [
        pytest.param(
            (20, 20, 20, 20, 20), 0, 1, {}, None, ("in_progress", (), None), id="nobody-at-21"
        ),
        pytest.param(
            (0, 0, -5, 0, 0), 0, 1, {}, None, ("in_progress", (), None), id="nobody-at-21-negative"
        ),
        pytest.param(
            (21, 20, 20, 20, 20), 1, 2, {}, None, ("won", (0,), "highest"), id="one-at-exactly-21"
        ),
        pytest.param(
            (22, 25, 10, 10, 10),
            0,
            3,
            {},
            None,
            ("won", (1,), "highest"),
            id="highest-beats-bidder",
        ),
        pytest.param(
            (22, 22, 25, 0, 0), 0, 1, {}, None, ("won", (2,), "highest"), id="highest-above-a-tie"
        ),
        pytest.param(
            (22, 22, 0, 0, 0), 1, 3, {}, None, ("won", (1,), "bidder"), id="tie-bidder-among"
        ),
        pytest.param(
            (23, 0, 23, 23, 0), 3, None, {}, None, ("won", (3,), "bidder"), id="3-way-tie-bidder"
        ),
        pytest.param(
            (22, 22, 0, 0, 0),
            1,
            0,
            {"partner_breaks_ties": False},
            None,
            ("won", (1,), "bidder"),
            id="tie-bidder-and-partner-bidder-first",
        ),
        pytest.param(
            (22, 22, 0, 0, 0),
            1,
            0,
            {},
            None,
            ("won", (1,), "bidder"),
            id="tie-bidder-and-partner-bidder-wins",
        ),
        pytest.param(
            (22, 22, 21, 0, 0),
            2,
            3,
            {},
            None,
            ("in_progress", (), None),
            id="tie-above-a-bidder-who-reached-less",
        ),
        pytest.param(
            (22, 22, 0, 21, 0),
            2,
            3,
            {},
            None,
            ("in_progress", (), None),
            id="tie-above-a-partner-who-reached-less",
        ),
        pytest.param(
            (22, 22, 21, 0, 0),
            2,
            3,
            {"unresolved_tie": "shared"},
            None,
            ("shared", (0, 1), "shared"),
            id="shared-only-by-the-tied-leaders",
        ),
        pytest.param(
            (0, 0, 0, 25, 21),
            4,
            0,
            {},
            None,
            ("won", (3,), "highest"),
            id="highest-beats-a-bidder-who-reached-less",
        ),
        pytest.param(
            (22, 0, 22, 0, 0), 1, 2, {}, None, ("won", (2,), "partner"), id="tie-partner-among"
        ),
        pytest.param(
            (22, 0, 22, 0, 0),
            1,
            2,
            {"partner_breaks_ties": True},
            None,
            ("won", (2,), "partner"),
            id="tie-partner-among-house-rule-on",
        ),
        pytest.param(
            (22, 0, 22, 0, 0),
            1,
            2,
            {"partner_breaks_ties": False},
            None,
            ("in_progress", (), None),
            id="tie-partner-among-house-rule-off-play-on",
        ),
        pytest.param(
            (22, 0, 22, 0, 0),
            1,
            2,
            {"partner_breaks_ties": False, "unresolved_tie": "shared"},
            None,
            ("shared", (0, 2), "shared"),
            id="tie-partner-among-house-rule-off-shared",
        ),
        pytest.param(
            (22, 0, 0, 22, 0),
            1,
            2,
            {},
            None,
            ("in_progress", (), None),
            id="tie-of-opponents-play-on",
        ),
        pytest.param(
            (22, 0, 0, 22, 0),
            1,
            2,
            {"unresolved_tie": "play_on"},
            None,
            ("in_progress", (), None),
            id="tie-of-opponents-play-on-explicit",
        ),
        pytest.param(
            (22, 0, 0, 22, 0),
            1,
            2,
            {"unresolved_tie": "shared"},
            None,
            ("shared", (0, 3), "shared"),
            id="tie-of-opponents-shared",
        ),
        pytest.param(
            (0, 30, 30, 30, 0),
            0,
            None,
            {"unresolved_tie": "shared"},
            None,
            ("shared", (1, 2, 3), "shared"),
            id="3-way-tie-shared-winners-ascending",
        ),
        pytest.param(
            (0, 30, 30, 30, 0),
            None,
            None,
            {"unresolved_tie": "shared"},
            None,
            ("shared", (1, 2, 3), "shared"),
            id="tie-after-thrown-in-deal-shared",
        ),
        pytest.param(
            (0, 30, 30, 30, 0),
            None,
            None,
            {},
            None,
            ("in_progress", (), None),
            id="tie-after-thrown-in-deal-play-on",
        ),
        pytest.param(
            (11, 0, 0, 0, 0), 1, 2, {}, 11, ("won", (0,), "highest"), id="target-11-reached"
        ),
        pytest.param(
            (30, 0, 0, 0, 0), 1, 2, {}, 31, ("in_progress", (), None), id="target-31-not-reached"
        ),
        pytest.param((1, 0, 0, 0, 0), 1, 2, {}, 1, ("won", (0,), "highest"), id="target-1"),
        pytest.param(
            (998, 998, 0, 0, 0), 1, 2, {}, 999, ("in_progress", (), None), id="target-999-not-yet"
        ),
    ],
)
def test_win_check_follows_the_steps_in_order(
    scores, bidder, partner, house_rules, target, expected
):
    table = config(target=target, **house_rules)
    outcome = RULES.outcome(table, scores, last_deal(bidder, partner))
    assert (outcome.status, outcome.winners, outcome.decided_by) == expected
    assert outcome.finished is (expected[0] != "in_progress")


@pytest.mark.parametrize(
    ("scores", "bidder", "partner", "house_rules", "names", "words"),
    [
        pytest.param((20, 0, 0, 0, 0), 1, 2, {}, [], ["21"], id="nobody-names-the-target"),
        pytest.param((21, 0, 0, 0, 0), 1, 2, {}, ["Ann"], ["21"], id="highest"),
        pytest.param((22, 25, 0, 0, 0), 1, 2, {}, ["Ann", "Bob"], ["25"], id="highest-of-two"),
        pytest.param((22, 22, 0, 0, 0), 1, 2, {}, ["Ann", "Bob"], ["bid"], id="bidder"),
        pytest.param((22, 0, 22, 0, 0), 1, 2, {}, ["Ann", "Cy"], ["partner"], id="partner"),
        pytest.param(
            (0, 0, 0, 22, 22),
            1,
            2,
            {"unresolved_tie": "shared"},
            ["Di", "Ed"],
            ["share"],
            id="shared",
        ),
        pytest.param(
            (0, 0, 0, 22, 22),
            1,
            2,
            {},
            ["Di", "Ed"],
            ["play"],
            id="play-on",
        ),
    ],
)
def test_win_check_explains_in_words_naming_the_players(
    scores, bidder, partner, house_rules, names, words
):
    outcome = RULES.outcome(config(**house_rules), scores, last_deal(bidder, partner))
    for word in [*names, *words]:
        assert word in str(outcome.explanation)
    assert {name for name in PLAYERS if name in str(outcome.explanation)} == set(names)


# -- explaining a deal -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        pytest.param(deal(), ["Bob", "Di", "K♥", "made", "+4", "+2"], id="made-with-partner"),
        pytest.param(deal(bid=5), ["Bob", "Di", "set", "5"], id="set-with-partner"),
        pytest.param(deal(called_card=None, partner=None), ["Bob", "alone"], id="alone"),
        pytest.param(
            deal(called_card="9S", partner=None), ["Bob", "out of play"], id="card-out-of-play"
        ),
        pytest.param({"thrown_in": True}, ["Ann", "thrown in"], id="thrown-in"),
    ],
)
def test_explain_deal_says_in_words_who_scored_what(raw, words):
    state = start()
    text = " ".join(map(str, explain_deal(state.config, result(state, raw))))
    for word in words:
        assert word in text


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param(deal(called_card="AH", partner=None, high=1), id="always-in-play-no-partner"),
        pytest.param(deal(partner=1), id="partner-is-the-bidder"),
    ],
)
def test_a_bidder_calling_their_own_card_is_pointed_to_no_card_called(raw):
    with pytest.raises(RuleViolation) as info:
        check_deal(start(), parse_entry(start().config, raw))
    (message,) = info.value.problems["partner"]
    assert "cannot call a card from their own hand" in str(message)
    assert "No card called (alone)" in str(message)


def test_explain_says_once_that_the_opponents_took_nothing():
    state = start()
    raw = deal(low=3, off_jack=1, joker=3, game="bidders", game_points=None)
    lines = [str(m) for m in explain_deal(state.config, result(state, raw))]
    assert lines[1:] == [
        "Bidders Bob and Di took High, Low, Jack, Off-jack, Joker and Game: 6, bid 4, made — "
        "each +6.",
        "Opponents took nothing.",
    ]
