"""One setting turns the fast path off, and with it off or on a client sees the same answers.

``FAST_PATH`` (``FLASK_FAST_PATH=false``) off makes the app plain Flask: Flask's own class
and session cookie, Flask-Caching's SimpleCache, Flask-Compress compressing every answer,
no layer ahead of Flask, no rows kept, Python's own garbage collector settings. The same
requests sent to an app with it on and one with it off, on the same database, must get
the same status, headers and body (the session cookie's signing time and the date aside).
"""

from __future__ import annotations

import gc
import gzip
import re
from pathlib import Path

import brotli
import pytest
from flask import Flask
from flask.sessions import SecureCookieSessionInterface
from werkzeug.test import EnvironBuilder, run_wsgi_app
from whitenoise import WhiteNoise

from scorekeeper import create_app
from scorekeeper.extensions import cache, db, row_cache
from scorekeeper.http import mount
from scorekeeper.http.fast.ahead import AheadOfFlask
from scorekeeper.http.fast.application import Application
from scorekeeper.http.fast.memory import MemoryCache
from scorekeeper.http.fast.sessions import SignedCookieSessions
from tests.conftest import BOTH, DEAL, make_app

BACKENDS = BOTH
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def plain(database):
    """Yield an app with the fast path off, on the same database as `app`."""
    app = make_app(database, FAST_PATH=False)
    yield app
    app.extensions["scorekeeper.versions"].stop()
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def test_the_fast_path_is_on_unless_turned_off():
    app = make_app()
    assert app.config["FAST_PATH"] is True
    assert isinstance(app, Application)
    assert isinstance(app.wsgi_app, mount.Guard)
    assert isinstance(app.wsgi_app.wsgi_app, AheadOfFlask)
    assert isinstance(app.session_interface, SignedCookieSessions)
    assert isinstance(app.extensions["cache"][cache], MemoryCache)
    assert isinstance(app.extensions["cache"][row_cache], MemoryCache)


def test_off_the_app_is_plain_flask(plain):
    assert type(plain) is Flask
    assert isinstance(plain.wsgi_app, mount.Guard)  # a request for another mount: refused
    # The static files are served ahead of Flask in either mode (scorekeeper/http/assets.py).
    static = plain.wsgi_app.wsgi_app
    assert isinstance(static, WhiteNoise)
    assert static.application == Flask.wsgi_app.__get__(plain)
    assert type(plain.session_interface) is SecureCookieSessionInterface
    assert type(plain.extensions["cache"][cache]).__name__ == "SimpleCache"
    assert row_cache not in plain.extensions.get("cache", {})


@pytest.mark.parametrize(("value", "on"), [("false", False), ("0", False), ("true", True)])
def test_the_environment_turns_it_off(monkeypatch, value, on):
    monkeypatch.setenv("FLASK_FAST_PATH", value)
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    assert app.config["FAST_PATH"] is on
    assert isinstance(app, Application) is on


@pytest.mark.parametrize(("value", "tuned"), [("false", False), (None, True)])
def test_a_worker_tunes_the_collector_only_with_the_fast_path(monkeypatch, value, tuned):
    if value is None:
        monkeypatch.delenv("FLASK_FAST_PATH", raising=False)
    else:
        monkeypatch.setenv("FLASK_FAST_PATH", value)
    settings: dict = {}
    exec((ROOT / "gunicorn.conf.py").read_text(), settings)
    thresholds = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    try:
        settings["post_worker_init"](None)
        assert (gc.get_threshold() != (700, 10, 10)) is tuned
        assert (gc.get_freeze_count() > 0) is tuned
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)


# ---------------------------------------------------------------- the same answers


def send(app, path, cookie=None, script_root="", **headers):
    """Send a request straight to the app's WSGI stack; return (status, headers, body)."""
    if cookie:
        headers["Cookie"] = f"session={cookie}"
    environ = EnvironBuilder(path=path, headers=headers).get_environ()
    if script_root:
        environ["SCRIPT_NAME"] = script_root
    body, status, sent = run_wsgi_app(app.wsgi_app, environ, buffered=True)
    return int(status.split()[0]), sent, b"".join(body)


