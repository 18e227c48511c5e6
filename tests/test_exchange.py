"""Export and import: lossless JSON through the engine, all or nothing; CSV for sheets."""

import copy
import csv
import io
import json

import pytest
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.store import exchange, tables
from scorekeeper.store.models import CardTable, DealSeat, Game
from tests.conftest import BOTH, empty_tables
from tests.tables_support import (
    MADE_WITH_PARTNER,
    SET_ALONE,
    THROWN_IN,
    bearer,
    create_table,
    play,
    play_random_games,
    start_game,
)

BACKENDS = BOTH


def corrected_table(client):
    """Return a table with random games, one of them corrected and undone once."""
    table = create_table(client, players=["Ann"])
    play_random_games(client, table, 2)
    game = start_game(client, table)
    play(client, game, [MADE_WITH_PARTNER, THROWN_IN, SET_ALONE])
    fixed = dict(MADE_WITH_PARTNER, jack=0)  # the jack went to an opponent after all
    response = client.put(
        f"/api/v1/games/{game['id']}/deals/1", json=fixed, headers=bearer(game["edit_token"])
    )
    assert response.status_code == 200, response.get_json()
    response = client.delete(
        f"/api/v1/games/{game['id']}/deals/3", headers=bearer(game["edit_token"])
    )
    assert response.status_code == 204
    return table


def without_ids(document):
    """Return an export document with what an import as a copy changes taken out."""
    document = copy.deepcopy(document)
    document.pop("exported_at")
    if document["table"]:
        document["table"].pop("id")
    for game in document["games"]:
        game.pop("id")
    return document


def export(app, table_id):
    with app.app_context():
        return exchange.export_table(tables.get_table(table_id))


def test_export_then_import_as_copy_gives_back_the_same_games(app, client):
    table = corrected_table(client)
    before = export(app, table["id"])
    assert any(c["action"] == "correct" for g in before["games"] for c in g["changes"])
    with app.app_context():
        result = exchange.import_document(json.loads(exchange.dumps(before)))
        new_id = result.table.id
        assert result.table_token and len(result.game_tokens) == 3
    after = export(app, new_id)
    assert without_ids(after) == without_ids(before)
    # The copy's games read the same through the API too, deal documents included.
    for old, new in zip(before["games"], after["games"], strict=True):
        a = client.get(f"/api/v1/games/{old['id']}").get_json()
        b = client.get(f"/api/v1/games/{new['id']}").get_json()
        for document in (a, b):
            document.pop("id"), document.pop("table")  # a copy has its own ids
        assert a == b


def test_restore_keeps_ids_and_edit_links(app, client, database):
    table = corrected_table(client)
    with app.app_context():
        backup = exchange.export_table(tables.get_table(table["id"]), include_secrets=True)
        db.session.remove()
    # Everything is lost, as with a dead disk; then the backup is restored.
    empty_tables(database)
    with app.app_context():
        result = exchange.import_document(backup, keep_ids=True)
        assert result.table.id == table["id"]
        assert result.table_token is None and result.game_tokens == {}
        restored = exchange.export_table(tables.get_table(table["id"]), include_secrets=True)
    restored.pop("exported_at"), backup.pop("exported_at")
    assert restored == backup
    game = start_game(client, table)  # the table's old edit token still works
    assert game["table"] == table["id"]


def test_import_refuses_a_broken_deal_naming_it_and_stores_nothing(app, client):
    table = corrected_table(client)
    document = export(app, table["id"])
    document["games"][1]["deals"][2]["entry"]["partner"] = document["games"][1]["deals"][2][
        "entry"
    ].get("bidder", 0)
    with app.app_context():
        games_before = db.session.scalar(select(func.count()).select_from(Game))
        tables_before = db.session.scalar(select(func.count()).select_from(CardTable))
        with pytest.raises(exchange.ImportRefused, match=r"^Game 2, deal 3: "):
            exchange.import_document(document)
        assert db.session.scalar(select(func.count()).select_from(Game)) == games_before
        assert db.session.scalar(select(func.count()).select_from(CardTable)) == tables_before


