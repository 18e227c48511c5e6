"""Table pages in the browser's terms: forms with CSRF, edit links, the archive, the sheet."""

import io
import json
import re

from tests.tables_support import (
    MADE_WITH_PARTNER,
    SET_ALONE,
    THROWN_IN,
    create_table,
    csrf_token,
    play,
    play_random_games,
    start_game,
)

NEW_GAME = {
    "ruleset": "five-handed-schmier",
    "first_dealer": "0",
    "target": "21",
    "hr_partner_breaks_ties": "true",
    "hr_unresolved_tie": "play_on",
    "hr_joker_callable": "false",
}


def make_table(client, name="Thursday club", regulars="Ann\nBob"):
    page = client.get("/tables/new")
    response = client.post(
        "/tables/new",
        data={"csrf_token": csrf_token(page.text), "name": name, "regulars": regulars},
    )
    assert response.status_code == 303
    return response.headers["Location"].rsplit("/", 1)[1]


def test_new_table_form_creates_the_table_and_lets_this_browser_start_games(client):
    table_id = make_table(client)
    page = client.get(f"/tables/{table_id}")
    assert page.status_code == 200
    assert "Thursday club" in page.text
    assert f'href="/tables/{table_id}/games/new"' in page.text
    assert "Edit link" in page.text and re.search(r"<svg[^>]*class=\"qr\"", page.text)


def test_new_table_form_without_a_name_comes_back_with_the_message_beside_it(client):
    page = client.get("/tables/new")
    response = client.post("/tables/new", data={"csrf_token": csrf_token(page.text), "name": "  "})
    assert response.status_code == 422
    assert 'class="field-errors"' in response.text


def test_forms_refuse_a_post_without_csrf_token(client):
    response = client.post("/tables/new", data={"name": "Club"})
    assert response.status_code == 400


def test_another_browser_sees_the_table_but_cannot_start_games_until_it_opens_the_edit_link(
    app, client
):
    table = create_table(client, players=["Ann"])
    other = app.test_client()
    page = other.get(f"/tables/{table['id']}")
    assert page.status_code == 200 and "Start a game here" not in page.text
    assert "Edit link" not in page.text
    assert other.get(f"/tables/{table['id']}/games/new").status_code == 403
    assert other.get(f"/tables/{table['id']}/edit/wrong").status_code == 403
    response = other.get(f"/tables/{table['id']}/edit/{table['edit_token']}")
    assert response.status_code == 303
    assert response.headers["Cache-Control"] == "no-store"
    assert other.get(f"/tables/{table['id']}/games/new").status_code == 200


def test_the_copy_of_a_tables_page_a_phone_keeps_holds_no_edit_link(client):
    table = create_table(client, players=["Ann"])
    assert client.get(f"/tables/{table['id']}/edit/{table['edit_token']}").status_code == 303
    own = client.get(f"/tables/{table['id']}")
    assert table["edit_token"] in own.text and own.headers["Cache-Control"] == "no-store"
    copy = client.get(f"/tables/{table['id']}", headers={"X-Offline-Copy": "1"})
    assert copy.status_code == 200 and "Start a game here" in copy.text
    assert table["edit_token"] not in copy.text
    assert "no-store" not in copy.headers["Cache-Control"]
    assert "X-Offline-Copy" in copy.headers["Vary"]


def test_new_game_at_a_table_offers_the_regulars_and_starts_the_game(client):
    table_id = make_table(client, regulars="Ann\nBob\nCy\nDi\nEd\nFlo")
    page = client.get(f"/tables/{table_id}/games/new")
    assert page.status_code == 200
    assert '<datalist id="regulars">' in page.text and '<option value="Flo">' in page.text
    assert page.text.count('list="regulars"') == 5
    names = {f"players-{i}": n for i, n in enumerate(["flo", "Bob", "Cy", "Di", "Ed"])}
    response = client.post(
        f"/tables/{table_id}/games/new",
        data={"csrf_token": csrf_token(page.text), **NEW_GAME, **names},
    )
    assert response.status_code == 303
    game_id = response.headers["Location"].rsplit("/", 1)[1]
    # The new game's page lets this browser enter deals straight away.
    assert 'name="bidder"' in client.get(f"/games/{game_id}").text
    table = client.get(f"/api/v1/tables/{table_id}").get_json()
    assert {p["name"]: p["games"] for p in table["players"]}["Flo"] == 1


