"""The house rules real Shmear tables play (docs/rules.md#the-shmear-family): the Jick, and
scores below 0.

Rule tables with literal values for each house rule in each of the four rulesets, the
refusals the rule book implies, and the two worked games of
tests/data/shmear-house-rules-games.json deal by deal.
"""

import json
import re
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.engine import (
    RuleViolation,
    WrongType,
    apply_deal,
    configure,
    new_game,
    parse_entry,
    replay,
)
from scorekeeper.engine.describe import FieldKind
from scorekeeper.engine.rulesets.shmear import (
    Shmear,
    ShmearFamily,
    ShmearHighLow,
    ShmearKitty,
    ShmearPartners,
)

from .test_shmear import last, refused, score, table

SHMEAR = Shmear()
HIGH_LOW = ShmearHighLow()
PARTNERS = ShmearPartners()
KITTY = ShmearKitty()
FAMILY: tuple[ShmearFamily, ...] = (SHMEAR, HIGH_LOW, PARTNERS, KITTY)
BY_ID = {rules.id: rules for rules in FAMILY}
OFF = {"values": [True, False], "default": False}

EXAMPLES = Path(__file__).parents[1] / "data" / "shmear-house-rules-games.json"
GAMES = json.loads(EXAMPLES.read_text(encoding="utf-8"))


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def jick(rules: ShmearFamily, seats: int = 4, **house: Any):
    return table(rules, seats, jick=True, **house)


def below_0(rules: ShmearFamily, seats: int = 4, **house: Any):
    return table(rules, seats, negative_scores=True, **house)


def fields_of(config) -> dict[str, Any]:
    return {f.name: f for f in config.ruleset.entry_fields(config)}


# -- listed, off by default --------------------------------------------------------------


@pytest.mark.parametrize("rules", FAMILY, ids=lambda r: r.id)
def test_both_house_rules_are_listed_off_by_default_after_low_to_taker(rules):
    listed = rules.describe()["house_rules"]
    assert listed["jick"] == OFF
    assert listed["negative_scores"] == OFF
    assert list(listed)[:3] == ["low_to_taker", "jick", "negative_scores"]


@pytest.mark.parametrize(
    ("rule", "label", "summary"),
    [
        pytest.param(
            "jick",
            "Play with the Jick",
            "The jack of the other suit of trump's colour is a trump just below the jack and "
            "a fifth point; bids run 2 to 5.",
            id="jick",
        ),
        pytest.param(
            "negative_scores",
            "Scores can go below 0",
            "A set bid or a forfeit takes its full amount, even below 0.",
            id="negative-scores",
        ),
    ],
)
def test_each_house_rule_has_a_label_and_one_line(rule, label, summary):
    for rules in FAMILY:
        house_rule = rules.house_rules[rule]
        assert (str(house_rule.label), str(house_rule.summary)) == (label, summary)


# -- the Jick: the entry -----------------------------------------------------------------


@pytest.mark.parametrize("rules", FAMILY, ids=lambda r: r.id)
def test_the_jick_is_a_point_entered_after_the_jack_only_with_the_house_rule(rules):
    assert "jick" not in fields_of(table(rules))
    names = list(fields_of(jick(rules)))
    assert names[names.index("jack") + 1] == "jick"
    field = fields_of(jick(rules))["jick"]
    assert (field.kind, field.point, str(field.label), str(field.blank)) == (
        FieldKind.SEAT,
        True,
        "Jick",
        "Not in play",
    )
    assert str(field.hint) == (
        "Who captured the Jick, the jack of the other suit of trump's colour: J♣ when spades "
        "are trump, J♦ when hearts are trump, J♥ when diamonds are trump and J♠ when clubs "
        "are trump."
    )


@pytest.mark.parametrize(
    ("rules", "bids"),
    [
        pytest.param(SHMEAR, [2, 3, 4, 5, "moon"], id="shmear"),
        pytest.param(HIGH_LOW, [2, 3, 4, 5], id="high-low-still-has-no-moon"),
        pytest.param(PARTNERS, [2, 3, 4, 5, "moon"], id="partners"),
        pytest.param(KITTY, [2, 3, 4, 5, "moon"], id="kitty"),
    ],
)
def test_with_the_jick_bids_run_2_to_5_below_the_moon(rules, bids):
    assert [c.value for c in fields_of(jick(rules))["bid"].choices] == bids
    assert [c.value for c in fields_of(table(rules))["bid"].choices] == [b for b in bids if b != 5]


