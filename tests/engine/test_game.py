"""Games as values: setting up a table, dealing in turn, ending, correcting, resuming."""

import dataclasses
import json

import pytest

from scorekeeper.engine import (
    CorrectionConflict,
    DealResult,
    GameConfig,
    GameOver,
    RuleViolation,
    WrongType,
    apply_deal,
    can_deal,
    check_deal,
    configure,
    correct_deal,
    new_game,
    parse_entry,
    replay,
    resume,
)

from .builders import PLAYERS, RULESET, alone, config, deal, play, start

THROWN_IN = {"thrown_in": True}
ALL = ("high", "low", "jack", "off_jack", "joker", "game")


def create(**changes) -> GameConfig:
    """Return GameConfig.create on the standard table with `changes` to its arguments."""
    arguments = {"ruleset": RULESET, "players": list(PLAYERS), "first_dealer": 0, **changes}
    return configure(**arguments)


# -- setting up a game ---------------------------------------------------------------------


def test_game_config_create_fills_in_the_ruleset_defaults():
    table = create()
    assert table.players == PLAYERS
    assert table.target == 21
    assert table.first_dealer == 0
    assert dict(table.house_rules) == {
        "partner_breaks_ties": True,
        "unresolved_tie": "play_on",
        "joker_callable": False,
    }
    assert table.to_document() == {
        "ruleset": RULESET,
        "players": list(PLAYERS),
        "first_dealer": 0,
        "target": 21,
        "house_rules": dict(table.house_rules),
    }


@pytest.mark.parametrize(
    ("changes", "check"),
    [
        pytest.param(
            {"players": ["  Ann ", "\tBob", "Cy\n", "Di", "Ed"]},
            lambda t: t.players == PLAYERS,
            id="names-trimmed",
        ),
        pytest.param(
            {"players": ["A", "B", "C", "D", "x" * 40]},
            lambda t: t.players[4] == "x" * 40,
            id="names-1-and-40-characters",
        ),
        pytest.param(
            {"players": ["Ann", "Anne", "Ann Marie", "An", "Ann2"]},
            lambda t: len(t.players) == 5,
            id="names-alike-but-distinct",
        ),
        pytest.param({"first_dealer": 4}, lambda t: t.first_dealer == 4, id="first-dealer-4"),
        pytest.param({"target": 1}, lambda t: t.target == 1, id="target-1"),
        pytest.param({"target": 999}, lambda t: t.target == 999, id="target-999"),
        pytest.param({"target": None}, lambda t: t.target == 21, id="target-null-default"),
        pytest.param(
            {"house_rules": {}},
            lambda t: t.house_rules["joker_callable"] is False,
            id="house-rules-empty",
        ),
        pytest.param(
            {"house_rules": {"partner_breaks_ties": False, "unresolved_tie": "shared"}},
            lambda t: (
                dict(t.house_rules)
                == {
                    "partner_breaks_ties": False,
                    "unresolved_tie": "shared",
                    "joker_callable": False,
                }
            ),
            id="house-rules-set-others-default",
        ),
        pytest.param(
            {"house_rules": {"joker_callable": True}},
            lambda t: t.house_rules["joker_callable"] is True,
            id="joker-callable-on",
        ),
    ],
)
def test_game_config_create_accepts_a_valid_table(changes, check):
    assert check(create(**changes))


