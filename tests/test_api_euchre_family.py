"""The Euchre family through the API and the store, on both databases: refusals, corrections,
undo, statistics, export and import (the worked games themselves: test_api_examples.py)."""

import json
from pathlib import Path

import pytest

from scorekeeper.store import exchange
from tests.conftest import BOTH

BACKENDS = BOTH

GAMES = json.loads((Path(__file__).parent / "data" / "euchre-family-games.json").read_text())
SETUP_KEYS = ("ruleset", "players", "first_dealer", "target", "house_rules")


def start(client, example, deals=()):
    """Create the example's game and post `deals`; return (url, headers)."""
    response = client.post("/api/v1/games", json={k: example[k] for k in SETUP_KEYS})
    assert response.status_code == 201, response.get_json()
    url = response.headers["Location"]
    headers = {"Authorization": f"Bearer {response.get_json()['edit_token']}"}
    for number, entry in enumerate(deals, start=1):
        posted = client.post(f"{url}/deals", json={"number": number, **entry}, headers=headers)
        assert posted.status_code == 201, (number, posted.get_json())
    return url, headers


def game_of(ruleset):
    return next(g for g in GAMES if g["ruleset"] == ruleset)


@pytest.mark.parametrize(
    ("ruleset", "entry", "status", "fields"),
    [
        ("euchre", {"bidder": 7, "trump": "H", "tricks": 9}, 422, {"bidder", "tricks"}),
        ("euchre", {"bidder": 0, "trump": "h", "tricks": 3, "bid": 2}, 422, {"trump", "bid"}),
        ("two-handed-euchre", {"bidder": 0, "trump": "H", "tricks": 5, "alone": True}, 422,
         {"alone"}),
        ("euchre", {"bidder": 0, "trump": "H", "tricks": 1, "alone": True,
                    "defender_alone": 1}, 422, {"defender_alone"}),
        ("euchre", {"thrown_in": True, "trump": "S"}, 422, {"thrown_in", "trump"}),
        ("euchre", {"bidder": 0, "trump": "H", "tricks": "3"}, 400, {"tricks"}),
        ("euchre", {"bidder": 0, "trump": "H", "tricks": 3, "alone": "yes"}, 400, {"alone"}),
        ("euchre", {"thrown_in": 1}, 400, {"thrown_in"}),
        ("euchre", {"bidder": True, "trump": "H", "tricks": 3}, 400, {"bidder"}),
    ],
)  # fmt: skip
def test_a_refused_hand_names_every_field_and_changes_nothing(
    client, ruleset, entry, status, fields
):
    url, headers = start(client, game_of(ruleset))
    before = client.get(url).get_json()
    response = client.post(f"{url}/deals", json=entry, headers=headers)
    assert response.status_code == status, response.get_json()
    assert set(response.get_json()["error"]["fields"]) == fields
    assert client.get(url).get_json() == before


def test_stick_the_dealer_refuses_a_thrown_in_hand_through_the_api(client):
    url, headers = start(client, game_of("two-handed-euchre") | {"house_rules": {}})
    assert client.post(f"{url}/deals", json={"thrown_in": True}, headers=headers).status_code == 201
    stuck = next(g for g in GAMES if g["house_rules"].get("stick_the_dealer"))
    url, headers = start(client, stuck)
    response = client.post(f"{url}/deals", json={"thrown_in": True}, headers=headers)
    assert response.status_code == 422
    assert set(response.get_json()["error"]["fields"]) == {"thrown_in"}


def test_a_finished_game_takes_no_hand_and_undo_reopens_it(client):
    example = game_of("three-handed-euchre")
    url, headers = start(client, example, example["deals"])
    assert client.get(url).get_json()["status"] == example["expected"]["status"]
    over = client.post(f"{url}/deals", json={"thrown_in": True}, headers=headers)
    assert over.status_code == 409
    last = len(example["deals"])
    assert client.delete(f"{url}/deals/{last}", headers=headers).status_code == 204
    reopened = client.get(url).get_json()
    assert reopened["status"] == "in_progress"
    assert reopened["next_dealer"] == example["expected"]["after_each_deal"][-1]["dealer"]


