"""The answers given ahead of Flask (scorekeeper/http/fast/ahead.py), each exactly the app's own.

An unchanged poll, a viewer's kept game page and the API's kept game document are
answered without reaching the app; every test here that says so compares the answer with
the one the app gives the same request, header for header and byte for byte, and every
request the layer cannot vouch for must reach the app.
"""

from __future__ import annotations

import gzip
import re

import brotli
import pytest
from sqlalchemy.exc import OperationalError
from werkzeug.test import EnvironBuilder, run_wsgi_app

from scorekeeper.extensions import db, limiter
from scorekeeper.http.fast.ahead import AheadOfFlask
from scorekeeper.store import games
from tests.conftest import BOTH, DEAL, make_app

BACKENDS = BOTH


class Counting:
    """The app behind AheadOfFlask, counting the requests that reach it."""

    def __init__(self, wsgi_app):
        self.wsgi_app = wsgi_app
        self.calls = 0

    def __call__(self, environ, start_response):
        self.calls += 1
        return self.wsgi_app(environ, start_response)


@pytest.fixture
def behind(app):
    """Put a counter between AheadOfFlask and the app; return it."""
    fast = app.wsgi_app.wsgi_app  # behind the mount guard
    assert isinstance(fast, AheadOfFlask)
    counter = Counting(fast.wsgi_app)
    fast.wsgi_app = counter
    return counter


def send(app, path, cookie=None, through=None, method="GET", query=None, **headers):
    """Send a request straight to a WSGI app; return (status, headers, body)."""
    if cookie:
        headers["Cookie"] = f"session={cookie}"
    environ = EnvironBuilder(
        path=path, method=method, query_string=query, headers=headers
    ).get_environ()
    body, status, sent = run_wsgi_app(through or app.wsgi_app, environ, buffered=True)
    return int(status.split()[0]), sent, b"".join(body)


def poll(app, game_id, etag, cookie=None, through=None, **more):
    """Send a live poll; return (status, headers)."""
    status, headers, _ = send(
        app,
        f"/games/{game_id}/live",
        cookie,
        through,
        HX_Request="true",
        If_None_Match=etag,
        **more,
    )
    return status, headers


def editor_cookie(client, game):
    client.get(f"/games/{game['id']}/edit/{game['edit_token']}")
    return client.get_cookie("session").value


def viewer_cookie(client, game):
    client.get(f"/games/{game['id']}")
    return client.get_cookie("session").value


def without_date(headers):
    return sorted((k, v) for k, v in headers.items() if k != "Date")


SIGNED = re.compile(r"session=([^.;]+)\.[^.;]+\.[^.;]+; Expires=[^;]+;")


def comparable(headers):
    """Headers without what moves with the clock: the date, the session's signing time."""
    return [(k, SIGNED.sub(r"session=\1.<signed>;", v)) for k, v in without_date(headers)]


def same_answer(app, behind, path, cookie=None, **headers):
    """Ask ahead of the app and then the app itself; return the fast answer once both agree."""
    behind.calls = 0
    fast = send(app, path, cookie, **headers)
    assert behind.calls == 0, "the layer passed it on"
    own = send(app, path, cookie, through=behind, **headers)
    assert behind.calls == 1
    assert fast[0] == own[0] == 200
    assert comparable(fast[1]) == comparable(own[1])
    assert fast[2] == own[2]
    return fast


def reaches_app(app, behind, path, cookie=None, **more):
    behind.calls = 0
    answer = send(app, path, cookie, **more)
    assert behind.calls == 1
    return answer


# ---------------------------------------------------------------- the unchanged poll


@pytest.mark.parametrize("rights", ["viewer", "editor"])
def test_an_unchanged_poll_is_answered_ahead_of_the_app_with_the_apps_own_answer(
    app, client, api, behind, rights
):
    game = api.create()
    cookie = editor_cookie(client, game) if rights == "editor" else None
    etag = '"1-e"' if rights == "editor" else '"1-v"'
    behind.calls = 0
    status, fast = poll(app, game["id"], etag, cookie)
    assert status == 304 and behind.calls == 0
    app_status, own = poll(app, game["id"], etag, cookie, through=behind)
    assert app_status == 304 and behind.calls == 1
    assert without_date(fast) == without_date(own)
    assert fast["ETag"] == etag


