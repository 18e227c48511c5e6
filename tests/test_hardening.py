"""The hardening issue's findings, one group of tests each: every one failed before.

1 imports and tables as a cheap denial of service, 2 locks turned into 500s, 3 slow
clients (tests/test_slow_clients.py), 4 games without limit, 5 imported values stored
unchecked, 6 other 500s and names, 7 spoofed device labels, 8 chunked forms, share
links, HSTS and rate limits, 9 imported games that could not be continued.
"""

from __future__ import annotations

import html
import io
import json
import re
import sqlite3
from contextlib import contextmanager

import psycopg
import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_limiter.constants import ConfigVars
from sqlalchemy import func, make_url, select
from werkzeug.test import TestResponse

from scorekeeper.extensions import db, limiter
from scorekeeper.http import ratelimits
from scorekeeper.store import exchange, limits, sqlite
from scorekeeper.store.models import CardTable, Change, Deal, Game, TablePlayer
from tests.conftest import BOTH, DEAL, DEAL_FORM, EXAMPLE_DEAL, FIVE, Api, _libpq, make_app
from tests.tables_support import bearer, create_table, csrf_token, play, start_game
from tests.test_api import assert_error

BACKENDS = BOTH


def counts(app) -> tuple[int, ...]:
    """Count stored tables, regulars, games, deals and changes."""
    with app.app_context():
        return tuple(
            db.session.scalar(select(func.count()).select_from(model))
            for model in (CardTable, TablePlayer, Game, Deal, Change)
        )


def export(client, table) -> dict:
    return client.get(f"/tables/{table['id']}/export.json").get_json()


def upload(client, document, table_id=None):
    """Post an export file to the import page, as a browser does."""
    url = f"/tables/{table_id}/import" if table_id else "/tables/import"
    page = client.get(url)
    body = document if isinstance(document, bytes) else json.dumps(document).encode()
    return client.post(
        url,
        data={"csrf_token": csrf_token(page.text), "file": (io.BytesIO(body), "t.json")},
        content_type="multipart/form-data",
    )


def played_table(client):
    """Return a table with one game of two deals, and that game."""
    table = create_table(client, "Club", ["Ann", "Bob"])
    game = start_game(client, table)
    play(client, game, [EXAMPLE_DEAL, EXAMPLE_DEAL | {"bidder": 2, "partner": 4}])
    return table, game


# --- 1. imports and tables cannot be used to stall the server ---------------------------


def test_a_table_with_more_regulars_than_the_limit_is_refused(app, client):
    names = [f"Player {n}" for n in range(limits.REGULARS_PER_TABLE + 1)]
    response = client.post("/api/v1/tables", json={"name": "Crowd", "players": names})
    assert_error(response, 422, "invalid", "players")
    assert "at most 200 regulars" in response.get_json()["error"]["fields"]["players"][0]
    assert counts(app) == (0, 0, 0, 0, 0)
    page = client.get("/tables/new")
    response = client.post(
        "/tables/new",
        data={"csrf_token": csrf_token(page.text), "name": "Crowd", "regulars": "\n".join(names)},
    )
    assert response.status_code == 422 and "at most 200 regulars" in response.text
    # In the page's language, as every refusal on a page.
    response = client.post(
        "/tables/new",
        data={"csrf_token": csrf_token(page.text), "name": "Crowd", "regulars": "\n".join(names)},
        headers={"Accept-Language": "de"},
    )
    assert response.status_code == 422 and "höchstens 200 Stammspieler" in response.text
    assert counts(app) == (0, 0, 0, 0, 0)


def test_starting_a_game_that_would_pass_the_regulars_limit_is_refused(app, client, monkeypatch):
    monkeypatch.setattr(limits, "REGULARS_PER_TABLE", 6)
    table = create_table(client, "Club", FIVE)
    response = client.post(
        f"/api/v1/tables/{table['id']}/games",
        json={"ruleset": "five-handed-schmier", "players": ["Ann", "Bob", "Cy", "Fay", "Gus"]},
        headers=bearer(table["edit_token"]),
    )
    assert_error(response, 422, "invalid", "players")
    assert counts(app) == (1, 5, 0, 0, 0)


