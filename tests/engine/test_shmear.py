"""The Shmear family (docs/rules.md#the-shmear-family): Shmear, High-Low, Partner, Kitty."""

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.engine import (
    CorrectionConflict,
    DealResult,
    GameConfig,
    GameOver,
    RuleViolation,
    WrongType,
    apply_deal,
    correct_deal,
    new_game,
    parse_entry,
    replay,
)
from scorekeeper.engine.describe import FieldKind, Role, SideKind
from scorekeeper.engine.frozen import FrozenMap, freeze
from scorekeeper.engine.game import GameState
from scorekeeper.engine.results import DealKind, DecidedBy, Status
from scorekeeper.engine.rulesets.shmear import (
    DECK,
    MOON,
    PACK_GAME_COUNT,
    Shmear,
    ShmearFamily,
    ShmearHighLow,
    ShmearKitty,
    ShmearPartners,
)
from tests.quick import examples

SHMEAR = Shmear()
HIGH_LOW = ShmearHighLow()
PARTNERS = ShmearPartners()
KITTY = ShmearKitty()
FAMILY: tuple[ShmearFamily, ...] = (SHMEAR, HIGH_LOW, PARTNERS, KITTY)
BY_ID = {rules.id: rules for rules in FAMILY}
NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo")

EXAMPLES = Path(__file__).parents[1] / "data" / "other-rulesets-games.json"
GAMES = [g for g in json.loads(EXAMPLES.read_text(encoding="utf-8")) if g["ruleset"] in BY_ID]


def table(
    rules: ShmearFamily,
    seats: int = 4,
    first_dealer: int = 0,
    target: int | None = None,
    **house_rules: Any,
) -> GameConfig:
    """Return a game of this ruleset with the first `seats` of Ann, Bob, Cy, Di, Ed and Flo."""
    effective = {name: rule.default for name, rule in rules.house_rules.items()}
    effective.update(house_rules)
    return GameConfig(
        rules,
        NAMES[:seats],
        first_dealer,
        rules.target if target is None else target,
        FrozenMap(effective),
    )


def score(
    config: GameConfig, raw: dict[str, Any], before: tuple[int, ...] | None = None, dealer: int = 0
) -> DealResult:
    """Return deal 1 scored from `before` (zeros by default) with `dealer` dealing."""
    before = before or (0,) * config.seats
    return config.ruleset.score_deal(config, 1, dealer, before, parse_entry(config, raw))


def refused(
    config: GameConfig, raw: dict[str, Any], before: tuple[int, ...] | None = None, dealer: int = 0
) -> RuleViolation:
    """Return the violation raised when `raw` is scored."""
    with pytest.raises(RuleViolation) as info:
        score(config, raw, before, dealer)
    return info.value


def last(
    bidder: int,
    bid: int | str = 2,
    made: bool = True,
    bidders: tuple[int, ...] | None = None,
    kind: DealKind = DealKind.PLAYED,
) -> DealResult:
    """Return a stand-in last deal for the win check: only its contract matters there."""
    played = kind == DealKind.PLAYED
    return DealResult(
        1,
        0,
        kind,
        (bidders or (bidder,)) if played else None,
        made if played else None,
        (0,),
        (0,),
        freeze({"bidder": bidder if played else None, "bid": bid if played else None}),
    )


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


# -- the rulesets as listed ----------------------------------------------------------------

TIE = {"values": ["play_on", "shared"], "default": "play_on"}
LOW = {"values": [True, False], "default": False}


@pytest.mark.parametrize(
    ("rules", "listed"),
    [
        pytest.param(
            SHMEAR,
            {
                "id": "shmear",
                "name": "Shmear",
                "players": {"min": 3, "max": 6},
                "target": 11,
                "teams": None,
                "house_rules": {
                    "low_to_taker": LOW,
                    "jick": LOW,
                    "negative_scores": LOW,
                    "unresolved_tie": TIE,
                },
            },
            id="shmear",
        ),
        pytest.param(
            HIGH_LOW,
            {
                "id": "shmear-high-low",
                "name": "High-Low Shmear",
                "players": {"min": 4, "max": 4},
                "target": 15,
                "teams": None,
                "house_rules": {
                    "low_to_taker": LOW,
                    "jick": LOW,
                    "negative_scores": LOW,
                    "unresolved_tie": TIE,
                },
            },
            id="high-low",
        ),
        pytest.param(
            PARTNERS,
            {
                "id": "shmear-partners",
                "name": "Partner Shmear",
                "players": {"min": 4, "max": 4},
                "target": 15,
                "teams": [[0, 2], [1, 3]],
                "house_rules": {"low_to_taker": LOW, "jick": LOW, "negative_scores": LOW},
            },
            id="partners",
        ),
        pytest.param(
            KITTY,
            {
                "id": "shmear-kitty",
                "name": "Shmear with a Kitty",
                "players": {"min": 3, "max": 6},
                "target": 15,
                "teams": None,
                "house_rules": {
                    "low_to_taker": LOW,
                    "jick": LOW,
                    "negative_scores": LOW,
                    "unresolved_tie": TIE,
                },
            },
            id="kitty",
        ),
    ],
)
def test_ruleset_is_listed_exactly_as_api_md(rules, listed):
    assert rules.describe() == listed


@pytest.mark.parametrize(
    ("rules", "kind"),
    [
        pytest.param(SHMEAR, SideKind.INDIVIDUAL, id="shmear"),
        pytest.param(HIGH_LOW, SideKind.PAIR, id="high-low"),
        pytest.param(PARTNERS, SideKind.TEAMS, id="partners"),
        pytest.param(KITTY, SideKind.INDIVIDUAL, id="kitty"),
    ],
)
def test_side_kind_says_who_scores_together(rules, kind):
    assert rules.side_kind == kind


def test_the_deck_is_the_standard_52_without_a_joker():
    assert len(DECK) == 52 == len(set(DECK))
    assert all(not card.is_joker for card in DECK)
    assert {str(c) for c in DECK} >= {"AS", "2S", "10H", "JD", "4C"}


def test_the_pack_counts_80_for_game():
    assert PACK_GAME_COUNT == 80


def test_partner_teams_sit_opposite():
    assert table(PARTNERS).teams() == ((0, 2), (1, 3))
    assert table(SHMEAR).teams() is None
    assert table(HIGH_LOW).teams() is None


# -- the entry as data ------------------------------------------------------------------


@pytest.mark.parametrize("rules", FAMILY, ids=lambda r: r.id)
def test_entry_fields_are_the_api_md_fields(rules):
    fields = {f.name: f for f in rules.entry_fields(table(rules))}
    assert set(fields) == {
        "forfeit",
        "bidder",
        "bid",
        "trump",
        "auction",
        "high",
        "low",
        "jack",
        "game_points",
        "game",
    }
    assert {n for n, f in fields.items() if f.point} == {"high", "low", "jack", "game"}
    assert {n for n, f in fields.items() if f.advanced} == {"auction", "game_points"}
    assert str(fields["jack"].blank) == "Not in play"
    assert fields["forfeit"].kind == FieldKind.FLAG
    assert all(str(f.label) for f in fields.values())


@pytest.mark.parametrize(
    ("rules", "bids"),
    [
        pytest.param(SHMEAR, [2, 3, 4, "moon"], id="shmear"),
        pytest.param(HIGH_LOW, [2, 3, 4], id="high-low-has-no-moon"),
        pytest.param(PARTNERS, [2, 3, 4, "moon"], id="partners"),
        pytest.param(KITTY, [2, 3, 4, "moon"], id="kitty"),
    ],
)
def test_bid_choices_are_the_rulesets_bids(rules, bids):
    (bid,) = [f for f in rules.entry_fields(table(rules)) if f.name == "bid"]
    assert [c.value for c in bid.choices] == bids


@pytest.mark.parametrize(
    ("low_to_taker", "hint"),
    [
        pytest.param(False, "Who held and played the lowest trump in play.", id="off"),
        pytest.param(
            True,
            "Who captured the lowest trump in play (house rule: Low to the taker).",
            id="on",
        ),
    ],
)
def test_low_to_taker_only_changes_the_low_hint(low_to_taker, hint):
    config = table(SHMEAR, low_to_taker=low_to_taker)
    (low,) = [f for f in SHMEAR.entry_fields(config) if f.name == "low"]
    assert str(low.hint) == hint
    raw = {"bidder": 1, "bid": 2, "trump": "S", "high": 1, "low": 2, "game": 1}
    assert score(config, raw).deltas == (0, 2, 1, 0)