@pytest.mark.parametrize(
    ("changes", "fields"),
    [
        pytest.param({"players": list(PLAYERS[:4])}, {"players"}, id="4-players"),
        pytest.param({"players": [*PLAYERS, "Flo"]}, {"players"}, id="6-players"),
        pytest.param({"players": []}, {"players"}, id="no-players"),
        pytest.param({"players": ["Ann", "Bob", "Cy", "Di", ""]}, {"players"}, id="empty-name"),
        pytest.param({"players": ["Ann", "Bob", "Cy", "Di", "   "]}, {"players"}, id="blank-name"),
        pytest.param({"players": ["Ann", "Bob", "Cy", "Di", "x" * 41]}, {"players"}, id="41-chars"),
        pytest.param({"players": ["Ann", "Bob", "Cy", "Di", "Ann"]}, {"players"}, id="same-name"),
        pytest.param(
            {"players": ["Ann", "Bob", "Cy", "Di", "ANN"]},
            {"players"},
            id="same-name-ignoring-case",
        ),
        pytest.param(
            {"players": ["Ann", "Bob", "Cy", "Di", " ann "]},
            {"players"},
            id="same-name-after-trimming",
        ),
        pytest.param(
            {"players": ["Straße", "Bob", "Cy", "Di", "STRASSE"]},
            {"players"},
            id="same-name-case-folded-not-just-lowered",
        ),
        pytest.param({"first_dealer": 5}, {"first_dealer"}, id="first-dealer-5"),
        pytest.param({"first_dealer": -1}, {"first_dealer"}, id="first-dealer-negative"),
        pytest.param({"target": 0}, {"target"}, id="target-0"),
        pytest.param({"target": 1000}, {"target"}, id="target-1000"),
        pytest.param({"target": -21}, {"target"}, id="target-negative"),
        pytest.param({"house_rules": {"kitty": True}}, {"house_rules"}, id="unknown-house-rule"),
        pytest.param(
            {"house_rules": {"partner_breaks_ties": 1}}, {"house_rules"}, id="house-rule-1-not-true"
        ),
        pytest.param(
            {"house_rules": {"joker_callable": 0}}, {"house_rules"}, id="house-rule-0-not-false"
        ),
        pytest.param(
            {"house_rules": {"partner_breaks_ties": "true"}},
            {"house_rules"},
            id="house-rule-string-true",
        ),
        pytest.param(
            {"house_rules": {"unresolved_tie": "share"}}, {"house_rules"}, id="unknown-value"
        ),
        pytest.param({"ruleset": "schmier"}, {"ruleset"}, id="unknown-ruleset"),
        pytest.param(
            {"ruleset": "schmier", "players": ["Ann", "ann", "", "Di", "Ed"], "target": 0},
            {"ruleset", "players", "target"},
            id="unknown-ruleset-and-every-other-problem",
        ),
        pytest.param(
            {
                "players": ["Ann", "ann", "Cy", "Di"],
                "first_dealer": 4,
                "target": 0,
                "house_rules": {"kitty": True},
            },
            {"players", "first_dealer", "target", "house_rules"},
            id="every-problem-at-once",
        ),
    ],
)
def test_game_config_create_refuses_naming_the_field(changes, fields):
    with pytest.raises(RuleViolation) as info:
        create(**changes)
    assert type(info.value) is RuleViolation
    assert set(info.value.problems) == fields


@pytest.mark.parametrize(
    ("changes", "fields"),
    [
        pytest.param({"ruleset": 5}, {"ruleset"}, id="ruleset-number"),
        pytest.param({"players": "Ann, Bob, Cy, Di, Ed"}, {"players"}, id="players-string"),
        pytest.param({"players": ["Ann", "Bob", "Cy", "Di", 5]}, {"players"}, id="name-number"),
        pytest.param({"first_dealer": True}, {"first_dealer"}, id="first-dealer-true"),
        pytest.param({"first_dealer": "0"}, {"first_dealer"}, id="first-dealer-string"),
        pytest.param({"first_dealer": 0.0}, {"first_dealer"}, id="first-dealer-float"),
        pytest.param({"target": True}, {"target"}, id="target-true"),
        pytest.param({"target": "21"}, {"target"}, id="target-string"),
        pytest.param({"target": 21.0}, {"target"}, id="target-float"),
        pytest.param({"house_rules": []}, {"house_rules"}, id="house-rules-list"),
        pytest.param(
            {"target": "21", "first_dealer": None}, {"target", "first_dealer"}, id="two-at-once"
        ),
    ],
)
def test_game_config_create_refuses_wrong_json_types(changes, fields):
    with pytest.raises(WrongType) as info:
        create(**changes)
    assert set(info.value.problems) == fields


