"""The deal form's bar keeps its outline from the first tap, on a phone at 390 x 844.

Held at the bottom of the screen once something is tapped, the bar (the preview and Save)
keeps its place for the preview from that tap on: the preview, which comes from the server
150 ms after a tap, never raises the bar over a chip the next tap is already aimed at. And
what the page brings into view stops above the bar, not under it. The form is the tallest
there is: Five-Handed Schmier with five ten-letter names, in Indonesian.
"""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, check_axe
from tests.browser.test_live import api
from tests.browser.test_one_screen import NAMES, enter, played_deal

pytestmark = pytest.mark.browser

RULESET = "five-handed-schmier"
BAR = "#deal-form .sticky-actions"
SETTLED = """() => {
  window.__bars = [];
  document.body.addEventListener('htmx:afterSettle', (event) => {
    if (event.target.id !== 'deal-preview') return;
    const box = document.querySelector('#deal-form .sticky-actions').getBoundingClientRect();
    window.__bars.push(box.height);
  });
}"""
"""Note the bar's height each time a preview has settled in it."""


@pytest.fixture
def form(browser, live_server):
    """Open the deal form of a new game: the tallest, as a phone in Indonesian shows it."""
    context = browser.new_context(viewport=PHONE, locale="id-ID")
    page = context.new_page()
    game = api(
        live_server, "/api/v1/games", {"ruleset": RULESET, "players": NAMES[:5], "first_dealer": 0}
    )
    page.goto(f"{live_server}/games/{game['id']}/edit/{game['edit_token']}")
    expect(page.locator("#deal-form")).to_be_visible()
    yield page
    context.close()


def chip(page, name, value):
    """Return the radio of one chip: it covers its whole label, so a tap on the chip is its."""
    return page.locator(f'#deal-form input[name="{name}"][value="{value}"]')


def lay_above_bar(page, target, gap):
    """Scroll the page so that `target`'s bottom edge lies `gap` px above the bar's top."""
    target.evaluate(
        """(element, gap) => {
          const bar = document.querySelector('#deal-form .sticky-actions');
          const by = element.getBoundingClientRect().bottom - bar.getBoundingClientRect().top;
          window.scrollBy(0, by + gap);
        }""",
        gap,
    )


def tap_with_preview_held(page, name, value):
    """Tap one chip while the server's answer to its preview waits; return its release."""
    held = []

    def hold(route):
        held.append(route)

    page.context.route("**/preview", hold)
    enter(page, {name: value})
    for _ in range(100):  # the preview is asked 150 ms after the tap
        if held:
            break
        page.wait_for_timeout(20)
    assert held, "no preview was asked for"

    def release():
        for route in held:
            route.continue_()
        page.context.unroute("**/preview", hold)

    return release


def test_the_preview_arriving_moves_nothing_under_the_next_tap(form):
    page = form
    deal = played_deal(RULESET, 5)
    bar = page.locator(BAR)
    page.evaluate(SETTLED)

    # The first tap holds the bar at the bottom of the screen, its preview not come yet.
    release = tap_with_preview_held(page, "bidder", deal["bidder"])
    first = bar.bounding_box()
    assert first["y"] + first["height"] == pytest.approx(PHONE["height"], abs=0.5)
    expect(page.locator("#deal-preview")).to_be_empty()

    # A chip just above the bar, as a thumb finds one near the bottom of the screen.
    high = chip(page, "high", deal["high"])
    lay_above_bar(page, high, 2)
    box = high.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    at_point = f"() => document.elementFromPoint({x}, {y})?.id"
    chip_id = high.get_attribute("id")
    assert page.evaluate(at_point) == chip_id

    # The preview comes: the bar stays where it was, and the tap aimed at the chip is its.
    release()
    expect(page.locator("#deal-preview li").first).to_be_visible()
    assert bar.bounding_box() == pytest.approx(first, abs=0.5)
    assert page.evaluate(at_point) == chip_id
    page.mouse.click(x, y)
    expect(high).to_be_checked()

    # Every later tap and its preview, down to the whole deal's score: the same outline.
    enter(page, {k: v for k, v in deal.items() if k not in ("bidder", "high")})
    expect(page.locator("#deal-preview .preview-line")).to_be_visible()
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
    )
    heights = page.evaluate("window.__bars")
    assert len(heights) >= 2
    assert heights == pytest.approx([first["height"]] * len(heights), abs=0.5)
    check_axe(page)


def test_a_chip_brought_into_view_stops_above_the_held_bar(form):
    page = form
    deal = played_deal(RULESET, 5)
    bar = page.locator(BAR)
    enter(page, {"bidder": deal["bidder"]})
    expect(page.locator("#deal-preview li").first).to_be_visible()

    # A chip lying under the held bar is focused (as a tab to it does): it comes above.
    joker = chip(page, "joker", deal["joker"])
    lay_above_bar(page, joker, -60)
    assert joker.bounding_box()["y"] > bar.bounding_box()["y"]
    joker.focus()
    assert joker.bounding_box()["y"] + joker.bounding_box()["height"] <= bar.bounding_box()["y"]