def test_new_game_with_a_repeated_name_is_refused_with_422(client):
    table_id = make_table(client)
    page = client.get(f"/tables/{table_id}/games/new")
    names = {f"players-{i}": n for i, n in enumerate(["Ann", "ann", "Cy", "Di", "Ed"])}
    response = client.post(
        f"/tables/{table_id}/games/new",
        data={"csrf_token": csrf_token(page.text), **NEW_GAME, **names},
    )
    assert response.status_code == 422
    assert "are the same name" in response.text


def test_archive_rows_show_date_players_winner_and_scores_and_filter_without_js(client):
    table = create_table(client)
    games = play_random_games(client, table, 2)
    page = client.get(f"/tables/{table['id']}")
    last = client.get(f"/api/v1/games/{games[-1]['id']}").get_json()
    winner = last["players"][last["winners"][0]]["name"] if last["winners"] else None
    assert f'href="/games/{last["id"]}/sheet"' in page.text
    if winner:
        assert f"{winner} won" in page.text
    assert '<form method="get"' in page.text and 'name="outcome"' in page.text
    filtered = client.get(f"/tables/{table['id']}", query_string={"outcome": "in_progress"})
    assert "No games match." in filtered.text


def test_archive_pages_link_to_older_games(client):
    table = create_table(client)
    play_random_games(client, table, 21, most=1)
    page = client.get(f"/tables/{table['id']}")
    assert "Page 1 of 2" in page.text and 'rel="next"' in page.text
    older = client.get(f"/tables/{table['id']}", query_string={"page": 2})
    assert "Page 2 of 2" in older.text and 'rel="prev"' in older.text


def test_score_sheet_has_the_deal_table_the_chart_and_print_styles(client):
    table = create_table(client, name="<Club>")
    game = start_game(client, table, ["<b>Ann</b>", "Bob", "Cy", "Di", "Ed"])
    play(client, game, [MADE_WITH_PARTNER, THROWN_IN, SET_ALONE])
    page = client.get(f"/games/{game['id']}/sheet")
    assert page.status_code == 200
    assert "<b>Ann</b>" not in page.text and "&lt;b&gt;Ann&lt;/b&gt;" in page.text
    assert page.text.count('class="series series-') == 5
    assert "21 to win" in page.text
    assert re.search(r"/static/tables\.[0-9a-f]{12}\.css", page.text)
    rows = re.findall(r'<tr>\s*<th scope="row">(\d+)</th>', page.text)
    assert rows == ["1", "2", "3"]
    assert "Deal 2: everyone passed, thrown in." in page.text
    with client.get("/static/tables.css") as css:
        assert "@media print" in css.text


def test_player_page_shows_the_record(client):
    table = create_table(client)
    game = start_game(client, table)
    play(client, game, [MADE_WITH_PARTNER, SET_ALONE])
    players = client.get(f"/api/v1/tables/{table['id']}").get_json()["players"]
    bob = next(p for p in players if p["name"] == "Bob")
    page = client.get(f"/tables/{table['id']}/players/{bob['id']}")
    assert page.status_code == 200
    assert "Bob" in page.text and "Called as partner" in page.text
    assert client.get(f"/tables/{table['id']}/players/999999").status_code == 404


def test_merge_form_folds_one_name_into_another(client):
    table_id = make_table(client, regulars="Rob\nRobert")
    page = client.get(f"/tables/{table_id}")
    players = {
        p["name"]: p["id"] for p in client.get(f"/api/v1/tables/{table_id}").get_json()["players"]
    }
    response = client.post(
        f"/tables/{table_id}/merge",
        data={
            "csrf_token": csrf_token(page.text),
            "source": players["Rob"],
            "target": players["Robert"],
        },
    )
    assert response.status_code == 303
    after = client.get(f"/api/v1/tables/{table_id}").get_json()
    assert [p["name"] for p in after["players"]] == ["Robert"]
    assert "Rob is now counted as Robert." in client.get(f"/tables/{table_id}").text


