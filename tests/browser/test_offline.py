"""Phones without a connection: the viewer that lost the game says so and catches up."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.browser.test_live import DEAL_1_API, api, new_game

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
