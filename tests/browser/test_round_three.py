"""At the table, round three: every game starts at its own target; one tap stores one hand;
Rematch reaches one next game that every phone is offered; every recent line-up.

Phones at 390 x 844, each with its own cookies.
"""

import json
import re
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scorekeeper import engine
from tests.browser.conftest import PHONE, check_axe
from tests.browser.test_live import api as post
from tests.browser.test_table import group, tap

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]
GAMES = json.loads((Path(__file__).parents[1] / "data" / "five-handed-games.json").read_text())
OPEN_TIE = next(g for g in GAMES if g["about"] == "an open tie among opponents, then play on")
# Cy wins alone in its seventh deal.
SETUP = ("ruleset", "players", "first_dealer", "target", "house_rules")


def read(live_server, path):
    """GET the JSON API of the served app."""
    with urllib.request.urlopen(live_server + path, timeout=5) as response:
        return json.load(response)


def start_from_the_page(page, ruleset):
    """Tap the game's chip, type its players, tap Start; return the new game's id."""
    page.get_by_role("radio", name=ruleset.name, exact=True).check()
    for seat in range(ruleset.max_players):
        page.get_by_role("textbox", name=re.compile(f"^Player {seat + 1}\\b")).fill(NAMES[seat])
    page.get_by_role("button", name="Start game").click()
    expect(page.get_by_role("region", name="Scoreboard")).to_be_visible()
    return page.url.rsplit("/", 1)[1]


@pytest.mark.parametrize("javascript", [True, False], ids=["htmx", "no-js"])
def test_each_game_chosen_on_the_new_game_page_starts_at_its_own_target(
    browser, live_server, javascript
):
    context = browser.new_context(viewport=PHONE, java_script_enabled=javascript)
    page = context.new_page()
    try:
        for ruleset in engine.rulesets():
            page.goto(f"{live_server}/games/new")
            target = page.get_by_role("spinbutton", name="Target score")
            # How many play first: the games for that many are offered.
            count = group(page, "How many are playing?").get_by_role(
                "radio", name=str(ruleset.max_players)
            )
            count.check()
            if not javascript:
                page.get_by_role("button", name="Show the setup of this game").click()
            page.get_by_role("radio", name=ruleset.name, exact=True).check()
            if not javascript:
                page.get_by_role("button", name="Show the setup of this game").click()
            # The setup follows the game chosen: its hint and its target.
            expect(page.locator("#target-hint")).to_contain_text(
                f"{ruleset.name} is played to {ruleset.target}."
            )
            expect(target).to_have_value(str(ruleset.target))
            game_id = start_from_the_page(page, ruleset)
            scoreboard = page.get_by_role("region", name="Scoreboard")
            expect(scoreboard).to_contain_text(f"Target {ruleset.target}")
            game = read(live_server, f"/api/v1/games/{game_id}")
            assert (game["ruleset"], game["target"]) == (ruleset.id, ruleset.target)
        if javascript:
            check_axe(page)
        else:
            # Without JavaScript, a game's chip then Start at once: its own target too.
            euchre = next(r for r in engine.rulesets() if r.id == "five-handed-euchre")
            page.goto(f"{live_server}/games/new")
            game_id = start_from_the_page(page, euchre)
            expect(page.get_by_role("region", name="Scoreboard")).to_contain_text(
                f"Target {euchre.target}"
            )
            assert read(live_server, f"/api/v1/games/{game_id}")["target"] == euchre.target
    finally:
        context.close()


def test_a_target_the_player_typed_stays_when_the_game_changes(page, live_server):
    page.goto(f"{live_server}/games/new")
    page.get_by_role("spinbutton", name="Target score").fill("30")
    shmear = next(r for r in engine.rulesets() if r.id == "shmear")
    page.get_by_role("radio", name=shmear.name, exact=True).check()
    expect(page.locator("#target-hint")).to_contain_text("Shmear is played to 11.")
    expect(page.get_by_role("spinbutton", name="Target score")).to_have_value("30")
    game_id = start_from_the_page(page, shmear)
    assert read(live_server, f"/api/v1/games/{game_id}")["target"] == 30