def test_a_poll_after_a_change_reaches_the_app(app, client, api, behind):
    game = api.create()
    api.add(game, DEAL)
    behind.calls = 0
    status, headers = poll(app, game["id"], '"1-v"')
    assert status == 200 and behind.calls == 1
    assert headers["ETag"] == '"2-v"'


def test_a_poll_whose_rights_changed_reaches_the_app(app, client, api, behind):
    game = api.create()
    cookie = editor_cookie(client, game)
    behind.calls = 0
    # This browser now holds the edit token: its viewer's page must gain the deal form.
    assert poll(app, game["id"], '"1-v"', cookie)[0] == 200
    # A new edit link was made: the old editor's page must say so.
    with app.app_context():
        games.rotate_edit_token(games.get_game(game["id"]))
    assert poll(app, game["id"], '"2-e"', cookie)[0] == 200
    assert behind.calls == 2


@pytest.mark.parametrize(
    ("cookie", "more"),
    [
        ("not-a-signed-session", {}),
        (None, {"HX-Boosted": "true"}),
        (None, {"HX-History-Restore-Request": "true"}),
    ],
)
def test_a_poll_the_fast_answer_cannot_vouch_for_reaches_the_app(app, api, behind, cookie, more):
    game = api.create()
    behind.calls = 0
    poll(app, game["id"], '"1-v"', cookie, **more)
    assert behind.calls == 1


def test_polls_of_unknown_games_and_other_addresses_reach_the_app(app, api, behind):
    behind.calls = 0
    assert poll(app, "n0-such-game", '"1-v"')[0] == 404
    environ = EnvironBuilder(path="/games/x/live", query_string="a=1").get_environ()
    run_wsgi_app(app.wsgi_app, environ, buffered=True)
    assert behind.calls == 2


def test_an_untrusted_host_is_refused_by_the_app_not_answered(app, api, behind):
    game = api.create()
    app.config["TRUSTED_HOSTS"] = ["scores.example"]
    app.wsgi_app = AheadOfFlask(app, behind)  # built again: it reads the settings once
    behind.calls = 0
    assert poll(app, game["id"], '"1-v"', Host="evil.example")[0] == 400
    assert poll(app, game["id"], '"1-v"', Host="scores.example")[0] == 304
    assert behind.calls == 1


# ---------------------------------------------------------------- the kept game page


def kept_page(app, behind, game, cookie=None, **headers):
    """Have the app keep the page for this request (if not yet), then ask ahead of it."""
    send(app, f"/games/{game['id']}", cookie, through=behind, **headers)
    return same_answer(app, behind, f"/games/{game['id']}", cookie, **headers)


def test_a_first_visit_gets_the_kept_page_and_the_apps_session_cookie(app, client, api, behind):
    game = api.create()
    api.add(game, DEAL)
    _, headers, body = kept_page(app, behind, game)
    assert b"Deal 1" in body
    assert headers["Vary"] == "HX-Request, Accept-Language, Accept-Encoding, Cookie"
    assert "Content-Security-Policy" in headers and headers["X-Frame-Options"] == "DENY"
    assert int(headers["Content-Length"]) == len(body)
    # The cookie made ahead of the app is the app's own: the home page lists the game.
    cookie = SIGNED.match(headers["Set-Cookie"])
    assert cookie is not None
    client.set_cookie("session", headers["Set-Cookie"].split(";")[0].removeprefix("session="))
    home = client.get("/").get_data(as_text=True)
    assert f'href="/games/{game["id"]}"' in home


