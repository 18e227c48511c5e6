"""A phone in landscape (844 x 390): the scoreboard stays in view beside the form and history."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import check_axe
from tests.browser.test_at_the_table import LANDSCAPE, OPEN_TIE, new_game
from tests.browser.test_live import api

pytestmark = pytest.mark.browser

IN_VIEW = """() => {
  const box = document.querySelector('#scoreboard').getBoundingClientRect();
  const row = document.querySelector('#scoreboard .score-row').getBoundingClientRect();
  return {top: box.top, bottom: box.bottom, row_top: row.top, row_bottom: row.bottom,
          scrolled: window.scrollY, height: innerHeight};
}"""


def test_once_scrolled_the_scoreboard_stays_beside_the_form(browser, live_server):
    context = browser.new_context(viewport=LANDSCAPE)
    try:
        page = context.new_page()
        game = new_game(live_server)
        for deal in OPEN_TIE["deals"][:5]:
            api(live_server, f"/api/v1/games/{game['id']}/deals", deal, game["edit_token"])
        page.goto(f"{live_server}/games/{game['id']}/edit/{game['edit_token']}")
        expect(page.locator("#deal-form")).to_be_visible()
        for target in ("#deal-form button[data-save]", "#history"):
            page.locator(target).scroll_into_view_if_needed()
            page.mouse.wheel(0, 600)
            page.wait_for_timeout(200)
            seen = page.evaluate(IN_VIEW)
            assert seen["scrolled"] > LANDSCAPE["height"], seen
            assert seen["row_top"] >= 0 and seen["row_bottom"] <= seen["height"], seen
        # The side scrolls by itself when taller than the screen, and a keyboard can reach it.
        side = page.get_by_role("region", name="How the game stands")
        side.focus()
        expect(side).to_be_focused()
        check_axe(page)
    finally:
        context.close()
