"""Six-Handed Schmier (docs/rules.md#six-handed-schmier): entry, scoring, refusals, win check,
words, worked games."""

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scorekeeper.engine.cards import JOKER, Card, Suit
from scorekeeper.engine.describe import FieldKind, Role, SideKind
from scorekeeper.engine.errors import CorrectionConflict, GameOver, RuleViolation, WrongType
from scorekeeper.engine.frozen import FrozenMap
from scorekeeper.engine.game import (
    apply_deal,
    configure,
    correct_deal,
    new_game,
    replay,
)
from scorekeeper.engine.results import DealKind, DealResult, DecidedBy, Status
from scorekeeper.engine.ruleset import GameConfig
from scorekeeper.engine.rulesets.six_handed import (
    DECK,
    PACK_GAME_COUNT,
    SixHandedSchmier,
    trump_order,
)
from tests.engine.test_imports import foreign_imports

RULES = SixHandedSchmier()
PLAYERS = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo")
PAIRS = ((0, 3), (1, 4), (2, 5))
TRIOS = ((0, 2, 4), (1, 3, 5))

BASE: dict[str, Any] = {
    "bidder": 1,
    "bid": 4,
    "trump": "H",
    "high": 3,
    "low": 0,
    "jack": 1,
    "off_jack": 2,
    "joker": 4,
    "game_points": [27, 18, 9],
}
"""API.md's example: Bob (team Bob & Ed) bids 4 in hearts.

Ann & Di take High, Low and Game (27); Bob & Ed take Jack and Joker; Cy & Flo take Off-jack.
"""


def config(
    teams: str = "3x2", unresolved_tie: str = "play_on", target: int = 21, first_dealer: int = 0
) -> GameConfig:
    """Return a six-player table built on the class directly, with every house rule set."""
    return GameConfig(
        RULES,
        PLAYERS,
        first_dealer,
        target,
        FrozenMap({"teams": teams, "unresolved_tie": unresolved_tie}),
    )


def entry(**changes: Any) -> dict[str, Any]:
    """Return BASE with `changes`; a change to None sends null, which means "left out"."""
    raw = dict(BASE)
    raw.update(changes)
    return raw


def score(
    raw: dict[str, Any],
    table: GameConfig | None = None,
    dealer: int = 0,
    scores: tuple[int, ...] = (0,) * 6,
) -> DealResult:
    """Parse and score one deal."""
    table = table or config()
    return RULES.score_deal(table, 1, dealer, scores, RULES.parse_entry(table, raw))


def refused(raw: dict[str, Any], table: GameConfig | None = None, dealer: int = 0) -> set[str]:
    """Return the fields a refused deal names (None for the entry as a whole)."""
    with pytest.raises(RuleViolation) as caught:
        score(raw, table, dealer)
    assert not isinstance(caught.value, WrongType)
    for messages in caught.value.problems.values():
        assert all(str(m).endswith(".") for m in messages)
    return set(caught.value.problems)


# -- the table -----------------------------------------------------------------------


@pytest.mark.parametrize("module", ["six_handed.py", "common.py"])
def test_module_imports_only_the_standard_library(module):
    source = (Path(__file__).parents[2] / "scorekeeper/engine/rulesets" / module).read_text(
        encoding="utf-8"
    )
    assert foreign_imports(source) == []


def test_ruleset_lists_itself_as_api_md_says():
    assert RULES.describe() == {
        "id": "six-handed-schmier",
        "name": "Six-Handed Schmier",
        "players": {"min": 6, "max": 6},
        "target": 21,
        "teams": [[0, 3], [1, 4], [2, 5]],
        "house_rules": {
            "teams": {"values": ["3x2", "2x3"], "default": "3x2"},
            "unresolved_tie": {"values": ["play_on", "shared"], "default": "play_on"},
        },
    }
    assert RULES.side_kind == SideKind.TEAMS
    assert RULES.called_points == ()


@pytest.mark.parametrize(
    ("layout", "teams"),
    [pytest.param("3x2", PAIRS, id="3x2-pairs-opposite"), pytest.param("2x3", TRIOS, id="2x3")],
)
def test_house_rule_teams_sets_the_teams(layout, teams):
    assert RULES.teams(config(teams=layout)) == teams
    assert config(teams=layout).teams() == teams


def test_teams_default_to_pairs_when_the_game_leaves_the_rule_out():
    table = GameConfig(RULES, PLAYERS, 0, 21)
    assert RULES.teams(table) == PAIRS
    assert RULES.default_teams() == PAIRS


def test_configure_fills_in_the_default_house_rules():
    table = configure("six-handed-schmier", list(PLAYERS), 0)
    assert dict(table.house_rules) == {"teams": "3x2", "unresolved_tie": "play_on"}
    assert table.target == 21