# -- JSON types ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value"),
    [
        pytest.param("bidder", "1", id="bidder-string"),
        pytest.param("bidder", True, id="bidder-boolean"),
        pytest.param("bid", True, id="bid-boolean"),
        pytest.param("bid", 2.0, id="bid-float"),
        pytest.param("bid", [2], id="bid-list"),
        pytest.param("trump", 1, id="trump-number"),
        pytest.param("high", "1", id="high-string"),
        pytest.param("low", 1.0, id="low-float"),
        pytest.param("jack", False, id="jack-boolean"),
        pytest.param("auction", "2", id="auction-string"),
        pytest.param("auction", [2.0, None], id="auction-float-entry"),
        pytest.param("auction", [True], id="auction-boolean-entry"),
        pytest.param("game_points", {"bidders": 1}, id="counts-object"),
        pytest.param("game_points", [1, "2"], id="counts-string-entry"),
        pytest.param("game_points", [1, None], id="counts-null-entry"),
        pytest.param("game", 1.5, id="game-float"),
        pytest.param("game", True, id="game-boolean"),
        pytest.param("forfeit", "yes", id="forfeit-string"),
        pytest.param("forfeit", 1, id="forfeit-number"),
        pytest.param("number", "3", id="number-string"),
    ],
)
def test_parse_entry_refuses_a_wrong_json_type_naming_the_field(field, value):
    raw = {"bidder": 1, "bid": 2, "trump": "S", "high": 1, "low": 1, "game": 1, field: value}
    with pytest.raises(WrongType) as info:
        parse_entry(table(SHMEAR), raw)
    assert set(info.value.problems) == {field}


def test_parse_entry_refuses_a_body_that_is_not_an_object():
    with pytest.raises(WrongType) as info:
        parse_entry(table(SHMEAR), [1, 2])
    assert set(info.value.problems) == {None}


def test_parse_entry_drops_nulls_and_keeps_the_number_apart():
    entry = parse_entry(table(SHMEAR), {"number": 4, "jack": None, "bid": "moon"})
    assert entry.number == 4
    assert dict(entry.raw) == {"bid": "moon"}


# -- scoring Shmear ------------------------------------------------------------------------

BASE = {"bidder": 1, "bid": 2, "trump": "H"}


@pytest.mark.parametrize(
    ("raw", "before", "deltas", "made", "points", "game"),
    [
        pytest.param(
            {**BASE, "high": 1, "low": 1, "jack": 2, "game": 3},
            (0, 0, 0, 0),
            (0, 2, 1, 1),
            True,
            [0, 2, 1, 1],
            3,
            id="bid-made-exactly-adds-what-was-taken",
        ),
        pytest.param(
            {**BASE, "high": 1, "low": 1, "jack": 1, "game_points": [10, 30, 5, 5]},
            (0, 0, 0, 0),
            (0, 4, 0, 0),
            True,
            [0, 4, 0, 0],
            1,
            id="bid-made-adds-everything-taken-beyond-the-bid",
        ),
        pytest.param(
            {**BASE, "bid": 3, "high": 1, "low": 0, "jack": 2, "game": 3},
            (5, 5, 5, 5),
            (1, -3, 1, 1),
            False,
            [1, 1, 1, 1],
            3,
            id="bid-set-subtracts-the-bid-others-add-what-they-took",
        ),
        pytest.param(
            {**BASE, "high": 0, "low": 0, "game": "none"},
            (0, 1, 0, 0),
            (2, -1, 0, 0),
            False,
            [2, 0, 0, 0],
            "none",
            id="set-bid-of-2-at-a-score-of-1-is-minus-1",
        ),
        pytest.param(
            {**BASE, "high": 0, "low": 0, "game": 0},
            (0, 0, 0, 0),
            (3, 0, 0, 0),
            False,
            [3, 0, 0, 0],
            0,
            id="set-bid-at-0-stays-at-0",
        ),
        pytest.param(
            {**BASE, "bidder": 2, "bid": 3, "high": 2, "low": 2, "game": 2},
            (0, 0, 0, 0),
            (0, 0, 3, 0),
            True,
            [0, 0, 3, 0],
            2,
            id="jack-not-in-play-scores-nobody",
        ),
        pytest.param(
            {**BASE, "bidder": 0, "high": 0, "low": 1, "jack": 0, "game_points": [20, 20, 10, 5]},
            (0, 0, 0, 0),
            (2, 1, 0, 0),
            True,
            [2, 1, 0, 0],
            "none",
            id="game-counts-tied-for-highest-score-nobody",
        ),
        pytest.param(
            {**BASE, "bidder": 0, "high": 0, "low": 1, "jack": 3, "game_points": [30, 10, 35, 5]},
            (0, 0, 0, 0),
            (0, 1, 1, 1),
            False,
            [1, 1, 1, 1],
            2,
            id="game-to-the-highest-count",
        ),
        pytest.param(
            {**BASE, "bid": "moon", "high": 1, "low": 1, "jack": 1, "game": 1},
            (3, 2, 0, 0),
            (0, 4, 0, 0),
            True,
            [0, 4, 0, 0],
            1,
            id="moon-made-adds-the-four-points",
        ),
        pytest.param(
            {**BASE, "bid": "moon", "high": 1, "low": 1, "jack": 1, "game": 0},
            (3, 7, 0, 0),
            (1, -7, 0, 0),
            False,
            [1, 3, 0, 0],
            0,
            id="moon-missed-sets-the-shooter-to-0-others-add",
        ),
        pytest.param(
            {**BASE, "bid": "moon", "high": 1, "low": 1, "game": 1},
            (0, 5, 0, 0),
            (0, -5, 0, 0),
            False,
            [0, 3, 0, 0],
            1,
            id="moon-needs-the-jack-in-play",
        ),
        pytest.param(
            {**BASE, "bid": "moon", "high": 1, "low": 1, "jack": 1, "game": "none"},
            (0, 1, 0, 0),
            (0, -1, 0, 0),
            False,
            [0, 3, 0, 0],
            "none",
            id="moon-needs-game-awarded",
        ),
    ],
)
def test_shmear_scores_a_deal(raw, before, deltas, made, points, game):
    result = score(table(SHMEAR), raw, before)
    assert result.kind == DealKind.PLAYED
    assert result.deltas == deltas
    assert result.scores == tuple(b + d for b, d in zip(before, deltas, strict=True))
    assert result.made is made
    assert result.bidders == (raw["bidder"],)
    assert list(result.get("points")) == points
    assert result.get("game") == game


@pytest.mark.parametrize(
    ("dealer", "auction", "bidder", "bid"),
    [
        pytest.param(0, [2, None, 4, None], 3, 4, id="last-bid-wins-counting-from-the-left"),
        pytest.param(2, [None, 3, None, None], 0, 3, id="seats-wrap-round-the-table"),
        pytest.param(0, [2, "moon"], 2, MOON, id="moon-ends-the-auction"),
        pytest.param(0, [None, None, None, 4], 0, 4, id="dealer-speaks-last"),
        pytest.param(1, [2, 3, 4, None], 0, 4, id="a-4-does-not-end-it"),
    ],
)
def test_the_auction_decides_bidder_and_bid(dealer, auction, bidder, bid):
    raw = {"trump": "S", "high": bidder, "low": bidder, "jack": bidder, "game": bidder}
    result = score(table(SHMEAR), {**raw, "auction": auction}, (1, 1, 1, 1), dealer)
    assert (result.get("bidder"), result.get("bid")) == (bidder, bid)
    assert list(result.get("auction")) == auction
    assert result.bidders == (bidder,)