@pytest.mark.parametrize(
    ("limit", "grow"),
    [
        ("IMPORT_GAMES", lambda doc: doc["games"] * 3),
        ("IMPORT_DEALS", lambda doc: doc["games"] * 2),
        ("IMPORT_CHANGES", lambda doc: doc["games"] * 2),
    ],
)
def test_an_import_over_a_file_limit_is_refused_naming_it(app, client, monkeypatch, limit, grow):
    table, _game = played_table(client)
    document = export(client, table)
    document["games"] = [dict(g, id=None) for g in grow(document)]
    monkeypatch.setattr(limits, limit, 2 if limit == "IMPORT_GAMES" else 3)
    before = counts(app)
    response = upload(client, document)
    assert response.status_code == 422
    what = limit.removeprefix("IMPORT_").lower()
    assert re.search(rf"Nothing was imported\. The file holds \d+ {what}", response.text)
    assert counts(app) == before


def multipart_upload(client: FlaskClient, content: bytes, **fields: str) -> TestResponse:
    """Post an export file (and any other fields) to the import page as one multipart body."""
    token = csrf_token(client.get("/tables/import").text)
    boundary = "sk-boundary"
    parts = [("csrf_token", None, token.encode())]
    parts += [(name, None, value.encode()) for name, value in fields.items()]
    parts.append(("file", "t.json", content))
    body = b""
    for name, filename, value in parts:
        disposition = f'form-data; name="{name}"' + (f'; filename="{filename}"' if filename else "")
        body += f"--{boundary}\r\nContent-Disposition: {disposition}\r\n".encode()
        if filename:
            body += b"Content-Type: application/json\r\n"
        body += b"\r\n" + value + b"\r\n"
    body += f"--{boundary}--\r\n".encode()
    return client.post(
        "/tables/import",
        input_stream=io.BytesIO(body),
        content_length=len(body),
        content_type=f"multipart/form-data; boundary={boundary}",
    )


def exactly(size: int, document: dict) -> bytes:
    """Return the export file of the document, padded with spaces to exactly `size` bytes."""
    content = json.dumps(document).encode()
    assert len(content) < size
    return content + b" " * (size - len(content))


def test_an_export_file_of_exactly_the_import_size_is_imported(
    app: Flask, client: FlaskClient
) -> None:
    table, _game = played_table(client)
    document = export(client, table)
    before = counts(app)
    response = multipart_upload(client, exactly(limits.IMPORT_BYTES, document))
    assert response.status_code == 200, response.text[:2000]
    assert "Imported" in response.text
    assert counts(app)[2] == before[2] + 1  # the game, once more


def test_an_upload_over_the_import_size_is_refused_with_413_on_the_page(app, client):
    table, _game = played_table(client)
    document = export(client, table)
    before = counts(app)
    response = multipart_upload(client, exactly(limits.IMPORT_BYTES + 1, document))
    assert response.status_code == 413
    assert "the file is larger than 2 MiB" in response.text
    assert counts(app) == before


def test_the_form_around_an_export_file_is_held_to_the_limit_of_any_form(app, client):
    table, _game = played_table(client)
    document = export(client, table)
    before = counts(app)
    # A small file: the rest of the body is more than any page's form may send.
    response = multipart_upload(client, json.dumps(document).encode(), name="x" * (3 << 20))
    assert response.status_code == 413
    assert counts(app) == before


def test_the_table_page_lists_its_regulars_a_page_at_a_time(client):
    names = [f"Player {n:03}" for n in range(120)]
    table = create_table(client, "Crowd", names)
    page = client.get(f"/tables/{table['id']}")
    assert page.text.count('class="regular-list"') == 1
    listed = re.findall(r"/players/\d+\">(Player \d+)<", page.text)
    assert listed == names[:50]
    last = client.get(f"/tables/{table['id']}?players_page=3")
    assert re.findall(r"/players/\d+\">(Player \d+)<", last.text) == names[100:]
    assert "Page 3 of 3" in last.text


