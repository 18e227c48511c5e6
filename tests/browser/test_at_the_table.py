"""At the table, round two: every phone knows how the game stands; one-screen deal entry.

Phones at 390 x 844 (one in landscape, 844 x 390), each with its own cookies.
"""

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, check_axe
from tests.browser.test_live import LIVE_WAIT, api
from tests.browser.test_table import tap

pytestmark = pytest.mark.browser

GAMES = json.loads((Path(__file__).parents[1] / "data" / "five-handed-games.json").read_text())
OPEN_TIE = next(g for g in GAMES if g["about"] == "an open tie among opponents, then play on")
# Bob and Cy reach 23 in deal 6, neither bid nor partnered: the tie is left open (play on);
# Cy wins alone in deal 7.
FORM_MAX = 1300  # px, the limit for the whole deal form at 390 px wide
DEAL_1 = [
    ("Bidder", "Bob"), ("Bid", "4"), ("Trump", "hearts"), ("Rank", "K"), ("Suit", "hearts"),
    ("Partner", "Di"), ("High", "Di"), ("Low", "Ann"), ("Jack", "Bob"), ("Off-jack", "Cy"),
    ("Joker", "Bob"), ("Game", "Bidders"),
]  # fmt: skip
LANDSCAPE = {"width": 844, "height": 390}


@pytest.fixture
def phones(browser):
    """Three phones with separate cookies: two scorekeepers and one that only watches."""
    contexts = [browser.new_context(viewport=PHONE) for _ in range(3)]
    yield [context.new_page() for context in contexts]
    for context in contexts:
        context.close()


def new_game(live_server, game=OPEN_TIE):
    body = {k: game[k] for k in ("ruleset", "players", "first_dealer", "target", "house_rules")}
    return api(live_server, "/api/v1/games", body)


def enter(page, entry):
    """Tap an API entry into the deal form by the controls' names and values."""
    form = page.locator("#deal-form")
    for name, value in entry.items():
        if name == "called_card":
            form.locator(f'input[name="called_card_rank"][value="{value[:-1]}"]').click()
            form.locator(f'input[name="called_card_suit"][value="{value[-1]}"]').click()
        elif name == "game_points":
            form.locator("#game-group details.counts > summary").click()
            form.locator("#game_points-0").fill(str(value["bidders"]))
            form.locator("#game_points-1").fill(str(value["opponents"]))
        else:
            form.locator(f'input[name="{name}"][value="{value}"]').click()


def reaches(page, text):
    """Wait for the page's game state to say `text` (brought live: the test never reloads)."""
    expect(page.locator("#game-state")).to_contain_text(text, timeout=LIVE_WAIT)


def test_an_open_tie_and_the_win_reach_every_phone_live(phones, live_server):
    first, second, watcher = phones
    game = new_game(live_server)
    url = f"{live_server}/games/{game['id']}"
    for deal in OPEN_TIE["deals"][:5]:
        api(live_server, f"/api/v1/games/{game['id']}/deals", deal, game["edit_token"])
    first.goto(f"{url}/edit/{game['edit_token']}")
    second.goto(f"{url}/edit/{game['edit_token']}")
    watcher.goto(url)
    for page in phones:
        page.evaluate("window.__samePage = true")

    # The first scorekeeper saves deal 6: Bob and Cy tie at 23 and the rules leave it open.
    enter(first, OPEN_TIE["deals"][5])
    first.get_by_role("button", name="Save deal").click()
    expect(first.locator("#game-state")).to_contain_text("Tied at the top: Bob and Cy")
    for page in (watcher, second):
        reaches(page, "house rule: play on")
        region = page.get_by_role("region", name="Tied at the top: Bob and Cy")
        expect(region).to_contain_text("another deal is played")
        expect(region.get_by_role("link", name="The rule for this tie")).to_be_visible()
    # The second scorekeeper's form moved on to deal 7 by itself.
    expect(second.get_by_role("heading", name=re.compile("^Deal 7"))).to_be_visible()
    check_axe(watcher)
    check_axe(second)

    # The second scorekeeper saves deal 7: Cy wins alone, and every phone says so.
    enter(second, OPEN_TIE["deals"][6])
    second.get_by_role("button", name="Save deal").click()
    expect(second.get_by_role("region", name="Cy wins!")).to_be_visible()
    for page in (watcher, first):
        reaches(page, "Cy wins!")
        banner = page.get_by_role("region", name="Cy wins!")
        expect(banner).to_contain_text("28")
        expect(banner.get_by_role("link", name="The rule that decided")).to_be_visible()
    # The first scorekeeper's form is withdrawn: no deal can follow a won game.
    expect(first.locator("#deal-form")).to_have_count(0)
    expect(first.locator("#deal-entry")).to_contain_text("No more deals can be entered")
    for page in phones:
        assert page.evaluate("window.__samePage === true"), "a phone reloaded"
    check_axe(watcher)
    check_axe(first)