def test_turning_a_thrown_in_hand_into_a_played_one_keeps_every_later_dealer(client):
    example = game_of("euchre")
    url, headers = start(client, example, example["deals"][:6])
    dealers = [d["dealer"] for d in client.get(url).get_json()["deals"]]
    thrown = next(i for i, d in enumerate(example["deals"][:6], 1) if d.get("thrown_in"))
    fixed = {"bidder": 1, "trump": "C", "tricks": 5, "alone": True}
    response = client.put(f"{url}/deals/{thrown}", json=fixed, headers=headers)
    assert response.status_code == 200, response.get_json()
    game = client.get(url).get_json()
    # A thrown-in hand moves the deal to the left like a played one: no dealer changes.
    assert [d["dealer"] for d in game["deals"]] == dealers
    assert game["deals"][thrown - 1]["deltas"] == [0, 4, 0, 4]
    back = client.put(f"{url}/deals/{thrown}", json={"thrown_in": True}, headers=headers)
    assert back.status_code == 200


def test_a_correction_that_would_end_the_game_before_its_last_hand_is_refused(client):
    setup = {"ruleset": "two-handed-euchre", "players": ["Ann", "Bob"], "first_dealer": 0,
             "target": 5, "house_rules": {}}  # fmt: skip
    march, one = {"bidder": 0, "trump": "S", "tricks": 5}, {"bidder": 0, "trump": "S", "tricks": 3}
    url, headers = start(client, setup, [march, {"bidder": 1, "trump": "H", "tricks": 3}, one,
                                         {"bidder": 1, "trump": "H", "tricks": 4}])  # fmt: skip
    before = client.get(url).get_json()
    assert before["status"] == "in_progress" and before["players"][0]["score"] == 3
    # Ann's march at hand 2 would take her to 5 at hand 3, before the last hand.
    response = client.put(f"{url}/deals/2", json=march, headers=headers)
    assert response.status_code == 409
    assert client.get(url).get_json() == before


@pytest.mark.parametrize("example", GAMES, ids=[g["about"] for g in GAMES])
def test_export_then_import_gives_back_the_same_game(app, client, example):
    url, _headers = start(client, example, example["deals"])
    game_id = url.rsplit("/", 1)[1]
    document = client.get(f"/games/{game_id}/export.json").get_json()
    with app.app_context():
        result = exchange.import_document(json.loads(exchange.dumps(document)))
        copy_id = result.games[0].id
    before = client.get(url).get_json()
    after = client.get(f"/api/v1/games/{copy_id}").get_json()
    for game in (before, after):
        game.pop("id"), game.pop("table")
    assert after == before


def test_the_csv_export_reads_back_with_alone_and_thrown_in(app, client):
    example = game_of("euchre")
    url, _headers = start(client, example, example["deals"])
    game_id = url.rsplit("/", 1)[1]
    text = client.get(f"/games/{game_id}/export.csv").text
    assert ",yes," in text  # the lone hand and the thrown-in hands, as yes
    with app.app_context():
        document = exchange.parse_csv(text)
    (game,) = document["games"]
    entries = [deal.get("entry", deal) for deal in game["deals"]]
    assert any(entry.get("alone") is True for entry in entries)
    assert sum(bool(entry.get("thrown_in")) for entry in entries) == 2


def test_statistics_count_made_euchred_marches_and_lone_hands(client):
    table = client.post("/api/v1/tables", json={"name": "Euchre night"}).get_json()
    headers = {"Authorization": f"Bearer {table['edit_token']}"}
    example = game_of("euchre")
    setup = {k: example[k] for k in SETUP_KEYS}
    created = client.post(f"/api/v1/tables/{table['id']}/games", json=setup, headers=headers)
    assert created.status_code == 201, created.get_json()
    url = created.headers["Location"]
    game_headers = {"Authorization": f"Bearer {created.get_json()['edit_token']}"}
    for number, entry in enumerate(example["deals"], start=1):
        client.post(f"{url}/deals", json={"number": number, **entry}, headers=game_headers)
    stats = client.get(f"/api/v1/tables/{table['id']}/stats").get_json()
    ann = next(p for p in stats["players"] if p["name"] == "Ann")
    part = next(r for r in ann["rulesets"] if r["id"] == "euchre")
    mine = {s["tag"]: s["count"] for s in part["statistics"]}
    made_by_ann = [d for d in example["deals"] if d.get("bidder") == 0 and not d.get("thrown_in")]
    assert mine["bid"] == len(made_by_ann)
    assert mine["made"] == sum(d["tricks"] >= 3 for d in made_by_ann)
    assert mine["euchred"] == sum(d["tricks"] < 3 for d in made_by_ann)
    assert mine["alone"] == sum(bool(d.get("alone")) for d in made_by_ann)