# --- 2. a locked database answers 503, and the page keeps the taps ------------------------


@contextmanager
def write_locked(database: str, game_id: str):
    """Hold the write lock a deal of this game needs, from another connection."""
    url = make_url(database)
    if url.get_backend_name() == "sqlite":
        connection = sqlite3.connect(url.database, isolation_level=None)
        connection.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            connection.execute("ROLLBACK")
            connection.close()
        return
    with psycopg.connect(_libpq(database)) as connection:
        connection.execute("SELECT id FROM games WHERE id = %s FOR UPDATE", (game_id,))
        yield
        connection.rollback()


@pytest.fixture
def impatient(app, database, monkeypatch):
    """Return an app whose writes give up on a held lock after a fraction of a second.

    It shares `app`'s database, which `app` has just emptied.
    """
    monkeypatch.setattr(sqlite, "LOCK_WAIT_SECONDS", 0.2)
    options = (
        {}
        if database.startswith("sqlite")
        else {"connect_args": {"options": "-c lock_timeout=200"}}
    )
    app = make_app(database, SQLALCHEMY_ENGINE_OPTIONS=options)
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def test_a_write_that_cannot_get_the_lock_answers_503_with_retry_after(impatient, database):
    client = impatient.test_client()
    game = client.post(
        "/api/v1/games", json={"ruleset": "five-handed-schmier", "players": FIVE}
    ).get_json()
    with write_locked(database, game["id"]):
        response = client.post(
            f"/api/v1/games/{game['id']}/deals",
            json=EXAMPLE_DEAL,
            headers=bearer(game["edit_token"]),
        )
    assert_error(response, 503, "busy")
    assert response.headers["Retry-After"] == "2"
    assert counts(impatient)[3:] == (0, 0)
    response = client.post(
        f"/api/v1/games/{game['id']}/deals", json=EXAMPLE_DEAL, headers=bearer(game["edit_token"])
    )
    assert response.status_code == 201


def test_a_page_deal_refused_by_a_held_lock_keeps_what_was_tapped(impatient, database):
    client = impatient.test_client()
    game = client.post(
        "/api/v1/games", json={"ruleset": "five-handed-schmier", "players": FIVE, "first_dealer": 0}
    ).get_json()
    client.get(f"/games/{game['id']}/edit/{game['edit_token']}")
    page = client.get(f"/games/{game['id']}")
    form = DEAL_FORM | {"csrf_token": csrf_token(page.text), "number": "1", "bid": "5"}
    with write_locked(database, game["id"]):
        response = client.post(f"/games/{game['id']}/deals", data=form)
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "2"
    assert "Your entry is kept: save it again." in response.text
    assert re.search(r'name="bid"[^>]*value="5"[^>]*checked', response.text)
    assert counts(impatient)[3:] == (0, 0)


# --- 4. a game cannot grow without limit ------------------------------------------------


def test_a_deal_past_the_deals_per_game_limit_is_refused(app, api, client, monkeypatch):
    monkeypatch.setattr(limits, "DEALS_PER_GAME", 2)
    game = api.create(target=999)
    api.add(game, EXAMPLE_DEAL)
    api.add(game, EXAMPLE_DEAL)
    response = api.post(game, EXAMPLE_DEAL)
    assert_error(response, 409, "game_full")
    assert "at most 2 deals" in response.get_json()["error"]["message"]
    assert len(api.game(game)["deals"]) == 2
    client.get(f"/games/{game['id']}/edit/{game['edit_token']}")
    page = client.get(f"/games/{game['id']}")
    form = DEAL_FORM | {"csrf_token": csrf_token(page.text), "number": "3"}
    response = client.post(f"/games/{game['id']}/deals", data=form)
    assert response.status_code == 409 and "Start a new game to go on." in response.text
    assert len(api.game(game)["deals"]) == 2


