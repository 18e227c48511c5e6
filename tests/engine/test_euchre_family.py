"""The Euchre family (`euchre`, `two-`, `three-`, `six-handed-euchre`).

As docs/rules.md#the-euchre-family states it.

Tables are Ann, Bob, Cy, Di, Ed, Flo cut to the game's size; Ann (seat 0) deals first.
"""

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.engine import (
    CorrectionConflict,
    GameState,
    RuleViolation,
    WrongType,
    apply_deal,
    configure,
    correct_deal,
    explain_deal,
    get_ruleset,
    new_game,
    parse_entry,
    replay,
    rulesets,
    stand_in_deal,
)
from scorekeeper.engine.describe import FieldKind, SideKind
from scorekeeper.engine.results import DealKind, DecidedBy, Status
from scorekeeper.engine.ruleset import GameConfig
from tests.quick import examples

NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo")
SEATS = {"euchre": 4, "two-handed-euchre": 2, "three-handed-euchre": 3, "six-handed-euchre": 6}
FAMILY = tuple(SEATS)
PARTNERSHIPS = ("euchre", "six-handed-euchre")
INDIVIDUAL = ("two-handed-euchre", "three-handed-euchre")
GAMES = json.loads(
    (Path(__file__).parents[1] / "data" / "euchre-family-games.json").read_text("utf-8")
)
SETTINGS = settings(
    max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def table(ruleset: str, target: int | None = None, **house_rules: object) -> GameConfig:
    """Return a table of the game's size; Ann deals first."""
    players = list(NAMES[: SEATS[ruleset]])
    return configure(ruleset, players, 0, target, house_rules or None)


def score(ruleset: str, raw: dict, scores: tuple[int, ...] | None = None, **house_rules: object):
    """Return the result of the entry as deal 1 (dealt by Ann) at a fresh table."""
    config = table(ruleset, **house_rules)
    start = scores or (0,) * config.seats
    return config.ruleset.score_deal(config, 1, 0, start, parse_entry(config, raw))


def refused(ruleset: str, raw: object, **house_rules: object) -> dict:
    """Return the problems, by field, of an entry the game refuses (as English text)."""
    with pytest.raises(RuleViolation) as caught:
        score(ruleset, raw, **house_rules)  # type: ignore[arg-type]
    return {field: [str(m) for m in found] for field, found in caught.value.problems.items()}


def play(config: GameConfig, *entries: dict) -> GameState:
    """Return the game after these deals."""
    state = new_game(config)
    for raw in entries:
        state = apply_deal(state, parse_entry(config, raw))
    return state


def results(config: GameConfig, *entries: dict) -> list:
    """Return the result of each of these deals, in order."""
    return [state.last for state in replay(config, [parse_entry(config, e) for e in entries])]


# -- the four games as the API lists them ------------------------------------------------


def test_the_four_follow_five_handed_euchre_in_the_listing_exactly_as_api_md():
    ids = [r.id for r in rulesets()]
    at = ids.index("five-handed-euchre")
    assert ids[at + 1 : at + 5] == list(FAMILY)
    flags = {"values": [True, False], "default": False}
    assert get_ruleset("euchre").describe() == {
        "id": "euchre",
        "name": "Euchre",
        "players": {"min": 4, "max": 4},
        "target": 10,
        "teams": [[0, 2], [1, 3]],
        "house_rules": {"stick_the_dealer": flags, "defending_alone": flags, "benny": flags},
    }
    for ruleset, name, seats, teams in (
        ("two-handed-euchre", "Two-Handed Euchre", 2, None),
        ("three-handed-euchre", "Three-Handed Euchre", 3, None),
        ("six-handed-euchre", "Six-Handed Euchre", 6, [[0, 2, 4], [1, 3, 5]]),
    ):
        assert get_ruleset(ruleset).describe() == {
            "id": ruleset,
            "name": name,
            "players": {"min": seats, "max": seats},
            "target": 10,
            "teams": teams,
            "house_rules": {"stick_the_dealer": flags, "benny": flags},
        }


@pytest.mark.parametrize(("ruleset", "players"), [("euchre", 5), ("two-handed-euchre", 3)])
def test_a_player_count_outside_the_range_names_players(ruleset, players):
    with pytest.raises(RuleViolation) as caught:
        configure(ruleset, list(NAMES[:players]), 0)
    assert "players" in caught.value.problems


@pytest.mark.parametrize(
    ("ruleset", "house_rules"),
    [
        ("two-handed-euchre", {"defending_alone": True}),
        ("six-handed-euchre", {"defending_alone": False}),
        ("euchre", {"teams": "pairs"}),
        ("euchre", {"benny": "yes"}),
    ],
)
def test_a_house_rule_the_game_does_not_have_names_house_rules(ruleset, house_rules):
    with pytest.raises(RuleViolation) as caught:
        configure(ruleset, list(NAMES[: SEATS[ruleset]]), 0, None, house_rules)
    assert "house_rules" in caught.value.problems


@pytest.mark.parametrize("ruleset", FAMILY)
def test_the_entry_fields_follow_the_game_and_its_house_rules(ruleset):
    config = table(ruleset)
    fields = {f.name: f.kind for f in config.ruleset.entry_fields(config)}
    expected = {"bidder": FieldKind.SEAT, "trump": FieldKind.SUIT, "tricks": FieldKind.NUMBER}
    if ruleset in PARTNERSHIPS:
        expected["alone"] = FieldKind.TOGGLE
    expected["thrown_in"] = FieldKind.FLAG
    assert fields == expected
    stuck = table(ruleset, stick_the_dealer=True)
    assert "thrown_in" not in {f.name for f in stuck.ruleset.entry_fields(stuck)}
    assert config.ruleset.side_kind == (
        SideKind.TEAMS if ruleset in PARTNERSHIPS else SideKind.INDIVIDUAL
    )


def test_the_lone_defender_is_a_field_only_with_defending_alone():
    config = table("euchre", defending_alone=True)
    fields = [f.name for f in config.ruleset.entry_fields(config)]
    assert fields == ["bidder", "trump", "alone", "defender_alone", "tricks", "thrown_in"]


# -- scoring -----------------------------------------------------------------------------

SCORING = [
    # ruleset, tricks, alone, what the makers' side scores, what each other side scores
    *(("euchre", t, False, 1, 0) for t in (3, 4)),
    ("euchre", 5, False, 2, 0),
    *(("euchre", t, True, 1, 0) for t in (3, 4)),
    ("euchre", 5, True, 4, 0),
    *(("euchre", t, a, 0, 2) for t in (0, 1, 2) for a in (False, True)),
    *(("six-handed-euchre", t, False, 1, 0) for t in (3, 4)),
    ("six-handed-euchre", 5, False, 2, 0),
    ("six-handed-euchre", 5, True, 4, 0),
    *(("six-handed-euchre", t, a, 0, 2) for t in (0, 1, 2) for a in (False, True)),
    *(("two-handed-euchre", t, False, 1, 0) for t in (3, 4)),
    ("two-handed-euchre", 5, False, 2, 0),
    *(("two-handed-euchre", t, False, 0, 2) for t in (0, 1, 2)),
    *(("three-handed-euchre", t, False, 1, 0) for t in (3, 4)),
    ("three-handed-euchre", 5, False, 3, 0),
    *(("three-handed-euchre", t, False, 0, 2) for t in (0, 1, 2)),
]


@pytest.mark.parametrize(("ruleset", "tricks", "alone", "makers", "others"), SCORING)
def test_each_hand_scores_as_the_table_of_section_5(ruleset, tricks, alone, makers, others):
    maker = 1
    raw = {"bidder": maker, "trump": "H", "tricks": tricks}
    if alone:
        raw["alone"] = True
    result = score(ruleset, raw)
    config = table(ruleset)
    team = config.ruleset.sides(config)[config.ruleset.side_of(config, maker)]
    assert result.deltas == tuple(
        makers if seat in team else others for seat in range(config.seats)
    )
    assert result.made is (tricks >= 3)
    assert result.bidders == (maker, *(s for s in team if s != maker))
    assert result.get("points") == tuple(
        makers if maker in side else others for side in config.ruleset.sides(config)
    )


def test_bidders_are_the_maker_then_the_team_ascending_also_when_alone():
    assert score("euchre", {"bidder": 2, "trump": "S", "tricks": 3}).bidders == (2, 0)
    assert score("euchre", {"bidder": 3, "trump": "S", "alone": True, "tricks": 5}).bidders == (
        3,
        1,
    )
    six = score("six-handed-euchre", {"bidder": 3, "trump": "C", "tricks": 4})
    assert six.bidders == (3, 1, 5)
    assert score("three-handed-euchre", {"bidder": 2, "trump": "C", "tricks": 4}).bidders == (2,)


def test_the_deal_document_of_api_md():
    config = table("euchre")
    state = play(
        config,
        {"bidder": 1, "trump": "D", "tricks": 3},
        {"bidder": 0, "trump": "S", "tricks": 3},
        {"bidder": 3, "trump": "C", "tricks": 4},
    )
    state = apply_deal(
        state, parse_entry(config, {"number": 4, "bidder": 1, "trump": "H", "alone": True,
                                    "tricks": 5})
    )  # fmt: skip
    doc = state.last.to_document()
    assert doc == {
        "number": 4,
        "dealer": 3,
        "thrown_in": False,
        "bidder": 1,
        "trump": "H",
        "alone": True,
        "tricks": 5,
        "made": True,
        "bidders": [1, 3],
        "points": [0, 4],
        "deltas": [0, 4, 0, 4],
        "scores": [1, 6, 1, 6],
    }


def test_alone_false_and_null_fields_count_as_left_out():
    plain = score("euchre", {"bidder": 0, "trump": "H", "tricks": 5})
    same = score("euchre", {"bidder": 0, "trump": "H", "tricks": 5, "alone": False,
                            "thrown_in": False, "defender_alone": None})  # fmt: skip
    assert same.deltas == plain.deltas == (2, 0, 2, 0)
    assert same.get("alone") is False
    two = score("two-handed-euchre", {"bidder": 0, "trump": "H", "tricks": 5, "alone": False})
    assert two.deltas == (2, 0)
    assert "alone" not in two.detail


def test_a_lone_defender_who_euchres_the_lone_maker_scores_4():
    raw = {"bidder": 0, "trump": "H", "alone": True, "defender_alone": 3, "tricks": 2}
    result = score("euchre", raw, defending_alone=True)
    assert result.deltas == (0, 4, 0, 4)
    assert result.get("defender_alone") == 3
    # A lone march against a lone defender is still 4, 3 or 4 tricks still 1.
    assert score("euchre", {**raw, "tricks": 5}, defending_alone=True).deltas == (4, 0, 4, 0)
    assert score("euchre", {**raw, "tricks": 4}, defending_alone=True).deltas == (1, 0, 1, 0)
    # Without a lone defender the house rule changes nothing.
    del raw["defender_alone"]
    assert score("euchre", raw, defending_alone=True).deltas == (0, 2, 0, 2)


@pytest.mark.parametrize("ruleset", FAMILY)
def test_the_benny_is_on_record_and_changes_no_score(ruleset):
    for tricks in range(6):
        raw = {"bidder": 0, "trump": "S", "tricks": tricks}
        assert score(ruleset, raw, benny=True).deltas == score(ruleset, raw).deltas
    assert table(ruleset, benny=True).house_rules["benny"] is True


# -- thrown-in hands ---------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", FAMILY)
def test_a_thrown_in_hand_scores_nothing_and_the_deal_passes_left(ruleset):
    config = table(ruleset)
    state = play(config, {"thrown_in": True}, {"thrown_in": True, "bidder": None})
    first, second = results(config, {"thrown_in": True}, {"thrown_in": True, "bidder": None})
    assert (first.dealer, second.dealer, state.next_dealer) == (0, 1, 2 % config.seats)
    assert first.kind == DealKind.THROWN_IN
    doc = first.to_document()
    assert doc["thrown_in"] is True
    assert doc["deltas"] == [0] * config.seats and doc["scores"] == [0] * config.seats
    for field in ("bidder", "trump", "tricks", "made", "bidders", "points"):
        assert doc[field] is None, field
    if ruleset in PARTNERSHIPS:
        assert doc["alone"] is False
    assert state.outcome.status == Status.IN_PROGRESS
    assert "deals next" in str(explain_deal(config, first)[0])


@pytest.mark.parametrize("ruleset", FAMILY)
def test_stick_the_dealer_refuses_a_thrown_in_hand(ruleset):
    assert refused(ruleset, {"thrown_in": True}, stick_the_dealer=True).keys() == {"thrown_in"}


# -- what an entry must refuse ----------------------------------------------------------

REFUSALS = [
    ("euchre", {"trump": "H", "tricks": 3}, {"bidder"}),
    ("euchre", {"bidder": 4, "trump": "H", "tricks": 3}, {"bidder"}),
    ("euchre", {"bidder": -1, "trump": "H", "tricks": 3}, {"bidder"}),
    ("two-handed-euchre", {"bidder": 2, "trump": "H", "tricks": 3}, {"bidder"}),
    ("euchre", {"bidder": 0, "tricks": 3}, {"trump"}),
    ("euchre", {"bidder": 0, "trump": "h", "tricks": 3}, {"trump"}),
    ("six-handed-euchre", {"bidder": 0, "trump": "X", "tricks": 3}, {"trump"}),
    ("euchre", {"bidder": 0, "trump": "H"}, {"tricks"}),
    ("three-handed-euchre", {"bidder": 0, "trump": "H", "tricks": 6}, {"tricks"}),
    ("euchre", {"bidder": 0, "trump": "H", "tricks": -1}, {"tricks"}),
    ("two-handed-euchre", {"bidder": 0, "trump": "H", "tricks": 5, "alone": True}, {"alone"}),
    ("three-handed-euchre", {"bidder": 0, "trump": "H", "tricks": 5, "alone": True}, {"alone"}),
    ("euchre", {"bidder": 0, "trump": "H", "tricks": 1, "alone": True, "defender_alone": 1},
     {"defender_alone"}),
    ("six-handed-euchre", {"bidder": 0, "trump": "H", "tricks": 1, "defender_alone": 1},
     {"defender_alone"}),
    *(("euchre", {"bidder": 0, "trump": "H", "tricks": 3, key: value}, {key})
      for key, value in (("bid", 3), ("auction", [None]), ("called_card", "AS"),
                         ("partner", 2), ("high", 0), ("low", 0), ("jack", 1), ("game", 0),
                         ("game_points", [1, 2]), ("forfeit", True), ("off_jack", 1),
                         ("joker", 1))),
    ("euchre", {"thrown_in": True, "bidder": 0}, {"thrown_in", "bidder"}),
    ("two-handed-euchre", {"thrown_in": True, "trump": "H", "tricks": 0},
     {"thrown_in", "trump", "tricks"}),
    ("euchre", {"thrown_in": True, "alone": True}, {"thrown_in", "alone"}),
    ("euchre", {"thrown_in": True, "bid": 2}, {"thrown_in", "bid"}),
    ("euchre", {"bidder": 9, "trump": "H", "tricks": 7}, {"bidder", "tricks"}),
    ("three-handed-euchre", {"tricks": 9, "alone": True, "bid": 3},
     {"bidder", "trump", "tricks", "alone", "bid"}),
]  # fmt: skip


@pytest.mark.parametrize(("ruleset", "raw", "fields"), REFUSALS)
def test_every_refusal_of_section_5_6_names_every_field_at_fault(ruleset, raw, fields):
    problems = refused(ruleset, raw)
    assert problems.keys() == fields
    assert all(message.endswith(".") for found in problems.values() for message in found)


LONE = {"bidder": 0, "trump": "H", "alone": True, "tricks": 1}


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        ({**LONE, "alone": None, "defender_alone": 1}, "only against a maker who went alone"),
        ({**LONE, "defender_alone": 4}, "Seat 4 is not at this table"),
        ({**LONE, "defender_alone": 0}, "Ann is on the maker's team"),
        ({**LONE, "defender_alone": 2}, "Cy is on the maker's team"),
    ],
)
def test_a_lone_defender_must_defend_a_lone_maker_from_the_other_team(raw, says):
    problems = refused("euchre", raw, defending_alone=True)
    assert problems.keys() == {"defender_alone"}
    assert says in problems["defender_alone"][0]