SIGNED = re.compile(r"session=([^.;]+)\.[^.;]+\.[^.;]+; Expires=[^;]+;")
DECODE = {"br": brotli.decompress, "gzip": gzip.decompress}


def comparable(answer):
    """Status, headers and decoded body, without what moves with the clock."""
    status, headers, body = answer
    kept = sorted(
        (k, SIGNED.sub(r"session=\1.<signed>;", v))
        for k, v in headers.items()
        if k not in ("Date", "Content-Length")
    )
    encoding = headers.get("Content-Encoding")
    return status, kept, DECODE[encoding](body) if encoding else body


def without_token(answer):
    """Status and headers of an answer holding a CSRF token made for it, the cookie's
    content (which holds the token) aside."""
    status, headers, _ = comparable(answer)
    return status, [(k, "<session>" if k == "Set-Cookie" else v) for k, v in headers]


REQUESTS = {
    "first visit": {},
    "first visit, brotli": {"Accept-Encoding": "br, gzip"},
    "first visit, gzip": {"Accept-Encoding": "gzip"},
    "first visit, French": {"Accept-Language": "fr"},
}


@pytest.mark.parametrize("headers", REQUESTS.values(), ids=REQUESTS.keys())
def test_a_viewers_game_page_is_the_same_either_way(app, plain, api, headers):
    game = api.create()
    api.add(game, DEAL)
    path = f"/games/{game['id']}"
    slow = comparable(send(plain, path, **headers))
    for _ in range(3):  # made, kept, then answered ahead of Flask
        assert comparable(send(app, path, **headers)) == slow
    assert b'<li id="deal-1"' in slow[2]


@pytest.mark.parametrize("encoding", [None, "gzip", "br"])
def test_the_api_document_is_the_same_either_way(app, plain, api, encoding):
    game = api.create()
    api.add(game, DEAL)
    headers = {"Accept-Encoding": encoding} if encoding else {}
    path = f"/api/v1/games/{game['id']}"
    slow = comparable(send(plain, path, **headers))
    for _ in range(3):
        assert comparable(send(app, path, **headers)) == slow


def test_a_poll_is_the_same_either_way(app, plain, client, api):
    game = api.create()
    client.get(f"/games/{game['id']}/edit/{game['edit_token']}")
    cookie = client.get_cookie("session").value
    path = f"/games/{game['id']}/live"
    for etag in ('"1-e"', '"0-e"', '"1-v"'):
        headers = {"HX-Request": "true", "If-None-Match": etag}
        # The live parts (a 200) hold a CSRF token made for this browser, new each time.
        same = comparable if etag == '"1-e"' else without_token
        slow = same(send(plain, path, cookie, **headers))
        for _ in range(2):
            assert same(send(app, path, cookie, **headers)) == slow
    assert comparable(send(plain, path, cookie, **{"HX-Request": "true"}))[0] == 200


def test_a_request_for_another_mount_is_refused_either_way(app, plain):
    slow = comparable(send(plain, "/", script_root="/elsewhere"))
    assert slow[0] == 400
    assert comparable(send(app, "/", script_root="/elsewhere")) == slow


def test_with_it_off_a_page_makes_its_rows_afresh(plain):
    api_client = plain.test_client()
    body = {"ruleset": "five-handed-schmier", "players": ["A", "B", "C", "D", "E"]}
    game = api_client.post("/api/v1/games", json={**body, "first_dealer": 0}).get_json()
    headers = {"Authorization": f"Bearer {game['edit_token']}"}
    api_client.post(f"/api/v1/games/{game['id']}/deals", json=DEAL, headers=headers)
    page = api_client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert "Deal 1" in page