def test_a_correction_past_the_changes_per_game_limit_is_refused(api, monkeypatch):
    monkeypatch.setattr(limits, "CHANGES_PER_GAME", 2)
    game = api.create(target=999)
    api.add(game, EXAMPLE_DEAL)
    assert api.put(game, 1, DEAL).status_code == 200
    assert_error(api.put(game, 1, EXAMPLE_DEAL), 409, "game_full")


# --- 5. imported values are checked like entries -----------------------------------------


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["table"].update(created_at="9999-12-31T23:59:59+00:00"), "Table: created_at"),
        (lambda d: d["games"][0].update(created_at="1970-01-01T00:00:00"), "Game 1: created_at"),
        (lambda d: d["games"][0]["changes"][0].update(before={"x": 1}), "Game 1, change 1: before"),
        (
            lambda d: d["games"][0]["changes"][1].update(
                after={**d["games"][0]["changes"][1]["after"], "scores": [1]}
            ),
            "Game 1, change 2: after needs scores",
        ),
        (lambda d: d["games"][0].update(id="bad id\u0000with NUL"), "Game 1: its id"),
        (lambda d: d["table"].update(id="../../etc/passwd/xxxx"), "Table: its id"),
        (lambda d: d["table"].update(name="Club\u202e"), "control characters"),
    ],
)
def test_an_import_with_an_unchecked_value_is_refused_naming_the_record(
    app, client, change, message
):
    table, _game = played_table(client)
    document = export(client, table)
    change(document)
    before = counts(app)
    with app.app_context(), pytest.raises(exchange.ImportRefused, match=re.escape(message)):
        exchange.import_document(document, keep_ids=True)
    response = upload(client, document)
    assert response.status_code == 422 and "Nothing was imported." in response.text
    assert counts(app) == before
    assert client.get(f"/tables/{table['id']}").status_code == 200


def test_an_import_refuses_numbers_that_are_not_finite(app, client):
    table, _game = played_table(client)
    text = json.dumps(export(client, table))
    before = counts(app)
    for bad in ('"target": NaN', '"target": 1e999', '"target": Infinity', '"target": ' + "9" * 30):
        broken = re.sub(r'"target": ?\d+', bad, text, count=1).encode()
        response = upload(client, broken)
        assert response.status_code == 422 and "Nothing was imported." in response.text
    assert counts(app) == before


def test_imported_times_with_an_offset_are_stored_in_utc(app, client):
    table, _game = played_table(client)
    document = export(client, table)
    document["games"][0]["created_at"] = "2026-01-01T20:00:00+02:00"
    response = upload(client, document)
    assert response.status_code == 200
    new_id = re.search(r'href="/tables/([A-Za-z0-9_-]+)"', response.text).group(1)
    copy = client.get(f"/tables/{new_id}/export.json").get_json()
    assert copy["games"][0]["created_at"] == "2026-01-01T18:00:00+00:00"


# --- 6. no other input reaches a 500; names are checked alike ---------------------------


def test_query_numbers_are_ascii_digits_in_range(client):
    table, _game = played_table(client)
    for query in ("page=%C2%B2", "per_page=%C2%B2", "player=%C2%B2", "player=" + "9" * 23,
                  "page=" + "9" * 30, "page=-1", "players_page=%C2%B2"):  # fmt: skip
        assert client.get(f"/tables/{table['id']}?{query}").status_code == 200, query
        response = client.get(f"/api/v1/tables/{table['id']}/games?{query}")
        assert response.status_code in (200, 400), query
    assert (
        client.get(f"/api/v1/tables/{table['id']}/games?player={'9' * 23}").get_json()["games"]
        == []
    )


def test_ids_with_nul_or_junk_name_nothing(client):
    for path in ("/tables/abc%00def", "/api/v1/tables/abc%00def", "/tables/" + "x" * 500):
        assert client.get(path).status_code == 404, path


