"""At the table, round four: the scorekeeper's deal form first, Undo beside the last deal,
messages that say the truth, and the night at a glance (issue 32, points 1, 3, 5 and 9).

Phones at 390 x 844, each with its own cookies.
"""

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, check_axe, server_board
from tests.browser.test_live import api

pytestmark = pytest.mark.browser

DATA = Path(__file__).parents[1] / "data"

NAMES = ["Margaretha", "Christophe", "Bernadette", "Maximilian", "Konstantin", "Alexandrea"]
PLAY = {"bidder": 1, "bid": 2, "trump": "H", "high": 1, "low": 2, "jack": 0, "game": 1}
"""A Shmear deal: Christophe bids 2 in hearts and makes it with High and Game."""
SET = {"bidder": 0, "bid": 4, "trump": "S", "high": 0, "low": 2, "jack": 3, "game": 2}
"""A Shmear deal: Margaretha bids 4 in spades and is set."""

BOXES = """() => Object.fromEntries(['#score-line', '#deal-entry-title', '#deal-entry .turn-line',
  '#deal-form legend', '#scoreboard', '#following'].map((s) => {
    const e = document.querySelector(s);
    const r = e && e.getBoundingClientRect();
    return [s, r ? {top: r.top + scrollY, bottom: r.bottom + scrollY} : null];
  }))"""


def shmear(live_server, deals=(PLAY, SET, PLAY), **house_rules):
    """Start a Shmear game of six ten-letter names and save these deals through the API."""
    game = api(
        live_server,
        "/api/v1/games",
        {"ruleset": "shmear", "players": NAMES, "first_dealer": 0, "house_rules": house_rules},
    )
    for deal in deals:
        api(live_server, f"/api/v1/games/{game['id']}/deals", deal, game["edit_token"])
    return game


def test_the_scorekeeper_sees_the_deal_form_on_the_first_screen(browser, live_server):
    game = shmear(live_server)
    url = f"{live_server}/games/{game['id']}"
    keeper = browser.new_context(viewport=PHONE).new_page()
    follower = browser.new_context(viewport=PHONE).new_page()
    try:
        keeper.goto(f"{url}/edit/{game['edit_token']}")
        boxes = keeper.evaluate(BOXES)
        # The form's heading (deal number, who deals, who bids first) and its first choice
        # start within the first screen, the scores in one line above them.
        for part in ("#deal-entry-title", "#deal-entry .turn-line", "#deal-form legend"):
            assert boxes[part]["bottom"] <= PHONE["height"], (part, boxes)
        line = keeper.get_by_role("region", name="Scores").get_by_role("listitem")
        assert [item.split() for item in line.all_inner_texts()] == [
            [name, score] for name, score in server_board(keeper)
        ]
        assert boxes["#score-line"]["bottom"] <= boxes["#deal-entry-title"]["top"]
        # The whole scoreboard follows the form.
        assert boxes["#scoreboard"]["top"] > boxes["#deal-form legend"]["top"], boxes
        expect(keeper.get_by_role("heading", name="Deal 4", exact=True)).to_be_in_viewport()
        check_axe(keeper)

        # A phone that only follows the game keeps the scoreboard first, without the line.
        follower.goto(url)
        boxes = follower.evaluate(BOXES)
        assert boxes["#score-line"] is None
        assert boxes["#scoreboard"]["top"] < boxes["#following"]["top"], boxes
        expect(follower.locator("#scoreboard .score-row").first).to_be_in_viewport()
        check_axe(follower)
    finally:
        keeper.context.close()
        follower.context.close()


def test_undo_beside_the_last_deal_asks_naming_it_without_javascript(browser, live_server):
    game = shmear(live_server)
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(f"{live_server}/games/{game['id']}/edit/{game['edit_token']}")
        last = page.locator("#deal-3")
        expect(page.locator("#deal-2").get_by_role("link", name="Undo deal 2")).to_have_count(0)
        last.get_by_role("link", name="Undo deal 3").click()
        # Its own page: the question names the deal and who deals it again.
        expect(page.get_by_role("heading", name="Undo deal 3")).to_be_visible()
        expect(page.locator("main")).to_contain_text(
            "Take deal 3 back? Its scores are removed and Bernadette deals it again."
        )
        page.get_by_role("link", name="Keep deal 3").click()
        expect(page.locator("#deal-3")).to_be_visible()
        page.locator("#deal-3").get_by_role("link", name="Undo deal 3").click()
        page.get_by_role("button", name="Yes, undo deal 3").click()
        expect(page.get_by_role("status").first).to_contain_text("Deal 3 undone.")
        expect(page.locator("#deal-3")).to_have_count(0)
        expect(page.get_by_role("heading", name="Deal 3", exact=True)).to_be_visible()
    finally:
        context.close()


def test_undo_beside_the_last_deal_asks_in_place_with_htmx(page, live_server):
    game = shmear(live_server)
    page.goto(f"{live_server}/games/{game['id']}/edit/{game['edit_token']}")
    url = page.url
    last = page.locator("#deal-3")
    undo = last.get_by_role("link", name="Undo deal 3")
    undo.scroll_into_view_if_needed()
    expect(undo).to_be_in_viewport()
    undo.click()
    # The question comes in the button's place, beside the deal: the page stays.
    question = last.locator("form.undo-confirm")
    expect(question).to_contain_text("Take deal 3 back?")
    assert page.url == url
    check_axe(page)
    question.get_by_role("button", name="Yes, undo deal 3").click()
    expect(page.get_by_role("status").first).to_contain_text("Deal 3 undone.")
    expect(page.locator("#deal-3")).to_have_count(0)
    expect(page.locator("#deal-entry")).to_have_attribute("data-number", "3")
    # The next last deal offers its own Undo.
    expect(page.locator("#deal-2").get_by_role("link", name="Undo deal 2")).to_be_visible()
    check_axe(page)
    # The question's own page (without JavaScript's) is as clean; an earlier deal has none.
    page.goto(f"{live_server}/games/{game['id']}/deals/2/undo")
    expect(page.get_by_role("heading", name="Undo deal 2")).to_be_visible()
    check_axe(page)
    page.goto(f"{live_server}/games/{game['id']}/deals/1/undo")
    expect(page.get_by_role("status").first).to_contain_text("deal 1 is no longer the last")


