"""Security: CSRF, edit rights on every change, token storage, headers, cookies, escaping."""

import base64
import hashlib
import html
import json
import re
from pathlib import Path

import pytest
from sqlalchemy import text

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.http.security import HTMX_CDN_URL, HTMX_FILE
from scorekeeper.store import tokens
from scorekeeper.web import links
from tests.conftest import DEAL, DEAL_FORM
from tests.test_assets import static_url

STATIC = Path(__file__).resolve().parents[1] / "static"
SCRIPT = "<script>alert(1)</script>"
IMG = '"><img src=x onerror=alert(1)>'
FORMULA = "=HYPERLINK(1)"
HOSTILE = [SCRIPT, IMG, "Ann & 'Bob'", FORMULA, "Ed"]


def csrf(page_html):
    """Return the CSRF token a page carries in htmx's headers on <body>."""
    headers = re.search(r"<body hx-headers='([^']+)'", page_html).group(1)
    return json.loads(html.unescape(headers))["X-CSRFToken"]


@pytest.fixture(autouse=True)
def no_lan(monkeypatch):
    """Keep the test client's localhost in links."""
    monkeypatch.setattr(links, "lan_address", lambda: None)


@pytest.fixture
def game(api):
    """A game with one deal, made through the API."""
    document = api.create()
    api.add(document, DEAL)
    return document


@pytest.fixture
def editor(app, game):
    browser = app.test_client()
    assert browser.get(f"/games/{game['id']}/edit/{game['edit_token']}").status_code == 303
    return browser


@pytest.fixture
def viewer(app, game):
    browser = app.test_client()
    assert browser.get(f"/games/{game['id']}").status_code == 200
    return browser


def deal_count(api, game):
    return len(api.game(game)["deals"])


# --- CSRF ------------------------------------------------------------------------------

FORMS = {
    "new game": lambda g: ("/games/new", {"ruleset": "five-handed-schmier"}),
    "add deal": lambda g: (f"/games/{g['id']}/deals", {**DEAL_FORM, "number": "2"}),
    "correct": lambda g: (
        f"/games/{g['id']}/deals/1/edit",
        {**DEAL_FORM, "number": "1", "bid": "5"},
    ),
    "undo": lambda g: (f"/games/{g['id']}/deals/1/undo", {}),
    "new edit link": lambda g: (f"/games/{g['id']}/edit-link", {}),
}


@pytest.mark.parametrize("form", FORMS, ids=list(FORMS))
def test_form_post_without_csrf_token_is_refused(api, editor, game, form):
    url, data = FORMS[form](game)
    response = editor.post(url, data=data)
    assert response.status_code == 400
    assert "This form is out of date" in response.get_data(as_text=True)
    assert api.game(game)["deals"][0]["bid"] == 4
    assert deal_count(api, game) == 1
    assert api.post(game, {**DEAL, "number": 2}).status_code == 201  # token unchanged


@pytest.mark.parametrize("form", FORMS, ids=list(FORMS))
def test_form_post_with_another_sessions_csrf_token_is_refused(app, api, editor, game, form):
    foreign = csrf(app.test_client().get("/").get_data(as_text=True))
    url, data = FORMS[form](game)
    assert editor.post(url, data={**data, "csrf_token": foreign}).status_code == 400
    assert deal_count(api, game) == 1


def session_of(app, response):
    """Return the session a response's cookie sets, or None when it sets none."""
    cookies = [c for c in response.headers.getlist("Set-Cookie") if c.startswith("session=")]
    if not cookies:
        return None
    value = cookies[0].split(";", 1)[0].removeprefix("session=")
    return app.session_interface.get_signing_serializer(app).loads(value)


def test_a_view_only_game_page_carries_no_csrf_token_and_makes_none(app, api, editor, game):
    for _ in range(2):  # rendered, then from the cache
        phone = app.test_client()
        page = phone.get(f"/games/{game['id']}")
        assert "X-CSRFToken" not in page.text and "csrf_token" not in page.text
        assert session_of(app, page) is None  # no session: the page is the same for all
    # The editor's page carries its token, in htmx's headers and in every form, and it works.
    page = editor.get(f"/games/{game['id']}").get_data(as_text=True)
    token = csrf(page)
    in_forms = re.findall(r'name="csrf_token"(?: type="hidden")? value="([^"]+)"', page)
    assert in_forms and set(in_forms) == {token}
    response = editor.post(f"/games/{game['id']}/deals", data={**DEAL_FORM, "number": "2"})
    assert response.status_code == 400
    response = editor.post(
        f"/games/{game['id']}/deals", data={**DEAL_FORM, "number": "2", "csrf_token": token}
    )
    assert response.status_code == 303
    assert deal_count(api, game) == 2


