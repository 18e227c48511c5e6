"""One game of each other ruleset on a phone-sized Chromium, axe-core clean at every step.

Five-Handed Schmier has its own whole game in test_table.py; here the six others are
chosen on the new-game page, set up and played deal by deal, three of them to the win.
"""

import re

import pytest
from playwright.sync_api import expect

from scorekeeper import engine
from tests.browser.conftest import PHONE, check_axe
from tests.browser.test_table import board, group, tap, wait_for

pytestmark = pytest.mark.browser


def start(page, live_server, ruleset, players, target=None):
    """Choose the ruleset with its chip, name the players, start; Ann deals first."""
    page.goto(live_server + "/games/new")
    # How many play first: the games for that many are offered.
    count = group(page, "How many are playing?").get_by_role("radio", name=str(len(players)))
    count.click()
    expect(count).to_be_checked()
    group(page, "Ruleset").get_by_role("radio", name=ruleset, exact=True).click()
    # The setup swaps in for that game: wait for it before typing, or the swap drops the names.
    rules = next(r for r in engine.rulesets() if r.name == ruleset)
    expect(page.locator("#ruleset-summary")).to_have_text(str(rules.summary))
    expect(page.locator('input[name^="players-"]')).to_have_count(rules.max_players)
    expect(group(page, "Ruleset").get_by_role("radio", name=ruleset, exact=True)).to_be_checked()
    for seat, name in enumerate(players):
        page.locator(f'input[name="players-{seat}"]').fill(name)
    check_axe(page)
    group(page, "First dealer").get_by_role("radio", name=players[0], exact=True).click()
    if target is not None:
        page.get_by_role("spinbutton", name="Target score").fill(str(target))
    page.get_by_role("button", name="Start game").click()
    expect(page.get_by_role("region", name="Scoreboard")).to_be_visible()
    check_axe(page)


def save(page, number):
    page.get_by_role("button", name="Save deal").click()
    wait_for(page, f"Deal {number} saved.")