def test_a_deal_form_number_that_is_not_ascii_digits_is_refused(app, client, api):
    game = api.create()
    client.get(f"/games/{game['id']}/edit/{game['edit_token']}")
    page = client.get(f"/games/{game['id']}")
    form = DEAL_FORM | {"csrf_token": csrf_token(page.text), "number": "\u00b2"}
    response = client.post(f"/games/{game['id']}/deals", data=form)
    assert response.status_code == 422 and "not a whole number" in response.text
    assert counts(app)[3] == 0


BAD_NAMES = [
    pytest.param("T\ud800", id="lone-surrogate"),
    pytest.param("A\x00B", id="nul"),
    pytest.param("A\x1bB", id="escape"),
    pytest.param("A\x07B", id="bell"),
    pytest.param("\u200b\u200b", id="only-invisible"),
    pytest.param("\u3164", id="hangul-filler"),
    pytest.param("Ann\u202eevil", id="rtl-override"),
    pytest.param("Ann\u2066x\u2069", id="bidi-isolate"),
]


@pytest.mark.parametrize("name", BAD_NAMES)
def test_names_are_checked_the_same_for_players_tables_and_regulars(app, client, name):
    body = json.dumps({"name": name}).encode()
    assert_error(client.post("/api/v1/tables", data=body), 422, "invalid", "name")
    body = json.dumps({"name": "Club", "players": ["Ann", name]}).encode()
    assert_error(client.post("/api/v1/tables", data=body), 422, "invalid", "players")
    body = json.dumps({"ruleset": "five-handed-schmier", "players": [name, *FIVE[1:]]}).encode()
    assert_error(client.post("/api/v1/games", data=body), 422, "invalid", "players")
    assert counts(app) == (0, 0, 0, 0, 0)


def test_names_with_joiners_and_accents_are_still_welcome(client):
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    table = create_table(client, f"Zo\u00eb's {family}", ["Jos\u00e9", "\u0645\u062d\u0645\u062f"])
    assert [p["name"] for p in table["players"]] == ["Jos\u00e9", "\u0645\u062d\u0645\u062f"]


# --- 7. an API client cannot pass for a phone ------------------------------------------


def test_a_device_header_can_never_look_like_a_phones_edit_session(app, api, client):
    game = api.create()
    spoof = "web:Zq9XabcdEFG \u00b7 Chrome on Android"
    assert (
        api.post(game, EXAMPLE_DEAL, headers={**api.headers(game), "X-Device": spoof}).status_code
        == 201
    )
    with app.app_context():
        assert db.session.scalars(select(Change.device)).one() == "api:" + spoof
    page = client.get(f"/games/{game['id']}").text
    assert "Chrome on Android #Zq9X" not in page
    assert "API: web:Zq9X" in page


def as_wsgi_gives_it(text: str) -> str:
    """Return a header value as a WSGI server hands it over: its UTF-8 bytes as Latin-1."""
    return text.encode("utf-8").decode("latin-1")


def changed_by(app: Flask, api: Api, client: FlaskClient, header: str) -> tuple[str, str]:
    """Post a deal with this X-Device header; return the stored label and the change log."""
    game = api.create()
    headers = {**api.headers(game), "X-Device": header}
    assert api.post(game, EXAMPLE_DEAL, headers=headers).status_code == 201
    with app.app_context():
        stored = db.session.scalars(select(Change.device)).one()
    page = client.get(f"/games/{game['id']}").text
    log = html.unescape(page[page.index('id="change-log"') :])
    return stored, log


def test_a_device_label_in_utf8_reads_as_sent_in_the_change_log(app, api, client):
    stored, log = changed_by(app, api, client, as_wsgi_gives_it("Ännchens Telefon"))
    assert stored == "api:Ännchens Telefon"
    assert "API: Ännchens Telefon" in log
    assert "Ã" not in log