@pytest.mark.parametrize(
    ("players", "house_rules"),
    [
        pytest.param(list(PLAYERS[:5]), None, id="five-players"),
        pytest.param([*PLAYERS, "Gus"], None, id="seven-players"),
        pytest.param(list(PLAYERS), {"teams": "2x2"}, id="unknown-teams-value"),
        pytest.param(list(PLAYERS), {"partner_breaks_ties": True}, id="five-handed-house-rule"),
    ],
)
def test_configure_refuses_a_table_this_game_cannot_have(players, house_rules):
    with pytest.raises(RuleViolation) as caught:
        configure("six-handed-schmier", players, 0, None, house_rules)
    assert set(caught.value.problems) == {"players" if house_rules is None else "house_rules"}


def test_deck_is_the_full_pack_and_one_joker_counting_81():
    assert len(DECK) == 53
    assert len(set(DECK)) == 53
    assert JOKER in DECK
    assert Card.parse("2S") in DECK
    assert Card.parse("3C") in DECK
    assert PACK_GAME_COUNT == 81


@pytest.mark.parametrize(
    ("trump", "left"),
    [
        pytest.param("S", "JC", id="spades"),
        pytest.param("C", "JS", id="clubs"),
        pytest.param("H", "JD", id="hearts"),
        pytest.param("D", "JH", id="diamonds"),
    ],
)
def test_trump_runs_from_the_ace_to_the_two_then_the_joker(trump, left):
    order = [str(card) for card in trump_order(Suit(trump))]
    s = trump
    assert order == [
        f"A{s}",
        f"K{s}",
        f"Q{s}",
        f"J{s}",
        left,
        *(f"{r}{s}" for r in ("10", "9", "8", "7", "6", "5", "4", "3", "2")),
        "JOKER",
    ]


def test_entry_fields_are_the_api_fields_with_points_and_advanced_marked():
    fields = {f.name: f for f in RULES.entry_fields(config())}
    assert set(fields) == {
        "bidder",
        "bid",
        "trump",
        "auction",
        "high",
        "low",
        "jack",
        "off_jack",
        "joker",
        "game",
        "game_points",
        "thrown_in",
    }
    assert {n for n, f in fields.items() if f.point} == {
        "high",
        "low",
        "jack",
        "off_jack",
        "joker",
        "game",
    }
    assert {n for n, f in fields.items() if f.advanced} == {"auction", "game_points"}
    assert [c.value for c in fields["bid"].choices] == [3, 4, 5, 6]
    assert fields["game"].kind == FieldKind.SIDE
    assert [c.value for c in fields["game"].choices] == [0, 1, 2, "none"]
    assert [str(c.label) for c in fields["game"].choices[:3]] == [
        "Ann & Di",
        "Bob & Ed",
        "Cy & Flo",
    ]
    assert "2 of trump" in str(fields["low"].hint)


def test_entry_fields_name_the_teams_of_three_under_2x3():
    fields = {f.name: f for f in RULES.entry_fields(config(teams="2x3"))}
    assert [str(c.label) for c in fields["game_points"].choices] == [
        "Ann, Cy & Ed",
        "Bob, Di & Flo",
    ]


# -- scoring -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "layout", "points", "made", "deltas", "bidders"),
    [
        pytest.param(
            {}, "3x2", [3, 2, 1], False, [3, -4, 1, 3, -4, 1], [1, 4], id="api-example-set"
        ),
        pytest.param(
            {"bid": 3, "high": 1, "game_points": [20, 30, 9]},
            "3x2",
            [1, 4, 1],
            True,
            [1, 4, 1, 1, 4, 1],
            [1, 4],
            id="made-with-more-than-the-bid-adds-all",
        ),
        pytest.param(
            {"bid": 3, "high": 4, "game": 1, "game_points": None},
            "3x2",
            [1, 4, 1],
            True,
            [1, 4, 1, 1, 4, 1],
            [1, 4],
            id="game-entered-as-a-team",
        ),
        pytest.param(
            {"bid": 3, "high": 1, "game": "none", "game_points": None},
            "3x2",
            [1, 3, 1],
            True,
            [1, 3, 1, 1, 3, 1],
            [1, 4],
            id="made-exactly",
        ),
        pytest.param(
            {"game_points": [20, 20, 9]},
            "3x2",
            [2, 2, 1],
            False,
            [2, -4, 1, 2, -4, 1],
            [1, 4],
            id="game-tied-for-highest-scores-nobody",
        ),
        pytest.param(
            {"game_points": [20, 9, 20]},
            "3x2",
            [2, 2, 1],
            False,
            [2, -4, 1, 2, -4, 1],
            [1, 4],
            id="tie-between-two-other-teams-also-scores-nobody",
        ),
        pytest.param(
            {
                "bidder": 3,
                "bid": 6,
                "high": 0,
                "low": 3,
                "jack": 0,
                "off_jack": 3,
                "joker": 3,
                "game": 0,
                "game_points": None,
            },
            "3x2",
            [6, 0, 0],
            True,
            [6, 0, 0, 6, 0, 0],
            [3, 0],
            id="bid-6-taking-everything",
        ),
        pytest.param(
            {"bidder": 5, "bid": 5},
            "3x2",
            [3, 2, 1],
            False,
            [3, 2, -5, 3, 2, -5],
            [5, 2],
            id="bidder-then-team-mate-ascending",
        ),
        pytest.param(
            {"game_points": [40, 30]},
            "2x3",
            [4, 2],
            False,
            [4, -4, 4, -4, 4, -4],
            [1, 3, 5],
            id="2x3-bidding-team-set",
        ),
        pytest.param(
            {"bidder": 4, "bid": 3, "game_points": [40, 30]},
            "2x3",
            [4, 2],
            True,
            [4, 2, 4, 2, 4, 2],
            [4, 0, 2],
            id="2x3-bidding-team-made",
        ),
    ],
)
def test_deal_scores_per_team(changes, layout, points, made, deltas, bidders):
    result = score(entry(**changes), config(teams=layout))
    assert result.kind == DealKind.PLAYED
    assert list(result.get("points")) == points
    assert result.made is made
    assert list(result.deltas) == deltas
    assert list(result.bidders) == bidders