# --- edit rights on every change -------------------------------------------------------

CHANGES = {k: v for k, v in FORMS.items() if k != "new game"}


@pytest.mark.parametrize("form", CHANGES, ids=list(CHANGES))
def test_forged_post_from_a_view_only_browser_is_refused(api, viewer, game, form):
    # The view-only page posts nothing and carries no token: take this browser's own from a
    # page with a form, so the refusal below is the edit rights', not CSRF's.
    assert "X-CSRFToken" not in viewer.get(f"/games/{game['id']}").get_data(as_text=True)
    token = csrf(viewer.get("/games/new").get_data(as_text=True))
    url, data = CHANGES[form](game)
    response = viewer.post(url, data={**data, "csrf_token": token})
    assert response.status_code == 403
    assert api.game(game)["deals"][0]["bid"] == 4
    assert deal_count(api, game) == 1
    assert api.post(game, {**DEAL, "number": 2}).status_code == 201  # token unchanged


def test_correction_page_is_refused_to_a_view_only_browser(viewer, game):
    assert viewer.get(f"/games/{game['id']}/deals/1/edit").status_code == 403


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        pytest.param("post", "/deals", {**DEAL, "number": 2}, id="add"),
        pytest.param("put", "/deals/1", DEAL, id="correct"),
        pytest.param("delete", "/deals/1", None, id="undo"),
    ],
)
def test_api_change_needs_the_games_edit_token(client, api, game, method, path, body):
    url = f"/api/v1/games/{game['id']}{path}"
    send = getattr(client, method)
    assert send(url, json=body).status_code == 401
    wrong = {"Authorization": "Bearer " + game["edit_token"][:-1] + "x"}
    assert send(url, json=body, headers=wrong).status_code == 403
    other = api.create()
    assert send(url, json=body, headers=api.headers(other)).status_code == 403
    assert deal_count(api, game) == 1


def test_edit_tokens_are_stored_hashed_only(app, game):
    with app.app_context():
        rows = db.session.execute(text("SELECT * FROM games")).mappings().all()
    (row,) = [r for r in rows if r["id"] == game["id"]]
    assert row["edit_token_hash"] == hashlib.sha256(game["edit_token"].encode()).hexdigest()
    assert not any(game["edit_token"] in str(value) for value in row.values())


def test_tokens_are_compared_in_constant_time(app, game, monkeypatch):
    calls = []
    real = tokens.hmac.compare_digest

    def spy(a, b):
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(tokens.hmac, "compare_digest", spy)
    app.test_client().get(f"/games/{game['id']}/edit/{game['edit_token']}")
    app.test_client().get(f"/games/{game['id']}/edit/wrong")
    assert len(calls) == 2


# --- headers ---------------------------------------------------------------------------


def pages(game):
    """Return (name, client role, path, headers) for every kind of page the app serves."""
    live = {"HX-Request": "true"}
    return [
        ("home", "viewer", "/", {}),
        ("new game", "viewer", "/games/new", {}),
        ("game, view only", "viewer", f"/games/{game['id']}", {}),
        ("game, editor", "editor", f"/games/{game['id']}", {}),
        ("correction", "editor", f"/games/{game['id']}/deals/1/edit", {}),
        ("live update", "viewer", f"/games/{game['id']}/live", live),
        ("revoked edit link", "viewer", f"/games/{game['id']}/edit/old", {}),
        ("edit link", "viewer", f"/games/{game['id']}/edit/{game['edit_token']}", {}),
        ("not found", "viewer", "/games/nosuchgame", {}),
        ("api", "viewer", f"/api/v1/games/{game['id']}", {}),
    ]


