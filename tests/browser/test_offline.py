"""Phones without a connection: the viewer that lost the game says so and catches up."""

import json
import re
import urllib.request

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.browser.test_live import DEAL_1, DEAL_1_API, api, new_game, scores, tap
from tests.browser.test_table import pass_all

pytestmark = pytest.mark.browser

OFFLINE_MARK = re.compile(r"^Offline — last update \d{1,2}:\d{2}")


@pytest.fixture
def phone(browser):
    """One phone with its own cookies (and its own service worker); closed after the test."""
    context = browser.new_context(viewport=PHONE)
    yield context
    context.close()


def test_a_viewer_that_lost_the_game_says_since_when_and_catches_up_by_itself(phone, live_server):
    game = new_game(live_server)
    viewer = phone.new_page()
    viewer.goto(f"{live_server}/games/{game['id']}")
    expect(viewer.locator("html")).to_have_attribute("data-stream", "open")
    mark = viewer.locator("#offline-mark")
    expect(mark).to_be_hidden()

    phone.set_offline(True)
    expect(mark).to_be_visible()
    expect(mark).to_have_text(OFFLINE_MARK)
    expect(mark).to_have_attribute("role", "status")
    # The polls go on failing; the mark stays and keeps the time it last heard.
    shown = mark.inner_text()
    viewer.wait_for_timeout(2500)
    assert mark.inner_text() == shown

    # Meanwhile the scorekeeper saves a deal; the viewer cannot know yet.
    api(live_server, f"/api/v1/games/{game['id']}/deals", DEAL_1_API, game["edit_token"])
    expect(viewer.locator("#scoreboard")).not_to_contain_text("Deal 1:")

    phone.set_offline(False)
    expect(viewer.locator("#scoreboard")).to_contain_text("Deal 1:", timeout=5000)
    expect(mark).to_be_hidden()
    expect(viewer.locator("html")).to_have_attribute("data-stream", "open", timeout=10000)


def kept(page):
    """Return the lines of the deals kept on this phone, as the page lists them."""
    return page.locator("#outbox .outbox-deal p").all_inner_texts()


def deals(live_server, game):
    """Return the deals the server has stored for the game."""
    with urllib.request.urlopen(f"{live_server}/api/v1/games/{game['id']}", timeout=5) as answer:
        return json.load(answer)["deals"]


def open_as_editor(context, live_server, game):
    page = context.new_page()
    page.goto(f"{live_server}/games/{game['id']}/edit/{game['edit_token']}")
    expect(page.locator("#deal-form")).to_be_visible()
    page.wait_for_function("window.htmx !== undefined")
    return page


def test_a_deal_saved_with_no_signal_is_kept_on_the_phone_and_sent_by_itself(phone, live_server):
    game = new_game(live_server)
    editor = open_as_editor(phone, live_server, game)

    phone.set_offline(True)
    tap(editor, DEAL_1)
    editor.get_by_role("button", name="Save deal").click()
    expect(editor.locator("#game .flash")).to_contain_text(
        "Deal 1 saved on this phone, not sent yet"
    )
    expect(editor.get_by_role("region", name="Kept on this phone")).to_be_visible()
    assert kept(editor) == ["Deal 1: saved on this phone, not sent yet."]
    # The form is cleared for the next deal, as after a save.
    expect(editor.get_by_role("heading", name="Deal 2", exact=True)).to_be_visible()
    assert editor.locator('#deal-form input[name="number"]').input_value() == "2"
    assert editor.locator("#deal-form input:checked").count() == 0
    assert deals(live_server, game) == []

    # The tab is closed; the phone is back on a network whose server does not answer yet.
    editor.close()
    phone.route("**/deals", lambda route: route.fulfill(status=502, body="Bad gateway"))
    phone.set_offline(False)
    editor = phone.new_page()
    with editor.expect_response(lambda r: r.url.endswith("/deals") and r.status == 502):
        editor.goto(f"{live_server}/games/{game['id']}")
    expect(editor.locator("#outbox")).to_contain_text("Deal 1: saved on this phone, not sent yet.")
    assert deals(live_server, game) == []

    # The server answers again: deal 1 goes by itself, with no tap.
    phone.unroute("**/deals")
    expect(editor.locator("#scoreboard")).to_contain_text("Deal 1:", timeout=15000)
    expect(editor.locator("#outbox")).to_be_hidden()
    expect(editor.locator("#game .flash")).to_contain_text(
        "Every deal kept on this phone has been sent."
    )
    stored = deals(live_server, game)
    assert [d["number"] for d in stored] == [1]
    assert {k: stored[0][k] for k in DEAL_1_API} == DEAL_1_API
    assert scores(editor) == ["2", "4", "2", "4", "2"]
    expect(editor.get_by_role("heading", name=re.compile("^Deal 2"))).to_be_visible()