def test_the_deal_form_fits_one_screen_and_its_preview_is_what_is_saved(page, live_server):
    game = api(
        live_server,
        "/api/v1/games",
        {
            "ruleset": "five-handed-schmier",
            "players": ["Ann", "Bob", "Cy", "Di", "Ed"],
            "first_dealer": 0,
        },
    )
    page.goto(f"{live_server}/games/{game['id']}/edit/{game['edit_token']}")
    tap(page, DEAL_1[:2])
    # Bidder chosen: the bidding side's column is marked in the points grid.
    expect(page.locator('.grid-head [data-seat="1"]')).to_have_class(re.compile("on-bid"))
    tap(page, DEAL_1[2:])
    expect(page.locator('.grid-head [data-seat="3"]')).to_have_class(re.compile("on-bid"))
    preview = page.locator("#deal-preview")
    expect(preview).to_contain_text("If saved:")
    expect(preview).to_contain_text("made")
    shown = preview.locator(".preview-side").all_inner_texts()
    height = page.evaluate(
        "document.querySelector('form#deal-form').getBoundingClientRect().height"
    )
    print(f"\nthe deal form is {height:.0f} px tall at 390 px, preview included")
    assert height <= FORM_MAX
    check_axe(page)

    page.get_by_role("button", name="Save deal").click()
    expect(page.get_by_role("status").first).to_contain_text("Deal 1 saved.")
    rows = page.locator("#scoreboard .score-row")
    saved = [
        f"{name} {delta}"
        for name, delta in zip(
            rows.locator(".name").all_inner_texts(),
            rows.locator(".delta").all_inner_texts(),
            strict=True,
        )
    ]
    assert [re.sub(r"\s+to \d+$", "", s.strip()) for s in shown] == saved
    expect(page.locator("#scoreboard")).to_contain_text("needs 17")
    expect(page.locator("#scoreboard .last-deal")).to_contain_text("Bob 4")
    expect(page.locator("#scoreboard .last-deal")).to_contain_text("Di: made")
    check_axe(page)


def test_rematch_in_one_tap_and_a_recent_line_up_in_two(page, live_server):
    game = new_game(live_server)
    for deal in OPEN_TIE["deals"]:
        api(live_server, f"/api/v1/games/{game['id']}/deals", deal, game["edit_token"])
    page.goto(f"{live_server}/games/{game['id']}/edit/{game['edit_token']}")
    page.get_by_role("region", name="Cy wins!").get_by_role(
        "button", name=re.compile("^Rematch")
    ).click()
    expect(page.get_by_role("status").first).to_contain_text("Rematch started. Ann deals first.")
    expect(page.get_by_role("heading", name=re.compile("^Deal 1"))).to_be_visible()
    new_id = page.url.rsplit("/", 1)[1]
    assert new_id != game["id"]
    check_axe(page)

    # Two taps from the new-game page: the line-up, then Start.
    page.goto(f"{live_server}/games/new")
    check_axe(page)
    lineups = page.get_by_role("region", name="Same players again?")
    lineups.get_by_role("link", name="Ann, Bob, Cy, Di, Ed").first.click()  # tap 1
    expect(page.get_by_role("textbox", name="Player 3", exact=True)).to_have_value("Cy")
    page.get_by_role("button", name="Start game").click()  # tap 2
    expect(page.get_by_role("region", name="Scoreboard")).to_contain_text("Ed")
    assert page.url.rsplit("/", 1)[1] not in (game["id"], new_id)


def test_landscape_puts_the_scoreboard_beside_the_deal_entry(browser, live_server):
    context = browser.new_context(viewport=LANDSCAPE)
    try:
        page = context.new_page()
        game = new_game(live_server)
        page.goto(f"{live_server}/games/{game['id']}/edit/{game['edit_token']}")
        board = page.locator("#scoreboard").bounding_box()
        entry = page.locator("#deal-entry").bounding_box()
        assert board["x"] + board["width"] <= entry["x"], (board, entry)
        assert entry["y"] < LANDSCAPE["height"] and board["y"] < LANDSCAPE["height"]
        assert entry["width"] > 400
        tap(page, DEAL_1[:3])
        check_axe(page)
    finally:
        context.close()


@pytest.mark.parametrize("language", ["en", "fr", "de", "id"])
def test_no_choice_breaks_mid_word_at_390_px(page, live_server, language):
    game = api(
        live_server,
        "/api/v1/games",
        {
            "ruleset": "five-handed-schmier",
            "players": ["Ann", "Bob", "Cy", "Di", "Ed"],
            "first_dealer": 0,
        },
    )
    url = f"/games/{game['id']}/edit/{game['edit_token']}"
    page.goto(f"{live_server}/language/{language}?next={url}")
    expect(page.locator("#deal-form")).to_be_visible()
    broken = page.evaluate("""() => Array.from(document.querySelectorAll(
        '#deal-form .chip > span, #deal-form .col-name, #deal-form .row-label'))
      .filter((s) => s.textContent.trim() && !/\\s/.test(s.textContent.trim()))
      .filter((s) => {
        const range = document.createRange();
        range.selectNodeContents(s);
        return new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top))).size > 1;
      })
      .map((s) => s.textContent.trim())""")
    assert broken == []


def test_the_dark_theme_draws_the_chart_dark(page, live_server):
    game = new_game(live_server)
    for deal in OPEN_TIE["deals"][:3]:
        api(live_server, f"/api/v1/games/{game['id']}/deals", deal, game["edit_token"])
    page.emulate_media(color_scheme="dark")
    page.goto(f"{live_server}/games/{game['id']}/sheet")
    background = page.locator(".chart-figure").evaluate("e => getComputedStyle(e).backgroundColor")
    assert background != "rgb(255, 255, 255)"
    check_axe(page)