def test_a_jick_of_the_wrong_json_type_is_a_wrong_type_naming_it():
    with pytest.raises(WrongType) as info:
        parse_entry(jick(SHMEAR), {"bidder": 0, "bid": 2, "jick": "2"})
    assert set(info.value.problems) == {"jick"}
    assert [str(m) for m in info.value.problems["jick"]] == [
        "The Jick must be given as a seat number."
    ]


# -- the Jick: scoring, a rule table per ruleset -------------------------------------------


@pytest.mark.parametrize(
    ("rules", "raw", "before", "deltas", "made", "points", "bidders"),
    [
        pytest.param(
            SHMEAR,
            {
                "bidder": 1,
                "bid": 5,
                "trump": "H",
                "high": 1,
                "low": 1,
                "jack": 1,
                "jick": 1,
                "game": 1,
            },
            (0, 0, 0, 0),
            (0, 5, 0, 0),
            True,
            [0, 5, 0, 0],
            (1,),
            id="shmear-a-bid-of-5-made-with-all-five",
        ),
        pytest.param(
            SHMEAR,
            {
                "bidder": 1,
                "bid": 5,
                "trump": "H",
                "high": 1,
                "low": 1,
                "jack": 1,
                "jick": 2,
                "game": 1,
            },
            (3, 3, 3, 3),
            (0, -3, 1, 0),
            False,
            [0, 4, 1, 0],
            (1,),
            id="shmear-a-bid-of-5-set-with-four-floored-at-0",
        ),
        pytest.param(
            SHMEAR,
            {"bidder": 1, "bid": 4, "trump": "S", "high": 1, "low": 1, "jack": 1, "game": 1},
            (0, 0, 0, 0),
            (0, 4, 0, 0),
            True,
            [0, 4, 0, 0],
            (1,),
            id="shmear-jick-not-in-play-scores-nobody",
        ),
        pytest.param(
            SHMEAR,
            {
                "bidder": 1,
                "bid": "moon",
                "trump": "D",
                "high": 1,
                "low": 1,
                "jack": 1,
                "jick": 1,
                "game": 1,
            },
            (0, 2, 0, 0),
            (0, 5, 0, 0),
            True,
            [0, 5, 0, 0],
            (1,),
            id="shmear-the-moon-made-with-all-five",
        ),
        pytest.param(
            SHMEAR,
            {
                "bidder": 1,
                "bid": "moon",
                "trump": "D",
                "high": 1,
                "low": 1,
                "jack": 1,
                "jick": 2,
                "game": 1,
            },
            (0, 2, 0, 0),
            (0, -2, 1, 0),
            False,
            [0, 4, 1, 0],
            (1,),
            id="shmear-four-of-five-fails-the-moon",
        ),
        pytest.param(
            HIGH_LOW,
            {"bidder": 2, "bid": 3, "trump": "S", "high": 0, "low": 1, "jick": 1, "game": 3},
            (0, 0, 0, 0),
            (3, 3, 0, 1),
            True,
            [1, 2, 0, 1],
            (0, 1),
            id="high-low-the-pair-counts-the-jick-either-took",
        ),
        pytest.param(
            HIGH_LOW,
            {
                "bidder": 0,
                "bid": 5,
                "trump": "C",
                "high": 0,
                "low": 1,
                "jack": 0,
                "jick": 1,
                "game": 0,
            },
            (0, 0, 0, 0),
            (5, 5, 0, 0),
            True,
            [3, 2, 0, 0],
            (0, 1),
            id="high-low-a-bid-of-5-made-by-the-pair",
        ),
        pytest.param(
            HIGH_LOW,
            {
                "bidder": 0,
                "bid": 5,
                "trump": "C",
                "high": 0,
                "low": 1,
                "jack": 0,
                "jick": 2,
                "game": 0,
            },
            (6, 6, 6, 6),
            (-5, -5, 1, 0),
            False,
            [3, 1, 1, 0],
            (0, 1),
            id="high-low-the-jick-outside-the-pair-sets-5",
        ),
        pytest.param(
            PARTNERS,
            {
                "bidder": 0,
                "bid": 5,
                "trump": "H",
                "high": 0,
                "low": 2,
                "jack": 2,
                "jick": 0,
                "game": 0,
            },
            (0, 0, 0, 0),
            (5, 0, 5, 0),
            True,
            [5, 0],
            (0, 2),
            id="partners-a-bid-of-5-made-by-the-team",
        ),
        pytest.param(
            PARTNERS,
            {
                "bidder": 0,
                "bid": 4,
                "trump": "H",
                "high": 0,
                "low": 2,
                "jack": 0,
                "jick": 1,
                "game": 0,
            },
            (0, 0, 0, 0),
            (4, 1, 4, 1),
            True,
            [4, 1],
            (0, 2),
            id="partners-the-jick-to-the-other-team",
        ),
        pytest.param(
            PARTNERS,
            {"bidder": 1, "bid": "moon", "trump": "S", "high": 1, "low": 3, "jack": 1, "game": 1},
            (2, 2, 2, 2),
            (0, -2, 0, -2),
            False,
            [0, 4],
            (1, 3),
            id="partners-the-moon-with-the-jick-not-in-play-fails",
        ),
        pytest.param(
            KITTY,
            {
                "bidder": 2,
                "bid": 5,
                "trump": "C",
                "high": 2,
                "low": 2,
                "jack": 2,
                "jick": 2,
                "game": 2,
            },
            (0, 0, 0),
            (0, 0, 5),
            True,
            [0, 0, 5],
            (2,),
            id="kitty-three-players-a-bid-of-5-made",
        ),
        pytest.param(
            KITTY,
            {"bidder": 2, "bid": 3, "trump": "C", "high": 2, "low": 0, "jick": 1, "game": 1},
            (4, 4, 4),
            (1, 2, -3),
            False,
            [1, 2, 1],
            (2,),
            id="kitty-the-jick-decides-a-set-bid",
        ),
    ],
)
def test_the_jick_is_a_fifth_point(rules, raw, before, deltas, made, points, bidders):
    result = score(jick(rules, len(before)), raw, before)
    assert result.deltas == deltas
    assert result.made is made
    assert list(result.get("points")) == points
    assert result.bidders == bidders


