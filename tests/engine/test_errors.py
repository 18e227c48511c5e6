"""The engine's one error type and the situations the API tells apart."""

import pytest

from scorekeeper.engine import CorrectionConflict, GameOver, RuleViolation, WrongType


def test_rule_violation_keeps_every_problem_and_drops_empty_ones():
    violation = RuleViolation({"bid": ["Bids are 3 to 6."], None: ["The deal is wrong."], "x": []})
    assert {f: tuple(map(str, m)) for f, m in violation.problems.items()} == {
        "bid": ("Bids are 3 to 6.",),
        None: ("The deal is wrong.",),
    }
    assert violation.fields == {"bid": ["Bids are 3 to 6."]}
    assert violation.message == "Bids are 3 to 6."
    assert str(violation) == "Bids are 3 to 6."


@pytest.mark.parametrize(
    "kind",
    [
        pytest.param(WrongType, id="wrong-type"),
        pytest.param(GameOver, id="game-over"),
    ],
)
def test_every_engine_error_is_a_rule_violation_and_a_value_error(kind):
    error = kind({None: ["No."]})
    assert isinstance(error, RuleViolation)
    assert isinstance(error, ValueError)


def test_correction_conflict_names_the_deal_that_cannot_survive():
    conflict = CorrectionConflict(4, {None: ["Deal 4 could not have been played."]})
    assert conflict.number == 4
    assert isinstance(conflict, RuleViolation)