@pytest.mark.parametrize(
    "given",
    [
        pytest.param({}, id="bidder-and-bid-left-out"),
        pytest.param({"bidder": 3, "bid": 2}, id="bidder-and-bid-sent-matching"),
    ],
)
def test_everyone_passing_makes_the_dealer_play_at_2(given):
    raw = {"auction": [None] * 4, "trump": "C", "high": 3, "low": 1, "jack": 3, "game": 3}
    result = score(table(SHMEAR), {**raw, **given}, dealer=3)
    assert (result.get("bidder"), result.get("bid"), result.made) == (3, 2, True)
    assert result.deltas == (0, 1, 0, 3)
    assert result.get("forfeit") is False


def test_a_dealer_short_at_the_forced_2_loses_2_and_earns_a_smuck():
    config = table(SHMEAR)
    raw = {"auction": [None] * 4, "trump": "C", "high": 0, "low": 3, "jack": 0, "game": 0}
    result = score(config, raw, (4, 4, 4, 4), dealer=3)
    assert result.deltas == (3, 0, 0, -2)
    assert result.made is False
    assert SHMEAR.smucks(config, [result]) == (0, 0, 0, 1)


# -- scoring High-Low Shmear ------------------------------------------------------------------

HL = {"bidder": 0, "bid": 3, "trump": "D"}


@pytest.mark.parametrize(
    ("raw", "before", "deltas", "made", "bidders", "points", "game"),
    [
        pytest.param(
            {**HL, "bid": 2, "high": 1, "low": 2, "jack": 3, "game": 1},
            (0, 0, 0, 0),
            (0, 3, 3, 1),
            True,
            (1, 2),
            [0, 2, 1, 1],
            1,
            id="high-and-low-are-partners-each-scores-the-pairs-points",
        ),
        pytest.param(
            {**HL, "bid": 2, "high": 1, "low": 2, "jack": 3, "game": 2},
            (0, 0, 0, 0),
            (0, 3, 3, 1),
            True,
            (1, 2),
            [0, 2, 1, 1],
            1,
            id="game-given-as-lows-seat-is-the-pairs-game-under-high",
        ),
        pytest.param(
            {**HL, "high": 1, "low": 2, "jack": 3, "game_points": [24, 10, 15, 20]},
            (0, 0, 0, 0),
            (0, 3, 3, 1),
            True,
            (1, 2),
            [0, 2, 1, 1],
            1,
            id="pooled-count-25-beats-the-best-single-24",
        ),
        pytest.param(
            {**HL, "high": 1, "low": 2, "jack": 3, "game_points": [25, 10, 15, 20]},
            (5, 5, 1, 0),
            (0, -3, -1, 1),
            False,
            (1, 2),
            [0, 1, 1, 1],
            "none",
            id="pooled-count-tied-with-a-single-scores-nobody-each-member-set",
        ),
        pytest.param(
            {**HL, "high": 2, "low": 2, "jack": 2, "game_points": [10, 30, 20, 5]},
            (0, 0, 0, 0),
            (0, 1, 3, 0),
            True,
            (2,),
            [0, 1, 3, 0],
            1,
            id="one-seat-both-high-and-low-plays-alone",
        ),
        pytest.param(
            {**HL, "bidder": 3, "bid": 4, "high": 1, "low": 2, "jack": 3, "game": 0},
            (0, 6, 6, 0),
            (1, -4, -4, 1),
            False,
            (1, 2),
            [1, 1, 1, 1],
            0,
            id="bidder-outside-the-pair-scores-what-it-took",
        ),
        pytest.param(
            {**HL, "bid": 2, "high": 3, "low": 1, "jack": 0, "game": 0},
            (0, 0, 0, 0),
            (2, 2, 0, 2),
            True,
            (3, 1),
            [2, 1, 0, 1],
            0,
            id="a-bid-of-2-is-always-made",
        ),
    ],
)
def test_high_low_scores_a_deal(raw, before, deltas, made, bidders, points, game):
    result = score(table(HIGH_LOW), raw, before)
    assert result.deltas == deltas
    assert result.made is made
    assert result.bidders == bidders
    assert list(result.get("points")) == points
    assert result.get("game") == game


def test_high_low_roles_are_bidder_pair_and_the_rest():
    result = score(table(HIGH_LOW), {**HL, "bidder": 3, "high": 1, "low": 2, "game": 0})
    assert HIGH_LOW.roles(table(HIGH_LOW), result) == (
        Role.OPPONENT,
        Role.PARTNER,
        Role.PARTNER,
        Role.BIDDER,
    )


def test_high_low_smuck_goes_to_each_member_of_a_pair_that_fell_short():
    config = table(HIGH_LOW)
    result = score(config, {**HL, "bid": 4, "high": 1, "low": 2, "game": 0}, (3, 3, 3, 3))
    assert HIGH_LOW.smucks(config, [result]) == (0, 1, 1, 0)
    assert HIGH_LOW.player_extras(config, [result]) == (
        {"smucks": 0},
        {"smucks": 1},
        {"smucks": 1},
        {"smucks": 0},
    )


# -- scoring Partner Shmear -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "before", "deltas", "made", "bidders", "points", "game"),
    [
        pytest.param(
            {"bidder": 2, "bid": 2, "trump": "S", "high": 0, "low": 2, "jack": 1},
            (0, 0, 0, 0),
            (3, 1, 3, 1),
            True,
            (2, 0),
            [3, 1],
            0,
            id="team-points-scored-by-both-members",
        ),
        pytest.param(
            {"bidder": 0, "bid": 3, "trump": "S", "high": 1, "low": 0, "jack": 3, "game": 1},
            (1, 4, 1, 4),
            (-1, 3, -1, 3),
            False,
            (0, 2),
            [1, 3],
            1,
            id="team-set-floored-at-0",
        ),
        pytest.param(
            {"bidder": 0, "bid": "moon", "trump": "S", "high": 2, "low": 0, "jack": 2, "game": 0},
            (2, 0, 2, 0),
            (4, 0, 4, 0),
            True,
            (0, 2),
            [4, 0],
            0,
            id="team-moon-made",
        ),
        pytest.param(
            {"bidder": 2, "bid": "moon", "trump": "S", "high": 2, "low": 0, "jack": 1, "game": 0},
            (6, 3, 6, 3),
            (-6, 1, -6, 1),
            False,
            (2, 0),
            [3, 1],
            0,
            id="team-moon-missed-sets-both-members-to-0",
        ),
    ],
)
def test_partners_scores_a_deal(raw, before, deltas, made, bidders, points, game):
    raw = {**raw, "game_points": [40, 20]} if "game" not in raw else raw
    result = score(table(PARTNERS), raw, before)
    assert result.deltas == deltas
    assert result.made is made
    assert result.bidders == bidders
    assert list(result.get("points")) == points
    assert result.get("game") == game


def test_kitty_scores_as_shmear():
    raw = {**BASE, "bid": 3, "high": 1, "low": 0, "jack": 2, "game": 4}
    assert score(table(KITTY, 5), raw, (5,) * 5).deltas == (1, -3, 1, 0, 1)
    assert score(table(SHMEAR, 5), raw, (5,) * 5).deltas == (1, -3, 1, 0, 1)


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_shmear_takes_game_counts_by_seat_at_any_table(seats):
    counts = [0] * seats
    counts[-1] = 40
    raw = {**BASE, "high": 1, "low": 1, "game_points": counts}
    result = score(table(SHMEAR, seats), raw)
    assert result.get("game") == seats - 1
    assert result.deltas[-1] == 1


# -- forfeits ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "dealer", "before", "deltas"),
    [
        pytest.param(SHMEAR, 2, (5, 3, 2, 9), (0, 0, -2, 0), id="dealer-loses-2"),
        pytest.param(SHMEAR, 2, (5, 3, 1, 9), (0, 0, -1, 0), id="never-below-0"),
        pytest.param(SHMEAR, 0, (0, 3, 1, 9), (0, 0, 0, 0), id="at-0-loses-nothing"),
        pytest.param(HIGH_LOW, 3, (5, 3, 1, 9), (0, 0, 0, -2), id="high-low-dealer"),
        pytest.param(PARTNERS, 1, (4, 3, 4, 3), (0, -2, 0, -2), id="partners-dealers-team"),
        pytest.param(KITTY, 4, (1, 1, 1, 1, 5), (0, 0, 0, 0, -2), id="kitty-dealer"),
    ],
)
def test_a_forfeit_takes_2_from_the_dealers_side(rules, dealer, before, deltas):
    config = table(rules, len(before))
    result = score(config, {"forfeit": True}, before, dealer)
    assert result.kind == DealKind.FORFEIT
    assert result.deltas == deltas
    assert (result.made, result.bidders) == (None, None)
    assert rules.smucks(config, [result]) == (0,) * len(before)
    assert rules.next_dealer(config, result) == (dealer + 1) % len(before)
    assert rules.seat_tags(config, result)[dealer] == {"forfeit"}


