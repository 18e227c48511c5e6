"""An independent check of `euchre`'s scoring: hands played card by card by another program.

tests/data/openspiel-euchre-hands.json holds games of Euchre hands played by OpenSpiel's
`euchre` game (its version and seed are in the file; tools/euchre_hands.py made it, and says
how to make it again; OpenSpiel is never needed to run this test). Each hand gives what a
scorekeeper enters (maker, trump, alone, lone defender, the makers' tricks, or "everyone
passed") and the change of score OpenSpiel's returns give each seat. Every hand is replayed
through the JSON API, on both databases, and every change of score must be OpenSpiel's; a
thrown-in hand must change no score and pass the deal to the left like any other, and each
game must end, won by the side OpenSpiel's scores put at 10, on its last hand.

Where OpenSpiel and the rule book (docs/rules.md#euchre) differ:

- OpenSpiel lets a defender go alone against a maker who kept the partner
  (`allow_lone_defender`); the rule book allows a lone defender only against a lone maker.
  Those hands are not compared: they are kept apart in the file, and the API must refuse each
  of them, naming `defender_alone`, and store nothing.
- OpenSpiel's `stick_the_dealer` is on unless turned off; the file was made with it off, so
  that thrown-in hands occur, as in our game without the house rule.

Everything else agrees: 3 or 4 tricks 1, a march 2, a lone march 4, euchred 2 to the defenders,
4 when a lone defender euchres a lone maker.
"""

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import BOTH

BACKENDS = BOTH

DATA = json.loads((Path(__file__).parent / "data" / "openspiel-euchre-hands.json").read_text())
PLAYERS = ["North", "East", "South", "West"]
TEAMS = ((0, 2), (1, 3))
TARGET = 10


def create(api, game: dict[str, Any]) -> dict[str, Any]:
    return api.create(
        ruleset="euchre",
        players=PLAYERS,
        first_dealer=game["first_dealer"],
        target=TARGET,
        house_rules=game["house_rules"],
    )


def test_the_file_holds_a_sample_worth_comparing():
    hands = [hand["entry"] for game in DATA["games"] for hand in game["hands"]]
    assert len(hands) >= 300
    assert any(entry.get("thrown_in") for entry in hands)
    assert any(entry.get("alone") and entry.get("tricks") == 5 for entry in hands)
    assert any("defender_alone" in entry and entry["tricks"] < 3 for entry in hands)
    assert DATA["not_in_the_rule_book"]


@pytest.mark.parametrize(
    "game", DATA["games"], ids=[f"{g['kind']}-{i}" for i, g in enumerate(DATA["games"])]
)
def test_every_hand_scores_as_openspiel_scored_it(api, game):
    created = create(api, game)
    scores = [0] * len(PLAYERS)
    for number, hand in enumerate(game["hands"], start=1):
        before = api.game(created)
        assert before["status"] == "in_progress", number
        assert before["next_dealer"] == hand["dealer"], number
        deal = api.add(created, {"number": number, **hand["entry"]})
        assert deal["dealer"] == hand["dealer"]
        assert deal["deltas"] == hand["deltas"], (number, hand)
        scores = [s + d for s, d in zip(scores, hand["deltas"], strict=True)]
        assert deal["scores"] == scores, number
        if hand["entry"].get("thrown_in"):
            assert deal["deltas"] == [0, 0, 0, 0]
            assert api.game(created)["next_dealer"] == (hand["dealer"] + 1) % len(PLAYERS)
    assert scores == game["final"]
    after = api.game(created)
    winner = next(team for team in TEAMS if scores[team[0]] >= TARGET)
    assert (after["status"], after["winners"]) == ("won", list(winner))
    assert [player["score"] for player in after["players"]] == scores


def test_hands_outside_the_rule_book_are_refused_and_change_nothing(api):
    created = create(api, {"first_dealer": 0, "house_rules": {"defending_alone": True}})
    before = api.game(created)
    for hand in DATA["not_in_the_rule_book"]:
        assert "defender_alone" in hand["entry"] and not hand["entry"]["alone"]
        response = api.post(created, hand["entry"])
        assert response.status_code == 422, hand
        assert set(response.get_json()["error"]["fields"]) == {"defender_alone"}
    assert api.game(created) == before