def test_two_deals_entered_offline_reach_the_server_in_order(phone, live_server):
    game = new_game(live_server)
    editor = open_as_editor(phone, live_server, game)

    phone.set_offline(True)
    tap(editor, DEAL_1)
    editor.get_by_role("button", name="Save deal").click()
    expect(editor.get_by_role("heading", name="Deal 2", exact=True)).to_be_visible()
    pass_all(editor, 2)
    expect(editor.get_by_role("heading", name="Deal 3", exact=True)).to_be_visible()
    assert kept(editor) == [
        "Deal 1: saved on this phone, not sent yet.",
        "Deal 2: saved on this phone, not sent yet.",
    ]

    phone.set_offline(False)
    expect(editor.locator("#outbox")).to_be_hidden(timeout=10000)
    stored = deals(live_server, game)
    assert [(d["number"], d["bidder"], d["thrown_in"]) for d in stored] == [
        (1, 1, False),
        (2, None, True),
    ]
    expect(editor.locator("#history")).to_contain_text("Deal 2", timeout=5000)
    assert scores(editor) == ["2", "4", "2", "4", "2"]
    expect(editor.get_by_role("heading", name=re.compile("^Deal 3"))).to_be_visible()


def test_a_kept_deal_another_phone_numbered_first_stays_until_the_scorekeeper_chooses(
    phone, live_server
):
    game = new_game(live_server)
    editor = open_as_editor(phone, live_server, game)
    phone.set_offline(True)
    tap(editor, DEAL_1)
    editor.get_by_role("button", name="Save deal").click()
    expect(editor.locator("#outbox")).to_be_visible()

    # Another phone saves deal 1 (everyone passed) while this one has no signal.
    thrown_in = {"number": 1, "thrown_in": True}
    api(live_server, f"/api/v1/games/{game['id']}/deals", thrown_in, game["edit_token"])
    phone.set_offline(False)
    line = editor.locator("#kept-1")
    expect(line).to_contain_text("Deal 1 was not sent:", timeout=10000)
    expect(line).to_contain_text("Deal 1 was just saved by another phone")
    # Kept, not dropped: still there after a reload, waiting for the scorekeeper.
    editor.reload()
    expect(editor.locator("#kept-1")).to_contain_text("Deal 1 was not sent:")
    editor.wait_for_timeout(1000)
    assert [d["number"] for d in deals(live_server, game)] == [1]

    editor.locator("#kept-1").get_by_role("button", name="Save as next deal").click()
    expect(editor.locator("#outbox")).to_be_hidden(timeout=10000)
    stored = deals(live_server, game)
    assert [(d["number"], d["bidder"]) for d in stored] == [(1, None), (2, 1)]
    expect(editor.locator("#history")).to_contain_text("Deal 2", timeout=5000)
    expect(editor.get_by_role("heading", name=re.compile("^Deal 3"))).to_be_visible()


def test_a_kept_deal_the_rules_refuse_goes_back_to_the_form_and_is_saved_from_there(
    phone, live_server
):
    game = new_game(live_server)
    editor = open_as_editor(phone, live_server, game)
    phone.set_offline(True)
    tap(editor, DEAL_1[:6])  # bidder to partner: the points are not entered yet
    editor.get_by_role("button", name="Save deal").click()
    expect(editor.locator("#outbox")).to_be_visible()

    phone.set_offline(False)
    line = editor.locator("#kept-1")
    expect(line).to_contain_text("Deal 1 was not saved:", timeout=10000)
    expect(line.get_by_role("button", name="Save as next deal")).to_have_count(0)
    line.get_by_role("button", name="Back to the form").click()
    expect(line).to_contain_text("Deal 1 is back in the form")
    expect(editor.get_by_role("heading", name="Deal 1", exact=True)).to_be_visible()
    bidder = editor.get_by_role("group", name="Bidder", exact=True)
    expect(bidder.get_by_role("radio", name="Bob", exact=True)).to_be_checked()
    assert deals(live_server, game) == []

    tap(editor, DEAL_1[6:])
    editor.get_by_role("button", name="Save deal").click()
    expect(editor.locator("#scoreboard")).to_contain_text("Deal 1:")
    expect(editor.locator("#outbox")).to_be_hidden()
    stored = deals(live_server, game)
    assert {k: stored[0][k] for k in DEAL_1_API} == DEAL_1_API