def test_new_game_starts_everyone_at_zero_with_the_first_dealer():
    state = start(first_dealer=3)
    assert state.scores == (0, 0, 0, 0, 0)
    assert state.deal_count == 0
    assert state.next_dealer == 3
    assert state.last is None
    assert state.outcome.status == "in_progress"
    assert state.outcome.winners == ()
    assert state.outcome.decided_by is None


# -- dealing in turn ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first_dealer", "deals", "dealers", "next_dealer"),
    [
        pytest.param(0, "PPPPPP", [0, 1, 2, 3, 4, 0], 1, id="passes-left-and-wraps"),
        pytest.param(3, "PPP", [3, 4, 0], 1, id="from-seat-3"),
        pytest.param(4, "P", [4], 0, id="seat-4-passes-to-0"),
        pytest.param(2, "T", [2], 2, id="thrown-in-keeps-the-dealer"),
        pytest.param(2, "TTP", [2, 2, 2], 3, id="two-thrown-in-in-a-row"),
        pytest.param(1, "PTPA", [1, 2, 2, 3], 3, id="thrown-in-between-played"),
        pytest.param(0, "AAT", [0, 0, 0], 0, id="all-pass-auctions-are-thrown-in"),
    ],
)
def test_dealer_passes_left_except_after_a_thrown_in_deal(
    first_dealer, deals, dealers, next_dealer
):
    kinds = {
        "P": alone(1, took=ALL),
        "T": THROWN_IN,
        "A": {"auction": [None] * 5},
    }
    state = start(first_dealer, target=999)
    seen = []
    for number, kind in enumerate(deals, start=1):
        assert state.next_dealer == (dealers[number - 1])
        state = play(state, kinds[kind])
        assert state.last.number == number
        assert state.deal_count == number
        seen.append(state.last.dealer)
    assert seen == dealers
    assert state.next_dealer == next_dealer


def test_each_deal_adds_its_deltas_to_the_running_scores():
    state = play(start(), deal(), THROWN_IN, alone(2, took=ALL))
    assert state.scores == (2 + 0, 4 + 0, 2 + 6, 4 + 0, 2 + 0)


def test_apply_deal_returns_a_new_state_and_leaves_the_old_one_alone():
    before = start()
    after = play(before, deal())
    assert before.scores == (0, 0, 0, 0, 0)
    assert before.deal_count == 0
    assert after is not before
    with pytest.raises(dataclasses.FrozenInstanceError):
        after.scores = (0, 0, 0, 0, 0)


def test_check_deal_and_can_deal_agree_with_apply_deal():
    state = start()
    good, bad = parse_entry(state.config, deal()), parse_entry(state.config, deal(bid=2))
    assert check_deal(state, good) is None
    assert can_deal(state, good) is True
    assert can_deal(state, bad) is False
    with pytest.raises(RuleViolation):
        check_deal(state, bad)
    with pytest.raises(RuleViolation):
        apply_deal(state, bad)


# -- the end of the game -------------------------------------------------------------------


def won_game():
    """Return a game Bob wins at 6 by taking all six points alone."""
    return play(start(target=6), alone(1, took=ALL))


def shared_game():
    """Return a game to 4 that Ann, Cy, Di and Ed share: Bob bid 6 alone and took nothing."""
    state = start(target=4, unresolved_tie="shared")
    return play(state, alone(1, bid=6, took=()))


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param(deal(), id="valid-deal"),
        pytest.param(THROWN_IN, id="thrown-in"),
        pytest.param({"auction": [None] * 5}, id="all-pass-auction"),
        pytest.param(deal(bid=9, trump="X"), id="invalid-deal"),
        pytest.param({}, id="empty-entry"),
    ],
)
@pytest.mark.parametrize("finished", [won_game, shared_game], ids=["won", "shared"])
def test_apply_deal_after_the_game_ended_raises_game_over_for_the_whole_entry(finished, raw):
    state = finished()
    assert state.outcome.finished
    entry = parse_entry(state.config, raw)
    with pytest.raises(GameOver) as info:
        apply_deal(state, entry)
    assert set(info.value.problems) == {None}
    assert info.value.fields == {}
    with pytest.raises(GameOver):
        check_deal(state, entry)
    assert can_deal(state, entry) is False