def test_first_visits_in_the_same_second_share_one_signed_cookie(app, api, behind, monkeypatch):
    game = api.create()
    kept_page(app, behind, game)
    sessions = app.session_interface
    signed = []
    save = sessions.save_session
    monkeypatch.setattr(sessions, "save_session", lambda *args: (signed.append(1), save(*args))[1])
    cookies = {send(app, f"/games/{game['id']}")[1]["Set-Cookie"] for _ in range(5)}
    # Signed at most once per second (the five may straddle a second's turn), and not at
    # all in the second the page was first asked for.
    assert len(signed) <= len(cookies) <= 2


def test_a_phone_that_remembers_the_game_gets_no_cookie(app, client, api, behind):
    game = api.create()
    cookie = viewer_cookie(client, game)
    _, headers, _ = kept_page(app, behind, game, cookie)
    assert "Set-Cookie" not in headers
    assert headers["Vary"].endswith("Cookie")


def test_with_sessions_refreshed_on_every_request_the_kept_page_refreshes_it_too(
    app, client, api, behind
):
    app.config["SESSION_REFRESH_EACH_REQUEST"] = True
    game = api.create()
    cookie = viewer_cookie(client, game)
    _, headers, _ = kept_page(app, behind, game, cookie)
    assert "Set-Cookie" in headers


def test_a_phone_that_opened_other_games_gets_this_one_first_in_its_list(app, client, api, behind):
    first, second = api.create(), api.create()
    cookie = viewer_cookie(client, first)
    _, headers, _ = kept_page(app, behind, second, cookie)
    client.set_cookie("session", headers["Set-Cookie"].split(";")[0].removeprefix("session="))
    home = client.get("/").get_data(as_text=True)
    assert home.index(f'href="/games/{second["id"]}"') < home.index(f'href="/games/{first["id"]}"')


@pytest.mark.parametrize(
    ("accept", "chosen", "lang", "varies"),
    [("fr-FR,fr;q=0.9", None, "fr", True), ("fr", "de", "de", False), (None, None, "en", True)],
)
def test_the_kept_page_is_in_the_language_the_app_would_choose(
    app, client, api, behind, accept, chosen, lang, varies
):
    game = api.create()
    cookie = None
    if chosen:
        client.get(f"/language/{chosen}?next=/")
        cookie = client.get_cookie("session").value
    more = {"Accept-Language": accept} if accept else {}
    _, headers, body = kept_page(app, behind, game, cookie, **more)
    assert f'<html lang="{lang}"'.encode() in body
    assert ("Accept-Language" in headers["Vary"]) is varies


@pytest.mark.parametrize(
    ("encoding", "decompress"), [("br", brotli.decompress), ("gzip", gzip.decompress)]
)
def test_the_kept_page_goes_compressed_once_the_app_has_compressed_it(
    app, api, behind, encoding, decompress
):
    game = api.create()
    plain = kept_page(app, behind, game)[2]
    _, headers, body = kept_page(app, behind, game, Accept_Encoding=f"{encoding}, identity")
    assert headers["Content-Encoding"] == encoding
    assert decompress(body) == plain


def test_a_new_version_is_made_by_the_app_then_kept(app, api, behind):
    game = api.create()
    kept_page(app, behind, game)
    api.add(game, DEAL)
    reaches_app(app, behind, f"/games/{game['id']}")
    same_answer(app, behind, f"/games/{game['id']}")


def test_an_editors_page_always_reaches_the_app(app, client, api, behind):
    game = api.create()
    cookie = editor_cookie(client, game)
    for _ in range(2):
        status, _, body = reaches_app(app, behind, f"/games/{game['id']}", cookie)
        assert status == 200 and b'name="csrf_token"' in body


def test_a_page_with_a_message_waiting_reaches_the_app(app, client, api, behind):
    game = api.create()
    kept_page(app, behind, game)
    with client.session_transaction() as session:
        session["_flashes"] = [("message", "Deal 1 saved.")]
    cookie = client.get_cookie("session").value
    _, _, body = reaches_app(app, behind, f"/games/{game['id']}", cookie)
    assert b"Deal 1 saved." in body


