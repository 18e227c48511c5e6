"""The Jick and scores below 0 through the API and the store, on both databases.

Creating Shmear games with the house rules, posting and correcting deals with the Jick,
the refusals API.md implies, and the worked games of
tests/data/shmear-house-rules-games.json at a table: statistics, export and import.
"""

import csv
import io
import json
from pathlib import Path

import pytest

from scorekeeper.store import exchange
from tests.conftest import BOTH
from tests.tables_support import create_table, play_example

BACKENDS = BOTH

GAMES = json.loads(
    (Path(__file__).parent / "data" / "shmear-house-rules-games.json").read_text(encoding="utf-8")
)
FAMILY = ("shmear", "shmear-high-low", "shmear-partners", "shmear-kitty")
FOUR = ["Ann", "Bob", "Cy", "Di"]
DEAL = {"bidder": 1, "bid": 2, "trump": "S", "high": 1, "low": 1, "game": 1}


def start(api, ruleset="shmear", **house_rules):
    return api.create(ruleset=ruleset, players=FOUR, first_dealer=0, house_rules=house_rules)


@pytest.mark.parametrize("ruleset", FAMILY)
def test_the_rulesets_listing_offers_both_house_rules_off(client, ruleset):
    listed = {r["id"]: r for r in client.get("/api/v1/rulesets").get_json()}[ruleset]
    off = {"values": [True, False], "default": False}
    assert listed["house_rules"]["jick"] == off
    assert listed["house_rules"]["negative_scores"] == off


@pytest.mark.parametrize("ruleset", FAMILY)
def test_a_game_is_created_with_the_house_rules_and_lists_them(api, ruleset):
    game = start(api, ruleset, jick=True, negative_scores=True)
    assert (game["house_rules"]["jick"], game["house_rules"]["negative_scores"]) == (True, True)
    plain = start(api, ruleset)
    assert (plain["house_rules"]["jick"], plain["house_rules"]["negative_scores"]) == (
        False,
        False,
    )


def test_a_house_rule_value_that_is_not_offered_is_refused_naming_house_rules(client):
    body = {"ruleset": "shmear", "players": FOUR, "house_rules": {"jick": "yes"}}
    response = client.post("/api/v1/games", json=body)
    assert response.status_code == 422
    assert set(response.get_json()["error"]["fields"]) == {"house_rules"}


def test_the_jick_is_stored_in_the_deal_document_after_the_jack(api):
    game = start(api, jick=True)
    deal = api.add(game, {**DEAL, "bid": 5, "jack": 1, "jick": 1})
    keys = list(deal)
    assert keys[keys.index("jack") + 1] == "jick"
    assert (deal["jick"], deal["points"], deal["deltas"], deal["made"]) == (
        1,
        [0, 5, 0, 0],
        [0, 5, 0, 0],
        True,
    )
    missing = api.add(game, {**DEAL, "bidder": 2, "high": 2, "low": 2, "game": 2})
    assert missing["jick"] is None
    assert api.game(game)["deals"][0] == deal


def test_without_the_house_rule_the_document_has_no_jick(api):
    deal = api.add(start(api), DEAL)
    assert "jick" not in deal


@pytest.mark.parametrize(
    ("house_rules", "entry", "status", "fields"),
    [
        pytest.param({}, {**DEAL, "jick": 2}, 422, {"jick"}, id="a-jick-without-the-rule"),
        pytest.param({}, {**DEAL, "bid": 5}, 422, {"bid"}, id="a-bid-of-5-without-the-rule"),
        pytest.param(
            {},
            {**{k: v for k, v in DEAL.items() if k not in ("bidder", "bid")}, "auction": [5]},
            422,
            {"auction"},
            id="an-auction-of-5-without-the-rule",
        ),
        pytest.param({"jick": True}, {**DEAL, "jick": "2"}, 400, {"jick"}, id="jick-a-string"),
        pytest.param({"jick": True}, {**DEAL, "jick": 4}, 422, {"jick"}, id="jick-no-such-seat"),
        pytest.param({"jick": True}, {**DEAL, "bid": 6}, 422, {"bid"}, id="a-bid-of-6"),
        pytest.param(
            {"jick": True},
            {
                **{k: v for k, v in DEAL.items() if k != "game"},
                "jack": 2,
                "jick": 2,
                "game_points": [0, 10, 1, 0],
            },
            422,
            {"game_points"},
            id="counts-below-the-jack-and-jick",
        ),
        pytest.param(
            {"negative_scores": True},
            {**DEAL, "bid": "moon"},
            422,
            {"bid"},
            id="a-moon-from-0",
        ),
    ],
)
def test_refusals_name_the_field_and_store_nothing(api, house_rules, entry, status, fields):
    game = start(api, **house_rules)
    response = api.post(game, entry)
    assert response.status_code == status, response.get_json()
    error = response.get_json()["error"]
    assert set(error["fields"]) == fields
    assert all(m.endswith(".") for messages in error["fields"].values() for m in messages)
    assert api.game(game)["deals"] == []


