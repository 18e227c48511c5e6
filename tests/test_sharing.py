"""Share links, the edit capability, the live scoreboard and the change log."""

import html
import json
import re

import pytest
from flask import template_rendered
from sqlalchemy import event

from scorekeeper.extensions import db
from scorekeeper.http import devices
from scorekeeper.web import changes, links
from tests.conftest import DEAL, DEAL_FORM

ANDROID_CHROME = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 "
    "(KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36"
)


# --- helpers ---------------------------------------------------------------------------


def csrf(page_html):
    """Return the CSRF token a page carries (form field or htmx header)."""
    match = re.search(r'name="csrf_token" value="([^"]+)"', page_html)
    if match:
        return match.group(1)
    headers = re.search(r"<body hx-headers='([^']+)'", page_html).group(1)
    return json.loads(html.unescape(headers))["X-CSRFToken"]


def own_token(client):
    """Return this browser's CSRF token from a page with a form (a view-only game page has none)."""
    return csrf(client.get("/games/new").get_data(as_text=True))


def page(client, game_id, **kwargs):
    response = client.get(f"/games/{game_id}", **kwargs)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def poll_etag(page_html):
    """Return the If-None-Match value the page's scoreboard sends when it polls."""
    tag = re.search(r'<section id="scoreboard"[^>]*>', page_html).group(0)
    headers = re.search(r'hx-headers="([^"]+)"', tag).group(1)
    return json.loads(html.unescape(headers))["If-None-Match"]


def poll(client, game_id, etag=None):
    headers = {"HX-Request": "true"}
    if etag:
        headers["If-None-Match"] = etag
    return client.get(f"/games/{game_id}/live", headers=headers)


def join(client, game):
    return client.get(f"/games/{game['id']}/edit/{game['edit_token']}")


@pytest.fixture(autouse=True)
def no_lan(monkeypatch):
    """Keep the test client's localhost in links (a real server shares its LAN address)."""
    monkeypatch.setattr(links, "lan_address", lambda: None)


@pytest.fixture
def game(api):
    """A game created through the API: its document with the edit token."""
    return api.create()


@pytest.fixture
def editor(app, game):
    """A second browser that opened the edit link."""
    browser = app.test_client()
    assert join(browser, game).status_code == 303
    return browser


@pytest.fixture
def viewer(app):
    """A browser with only the view link."""
    return app.test_client()


# --- the edit link ---------------------------------------------------------------------


def test_edit_link_grants_editing_and_redirects_to_the_plain_address(viewer, game):
    response = join(viewer, game)
    assert response.status_code == 303
    assert response.headers["Location"] == f"/games/{game['id']}"
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    body = page(viewer, game["id"])
    assert 'id="deal-form"' in body
    assert "This device can now enter and correct deals." in body


def test_wrong_edit_link_is_refused_and_grants_nothing(viewer, game):
    response = viewer.get(f"/games/{game['id']}/edit/{game['edit_token']}x")
    assert response.status_code == 403
    assert "This edit link no longer works" in response.get_data(as_text=True)
    assert response.headers["Cache-Control"] == "no-store"
    assert 'id="deal-form"' not in page(viewer, game["id"])


def test_edit_link_of_an_unknown_game_is_not_found(viewer, game):
    assert viewer.get(f"/games/nosuchgame/edit/{game['edit_token']}").status_code == 404


def test_view_page_shows_the_view_link_and_its_qr_code_but_no_edit_token(viewer, game):
    body = page(viewer, game["id"])
    assert game["edit_token"] not in body
    assert "/edit/" not in body
    assert f"http://localhost/games/{game['id']}" in body
    assert body.count('<svg role="img"') == 2  # the view link's and the big screen's
    assert not re.search(r'<form[^>]*method="post"', body)


def test_editor_page_shows_both_links_with_qr_codes_and_is_not_cached(editor, game):
    response = editor.get(f"/games/{game['id']}")
    body = response.get_data(as_text=True)
    assert f"http://localhost/games/{game['id']}/edit/{game['edit_token']}" in body
    assert body.count('<svg role="img"') == 3  # and the big screen's
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["Referrer-Policy"] == "no-referrer"