@pytest.mark.parametrize("rules", FAMILY, ids=lambda r: r.id)
def test_the_deal_document_carries_the_jick_after_the_jack_null_when_not_in_play(rules):
    raw = {"bidder": 0, "bid": 2, "trump": "S", "high": 0, "low": 0, "game": 0}
    document = score(jick(rules), raw).to_document()
    keys = list(document)
    assert document["jick"] is None
    assert keys[keys.index("jack") + 1] == "jick"
    assert "jick" not in score(table(rules), raw).to_document()


# -- the Jick: refusals ------------------------------------------------------------------

GOOD = {"bidder": 1, "bid": 2, "trump": "S", "high": 1, "low": 1, "game": 1}


@pytest.mark.parametrize("rules", FAMILY, ids=lambda r: r.id)
def test_a_jick_seat_without_the_house_rule_is_refused_naming_jick(rules):
    problems = refused(table(rules), {**GOOD, "jick": 2}).problems
    assert set(problems) == {"jick"}
    assert [str(m) for m in problems["jick"]] == [
        "This game is played without the Jick (house rule off), so nobody takes it: leave it out."
    ]


@pytest.mark.parametrize(
    ("rules", "bids"),
    [
        pytest.param(SHMEAR, '2, 3, 4 and "moon"', id="shmear"),
        pytest.param(HIGH_LOW, "2, 3 and 4", id="high-low"),
        pytest.param(PARTNERS, '2, 3, 4 and "moon"', id="partners"),
        pytest.param(KITTY, '2, 3, 4 and "moon"', id="kitty"),
    ],
)
def test_a_bid_of_5_without_the_jick_is_refused_naming_bid(rules, bids):
    problems = refused(table(rules), {**GOOD, "bid": 5}).problems
    assert set(problems) == {"bid"}
    assert [str(m) for m in problems["bid"]] == [
        "A bid of 5 needs the Jick, a fifth point, and this game is played without it "
        f"(house rule off); bids are {bids}."
    ]