def test_a_forfeits_document_is_api_mds_example():
    config = table(SHMEAR)
    entry = {"forfeit": True, "auction": [None] * 4}
    doc = score(config, entry, (5, 3, 2, 9), dealer=2).to_document()
    assert doc == {
        "number": 1,
        "dealer": 2,
        "forfeit": True,
        "auction": [None, None, None, None],
        "bidder": None,
        "bid": None,
        "trump": None,
        "high": None,
        "low": None,
        "jack": None,
        "game_points": None,
        "game": None,
        "points": None,
        "made": None,
        "bidders": None,
        "deltas": [0, 0, -2, 0],
        "scores": [5, 3, 0, 9],
    }


def test_forfeit_false_counts_as_left_out():
    raw = {**BASE, "forfeit": False, "high": 1, "low": 1, "game": 1}
    assert score(table(SHMEAR), raw).kind == DealKind.PLAYED


def test_a_played_deals_document_has_every_field_and_forfeit_false():
    raw = {**BASE, "high": 1, "low": 2, "jack": 0, "game_points": [12, 30, 8, 19]}
    doc = score(table(SHMEAR), raw).to_document()
    assert doc == {
        "number": 1,
        "dealer": 0,
        "forfeit": False,
        "bidder": 1,
        "bid": 2,
        "trump": "H",
        "auction": None,
        "high": 1,
        "low": 2,
        "jack": 0,
        "game_points": [12, 30, 8, 19],
        "game": 1,
        "points": [1, 2, 1, 0],
        "bidders": [1],
        "made": True,
        "deltas": [1, 2, 1, 0],
        "scores": [1, 2, 1, 0],
    }
    assert "thrown_in" not in doc


# -- refusals ----------------------------------------------------------------------------

PLAY = {"bidder": 1, "bid": 2, "trump": "H", "high": 1, "low": 2, "jack": 0, "game": 1}
"""Bob bids 2 in hearts and makes it with High and Game; Cy takes Low, Ann the Jack."""


@pytest.mark.parametrize(
    ("rules", "raw", "fields"),
    [
        pytest.param(SHMEAR, {**PLAY, "thrown_in": True}, {"thrown_in"}, id="thrown-in-unknown"),
        pytest.param(SHMEAR, {**PLAY, "thrown_in": False}, {"thrown_in"}, id="thrown-in-false"),
        pytest.param(SHMEAR, {**PLAY, "partner": 3}, {"partner"}, id="partner-unknown"),
        pytest.param(SHMEAR, {**PLAY, "called_card": "KH"}, {"called_card"}, id="called-card"),
        pytest.param(SHMEAR, {**PLAY, "off_jack": 1, "joker": 2}, {"off_jack", "joker"}, id="5h"),
        pytest.param(SHMEAR, {**PLAY, "tricks": 3}, {"tricks"}, id="tricks-unknown"),
        pytest.param(SHMEAR, {**PLAY, "bid": 5}, {"bid"}, id="bid-5"),
        pytest.param(SHMEAR, {**PLAY, "bid": 1}, {"bid"}, id="bid-1"),
        pytest.param(SHMEAR, {**PLAY, "bid": "Moon"}, {"bid"}, id="bid-moon-wrong-case"),
        pytest.param(SHMEAR, {**PLAY, "bid": "4"}, {"bid"}, id="bid-4-as-string"),
        pytest.param(HIGH_LOW, {**PLAY, "bid": "moon"}, {"bid"}, id="high-low-no-moon"),
        pytest.param(SHMEAR, {k: v for k, v in PLAY.items() if k != "bid"}, {"bid"}, id="no-bid"),
        pytest.param(
            SHMEAR, {k: v for k, v in PLAY.items() if k != "bidder"}, {"bidder"}, id="no-bidder"
        ),
        pytest.param(SHMEAR, {**PLAY, "bidder": 4}, {"bidder"}, id="bidder-not-at-table"),
        pytest.param(SHMEAR, {**PLAY, "bidder": -1}, {"bidder"}, id="bidder-negative"),
        pytest.param(SHMEAR, {**PLAY, "trump": "X"}, {"trump"}, id="trump-not-a-suit"),
        pytest.param(SHMEAR, {**PLAY, "trump": "h"}, {"trump"}, id="trump-lower-case"),
        pytest.param(
            SHMEAR, {k: v for k, v in PLAY.items() if k != "trump"}, {"trump"}, id="no-trump"
        ),
        pytest.param(SHMEAR, {k: v for k, v in PLAY.items() if k != "high"}, {"high"}, id="no-hi"),
        pytest.param(SHMEAR, {k: v for k, v in PLAY.items() if k != "low"}, {"low"}, id="no-low"),
        pytest.param(SHMEAR, {**PLAY, "high": 7}, {"high"}, id="high-not-at-table"),
        pytest.param(SHMEAR, {**PLAY, "low": 4}, {"low"}, id="low-not-at-table"),
        pytest.param(SHMEAR, {**PLAY, "jack": 9}, {"jack"}, id="jack-not-at-table"),
        pytest.param(SHMEAR, {**PLAY, "game_points": [1, 2, 3, 4]}, {"game"}, id="game-and-counts"),
        pytest.param(
            SHMEAR, {k: v for k, v in PLAY.items() if k != "game"}, {"game"}, id="no-game"
        ),
        pytest.param(SHMEAR, {**PLAY, "game": 4}, {"game"}, id="game-not-a-seat"),
        pytest.param(SHMEAR, {**PLAY, "game": "bidders"}, {"game"}, id="game-five-handed-word"),
        pytest.param(PARTNERS, {**PLAY, "game": 2}, {"game"}, id="partners-game-not-a-team"),
    ],
)
def test_a_broken_rule_is_refused_naming_the_field(rules, raw, fields):
    assert set(refused(table(rules), raw, (1, 1, 1, 1)).problems) == fields


COUNTS = {k: v for k, v in PLAY.items() if k != "game"}


@pytest.mark.parametrize(
    ("rules", "counts"),
    [
        pytest.param(SHMEAR, [10, 10, 10], id="too-few-counts"),
        pytest.param(SHMEAR, [10, 10, 10, 10, 0], id="too-many-counts"),
        pytest.param(PARTNERS, [10, 10, 10, 10], id="partners-counts-per-team-only"),
        pytest.param(SHMEAR, [10, -1, 10, 10], id="negative-count"),
        pytest.param(SHMEAR, [30, 30, 20, 1], id="counts-above-80"),
        pytest.param(SHMEAR, [0, 30, 20, 10], id="jack-taker-counted-nothing"),
        pytest.param(PARTNERS, [0, 30], id="jack-team-counted-nothing"),
        pytest.param(HIGH_LOW, [0, 30, 20, 10], id="high-low-jack-seat-counted-nothing"),
    ],
)
def test_impossible_game_counts_are_refused_naming_game_points(rules, counts):
    raw = {**COUNTS, "game_points": counts}
    assert set(refused(table(rules), raw).problems) == {"game_points"}


def test_game_counts_adding_to_80_with_the_jack_counted_are_accepted():
    result = score(table(SHMEAR), {**COUNTS, "game_points": [1, 30, 29, 20]})
    assert result.get("game") == 1


def test_high_low_jack_check_is_the_seats_own_count_not_the_pairs():
    raw = {**COUNTS, "high": 0, "low": 1, "jack": 1, "game_points": [30, 0, 20, 10]}
    assert set(refused(table(HIGH_LOW), raw).problems) == {"game_points"}


