"""A game started on its own, put at a table named there and then: one form, one POST."""

import pytest

from tests.conftest import FIVE
from tests.tables_support import create_table, csrf_token
from tests.test_round_three import counts, post_form


@pytest.fixture
def game(client):
    """A five-handed game started from home; the client holds its edit token."""
    body = {"ruleset": "five-handed-schmier", "players": FIVE, "first_dealer": 0}
    created = client.post("/api/v1/games", json=body).get_json()
    client.get(f"/games/{created['id']}/edit/{created['edit_token']}")
    return created


def put(client, game, **fields):
    """Post the form of "Put this game at a table" with its CSRF token and these fields."""
    token = csrf_token(client.get(f"/games/{game['id']}/table").text)
    return post_form(client, f"/games/{game['id']}/table", {"csrf_token": token, **fields})


def test_a_game_is_put_at_a_table_named_there_which_this_browser_may_then_edit(app, client, game):
    page = client.get(f"/games/{game['id']}/table").text
    assert 'name="new_table"' in page
    answer = put(client, game, new_table="  Friday club ")
    assert answer.status_code == 303
    assert answer.headers["Location"].endswith(f"/games/{game['id']}")
    shown = client.get(f"/games/{game['id']}").text
    assert "This game is now at the table Friday club." in shown
    table_id = shown.split('href="/tables/', 1)[1].split('"', 1)[0]
    games = client.get(f"/api/v1/tables/{table_id}/games").get_json()
    assert [g["id"] for g in games["games"]] == [game["id"]]
    # The new table's edit right is this browser's: it may start the next game there.
    assert client.get(f"/tables/{table_id}/games/new").status_code == 200


@pytest.mark.parametrize(
    ("fields", "status", "said"),
    [
        ({"new_table": "x" * 81}, 422, "Field cannot be longer than 80 characters."),
        ({"new_table": "Club", "edit_link": "/tables/a/edit/b"}, 422, "not both"),
        ({"new_table": "Club", "table": "mine"}, 422, "not both"),
        ({"new_table": "   "}, 422, "Choose one of your tables, or paste a table"),
    ],
    ids=["too-long", "and-a-link", "and-a-table", "blank"],
)
def test_a_refused_new_table_says_why_and_stores_nothing(app, client, game, fields, status, said):
    mine = create_table(client, "Thursday club")
    client.get(f"/tables/{mine['id']}/edit/{mine['edit_token']}")
    if fields.get("table") == "mine":
        fields = {**fields, "table": mine["id"]}
    before = counts(app)
    answer = put(client, game, **fields)
    assert answer.status_code == status
    assert said in answer.get_data(as_text=True).replace("&#39;", "'")
    assert counts(app) == before


def test_a_game_at_a_table_already_gets_no_second_one(app, client, game):
    assert put(client, game, new_table="Friday club").status_code == 303
    before = counts(app)
    answer = put(client, game, new_table="Saturday club")
    assert answer.status_code == 409
    assert "This game is at a table already." in answer.get_data(as_text=True)
    assert counts(app) == before


def test_without_the_games_edit_right_or_a_csrf_token_no_table_is_made(app, client, game):
    before = counts(app)
    stranger = app.test_client()
    token = csrf_token(stranger.get("/tables/new").text)
    answer = post_form(
        stranger, f"/games/{game['id']}/table", {"csrf_token": token, "new_table": "Club"}
    )
    assert answer.status_code == 403
    answer = post_form(client, f"/games/{game['id']}/table", {"new_table": "Club"})
    assert answer.status_code == 400
    assert counts(app) == before