def test_scores_may_go_negative():
    result = score(entry(), scores=(2, 1, 0, 2, 1, 0))
    assert list(result.scores) == [5, -3, 1, 5, -3, 1]


@pytest.mark.parametrize(
    ("auction", "dealer", "bidder", "bid"),
    [
        pytest.param([None, None, None, 3, None, None], 2, 0, 3, id="dealer-2-fourth-speaker"),
        pytest.param([3, None, 5, None, 6], 1, 0, 6, id="six-ends-it-early"),
        pytest.param([6], 3, 4, 6, id="first-speaker-bids-six"),
        pytest.param(
            [None, None, None, None, None, 3], 0, 0, 3, id="dealer-bids-after-five-passes"
        ),
        pytest.param([3, 4, None, None, None, None], 1, 3, 4, id="overcall"),
    ],
)
def test_auction_decides_bidder_and_bid(auction, dealer, bidder, bid):
    result = score(entry(bidder=None, bid=None, auction=auction), dealer=dealer)
    assert (result.get("bidder"), result.get("bid")) == (bidder, bid)
    assert result.get("auction") == tuple(auction)
    assert result.bidders[0] == bidder


def test_auction_may_come_with_a_bidder_and_bid_that_agree():
    result = score(entry(bidder=4, bid=3, auction=[None, None, None, 3, None, None]))
    assert (result.get("bidder"), result.get("bid")) == (4, 3)


# -- thrown-in deals -----------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param({"thrown_in": True}, id="flag"),
        pytest.param({"auction": [None] * 6}, id="all-pass-auction"),
        pytest.param({"thrown_in": True, "auction": [None] * 6}, id="both"),
    ],
)
def test_everyone_passing_throws_the_deal_in(raw):
    table = config()
    result = score(raw, table, dealer=4, scores=(1, 2, 3, 1, 2, 3))
    assert result.kind == DealKind.THROWN_IN
    assert (result.made, result.bidders) == (None, None)
    assert result.deltas == (0,) * 6
    assert result.scores == (1, 2, 3, 1, 2, 3)
    assert RULES.next_dealer(table, result) == 4
    assert RULES.seat_tags(table, result) == (frozenset(),) * 6
    assert RULES.roles(table, result) == (None,) * 6
    document = result.to_document()
    assert document["thrown_in"] is True
    assert document["auction"] == raw.get("auction")
    others = set(document) - {"number", "dealer", "thrown_in", "auction", "deltas", "scores"}
    assert all(document[k] is None for k in others)


def test_thrown_in_false_counts_as_left_out():
    assert score(entry(thrown_in=False)).kind == DealKind.PLAYED


