"""Deal documents as API.md writes them, and outcomes."""

import json
from pathlib import Path

import pytest

from scorekeeper.engine import DealResult, DecidedBy, Outcome, Status, configure, replay

from .builders import deal, result, start

DOCUMENT = {
    "number": 1,
    "dealer": 0,
    "thrown_in": False,
    "bidder": 1,
    "bid": 4,
    "trump": "H",
    "called_card": "KH",
    "partner": 3,
    "auction": None,
    "high": 3,
    "low": 0,
    "jack": 1,
    "off_jack": 2,
    "joker": 1,
    "game_points": {"bidders": 27, "opponents": 18},
    "game": "bidders",
    "bidders": [1, 3],
    "points": {"bidders": 4, "opponents": 2},
    "made": True,
    "deltas": [2, 4, 2, 4, 2],
    "scores": [2, 4, 2, 4, 2],
}
"""API.md's example deal document, as deal 1 dealt by Ann."""


def test_deal_document_has_api_md_fields_in_order_and_values():
    doc = result(start(), deal()).to_document()
    assert list(doc) == list(DOCUMENT)
    assert doc == DOCUMENT
    assert json.loads(json.dumps(doc)) == doc


def test_thrown_in_deal_document_is_null_but_for_number_dealer_auction_deltas_scores():
    doc = result(start(first_dealer=4), {"thrown_in": True, "auction": [None] * 5}).to_document()
    assert doc == {
        **dict.fromkeys(DOCUMENT),
        "number": 1,
        "dealer": 4,
        "thrown_in": True,
        "auction": [None] * 5,
        "deltas": [0] * 5,
        "scores": [0] * 5,
    }


def test_deal_result_rebuilds_from_its_stored_document():
    done = result(start(), deal(auction=[4, None, None, None, None]))
    stored = json.loads(json.dumps(done.to_document()))
    assert DealResult.from_document(stored) == done


def test_outcome_is_finished_unless_in_progress():
    assert not Outcome("in_progress", (), None, "Nobody has reached 21 yet.").finished
    assert Outcome("won", (1,), "highest", "Bob wins.").finished
    assert Outcome("shared", (1, 2), "shared", "Bob and Cy share.").finished


def _worked_games():
    data = Path(__file__).parents[1] / "data"
    for name in ("five-handed-games.json", "other-rulesets-games.json"):
        yield from json.loads((data / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    "example", list(_worked_games()), ids=lambda g: f"{g['ruleset']}: {g['about']}"
)
def test_every_value_the_engine_hands_out_is_hashable_and_read_only(example):
    table = configure(
        example["ruleset"],
        example["players"],
        example["first_dealer"],
        example.get("target"),
        example.get("house_rules") or None,
    )
    states = replay(table, example["deals"])
    for state in states:
        assert hash(state) == hash(state)
        assert hash(state.last) == hash(DealResult.from_document(state.last.to_document()))
        assert hash(state.outcome) is not None
        assert isinstance(state.outcome.status, Status)
        assert state.outcome.decided_by is None or isinstance(state.outcome.decided_by, DecidedBy)
        with pytest.raises(TypeError):
            state.last.detail["bidder"] = 0  # type: ignore[index]
        with pytest.raises(AttributeError):
            state.last.scores = ()  # type: ignore[misc]
    assert hash(table) == hash(table)
    with pytest.raises(TypeError):
        table.house_rules["x"] = 1  # type: ignore[index]