def test_every_page_carries_the_security_headers(editor, viewer, game):
    clients = {"editor": editor, "viewer": viewer}
    for name, role, path, headers in pages(game):
        response = clients[role].get(path, headers=headers)
        csp = response.headers.get("Content-Security-Policy", "")
        assert "default-src 'self'" in csp, name
        assert f"script-src 'self' {HTMX_CDN_URL};" in csp, name
        assert "frame-ancestors 'none'" in csp, name
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp, name
        assert response.headers["X-Content-Type-Options"] == "nosniff", name
        assert response.headers["Referrer-Policy"] == "no-referrer", name


def test_pages_carrying_an_edit_token_are_never_cached(editor, viewer, game):
    token_pages = [
        editor.get(f"/games/{game['id']}"),
        viewer.get(f"/games/{game['id']}/edit/{game['edit_token']}"),
    ]
    for response in token_pages:
        assert response.headers["Cache-Control"] == "no-store"


def test_a_security_header_a_response_chose_itself_is_kept(app):
    from flask import Response

    from scorekeeper.http import security

    chosen = Response("x", headers={"content-security-policy": "default-src 'none'"})
    with app.test_request_context("/"):
        headers = security._add_headers(chosen).headers
    assert headers.getlist("Content-Security-Policy") == ["default-src 'none'"]
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"
    assert headers["X-Frame-Options"] == "DENY"


def test_local_only_mode_allows_scripts_from_this_server_only(app, client):
    app.config["HTMX_LOCAL_ONLY"] = True
    response = client.get("/")
    assert "script-src 'self';" in response.headers["Content-Security-Policy"]
    local = static_url(app, HTMX_FILE)
    assert f'<script src="{local}" defer></script>' in response.get_data(as_text=True)


def test_pinned_htmx_is_loaded_with_the_integrity_of_the_vendored_file(app, client):
    digest = hashlib.sha384((STATIC / HTMX_FILE).read_bytes()).digest()
    integrity = "sha384-" + base64.b64encode(digest).decode()
    body = client.get("/").get_data(as_text=True)
    loader = re.escape(static_url(app, "htmx-loader.js"))
    tag = re.search(rf'<script type="module" src="{loader}"[^>]*>', body).group(0)
    assert f'data-cdn="{HTMX_CDN_URL}"' in tag
    assert f'data-integrity="{integrity}"' in tag
    loader = (STATIC / "htmx-loader.js").read_text()
    assert 'cdn.crossOrigin = "anonymous"' in loader
    assert 'cdn.integrity = me.dataset.integrity || ""' in loader


# --- cookies and HTTPS -----------------------------------------------------------------


def session_cookie(response):
    (cookie,) = [c for c in response.headers.getlist("Set-Cookie") if c.startswith("session=")]
    return cookie


def test_session_cookie_is_http_only_and_same_site_lax(viewer, game):
    cookie = session_cookie(viewer.get(f"/games/{game['id']}/edit/{game['edit_token']}"))
    assert "HttpOnly" in cookie
    assert "SameSite=Lax" in cookie
    assert "Secure" not in cookie  # plain HTTP on the local network


def test_the_session_cookie_follows_the_secret_key(app, game):
    browser = app.test_client()
    browser.get(f"/games/{game['id']}/edit/{game['edit_token']}")

    def may_edit():
        return 'id="deal-form"' in browser.get(f"/games/{game['id']}").get_data(as_text=True)

    assert may_edit()
    old_key = app.secret_key
    app.config.update(SECRET_KEY="a new key", SECRET_KEY_FALLBACKS=[old_key])
    assert may_edit()  # the cookie signed with the old key is still read
    app.config.update(SECRET_KEY_FALLBACKS=[])
    assert not may_edit()  # and without the old key, no longer


def test_https_scheme_from_the_environment_makes_the_cookie_secure(app, game, monkeypatch):
    monkeypatch.setenv("FLASK_PREFERRED_URL_SCHEME", "https")
    secure = create_app(
        {"SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"]}
    )
    assert secure.config["SESSION_COOKIE_SECURE"] is True
    response = secure.test_client().get(f"/games/{game['id']}/edit/{game['edit_token']}")
    assert "; Secure" in session_cookie(response)
    with secure.app_context():
        db.engine.dispose()