@pytest.mark.parametrize(
    "raw",
    [
        {"bidder": 0, "trump": "H", "tricks": "3"},
        {"bidder": 0, "trump": "H", "tricks": 3, "alone": "yes"},
        {"bidder": 0, "trump": "H", "tricks": 3, "alone": True, "defender_alone": 1.0},
        {"thrown_in": 1},
        {"bidder": True, "trump": "H", "tricks": 3},
        {"bidder": 0, "trump": 3, "tricks": 3},
    ],
)
def test_a_wrong_json_type_is_a_wrong_type_naming_the_field(raw):
    config = table("euchre", defending_alone=True)
    with pytest.raises(WrongType) as caught:
        parse_entry(config, raw)
    assert len(caught.value.problems) == 1


def test_after_the_end_no_hand_is_entered():
    config = table("two-handed-euchre", target=5)
    state = play(config, *[{"bidder": 0, "trump": "S", "tricks": 5}] * 3)
    assert state.outcome.status == Status.WON and state.outcome.winners == (0,)
    with pytest.raises(RuleViolation):
        apply_deal(state, parse_entry(config, {"thrown_in": True}))


# -- winning -----------------------------------------------------------------------------


@pytest.mark.parametrize("target", [5, 7, 10, 11])
@pytest.mark.parametrize("ruleset", FAMILY)
def test_the_first_side_at_the_games_target_wins(ruleset, target):
    config = table(ruleset, target=target)
    state = new_game(config)
    while not state.outcome.finished:
        state = apply_deal(state, parse_entry(config, {"bidder": 1, "trump": "C", "tricks": 4}))
    assert state.deal_count == target
    assert state.outcome.decided_by == DecidedBy.HIGHEST
    team = config.ruleset.sides(config)[config.ruleset.side_of(config, 1)]
    assert state.outcome.winners == team
    assert state.scores[1] == target


