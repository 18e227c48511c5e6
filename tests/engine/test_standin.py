"""The stand-in deal a position entered by hand is judged with (engine.standin)."""

import pytest

from scorekeeper import engine
from scorekeeper.engine import DecidedBy, RuleViolation, Status, stand_in_deal

FIVE = ["Ann", "Bob", "Cy", "Di", "Ed"]
SIX = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]


def config(ruleset, players, **house_rules):
    return engine.configure(ruleset, players, 0, None, house_rules)


def test_stand_in_carries_bidder_and_partner_as_the_bidding_side():
    five = config("five-handed-schmier", FIVE)
    deal = stand_in_deal(five, (21, 21, 3, 4, 5), bidder=2, partner=1)
    assert deal.played and deal.made
    assert deal.bidders == (2, 1)
    assert deal.bidder == 2 and deal.partner == 1
    assert deal.deltas == (0, 0, 0, 0, 0)


def test_stand_in_bidding_side_is_the_bidders_whole_team():
    six = config("six-handed-schmier", SIX, teams="2x3")
    deal = stand_in_deal(six, (22, 10, 22, 10, 22, 10), bidder=2)
    assert deal.bidders == (2, 0, 4)


def test_stand_in_changes_are_the_scores_less_the_starting_scores():
    euchre = config("five-handed-euchre", FIVE)
    deal = stand_in_deal(euchre, (10, 11, 2, 3, 4), starting_scores=(8, 9, 2, 3, 4))
    assert deal.deltas == (2, 2, 0, 0, 0)
    assert deal.starting_scores == (8, 9, 2, 3, 4)


def test_stand_in_moon_is_a_made_moon_that_the_win_check_reads():
    shmear = config("shmear", FIVE[:4])
    deal = stand_in_deal(shmear, (3, 9, 5, 2), bidder=0, moon=True)
    outcome = shmear.ruleset.outcome(shmear, (3, 9, 5, 2), deal)
    assert (outcome.status, outcome.winners, outcome.decided_by) == (
        Status.WON,
        (0,),
        DecidedBy.MOON,
    )


def test_stand_in_reports_every_problem_at_once():
    five = config("five-handed-schmier", FIVE)
    with pytest.raises(RuleViolation) as caught:
        stand_in_deal(five, (21, 21, 3), bidder=7, partner=7, moon=True, starting_scores=(0,) * 5)
    problems = {
        field: [str(m) for m in messages] for field, messages in caught.value.problems.items()
    }
    assert problems == {
        "scores": ["Give a whole-number score for each of the 5 seats."],
        "starting_scores": [
            "In Five-Handed Schmier the win check does not use the scores at the start."
        ],
        "bidder": ["Seat 7 is not at this table: seats run from 0 to 4."],
        "partner": [
            "Seat 7 is not at this table: seats run from 0 to 4.",
            "The bidder cannot be their own partner.",
        ],
        "moon": ["Five-Handed Schmier has no moon."],
    }


@pytest.mark.parametrize(
    ("ruleset", "players", "kwargs", "field", "text"),
    [
        (
            "five-handed-schmier",
            FIVE,
            {},
            "bidder",
            "Say who bid this deal: the win check needs it.",
        ),
        (
            "five-handed-euchre",
            FIVE,
            {"bidder": 1},
            "bidder",
            "In Five-Handed Euchre the win check does not ask who bid.",
        ),
        (
            "six-handed-schmier",
            SIX,
            {"bidder": 0, "partner": 3},
            "partner",
            "In Six-Handed Schmier the win check does not ask who partnered the bidder.",
        ),
    ],
    ids=["bidder-needed", "euchre-no-bidder", "six-no-partner"],
)
def test_stand_in_asks_exactly_the_facts_the_win_check_reads(ruleset, players, kwargs, field, text):
    table = config(ruleset, players)
    with pytest.raises(RuleViolation) as caught:
        stand_in_deal(table, (0,) * len(players), **kwargs)
    assert [str(m) for m in caught.value.problems[field]] == [text]


def test_stand_in_refuses_team_mates_with_different_scores():
    six = config("six-handed-schmier", SIX)
    with pytest.raises(RuleViolation) as caught:
        stand_in_deal(six, (22, 10, 5, 21, 10, 5), bidder=0)
    assert [str(m) for m in caught.value.problems["scores"]] == [
        "Team mates share one score; give each team a single one."
    ]


@pytest.mark.parametrize("ruleset", [r.id for r in engine.rulesets()])
def test_every_ruleset_names_the_facts_its_win_check_reads(ruleset):
    facts = engine.get_ruleset(ruleset).win_facts
    assert facts and all(isinstance(fact, engine.WinFact) for fact in facts)


def test_euchre_needs_the_start_only_of_those_who_reached_the_target_together():
    euchre = config("five-handed-euchre", FIVE)
    rules = euchre.ruleset
    assert rules.starting_scores_needed(euchre, (10, 11, 2, 3, 4)) == (0, 1)
    assert rules.starting_scores_needed(euchre, (10, 9, 2, 3, 4)) == ()
    with pytest.raises(RuleViolation) as caught:
        stand_in_deal(euchre, (10, 11, 2, 3, 4), starting_scores=(8, None, None, None, None))
    assert [str(m) for m in caught.value.problems["starting_scores"]] == [
        "Give the score at the start of the deal of Bob: the win check uses it."
    ]
    deal = stand_in_deal(euchre, (10, 11, 2, 3, 4), starting_scores=(8, 9, None, None, None))
    assert deal.deltas[:2] == (2, 2)
    assert deal.deltas in rules.deal_changes(euchre)


@pytest.mark.parametrize(
    ("scores", "start", "reason"),
    [
        pytest.param(
            (11, 10, 0, 0, 0),
            (9, 7, None, None, None),
            "No deal of Five-Handed Euchre takes Bob from 7 to 10: in one deal",
            id="plus-3",
        ),
        pytest.param(
            (10, 10, 0, 0, 0),
            (9, 8, None, None, None),
            "No one deal of Five-Handed Euchre takes Ann from 9 to 10 and Bob from 8 to 10: ",
            id="plus-1-and-plus-2",
        ),
        pytest.param(
            (10, 10, 10, 0, 0),
            (9, 9, 9, None, None),
            "No one deal of Five-Handed Euchre takes Ann from 9 to 10, Bob from 9 to 10 and Cy "
            "from 9 to 10: ",
            id="three-makers",
        ),
    ],
)
def test_euchre_refuses_changes_no_deal_makes(scores, start, reason):
    euchre = config("five-handed-euchre", FIVE)
    with pytest.raises(RuleViolation) as caught:
        stand_in_deal(euchre, scores, starting_scores=start)
    (message,) = caught.value.problems["starting_scores"]
    assert str(message).startswith(reason)


def test_every_euchre_change_is_a_deal_the_game_scores():
    euchre = config("five-handed-euchre", FIVE)
    changes = euchre.ruleset.deal_changes(euchre)
    assert (4, 0, 0, 0, 0) in changes and (0, 2, 2, 2, 2) in changes and (1, 1, 0, 0, 0) in changes
    assert (4, 4, 0, 0, 0) not in changes and (2, 2, 2, 2, 2) not in changes
    assert all(any(c) and min(c) >= 0 for c in changes)
