"""Counting Game on a phone at 390 x 844: tap who took each counting card, save the deal.

Five-Handed Schmier (bidders against opponents), Partner Shmear (two teams) and High-Low
Shmear (a count per player, pooled by the deal's pair), each in English and another of
the page's languages; and once without JavaScript, where "Use these counts" asks the
server to add the cards up.
"""

import json
import urllib.request

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, check_axe
from tests.browser.test_live import api
from tests.browser.test_one_screen import enter

pytestmark = pytest.mark.browser

GAMES = {
    "five-handed-schmier": {
        "players": ["Ann", "Bob", "Cy", "Di", "Ed"],
        "deal": {"bidder": 1, "bid": 4, "trump": "H", "called_card": "KH", "partner": 3,
                 "high": 3, "low": 0, "jack": 1, "off_jack": 2, "joker": 1},
        # The bidders took 10♥ 10♠ A♥ J♥ and the joker: 10 + 10 + 4 + 1 + 1 = 26; the
        # opponents 10♦ J♦ K♣: 10 + 1 + 3 = 14; 81 - 40 = 41 left (not dealt or not tapped).
        "taken": {"10H": 0, "10S": 0, "AH": 0, "JH": 0, "JOKER": 0, "10D": 1, "JD": 1, "KC": 1},
        "heads": {"en": ["Bidders", "Opponents"], "fr": ["Attaque", "Défense"]},
        "counts": [26, 14],
        "left": 41,
        "saved": {"bidders": 26, "opponents": 14},
        # Bob and Di made their 4 with Game; the others took Low and Off-jack.
        "scores": [2, 4, 2, 4, 2],
    },
    "shmear-partners": {
        "players": ["Ann", "Bob", "Cy", "Di"],
        "deal": {"bidder": 0, "bid": 2, "trump": "D", "high": 2, "low": 0, "jack": 1},
        # Ann & Cy took 10♠ 10♥ A♦ (24); Bob & Di J♦ 10♣ (11).
        "taken": {"10S": 0, "10H": 0, "AD": 0, "JD": 1, "10C": 1},
        "heads": {"en": ["Ann & Cy", "Bob & Di"], "de": ["Ann & Cy", "Bob & Di"]},
        "counts": [24, 11],
        "left": 45,
        "saved": [24, 11],
        # Ann & Cy: High, Low and Game, 3 on a bid of 2; Bob & Di: the Jack.
        "scores": [3, 1, 3, 1],
    },
    "shmear-high-low": {
        "players": ["Ann", "Bob", "Cy", "Di"],
        "deal": {"bidder": 2, "bid": 2, "trump": "C", "high": 1, "low": 2, "jack": 2},
        # Ann 10♠ (10), Bob 10♥ A♣ (14), Cy J♣ 10♦ (11), Di 10♣ K♥ (13): Bob played High
        # and Cy Low, so their 14 + 11 = 25 is the pair's, more than Ann's 10 or Di's 13.
        "taken": {"10S": 0, "10H": 1, "AC": 1, "JC": 2, "10D": 2, "10C": 3, "KH": 3},
        "heads": {"en": ["Ann", "Bob", "Cy", "Di"], "id": ["Ann", "Bob", "Cy", "Di"]},
        "counts": [10, 14, 11, 13],
        "left": 32,
        "saved": [10, 14, 11, 13],
        # The pair took High, Low, Jack and Game: 4 each.
        "scores": [0, 4, 4, 0],
    },
}  # fmt: skip
NOT_COUNTED = {
    "en": "Not counted",
    "fr": "Pas compté",
    "de": "Nicht gezählt",
    "id": "Tidak dihitung",
}
USE = {"en": "Use these counts", "fr": "Prendre ces points", "de": "Diese Augen übernehmen",
       "id": "Pakai hitungan ini"}  # fmt: skip
COUNT = {"en": "Count the cards…", "fr": "Compter les cartes…", "de": "Karten zählen…",
         "id": "Hitung kartu…"}  # fmt: skip
CASES = [(ruleset, language) for ruleset, game in GAMES.items() for language in game["heads"]]


def open_game(page, live_server, ruleset, language):
    game = GAMES[ruleset]
    created = api(
        live_server,
        "/api/v1/games",
        {"ruleset": ruleset, "players": game["players"], "first_dealer": 0},
    )
    page.goto(f"{live_server}/games/{created['id']}/edit/{created['edit_token']}")
    if language != "en":
        page.goto(f"{live_server}/language/{language}?next=/games/{created['id']}")
    expect(page.locator("#deal-form")).to_be_visible()
    return created


def open_counter(page, language):
    form = page.locator("#deal-form")
    form.locator("details.counts > summary").click()
    form.get_by_text(COUNT[language], exact=True).click()
    sheet = form.locator(".card-counter .counter-sheet")
    expect(sheet).to_be_visible()
    return sheet