def test_three_handed_opponents_reaching_10_together_lower_start_wins():
    config = table("three-handed-euchre")
    state = play(
        config,
        {"bidder": 1, "trump": "H", "tricks": 5},  # Bob 3
        {"bidder": 2, "trump": "H", "tricks": 5},  # Cy 3
        {"bidder": 2, "trump": "H", "tricks": 5},  # Cy 6
        {"bidder": 1, "trump": "H", "tricks": 4},  # Bob 4
        {"bidder": 1, "trump": "H", "tricks": 5},  # Bob 7
        {"bidder": 2, "trump": "H", "tricks": 5},  # Cy 9
        {"bidder": 1, "trump": "H", "tricks": 3},  # Bob 8
        {"bidder": 0, "trump": "H", "tricks": 2},  # Bob 10, Cy 11
    )
    assert state.scores == (0, 10, 11)
    assert state.outcome.status == Status.WON
    assert state.outcome.winners == (1,)
    assert state.outcome.decided_by == DecidedBy.LOWEST_AT_START


def test_three_handed_opponents_reaching_10_together_from_the_same_score_draw():
    config = table("three-handed-euchre")
    state = play(
        config,
        *[{"bidder": 0, "trump": "H", "tricks": 1}] * 4,  # Bob and Cy 8 each
        {"bidder": 0, "trump": "H", "tricks": 0},
    )
    assert state.scores == (0, 10, 10)
    assert state.outcome.status == Status.DRAWN
    assert state.outcome.winners == ()
    assert state.outcome.decided_by == DecidedBy.DRAW