def test_the_copy_a_phone_keeps_offline_is_the_editors_page_without_its_edit_link(editor, game):
    """The service worker keeps no page marked no-store: it asks for this copy instead
    (templates/offline/sw.js), which the deal form works from offline."""
    copy = editor.get(f"/games/{game['id']}", headers={"X-Offline-Copy": "1"})
    body = copy.get_data(as_text=True)
    assert copy.status_code == 200
    assert 'id="deal-form"' in body
    assert game["edit_token"] not in body and "/edit/" not in body
    assert body.count('<svg role="img"') == 2  # the view link's and the big screen's
    assert copy.headers["Cache-Control"] == "private, no-cache"
    assert "X-Offline-Copy" in copy.headers["Vary"]
    # Asked again (from the page cache), still the copy; the page itself still the link.
    again = editor.get(f"/games/{game['id']}", headers={"X-Offline-Copy": "1"})
    assert game["edit_token"] not in again.get_data(as_text=True)
    assert again.headers["Cache-Control"] == "private, no-cache"
    own = editor.get(f"/games/{game['id']}")
    assert game["edit_token"] in own.get_data(as_text=True)
    assert own.headers["Cache-Control"] == "no-store"
    assert "X-Offline-Copy" in own.headers["Vary"]


def test_a_viewers_copy_is_the_viewers_page(viewer, game):
    plain = viewer.get(f"/games/{game['id']}")
    copy = viewer.get(f"/games/{game['id']}", headers={"X-Offline-Copy": "1"})
    assert copy.get_data() == plain.get_data()
    assert "no-store" not in copy.headers["Cache-Control"]


def test_qr_code_is_large_dark_on_white_svg():
    svg = links.qr_svg("http://192.168.1.20:5000/games/abc/edit/" + "x" * 43, "QR <code>")
    width = int(re.search(r'width="(\d+)"', svg).group(1))
    assert 250 <= width <= 320
    assert 'viewBox="0 0 ' in svg
    assert 'stroke="#000"' in svg and 'fill="#fff"' in svg
    assert "<title>QR &lt;code&gt;</title>" in svg


def test_share_links_use_the_public_url_when_configured(app, viewer, game):
    app.config["PUBLIC_URL"] = "https://scores.example/"
    body = page(viewer, game["id"], base_url="http://127.0.0.1:5000")
    assert f"https://scores.example/games/{game['id']}" in body
    assert "make run HOST=0.0.0.0" not in body


def test_share_links_without_a_network_say_phones_cannot_open_them(viewer, game):
    body = page(viewer, game["id"], base_url="http://127.0.0.1:5000")
    assert f"http://127.0.0.1:5000/games/{game['id']}" in body
    assert "These links point at this computer only" in body


def test_share_links_on_a_network_address_need_no_note(viewer, game, monkeypatch):
    monkeypatch.setattr(links, "lan_address", lambda: "192.168.1.20")
    body = page(viewer, game["id"], base_url="http://192.168.1.20:5000")
    assert f"http://192.168.1.20:5000/games/{game['id']}" in body
    assert "make run HOST=0.0.0.0" not in body


def test_share_links_from_the_server_itself_use_its_lan_address(viewer, game, monkeypatch):
    monkeypatch.setattr(links, "lan_address", lambda: "192.168.1.20")
    body = page(viewer, game["id"], base_url="http://127.0.0.1:5000")
    assert f"http://192.168.1.20:5000/games/{game['id']}" in body
    assert "the links use its network address" in body


# --- revoking: a new edit token --------------------------------------------------------