def test_six_handed_schmier_to_the_win_with_teams_as_rows(page, live_server):
    start(page, live_server, "Six-Handed Schmier", ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"], 5)
    assert board(page) == [("Ann & Di", 0), ("Bob & Ed", 0), ("Cy & Flo", 0)]
    page.locator("#flag-thrown_in summary").click()
    page.get_by_role("button", name="Yes, save deal 1 as: Thrown in").click()
    wait_for(page, "Deal 1 thrown in")
    expect(page.get_by_role("region", name="Scoreboard")).to_contain_text("Ann deals next")
    tap(page, [("Bidder", "Bob"), ("Bid", "4"), ("Trump", "hearts"), ("High", "Bob"),
               ("Low", "Ed"), ("Jack", "Bob"), ("Off-jack", "Ed"), ("Joker", "Ann"),
               ("Game", "Bob & Ed")])  # fmt: skip
    page.get_by_role("button", name="Save deal").click()
    banner = page.get_by_role("region", name="Bob & Ed win!")
    expect(banner).to_be_visible()
    assert board(page) == [("Ann & Di", 1), ("Bob & Ed", 5), ("Cy & Flo", 0)]
    check_axe(page)


def test_shmear_play_at_2_a_forfeit_and_a_moon_that_wins(page, live_server):
    start(page, live_server, "Shmear", ["Ann", "Bob", "Cy"])
    assert board(page) == [("Ann", 0), ("Bob", 0), ("Cy", 0)]
    # Everyone passed and Ann, the dealer, plays at 2.
    page.get_by_role("checkbox", name="Everyone passed: the dealer plays at 2").check()
    tap(page, [("Trump", "hearts"), ("High", "Ann"), ("Low", "Ann"), ("Jack", "Not in play"),
               ("Game", "Ann")])  # fmt: skip
    save(page, 1)
    assert board(page) == [("Ann", 3), ("Bob", 0), ("Cy", 0)]
    check_axe(page)
    # Bob deals, everyone passes, and he forfeits (already at 0: he stays there).
    page.locator("#flag-forfeit summary").click()
    page.get_by_role("button", name="Yes, save deal 2 as: Everyone passed and the dealer").click()
    expect(page.locator("#deal-2")).to_contain_text(
        "Everyone passed and Bob, the dealer, forfeited."
    )
    # Ann, at 3, shoots the moon and takes all four: she wins at once.
    tap(page, [("Bidder", "Ann"), ("Bid", "Moon"), ("Trump", "spades"), ("High", "Ann"),
               ("Low", "Ann"), ("Jack", "Ann"), ("Game", "Ann")])  # fmt: skip
    page.get_by_role("button", name="Save deal").click()
    banner = page.get_by_role("region", name="Ann wins!")
    expect(banner).to_contain_text("shot the moon")
    check_axe(page)


def test_high_low_shmear_marks_the_pair(page, live_server):
    start(page, live_server, "High-Low Shmear", ["Ann", "Bob", "Cy", "Di"])
    expect(group(page, "Bid").get_by_role("radio", name="Moon")).to_have_count(0)
    tap(page, [("Bidder", "Bob"), ("Bid", "2"), ("Trump", "diamonds"), ("High", "Cy"),
               ("Low", "Di"), ("Jack", "Cy"), ("Game", "Cy")])  # fmt: skip
    save(page, 1)
    rows = page.locator("#scoreboard .score-row")
    expect(rows.filter(has_text="Cy")).to_contain_text("Pair")
    expect(rows.filter(has_text="Di")).to_contain_text("Pair")
    expect(rows.filter(has_text="Bob")).to_contain_text("Bidder")
    # One player may take both High and Low, and so plays alone.
    tap(page, [("Bidder", "Cy"), ("Bid", "3"), ("Trump", "clubs"), ("High", "Ann"),
               ("Low", "Ann"), ("Jack", "Not in play"), ("Game", "Ann")])  # fmt: skip
    save(page, 2)
    page.locator("#deal-2").get_by_text("Why this score").click()
    expect(page.locator("#deal-2")).to_contain_text("Ann played both High and Low")
    check_axe(page)


def test_partner_shmear_with_an_auction_and_smucks(page, live_server):
    start(page, live_server, "Partner Shmear", ["Ann", "Bob", "Cy", "Di"])
    expect(page.locator("#deal-form")).to_be_visible()
    tap(page, [("Bidder", "Bob"), ("Bid", "3"), ("Trump", "diamonds"), ("High", "Ann"),
               ("Low", "Di"), ("Jack", "Cy"), ("Game", "Ann & Cy")])  # fmt: skip
    save(page, 1)
    assert board(page) == [("Ann & Cy", 3), ("Bob & Di", 0)]
    expect(page.locator("#scoreboard .score-row").filter(has_text="Bob & Di")).to_contain_text(
        "1 smuck"
    )
    # Bob deals; the auction seat by seat names Di the bidder at 2.
    page.get_by_text("Auction, seat by seat (optional)").click()
    tap(page, [("Cy", "Pass"), ("Di", "2"), ("Ann", "Pass"), ("Bob", "Pass"),
               ("Trump", "clubs"), ("High", "Di"), ("Low", "Bob"), ("Jack", "Di"),
               ("Game", "Bob & Di")])  # fmt: skip
    save(page, 2)
    assert board(page) == [("Ann & Cy", 3), ("Bob & Di", 4)]
    expect(page.locator("#deal-2")).to_contain_text("Di bid 2")
    check_axe(page)


def test_shmear_with_a_kitty_and_the_game_counts_typed(page, live_server):
    start(page, live_server, "Shmear with a Kitty", ["Ann", "Bob", "Cy", "Di"])
    expect(page.locator('input[name^="game_points-"]')).to_have_count(4)
    tap(page, [("Bidder", "Ann"), ("Bid", "2"), ("Trump", "clubs"), ("High", "Ann"),
               ("Low", "Bob"), ("Jack", "Ann")])  # fmt: skip
    game = group(page, "Game")
    game.get_by_text("Enter counts").click()
    for name, count in (("Ann", 30), ("Bob", 10), ("Cy", 5), ("Di", 5)):
        game.get_by_role("spinbutton", name=name, exact=True).fill(str(count))
    save(page, 1)
    assert board(page) == [("Ann", 3), ("Bob", 1), ("Cy", 0), ("Di", 0)]
    expect(page.locator("#deal-1")).to_contain_text("30\u201310\u20135\u20135")
    check_axe(page)


def test_five_handed_euchre_alone_a_called_joker_and_the_win(page, live_server):
    start(page, live_server, "Five-Handed Euchre", ["Ann", "Bob", "Cy", "Di", "Ed"], 5)
    tap(page, [("Maker", "Bob"), ("Trump", "hearts"), ("Rank", "No card called (alone)")])
    # Going alone: the page fills in "No partner" and asks no suit.
    expect(group(page, "Partner").get_by_role("radio", name="No partner")).to_be_checked()
    expect(group(page, "Suit")).to_be_hidden()
    tap(page, [("Tricks", "5")])
    save(page, 1)
    assert ("Bob", 4) in board(page)
    check_axe(page)
    tap(page, [("Maker", "Cy"), ("Trump", "spades"), ("Rank", "2 of spades (the high joker)")])
    expect(group(page, "Suit")).to_be_hidden()
    expect(group(page, "Partner").get_by_role("radio", name="Cy", exact=True)).to_be_hidden()
    tap(page, [("Partner", "Di"), ("Tricks", "3")])
    save(page, 2)
    tap(page, [("Maker", "Bob"), ("Trump", "clubs"), ("Rank", "A"), ("Suit", "clubs"),
               ("Partner", "Ann"), ("Tricks", "3")])  # fmt: skip
    page.get_by_role("button", name="Save deal").click()
    expect(page.get_by_role("region", name="Bob wins!")).to_be_visible()
    assert board(page) == [("Ann", 1), ("Bob", 5), ("Cy", 1), ("Di", 1), ("Ed", 0)]
    check_axe(page)


def test_choosing_a_ruleset_without_javascript(browser, live_server):
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(live_server + "/games/new")
        group(page, "How many are playing?").get_by_role("radio", name="6").click()
        page.get_by_role("button", name="Show the setup of this game").click()
        expect(
            group(page, "Ruleset").get_by_role("radio", name="Five-Handed Schmier")
        ).to_have_count(0)
        group(page, "Ruleset").get_by_role("radio", name="Six-Handed Schmier").click()
        page.get_by_role("button", name="Show the setup of this game").click()
        expect(page.get_by_role("textbox", name="Player 6", exact=True)).to_be_visible()
        expect(page.locator("#teams-note")).to_contain_text(
            re.compile(r"Team 1:\s*seat 1 & seat 4")
        )
    finally:
        context.close()


def test_five_handed_euchre_says_euchred_in_the_preview_and_the_history(page, live_server):
    start(page, live_server, "Five-Handed Euchre", ["Ann", "Bob", "Cy", "Di", "Ed"])
    tap(page, [("Maker", "Bob"), ("Trump", "hearts"), ("Rank", "K"), ("Suit", "hearts"),
               ("Partner", "Di"), ("Tricks", "2")])  # fmt: skip
    outcome = page.locator(".preview-line .outcome")
    expect(outcome).to_have_text("euchred")
    save(page, 1)
    headline = page.locator("#deal-1 .contract .outcome")
    expect(headline).to_have_text("Euchred")
    expect(page.locator(".last-deal")).to_contain_text("euchred")
    expect(page.locator(".last-deal")).not_to_contain_text(re.compile(r"\bset\b"))
    check_axe(page)
