"""Shmear with the Jick and scores below 0 on a phone-sized Chromium (390x844), by tapping."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, check_axe
from tests.browser.test_table import board, group, tap, wait_for

pytestmark = pytest.mark.browser


def test_shmear_with_the_jick_and_scores_below_0_by_tapping(page, live_server):
    assert page.viewport_size == PHONE
    page.goto(live_server + "/games/new")
    group(page, "Ruleset").get_by_role("radio", name="Shmear", exact=True).click()
    expect(page.locator('input[name^="players-"]')).to_have_count(6)
    expect(group(page, "Play with the Jick")).to_contain_text("a fifth point; bids run 2 to 5.")
    for seat, name in enumerate(["Ann", "Bob", "Cy", "Di"]):
        page.locator(f'input[name="players-{seat}"]').fill(name)
    group(page, "First dealer").get_by_role("radio", name="Ann", exact=True).click()
    group(page, "Play with the Jick").get_by_role("radio", name="On", exact=True).click()
    group(page, "Scores can go below 0").get_by_role("radio", name="On", exact=True).click()
    check_axe(page)
    page.get_by_role("button", name="Start game").click()
    expect(page.get_by_role("region", name="Scoreboard")).to_be_visible()
    expect(page.locator(".game-house-rules")).to_have_text(
        "House rules: Play with the Jick · Scores can go below 0"
    )
    # The Jick is a row of the points grid, its card named in a fold under it.
    page.get_by_text("Which card is the Jick?", exact=True).click()
    expect(page.locator(".grid-hint .hint")).to_contain_text("J♣ when spades are trump")
    expect(group(page, "Bid").get_by_role("radio", name="5", exact=True)).to_be_visible()
    check_axe(page)

    # Bob bids 3 in spades and takes only the Jack; Di takes High, the Jick (J♣) and Game.
    tap(page, [("Bidder", "Bob"), ("Bid", "3"), ("Trump", "spades"), ("High", "Di"),
               ("Low", "Cy"), ("Jack", "Bob"), ("Jick", "Di"), ("Game", "Di")])  # fmt: skip
    expect(page.locator("#deal-preview")).to_contain_text("Bob -3")
    page.get_by_role("button", name="Save deal").click()
    wait_for(page, "Deal 1 saved.")
    assert board(page) == [("Ann", 0), ("Bob", -3), ("Cy", 1), ("Di", 3)]
    expect(page.locator("#deal-1")).to_contain_text("High, Jick and Game to Di.")
    check_axe(page)

    # Cy bids 5, the new top number bid, and takes all five points.
    tap(page, [("Bidder", "Cy"), ("Bid", "5"), ("Trump", "hearts"), ("High", "Cy"),
               ("Low", "Cy"), ("Jack", "Cy"), ("Jick", "Cy"), ("Game", "Cy")])  # fmt: skip
    page.get_by_role("button", name="Save deal").click()
    wait_for(page, "Deal 2 saved.")
    assert board(page) == [("Ann", 0), ("Bob", -3), ("Cy", 6), ("Di", 3)]
    check_axe(page)
