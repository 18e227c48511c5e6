"""A page made for a mount prefix, scheme or host is never served to a request without it.

gunicorn takes a ``SCRIPT_NAME:`` header and ``X-Forwarded-Proto`` from the addresses it
trusts (127.0.0.1 by default), Werkzeug's ProxyFix ``X-Forwarded-Proto`` and
``X-Forwarded-Host`` behind FLASK_BEHIND_PROXY. A prefix the app is not configured for is
refused (``//evil.example`` would send every link off-site); a scheme or a host gets a
page of its own, in the app's cache and in the layer ahead of Flask alike.
"""

from __future__ import annotations

import os
import re
import socket
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web import links
from tests.conftest import FIVE, Api, make_app
from tests.test_concurrency import Server, free_port, run_gunicorn

LAN = "192.168.1.20"


@pytest.fixture(autouse=True)
def lan_address(monkeypatch: pytest.MonkeyPatch) -> None:
    """Share links use this machine's address on the local network: give it one."""
    monkeypatch.setattr(links, "lan_address", lambda: LAN)


def share_links(page: str, game_id: str) -> set[str]:
    """Return the schemes and hosts of the game's share links (and QR codes) in a page."""
    return set(re.findall(rf"(https?://[^/\"'\s<]+)/games/{game_id}", page))


def local_links(page: str) -> set[str]:
    """Return every address the page's links, forms and assets point at on this server."""
    found = re.findall(r'(?:href|src|action|hx-get|hx-post|data-events)="([^"#]+)"', page)
    return {url for url in found if not url.startswith(("https://cdn.", "data:"))}


def editor(app: Flask, game: dict[str, Any]) -> FlaskClient:
    """Return a browser that opened the game's edit link."""
    browser = app.test_client()
    browser.get(f"/games/{game['id']}/edit/{game['edit_token']}")
    return browser


# ---------------------------------------------------------------- the mount prefix


@pytest.mark.parametrize("prefix", ["/zz", "//evil.example"])
def test_a_page_asked_under_a_prefix_the_app_is_not_mounted_at_is_refused(app, api, prefix):
    game = api.create()
    page = f"/games/{game['id']}"
    for browser in (app.test_client(), editor(app, game)):
        asked = browser.get(page, environ_overrides={"SCRIPT_NAME": prefix})
        assert asked.status_code == 400
        assert asked.mimetype == "text/plain"
        assert f"not mounted at {prefix!r}" in asked.text
        assert asked.headers["Cache-Control"] == "no-store"
        # Then every phone gets the page made for the app's own address, viewer or editor.
        shown = browser.get(page).text
        assert prefix not in shown
        own = ("/", f"http://{LAN}/")
        assert all(url.startswith(own) and not url.startswith("//") for url in local_links(shown))
        assert share_links(shown, game["id"]) == {f"http://{LAN}"}


def test_the_live_parts_asked_under_another_prefix_are_refused(app, api):
    game = api.create()
    browser = editor(app, game)
    live = {"HX-Request": "true"}
    asked = browser.get(
        f"/games/{game['id']}/live", headers=live, environ_overrides={"SCRIPT_NAME": "/zz"}
    )
    assert asked.status_code == 400
    assert "/zz/" not in browser.get(f"/games/{game['id']}/live", headers=live).text


def test_the_api_refuses_another_prefix_in_its_error_shape(client, api):
    game = api.create()
    answer = client.get(f"/api/v1/games/{game['id']}", environ_overrides={"SCRIPT_NAME": "/zz"})
    assert answer.status_code == 400
    error = answer.get_json()["error"]
    assert error["code"] == "bad_request"
    assert "'/zz'" in error["message"]
    assert "fields" not in error  # the request as a whole is at fault


def test_an_app_configured_for_a_prefix_serves_under_it_only(database, monkeypatch):
    monkeypatch.setattr(links, "lan_address", lambda: LAN)
    app = make_app(database, APPLICATION_ROOT="/scores")
    browser = app.test_client()  # Flask's test client asks under APPLICATION_ROOT
    created = browser.post(
        "/api/v1/games", json={"ruleset": "five-handed-schmier", "players": FIVE, "first_dealer": 0}
    )
    assert created.status_code == 201
    game_id = created.get_json()["id"]
    page = browser.get(f"/games/{game_id}")
    assert page.status_code == 200
    own = ("/scores/", f"http://{LAN}/scores/")
    assert all(url.startswith(own) for url in local_links(page.text))
    assert f"http://{LAN}/scores/games/{game_id}" in page.text
    assert share_links(page.text, game_id) == set()  # no link without the prefix
    outside = browser.get(f"/games/{game_id}", environ_overrides={"SCRIPT_NAME": ""})
    assert outside.status_code == 400
    assert "not mounted at '/': it answers under '/scores' only" in outside.text


