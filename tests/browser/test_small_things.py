"""Smaller things a table noticed, at 390 x 844: the Jick's hint folded like the others,
the points grid's blank column named, the card counter's sheet without stray marks, and a
table made there and then for a game started on its own."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, check_axe
from tests.browser.test_card_counter import open_counter, open_game
from tests.browser.test_live import api

pytestmark = pytest.mark.browser

SIX = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]
NOT_IN_PLAY = {
    "en": "Not in play",
    "de": "Nicht im Spiel",
    "fr": "Pas en jeu",
    "id": "Tidak beredar",
}
NOT_COUNTED = {"en": "Not counted", "de": "Nicht gezählt"}


def jick_game(page, live_server, language):
    """Open the deal form of a six-handed Shmear with the Jick, in this language."""
    game = api(
        live_server,
        "/api/v1/games",
        {"ruleset": "shmear", "players": SIX, "first_dealer": 0, "house_rules": {"jick": True}},
    )
    page.goto(f"{live_server}/games/{game['id']}/edit/{game['edit_token']}")
    if language != "en":
        page.goto(f"{live_server}/language/{language}?next=/games/{game['id']}")
    expect(page.locator("#point-grid")).to_be_visible()


JICK = {
    "en": ("Which card is the Jick?", "J♣ when spades are trump"),
    "de": ("Welche Karte ist der Jick?", "J♣, wenn Pik Trumpf ist"),
}


@pytest.mark.parametrize("language", list(JICK))
def test_the_jicks_hint_is_folded_like_the_other_hints(page, live_server, language):
    jick_game(page, live_server, language)
    summary, words = JICK[language]
    hint = page.locator("#point-grid details.grid-hint")
    expect(hint).not_to_have_attribute("open", "")
    text = hint.locator(".hint")
    expect(text).to_be_hidden()
    hint.get_by_text(summary, exact=True).click()
    expect(text).to_be_visible()
    expect(text).to_contain_text(words)
    check_axe(page)


@pytest.mark.parametrize("language", ["en", "de", "fr", "id"])
def test_the_not_in_play_column_is_named_in_every_language(page, live_server, language):
    jick_game(page, live_server, language)
    head = page.locator("#point-grid .grid-head .col-blank")
    expect(head).to_have_text(NOT_IN_PLAY[language])
    shown = head.evaluate(
        """(e) => {
          const box = e.getBoundingClientRect();
          const grid = e.closest('.point-grid').getBoundingClientRect();
          return box.width > 0 && box.left >= grid.left && box.right <= grid.right + 0.5
            && e.scrollHeight <= e.clientHeight + 1 && e.scrollWidth <= e.clientWidth + 1;
        }"""
    )
    assert shown
    # A screen reader hears it on the choice itself.
    jick = page.get_by_role("group", name=re.compile("^Jick"))
    expect(jick.get_by_role("radio", name=f"Jick: {NOT_IN_PLAY[language]}")).to_have_count(1)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    check_axe(page)


# Marks on the card counter's sheet that are not the sheet's: a heading that is a lone
# dash, and the rows that scroll under "Use these counts" showing below it.
STRAY = """() => {
  const sheet = document.querySelector('.card-counter[open] .counter-sheet');
  const bar = sheet.querySelector('.counter-actions').getBoundingClientRect();
  const edge = sheet.getBoundingClientRect().bottom;
  const below = [];
  for (let y = Math.ceil(bar.bottom) + 1; y < edge - 1; y += 2) {
    const found = document.elementFromPoint(sheet.getBoundingClientRect().left + 120, y);
    if (found && sheet.contains(found) && !found.closest('.counter-actions')) {
      below.push(found.className || found.tagName);
    }
  }
  const dashes = Array.from(sheet.querySelectorAll('.grid-head > span'))
    .map((e) => e.textContent.trim()).filter((t) => t && !/[\\p{L}\\d]/u.test(t));
  return {below: below, dashes: dashes};
}"""


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_card_counters_sheet_has_no_stray_marks(page, live_server, language):
    open_game(page, live_server, "five-handed-schmier", language)
    sheet = open_counter(page, language)
    expect(sheet.locator(".grid-head .col-blank")).to_have_text(NOT_COUNTED[language])
    for top in (0, 300, 10_000):  # its top, its middle, its end
        sheet.evaluate(f"(e) => {{ e.scrollTop = {top}; }}")
        assert page.evaluate(STRAY) == {"below": [], "dashes": []}, top
    check_axe(page)


@pytest.mark.parametrize("javascript", [True, False], ids=["htmx", "no-js"])
def test_a_game_is_put_at_a_new_table_named_on_the_spot(browser, live_server, javascript):
    context = browser.new_context(viewport=PHONE, java_script_enabled=javascript)
    page = context.new_page()
    game = api(live_server, "/api/v1/games", {"ruleset": "shmear", "players": SIX[:4],
                                               "first_dealer": 0})  # fmt: skip
    page.goto(f"{live_server}/games/{game['id']}/edit/{game['edit_token']}")
    page.get_by_role("link", name="Put this game at a table").click()
    name = page.get_by_role("textbox", name="Or start a new table: its name")
    expect(name).to_be_visible()
    if javascript:
        check_axe(page)

    # Two choices at once: refused beside the field, nothing made.
    page.get_by_role("textbox", name="Or paste the table's edit link").fill("/tables/x/edit/y")
    name.fill("Friday club")
    page.get_by_role("button", name="Put the game at this table").click()
    expect(
        page.get_by_text("Name a new table, or choose a table you have: not both.")
    ).to_be_visible()
    expect(name).to_have_value("Friday club")
    if javascript:
        check_axe(page)

    page.get_by_role("textbox", name="Or paste the table's edit link").fill("")
    page.get_by_role("button", name="Put the game at this table").click()
    expect(page.get_by_role("status").first).to_contain_text(
        "This game is now at the table Friday club."
    )
    expect(page.get_by_role("link", name="Put this game at a table")).to_have_count(0)
    page.get_by_role("link", name="Back to the table").click()
    expect(page.get_by_role("heading", name="Friday club")).to_be_visible()
    # The game is there, and this phone may start the next one at the table.
    expect(page.get_by_role("region", name="Games (1)")).to_be_visible()
    expect(page.get_by_role("link", name="Start a game here")).to_be_visible()
    context.close()
