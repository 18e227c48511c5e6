"""A new edit link revokes the old one on the game its Rematch started too, tapped on two
phones at 390 x 844: the phone locked out keeps viewing the game being played, nothing more.
"""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.browser.test_live import api as post

pytestmark = pytest.mark.browser

SETUP = {"ruleset": "five-handed-schmier", "players": ["Ann", "Bob", "Cy", "Di", "Ed"]}


@pytest.fixture
def two_phones(browser):
    """The scorekeeper's phone and a phone given the edit link, later locked out."""
    contexts = [browser.new_context(viewport=PHONE) for _ in range(2)]
    yield [context.new_page() for context in contexts]
    for context in contexts:
        context.close()


def test_a_new_edit_link_locks_a_phone_out_of_the_next_game_too(two_phones, live_server):
    keeper, other = two_phones
    game = post(live_server, "/api/v1/games", SETUP | {"first_dealer": 0})
    url = f"{live_server}/games/{game['id']}"
    for phone in (keeper, other):
        phone.goto(f"{url}/edit/{game['edit_token']}")
    keeper.get_by_role("region", name="Next game").get_by_role(
        "button", name=re.compile("^Rematch")
    ).click()
    expect(keeper.get_by_role("heading", name=re.compile("^Deal 1"))).to_be_visible()
    next_url = keeper.url
    other.goto(url)
    other.get_by_role("link", name="Next game: tap to follow").first.click()
    expect(other).to_have_url(next_url)
    expect(other.locator("#deal-form")).to_be_visible()  # it edits the next game too

    # The scorekeeper makes a new edit link for the first game, to lock the other out.
    keeper.goto(url)
    keeper.get_by_text("Make a new edit link", exact=True).click()
    keeper.get_by_role("button", name="Yes, make a new edit link").click()
    expect(keeper.get_by_text("New edit link made.")).to_be_visible()

    # The other phone: the game being played is now view only for it.
    other.goto(next_url)
    expect(other.get_by_role("region", name="Scoreboard")).to_be_visible()
    expect(other.locator("#deal-form")).to_have_count(0)
    other.goto(f"{next_url}/edit/{game['edit_token']}")  # its old link grants nothing
    expect(other.locator("#deal-form")).to_have_count(0)
    # The scorekeeper goes on entering deals in it.
    keeper.goto(next_url)
    expect(keeper.locator("#deal-form")).to_be_visible()