@pytest.mark.parametrize("rules", FAMILY, ids=lambda r: r.id)
def test_an_auction_bid_of_5_without_the_jick_is_refused_naming_auction(rules):
    raw = {k: v for k, v in GOOD.items() if k not in ("bidder", "bid")}
    problems = refused(table(rules), {**raw, "auction": [None, 5, None, None]}).problems
    assert set(problems) == {"auction"}
    assert str(problems["auction"][0]).startswith("A bid of 5 needs the Jick, a fifth point")


@pytest.mark.parametrize("rules", FAMILY, ids=lambda r: r.id)
def test_with_the_jick_an_auction_may_rise_to_5(rules):
    raw = {k: v for k, v in GOOD.items() if k not in ("bidder", "bid")}
    raw |= {"auction": [2, 5, None, None], "jick": 1, "jack": 1}
    result = score(jick(rules), raw)
    assert (result.bidder, result.get("bid")) == (2, 5)


def test_a_bid_above_5_is_still_not_a_bid_with_the_jick():
    problems = refused(jick(SHMEAR), {**GOOD, "bid": 6}).problems
    assert [str(m) for m in problems["bid"]] == ['6 is not a bid; bids are 2, 3, 4, 5 and "moon".']


@pytest.mark.parametrize(
    ("rules", "raw", "message"),
    [
        pytest.param(
            SHMEAR,
            {**GOOD, "jack": 2, "jick": 2, "game": None, "game_points": [0, 10, 1, 0]},
            "Cy took the jack of trump and the Jick, so counted at least 2 in Game; 1 was entered.",
            id="shmear-jack-and-jick-count-2",
        ),
        pytest.param(
            SHMEAR,
            {**GOOD, "jick": 3, "game": None, "game_points": [0, 10, 1, 0]},
            "Di took the Jick, so counted at least 1 in Game; 0 was entered.",
            id="shmear-the-jick-counts-1",
        ),
        pytest.param(
            SHMEAR,
            {**GOOD, "jack": 3, "game": None, "game_points": [0, 10, 1, 0]},
            "Di took the jack of trump, so counted at least 1 in Game; 0 was entered.",
            id="shmear-the-jack-alone-as-before",
        ),
        pytest.param(
            HIGH_LOW,
            {**GOOD, "jack": 0, "jick": 0, "game": None, "game_points": [1, 10, 0, 0]},
            "Ann took the jack of trump and the Jick, so counted at least 2 in Game; 1 was "
            "entered.",
            id="high-low-the-seat-that-took-them",
        ),
        pytest.param(
            PARTNERS,
            {**GOOD, "jack": 0, "jick": 2, "game": None, "game_points": [1, 10]},
            "the team of Ann and Cy took the jack of trump and the Jick, so counted at least 2 "
            "in Game; 1 was entered.",
            id="partners-the-team-that-took-them",
        ),
        pytest.param(
            KITTY,
            {**GOOD, "jick": 0, "game": None, "game_points": [0, 10, 0, 0]},
            "Ann took the Jick, so counted at least 1 in Game; 0 was entered.",
            id="kitty-the-jick-counts-1",
        ),
    ],
)
def test_game_counts_below_the_jack_and_jick_taken_are_refused(rules, raw, message):
    raw = {k: v for k, v in raw.items() if v is not None}
    problems = refused(jick(rules), raw).problems
    assert set(problems) == {"game_points"}
    assert [str(m) for m in problems["game_points"]] == [message]


def test_a_jick_seat_not_at_the_table_is_refused_naming_jick():
    problems = refused(jick(SHMEAR), {**GOOD, "jick": 4}).problems
    assert set(problems) == {"jick"}


def test_a_forfeit_records_no_jick():
    problems = refused(jick(SHMEAR), {"forfeit": True, "jick": 1}).problems
    assert set(problems) == {"forfeit", "jick"}