def test_unknown_table_page_is_404(client):
    assert client.get("/tables/nope").status_code == 404
    assert client.get("/games/nope/sheet").status_code == 404


def test_tables_page_lists_the_tables_this_device_opened(app, client):
    make_table(client, name="Family")
    other = create_table(client, "Club")
    page = client.get("/tables")
    assert "Family" in page.text and "Club" not in page.text
    client.get(f"/tables/{other['id']}")
    page = client.get("/tables")
    assert "Club" in page.text and "View only" in page.text
    assert 'href="/tables"' in client.get("/").text  # reachable from every page


def test_import_page_brings_an_exported_table_back_as_a_new_table(client):
    table = create_table(client, "Club")
    play_random_games(client, table, 2)
    exported = client.get(f"/tables/{table['id']}/export.json").data
    page = client.get("/tables/import")
    response = client.post(
        "/tables/import",
        data={"csrf_token": csrf_token(page.text), "file": (io.BytesIO(exported), "club.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 200
    assert "Imported 2 games into Club" in response.text
    new_id = re.search(r'href="/tables/([A-Za-z0-9_-]+)"', response.text).group(1)
    assert new_id != table["id"]
    copy = client.get(f"/api/v1/tables/{new_id}").get_json()
    assert copy["name"] == "Club" and copy["games"] == 2


def test_import_page_refuses_a_bad_file_with_the_reason_and_imports_nothing(client):
    table_id = make_table(client)
    other = create_table(client, "Club")
    game = start_game(client, other)
    play(client, game, [MADE_WITH_PARTNER])
    document = client.get(f"/tables/{other['id']}/export.json").get_json()
    document["games"][0]["deals"][0]["entry"]["partner"] = 1
    page = client.get(f"/tables/{table_id}/import")
    response = client.post(
        f"/tables/{table_id}/import",
        data={
            "csrf_token": csrf_token(page.text),
            "file": (io.BytesIO(json.dumps(document).encode()), "bad.json"),
        },
        content_type="multipart/form-data",
    )
    assert response.status_code == 422
    assert "Nothing was imported. Game 1, deal 1:" in response.text
    assert client.get(f"/api/v1/tables/{table_id}").get_json()["games"] == 0


def test_import_page_needs_its_csrf_token_and_the_tables_edit_rights(app, client):
    table_id = make_table(client)
    response = client.post(
        "/tables/import",
        data={"file": (io.BytesIO(b"{}"), "x.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 422
    assert app.test_client().get(f"/tables/{table_id}/import").status_code == 403


def test_import_page_takes_files_larger_than_the_api_body_limit(client):
    table = create_table(client, "Big")
    play_random_games(client, table, 6)
    document = client.get(f"/tables/{table['id']}/export.json").get_json()
    exported = json.dumps(document, indent=4).encode()  # as a person might save it
    assert len(exported) > 64 * 1024
    page = client.get("/tables/import")
    response = client.post(
        "/tables/import",
        data={"csrf_token": csrf_token(page.text), "file": (io.BytesIO(exported), "big.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 200


def test_a_new_edit_link_locks_out_the_old_one(app, client):
    table = create_table(client)
    old_phone = app.test_client()
    assert old_phone.get(f"/tables/{table['id']}/edit/{table['edit_token']}").status_code == 303
    client.get(f"/tables/{table['id']}/edit/{table['edit_token']}")
    page = client.get(f"/tables/{table['id']}")
    response = client.post(
        f"/tables/{table['id']}/edit-link", data={"csrf_token": csrf_token(page.text)}
    )
    assert response.status_code == 303
    assert client.get(f"/tables/{table['id']}/games/new").status_code == 200
    assert old_phone.get(f"/tables/{table['id']}/games/new").status_code == 403
    assert old_phone.get(f"/tables/{table['id']}/edit/{table['edit_token']}").status_code == 403
    response = client.post(
        f"/api/v1/tables/{table['id']}/games",
        json={"ruleset": "five-handed-schmier", "players": ["A", "B", "C", "D", "E"]},
        headers={"Authorization": f"Bearer {table['edit_token']}"},
    )
    assert response.status_code == 403