def night(page):
    """Open the game at a glance; return each side's line of counts."""
    glance = page.locator("details#night")
    expect(glance).not_to_have_attribute("open", "")
    glance.locator("summary").click()
    return [" ".join(line.split()) for line in glance.locator("li").all_inner_texts()]


def test_the_night_at_a_glance_under_the_scoreboard(browser, live_server):
    game = shmear(live_server)
    page = browser.new_context(viewport=PHONE).new_page()
    try:
        page.goto(f"{live_server}/games/{game['id']}")
        below = page.evaluate(
            "document.querySelector('#scoreboard').compareDocumentPosition("
            "document.querySelector('#night')) & Node.DOCUMENT_POSITION_FOLLOWING"
        )
        assert below
        assert night(page) == [
            "Margaretha Bids won 1 Bids set 1 Smucks 1",
            "Christophe Bids won 2 Bids made 2",
            *(f"{name} nothing yet" for name in NAMES[2:]),
        ]
        check_axe(page)

        # Euchre's own words: Bob named trump twice and was euchred once.
        data = json.loads((DATA / "other-rulesets-games.json").read_text())
        euchre = next(g for g in data if g["ruleset"] == "five-handed-euchre")
        body = {k: euchre[k] for k in ("ruleset", "players", "first_dealer", "target")}
        played = api(live_server, "/api/v1/games", body)
        for deal in euchre["deals"][:4]:
            api(live_server, f"/api/v1/games/{played['id']}/deals", deal, played["edit_token"])
        page.goto(f"{live_server}/games/{played['id']}/edit/{played['edit_token']}")
        lines = night(page)
        assert lines[1] == "Bob Named trump 2 Made 1 Euchred 1", lines
        check_axe(page)
    finally:
        page.context.close()


def test_a_refused_moon_says_the_score_below_0(page, live_server):
    game = shmear(live_server, deals=(SET,), negative_scores=True)
    page.goto(f"{live_server}/games/{game['id']}/edit/{game['edit_token']}")
    expect(page.locator("#scoreboard .score-row").first).to_contain_text("-4")
    form = page.locator("#deal-form")
    moon = {**PLAY, "bidder": 0, "bid": "moon"}
    for name, value in moon.items():
        form.locator(f'input[name="{name}"][value="{value}"]').click()
    refusal = "Only a player with a score of at least 1 may bid the moon, and Margaretha has -4."
    expect(page.locator("#deal-preview")).to_contain_text(refusal)
    form.get_by_role("button", name="Save deal").click()
    expect(form.locator("#bid-errors, .has-error .field-errors").first).to_contain_text(refusal)
    check_axe(page)


def test_the_auction_offers_only_higher_bids_and_refuses_beside_itself(page, live_server):
    game = api(
        live_server,
        "/api/v1/games",
        {"ruleset": "five-handed-schmier", "players": NAMES[:5], "first_dealer": 0},
    )
    page.goto(f"{live_server}/games/{game['id']}/edit/{game['edit_token']}")
    form = page.locator("#deal-form")
    form.locator("details.auction > summary").click()
    rows = form.locator("fieldset.call-row legend").all_inner_texts()
    bids = form.locator('input[name="auction-0"]').evaluate_all(
        "(inputs) => inputs.map((i) => i.value).filter((v) => v !== 'none')"
    )
    partner = form.locator('[data-field="partner"]')
    # Before any bid the partner may be anyone; nothing is struck out.
    for name in rows:
        expect(partner.get_by_text(name, exact=True)).to_be_visible()
    form.locator(f'input[name="auction-0"][value="{bids[1]}"]').click()
    # The first speaker bid: later rows offer only higher bids, the partner is someone else.
    for row in range(1, len(rows)):
        for bid in bids[:2]:
            expect(form.locator(f'input[name="auction-{row}"][value="{bid}"]')).to_be_disabled()
        expect(form.locator(f'input[name="auction-{row}"][value="{bids[2]}"]')).to_be_enabled()
    expect(partner.get_by_text(rows[0], exact=True)).to_be_hidden()
    expect(partner.get_by_text(rows[1], exact=True)).to_be_visible()
    form.locator(f'input[name="auction-1"][value="{bids[2]}"]').click()
    expect(partner.get_by_text(rows[0], exact=True)).to_be_visible()
    expect(partner.get_by_text(rows[1], exact=True)).to_be_hidden()
    check_axe(page)

    # A lower bid tapped first, a higher one before it after: refused beside the auction.
    page.reload()
    form.locator("details.auction > summary").click()
    form.locator(f'input[name="auction-1"][value="{bids[0]}"]').click()
    form.locator(f'input[name="auction-0"][value="{bids[1]}"]').click()
    beside = form.locator("details.auction #auction-refusals")
    expect(beside).to_contain_text("Each bid must beat every earlier bid")
    expect(page.locator("#deal-preview")).not_to_contain_text("Each bid must beat")
    form.get_by_role("button", name="Save deal").click()
    expect(form.locator("details.auction[open] #auction-errors")).to_contain_text(
        "Each bid must beat every earlier bid"
    )
    expect(form.locator(".form-errors")).to_have_count(0)
    check_axe(page)