# -- refusals ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "fields"),
    [
        pytest.param({"called_card": "KH"}, {"called_card"}, id="called-card-is-not-used"),
        pytest.param({"partner": 3}, {"partner"}, id="partner-is-not-used"),
        pytest.param(
            {"tricks": 3, "forfeit": True}, {"tricks", "forfeit"}, id="other-games-fields"
        ),
        pytest.param({"bidder": 6}, {"bidder"}, id="bidder-not-at-table"),
        pytest.param({"bidder": None}, {"bidder"}, id="bidder-missing"),
        pytest.param({"bid": 2}, {"bid"}, id="bid-2"),
        pytest.param({"bid": 7}, {"bid"}, id="bid-7"),
        pytest.param({"bid": None}, {"bid"}, id="bid-missing"),
        pytest.param({"trump": "X"}, {"trump"}, id="trump-not-a-suit"),
        pytest.param({"trump": "h"}, {"trump"}, id="trump-exact-case"),
        pytest.param({"trump": None}, {"trump"}, id="trump-missing"),
        pytest.param({"high": None}, {"high"}, id="high-always-awarded"),
        pytest.param({"low": None}, {"low"}, id="low-always-awarded"),
        pytest.param({"jack": None}, {"jack"}, id="jack-always-awarded"),
        pytest.param({"off_jack": None}, {"off_jack"}, id="off-jack-always-awarded"),
        pytest.param({"joker": None}, {"joker"}, id="joker-always-awarded"),
        pytest.param({"low": 6}, {"low"}, id="point-seat-not-at-table"),
        pytest.param({"joker": -1}, {"joker"}, id="negative-seat"),
        pytest.param({"game": 0}, {"game"}, id="game-and-counts-both"),
        pytest.param({"game_points": None}, {"game"}, id="neither-game-nor-counts"),
        pytest.param({"game": 3, "game_points": None}, {"game"}, id="game-team-3-of-3"),
        pytest.param({"game": -1, "game_points": None}, {"game"}, id="game-negative"),
        pytest.param(
            {"game": "bidders", "game_points": None}, {"game"}, id="game-five-handed-side"
        ),
        pytest.param({"game_points": [27, 18]}, {"game_points"}, id="two-counts-for-three-teams"),
        pytest.param({"game_points": [27, 18, 9, 0]}, {"game_points"}, id="four-counts"),
        pytest.param({"game_points": [27, -1, 9]}, {"game_points"}, id="negative-count"),
        pytest.param({"game_points": [60, 12, 10]}, {"game_points"}, id="counts-over-81"),
        pytest.param({"game_points": [3, 18, 9]}, {"game_points"}, id="high-team-under-4"),
        pytest.param(
            {"game_points": [27, 1, 9]}, {"game_points"}, id="jack-and-joker-team-under-2"
        ),
        pytest.param({"game_points": [27, 18, 0]}, {"game_points"}, id="off-jack-team-under-1"),
        pytest.param(
            {"bidder": 9, "bid": 9, "trump": "Z", "high": 9, "game": 0, "wild": 1},
            {"bidder", "bid", "trump", "high", "game", "wild"},
            id="every-problem-at-once",
        ),
    ],
)
def test_deal_breaking_a_rule_is_refused_naming_the_field(changes, fields):
    assert refused(entry(**changes)) == fields


def test_game_team_index_follows_the_team_layout():
    assert refused(entry(game=2, game_points=None), config(teams="2x3")) == {"game"}
    assert score(entry(game=2, game_points=None)).get("game") == 2


def test_count_floors_count_the_high_team_at_four_plus_its_jacks_and_joker():
    # Ann & Di take High, Jack, Off-jack and Joker: at least 7.
    raw = entry(high=0, jack=3, off_jack=0, joker=3, low=1, game_points=[6, 0, 0])
    assert refused(raw) == {"game_points"}
    raw = entry(high=0, jack=3, off_jack=0, joker=3, low=1, game_points=[7, 0, 0])
    assert score(raw).kind == DealKind.PLAYED
    # 81 in all is allowed; Low counts nothing towards the floor.
    assert score(entry(game_points=[60, 12, 9])).get("game") == 0


@pytest.mark.parametrize(
    ("auction", "dealer", "changes", "fields"),
    [
        pytest.param([], 0, {}, {"auction"}, id="empty"),
        pytest.param([None] * 7, 0, {}, {"auction"}, id="seven-entries"),
        pytest.param([3, None, None], 0, {}, {"auction"}, id="too-short-without-a-six"),
        pytest.param([6, None], 0, {}, {"auction"}, id="speech-after-six"),
        pytest.param([4, 3, None, None, None, None], 0, {}, {"auction"}, id="does-not-rise"),
        pytest.param([4, 4, None, None, None, None], 0, {}, {"auction"}, id="equal-bid"),
        pytest.param([2, None, None, None, None, None], 0, {}, {"auction"}, id="bid-2"),
        pytest.param([7, None, None, None, None, None], 0, {}, {"auction"}, id="bid-7"),
        pytest.param(
            [3, None, None, None, None, None],
            0,
            {"bidder": 2},
            {"auction", "bidder"},
            id="disagrees-with-bidder",
        ),
        pytest.param(
            [3, None, None, None, None, None],
            0,
            {"bid": 4},
            {"auction", "bid"},
            id="disagrees-with-bid",
        ),
    ],
)
def test_auction_breaking_a_rule_is_refused(auction, dealer, changes, fields):
    raw = entry(bidder=None, bid=None, auction=auction)
    raw.update(changes)
    assert refused(raw, dealer=dealer) == fields