def test_a_device_label_that_is_not_utf8_is_kept_as_its_latin1_bytes(app, api, client):
    stored, log = changed_by(app, api, client, "Ännchens Telefon")  # the byte C4 alone
    assert stored == "api:Ännchens Telefon"
    assert "API: Ännchens Telefon" in log


def test_a_device_label_keeps_the_80_characters_the_api_reference_promises(app, api, client):
    label = "Ä" + "n" * 78 + "é" + "cut off here"
    stored, log = changed_by(app, api, client, as_wsgi_gives_it(label))
    assert stored == "api:" + label[:80]
    assert f"API: {label[:80]}" in log
    assert label[:81] not in log


# --- 8. chunked forms, share links, HSTS, rate limits ------------------------------------


def test_a_chunked_page_form_over_the_limit_is_refused_not_cut_short(app, client):
    page = client.get("/tables/new")
    body = f"csrf_token={csrf_token(page.text)}&name=Club&regulars=".encode()
    body += b"Ann%0A" * 20_000
    response = client.post(
        "/tables/new",
        input_stream=io.BytesIO(body),
        content_type="application/x-www-form-urlencoded",
        environ_overrides={"wsgi.input_terminated": True},
    )
    assert response.status_code == 413
    assert counts(app) == (0, 0, 0, 0, 0)


def test_share_links_do_not_trust_an_unlisted_host(app, api, monkeypatch):
    from scorekeeper.web import links

    monkeypatch.setattr(links, "lan_address", lambda: "192.168.1.20")
    game = api.create()
    viewer = app.test_client()
    page = viewer.get(f"/games/{game['id']}", headers={"Host": "evil.example"}).text
    assert "evil.example" not in page
    assert f"http://192.168.1.20/games/{game['id']}" in page


def test_share_links_use_a_trusted_host_and_other_hosts_are_refused(database, api):
    game = api.create()
    trusted = make_app(database, TRUSTED_HOSTS=["scores.example"])
    client = trusted.test_client()
    page = client.get(f"/games/{game['id']}", headers={"Host": "scores.example"}).text
    assert f"http://scores.example/games/{game['id']}" in page
    assert client.get(f"/games/{game['id']}", headers={"Host": "evil.example"}).status_code == 400
    with trusted.app_context():
        db.engine.dispose()


def test_hsts_only_when_https_is_configured(database, client):
    assert "Strict-Transport-Security" not in client.get("/").headers
    secure = make_app(database, PREFERRED_URL_SCHEME="https")
    assert secure.test_client().get("/").headers["Strict-Transport-Security"].startswith("max-age=")
    with secure.app_context():
        db.engine.dispose()


@pytest.fixture
def limited(database):
    app = make_app(
        database,
        RATELIMIT_ENABLED=True,
        RATELIMIT_CREATE="2 per minute",
        RATELIMIT_CHANGES="2 per minute",
    )
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def test_creating_games_and_tables_is_rate_limited_with_429_and_retry_after(limited):
    client = limited.test_client()
    body = {"ruleset": "five-handed-schmier", "players": FIVE}
    assert client.post("/api/v1/games", json=body).status_code == 201
    assert client.post("/api/v1/tables", json={"name": "Club"}).status_code == 201
    response = client.post("/api/v1/games", json=body)
    assert_error(response, 429, "too_many_requests")
    assert response.headers["Retry-After"] == "60"
    page = client.get("/tables/new")  # reading is never limited
    assert page.status_code == 200
    response = client.post("/tables/new", data={"csrf_token": csrf_token(page.text), "name": "X"})
    assert response.status_code == 429 and response.headers["Retry-After"] == "60"
    assert "Wait a minute" in response.text
    assert counts(limited)[0] == 1


