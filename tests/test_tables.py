"""Tables through the API: create, read, start games, list the archive, merge names."""

import pytest

from scorekeeper.extensions import db
from scorekeeper.store import games, tables
from scorekeeper.store.models import TablePlayer
from tests.conftest import BOTH
from tests.tables_support import (
    MADE_WITH_PARTNER,
    SET_ALONE,
    bearer,
    create_table,
    play,
    play_random_games,
    start_game,
)

BACKENDS = BOTH


def test_create_table_answers_its_document_and_an_edit_token(client):
    response = client.post("/api/v1/tables", json={"name": "  Family  ", "players": ["Ann", "bob"]})
    assert response.status_code == 201
    table = response.get_json()
    assert response.headers["Location"] == f"/api/v1/tables/{table['id']}"
    assert table["name"] == "Family"
    assert [p["name"] for p in table["players"]] == ["Ann", "bob"]
    assert len(table["edit_token"]) >= 40
    read = client.get(f"/api/v1/tables/{table['id']}").get_json()
    assert "edit_token" not in read
    assert read["games"] == 0


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        ({"name": ""}, 422, "name"),
        ({"name": "x" * 81}, 422, "name"),
        ({"name": 3}, 400, "name"),
        ({"name": "Club", "players": "Ann"}, 400, "players"),
        ({"name": "Club", "colour": "red"}, 422, "colour"),
    ],
    ids=["empty-name", "long-name", "name-not-string", "players-not-list", "unknown-key"],
)
def test_create_table_refuses_bad_input_naming_the_field(client, body, status, field):
    response = client.post("/api/v1/tables", json=body)
    assert response.status_code == status
    assert field in response.get_json()["error"]["fields"]


def test_unknown_table_is_404_in_the_api_error_shape(client):
    response = client.get("/api/v1/tables/nope")
    assert response.status_code == 404
    assert response.get_json()["error"]["code"] == "not_found"


def test_starting_a_game_needs_the_tables_edit_token(client):
    table = create_table(client)
    url = f"/api/v1/tables/{table['id']}/games"
    body = {"ruleset": "five-handed-schmier", "players": ["A", "B", "C", "D", "E"]}
    assert client.post(url, json=body).status_code == 401
    assert client.post(url, json=body, headers=bearer("wrong")).status_code == 403
    other = create_table(client, "Other")
    assert client.post(url, json=body, headers=bearer(other["edit_token"])).status_code == 403


def test_a_game_started_at_a_table_links_its_players_by_name_ignoring_case(client):
    table = create_table(client, players=["Ann", "Bob"])
    game = start_game(client, table, ["ann", "BOB", "Cy", "Di", "Ed"])
    assert game["table"] == table["id"]
    assert game["edit_token"]
    # The game is an ordinary game for the games API, its own token drives it.
    play(client, game, [MADE_WITH_PARTNER])
    document = client.get(f"/api/v1/tables/{table['id']}").get_json()
    names = {p["name"]: p["games"] for p in document["players"]}
    assert names == {"Ann": 1, "Bob": 1, "Cy": 1, "Di": 1, "Ed": 1}
    assert document["games"] == 1


def test_starting_a_game_with_a_broken_setup_is_refused_and_stores_nothing(client):
    table = create_table(client)
    response = client.post(
        f"/api/v1/tables/{table['id']}/games",
        json={"ruleset": "five-handed-schmier", "players": ["A", "B", "C", "D"]},
        headers=bearer(table["edit_token"]),
    )
    assert response.status_code == 422
    assert "players" in response.get_json()["error"]["fields"]
    assert client.get(f"/api/v1/tables/{table['id']}").get_json()["games"] == 0


def test_archive_lists_newest_first_with_winner_and_final_scores(client):
    table = create_table(client)
    games = play_random_games(client, table, 3)
    listing = client.get(f"/api/v1/tables/{table['id']}/games").get_json()
    assert listing["total"] == 3 and listing["pages"] == 1
    assert [g["id"] for g in listing["games"]] == [g["id"] for g in reversed(games)]
    row = listing["games"][0]
    full = client.get(f"/api/v1/games/{row['id']}").get_json()
    assert [p["score"] for p in row["players"]] == [p["score"] for p in full["players"]]
    assert row["winners"] == full["winners"]
    assert row["status"] == full["status"]
    assert row["winner_names"] == [full["players"][s]["name"] for s in full["winners"]]