# --- one tap stores one hand ------------------------------------------------------------

FIVE = ["Ann", "Bob", "Cy", "Di", "Ed"]
HAND = [
    ("Bidder", "Bob"), ("Bid", "4"), ("Trump", "hearts"), ("Rank", "K"), ("Suit", "hearts"),
    ("Partner", "Di"), ("High", "Di"), ("Low", "Ann"), ("Jack", "Bob"), ("Off-jack", "Cy"),
    ("Joker", "Bob"), ("Game", "Bidders"),
]  # fmt: skip
HAND_API = {
    "bidder": 1, "bid": 4, "trump": "H", "called_card": "KH", "partner": 3,
    "high": 3, "low": 0, "jack": 1, "off_jack": 2, "joker": 1, "game": "bidders",
}  # fmt: skip


@pytest.fixture
def two_phones(browser):
    """Two scorekeepers' phones at 390 x 844, each with its own cookies."""
    contexts = [browser.new_context(viewport=PHONE) for _ in range(2)]
    yield [context.new_page() for context in contexts]
    for context in contexts:
        context.close()


def test_taps_for_a_deal_another_phone_saved_are_never_saved_as_the_next_by_one_tap(
    two_phones, live_server
):
    phone_a, phone_c = two_phones
    game = post(live_server, "/api/v1/games", {"ruleset": "five-handed-schmier",
                                               "players": FIVE, "first_dealer": 0})  # fmt: skip
    for _ in range(2):
        post(live_server, f"/api/v1/games/{game['id']}/deals", HAND_API, game["edit_token"])
    for phone in two_phones:
        phone.goto(f"{live_server}/games/{game['id']}/edit/{game['edit_token']}")
        expect(phone.get_by_role("heading", name=re.compile("^Deal 3"))).to_be_visible()
    phone_c.evaluate("window.__samePage = true")

    # C taps half of deal 3; A enters deal 3 whole and saves it.
    tap(phone_c, HAND[:6])
    tap(phone_a, HAND)
    phone_a.get_by_role("button", name="Save deal").click()
    expect(phone_a.get_by_role("status").first).to_contain_text("Deal 3 saved.")

    # Where C's Save button was: what A saved, "Discard mine" first.
    held = phone_c.locator("#deal-conflict")
    expect(held).to_contain_text("Deal 3 was just saved by another phone:", timeout=3000)
    expect(held).to_contain_text("Bob bid 4: Made")
    expect(held).to_contain_text("High Di · Low Ann · Jack Bob")
    expect(phone_c.get_by_role("button", name="Save deal")).to_have_count(0)
    box = held.bounding_box()
    # Whole on the screen, to the sub-pixel the layout rounds a scrolled page to.
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"] + 0.5
    buttons = held.get_by_role("button")
    expect(buttons.first).to_have_text("Discard mine")
    expect(buttons.nth(1)).to_have_text("Save mine as deal 4")
    check_axe(phone_c)

    # C taps the rest of the hand, then the button under the thumb: nothing is stored.
    tap(phone_c, HAND[6:])
    buttons.first.click()
    expect(phone_c.get_by_role("status").first).to_contain_text("Your taps were discarded")
    expect(phone_c.get_by_role("heading", name=re.compile("^Deal 4"))).to_be_visible()
    expect(phone_c.locator("#deal-form input[type=radio]:checked")).to_have_count(0)
    assert len(read(live_server, f"/api/v1/games/{game['id']}")["deals"]) == 3

    # Saving them as the next deal is a second, explicit step.
    tap(phone_c, HAND[:6])
    post(live_server, f"/api/v1/games/{game['id']}/deals", HAND_API, game["edit_token"])
    expect(held).to_contain_text("Deal 4 was just saved by another phone:", timeout=3000)
    tap(phone_c, HAND[6:])
    phone_c.get_by_role("button", name="Save mine as deal 5").click()
    expect(phone_c.get_by_role("status").first).to_contain_text("Deal 5 saved.")
    numbers = [d["number"] for d in read(live_server, f"/api/v1/games/{game['id']}")["deals"]]
    assert numbers == [1, 2, 3, 4, 5]
    assert phone_c.evaluate("window.__samePage === true"), "the phone reloaded"