def test_new_edit_link_revokes_old_links_sessions_and_api_tokens(app, api, editor, game):
    owner = app.test_client()
    join(owner, game)
    response = owner.post(
        f"/games/{game['id']}/edit-link", data={"csrf_token": csrf(page(owner, game["id"]))}
    )
    assert response.status_code == 303
    assert response.headers["Location"] == f"/games/{game['id']}#share"
    body = page(owner, game["id"])
    new_token = re.search(rf"/games/{game['id']}/edit/([\w-]+)", body).group(1)
    assert new_token != game["edit_token"]
    assert 'id="deal-form"' in body

    # The other phone's open page learns it on its next poll, where its deal form was …
    notice = poll(editor, game["id"], '"1-e"').get_data(as_text=True)
    assert '<section id="deal-entry" class="deal-entry" hx-swap-oob="true">' in notice
    assert "this phone can no longer enter deals" in notice
    still_editing = poll(owner, game["id"], '"1-e"').get_data(as_text=True)
    assert "can no longer enter deals" not in still_editing
    # … and its session held the old token: it may no longer change anything.
    other = page(editor, game["id"])
    assert 'id="deal-form"' not in other
    assert "X-CSRFToken" not in other
    refused = editor.post(
        f"/games/{game['id']}/deals",
        data={"csrf_token": own_token(editor), "number": "1", **DEAL_FORM},
    )
    assert refused.status_code == 403
    assert join(app.test_client(), game).status_code == 403
    assert api.post(game, DEAL).status_code == 403
    assert api.post({**game, "edit_token": new_token}, DEAL).status_code == 201


def test_only_an_editor_can_make_a_new_edit_link(api, viewer, game):
    token = own_token(viewer)
    response = viewer.post(f"/games/{game['id']}/edit-link", data={"csrf_token": token})
    assert response.status_code == 403
    assert api.post(game, DEAL).status_code == 201


# --- the live scoreboard ---------------------------------------------------------------


@pytest.fixture
def recorder(app):
    """Record the templates rendered and SQL statements run while a test polls."""
    seen = {"templates": [], "queries": []}

    def rendered(sender, template, context, **extra):
        seen["templates"].append(template.name)

    def executed(conn, cursor, statement, *args):
        seen["queries"].append(statement)

    template_rendered.connect(rendered, app)
    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", executed)
    yield seen
    event.remove(engine, "before_cursor_execute", executed)
    template_rendered.disconnect(rendered, app)


def test_page_scoreboard_polls_with_the_etag_of_what_it_shows(viewer, game):
    body = page(viewer, game["id"])
    tag = re.search(r'<section id="scoreboard"[^>]*>', body).group(0)
    assert f'hx-get="/games/{game["id"]}/live"' in tag
    assert 'hx-trigger="every 2s, live"' in tag
    assert poll_etag(body) == '"1-v"'


def test_unchanged_game_answers_304_without_rendering(viewer, game, recorder):
    etag = poll_etag(page(viewer, game["id"]))
    recorder["templates"].clear()
    recorder["queries"].clear()
    response = poll(viewer, game["id"], etag)
    assert response.status_code == 304
    assert response.data == b""
    assert response.headers["ETag"] == etag
    assert recorder["templates"] == []
    assert len(recorder["queries"]) <= 2  # the game row and its players


def test_a_deal_saved_elsewhere_comes_back_with_scores_history_and_change_log(api, viewer, game):
    etag = poll_etag(page(viewer, game["id"]))
    api.add(game, DEAL)
    response = poll(viewer, game["id"], etag)
    assert response.status_code == 200
    assert response.headers["ETag"] == '"2-v"'
    assert response.headers["Cache-Control"] == "no-cache, private"
    assert {"Cookie", "HX-Request"} <= set(response.vary)
    body = response.get_data(as_text=True)
    assert body.lstrip().startswith('<section id="scoreboard"')
    assert poll_etag(body) == '"2-v"'
    assert re.search(r'<section id="history" class="history"[^>]* hx-swap-oob="true"', body)
    assert 'id="change-log" class="change-log"' in body
    assert "Deal 1:</span>" in body  # the last contract, in one line
    assert "deal-form" not in body
    assert poll(viewer, game["id"], '"2-v"').status_code == 304


def test_editors_and_viewers_get_different_etags(editor, viewer, game):
    assert poll_etag(page(editor, game["id"])) == '"1-e"'
    assert poll_etag(page(viewer, game["id"])) == '"1-v"'
    assert poll(editor, game["id"], '"1-v"').status_code == 200


def test_live_address_opened_directly_leads_to_the_game_page(viewer, game):
    response = viewer.get(f"/games/{game['id']}/live")
    assert response.status_code == 303
    assert response.headers["Location"] == f"/games/{game['id']}"


def test_polling_an_unknown_game_is_not_found(viewer):
    assert poll(viewer, "nosuchgame").status_code == 404