@pytest.mark.parametrize(
    ("auction", "fields"),
    [
        pytest.param([None, 2, None], {"auction"}, id="too-short-without-a-moon"),
        pytest.param([None, 2, None, None, None], {"auction"}, id="too-long"),
        pytest.param([], {"auction"}, id="empty"),
        pytest.param([3, 2, None, None], {"auction"}, id="does-not-rise"),
        pytest.param([3, 3, None, None], {"auction"}, id="equal-bids"),
        pytest.param(["moon", 4, None, None], {"auction"}, id="goes-on-after-the-moon"),
        pytest.param(["moon", None], {"auction"}, id="pass-after-the-moon"),
        pytest.param([None, 5, None, None], {"auction"}, id="bid-5-is-not-a-bid"),
        pytest.param([None, 4], {"auction"}, id="a-4-does-not-end-it"),
        pytest.param([None, "Moon", None, None], {"auction"}, id="moon-wrong-case"),
        pytest.param([2, None, None, None], {"auction", "bidder"}, id="disagrees-with-bidder"),
        pytest.param([None, 3, None, None], {"auction", "bid"}, id="disagrees-with-bid"),
        pytest.param([None] * 4, {"auction", "bidder"}, id="all-pass-but-bidder-not-dealer"),
    ],
)
def test_a_bad_auction_is_refused_naming_auction(auction, fields):
    raw = {**PLAY, "auction": auction}
    assert set(refused(table(SHMEAR), raw, (1, 1, 1, 1), dealer=3).problems) == fields


def test_all_pass_with_a_bid_other_than_2_names_auction_and_bid():
    raw = {**PLAY, "bidder": 3, "bid": 3, "auction": [None] * 4}
    assert set(refused(table(SHMEAR), raw, dealer=3).problems) == {"auction", "bid"}


def test_an_all_pass_auction_alone_names_the_missing_trump_high_and_low():
    problems = refused(table(SHMEAR), {"auction": [None] * 4}).problems
    assert {"trump", "high", "low"} <= set(problems)
    assert set(problems) == {"trump", "high", "low"}


def test_an_auction_in_high_low_always_has_one_entry_per_player():
    raw = {**PLAY, "auction": [None, 4]}
    assert set(refused(table(HIGH_LOW), raw).problems) == {"auction"}


def test_a_moon_in_a_high_low_auction_names_auction_and_bid():
    raw = {k: v for k, v in PLAY.items() if k not in ("bidder", "bid")}
    problems = refused(table(HIGH_LOW), {**raw, "auction": [None, None, None, "moon"]}).problems
    assert set(problems) == {"auction", "bid"}


@pytest.mark.parametrize(
    ("rules", "raw", "before", "fields"),
    [
        pytest.param(
            SHMEAR, {**PLAY, "bid": "moon"}, (3, 0, 3, 3), {"bid"}, id="entered-at-score-0"
        ),
        pytest.param(
            SHMEAR,
            {
                **{k: v for k, v in PLAY.items() if k not in ("bidder", "bid")},
                "auction": [2, None, "moon"],
            },
            (3, 3, 3, 0),
            {"bid", "auction"},
            id="from-the-auction-at-score-0",
        ),
        pytest.param(
            PARTNERS, {**PLAY, "bid": "moon"}, (3, 0, 3, 0), {"bid"}, id="team-at-score-0"
        ),
        pytest.param(KITTY, {**PLAY, "bid": "moon"}, (3, 0, 3, 3), {"bid"}, id="kitty-at-score-0"),
    ],
)
def test_a_moon_needs_a_score_of_at_least_1_before_the_hand(rules, raw, before, fields):
    assert set(refused(table(rules), raw, before).problems) == fields


def test_a_moon_refusal_says_why_in_words():
    problems = refused(table(PARTNERS), {**PLAY, "bid": "moon"}, (3, 0, 3, 0)).problems
    assert [str(m) for m in problems["bid"]] == [
        "Only a team with a score of at least 1 may bid the moon, and the team of Bob and Di has 0."
    ]


def test_a_moon_refusal_says_the_score_below_0():
    config = table(SHMEAR, negative_scores=True)
    problems = refused(config, {**PLAY, "bid": "moon"}, (3, -2, 3, 0)).problems
    assert [str(m) for m in problems["bid"]] == [
        "Only a player with a score of at least 1 may bid the moon, and Bob has -2."
    ]


@pytest.mark.parametrize(
    ("raw", "fields"),
    [
        pytest.param({"forfeit": True, "bidder": 1}, {"forfeit", "bidder"}, id="with-a-bidder"),
        pytest.param(
            {"forfeit": True, "trump": "S", "high": 1}, {"forfeit", "trump", "high"}, id="points"
        ),
        pytest.param(
            {"forfeit": True, "auction": [None, 2, None, None]},
            {"forfeit", "auction"},
            id="auction-with-a-bid",
        ),
        pytest.param(
            {"forfeit": True, "auction": [None, 2]}, {"forfeit", "auction"}, id="short-auction"
        ),
        pytest.param({"forfeit": True, "auction": [None, None]}, {"auction"}, id="short-passes"),
        pytest.param(
            {"forfeit": True, "thrown_in": True}, {"forfeit", "thrown_in"}, id="thrown-in-too"
        ),
    ],
)
def test_a_forfeit_with_anything_else_is_refused(raw, fields):
    assert set(refused(table(SHMEAR), raw).problems) == fields


@pytest.mark.parametrize("passes", [2, 5], ids=["short", "long"])
def test_a_forfeit_with_an_all_pass_auction_of_the_wrong_length_blames_only_its_length(passes):
    problems = refused(table(SHMEAR), {"forfeit": True, "auction": [None] * passes}).problems
    assert set(problems) == {"auction"}
    assert [str(m) for m in problems["auction"]] == [
        "Everyone speaks once: unless someone bids the moon, the auction has 4 entries."
        if passes < 4
        else "The auction has one entry per player: 1 to 4 entries."
    ]


def test_speaking_after_a_moon_is_the_only_fault_of_that_short_auction():
    raw = {"trump": "H", "high": 2, "low": 2, "game": 2, "auction": [None, "moon", None]}
    problems = refused(table(SHMEAR), raw, (0, 0, 3, 0)).problems
    assert [str(m) for m in problems["auction"]] == [
        "A moon ends the auction, so nobody speaks after it."
    ]


def test_every_problem_is_reported_at_once():
    raw = {"bidder": 9, "bid": 7, "trump": "Z", "low": 5, "game": 8, "joker": 1}
    problems = refused(table(SHMEAR), raw).problems
    assert set(problems) == {"bidder", "bid", "trump", "high", "low", "game", "joker"}
    assert all(str(m).endswith(".") for ms in problems.values() for m in ms)