@pytest.mark.parametrize(
    ("raw", "fields"),
    [
        pytest.param(
            {"thrown_in": True, "bidder": 1}, {"thrown_in", "bidder"}, id="flag-and-bidder"
        ),
        pytest.param(entry(thrown_in=True), {"thrown_in", *BASE}, id="flag-and-a-whole-deal"),
        pytest.param(
            {"thrown_in": False, "auction": [None] * 6},
            {"thrown_in", "auction"},
            id="all-pass-with-thrown-in-false",
        ),
        pytest.param(
            {"thrown_in": True, "auction": [None, None, 3, None, None, None]},
            {"thrown_in", "auction"},
            id="flag-with-a-bid-in-the-auction",
        ),
        pytest.param(
            {"auction": [None] * 6, "bidder": 1, "bid": 3},
            {"thrown_in", "auction", "bidder", "bid"},
            id="all-pass-with-a-bid",
        ),
        pytest.param(
            {"auction": [None] * 6, "trump": "S"},
            {"thrown_in", "trump"},
            id="all-pass-with-trump",
        ),
        pytest.param(
            {"thrown_in": True, "auction": [None] * 5},
            {"auction"},
            id="flag-with-a-short-auction",
        ),
        pytest.param(
            {"thrown_in": True, "partner": 2},
            {"partner"},
            id="flag-with-an-unknown-field",
        ),
    ],
)
def test_thrown_in_deal_with_anything_else_is_refused(raw, fields):
    assert refused(raw) == fields


@pytest.mark.parametrize(
    ("field", "value"),
    [
        pytest.param("bidder", "1", id="bidder-string"),
        pytest.param("bidder", True, id="bidder-boolean"),
        pytest.param("bid", 4.0, id="bid-float"),
        pytest.param("bid", "moon", id="bid-moon"),
        pytest.param("trump", 3, id="trump-number"),
        pytest.param("high", 3.0, id="high-float"),
        pytest.param("low", [0], id="low-list"),
        pytest.param("jack", False, id="jack-boolean"),
        pytest.param("off_jack", "2", id="off-jack-string"),
        pytest.param("joker", {}, id="joker-object"),
        pytest.param("game_points", {"bidders": 27}, id="counts-object"),
        pytest.param("game_points", [27, 18.5, 9], id="counts-with-a-float"),
        pytest.param("game_points", [27, None, 9], id="counts-with-a-null"),
        pytest.param("game", True, id="game-boolean"),
        pytest.param("game", [0], id="game-list"),
        pytest.param("auction", [3, "moon"], id="auction-with-moon"),
        pytest.param("auction", "3", id="auction-string"),
        pytest.param("thrown_in", "yes", id="thrown-in-string"),
        pytest.param("number", "3", id="number-string"),
    ],
)
def test_wrong_json_type_is_a_wrong_type_naming_the_field(field, value):
    with pytest.raises(WrongType) as caught:
        RULES.parse_entry(config(), entry(**{field: value}))
    assert set(caught.value.problems) == {field}


@pytest.mark.parametrize("body", [[], "deal", 3, None], ids=["list", "string", "number", "null"])
def test_body_that_is_not_an_object_is_a_wrong_type(body):
    with pytest.raises(WrongType) as caught:
        RULES.parse_entry(config(), body)
    assert set(caught.value.problems) == {None}


def test_speaking_after_a_6_is_the_only_fault_of_that_short_auction():
    with pytest.raises(RuleViolation) as caught:
        score(entry(auction=[6, None], bidder=None, bid=None))
    assert [str(m) for m in caught.value.problems["auction"]] == [
        "A bid of 6 ends the auction, so nobody speaks after it."
    ]


def test_nulls_mean_left_out_and_number_is_kept_apart():
    parsed = RULES.parse_entry(config(), {**BASE, "number": 3, "auction": None})
    assert parsed.number == 3
    assert "auction" not in parsed.raw
    assert "number" not in parsed.raw


# -- the deal document ---------------------------------------------------------------


def test_deal_document_has_the_api_fields_in_order():
    document = score(entry(), dealer=5).to_document()
    assert list(document) == [
        "number",
        "dealer",
        "thrown_in",
        "bidder",
        "bid",
        "trump",
        "auction",
        "high",
        "low",
        "jack",
        "off_jack",
        "joker",
        "game_points",
        "game",
        "bidders",
        "points",
        "made",
        "deltas",
        "scores",
    ]
    assert document == {
        "number": 1,
        "dealer": 5,
        "thrown_in": False,
        "bidder": 1,
        "bid": 4,
        "trump": "H",
        "auction": None,
        "high": 3,
        "low": 0,
        "jack": 1,
        "off_jack": 2,
        "joker": 4,
        "game_points": [27, 18, 9],
        "game": 0,
        "points": [3, 2, 1],
        "bidders": [1, 4],
        "made": False,
        "deltas": [3, -4, 1, 3, -4, 1],
        "scores": [3, -4, 1, 3, -4, 1],
    }
    assert json.loads(json.dumps(document)) == document


def test_game_points_are_null_when_only_game_was_sent():
    document = score(entry(game="none", game_points=None)).to_document()
    assert (document["game_points"], document["game"]) == (None, "none")


@pytest.mark.parametrize(
    "raw", [pytest.param(BASE, id="played"), pytest.param({"thrown_in": True}, id="thrown-in")]
)
def test_deal_result_rebuilds_from_its_document(raw):
    result = score(dict(raw))
    assert DealResult.from_document(result.to_document()) == result


# -- the win check -------------------------------------------------------------------


