"""Phones at one table: the edit link's deals show up live on the view link's page."""

import json
import re
import urllib.request

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.browser.test_table import choice, pass_all

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Ed"]
DEAL_1 = [
    ("Bidder", "Bob"), ("Bid", "4"), ("Trump", "hearts"), ("Rank", "K"), ("Suit", "hearts"),
    ("Partner", "Di"), ("High", "Di"), ("Low", "Ann"), ("Jack", "Bob"), ("Off-jack", "Cy"),
    ("Joker", "Bob"), ("Game", "Bidders"),
]  # fmt: skip
DEAL_1_API = {
    "bidder": 1, "bid": 4, "trump": "H", "called_card": "KH", "partner": 3,
    "high": 3, "low": 0, "jack": 1, "off_jack": 2, "joker": 1, "game": "bidders",
}  # fmt: skip
# A guard against a page that never updates, not a speed limit: how fast a deal reaches
# another phone is measured by bench.live (`make bench`, docs/performance.md).
LIVE_WAIT = 20_000  # ms


def api(live_server, path, body, token=None):
    """Call the JSON API of the served app; return the decoded answer."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(
        live_server + path, data=json.dumps(body).encode(), headers=headers, method="POST"
    )
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.load(response)


def new_game(live_server):
    return api(
        live_server,
        "/api/v1/games",
        {"ruleset": "five-handed-schmier", "players": PLAYERS, "first_dealer": 0},
    )


def tap(page, choices):
    for legend, option in choices:
        choice(page, legend, option).click()


def scores(page):
    return page.locator("#scoreboard .score-row .score").all_inner_texts()


@pytest.fixture
def phones(browser):
    """Two phones with separate cookies; closed after the test."""
    contexts = [browser.new_context(viewport=PHONE) for _ in range(2)]
    yield [context.new_page() for context in contexts]
    for context in contexts:
        context.close()


def test_deal_saved_with_the_edit_link_appears_on_the_view_link_without_a_reload(
    phones, live_server
):
    editor, viewer = phones
    game = new_game(live_server)
    game_url = f"{live_server}/games/{game['id']}"

    polls = []
    viewer.on("response", lambda r: polls.append(r.status) if r.url.endswith("/live") else None)
    viewer.goto(game_url)
    viewer.evaluate("window.__samePage = true")
    # The view phone follows the game on its stream; while it is open, the scoreboard's
    # 2-second poll stands down: an unchanged game costs no request at all.
    expect(viewer.locator("html")).to_have_attribute("data-stream", "open")
    viewer.wait_for_timeout(2500)
    assert polls == []

    viewer.locator("#change-log summary").click()  # the reader opened the change log

    editor.goto(f"{game_url}/edit/{game['edit_token']}")
    assert editor.url == game_url  # the token left the address bar
    expect(editor.get_by_role("region", name="Share this game")).to_contain_text("Edit link")
    tap(editor, DEAL_1)
    editor.get_by_role("button", name="Save deal").click()
    expect(viewer.locator("#scoreboard")).to_contain_text("Deal 1:", timeout=LIVE_WAIT)
    assert viewer.evaluate("window.__samePage === true"), "the view phone reloaded"
    expect(editor.locator("#scoreboard")).to_contain_text("Deal 1:")
    assert scores(viewer) == scores(editor) == ["2", "4", "2", "4", "2"]
    expect(viewer.locator("#history")).to_contain_text("Deal 1")
    expect(viewer.get_by_text("Deal 1 entered")).to_be_visible()  # still open
    assert polls == [200], polls  # the stream told of deal 1: one request brought it

    # The view phone has no way to change anything …
    assert viewer.locator("form").count() == 0
    assert viewer.get_by_role("button").count() == 0
    assert viewer.get_by_role("link", name=re.compile("Correct|Undo|Edit link")).count() == 0
    assert game["edit_token"] not in viewer.content()
    # … no CSRF token either, and a forged post from it, with its token from a page that
    # has one, is refused.
    assert viewer.locator("body").get_attribute("hx-headers") is None
    new_game_page = viewer.request.get(f"{live_server}/games/new").text()
    token = re.search(r'"X-CSRFToken": "([^"]+)"', new_game_page).group(1)
    forged = viewer.request.post(
        f"{game_url}/deals", form={"csrf_token": token, "number": "2", "thrown_in": "1"}
    )
    assert forged.status == 403
    assert viewer.request.post(f"{game_url}/edit-link", form={}).status == 400
    viewer.wait_for_timeout(2500)
    assert scores(viewer) == ["2", "4", "2", "4", "2"]
    expect(viewer.locator("#history")).not_to_contain_text("Deal 2")

    # A reader who opened "Why this score" keeps it open when the next deal arrives.
    viewer.locator("#why-1 summary").click()
    pass_all(editor, 2)
    expect(viewer.locator("#history")).to_contain_text("Deal 2", timeout=LIVE_WAIT)
    expect(viewer.locator("#why-1")).to_have_attribute("open", "")


def test_without_a_stream_the_page_polls_and_still_shows_a_deal(browser, live_server):
    """A browser without EventSource (or behind a proxy that holds the stream) polls."""
    context = browser.new_context(viewport=PHONE)
    context.add_init_script("delete window.EventSource")
    viewer = context.new_page()
    try:
        game = new_game(live_server)
        polls = []
        viewer.on("response", lambda r: r.url.endswith("/live") and polls.append(r.status))
        viewer.goto(f"{live_server}/games/{game['id']}")
        viewer.evaluate("window.__samePage = true")
        # An unchanged game: the polls are answered 304 and nothing is swapped.
        viewer.wait_for_event(
            "response", lambda r: r.url.endswith("/live") and r.status == 304, timeout=LIVE_WAIT
        )
        assert viewer.locator("html").get_attribute("data-stream") is None
        api(live_server, f"/api/v1/games/{game['id']}/deals", DEAL_1_API, game["edit_token"])
        expect(viewer.locator("#scoreboard")).to_contain_text("Deal 1:", timeout=LIVE_WAIT)
        assert viewer.evaluate("window.__samePage === true"), "the page reloaded"
        assert 304 in polls and 200 in polls, polls
    finally:
        context.close()


def test_a_page_refused_a_stream_by_a_busy_server_polls_and_still_shows_a_deal(
    browser, live_app, live_server
):
    """Past LIVE_STREAMS_MAX open streams the server answers 503; the page polls instead."""
    context = browser.new_context(viewport=PHONE)
    viewer = context.new_page()
    most = live_app.config["LIVE_STREAMS_MAX"]
    live_app.config["LIVE_STREAMS_MAX"] = 0
    try:
        game = new_game(live_server)
        refused = []
        viewer.on("response", lambda r: r.url.endswith("/events") and refused.append(r.status))
        viewer.goto(f"{live_server}/games/{game['id']}")
        viewer.evaluate("window.__samePage = true")
        expect(viewer.locator("html")).to_have_attribute("data-stream", "down")
        api(live_server, f"/api/v1/games/{game['id']}/deals", DEAL_1_API, game["edit_token"])
        expect(viewer.locator("#scoreboard")).to_contain_text("Deal 1:", timeout=LIVE_WAIT)
        assert viewer.evaluate("window.__samePage === true"), "the page reloaded"
        assert refused and set(refused) == {503}, refused
    finally:
        live_app.config["LIVE_STREAMS_MAX"] = most
        context.close()


def test_phone_entering_the_same_deal_keeps_its_taps_and_is_told(phones, live_server):
    editor, idle = phones
    game = new_game(live_server)
    game_url = f"{live_server}/games/{game['id']}"
    editor.goto(f"{game_url}/edit/{game['edit_token']}")
    idle.goto(f"{game_url}/edit/{game['edit_token']}")
    tap(editor, DEAL_1[:6])

    # Another phone saves deal 1 first. The form being filled keeps every tap and the
    # deal they were for, and says what was saved instead, that notice whole on the screen
    # (tests/browser/test_conflict_in_view.py).
    api(live_server, f"/api/v1/games/{game['id']}/deals", DEAL_1_API, game["edit_token"])
    expect(editor.locator("#scoreboard")).to_contain_text("Deal 1:", timeout=LIVE_WAIT)
    expect(editor.get_by_role("heading", name=re.compile("^Deal 2"))).to_be_visible()
    expect(editor.locator("#deal-conflict")).to_contain_text(
        "Deal 1 was just saved by another phone:"
    )
    box = editor.locator("#deal-conflict").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"] + 1
    bidder = editor.get_by_role("group", name="Bidder", exact=True)
    expect(bidder.get_by_role("radio", name="Bob", exact=True)).to_be_checked()
    assert editor.locator('#deal-form input[name="number"]').input_value() == "1"

    # The phone nobody was tapping on simply shows the empty form for deal 2.
    expect(idle.get_by_role("heading", name=re.compile("^Deal 2"))).to_be_visible(timeout=LIVE_WAIT)
    expect(idle.locator("#deal-conflict")).to_have_count(0)
    assert idle.locator("#deal-form input[type=radio]:checked").count() == 0

    tap(editor, DEAL_1[6:])
    posted = f"/games/{game['id']}/deals"
    with editor.expect_response(lambda r: r.url.endswith(posted), timeout=LIVE_WAIT) as answer:
        editor.get_by_role("button", name="Save mine as deal 2").click()
    # A refusal says why on the form: name it here, with what the phone sent.
    status, sent = answer.value.status, answer.value.request.post_data
    assert status == 200, (status, sent, editor.locator("#deal-entry").inner_text())
    expect(editor.get_by_role("status").first).to_contain_text("Deal 2 saved.")
    expect(editor.locator("#deal-2")).to_be_visible()


def test_earlier_deals_a_phone_opened_stay_open_when_a_deal_is_saved(phones, live_server):
    _, viewer = phones
    body = {"ruleset": "five-handed-schmier", "players": PLAYERS, "target": 999}
    game = api(live_server, "/api/v1/games", body)
    deals = f"/api/v1/games/{game['id']}/deals"
    for _ in range(12):
        api(live_server, deals, DEAL_1_API, game["edit_token"])
    viewer.goto(f"{live_server}/games/{game['id']}")
    expect(viewer.locator("#deal-3")).to_be_visible()
    expect(viewer.locator("#deal-2")).to_have_count(0)
    viewer.get_by_role("link", name="Show the 2 earlier deals").click()
    expect(viewer.locator("#deal-1")).to_be_visible()

    # Someone saves deal 13 while this phone reads deal 1: it stays where it is.
    api(live_server, deals, DEAL_1_API, game["edit_token"])
    expect(viewer.locator("#deal-13")).to_be_visible(timeout=LIVE_WAIT)
    expect(viewer.locator("#history li.deal")).to_have_count(13)
    expect(viewer.locator("#deal-1")).to_be_visible()
    expect(viewer.get_by_role("link", name=re.compile("earlier deal"))).to_have_count(0)