# --- one next game, offered to every phone ---------------------------------------------


@pytest.fixture
def three_phones(browser):
    """A scorekeeper, a second scorekeeper and a phone that only watches, at 390 x 844."""
    contexts = [browser.new_context(viewport=PHONE) for _ in range(3)]
    yield [context.new_page() for context in contexts]
    for context in contexts:
        context.close()


def test_rematch_is_made_once_and_every_phone_is_offered_the_next_game_live(
    three_phones, live_server
):
    keeper, second, watcher = three_phones
    game = post(live_server, "/api/v1/games", {k: OPEN_TIE[k] for k in SETUP})
    for deal in OPEN_TIE["deals"]:
        post(live_server, f"/api/v1/games/{game['id']}/deals", deal, game["edit_token"])
    url = f"{live_server}/games/{game['id']}"
    keeper.goto(f"{url}/edit/{game['edit_token']}")
    second.goto(f"{url}/edit/{game['edit_token']}")
    watcher.goto(url)
    for phone in (second, watcher):
        expect(phone.get_by_role("region", name="Cy wins!")).to_be_visible()
        phone.evaluate("window.__samePage = true")

    # A tap on Rematch, and the same phone's form posted once more (a second tap that
    # the browser sent after all): one next game.
    form = keeper.locator("form.rematch-form").first
    token = form.locator('input[name="csrf_token"]').input_value()
    form.get_by_role("button", name=re.compile("^Rematch")).click()
    expect(keeper.get_by_role("heading", name=re.compile("^Deal 1"))).to_be_visible()
    new_id = keeper.url.rsplit("/", 1)[1]
    assert new_id != game["id"]
    again = keeper.context.request.post(f"{url}/rematch", form={"csrf_token": token})
    assert again.ok and again.url.endswith(f"/games/{new_id}")
    assert read(live_server, f"/api/v1/games/{game['id']}")["next_game"] == new_id

    # The phones still on the finished game are offered it, live, without a reload.
    for phone in (second, watcher):
        offer = phone.get_by_role("link", name="Next game: tap to follow")
        expect(offer).to_be_visible(timeout=3000)
        assert phone.evaluate("window.__samePage === true"), "a phone reloaded"
    check_axe(watcher)
    watcher.get_by_role("link", name="Next game: tap to follow").click()
    expect(watcher).to_have_url(re.compile(f"/games/{new_id}$"))
    expect(watcher.get_by_role("region", name="Scoreboard")).to_contain_text("Deal 1 next")
    expect(watcher.locator("#deal-form")).to_have_count(0)  # a viewer stays a viewer
    second.get_by_role("link", name="Next game: tap to follow").click()
    expect(second).to_have_url(re.compile(f"/games/{new_id}$"))
    expect(second.locator("#deal-form")).to_be_visible()  # an editor goes on editing
    games_started = read(live_server, f"/api/v1/games/{game['id']}")["next_game"]
    assert games_started == new_id


def test_an_unfinished_game_offers_its_next_game_once_made_not_a_second_rematch(page, live_server):
    game = post(live_server, "/api/v1/games", {k: OPEN_TIE[k] for k in SETUP})
    url = f"{live_server}/games/{game['id']}"
    page.goto(f"{url}/edit/{game['edit_token']}")
    section = page.get_by_role("region", name="Next game")
    section.get_by_role("button", name=re.compile("^Rematch")).click()
    expect(page.get_by_role("heading", name=re.compile("^Deal 1"))).to_be_visible()
    new_id = page.url.rsplit("/", 1)[1]

    # Back on the unfinished game: its Next game section leads to the game made.
    page.goto(url)
    section = page.get_by_role("region", name="Next game")
    expect(section.get_by_role("button")).to_have_count(0)
    check_axe(page)
    section.get_by_role("link", name="Next game: tap to follow").click()
    expect(page).to_have_url(re.compile(f"/games/{new_id}$"))
    expect(page.locator("#deal-form")).to_be_visible()