def test_the_settler_asks_the_start_only_when_two_reached_the_target_together():
    config = table("three-handed-euchre")
    rules = config.ruleset
    assert rules.starting_scores_needed(config, (2, 10, 11)) == (1, 2)
    assert rules.starting_scores_needed(config, (2, 10, 9)) == ()
    last = stand_in_deal(config, (2, 10, 10), starting_scores=(2, 8, 8))
    assert rules.outcome(config, (2, 10, 10), last).status == Status.DRAWN
    with pytest.raises(RuleViolation) as caught:
        stand_in_deal(config, (2, 10, 12), starting_scores=(2, 7, 10))
    assert "starting_scores" in caught.value.problems
    teams = table("euchre")
    assert teams.ruleset.starting_scores_needed(teams, (10, 3, 10, 3)) == ()


# -- records -----------------------------------------------------------------------------


def test_statistics_tag_the_maker_and_the_defenders_who_euchred():
    config = table("euchre")
    rules = config.ruleset
    assert [s.tag for s in rules.statistics] == [
        "bid", "made", "euchred", "march", "euchring", "alone", "lone_march"
    ]  # fmt: skip
    lone_march = score("euchre", {"bidder": 1, "trump": "H", "alone": True, "tricks": 5})
    assert rules.seat_tags(config, lone_march) == (
        frozenset(),
        frozenset({"bid", "made", "march", "alone", "lone_march"}),
        frozenset(),
        frozenset(),
    )
    euchred = score("euchre", {"bidder": 1, "trump": "H", "tricks": 2})
    assert rules.seat_tags(config, euchred) == (
        frozenset({"euchring"}),
        frozenset({"bid", "euchred"}),
        frozenset({"euchring"}),
        frozenset(),
    )
    three = table("three-handed-euchre")
    assert "alone" not in {s.tag for s in three.ruleset.statistics}