@pytest.mark.parametrize(
    "request_",
    [
        {"query": "a=1"},
        {"HX_Request": "true"},
        {"If_None_Match": '"x"'},
        {"Range": "bytes=0-10"},
        {"method": "HEAD"},
        {"cookie": "not-a-signed-session"},
    ],
    ids=["query", "htmx", "conditional", "range", "head", "foreign-cookie"],
)
def test_a_page_request_the_layer_cannot_vouch_for_reaches_the_app(app, api, behind, request_):
    game = api.create()
    kept_page(app, behind, game)
    reaches_app(app, behind, f"/games/{game['id']}", **request_)


def test_an_expired_session_reaches_the_app(app, client, api, behind):
    game = api.create()
    cookie = viewer_cookie(client, game)
    kept_page(app, behind, game, cookie)  # its signature is now remembered as checked
    app.wsgi_app.wsgi_app.max_age = -1  # the layer behind the mount guard
    reaches_app(app, behind, f"/games/{game['id']}", cookie)


def test_unknown_games_and_untrusted_hosts_reach_the_app(app, api, behind):
    assert reaches_app(app, behind, "/games/n0-such-game")[0] == 404
    game = api.create()
    app.config["TRUSTED_HOSTS"] = ["scores.example"]
    app.wsgi_app = AheadOfFlask(app, behind)
    assert reaches_app(app, behind, f"/games/{game['id']}", Host="evil.example")[0] == 400


def test_a_database_error_is_left_to_the_app(app, api, behind, monkeypatch):
    game = api.create()
    kept_page(app, behind, game)
    read = games.get_stamp

    def fails_once(game_id, engine=None):
        monkeypatch.setattr(games, "get_stamp", read)
        raise OperationalError("SELECT", {}, Exception("server closed the connection"))

    monkeypatch.setattr(games, "get_stamp", fails_once)
    assert reaches_app(app, behind, f"/games/{game['id']}")[0] == 200


def test_with_app_wide_rate_limits_every_request_reaches_the_app(database, api, monkeypatch):
    game = api.create()
    # The limiter is one object for every app made in this process: keep the limit to this test.
    monkeypatch.setattr(limiter.limit_manager, "_default_limits", [])
    limited = make_app(database, RATELIMIT_ENABLED=True, RATELIMIT_DEFAULT="1000 per minute")
    try:
        layer = limited.wsgi_app.wsgi_app
        assert isinstance(layer, AheadOfFlask) and not layer.enabled
        counter = layer.wsgi_app = Counting(layer.wsgi_app)
        for _ in range(2):
            status, _, _ = send(limited, f"/games/{game['id']}")
            assert status == 200
        assert counter.calls == 2
    finally:
        limited.extensions["scorekeeper.versions"].stop()
        with limited.app_context():
            db.engine.dispose()


# ---------------------------------------------------------------- the kept API document


def test_the_kept_game_document_is_the_apps_own(app, api, behind):
    game = api.create()
    api.add(game, DEAL)
    path = f"/api/v1/games/{game['id']}"
    reaches_app(app, behind, path)
    _, headers, body = same_answer(app, behind, path)
    assert headers["Content-Type"] == "application/json"
    assert b'"number": 1' in body
    reaches_app(app, behind, path, Accept_Encoding="gzip")
    _, headers, zipped = same_answer(app, behind, path, Accept_Encoding="gzip")
    assert headers["Content-Encoding"] == "gzip" and gzip.decompress(zipped) == body


def test_unknown_documents_and_other_reads_reach_the_app(app, api, behind):
    status, _, body = reaches_app(app, behind, "/api/v1/games/n0-such-game")
    assert status == 404 and b'"error"' in body
    game = api.create()
    reaches_app(app, behind, f"/api/v1/games/{game['id']}")
    reaches_app(app, behind, f"/api/v1/games/{game['id']}", query="x=1")
    reaches_app(app, behind, f"/api/v1/games/{game['id']}/deals")