def last_deal(bidder: int, table: GameConfig | None = None) -> DealResult:
    """Return a played deal with this bidder (scores do not matter to the win check)."""
    return score(entry(bidder=bidder, game=0, game_points=None), table)


@pytest.mark.parametrize(
    ("team_scores", "layout", "bidder", "rule", "status", "winners", "decided_by"),
    [
        pytest.param([20, 19, -3], "3x2", 1, "play_on", "in_progress", [], None, id="nobody"),
        pytest.param([21, 19, 5], "3x2", 1, "play_on", "won", [0, 3], "highest", id="one-team"),
        pytest.param(
            [23, 21, 5], "3x2", 1, "play_on", "won", [0, 3], "highest", id="highest-of-two"
        ),
        pytest.param(
            [21, 21, 5], "3x2", 1, "play_on", "won", [1, 4], "bidder", id="tie-bidder-among"
        ),
        pytest.param([21, 21, 5], "3x2", 5, "play_on", "in_progress", [], None, id="tie-play-on"),
        pytest.param(
            [21, 21, 5], "3x2", 5, "shared", "shared", [0, 1, 3, 4], "shared", id="tie-shared"
        ),
        pytest.param(
            [22, 22, 21],
            "3x2",
            2,
            "play_on",
            "in_progress",
            [],
            None,
            id="bidding-team-at-target-but-not-tied-for-highest",
        ),
        pytest.param(
            [22, 22, 22], "3x2", 5, "play_on", "won", [2, 5], "bidder", id="three-way-bidder"
        ),
        pytest.param(
            [25, 25], "2x3", 3, "play_on", "won", [1, 3, 5], "bidder", id="2x3-tie-bidder"
        ),
        pytest.param([30, 21], "2x3", 3, "play_on", "won", [0, 2, 4], "highest", id="2x3-highest"),
    ],
)
def test_win_check(team_scores, layout, bidder, rule, status, winners, decided_by):
    table = config(teams=layout, unresolved_tie=rule)
    teams = RULES.teams(table)
    scores = [0] * 6
    for team, value in zip(teams, team_scores, strict=True):
        for seat in team:
            scores[seat] = value
    outcome = RULES.outcome(table, scores, last_deal(bidder, table))
    assert outcome.status == Status(status)
    assert list(outcome.winners) == winners
    assert outcome.decided_by == (None if decided_by is None else DecidedBy(decided_by))
    assert str(outcome.explanation).endswith(".")
    for seat in winners:
        assert PLAYERS[seat] in str(outcome.explanation)


def test_open_tie_names_the_tied_seats_and_the_house_rule():
    outcome = RULES.outcome(config(), [21, 21, 5, 21, 21, 5], last_deal(2))
    assert outcome.open_tie == (0, 1, 3, 4)
    assert str(outcome.explanation) == (
        "Ann & Di and Bob & Ed are tied at 21 and the bidding team is not among them, and "
        "the written rules do not settle the tie, so another deal is played "
        "(house rule: play on)."
    )


def test_win_explanations_name_the_teams_and_the_rule():
    table = config()
    bidder = RULES.outcome(table, [21, 21, 5, 21, 21, 5], last_deal(4))
    assert str(bidder.explanation) == (
        "Ann & Di and Bob & Ed are tied at 21; Ed bid this deal, so the bidding team, "
        "Bob & Ed, win."
    )
    highest = RULES.outcome(table, [23, 21, 5, 23, 21, 5], last_deal(4))
    assert str(highest.explanation) == (
        "Ann & Di and Bob & Ed reached 21; Ann & Di have the highest score, 23, so Ann & Di win."
    )
    before = RULES.outcome(table, [0] * 6, None)
    assert (before.status, str(before.explanation)) == (
        Status.IN_PROGRESS,
        "No team has reached 21 yet.",
    )


def test_target_comes_from_the_game():
    outcome = RULES.outcome(config(target=11), [11, 3, 0, 11, 3, 0], last_deal(1))
    assert (outcome.status, outcome.winners) == (Status.WON, (0, 3))


# -- words and records -----------------------------------------------------------------


def test_explain_says_who_bid_what_each_team_took_and_the_counts():
    lines = [str(m) for m in RULES.explain(config(), score(entry()))]
    assert lines == [
        "Bob bid 4 with hearts trump for the team Bob & Ed.",
        "Bob & Ed took Jack and Joker: 2 for a bid of 4, set, so each \N{MINUS SIGN}4.",
        "Ann & Di took High, Low and Game: each +3.",
        "Cy & Flo took Off-jack: each +1.",
        "Game counted 27 for Ann & Di, 18 for Bob & Ed and 9 for Cy & Flo.",
    ]


def test_explain_a_made_bid_a_team_with_nothing_and_a_tied_game():
    raw = entry(bid=3, high=1, low=4, game="none", game_points=None)
    lines = [str(m) for m in RULES.explain(config(), score(raw))]
    assert lines == [
        "Bob bid 3 with hearts trump for the team Bob & Ed.",
        "Bob & Ed took High, Low, Jack and Joker: 4 for a bid of 3, made, so each +4.",
        "Cy & Flo took Off-jack: each +1.",
        "Ann & Di took nothing.",
        "Game was tied at the top, so nobody scored it.",
    ]


