"""What the app writes it reads back: every limit the import enforces is enforced on the way in.

A game, a table and an import file are each taken to every documented limit
(scorekeeper/store/limits.py) through the store, the API or the pages; one more is
refused with a message naming the limit and changes nothing; what is stored at the limit
is exported and imported again, unchanged.
"""

import json

import pytest
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.store import exchange, games, import_checks, limits, tables
from scorekeeper.store.models import Change, Game
from tests.conftest import BOTH
from tests.tables_support import THROWN_IN, bearer, create_table, csrf_token, start_game

BACKENDS = BOTH
FIVE = ["Ann", "Bob", "Cy", "Di", "Ed"]


def full_game() -> Game:
    """Store a game at both limits: as many deals as a game holds, a change log that is full.

    Thrown-in deals score nothing, so the game never ends. Adds first, then undo and add
    again until the log is full: 2,000 changes through the store, made once per run (the
    export of the first one made is imported for the other tests).
    """
    if FULL:
        result = exchange.import_document(exchange.load(FULL[0]))
        return result.games[0]
    table, _ = tables.create_table("Club", FIVE)
    game, _ = tables.start_game(table, ruleset="five-handed-schmier", players=FIVE, first_dealer=0)
    for _ in range(limits.DEALS_PER_GAME):
        games.add_deal(game, THROWN_IN)
    while limits.CHANGES_PER_GAME - _changes(game) >= 2:
        games.undo_last_deal(game, limits.DEALS_PER_GAME)
        games.add_deal(game, THROWN_IN)
    assert _changes(game) == limits.CHANGES_PER_GAME
    FULL.append(exchange.dumps(exchange.export_game(game)))
    return game


FULL: list[str] = []
"""The export of the first full game made, as JSON text."""


def _changes(game: Game) -> int:
    return db.session.scalar(select(func.count()).where(Change.game_id == game.id)) or 0


def test_a_game_at_every_limit_refuses_one_more_change_and_round_trips(app):
    with app.app_context():
        game = full_game()
        game_id, version = game.id, game.version
        with pytest.raises(games.GameFull, match="2000 changes"):
            games.undo_last_deal(game, limits.DEALS_PER_GAME)
        with pytest.raises(games.GameFull):
            games.add_deal(game, THROWN_IN)
        with pytest.raises(games.GameFull):
            games.correct_deal(game, 1, THROWN_IN)
        game = games.get_game(game_id)
        assert (game.version, game.deal_count, _changes(game)) == (version, 500, 2000)

        document = exchange.export_game(game)
        result = exchange.import_document(json.loads(exchange.dumps(document)))
        copy = result.games[0]
        again = exchange.export_game(copy)
        for kept in ("deals", "changes", "scores", "status"):
            assert [again["games"][0][kept]] == [document["games"][0][kept]]


def test_undo_past_a_full_change_log_is_refused_through_the_api_and_the_page(app, client):
    with app.app_context():
        game = full_game()
        game_id, token = game.id, games.rotate_edit_token(game)
    response = client.delete(
        f"/api/v1/games/{game_id}/deals/{limits.DEALS_PER_GAME}", headers=bearer(token)
    )
    assert response.status_code == 409
    assert response.get_json()["error"]["code"] == "game_full"

    client.get(f"/games/{game_id}/edit/{token}")  # this browser may edit the game now
    response = client.post(
        f"/games/{game_id}/deals/{limits.DEALS_PER_GAME}/undo",
        data={"csrf_token": csrf_token(client.get(f"/games/{game_id}").text)},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 409
    assert "Start a new game to go on." in response.text
    with app.app_context():
        assert games.get_game(game_id).deal_count == limits.DEALS_PER_GAME
        assert _changes(games.get_game(game_id)) == limits.CHANGES_PER_GAME


def test_a_table_at_its_limit_of_regulars_refuses_one_more_name_everywhere_and_round_trips(
    app, client
):
    names = [f"Player {n}" for n in range(limits.REGULARS_PER_TABLE)]
    table = create_table(client, "Full", names)
    response = client.post(
        f"/api/v1/tables/{table['id']}/games",
        json={"ruleset": "five-handed-schmier", "players": [*FIVE[:4], "Newcomer"]},
        headers=bearer(table["edit_token"]),
    )
    assert response.status_code == 422
    assert "at most 200 regulars" in json.dumps(response.get_json())

    # A game started on its own cannot bring new names to the full table either.
    with app.app_context():
        game, _ = games.create_game(ruleset="five-handed-schmier", players=FIVE, first_dealer=0)
        full = tables.get_table(table["id"])
        with pytest.raises(Exception, match="at most 200 regulars"):
            tables.put_game_at_table(full, game)
        assert games.get_game(game.id).table_id is None
        assert len(tables.get_table(table["id"]).players) == limits.REGULARS_PER_TABLE

    exported = client.get(f"/api/v1/tables/{table['id']}/export").data
    with app.app_context():
        result = exchange.import_document(exchange.load(exported))
        assert len(result.table.players) == limits.REGULARS_PER_TABLE


def test_an_import_file_at_every_size_limit_is_taken_and_one_past_is_refused():
    game = {"deals": [{}] * 10, "changes": [{}] * 20}
    at_limit = [{"games": [game] * limits.IMPORT_GAMES}]
    import_checks.check_sizes(at_limit)  # 200 games, 2,000 deals, 4,000 changes: taken
    assert limits.IMPORT_GAMES * 10 == limits.IMPORT_DEALS
    assert limits.IMPORT_GAMES * 20 == limits.IMPORT_CHANGES
    for past in (
        [{"games": [game] * (limits.IMPORT_GAMES + 1)}],
        [{"games": [game] * (limits.IMPORT_GAMES - 1) + [{"deals": [{}] * 11, "changes": []}]}],
        [{"games": [game] * (limits.IMPORT_GAMES - 1) + [{"deals": [], "changes": [{}] * 21}]}],
    ):
        with pytest.raises(import_checks.ImportRefused, match="Split it into several files"):
            import_checks.check_sizes(past)


def test_the_import_page_takes_a_file_of_exactly_its_byte_limit(client):
    table = create_table(client, "Club")
    start_game(client, table)
    exported = client.get(f"/tables/{table['id']}/export.json").data
    padded = exported.rstrip(b"\n") + b" " * (limits.IMPORT_BYTES - len(exported.rstrip(b"\n")))
    assert len(padded) == limits.IMPORT_BYTES
    page = client.get("/tables/import")
    # The body is built here: the test client spools a large one to a file it leaves open.
    boundary = "limit-boundary"
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n'
            f"{csrf_token(page.text)}\r\n--{boundary}\r\n"
            'Content-Disposition: form-data; name="file"; filename="club.json"\r\n'
            "Content-Type: application/json\r\n\r\n"
        ).encode()
        + padded
        + f"\r\n--{boundary}--\r\n".encode()
    )
    response = client.post(
        "/tables/import", data=body, content_type=f"multipart/form-data; boundary={boundary}"
    )
    assert response.status_code == 200, response.text[-500:]
    assert "Imported 1 game" in response.text