# -- the Jick: words -----------------------------------------------------------------------


def test_explain_says_who_took_the_jick_and_when_it_was_not_in_play():
    config = jick(SHMEAR)
    took = score(config, {**GOOD, "jick": 2, "jack": 1})
    words = [str(m) for m in SHMEAR.explain(config, took)]
    assert "Jick to Cy." in words
    missing = score(config, {**GOOD, "jack": 1})
    assert "The Jick was not in play, so nobody scored it." in [
        str(m) for m in SHMEAR.explain(config, missing)
    ]
    assert not any(
        "Jick" in str(m) for m in SHMEAR.explain(table(SHMEAR), score(table(SHMEAR), GOOD))
    )


def test_explain_and_the_win_check_count_five_points_for_the_moon():
    config = jick(SHMEAR)
    raw = {**GOOD, "bid": "moon", "jack": 1, "jick": 2}
    failed = score(config, raw, (0, 3, 0, 0))
    assert (
        "The moon failed with 4 of five: the score goes back to 0 and a smuck is marked for Bob."
        in [str(m) for m in SHMEAR.explain(config, failed)]
    )
    made = score(config, {**raw, "jick": 1}, (0, 3, 0, 0))
    assert "The moon was made with all five points." in [
        str(m) for m in SHMEAR.explain(config, made)
    ]
    outcome = SHMEAR.outcome(config, made.scores, made)
    assert str(outcome.explanation) == (
        "Bob shot the moon and took all five points, so Bob wins at once."
    )


# -- scores below 0: a rule table per ruleset ---------------------------------------------


@pytest.mark.parametrize(
    ("rules", "raw", "before", "dealer", "deltas", "scores", "floored"),
    [
        pytest.param(
            SHMEAR,
            {"bidder": 1, "bid": 3, "trump": "H", "high": 0, "low": 0, "game": 2},
            (0, 1, 0, 0),
            0,
            (2, -3, 1, 0),
            (2, -2, 1, 0),
            (2, -1, 1, 0),
            id="shmear-a-set-bid-takes-its-full-amount",
        ),
        pytest.param(
            SHMEAR,
            {"bidder": 1, "bid": 2, "trump": "H", "high": 0, "low": 0, "game": 0},
            (0, -2, 0, 0),
            0,
            (3, -2, 0, 0),
            (3, -4, 0, 0),
            None,
            id="shmear-a-score-below-0-goes-further-down",
        ),
        pytest.param(
            SHMEAR,
            {"forfeit": True},
            (1, 0, 0, 0),
            0,
            (-2, 0, 0, 0),
            (-1, 0, 0, 0),
            (-1, 0, 0, 0),
            id="shmear-a-forfeit-takes-2",
        ),
        pytest.param(
            SHMEAR,
            {"bidder": 1, "bid": "moon", "trump": "H", "high": 1, "low": 1, "jack": 1, "game": 0},
            (0, 3, 0, 0),
            0,
            (1, -3, 0, 0),
            (1, 0, 0, 0),
            (1, -3, 0, 0),
            id="shmear-a-failed-moon-still-goes-back-to-0",
        ),
        pytest.param(
            HIGH_LOW,
            {"bidder": 2, "bid": 4, "trump": "S", "high": 0, "low": 1, "game": 2},
            (1, 0, 0, 0),
            0,
            (-4, -4, 1, 0),
            (-3, -4, 1, 0),
            (-1, 0, 1, 0),
            id="high-low-each-of-the-pair-loses-the-bid",
        ),
        pytest.param(
            HIGH_LOW,
            {"forfeit": True},
            (0, 0, 0, 5),
            3,
            (0, 0, 0, -2),
            (0, 0, 0, 3),
            (0, 0, 0, -2),
            id="high-low-a-forfeit-from-a-score-of-5",
        ),
        pytest.param(
            PARTNERS,
            {"bidder": 1, "bid": 3, "trump": "D", "high": 0, "low": 0, "game": 0},
            (0, 1, 0, 1),
            0,
            (3, -3, 3, -3),
            (3, -2, 3, -2),
            (3, -1, 3, -1),
            id="partners-the-team-loses-the-bid",
        ),
        pytest.param(
            PARTNERS,
            {"forfeit": True},
            (0, 0, 0, 0),
            1,
            (0, -2, 0, -2),
            (0, -2, 0, -2),
            (0, 0, 0, 0),
            id="partners-the-dealers-team-forfeits-below-0",
        ),
        pytest.param(
            KITTY,
            {"bidder": 4, "bid": 4, "trump": "C", "high": 4, "low": 0, "jack": 4, "game": 4},
            (0, 0, 0, 0, 2),
            0,
            (1, 0, 0, 0, -4),
            (1, 0, 0, 0, -2),
            (1, 0, 0, 0, -2),
            id="kitty-five-players-a-set-bid-of-4",
        ),
    ],
)
def test_with_negative_scores_losses_take_their_full_amount(
    rules, raw, before, dealer, deltas, scores, floored
):
    config = below_0(rules, len(before))
    result = score(config, raw, before, dealer)
    assert (result.deltas, result.scores) == (deltas, scores)
    if floored is not None:  # the same deal with the floor at 0, the house rule off
        assert score(table(rules, len(before)), raw, before, dealer).deltas == floored