def test_a_thrown_in_hand_tags_nobody():
    config = table("euchre")
    result = score("euchre", {"thrown_in": True})
    assert config.ruleset.seat_tags(config, result) == (frozenset(),) * 4


def test_explanations_name_the_maker_and_what_each_side_scored():
    config = table("three-handed-euchre")
    result = score("three-handed-euchre", {"bidder": 0, "trump": "H", "tricks": 2})
    assert [str(m) for m in explain_deal(config, result)] == [
        "Ann named hearts trump.",
        "Euchred: the makers took 2 of the five tricks, so Bob and Cy score 2 each.",
    ]
    config = table("euchre", defending_alone=True)
    raw = {"bidder": 0, "trump": "S", "alone": True, "defender_alone": 1, "tricks": 1}
    result = score("euchre", raw, defending_alone=True)
    assert [str(m) for m in explain_deal(config, result)] == [
        "Ann named spades trump and went alone.",
        "Bob defended alone against them.",
        "Euchred: the makers took 1 of the five tricks, so the team of Bob and Di scores 4.",
    ]


# -- the worked games, and properties of any game -----------------------------------------


@pytest.mark.parametrize("game", GAMES, ids=[g["about"] for g in GAMES])
def test_the_worked_games_replay_in_the_engine(game):
    config = configure(
        game["ruleset"], game["players"], game["first_dealer"], game["target"], game["house_rules"]
    )
    state = replay(config, [parse_entry(config, raw) for raw in game["deals"]])[-1]
    expected = game["expected"]
    assert [list(d.scores) for d in results(config, *game["deals"])] == [
        a["scores"] for a in expected["after_each_deal"]
    ]
    assert list(state.scores) == expected["scores"]
    assert str(state.outcome.status) == expected["status"]
    assert list(state.outcome.winners) == expected["winners"]


