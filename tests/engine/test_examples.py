"""The worked games in tests/data/five-handed-games.json, deal by deal."""

import json
import re
from pathlib import Path

import pytest

from scorekeeper.engine import (
    DealResult,
    GameConfig,
    apply_deal,
    configure,
    new_game,
    parse_entry,
    replay,
    resume,
)

EXAMPLES = Path(__file__).parents[1] / "data" / "five-handed-games.json"
GAMES = json.loads(EXAMPLES.read_text(encoding="utf-8"))


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def table(game: dict) -> GameConfig:
    return configure(
        game["ruleset"], game["players"], game["first_dealer"], game["target"], game["house_rules"]
    )


EACH_GAME = pytest.mark.parametrize("game", [pytest.param(g, id=slug(g["about"])) for g in GAMES])


def test_the_examples_file_holds_the_eight_worked_games():
    assert len(GAMES) == 8
    assert all(len(g["deals"]) == len(g["expected"]["after_each_deal"]) for g in GAMES)


@EACH_GAME
def test_engine_reproduces_every_deal_of_the_worked_game(game):
    config = table(game)
    state = new_game(config)
    for number, (raw, expected) in enumerate(
        zip(game["deals"], game["expected"]["after_each_deal"], strict=True), start=1
    ):
        assert not state.outcome.finished, f"the game ended before deal {number}"
        state = apply_deal(state, parse_entry(config, raw))
        done = state.last
        assert (done.number, done.dealer) == (number, expected["dealer"])
        assert list(done.deltas) == expected["deltas"], f"deal {number}"
        assert list(done.scores) == expected["scores"], f"deal {number}"


@EACH_GAME
def test_engine_reaches_the_worked_games_outcome(game):
    config = table(game)
    state = replay(config, game["deals"])[-1]
    expected = game["expected"]
    assert list(state.scores) == expected["scores"]
    assert state.outcome.status == expected["status"]
    assert list(state.outcome.winners) == expected["winners"]
    assert state.outcome.decided_by == expected["decided_by"]
    assert state.next_dealer == expected["next_dealer"]
    for seat in expected["winners"]:
        assert config.players[seat] in str(state.outcome.explanation)


@EACH_GAME
def test_resume_from_each_stored_deal_of_the_worked_game_equals_the_replay(game):
    config = table(game)
    for state in replay(config, game["deals"]):
        stored = json.loads(json.dumps(state.last.to_document()))
        assert resume(config, DealResult.from_document(stored)) == state