# ---------------------------------------------------------------- the scheme


def test_a_page_made_for_https_is_never_served_over_http(app, api):
    # What gunicorn makes of X-Forwarded-Proto: https from an address it trusts.
    game = api.create()
    page = f"/games/{game['id']}"
    https = {"wsgi.url_scheme": "https"}
    for browser in (app.test_client(), editor(app, game)):
        made = browser.get(page, environ_overrides=https)
        assert made.status_code == 200
        assert share_links(made.text, game["id"]) == {f"https://{LAN}"}
        assert share_links(browser.get(page).text, game["id"]) == {f"http://{LAN}"}
        # And the other way round: each scheme has a page of its own.
        again = browser.get(page, environ_overrides=https).text
        assert share_links(again, game["id"]) == {f"https://{LAN}"}


def test_behind_a_proxy_a_page_made_for_x_forwarded_proto_is_kept_apart(database, monkeypatch):
    monkeypatch.setattr(links, "lan_address", lambda: LAN)
    app = make_app(database, BEHIND_PROXY=True)
    api = Api(app.test_client())
    game = api.create()
    page = f"/games/{game['id']}"
    for browser in (app.test_client(), editor(app, game)):
        made = browser.get(page, headers={"X-Forwarded-Proto": "https"})
        assert share_links(made.text, game["id"]) == {f"https://{LAN}"}
        assert share_links(browser.get(page).text, game["id"]) == {f"http://{LAN}"}


def test_a_scheme_other_than_http_or_https_is_refused(database, api):
    app = make_app(database, BEHIND_PROXY=True)
    game = api.create()
    asked = app.test_client().get(
        f"/games/{game['id']}", headers={"X-Forwarded-Proto": "javascript"}
    )
    assert asked.status_code == 400
    assert "not 'javascript'" in asked.text


# ---------------------------------------------------------------- the host


def test_behind_a_proxy_a_page_made_for_x_forwarded_host_is_kept_apart(database):
    # localhost: the test client's own host, whose share links use the LAN address.
    app = make_app(database, BEHIND_PROXY=True, TRUSTED_HOSTS=["scores.example", "localhost"])
    api = Api(app.test_client())
    game = api.create()
    page = f"/games/{game['id']}"
    for browser in (app.test_client(), editor(app, game)):
        made = browser.get(page, headers={"X-Forwarded-Host": "scores.example"})
        assert share_links(made.text, game["id"]) == {"http://scores.example"}
        assert share_links(browser.get(page).text, game["id"]) == {f"http://{LAN}"}


# ---------------------------------------------------------------- under gunicorn


@pytest.fixture(scope="module")
def served(database: str) -> Iterator[Server]:
    """Serve the app as the Procfile does (gunicorn.conf.py), on the test database."""
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database,
        "FLASK_SECRET_KEY": "forwarded-test-secret",
        "FLASK_RATELIMIT_ENABLED": "false",
        "FLASK_PUBLIC_URL": "",
    }
    command = [sys.executable, "-m", "gunicorn", "--config", "gunicorn.conf.py"]
    command += ["--bind", f"127.0.0.1:{port}", "scorekeeper:create_app()"]
    with tempfile.TemporaryDirectory(prefix="sk_test_gunicorn_") as folder:
        yield from run_gunicorn(command, env, Path(folder) / "gunicorn.log")


def raw_get(port: int, target: str, *headers: str) -> tuple[int, str]:
    """Send one GET as a proxy on this machine would, headers as written; return status, body."""
    head = f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n"
    head += "".join(f"{header}\r\n" for header in headers) + "\r\n"
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(head.encode())
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    status_line, _, rest = answer.partition(b"\r\n")
    return int(status_line.split()[1]), rest.partition(b"\r\n\r\n")[2].decode("utf-8", "replace")


def test_under_gunicorn_a_script_name_header_poisons_no_page(served):
    game = served.create()
    page = f"/games/{game['id']}"
    for prefix in ("/zz", "//evil.example"):
        status, body = raw_get(served.port, prefix + page, f"SCRIPT_NAME: {prefix}")
        assert status == 400, body
        for _ in range(3):  # every later viewer, whichever worker answers
            status, body = raw_get(served.port, page)
            assert status == 200 and prefix not in body


def test_under_gunicorn_a_page_made_for_x_forwarded_proto_is_not_served_over_http(served):
    game = served.create()
    page = f"/games/{game['id']}"
    status, body = raw_get(served.port, page, "X-Forwarded-Proto: https")
    assert status == 200
    (made,) = share_links(body, game["id"])
    assert made.startswith("https://")
    for _ in range(3):
        status, body = raw_get(served.port, page)
        assert status == 200
        assert share_links(body, game["id"]) == {made.replace("https://", "http://", 1)}
