"""Replay every worked game of every ruleset through the API, on both databases."""

import json
from pathlib import Path

import pytest

BACKENDS = ("sqlite", "postgresql")

DATA = Path(__file__).parent / "data"
GAMES = [
    *json.loads((DATA / "five-handed-games.json").read_text()),
    *json.loads((DATA / "other-rulesets-games.json").read_text()),
    *json.loads((DATA / "shmear-house-rules-games.json").read_text()),
    *json.loads((DATA / "euchre-family-games.json").read_text()),
]


@pytest.mark.parametrize(
    "example", GAMES, ids=[f"{game['ruleset']}: {game['about']}" for game in GAMES]
)
def test_worked_game_replays_deal_by_deal(client, example):
    setup = {k: example[k] for k in ("ruleset", "players", "first_dealer", "target", "house_rules")}
    created = client.post("/api/v1/games", json=setup)
    assert created.status_code == 201, created.get_json()
    game = created.get_json()
    url = created.headers["Location"]
    headers = {"Authorization": f"Bearer {game['edit_token']}"}
    expected = example["expected"]

    for number, (entry, after) in enumerate(
        zip(example["deals"], expected["after_each_deal"], strict=True), start=1
    ):
        response = client.post(f"{url}/deals", json={"number": number, **entry}, headers=headers)
        assert response.status_code == 201, (number, response.get_json())
        deal = response.get_json()
        assert deal["number"] == number
        assert (deal["dealer"], deal["deltas"], deal["scores"]) == (
            after["dealer"],
            after["deltas"],
            after["scores"],
        ), f"deal {number}"
        for computed in ("made", "bidders", "points"):
            if computed in after:
                assert deal[computed] == after[computed], f"deal {number}: {computed}"
        assert client.get(f"{url}/deals/{number}").get_json() == deal

    final = client.get(url).get_json()
    assert [player["score"] for player in final["players"]] == expected["scores"]
    assert final["status"] == expected["status"]
    assert final["winners"] == expected["winners"]
    assert final["decided_by"] == expected["decided_by"]
    assert final["next_dealer"] == expected["next_dealer"]
    assert [d["scores"] for d in final["deals"]] == [
        a["scores"] for a in expected["after_each_deal"]
    ]
    if "teams" in expected:
        assert final["teams"] == expected["teams"]
    if "smucks" in expected:
        assert [player["smucks"] for player in final["players"]] == expected["smucks"]
    else:
        assert all("smucks" not in player for player in final["players"])
