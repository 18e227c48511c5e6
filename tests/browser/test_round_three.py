"""At the table, round three: every game starts at its own target; one tap stores one hand;
Rematch reaches one next game that every phone is offered; every recent line-up.

Phones at 390 x 844, each with its own cookies.
"""

import json
import re
import urllib.request

import pytest
from playwright.sync_api import expect

from scorekeeper import engine
from tests.browser.conftest import PHONE, check_axe

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]


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