# -- the win check ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("config", "scores", "deal", "status", "winners", "decided_by"),
    [
        pytest.param(
            table(SHMEAR), (10, 3, 0, 0), last(0), Status.IN_PROGRESS, (), None, id="nobody"
        ),
        pytest.param(
            table(SHMEAR),
            (11, 3, 0, 0),
            last(1),
            Status.WON,
            (0,),
            DecidedBy.HIGHEST,
            id="one-at-the-target",
        ),
        pytest.param(
            table(SHMEAR),
            (11, 14, 0, 0),
            last(0),
            Status.WON,
            (0,),
            DecidedBy.BIDDER,
            id="bidder-among-several-wins-though-not-highest",
        ),
        pytest.param(
            table(SHMEAR),
            (11, 14, 0, 0),
            last(2),
            Status.WON,
            (1,),
            DecidedBy.HIGHEST,
            id="several-without-the-bidder-highest-wins",
        ),
        pytest.param(
            table(SHMEAR),
            (12, 12, 0, 0),
            last(3),
            Status.IN_PROGRESS,
            (),
            None,
            id="tied-without-the-bidder-plays-on",
        ),
        pytest.param(
            table(SHMEAR, unresolved_tie="shared"),
            (11, 12, 12, 3),
            last(3),
            Status.SHARED,
            (1, 2),
            DecidedBy.SHARED,
            id="tied-without-the-bidder-shared",
        ),
        pytest.param(
            table(SHMEAR),
            (15, 4, 0, 0),
            last(1, MOON),
            Status.WON,
            (1,),
            DecidedBy.MOON,
            id="moon-wins-over-a-side-already-at-the-target",
        ),
        pytest.param(
            table(SHMEAR),
            (5, 0, 0, 0),
            last(1, MOON, made=False),
            Status.IN_PROGRESS,
            (),
            None,
            id="missed-moon-wins-nothing",
        ),
        pytest.param(
            table(SHMEAR),
            (12, 12, 0, 0),
            last(0, kind=DealKind.FORFEIT),
            Status.IN_PROGRESS,
            (),
            None,
            id="forfeit-never-ends-the-game",
        ),
        pytest.param(
            table(SHMEAR, target=5),
            (5, 0, 0, 0),
            last(1),
            Status.WON,
            (0,),
            DecidedBy.HIGHEST,
            id="target-set-by-the-game",
        ),
        pytest.param(
            table(KITTY, 5),
            (11, 3, 0, 0, 0),
            last(0),
            Status.IN_PROGRESS,
            (),
            None,
            id="kitty-plays-to-15",
        ),
        pytest.param(
            table(PARTNERS),
            (16, 16, 16, 16),
            last(1, bidders=(1, 3)),
            Status.WON,
            (1, 3),
            DecidedBy.BIDDER,
            id="partners-bidding-team-wins-a-tie",
        ),
        pytest.param(
            table(PARTNERS),
            (15, 17, 15, 17),
            last(0, bidders=(0, 2)),
            Status.WON,
            (0, 2),
            DecidedBy.BIDDER,
            id="partners-bidding-team-wins-though-lower",
        ),
        pytest.param(
            table(PARTNERS),
            (15, 10, 15, 10),
            last(1, bidders=(1, 3)),
            Status.WON,
            (0, 2),
            DecidedBy.HIGHEST,
            id="partners-one-team-at-the-target",
        ),
        pytest.param(
            table(PARTNERS),
            (3, 6, 3, 6),
            last(2, MOON, bidders=(2, 0)),
            Status.WON,
            (0, 2),
            DecidedBy.MOON,
            id="partners-moon",
        ),
        pytest.param(
            table(HIGH_LOW),
            (15, 12, 15, 15),
            last(2, bidders=(2, 3)),
            Status.WON,
            (2,),
            DecidedBy.BIDDER,
            id="high-low-the-player-who-bid-wins-not-the-pair",
        ),
        pytest.param(
            table(HIGH_LOW),
            (15, 16, 0, 0),
            last(2, bidders=(0, 1)),
            Status.WON,
            (1,),
            DecidedBy.HIGHEST,
            id="high-low-bidder-outside-the-target",
        ),
    ],
)
def test_the_win_check(config, scores, deal, status, winners, decided_by):
    outcome = config.ruleset.outcome(config, scores, deal)
    assert (outcome.status, outcome.winners, outcome.decided_by) == (status, winners, decided_by)
    assert str(outcome.explanation).endswith(".")


def test_the_win_check_before_the_first_deal():
    config = table(SHMEAR)
    outcome = SHMEAR.outcome(config, (0, 0, 0, 0), None)
    assert outcome.status == Status.IN_PROGRESS
    assert str(outcome.explanation) == "Nobody has reached 11 yet."


def test_an_open_tie_names_the_tied_seats():
    outcome = SHMEAR.outcome(table(SHMEAR), (11, 12, 12, 3), last(3))
    assert outcome.open_tie == (1, 2)
    assert str(outcome.explanation) == (
        "Tied at the top with 12: Bob and Cy. The bidder is not among them, so another deal "
        "is played (house rule: play on)."
    )


@pytest.mark.parametrize(
    ("config", "scores", "deal", "words"),
    [
        pytest.param(
            table(SHMEAR),
            (11, 14, 0, 0),
            last(0),
            "At 11 or more: Ann and Bob. Ann bid this deal, so Ann wins, whatever the totals.",
            id="bidder",
        ),
        pytest.param(
            table(PARTNERS),
            (3, 6, 3, 6),
            last(2, MOON, bidders=(2, 0)),
            "Cy shot the moon and took all four points, so the team of Ann and Cy wins at once.",
            id="moon",
        ),
        pytest.param(
            table(SHMEAR),
            (11, 3, 0, 0),
            last(1),
            "With 11, Ann is the only one at 11 or more and wins.",
            id="highest",
        ),
    ],
)
def test_the_win_check_explains_itself(config, scores, deal, words):
    assert str(config.ruleset.outcome(config, scores, deal).explanation) == words


def test_a_deal_after_a_moon_is_refused_as_a_whole():
    config = table(SHMEAR)
    state = GameState(config, 0, (3, 3, 3, 3), 0, SHMEAR.outcome(config, (0,) * 4, None))
    moon = {"bidder": 1, "bid": "moon", "trump": "S", "high": 1, "low": 1, "jack": 1, "game": 1}
    state = apply_deal(state, parse_entry(config, moon))
    assert state.outcome.decided_by == DecidedBy.MOON
    with pytest.raises(GameOver) as info:
        apply_deal(state, parse_entry(config, PLAY))
    assert set(info.value.problems) == {None}


# -- words and records --------------------------------------------------------------------


def test_explain_a_set_bid_floored_at_0():
    config = table(SHMEAR)
    raw = {**BASE, "high": 0, "low": 0, "game": "none"}
    lines = [str(m) for m in SHMEAR.explain(config, score(config, raw, (0, 1, 0, 0)))]
    assert lines == [
        "Bob bid 2 with hearts trump.",
        "High and Low to Ann.",
        "The jack of trump was not in play, so nobody scored Jack.",
        "Game was tied, so nobody scored it.",
        "The bid of 2 was set with 0 points: the bid is taken off and a smuck is marked for Bob.",
        "+2 for Ann.",
        "\N{MINUS SIGN}1 for Bob (it was 1, and a score never drops below 0).",
        "No change for Cy and Di.",
    ]


@pytest.mark.parametrize(
    ("config", "raw", "before", "lines"),
    [
        pytest.param(
            table(SHMEAR),
            {**BASE, "high": 1, "low": 0, "jack": 1, "game_points": [12, 30, 9, 0]},
            (0, 0, 0, 0),
            [
                "Bob bid 2 with hearts trump.",
                "Low to Ann.",
                "High, Jack and Game to Bob.",
                "Game counts: 12 for Ann, 30 for Bob, 9 for Cy and 0 for Di.",
                "Game went to Bob with the most, 30.",
                "The bid of 2 was made with 3 points, and every point taken counts.",
                "+1 for Ann.",
                "+3 for Bob.",
                "No change for Cy and Di.",
            ],
            id="shmear-counts",
        ),
        pytest.param(
            table(KITTY, seats=5),
            {**BASE, "high": 1, "low": 1, "jack": 4, "game_points": [20, 20, 4, 0, 1]},
            (3, 3, 3, 3, 3),
            [
                "Bob bid 2 with hearts trump.",
                "High and Low to Bob.",
                "Jack to Ed.",
                "Game counts: 20 for Ann, 20 for Bob, 4 for Cy, 0 for Di and 1 for Ed.",
                "Game was tied at 20 between Ann and Bob, so nobody scored it.",
                "The bid of 2 was made with 2 points, and every point taken counts.",
                "+2 for Bob.",
                "+1 for Ed.",
                "No change for Ann, Cy and Di.",
            ],
            id="kitty-tied-counts",
        ),
        pytest.param(
            table(HIGH_LOW),
            {**HL, "bid": 2, "high": 1, "low": 2, "jack": 3, "game_points": [10, 20, 15, 30]},
            (0, 0, 0, 0),
            [
                "Ann bid 2 with diamonds trump.",
                "Bob played High and Cy played Low, so they were partners for the deal, pooled "
                "their Game counts and played the contract.",
                "High and Game to Bob.",
                "Low to Cy.",
                "Jack to Di.",
                "Game counts: 10 for Ann, 20 for Bob, 15 for Cy and 30 for Di.",
                "Bob and Cy pooled their counts: 20 + 15 = 35.",
                "Game went to Bob and Cy with the most, 35.",
                "The bid of 2 was made with 3 points, and every point taken counts.",
                "+3 for Bob.",
                "+3 for Cy.",
                "+1 for Di.",
                "No change for Ann.",
            ],
            id="high-low-pooled-counts",
        ),
        pytest.param(
            table(PARTNERS),
            {
                "bidder": 1,
                "bid": 3,
                "trump": "S",
                "high": 0,
                "low": 3,
                "jack": 2,
                "game_points": [25, 25],
            },
            (5, 5, 5, 5),
            [
                "Bob bid 3 with spades trump.",
                "High and Jack to the team of Ann and Cy.",
                "Low to the team of Bob and Di.",
                "Game counts: 25 for the team of Ann and Cy and 25 for the team of Bob and Di.",
                "Game was tied at 25 between the team of Ann and Cy and the team of Bob and Di, "
                "so nobody scored it.",
                "The bid of 3 was set with 1 point: the bid is taken off and a smuck is marked "
                "for the team of Bob and Di.",
                "+2 for the team of Ann and Cy.",
                "\N{MINUS SIGN}3 for the team of Bob and Di.",
            ],
            id="partners-tied-counts",
        ),
        pytest.param(
            table(SHMEAR, seats=6),
            {**BASE, "high": 1, "low": 1, "jack": 1, "game": 1},
            (0, 0, 0, 0, 0, 0),
            [
                "Bob bid 2 with hearts trump.",
                "High, Low, Jack and Game to Bob.",
                "The bid of 2 was made with 4 points, and every point taken counts.",
                "+4 for Bob.",
                "No change for Ann, Cy, Di, Ed and Flo.",
            ],
            id="six-players-one-line-for-those-who-scored-nothing",
        ),
    ],
)
def test_explain_says_the_game_counts_and_groups_who_scored_nothing(config, raw, before, lines):
    result = score(config, raw, before)
    assert [str(m) for m in config.ruleset.explain(config, result)] == lines


