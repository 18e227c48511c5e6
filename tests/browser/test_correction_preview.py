"""A correction previewed on a 390 x 844 phone: tap a choice, see every later total move."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import check_axe
from tests.browser.test_at_the_table import OPEN_TIE, new_game
from tests.browser.test_live import api

pytestmark = pytest.mark.browser


def test_a_tapped_correction_shows_its_preview_before_it_is_saved(page, live_server):
    game = new_game(live_server)
    for deal in OPEN_TIE["deals"][:5]:
        api(live_server, f"/api/v1/games/{game['id']}/deals", deal, game["edit_token"])
    page.goto(f"{live_server}/games/{game['id']}/edit/{game['edit_token']}")
    number, deal = next((n, d) for n, d in enumerate(OPEN_TIE["deals"][:5], 1) if "low" in d)
    link = page.get_by_role("link", name=f"Correct deal {number}", exact=True)
    if not link.is_visible():
        page.locator(f"#deal-{number} summary").first.click()
    link.click()
    expect(page.get_by_role("heading", name=re.compile(f"^Correct deal {number}"))).to_be_visible()
    preview = page.locator("#correction-preview")
    # As it opens, the stored deal: nothing would change.
    expect(preview).to_contain_text("The outcome stays")
    check_axe(page)

    # Low to the other side: the preview says what every later total becomes.
    players = OPEN_TIE["players"]
    side = {deal["bidder"], deal.get("partner")}
    other = deal["bidder"] if deal["low"] not in side else min(set(range(5)) - side)
    page.get_by_role("radio", name=f"Low: {players[other]}", exact=True).click()
    totals = page.locator("#correction-totals")
    expect(totals.locator(".correction-scores del").first).to_be_visible()
    rows = totals.locator(".correction-scores tbody tr")
    expect(rows).to_have_count(5 - number + 1)
    expect(preview).to_contain_text("If saved:")
    expect(preview.locator(".preview-outcome")).to_be_visible()
    check_axe(page)
    # Nothing was stored: the game page shows the same totals as before.
    page.get_by_role("link", name="Back to the game").click()
    expect(page.get_by_role("region", name="Scoreboard")).to_be_visible()


def test_the_correction_bar_opens_with_its_preview_and_keeps_its_height(page, live_server):
    game = new_game(live_server)
    for deal in OPEN_TIE["deals"][:3]:
        api(live_server, f"/api/v1/games/{game['id']}/deals", deal, game["edit_token"])
    page.goto(f"{live_server}/games/{game['id']}/edit/{game['edit_token']}")
    asked = []
    page.on("request", lambda r: asked.append(r.url) if r.url.endswith("/preview") else None)
    page.goto(f"{live_server}/games/{game['id']}/deals/2/edit", wait_until="domcontentloaded")
    # The stored deal comes previewed with the page: nothing is asked for as it opens.
    bar = page.locator("#correction-form .sticky-actions")
    expect(page.locator("#correction-preview")).to_contain_text("The outcome stays")
    opened = bar.bounding_box()
    page.wait_for_load_state("networkidle")
    assert asked == []
    assert bar.bounding_box() == opened

    # A tap's preview replaces it in the same place.
    players = OPEN_TIE["players"]
    deal = OPEN_TIE["deals"][1]
    taker = next(n for n in range(len(players)) if n != deal["high"])
    with page.expect_response(lambda r: r.url.endswith("/preview")):
        page.get_by_role("radio", name=f"High: {players[taker]}", exact=True).click()
    expect(page.locator("#correction-totals .correction-scores del").first).to_be_visible()
    assert len(asked) == 1
    assert bar.bounding_box()["height"] == opened["height"]