def entries(ruleset: str, seats: int) -> st.SearchStrategy[dict]:
    """Return any valid entry of the game: a played hand or, rarely, a thrown-in one."""
    played = st.fixed_dictionaries(
        {
            "bidder": st.integers(0, seats - 1),
            "trump": st.sampled_from("SHDC"),
            "tricks": st.integers(0, 5),
        },
        optional={"alone": st.booleans()} if ruleset in PARTNERSHIPS else {},
    )
    return st.one_of(played, st.just({"thrown_in": True}))


@st.composite
def games(draw: st.DrawFn) -> tuple[GameConfig, list[dict]]:
    """Return a table of the family and the deals of a game up to its end."""
    ruleset = draw(st.sampled_from(FAMILY))
    config = table(ruleset, target=draw(st.sampled_from([5, 7, 10, 11])))
    raws = draw(st.lists(entries(ruleset, config.seats), max_size=40))
    return config, raws


@SETTINGS
@given(games())
def test_scores_never_go_down_and_only_one_side_scores_except_both_three_handed_defenders(game):
    config, raws = game
    state = new_game(config)
    teams = config.teams()
    for raw in raws:
        if state.outcome.finished:
            break
        before = state.scores
        state = apply_deal(state, parse_entry(config, raw))
        last = state.last
        assert last is not None
        assert all(d >= 0 for d in last.deltas)
        assert state.scores == tuple(b + d for b, d in zip(before, last.deltas, strict=True))
        assert last.dealer == (last.number - 1) % config.seats
        scoring = {config.ruleset.side_of(config, s) for s, d in enumerate(last.deltas) if d}
        if config.ruleset.id == "three-handed-euchre" and last.made is False:
            assert len(scoring) == 2 and set(last.deltas) == {0, 2}
        else:
            assert len(scoring) <= 1
        if teams:
            assert all(len({state.scores[s] for s in team}) == 1 for team in teams)
        if last.deltas in {(0,) * config.seats}:
            assert last.kind == DealKind.THROWN_IN
    if state.outcome.status == Status.WON:
        assert all(state.scores[s] >= config.target for s in state.outcome.winners)


