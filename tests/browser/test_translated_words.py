"""A French phone: the games and their points are named in French, from choosing to scoring."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, check_axe
from tests.test_i18n import translated

pytestmark = pytest.mark.browser


def fr(msgid, **values):
    return translated("fr", msgid) % values if values else translated("fr", msgid)


def test_a_french_table_chooses_and_scores_a_game_in_french_words(browser, live_server):
    context = browser.new_context(viewport=PHONE, locale="fr-FR")
    page = context.new_page()
    try:
        page.goto(f"{live_server}/games/new")
        kitty = fr("Shmear with a Kitty")
        page.get_by_role("radio", name=kitty, exact=True).check()
        expect(page.locator("#target-hint")).to_contain_text(
            fr(
                "The first to reach it (or more) at the end of a deal can win. %(game)s is "
                "played to %(n)s.",
                game=kitty,
                n=15,
            )
        )
        for english in ("Shmear with a Kitty", "Five-Handed Euchre", "Partner Shmear"):
            expect(page.locator("main")).not_to_contain_text(english)
        for seat, name in enumerate(("Ann", "Bob", "Cy", "Di"), start=1):
            player = fr("Player %(n)s", n=seat)
            page.get_by_role("textbox", name=re.compile(f"^{player}\\b")).fill(name)
        page.get_by_role("button", name=fr("Start game")).click()
        grid = page.locator("#deal-form")
        expect(grid).to_be_visible()
        for point in ("High", "Low", "Jack", "Game"):
            expect(grid).to_contain_text(fr(point))
        shown = grid.inner_text()
        for english in ("High", "Low", "Jack"):
            assert not re.search(rf"\b{english}\b", shown), english
        check_axe(page)
    finally:
        context.close()