def test_changes_are_rate_limited_per_edit_token(limited):
    client = limited.test_client()
    body = {"ruleset": "five-handed-schmier", "players": FIVE, "target": 999}
    first = client.post("/api/v1/games", json=body).get_json()
    second = client.post("/api/v1/games", json=body).get_json()
    for _ in range(2):
        response = client.post(
            f"/api/v1/games/{first['id']}/deals", json=DEAL, headers=bearer(first["edit_token"])
        )
        assert response.status_code == 201
    response = client.post(
        f"/api/v1/games/{first['id']}/deals", json=DEAL, headers=bearer(first["edit_token"])
    )
    assert_error(response, 429, "too_many_requests")
    assert "Retry-After" in response.headers
    response = client.post(
        f"/api/v1/games/{second['id']}/deals", json=DEAL, headers=bearer(second["edit_token"])
    )
    assert response.status_code == 201  # another token counts on its own


def test_a_limit_on_every_request_counts_the_pages_answered_ahead_of_flask(database, monkeypatch):
    # The limiter is one object for every app made in this process: keep the limit to this test.
    monkeypatch.setattr(limiter.limit_manager, "_default_limits", [])
    app = make_app(database, RATELIMIT_ENABLED=True, RATELIMIT_DEFAULT="2 per minute")
    try:
        client = app.test_client()
        body = {"ruleset": "five-handed-schmier", "players": FIVE}
        game = client.post("/api/v1/games", json=body).get_json()  # its own limit, not this one
        statuses = [client.get(f"/games/{game['id']}").status_code for _ in range(3)]
        assert statuses == [200, 200, 429]  # the page kept after the first is counted too
    finally:
        app.extensions["scorekeeper.versions"].stop()
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def test_the_settings_that_limit_every_request_are_flask_limiters_own():
    known = {value for name, value in vars(ConfigVars).items() if name.isupper()}
    assert set(ratelimits.EVERY_REQUEST) <= known
    assert ratelimits.limits_every_request({"RATELIMIT_META": "100 per hour"})
    assert not ratelimits.limits_every_request(
        {"RATELIMIT_META": "100 per hour", "RATELIMIT_ENABLED": False}
    )
    assert not ratelimits.limits_every_request({"RATELIMIT_CREATE": "1 per minute"})


# --- 9. the importer can go on playing what it imported ---------------------------------


def test_the_importer_gets_the_edit_links_of_what_it_imported(app, client):
    table, _game = played_table(client)
    document = export(client, table)
    importer = app.test_client()
    response = upload(importer, document)
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    game_links = re.findall(r'href="(http://[^"]+/games/([^/"]+)/edit/[^"]+)"', response.text)
    table_links = re.findall(r'href="(http://[^"]+/tables/([^/"]+)/edit/[^"]+)"', response.text)
    assert len(game_links) == 1 and len(table_links) == 1
    ((_url, game_id),) = game_links
    # This browser may play on at once; the link lets another phone join in.
    page = importer.get(f"/games/{game_id}")
    form = DEAL_FORM | {"csrf_token": csrf_token(page.text), "number": "3"}
    assert importer.post(f"/games/{game_id}/deals", data=form).status_code == 303
    phone = app.test_client()
    path = game_links[0][0].split("//", 1)[1].split("/", 1)[1]
    assert phone.get("/" + path).status_code == 303
    page = phone.get(f"/games/{game_id}")
    form = DEAL_FORM | {"csrf_token": csrf_token(page.text), "number": "4"}
    assert phone.post(f"/games/{game_id}/deals", data=form).status_code == 303
    # Shown once: the table page does not repeat the game links.
    assert "/edit/" not in importer.get(f"/games/{game_id}/sheet").text


@pytest.mark.parametrize("sent", [{"bidder": ""}, {"number": "1", "auction-0": "\x00"}])
def test_a_deal_form_choice_that_is_not_a_number_is_refused(app, client, api, sent):
    game = api.create()
    client.get(f"/games/{game['id']}/edit/{game['edit_token']}")
    page = client.get(f"/games/{game['id']}")
    form = {"csrf_token": csrf_token(page.text), **sent}
    response = client.post(f"/games/{game['id']}/deals", data=form)
    assert response.status_code == 422
    if "bidder" in sent:
        assert "Choose who won the auction." in response.text  # an empty choice is no choice
    assert counts(app)[3] == 0