@SETTINGS
@given(games(), st.data())
def test_a_correction_then_its_inverse_restores_every_score(game, data):
    config, raws = game
    state = new_game(config)
    kept = []
    for raw in raws:
        if state.outcome.finished:
            break
        state = apply_deal(state, parse_entry(config, raw))
        kept.append(parse_entry(config, raw))
    if not kept:
        return
    number = data.draw(st.integers(1, len(kept)))
    replacement = parse_entry(config, {"thrown_in": True})
    try:
        corrected = correct_deal(config, kept, number, replacement)
    except CorrectionConflict:
        return  # the correction would have ended the game before its last hand
    assert corrected[number - 1].kind == DealKind.THROWN_IN
    assert corrected[-1].scores == tuple(
        s - d for s, d in zip(state.scores, kept_deltas(config, kept, number), strict=True)
    )
    restored = correct_deal(config, corrected_entries(kept, number, replacement),
                            number, kept[number - 1])  # fmt: skip
    assert restored[-1].scores == state.scores


def kept_deltas(config: GameConfig, kept: list, number: int) -> tuple[int, ...]:
    """Return the changes deal `number` made."""
    return replay(config, kept)[number - 1].last.deltas


def corrected_entries(kept: list, number: int, replacement: object) -> list:
    """Return the entries with deal `number` replaced."""
    return [replacement if i == number - 1 else e for i, e in enumerate(kept)]