def test_explain_a_high_low_pair():
    config = table(HIGH_LOW)
    raw = {**HL, "bidder": 3, "bid": 2, "high": 1, "low": 2, "jack": 3, "game": 2}
    lines = [str(m) for m in HIGH_LOW.explain(config, score(config, raw))]
    assert lines[:2] == [
        "Di bid 2 with diamonds trump.",
        "Bob played High and Cy played Low, so they were partners for the deal, pooled their "
        "Game counts and played the contract.",
    ]
    assert "High and Game to Bob." in lines
    assert "The bid of 2 was made with 3 points, and every point taken counts." in lines


def test_explain_a_forfeit_and_a_forced_play():
    config = table(PARTNERS)
    forfeit = score(config, {"forfeit": True}, (4, 3, 4, 3), dealer=1)
    assert [str(m) for m in PARTNERS.explain(config, forfeit)] == [
        "Everyone passed and Bob, the dealer, forfeited: the team of Bob and Di loses 2 "
        "(never below 0), \N{MINUS SIGN}2, and the deal passes to the left."
    ]
    raw = {"auction": [None] * 4, "trump": "C", "high": 1, "low": 1, "jack": 3, "game": 1}
    forced = score(config, raw, dealer=1)
    assert str(PARTNERS.explain(config, forced)[0]) == (
        "Everyone passed, so Bob, the dealer, played at 2 with clubs trump."
    )


@pytest.mark.parametrize("rules", FAMILY, ids=lambda r: r.id)
def test_every_explanation_is_sentences(rules):
    config = table(rules)
    raws = [
        {**PLAY, "bid": 3},
        {**PLAY, "bid": 2, "high": 2, "low": 2, "game": "none"},
        {"forfeit": True},
    ]
    if rules.has_moon:
        raws.append({**PLAY, "bid": "moon"})
    for raw in raws:
        for line in rules.explain(config, score(config, raw, (2, 2, 2, 2))):
            assert str(line)[0].isupper() or str(line)[0] in "+\N{MINUS SIGN}"
            assert str(line).endswith(".")


@pytest.mark.parametrize(
    ("rules", "raw", "before", "tags"),
    [
        pytest.param(
            SHMEAR,
            {**PLAY, "bid": 4},
            (2, 2, 2, 2),
            ({}, {"bid", "set", "smuck"}, {}, {}),
            id="set",
        ),
        pytest.param(SHMEAR, PLAY, (2, 2, 2, 2), ({}, {"bid", "made"}, {}, {}), id="made"),
        pytest.param(
            SHMEAR,
            {**PLAY, "bid": "moon", "low": 1, "jack": 1, "game": 1},
            (2, 2, 2, 2),
            ({}, {"bid", "made", "moon", "moon_made"}, {}, {}),
            id="moon-made",
        ),
        pytest.param(
            SHMEAR,
            {**PLAY, "bid": "moon"},
            (2, 2, 2, 2),
            ({}, {"bid", "set", "moon", "smuck"}, {}, {}),
            id="moon-missed",
        ),
        pytest.param(
            PARTNERS,
            {**PLAY, "bid": 4},
            (2, 2, 2, 2),
            ({}, {"bid", "set", "smuck"}, {}, {"smuck"}),
            id="partners-both-smucked",
        ),
        pytest.param(
            HIGH_LOW,
            {**PLAY, "bidder": 3, "bid": 4},
            (2, 2, 2, 2),
            ({}, {"smuck"}, {"smuck"}, {"bid", "set"}),
            id="high-low-pair-smucked-not-the-bidder",
        ),
    ],
)
def test_seat_tags_feed_the_statistics(rules, raw, before, tags):
    config = table(rules)
    got = rules.seat_tags(config, score(config, raw, before))
    assert got == tuple(frozenset(t) for t in tags)
    listed = {s.tag for s in rules.statistics}
    assert set().union(*got) <= listed


@pytest.mark.parametrize("rules", FAMILY, ids=lambda r: r.id)
def test_a_deal_document_rebuilds_the_same_result(rules):
    config = table(rules)
    for raw, dealer in ((PLAY, 0), ({"forfeit": True}, 2)):
        result = score(config, raw, (2, 2, 2, 2), dealer)
        assert DealResult.from_document(result.to_document()) == result


# -- the worked games ---------------------------------------------------------------------


def worked(game: dict[str, Any]) -> GameConfig:
    """Return the worked game's table, built from this module's classes."""
    return table(
        BY_ID[game["ruleset"]],
        len(game["players"]),
        game["first_dealer"],
        game["target"],
        **game["house_rules"],
    )


EACH_GAME = pytest.mark.parametrize(
    "game", [pytest.param(g, id=f"{g['ruleset']}-{slug(g['about'])}") for g in GAMES]
)


def test_the_examples_hold_eight_shmear_family_games():
    assert len(GAMES) == 8
    assert {g["ruleset"] for g in GAMES} == set(BY_ID)


@EACH_GAME
def test_engine_reproduces_every_deal_of_the_worked_game(game):
    config = worked(game)
    state = new_game(config)
    for number, (raw, expected) in enumerate(
        zip(game["deals"], game["expected"]["after_each_deal"], strict=True), start=1
    ):
        assert not state.outcome.finished, f"the game ended before deal {number}"
        state = apply_deal(state, parse_entry(config, raw))
        done = state.last
        assert done is not None
        got = {
            "dealer": done.dealer,
            "deltas": list(done.deltas),
            "scores": list(done.scores),
            "made": done.made,
            "bidders": None if done.bidders is None else list(done.bidders),
        }
        assert got == expected, f"deal {number}"


@EACH_GAME
def test_engine_reaches_the_worked_games_outcome(game):
    config = worked(game)
    states = replay(config, game["deals"])
    final, expected = states[-1], game["expected"]
    results = [s.last for s in states]
    teams = config.teams()
    assert list(final.scores) == expected["scores"]
    assert final.outcome.status == expected["status"]
    assert list(final.outcome.winners) == expected["winners"]
    assert final.outcome.decided_by == expected["decided_by"]
    assert final.next_dealer == expected["next_dealer"]
    assert (None if teams is None else [list(t) for t in teams]) == expected["teams"]
    assert list(config.ruleset.smucks(config, results)) == expected["smucks"]
    extras = config.ruleset.player_extras(config, results)
    assert [e["smucks"] for e in extras] == expected["smucks"]


# -- properties -----------------------------------------------------------------------------