def test_scores_go_below_0_and_the_forfeit_takes_its_full_2(api):
    game = start(api, negative_scores=True)
    set_bid = api.add(game, {**DEAL, "bid": 3, "high": 0, "low": 0, "game": 0})
    assert (set_bid["deltas"], set_bid["scores"]) == ([3, -3, 0, 0], [3, -3, 0, 0])
    forfeit = api.add(game, {"forfeit": True})  # Bob deals the second deal
    assert (forfeit["deltas"], forfeit["scores"]) == ([0, -2, 0, 0], [3, -5, 0, 0])
    document = api.game(game)
    assert [p["score"] for p in document["players"]] == [3, -5, 0, 0]
    assert [p["smucks"] for p in document["players"]] == [0, 1, 0, 0]


def test_a_correction_adds_the_jick_and_every_later_score_follows(api):
    game = start(api, jick=True, negative_scores=True)
    api.add(game, {**DEAL, "bid": 3, "jack": 1})  # Bob takes High, Low, Jack, Game: 4
    api.add(game, {**DEAL, "bidder": 2, "high": 2, "low": 2, "game": 2})
    response = api.put(game, 1, {**DEAL, "bid": 3, "jack": 1, "jick": 3})
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["deltas"] == [0, 4, 0, 1]
    assert [d["scores"] for d in api.game(game)["deals"]] == [[0, 4, 0, 1], [0, 4, 3, 1]]
    refused = api.put(game, 2, {**DEAL, "jick": 7})
    assert refused.status_code == 422


@pytest.mark.parametrize("example", GAMES, ids=[g["about"][:40] for g in GAMES])
def test_worked_game_at_a_table_feeds_the_statistics(client, example):
    table = create_table(client, name="Jick night")
    game = play_example(client, table, example)
    assert [p["score"] for p in game["players"]] == example["expected"]["scores"]
    stats = client.get(f"/api/v1/tables/{table['id']}/stats").get_json()
    records = {p["name"]: p for p in stats["players"]}
    for seat, name in enumerate(example["players"]):
        assert records[name]["points"] == example["expected"]["scores"][seat]
        assert records[name]["won"] == (seat in example["expected"]["winners"])


def test_statistics_of_the_first_worked_game_with_literal_values(client):
    table = create_table(client, name="Jick night")
    play_example(client, table, GAMES[0])
    stats = client.get(f"/api/v1/tables/{table['id']}/stats").get_json()
    got = {}
    for player in stats["players"]:
        [part] = player["rulesets"]
        counts = {s["tag"]: s["count"] for s in part["statistics"]}
        got[player["name"]] = (
            player["won"],
            player["deals"],
            player["points"],
            counts["bid"],
            counts["made"],
            counts["set"],
            counts["smuck"],
        )
    assert got == {
        "Ann": (0, 7, 5, 1, 1, 0, 0),
        "Bob": (0, 7, -1, 2, 0, 2, 2),
        "Cy": (0, 7, 5, 4, 3, 1, 1),
        "Di": (1, 7, 11, 0, 0, 0, 0),
    }


def documents(client, game_ids):
    found = []
    for game_id in game_ids:
        document = client.get(f"/api/v1/games/{game_id}").get_json()
        document.pop("id"), document.pop("table")
        found.append(document)
    return found


@pytest.mark.parametrize("form", ["json", "csv"])
def test_export_then_import_gives_back_the_jick_and_the_scores_below_0(app, client, form):
    table = create_table(client, name="Jick night")
    ids = [play_example(client, table, example)["id"] for example in GAMES]
    response = client.get(f"/tables/{table['id']}/export.{form}")
    assert response.status_code == 200
    text = response.get_data()
    if form == "csv":
        rows = list(csv.DictReader(io.StringIO(text.decode())))
        first = [r for r in rows if r["deal"] == "1"][:4]
        assert {r["jick"] for r in first} == {"Di"}
    with app.app_context():
        result = exchange.import_document(exchange.load(text))
        copies = [game.id for game in result.games]
    assert documents(client, copies) == documents(client, ids)
    assert min(min(d["scores"]) for d in documents(client, copies)[0]["deals"]) < 0