def test_archive_pages_and_filters_by_player_and_outcome(client):
    table = create_table(client)
    play_random_games(client, table, 3)
    start_game(client, table, ["Zed", "Bob", "Cy", "Di", "Ed"])  # in progress, with Zed
    url = f"/api/v1/tables/{table['id']}/games"
    page1 = client.get(url, query_string={"per_page": 2}).get_json()
    page2 = client.get(url, query_string={"per_page": 2, "page": 2}).get_json()
    assert page1["pages"] == 2 and len(page1["games"]) == 2 and len(page2["games"]) == 2
    assert not {g["id"] for g in page1["games"]} & {g["id"] for g in page2["games"]}
    players = client.get(f"/api/v1/tables/{table['id']}").get_json()["players"]
    zed = next(p["id"] for p in players if p["name"] == "Zed")
    only_zed = client.get(url, query_string={"player": zed}).get_json()
    assert only_zed["total"] == 1
    running = client.get(url, query_string={"outcome": "in_progress"}).get_json()
    assert running["total"] == 1
    finished = client.get(url, query_string={"outcome": "won"}).get_json()
    assert (
        finished["total"] + client.get(url, query_string={"outcome": "shared"}).get_json()["total"]
        == 3
    )
    assert client.get(url, query_string={"outcome": "lost"}).status_code == 400
    assert client.get(url, query_string={"page": "x"}).status_code == 400


def test_merging_two_spellings_moves_games_and_records(client):
    table = create_table(client)
    one = start_game(client, table, ["Rob", "Bob", "Cy", "Di", "Ed"])
    play(client, one, [MADE_WITH_PARTNER])
    two = start_game(client, table, ["Robert", "Bob", "Cy", "Di", "Ed"])
    play(client, two, [SET_ALONE])
    ids = {
        p["name"]: p["id"]
        for p in client.get(f"/api/v1/tables/{table['id']}").get_json()["players"]
    }
    url = f"/api/v1/tables/{table['id']}/merge"
    body = {"from": ids["Rob"], "into": ids["Robert"]}
    assert client.post(url, json=body).status_code == 401
    response = client.post(url, json=body, headers=bearer(table["edit_token"]))
    assert response.status_code == 200, response.get_json()
    players = {p["name"]: p for p in response.get_json()["players"]}
    assert "Rob" not in players and players["Robert"]["games"] == 2
    stats = client.get(f"/api/v1/tables/{table['id']}/stats").get_json()
    robert = next(p for p in stats["players"] if p["name"] == "Robert")
    assert robert["deals"] == 2  # the deal played as "Rob" counts for Robert now


def test_merging_two_people_who_sat_at_one_game_is_refused(client):
    table = create_table(client)
    start_game(client, table, ["Ann", "Bob", "Cy", "Di", "Ed"])
    ids = {
        p["name"]: p["id"]
        for p in client.get(f"/api/v1/tables/{table['id']}").get_json()["players"]
    }
    response = client.post(
        f"/api/v1/tables/{table['id']}/merge",
        json={"from": ids["Ann"], "into": ids["Bob"]},
        headers=bearer(table["edit_token"]),
    )
    assert response.status_code == 409
    assert "same game" in response.get_json()["error"]["message"]


def test_times_are_given_in_utc_on_every_database(client):
    table = create_table(client)
    start_game(client, table)
    assert client.get(f"/api/v1/tables/{table['id']}").get_json()["created_at"].endswith("+00:00")
    games = client.get(f"/api/v1/tables/{table['id']}/games").get_json()["games"]
    assert games[0]["created_at"].endswith("+00:00")


def test_two_games_adding_the_same_new_name_at_once_share_one_regular(app, client):
    table = create_table(client)
    with app.app_context():
        row = tables.get_table(table["id"])
        game, _ = games.create_game(
            ruleset="five-handed-schmier", players=["New", "B", "C", "D", "E"], first_dealer=0
        )
        # Another request adds "new" between this one's read and its write.
        with db.engine.begin() as connection:
            connection.execute(
                TablePlayer.__table__.insert().values(table_id=table["id"], name="new", key="new")
            )
        tables.attach_game(row, game)
    players = client.get(f"/api/v1/tables/{table['id']}").get_json()["players"]
    assert [p["name"] for p in players if p["name"].casefold() == "new"] == ["new"]
    assert next(p for p in players if p["name"] == "new")["games"] == 1


def test_the_game_document_names_its_table(client, api):
    table = create_table(client)
    game = start_game(client, table)
    assert client.get(f"/api/v1/games/{game['id']}").get_json()["table"] == table["id"]
    assert api.create()["table"] is None