@pytest.mark.parametrize("rules", [SHMEAR, PARTNERS, KITTY], ids=lambda r: r.id)
def test_a_moon_needs_at_least_1_before_the_hand_even_below_0(rules):
    raw = {**GOOD, "bid": "moon", "jack": 1}
    problems = refused(below_0(rules), raw, (0, -1, 0, -1)).problems
    assert set(problems) == {"bid"}


def test_the_forfeit_hint_and_words_say_the_score_may_go_below_0():
    config = below_0(SHMEAR)
    assert str(fields_of(config)["forfeit"].hint) == (
        "The dealer loses 2 (even below 0) and the deal passes to the left."
    )
    forfeit = score(config, {"forfeit": True}, (1, 0, 0, 0))
    assert [str(m) for m in SHMEAR.explain(config, forfeit)] == [
        "Everyone passed and Ann, the dealer, forfeited: Ann loses 2 (house rule: scores can "
        "go below 0), \u22122, and the deal passes to the left."
    ]


def test_a_set_bid_below_0_is_not_explained_as_floored():
    config = below_0(SHMEAR)
    result = score(config, {**GOOD, "bid": 3, "high": 0, "low": 0, "game": 0}, (0, 1, 0, 0))
    words = [str(m) for m in SHMEAR.explain(config, result)]
    assert "\u22123 for Bob." in words
    assert not any("never drops below 0" in w for w in words)


def test_the_win_check_is_unchanged_by_scores_below_0():
    config = below_0(SHMEAR, target=11)
    outcome = SHMEAR.outcome(config, (11, -3, 11, -5), last(bidder=2))
    assert (outcome.winners, outcome.decided_by) == ((2,), "bidder")


# -- the worked games --------------------------------------------------------------------

EACH_GAME = pytest.mark.parametrize("game", [pytest.param(g, id=slug(g["about"])) for g in GAMES])


def worked(game: dict):
    return configure(
        game["ruleset"], game["players"], game["first_dealer"], game["target"], game["house_rules"]
    )


def test_the_worked_games_play_both_house_rules():
    assert len(GAMES) == 2
    for game in GAMES:
        assert game["house_rules"]["jick"] is True
        assert game["house_rules"]["negative_scores"] is True
        assert any("jick" in deal for deal in game["deals"])
    assert min(min(d["scores"]) for d in GAMES[0]["expected"]["after_each_deal"]) < 0


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
    assert list(final.scores) == expected["scores"]
    assert final.outcome.status == expected["status"]
    assert list(final.outcome.winners) == expected["winners"]
    assert final.outcome.decided_by == expected["decided_by"]
    assert final.next_dealer == expected["next_dealer"]
    assert list(config.ruleset.smucks(config, results)) == expected["smucks"]


@EACH_GAME
def test_the_worked_game_is_refused_without_its_house_rules(game):
    config = configure(game["ruleset"], game["players"], game["first_dealer"], game["target"], {})
    with pytest.raises(RuleViolation):
        replay(config, game["deals"])