def test_import_refuses_a_file_whose_outcome_the_deals_do_not_give(app, client):
    table = corrected_table(client)
    document = export(app, table["id"])
    document["games"][0]["scores"][0] += 1
    with (
        app.app_context(),
        pytest.raises(exchange.ImportRefused, match="Game 1: the file says scores"),
    ):
        exchange.import_document(document)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="other"), "not a Scorekeeper export"),
        (lambda d: d.update(version=2), "version 2"),
        (lambda d: d.update(games={}), "games must be a list"),
        (lambda d: d["games"][0].update(players=["A", "B"]), "Game 1: "),
        (lambda d: d["games"][0]["deals"].append({"entry": {"bid": "x"}}), "Game 1, deal"),
        (lambda d: d["games"][0]["changes"].append({"action": "redo", "number": 1}), "change"),
        (lambda d: d["games"][0].update(created_at="yesterday"), "created_at must be a time"),
    ],
    ids=["format", "version", "games", "players", "deal-type", "change", "time"],
)
def test_import_refuses_malformed_files_clearly(app, client, change, message):
    table = create_table(client)
    play_random_games(client, table, 1)
    document = export(app, table["id"])
    change(document)
    with app.app_context(), pytest.raises(exchange.ImportRefused, match=message):
        exchange.import_document(document)


def test_imported_games_feed_the_statistics(app, client):
    table = corrected_table(client)
    document = export(app, table["id"])
    with app.app_context():
        result = exchange.import_document(document)
        count = db.session.scalar(
            select(func.count())
            .select_from(DealSeat)
            .join(Game, Game.id == DealSeat.game_id)
            .where(Game.table_id == result.table.id)
        )
    deals = sum(len(g["deals"]) for g in document["games"])
    assert count == 5 * deals
    old = client.get(f"/api/v1/tables/{table['id']}/stats").get_json()
    new = client.get(f"/api/v1/tables/{result.table.id}/stats").get_json()
    strip = lambda s: [{k: v for k, v in p.items() if k != "id"} for p in s["players"]]  # noqa: E731
    assert strip(old) == strip(new)


def test_csv_has_one_row_per_deal_per_player(app, client):
    table = create_table(client, "=cmd|' /C calc'!A0")
    game = start_game(client, table, ["@Ann", "Bob", "Cy", "Di", "Ed"])
    play(client, game, [MADE_WITH_PARTNER, THROWN_IN, SET_ALONE])
    response = client.get(f"/tables/{table['id']}/export.csv")
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.text)))
    # Deal 0 is the start: every seat, the first dealer, scores 0.
    assert len(rows) == 20
    start = [r for r in rows if r["deal"] == "0"]
    assert [(r["dealer"], r["score"], r["role"]) for r in start] == [("'@Ann", "0", "")] * 5
    first = [r for r in rows if r["deal"] == "1"]
    assert [r["role"] for r in first] == ["opponent", "bidder", "opponent", "partner", "opponent"]
    assert [int(r["delta"]) for r in first] == [2, 4, 2, 4, 2]
    assert rows[0]["player"] == "'@Ann" and rows[0]["table"].startswith("'=")
    assert {r["thrown_in"] for r in rows if r["deal"] == "2"} == {"yes"}


def test_game_export_downloads_import_as_a_game_without_a_table(app, client):
    table = create_table(client)
    game = start_game(client, table)
    play(client, game, [MADE_WITH_PARTNER])
    response = client.get(f"/games/{game['id']}/export.json")
    assert response.status_code == 200
    document = response.get_json()
    assert document["table"] is None and len(document["games"]) == 1
    with app.app_context():
        result = exchange.import_document(document)
        assert result.table is None and len(result.games) == 1
        copy_id = result.games[0].id
    assert client.get(f"/api/v1/games/{copy_id}").get_json()["players"][1]["score"] == 4


def test_a_game_export_asked_again_unchanged_is_answered_304_until_a_deal_changes_it(
    client, monkeypatch
):
    """The phone's record of a game asks for its export whenever the game may have changed:
    with the ETag it holds, an unchanged game comes back 304 with no body, the export not
    even made."""
    table = create_table(client)
    game = start_game(client, table)
    url = f"/games/{game['id']}/export.json"
    first = client.get(url)
    etag = first.headers["ETag"]
    assert etag.startswith('W/"') and first.headers["Cache-Control"] == "no-cache"
    with monkeypatch.context() as patched:
        patched.setattr(exchange, "export_game", lambda game: pytest.fail("export made"))
        again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    assert again.headers["ETag"] == etag
    play(client, game, [MADE_WITH_PARTNER])
    changed = client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    assert len(changed.get_json()["games"][0]["deals"]) == 1
