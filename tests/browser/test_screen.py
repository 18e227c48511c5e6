"""The big screen at the table: a laptop's 1280 x 720 in landscape, read from across it."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, check_axe
from tests.browser.test_live import DEAL_1_API, LIVE_WAIT, api, new_game

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1280, "height": 720}
READABLE_PX = 30
"""The smallest text on the big screen, in CSS pixels at 1280 x 720: about 9 mm on a
15-inch laptop, big enough to read at 3 m."""
SCORE_PX = 90
"""The scores' size at 1280 x 720."""


@pytest.fixture
def laptop(browser):
    context = browser.new_context(viewport=LAPTOP)
    yield context.new_page()
    context.close()


def font_px(locator):
    return float(locator.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))


def bottom(locator):
    return locator.evaluate("e => e.getBoundingClientRect().bottom")


def in_language(page, live_server, language, url):
    page.goto(f"{live_server}/language/{language}?next={url}")


def test_the_big_screen_follows_the_game_live_and_is_read_from_across_the_table(
    laptop, live_server
):
    game = new_game(live_server)
    laptop.goto(f"{live_server}/games/{game['id']}/screen")
    laptop.evaluate("window.__samePage = true")
    screen = laptop.locator("#screen")
    expect(screen.locator(".screen-turn")).to_have_text("Ann deals · Bob bids first")
    expect(screen.locator(".screen-target")).to_have_text("Target 21 · Deal 1 next")
    expect(laptop.locator("html")).to_have_attribute("data-stream", "open")
    check_axe(laptop)

    api(live_server, f"/api/v1/games/{game['id']}/deals", DEAL_1_API, game["edit_token"])
    expect(screen.locator(".screen-last")).to_contain_text("Deal 1:", timeout=LIVE_WAIT)
    assert laptop.evaluate("window.__samePage === true"), "the big screen reloaded"
    assert screen.locator(".screen-score").all_inner_texts() == ["2", "4", "2", "4", "2"]
    expect(screen.locator(".screen-needs").nth(1)).to_have_text("needs 17")
    expect(screen.locator(".screen-turn")).to_have_text("Bob deals · Cy bids first")
    expect(screen.locator(".screen-last")).to_contain_text("Bob 4")
    expect(screen.locator(".screen-last")).to_contain_text("made")

    # Landscape first: all of it on one screen, every word large.
    assert bottom(screen.locator(".screen-last")) <= LAPTOP["height"]
    assert laptop.evaluate("document.documentElement.scrollWidth") <= LAPTOP["width"]
    assert min(font_px(s) for s in screen.locator(".screen-score").all()) >= SCORE_PX
    for part in (".screen-name", ".screen-needs", ".screen-turn", ".screen-last", "h1"):
        sizes = [font_px(element) for element in screen.locator(part).all()]
        assert min(sizes) >= READABLE_PX, (part, sizes)
    # Nothing on it changes the game, and it holds no CSRF token.
    assert laptop.locator("form, button, input").count() == 0
    assert laptop.locator("body").get_attribute("hx-headers") is None
    check_axe(laptop)


def test_the_win_and_its_reason_fill_the_big_screen_in_french(laptop, live_server):
    game = api(
        live_server,
        "/api/v1/games",
        {
            "ruleset": "five-handed-schmier",
            "players": ["Ann", "Bob", "Cy", "Di", "Ed"],
            "first_dealer": 0,
            "target": 4,
        },
    )
    url = f"/games/{game['id']}/screen"
    in_language(laptop, live_server, "fr", url)
    screen = laptop.locator("#screen")
    expect(screen.locator(".screen-turn")).to_have_text("Ann donne · Bob parle en premier")
    expect(laptop.locator("html")).to_have_attribute("data-stream", "open")
    check_axe(laptop)

    api(live_server, f"/api/v1/games/{game['id']}/deals", DEAL_1_API, game["edit_token"])
    win = screen.locator(".screen-win")
    expect(win.locator(".screen-win-title")).to_have_text("Bob gagne !", timeout=LIVE_WAIT)
    expect(win.locator(".screen-win-reason")).not_to_be_empty()
    assert font_px(win.locator(".screen-win-title")) >= SCORE_PX * 0.75
    assert font_px(win.locator(".screen-win-reason")) >= READABLE_PX
    expect(screen.locator(".screen-side.is-winner")).to_contain_text("Bob")
    expect(screen.locator(".screen-turn")).to_have_count(0)  # nobody deals any more
    assert bottom(screen.locator(".screen-last")) <= LAPTOP["height"]
    check_axe(laptop)


def test_the_share_section_leads_to_the_big_screen_which_fits_a_phone_too(page, live_server):
    game = new_game(live_server)
    in_language(page, live_server, "de", f"/games/{game['id']}")
    share = page.get_by_role("region", name="Diese Partie teilen")
    figure = share.locator("figure", has_text="Großer Bildschirm")
    expect(figure.get_by_role("img", name="QR-Code des großen Bildschirms")).to_be_visible()
    link = figure.get_by_role("link")
    path = f"/games/{game['id']}/screen"
    # The link carries the server's network address, which phones reach and this test not.
    assert link.get_attribute("href").endswith(path)
    page.goto(live_server + path)
    expect(page.locator(".screen-turn")).to_have_text("Ann gibt · Bob bietet zuerst")
    assert page.viewport_size == PHONE
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for element in page.locator("#screen *").all():
        box = element.bounding_box()
        assert box is None or box["x"] + box["width"] <= PHONE["width"] + 0.5
    check_axe(page)