def test_explain_a_thrown_in_deal():
    result = score({"thrown_in": True}, dealer=2)
    assert [str(m) for m in RULES.explain(config(), result)] == [
        "Everyone passed, so the deal was thrown in and Cy deals again."
    ]


def test_roles_and_tags_mark_the_bidder_and_the_team_mates():
    table = config(teams="2x3")
    result = score(entry(game_points=[40, 30]), table)
    assert RULES.roles(table, result) == (
        Role.OPPONENT,
        Role.BIDDER,
        Role.OPPONENT,
        Role.PARTNER,
        Role.OPPONENT,
        Role.PARTNER,
    )
    tags = RULES.seat_tags(table, result)
    assert tags[1] == frozenset({"bid", "set"})
    assert all(tags[s] == frozenset() for s in (0, 2, 3, 4, 5))
    assert {s.tag for s in RULES.statistics} >= {"bid", "made", "set"}


def test_played_deal_passes_the_deal_to_the_left():
    assert RULES.next_dealer(config(), score(entry(), dealer=5)) == 0


# -- the worked games ------------------------------------------------------------------

EXAMPLES = Path(__file__).parents[1] / "data" / "other-rulesets-games.json"
GAMES = [
    g
    for g in json.loads(EXAMPLES.read_text(encoding="utf-8"))
    if g["ruleset"] == "six-handed-schmier"
]


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


EACH_GAME = pytest.mark.parametrize(
    "game",
    [pytest.param(g, id=f"{n}-{slug(g['about'])}") for n, g in enumerate(GAMES, start=1)],
)


def table_of(game: dict[str, Any]) -> GameConfig:
    return configure(
        game["ruleset"], game["players"], game["first_dealer"], game["target"], game["house_rules"]
    )


def test_there_are_three_worked_six_handed_games():
    assert len(GAMES) == 3


@EACH_GAME
def test_engine_reproduces_every_deal_of_the_worked_game(game):
    table = table_of(game)
    state = new_game(table)
    deals = zip(game["deals"], game["expected"]["after_each_deal"], strict=True)
    for number, (raw, expected) in enumerate(deals, start=1):
        assert not state.outcome.finished, f"the game ended before deal {number}"
        state = apply_deal(state, RULES.parse_entry(table, raw))
        done = state.last
        assert done is not None
        assert (done.number, done.dealer) == (number, expected["dealer"])
        assert list(done.deltas) == expected["deltas"], f"deal {number}"
        assert list(done.scores) == expected["scores"], f"deal {number}"
        assert done.made == expected["made"], f"deal {number}"
        bidders = None if done.bidders is None else list(done.bidders)
        assert bidders == expected["bidders"], f"deal {number}"
        for message in RULES.explain(table, done):
            assert str(message).endswith(".")


@EACH_GAME
def test_engine_reaches_the_worked_games_outcome(game):
    table = table_of(game)
    state = replay(table, game["deals"])[-1]
    expected = game["expected"]
    assert list(state.scores) == expected["scores"]
    assert state.outcome.status == Status(expected["status"])
    assert list(state.outcome.winners) == expected["winners"]
    assert state.outcome.decided_by == DecidedBy(expected["decided_by"])
    assert state.next_dealer == expected["next_dealer"]
    assert [list(team) for team in table.teams() or ()] == expected["teams"]


# -- properties ----------------------------------------------------------------------

SEATS = st.integers(0, 5)


@st.composite
def played_entries(draw: st.DrawFn, teams: tuple[tuple[int, ...], ...] = PAIRS) -> dict[str, Any]:
    """Draw a valid played deal: seats for the points, and Game as a team or as counts."""
    raw: dict[str, Any] = {
        "bidder": draw(SEATS),
        "bid": draw(st.integers(3, 6)),
        "trump": draw(st.sampled_from("SHDC")),
        **{f: draw(SEATS) for f in ("high", "low", "jack", "off_jack", "joker")},
    }
    if draw(st.booleans()):
        raw["game"] = draw(st.sampled_from([*range(len(teams)), "none"]))
    else:
        floors = []
        for team in teams:
            floor = 4 if raw["high"] in team else 0
            floor += sum(raw[f] in team for f in ("jack", "off_jack", "joker"))
            floors.append(floor)
        raw["game_points"] = [f + draw(st.integers(0, 20)) for f in floors]
    return raw


@st.composite
def any_entries(draw: st.DrawFn) -> dict[str, Any]:
    """Draw a deal or a thrown-in deal (all-pass auction or flag)."""
    kind = draw(st.sampled_from(["played", "played", "played", "flag", "auction"]))
    if kind == "flag":
        return {"thrown_in": True}
    if kind == "auction":
        return {"auction": [None] * 6}
    return draw(played_entries())


LAYOUTS = {"3x2": PAIRS, "2x3": TRIOS}