def test_won_and_shared_games_report_their_winners():
    won, shared = won_game(), shared_game()
    assert (won.outcome.status, won.outcome.winners, won.outcome.decided_by) == (
        "won",
        (1,),
        "highest",
    )
    assert (shared.outcome.status, shared.outcome.winners, shared.outcome.decided_by) == (
        "shared",
        (0, 2, 3, 4),
        "shared",
    )
    assert won.next_dealer == 1


def test_unresolved_tie_under_play_on_lets_the_next_deal_decide():
    state = play(start(target=4), alone(1, bid=6, took=()))
    assert state.scores == (6, -6, 6, 6, 6)
    assert (state.outcome.status, state.outcome.decided_by) == ("in_progress", None)
    state = play(state, alone(1, bid=3, took=("high", "low", "jack")))
    assert state.scores == (9, -3, 9, 9, 9)
    assert (state.outcome.status, state.outcome.winners) == ("in_progress", ())
    state = play(state, alone(3, bid=3, took=("high", "low", "jack", "joker")))
    assert (state.outcome.status, state.outcome.winners, state.outcome.decided_by) == (
        "won",
        (3,),
        "highest",
    )


# -- corrections ----------------------------------------------------------------------------

GAME = [
    deal(),
    alone(3, took=("high", "low", "jack", "game")),
    deal(
        bidder=None, bid=None, auction=[3, None, None, None, None], called_card=None, partner=None
    ),
]
"""Three deals dealt by Ann, Bob, Cy; deal 3's bidder follows from its auction (Di)."""


def stored(raws):
    """Return the entries as storage keeps them (Entry.raw)."""
    table = config(target=999)
    return table, [dict(parse_entry(table, raw).raw) for raw in raws]


def test_correct_deal_recomputes_every_later_deal():
    table, entries = stored(GAME)
    before = replay(table, entries)
    results = correct_deal(table, entries, 1, parse_entry(table, deal(bid=5)))
    assert [r.number for r in results] == [1, 2, 3]
    assert results[0].deltas == (2, -5, 2, -5, 2)
    shift = tuple(a - b for a, b in zip(results[0].scores, before[0].scores, strict=True))
    assert shift == (0, -9, 0, -9, 0)
    for new, old in zip(results[1:], before[1:], strict=True):
        assert new.deltas == old.last.deltas
        assert new.scores == tuple(s + d for s, d in zip(old.scores, shift, strict=True))
    assert results[-1].bidder == 3


def test_correct_deal_into_a_thrown_in_deal_moves_later_dealers_and_auctions():
    table, entries = stored(GAME)
    results = correct_deal(table, entries, 1, parse_entry(table, THROWN_IN))
    assert [r.dealer for r in results] == [0, 0, 1]
    assert results[2].bidder == 2
    assert results[-1].scores == tuple(
        a + b for a, b in zip(results[1].deltas, results[2].deltas, strict=True)
    )


def test_correct_deal_names_the_later_deal_that_becomes_invalid():
    later = deal(bidder=None, bid=None, auction=[None, 4, None, None, None], partner=4)
    table, entries = stored([*GAME, later])
    assert replay(table, entries)[-1].last.bidders == (0, 4)
    with pytest.raises(CorrectionConflict) as info:
        correct_deal(table, entries, 1, parse_entry(table, THROWN_IN))
    assert info.value.number == 4
    assert "partner" in info.value.problems


def test_correct_deal_names_a_later_auction_that_now_disagrees_with_its_bidder():
    raws = [deal(), deal(auction=[None] * 4 + [4], bidder=1)]
    table, entries = stored(raws)
    with pytest.raises(CorrectionConflict) as info:
        correct_deal(table, entries, 1, parse_entry(table, THROWN_IN))
    assert info.value.number == 2


