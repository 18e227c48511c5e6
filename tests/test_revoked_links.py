"""A new edit link revokes the old one everywhere it reached through Rematch, on both
databases: on the games after it in the Rematch chain (pages and API), and, for a table,
on starting its games through the Rematch of a game put there under the old link."""

from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.store.models import Game
from tests.conftest import BOTH, DEAL_FORM, EXAMPLE_DEAL
from tests.tables_support import bearer, create_table
from tests.test_next_game import rematch
from tests.test_pages import DEAL_2, csrf, post_deal, start_game

BACKENDS = BOTH


def game_id(url: str) -> str:
    return url.rsplit("/", 1)[1]


def held_token(client, url: str) -> str:
    """Return the edit token this browser holds for the game."""
    with client.session_transaction() as session:
        return session["edit"][game_id(url)]


def new_edit_link(client, url: str):
    return client.post(f"{url}/edit-link", data={"csrf_token": csrf(client.get(url))})


def version(app, url: str) -> int:
    with app.app_context():
        return db.session.get(Game, game_id(url)).version


def next_of(response) -> str:
    assert response.status_code == 303, response.text
    return response.headers["Location"]


def test_a_new_edit_link_revokes_the_old_one_on_every_next_game_it_reached(client, app):
    first = start_game(client)
    old_token = held_token(client, first)
    other = app.test_client()  # a phone that was given the edit link, later locked out
    assert other.get(f"{first}/edit/{old_token}").status_code == 303
    second = next_of(rematch(client, first))
    third = next_of(rematch(client, second))
    assert held_token(client, third) == old_token  # inherited through two Rematches
    for url in (first, second):  # the phone follows along the chain, to edit each game
        assert other.get(f"{url}/next").status_code == 303
    assert 'id="deal-form"' in other.get(second).text
    versions = [version(app, url) for url in (second, third)]

    assert next_of(new_edit_link(client, first)) == f"{first}#share"
    new_token = held_token(client, first)
    assert new_token != old_token
    # The next games' versions moved on: every phone following them hears of it.
    assert all(version(app, url) > v for url, v in zip((second, third), versions, strict=True))

    for url in (first, second, third):
        # The page: the locked-out phone sees the game, cannot change it, and its old
        # link grants nothing, on the finished game and on every game after it.
        assert 'id="deal-form"' not in other.get(url).text
        denied = post_deal(other, url, DEAL_2, 1, token=csrf(other.get("/games/new")))
        assert denied.status_code == 403
        assert other.get(f"{url}/edit/{old_token}").status_code == 403
        # The API: the old token is refused, the new one accepted.
        refused = client.post(f"/api/v1{url}/deals", json=EXAMPLE_DEAL, headers=bearer(old_token))
        assert refused.status_code == 403
        assert refused.get_json()["error"]["code"] == "forbidden"
        assert client.post(f"/api/v1{url}/rematch", headers=bearer(old_token)).status_code == 403
        # The browser that made the new link keeps editing them all.
        assert 'id="deal-form"' in client.get(url).text
        assert held_token(client, url) == new_token
    added = client.post(f"/api/v1{third}/deals", json=EXAMPLE_DEAL, headers=bearer(new_token))
    assert added.status_code == 201
    assert post_deal(client, second, DEAL_FORM, 1).status_code == 303
    # A phone given the new link edits the whole chain by it.
    fresh = app.test_client()
    assert fresh.get(f"{second}/edit/{new_token}").status_code == 303
    assert 'id="deal-form"' in fresh.get(second).text


def test_a_new_edit_link_on_a_next_game_leaves_the_game_before_it_alone(client, app):
    first = start_game(client)
    old_token = held_token(client, first)
    second = next_of(rematch(client, first))
    assert new_edit_link(client, second).status_code == 303
    assert held_token(client, second) != old_token
    # The game before keeps its own link: only the game renewed and those after it change.
    ok = client.post(f"/api/v1{first}/deals", json=EXAMPLE_DEAL, headers=bearer(old_token))
    assert ok.status_code == 201
    assert (
        client.post(
            f"/api/v1{second}/deals", json=EXAMPLE_DEAL, headers=bearer(old_token)
        ).status_code
        == 403
    )


def table_game(client, table) -> str:
    """Start a game at the table through its page (this browser holds the table's link)."""
    page = client.get(f"/tables/{table['id']}/games/new")
    data = {
        "csrf_token": csrf(page),
        "ruleset": "shmear",
        "first_dealer": "0",
        **{f"players-{i}": n for i, n in enumerate(["Ann", "Bob", "Cy", "Di"])},
    }
    created = client.post(f"/tables/{table['id']}/games/new", data=data)
    return next_of(created)


def table_games(app, table) -> int:
    with app.app_context():
        return db.session.scalar(
            select(func.count()).select_from(Game).where(Game.table_id == table["id"])
        )


def test_a_new_table_edit_link_stops_rematches_by_those_it_locked_out(client, app):
    owner = client
    table = create_table(owner, players=["Ann", "Bob"])
    owner.get(f"/tables/{table['id']}/edit/{table['edit_token']}")
    other = app.test_client()  # given the table's edit link, later locked out
    other.get(f"/tables/{table['id']}/edit/{table['edit_token']}")
    theirs = table_game(other, table)
    mine = table_game(owner, table)
    their_token = held_token(other, theirs)
    # Before the new link, their Rematch starts a game at the table, as anyone's does.
    before = next_of(rematch(other, theirs))
    assert client.get(f"/api/v1{before}").get_json()["table"] == table["id"]

    page = owner.get(f"/tables/{table['id']}")
    renewed = owner.post(f"/tables/{table['id']}/edit-link", data={"csrf_token": csrf(page)})
    assert renewed.status_code == 303
    count = table_games(app, table)

    # The page: refused, saying why; nothing added to the table.
    refused = rematch(other, before)
    assert refused.status_code == 403
    assert "This table has a new edit link" in refused.text
    # The API: the same refusal in the API's shape.
    answer = other.post(f"/api/v1{before}/rematch", headers=bearer(their_token))
    assert answer.status_code == 403
    assert answer.get_json()["error"]["code"] == "forbidden"
    assert "new edit link" in answer.get_json()["error"]["message"]
    assert table_games(app, table) == count
    # Their game itself is still theirs to finish: only starting games at the table stops.
    assert post_deal(other, before, {"bidder": 0}, 1).status_code == 422

    # The owner, holding the table's new link, starts the next game of either at the table.
    assert 'id="deal-form"' in owner.get(f"/games/{game_id(mine)}").text
    owner.get(f"{before}/edit/{their_token}")
    started = next_of(rematch(owner, before))
    assert client.get(f"/api/v1{started}").get_json()["table"] == table["id"]
    mine_next = next_of(rematch(owner, mine))
    assert table_games(app, table) == count + 2
    # Games put at the table under the new link rematch there by their own edit rights.
    api_token = held_token(owner, mine_next)
    made = client.post(f"/api/v1{mine_next}/rematch", headers=bearer(api_token))
    assert made.status_code == 201 and made.get_json()["table"] == table["id"]