@given(
    case=st.sampled_from(sorted(LAYOUTS)).flatmap(
        lambda layout: st.tuples(st.just(layout), played_entries(LAYOUTS[layout]))
    )
)
def test_team_mates_always_carry_equal_deltas_and_points_add_to_six_or_five(case):
    layout, raw = case
    table = config(teams=layout)
    teams = RULES.teams(table)
    result = score(raw, table)
    for team in teams:
        assert len({result.deltas[s] for s in team}) == 1
        assert len({result.scores[s] for s in team}) == 1
    points = result.get("points")
    assert sum(points) == (5 if result.get("game") == "none" else 6)
    bidding = next(i for i, t in enumerate(teams) if raw["bidder"] in t)
    for index, team in enumerate(teams):
        expected = points[index]
        if index == bidding:
            expected = points[index] if result.made else -raw["bid"]
        assert result.deltas[team[0]] == expected
    assert result.made == (points[bidding] >= raw["bid"])
    assert result.bidders[0] == raw["bidder"]
    assert sorted(result.bidders) == sorted(teams[bidding])
    assert all(str(m).endswith(".") for m in RULES.explain(table, result))


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 90)
    | st.floats(allow_nan=False)
    | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=7) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=10,
)
FIELD_NAMES = st.sampled_from(
    [*BASE, "auction", "game", "thrown_in", "called_card", "partner", "number", "x"]
)


@given(body=st.dictionaries(FIELD_NAMES, JSON_VALUES, max_size=12) | JSON_VALUES)
@settings(suppress_health_check=[HealthCheck.too_slow])
def test_any_json_body_is_scored_or_refused_with_a_rule_violation(body):
    table = config()
    try:
        result = RULES.score_deal(table, 1, 0, (0,) * 6, RULES.parse_entry(table, body))
    except RuleViolation as violation:
        assert violation.problems
        assert all(str(m) for ms in violation.problems.values() for m in ms)
        return
    assert sum(result.deltas) == sum(result.scores)


@given(entries=st.lists(any_entries(), min_size=1, max_size=12), first=SEATS)
@settings(deadline=None)
def test_replay_is_deterministic_and_keeps_team_scores_equal(entries, first):
    table = config(first_dealer=first, target=999)
    once, twice = replay(table, entries), replay(table, entries)
    assert once == twice
    dealer = first
    for state in once:
        assert state.last is not None
        assert state.last.dealer == dealer
        dealer = state.next_dealer
        for team in PAIRS:
            assert len({state.scores[s] for s in team}) == 1


@given(
    entries=st.lists(any_entries(), min_size=1, max_size=10),
    replacement=any_entries(),
    data=st.data(),
)
@settings(deadline=None)
def test_a_correction_then_its_inverse_restores_every_score(entries, replacement, data):
    table = config(target=15)
    try:
        states = replay(table, entries)
    except GameOver:
        assume(False)
    number = data.draw(st.integers(1, len(entries)))
    original = RULES.parse_entry(table, entries[number - 1])
    try:
        corrected = correct_deal(table, entries, number, RULES.parse_entry(table, replacement))
    except CorrectionConflict:
        return
    changed = [*entries]
    changed[number - 1] = replacement
    assert [r.scores for r in corrected] == [s.scores for s in replay(table, changed)]
    restored = correct_deal(table, changed, number, original)
    assert [r.scores for r in restored] == [s.scores for s in states]
    assert [r.dealer for r in restored] == [s.last.dealer for s in states if s.last]


def test_correction_that_would_end_the_game_before_the_last_deal_is_refused():
    table = config(target=6)
    quiet = entry(bid=3, high=1, game="none", game_points=None)
    entries = [quiet, quiet]
    sweep = entry(
        bidder=0, bid=6, high=0, low=3, jack=0, off_jack=3, joker=0, game=0, game_points=None
    )
    with pytest.raises(CorrectionConflict) as caught:
        correct_deal(table, entries, 1, RULES.parse_entry(table, sweep))
    assert caught.value.number == 2
    state = apply_deal(new_game(table), RULES.parse_entry(table, sweep))
    assert (state.outcome.status, state.outcome.winners) == (Status.WON, (0, 3))
    with pytest.raises(GameOver):
        apply_deal(state, RULES.parse_entry(table, quiet))


def test_explain_names_every_team_that_took_nothing_in_one_line():
    raw = entry(bid=4, high=1, low=4, jack=1, off_jack=4, joker=1, game_points=[0, 30, 0])
    lines = [str(m) for m in RULES.explain(config(), score(raw))]
    assert lines == [
        "Bob bid 4 with hearts trump for the team Bob & Ed.",
        "Bob & Ed took High, Low, Jack, Off-jack, Joker and Game: 6 for a bid of 4, made, so "
        "each +6.",
        "Ann & Di and Cy & Flo took nothing.",
        "Game counted 0 for Ann & Di, 30 for Bob & Ed and 0 for Cy & Flo.",
    ]