def test_correct_deal_refuses_a_game_that_would_end_before_the_last_deal():
    table = config(target=6)
    raws = [alone(1, took=("high", "low", "jack", "game")), alone(2, took=("high", "low", "jack"))]
    entries = [dict(parse_entry(table, raw).raw) for raw in raws]
    assert replay(table, entries)[-1].outcome.winners == (1,)
    with pytest.raises(CorrectionConflict) as info:
        correct_deal(table, entries, 1, parse_entry(table, alone(1, took=ALL)))
    assert info.value.number == 2


def test_correct_deal_may_end_the_game_at_the_last_deal_or_reopen_it():
    table = config(target=6)
    entries = [dict(parse_entry(table, alone(1, took=ALL)).raw)]
    assert replay(table, entries)[-1].outcome.finished
    results = correct_deal(table, entries, 1, parse_entry(table, alone(1, took=("high",))))
    assert resume(table, results[-1]).outcome.status == "in_progress"
    back = correct_deal(table, entries, 1, parse_entry(table, alone(1, took=ALL)))
    assert resume(table, back[-1]).outcome.status == "won"


def test_correct_deal_refuses_an_invalid_correction_naming_its_fields():
    table, entries = stored(GAME)
    with pytest.raises(RuleViolation) as info:
        correct_deal(table, entries, 2, parse_entry(table, deal(partner=1, trump="X")))
    assert type(info.value) is RuleViolation
    assert set(info.value.problems) == {"partner", "trump"}


@pytest.mark.parametrize("number", [0, 4, -1], ids=["deal-0", "past-the-last", "negative"])
def test_correct_deal_refuses_a_deal_that_does_not_exist(number):
    table, entries = stored(GAME)
    with pytest.raises(RuleViolation):
        correct_deal(table, entries, number, parse_entry(table, deal()))


def test_correct_deal_then_its_inverse_restores_every_deal():
    table, entries = stored(GAME)
    original = [s.last for s in replay(table, entries)]
    changed = correct_deal(table, entries, 2, parse_entry(table, THROWN_IN))
    assert changed != tuple(original)
    entries[1] = {"thrown_in": True}
    assert list(correct_deal(table, entries, 2, parse_entry(table, GAME[1]))) == original


# -- resuming from storage -------------------------------------------------------------------


def through_json(result: DealResult) -> DealResult:
    """Return the result as stored: its document through JSON and back."""
    return DealResult.from_document(json.loads(json.dumps(result.to_document())))


@pytest.mark.parametrize(
    ("raws", "house_rules", "target"),
    [
        pytest.param([deal()], {}, None, id="one-deal"),
        pytest.param([deal(), THROWN_IN], {}, None, id="thrown-in-last"),
        pytest.param(GAME, {}, None, id="auction-last"),
        pytest.param([alone(1, took=ALL)], {}, 6, id="won"),
        pytest.param([alone(1, bid=6)], {}, 4, id="tie-play-on"),
        pytest.param([alone(1, bid=6)], {"unresolved_tie": "shared"}, 4, id="tie-shared"),
        pytest.param([deal(bid=6, high=1, low=3, off_jack=3)], {}, 6, id="tie-bidder"),
        pytest.param(
            [
                deal(
                    bid=3,
                    high=0,
                    low=3,
                    jack=0,
                    off_jack=3,
                    joker=3,
                    game="opponents",
                    game_points=None,
                    called_card="QH",
                )
            ],
            {},
            3,
            id="tie-partner",
        ),
    ],
)
def test_resume_from_the_stored_last_deal_equals_the_replayed_state(raws, house_rules, target):
    table = config(target=target, **house_rules)
    replayed = replay(table, raws)[-1]
    assert resume(table, through_json(replayed.last)) == replayed


def test_resume_with_no_deal_is_a_new_game():
    table = config(first_dealer=2)
    assert resume(table, None) == new_game(table)


def test_replay_equals_applying_each_deal_in_turn():
    table = config()
    states = replay(table, GAME)
    assert len(states) == 3
    assert states[-1] == play(new_game(table), *GAME)