SETTINGS = settings(
    max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@st.composite
def tables(draw: st.DrawFn) -> GameConfig:
    rules = draw(st.sampled_from(FAMILY))
    seats = draw(st.integers(rules.min_players, rules.max_players))
    house = {}
    if "unresolved_tie" in rules.house_rules:
        house["unresolved_tie"] = draw(st.sampled_from(["play_on", "shared"]))
    house["jick"] = draw(st.booleans())
    house["negative_scores"] = draw(st.booleans())
    return table(
        rules,
        seats,
        draw(st.integers(0, seats - 1)),
        draw(st.sampled_from([rules.target, 5, 30])),
        **house,
    )


def entries(draw: st.DrawFn, config: GameConfig, scores: tuple[int, ...]) -> dict[str, Any]:
    """Draw a valid entry for the next deal, given the scores before it."""
    rules = config.ruleset
    assert isinstance(rules, ShmearFamily)
    seats = config.seats
    kind = draw(st.sampled_from(["bid", "bid", "bid", "forced", "forfeit"]))
    if kind == "forfeit":
        return {"forfeit": True}
    seat = st.integers(0, seats - 1)
    raw: dict[str, Any] = {"trump": draw(st.sampled_from("SHDC"))}
    if kind == "forced":
        raw["auction"] = [None] * seats
    else:
        bidder = draw(seat)
        bids = [b for b in rules.game_bids(config) if b != MOON or scores[bidder] >= 1]
        raw |= {"bidder": bidder, "bid": draw(st.sampled_from(bids))}
    raw |= {"high": draw(seat), "low": draw(seat), "jack": draw(st.none() | seat)}
    if rules.plays_jick(config):
        raw["jick"] = draw(st.none() | seat)
    sides = len(rules.score_sides(config))
    if draw(st.booleans()):
        raw["game"] = draw(st.just("none") | st.integers(0, sides - 1))
    else:
        counts = draw(st.lists(st.integers(0, 13), min_size=sides, max_size=sides))
        least = [0] * sides
        for point in ("jack", "jick"):
            if raw.get(point) is not None:
                least[rules.side_index(config, raw[point])] += 1
        raw["game_points"] = [max(c, m) for c, m in zip(counts, least, strict=True)]
    return raw


@st.composite
def games(draw: st.DrawFn) -> tuple[GameConfig, list[dict[str, Any]]]:
    """Draw a table and the valid entries of a game on it, stopping when it ends."""
    config = draw(tables())
    state = new_game(config)
    raws = []
    for _ in range(draw(st.integers(1, 14))):
        if state.outcome.finished:
            break
        raw = entries(draw, config, state.scores)
        state = apply_deal(state, parse_entry(config, raw))
        raws.append(raw)
    return config, raws


@SETTINGS
@given(games())
def test_scores_never_drop_below_0_and_deltas_are_the_change_made(game):
    config, raws = game
    floor = not config.house_rules["negative_scores"]
    before = (0,) * config.seats
    lost = [0] * config.seats
    for state in replay(config, raws):
        result = state.last
        rules = config.ruleset
        if not result.played:
            losers, loss = rules.score_sides(config)[rules.side_index(config, result.dealer)], 2
        elif not result.made and result.get("bid") != MOON:
            losers, loss = result.bidders, result.get("bid")
        else:
            losers, loss = (), 0
        for seat in losers:
            lost[seat] += loss
            if not floor:
                # Below 0 allowed: a set bid and a forfeit take their full amount.
                assert result.deltas[seat] == -loss
        if floor:
            assert min(result.scores) >= 0
        else:
            # Scores may go below 0, but never below what the deals took.
            assert all(score >= -lost[seat] for seat, score in enumerate(result.scores))
        assert result.scores == tuple(b + d for b, d in zip(before, result.deltas, strict=True))
        before = result.scores


@SETTINGS
@given(games())
def test_team_mates_always_carry_equal_scores(game):
    config, raws = game
    teams = config.ruleset.score_sides(config)
    for state in replay(config, raws):
        for team in teams:
            assert len({state.scores[s] for s in team}) == 1
            assert len({state.last.deltas[s] for s in team}) == 1


@SETTINGS
@given(games())
def test_points_taken_are_the_points_awarded(game):
    config, raws = game
    for state in replay(config, raws):
        result = state.last
        if not result.played:
            assert result.get("points") is None
            continue
        awarded = (
            2
            + (result.get("jack") is not None)
            + (result.get("jick") is not None)
            + (result.get("game") != "none")
        )
        assert sum(result.get("points")) == awarded
        assert result.bidder in range(config.seats)
        if result.get("bid") == MOON and result.made:
            assert state.outcome.decided_by == DecidedBy.MOON


@SETTINGS
@given(games())
def test_a_forfeit_never_ends_the_game_and_the_deal_passes_left(game):
    config, raws = game
    for state in replay(config, raws):
        if state.last.kind == DealKind.FORFEIT:
            assert not state.outcome.finished
            assert state.next_dealer == (state.last.dealer + 1) % config.seats


@SETTINGS
@given(games())
def test_replay_is_deterministic(game):
    config, raws = game
    first = [s.last for s in replay(config, raws)]
    again = [s.last for s in replay(config, [dict(r) for r in raws])]
    assert first == again
    assert [DealResult.from_document(r.to_document()) for r in first] == first


@SETTINGS
@given(games(), st.data())
def test_a_correction_then_its_inverse_restores_every_score(game, data):
    config, raws = game
    original = [s.last for s in replay(config, raws)]
    number = data.draw(st.integers(1, len(raws)))
    before = (0,) * config.seats if number == 1 else original[number - 2].scores
    new_raw = entries(data.draw, config, before)
    try:
        corrected = correct_deal(config, raws, number, parse_entry(config, new_raw))
    except (CorrectionConflict, RuleViolation):
        return  # the correction itself cannot stand; nothing to undo
    changed = [*raws[: number - 1], new_raw, *raws[number:]]
    assert len(corrected) == len(raws)
    restored = correct_deal(config, changed, number, parse_entry(config, raws[number - 1]))
    assert [r.scores for r in restored] == [r.scores for r in original]
    assert list(restored) == original


@SETTINGS
@given(games())
def test_smucks_count_the_contracts_each_side_lost(game):
    config, raws = game
    rules = config.ruleset
    results = [s.last for s in replay(config, raws)]
    expected = [0] * config.seats
    for result in results:
        if result.played and not result.made:
            for seat in result.bidders:
                expected[seat] += 1
    assert list(rules.smucks(config, results)) == expected


@pytest.mark.parametrize("rules", FAMILY, ids=lambda r: r.id)
@pytest.mark.parametrize("dealer", [0, 3])
def test_the_auctions_description_of_everyone_passing_is_what_the_rules_score(rules, dealer):
    """A form fills in the bidder and bid the description says an all-pass auction decides:
    they are the ones the rules accept, and score as the all-pass auction alone."""
    config = table(rules)
    auction = next(f for f in rules.entry_fields(config) if f.kind == FieldKind.AUCTION)
    plays = auction.dealer_plays
    assert plays is not None and auction.blank is not None
    hand = {k: v for k, v in PLAY.items() if k not in ("bidder", "bid")}
    if rules is PARTNERS:
        hand["game"] = 0
    alone = score(config, {**hand, "auction": [None] * 4}, dealer=dealer)
    filled = {**hand, "auction": [None] * 4, plays.bidder: dealer, plays.bid: plays.value}
    assert score(config, filled, dealer=dealer).deltas == alone.deltas
    other = {**filled, plays.bidder: (dealer + 1) % 4}
    assert plays.bidder in refused(config, other, dealer=dealer).problems


def test_an_auction_names_a_seat_field_and_only_one_whose_blank_is_played_a_dealers_play():
    """Every ruleset: what an auction describes (the seat its last bid names, what everyone
    passing decides) names fields of that ruleset's entry of the right kind."""
    from scorekeeper.engine.rulesets import RULESETS

    for ruleset in RULESETS:
        config = table(ruleset, seats=ruleset.min_players)  # type: ignore[arg-type]
        fields = {f.name: f for f in ruleset.entry_fields(config)}
        for field in fields.values():
            if field.kind == FieldKind.AUCTION:
                assert field.names is not None and fields[field.names].kind == FieldKind.SEAT
            else:
                assert field.names is None
            if field.dealer_plays is not None:
                plays = field.dealer_plays
                assert field.kind == FieldKind.AUCTION and field.blank is not None
                assert plays.bidder == field.names and fields[plays.bid].kind == FieldKind.BID