def saved_deal(live_server, created):
    url = f"{live_server}/api/v1/games/{created['id']}/deals/1"
    with urllib.request.urlopen(url, timeout=5) as response:
        return json.load(response)


@pytest.mark.parametrize(("ruleset", "language"), CASES)
def test_counting_the_cards_fills_the_counts_and_the_saved_deal_scores_them(
    page, live_server, ruleset, language
):
    game = GAMES[ruleset]
    created = open_game(page, live_server, ruleset, language)
    enter(page, game["deal"])
    # Game chosen by hand first: the counts, once counted, decide it instead.
    page.locator('#deal-form input[name="game"]').first.click()
    sheet = open_counter(page, language)

    # A sheet over the form: the form keeps its height, the sheet its phone's width.
    box = sheet.bounding_box()
    assert box["width"] <= PHONE["width"] and box["y"] + box["height"] <= PHONE["height"] + 1
    heads = sheet.locator(".counter-totals .counter-side").all_inner_texts()
    assert heads == [*game["heads"][language], NOT_COUNTED[language]]
    expect(sheet.locator("output[data-left]")).to_have_text(str(sum_pack(ruleset)))

    running = [0] * len(game["counts"])
    for card, side in game["taken"].items():
        cell = sheet.locator(f'input[name="game_points_took_{card}"][value="{side}"]')
        cell.click()
        running[side] += value_of(sheet, card)
        expect(sheet.locator(f'output[data-total="{side}"]')).to_have_text(str(running[side]))
    assert running == game["counts"]
    expect(sheet.locator("output[data-left]")).to_have_text(str(game["left"]))
    # The counts below fill as the cards are tapped; the side chosen by hand gives way.
    for index, count in enumerate(game["counts"]):
        expect(page.locator(f"#game_points-{index}")).to_have_value(str(count))
    expect(page.locator('#deal-form input[name="game"]:checked')).to_have_count(0)
    check_axe(page)

    sheet.get_by_role("button", name=USE[language]).click()
    expect(sheet).to_be_hidden()
    expect(page.locator("#deal-preview .preview-line")).to_be_visible()
    check_axe(page)
    page.locator("#deal-form [data-save]").click()
    expect(page.locator("#deal-form .card-counter")).to_have_count(1)
    expect(page.locator("#deal-entry")).to_have_attribute("data-number", "2")
    deal = saved_deal(live_server, created)
    assert deal["game_points"] == game["saved"]
    assert deal["scores"] == game["scores"]


def sum_pack(ruleset):
    return 81 if ruleset == "five-handed-schmier" else 80


def value_of(sheet, card):
    """Return what the page says the card counts (the row's value, from the ruleset)."""
    row = sheet.locator(".counter-row").filter(
        has=sheet.page.locator(f'input[name="game_points_took_{card}"]')
    )
    return int(row.get_attribute("data-value"))


def test_the_counter_names_each_card_for_a_screen_reader(page, live_server):
    open_game(page, live_server, "five-handed-schmier", "en")
    sheet = open_counter(page, "en")
    sheet.get_by_role("radio", name="10 of hearts: Bidders", exact=True).click()
    sheet.get_by_role("radio", name="the joker: Opponents", exact=True).click()
    expect(sheet.locator('output[data-total="0"]')).to_have_text("10")
    expect(sheet.locator('output[data-total="1"]')).to_have_text("1")
    # Changed mind: the joker was not taken after all.
    sheet.get_by_role("radio", name="the joker: Not counted", exact=True).click()
    expect(sheet.locator('output[data-total="1"]')).to_have_text("0")
    expect(page.locator("#game_points-1")).to_have_value("0")
    page.keyboard.press("Escape")
    expect(sheet).to_be_hidden()


def test_without_javascript_use_these_counts_asks_the_server(browser, live_server):
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    try:
        game = GAMES["five-handed-schmier"]
        created = open_game(page, live_server, "five-handed-schmier", "fr")
        enter(page, game["deal"])
        sheet = open_counter(page, "fr")
        for card, side in game["taken"].items():
            sheet.locator(f'input[name="game_points_took_{card}"][value="{side}"]').click()
        sheet.get_by_role("button", name=USE["fr"]).click()
        # The page comes back with the counts filled, at the counter, nothing saved.
        for index, count in enumerate(game["counts"]):
            expect(page.locator(f"#game_points-{index}")).to_have_value(str(count))
        expect(page.locator(".card-counter > summary")).to_be_focused()
        expect(page.locator('output[data-total="0"]')).to_have_text("26")
        page.locator("#deal-form [data-save]").click()
        expect(page.locator("#deal-entry")).to_have_attribute("data-number", "2")
        assert saved_deal(live_server, created)["game_points"] == game["saved"]
    finally:
        context.close()
