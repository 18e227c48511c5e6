"""The export and import commands: a backup goes out and comes back whole, or not at all."""

import json

from scorekeeper.store import exchange
from tests.conftest import empty_tables
from tests.tables_support import (
    MADE_WITH_PARTNER,
    create_table,
    play,
    play_random_games,
    start_game,
)


def test_export_all_then_import_restores_every_table_and_game(app, client, database, tmp_path):
    table = create_table(client)
    play_random_games(client, table, 2)
    loose = client.post(
        "/api/v1/games",
        json={"ruleset": "five-handed-schmier", "players": ["A", "B", "C", "D", "E"]},
    ).get_json()
    play(client, loose, [MADE_WITH_PARTNER])
    backup = tmp_path / "backup.json"
    runner = app.test_cli_runner()
    result = runner.invoke(args=["export", "--all", "-o", str(backup)])
    assert result.exit_code == 0, result.output
    assert "3 games" in result.output
    before_table = client.get(f"/api/v1/tables/{table['id']}/games").get_json()
    before_loose = client.get(f"/api/v1/games/{loose['id']}").get_json()

    empty_tables(database)
    assert client.get(f"/api/v1/games/{loose['id']}").status_code == 404

    result = runner.invoke(args=["import", str(backup)])
    assert result.exit_code == 0, result.output
    assert client.get(f"/api/v1/tables/{table['id']}/games").get_json() == before_table
    assert client.get(f"/api/v1/games/{loose['id']}").get_json() == before_loose
    # Edit links survive a restore: the old token still changes the game.
    response = client.post(
        f"/api/v1/games/{loose['id']}/deals",
        json=MADE_WITH_PARTNER,
        headers={"Authorization": f"Bearer {loose['edit_token']}"},
    )
    assert response.status_code == 201


def test_import_as_copy_prints_new_edit_tokens(app, client, tmp_path):
    table = create_table(client, "Club")
    start_game(client, table)
    path = tmp_path / "club.json"
    runner = app.test_cli_runner()
    assert runner.invoke(args=["export", "--table", table["id"], "-o", str(path)]).exit_code == 0
    result = runner.invoke(args=["import", "--copy", str(path)])
    assert result.exit_code == 0, result.output
    assert "Table 'Club'" in result.output and "edit token:" in result.output
    assert "Imported 1 game." in result.output


def test_import_of_a_bad_file_says_what_is_wrong_and_imports_nothing(app, client, tmp_path):
    table = create_table(client)
    play_random_games(client, table, 2)
    runner = app.test_cli_runner()
    document = json.loads(runner.invoke(args=["export", "--table", table["id"]]).output)
    document["games"][1]["deals"][0]["entry"]["trump"] = "X"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document))
    result = runner.invoke(args=["import", "--copy", str(path)])
    assert result.exit_code != 0
    assert "Nothing was imported. Game 2, deal 1:" in result.output
    assert "X" in result.output
    tables = client.get(f"/api/v1/tables/{table['id']}").get_json()
    assert tables["games"] == 2


def test_export_csv_of_a_game(app, client):
    table = create_table(client)
    game = start_game(client, table)
    play(client, game, [MADE_WITH_PARTNER])
    result = app.test_cli_runner().invoke(args=["export", "--game", game["id"], "--csv"])
    assert result.exit_code == 0
    lines = result.output.strip().splitlines()
    # The header, deal 0 (the start) and deal 1, a row per player each.
    assert lines[0].startswith("table,game_id,started") and len(lines) == 11


def test_export_needs_exactly_one_thing_to_export(app):
    result = app.test_cli_runner().invoke(args=["export"])
    assert result.exit_code == 2
    assert "exactly one of" in result.output


def test_export_of_an_unknown_table_fails_clearly(app):
    result = app.test_cli_runner().invoke(args=["export", "--table", "nope"])
    assert result.exit_code == 1
    assert "There is no table nope." in result.output


def test_restoring_over_existing_games_is_refused_and_copy_is_suggested(app, client, tmp_path):
    table = create_table(client)
    play_random_games(client, table, 1)
    path = tmp_path / "backup.json"
    runner = app.test_cli_runner()
    assert runner.invoke(args=["export", "--all", "-o", str(path)]).exit_code == 0
    result = runner.invoke(args=["import", str(path)])
    assert result.exit_code == 1
    assert "Nothing was imported." in result.output and "as a copy" in result.output
    assert client.get(f"/api/v1/tables/{table['id']}").get_json()["games"] == 1


def test_import_shows_its_progress_on_standard_error(app, client, tmp_path):
    table = create_table(client, "Club")
    play_random_games(client, table, 3, most=5)
    path = tmp_path / "club.json"
    runner = app.test_cli_runner()
    assert runner.invoke(args=["export", "--table", table["id"], "-o", str(path)]).exit_code == 0
    result = runner.invoke(args=["import", "--copy", str(path)])
    assert result.exit_code == 0, result.output
    assert "Checking games" in result.stderr and "Checking games" not in result.stdout
    assert "Imported 3 games." in result.stdout

    told = []
    with app.app_context():
        document = exchange.load(path.read_bytes())
        exchange.import_documents(
            [document], progress=lambda done, total: told.append((done, total))
        )
    assert told == [(1, 3), (2, 3), (3, 3)]