def test_behind_a_proxy_the_forwarded_scheme_and_host_are_used(app, game, monkeypatch):
    monkeypatch.setenv("FLASK_BEHIND_PROXY", "true")
    monkeypatch.setenv("FLASK_TRUSTED_HOSTS", "scores.example")
    proxied = create_app(
        {"SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"]}
    )
    forwarded = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "scores.example"}
    body = proxied.test_client().get(f"/games/{game['id']}", headers=forwarded)
    assert f"https://scores.example/games/{game['id']}" in body.get_data(as_text=True)
    with proxied.app_context():
        db.engine.dispose()


# --- escaping --------------------------------------------------------------------------


@pytest.fixture
def hostile(app, api):
    """A game whose player names are markup, with a deal, a correction and an API label."""
    document = api.create(players=HOSTILE)
    api.add(document, DEAL)
    headers = {**api.headers(document), "X-Device": SCRIPT}
    assert api.put(document, 1, {**DEAL, "bid": 5}, headers=headers).status_code == 200
    browser = app.test_client()
    browser.get(f"/games/{document['id']}/edit/{document['edit_token']}")
    return document, browser


def game_pages(app, game_id):
    """Return every GET address of the app that shows one game (whoever registered it)."""
    paths = []
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.rule.startswith(("/api/", "/static/")):
            continue
        if "game_id" not in rule.arguments or not rule.arguments <= {"game_id", "number"}:
            continue
        values = {"game_id": game_id, "number": 1} if "number" in rule.arguments else {}
        with app.test_request_context():
            from flask import url_for

            paths.append(url_for(rule.endpoint, **{"game_id": game_id, **values}))
    return paths


def assert_escaped(name, response):
    """No hostile name may reach an HTML or SVG page unescaped."""
    body = response.get_data(as_text=True)
    kind = response.mimetype
    if kind in {"text/html", "image/svg+xml"}:
        assert SCRIPT not in body, name
        assert "<img src=x" not in body, name
        assert "onerror=alert" not in body or "&lt;img" in body, name
    assert response.headers["X-Content-Type-Options"] == "nosniff", name


def test_hostile_names_are_escaped_on_every_page_that_shows_a_game(app, hostile):
    game, browser = hostile
    checked = []
    for path in game_pages(app, game["id"]):
        response = browser.get(path)
        if response.status_code in (301, 302, 303):
            continue
        assert response.status_code == 200, path
        if response.mimetype == "text/event-stream":
            response.close()  # versions only, and open for minutes: nothing to read here
            continue
        assert_escaped(path, response)
        checked.append(path)
    response = browser.get(f"/games/{game['id']}/live", headers={"HX-Request": "true"})
    assert_escaped("live", response)
    assert html.escape(SCRIPT, quote=False) in response.get_data(as_text=True)
    assert f"/games/{game['id']}" in checked
    assert f"/games/{game['id']}/deals/1/edit" in checked


def test_hostile_names_are_escaped_in_scoreboard_history_change_log_and_form(hostile):
    game, browser = hostile
    body = browser.get(f"/games/{game['id']}").get_data(as_text=True)
    escaped = html.escape(SCRIPT, quote=False)
    for section in ("scoreboard", "history", "change-log", "deal-entry"):
        part = body.split(f'id="{section}"', 1)[1]
        assert escaped in part, section
    assert "API: " + escaped in body  # the client's own device label is escaped too
    assert "&#34;&gt;&lt;img src=x onerror=alert(1)&gt;" in body


def test_hostile_names_are_listed_escaped_on_the_home_page(hostile):
    _game, browser = hostile
    response = browser.get("/")
    assert_escaped("home", response)
    assert html.escape(SCRIPT, quote=False) in response.get_data(as_text=True)


def test_hostile_names_come_back_exact_as_json(api, hostile):
    game, _browser = hostile
    response = api.client.get(f"/api/v1/games/{game['id']}")
    assert response.mimetype == "application/json"
    assert [p["name"] for p in response.get_json()["players"]] == HOSTILE


def test_exports_keep_names_as_data_never_formulas(app, hostile):
    game, browser = hostile
    exports = [path for path in game_pages(app, game["id"]) if path.endswith(".csv")]
    if not exports:
        pytest.skip("no CSV export of a game is registered")
    for path in exports:
        response = browser.get(path)
        assert response.mimetype == "text/csv", path
        body = response.get_data(as_text=True)
        assert "'" + FORMULA in body, path
        assert not re.search(r"(^|,)\"?" + re.escape(FORMULA), body, re.M), path