# --- two phones entering the same deal -------------------------------------------------


def test_second_phone_saving_the_same_deal_is_told_and_keeps_its_entries(app, editor, game):
    first = app.test_client()
    join(first, game)
    first_page, second_page = page(first, game["id"]), page(editor, game["id"])
    saved = first.post(
        f"/games/{game['id']}/deals",
        data={"csrf_token": csrf(first_page), "number": "1", **DEAL_FORM},
    )
    assert saved.status_code == 303
    entries = {**DEAL_FORM, "bid": "5", "game": "opponents"}
    response = editor.post(
        f"/games/{game['id']}/deals",
        data={"csrf_token": csrf(second_page), "number": "1", **entries},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 409
    body = response.get_data(as_text=True)
    assert "Deal 1 was just saved by another phone:" in body
    assert 'id="deal-1"' in body  # the deal they collided with is shown
    for name, value in entries.items():
        assert re.search(rf'name="{name}"[^>]*value="{value}"[^>]*checked', body), name
    assert '<input name="number" type="hidden" value="1">' in body


# --- the change log --------------------------------------------------------------------


def test_change_log_traces_entry_correction_and_undo_to_a_device(editor, viewer, game):
    ua = {"User-Agent": ANDROID_CHROME}
    body = page(editor, game["id"], headers=ua)
    editor.post(
        f"/games/{game['id']}/deals",
        data={"csrf_token": csrf(body), "number": "1", **DEAL_FORM},
        headers=ua,
    )
    corrected = {**DEAL_FORM, "bid": "5", "jack": "0"}
    response = editor.post(
        f"/games/{game['id']}/deals/1/edit",
        data={"csrf_token": csrf(body), **corrected},
        headers=ua,
    )
    assert response.status_code == 303
    response = editor.post(
        f"/games/{game['id']}/deals/1/undo", data={"csrf_token": csrf(body)}, headers=ua
    )
    assert response.status_code == 303

    log = page(viewer, game["id"]).split('id="change-log"')[1]
    assert log.index("Deal 1 undone") < log.index("Deal 1 corrected") < log.index("Deal 1 entered")
    assert log.count("Chrome on Android #") == 3
    correction = log[log.index("Deal 1 corrected") : log.index("Deal 1 entered")]
    assert re.search(r"<dt>Bid</dt><dd><del>4</del> → <ins>5</ins>", correction)
    assert re.search(r"<dt>Jack</dt><dd><del>Bob</del> → <ins>Ann</ins>", correction)
    assert "Ann after this deal" in correction


def test_change_log_names_api_clients_by_their_label(api, viewer, game):
    api.post(game, DEAL, headers={**api.headers(game), "X-Device": "score-bot"})
    assert "API: score-bot" in page(viewer, game["id"])


# --- device labels ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("agent", "family"),
    [
        pytest.param(ANDROID_CHROME, "Chrome on Android", id="chrome-android"),
        pytest.param(
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
            "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
            "Safari on iPhone",
            id="safari-iphone",
        ),
        pytest.param(
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0",
            "Firefox on Windows",
            id="firefox-windows",
        ),
        pytest.param(
            "Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 Chrome/126.0 Safari/537.36 Edg/126.0",
            "Edge on Windows",
            id="edge",
        ),
        pytest.param("curl/8.5.0", "", id="unknown"),
        pytest.param(None, "", id="missing"),
    ],
)
def test_agent_family_names_browser_and_system(agent, family):
    assert devices.agent_family(agent) == family


def test_web_label_is_short_and_shown_with_a_shortened_id(app):
    label = devices.web_label("AbCdEfGhIjk", ANDROID_CHROME)
    assert label == "web:AbCdEfGhIjk · Chrome on Android"
    assert len(devices.web_label("x" * 100, ANDROID_CHROME)) == devices.MAX_LENGTH
    with app.test_request_context():
        assert changes.device_name(label) == "Chrome on Android #AbCd"
        assert changes.device_name("web:AbCdEf") == "Browser #AbCd"
        assert changes.device_name("api") == "API client"
        assert changes.device_name("bot") == "API: bot"
        assert changes.device_name(None) == "unknown device"
