"""Each game of the Euchre family from the new-game page to the win, on a 390x844 phone.

The table first says how many are playing, then picks its game among those offered for
that many; every hand is entered by tapping chips, and the taps of each hand are counted
(TAPS_PER_HAND holds what was measured, the Save tap included).
"""

import re

import pytest
from playwright.sync_api import Page, expect

from scorekeeper import engine
from tests.browser.conftest import PHONE, check_axe
from tests.test_i18n import translated

pytestmark = pytest.mark.browser

TAPS_PER_HAND = {
    "euchre": (5, 2, 4),
    "two-handed-euchre": (4, 4, 4),
    "three-handed-euchre": (4, 4),
    "six-handed-euchre": (5, 4, 4, 4),
}
"""The taps each hand of the game below takes: maker, trump, (alone,) tricks, Save; a
thrown-in hand is "Everyone passed…" and its confirmation."""


class Table:
    """A phone at the table, in one language."""

    def __init__(self, page: Page, language: str) -> None:
        self.page = page
        self.language = language
        self.taps: list[int] = []

    def words(self, msgid: str, **values: object) -> str:
        """Return the page's words for an English message."""
        text = msgid if self.language == "en" else translated(self.language, msgid)
        return text % values if values else text

    def group(self, legend: str):
        return self.page.get_by_role("group", name=self.words(legend), exact=True)

    def start(self, live_server: str, ruleset_id: str, players: list[str], target: int) -> None:
        """Say how many play, choose the game among those offered, name the players, start."""
        rules = engine.get_ruleset(ruleset_id)
        name = self.words(str(rules.label))
        page = self.page
        page.goto(live_server + "/games/new")
        self.group("How many are playing?").get_by_role(
            "radio", name=str(len(players)), exact=True
        ).click()
        chip = self.group("Ruleset").get_by_role("radio", name=name, exact=True)
        chip.click()
        expect(page.locator("#ruleset-summary")).to_have_text(self.words(str(rules.summary)))
        expect(chip).to_be_checked()
        for seat, player in enumerate(players):
            page.locator(f'input[name="players-{seat}"]').fill(player)
        self.group("First dealer").get_by_role("radio", name=players[0], exact=True).click()
        page.locator('input[name="target"]').fill(str(target))
        check_axe(page)
        page.get_by_role("button", name=self.words("Start game")).click()
        expect(page.locator("#scoreboard")).to_be_visible()
        # No card counter: Euchre counts tricks, not cards.
        expect(page.locator("#deal-form .card-counter")).to_have_count(0)

    def hand(self, maker: str, trump: str, tricks: int, *, alone: bool = False) -> None:
        """Tap one hand into the deal form and save it, counting the taps."""
        taps = [("Maker", maker), ("Trump", self.words(trump))]
        if alone:
            taps.append(("Alone", self.words("Went alone")))
        taps.append(("Tricks", str(tricks)))
        for legend, option in taps:
            self.group(legend).get_by_role("radio", name=option, exact=True).click()
        self.page.get_by_role("button", name=self.words("Save deal")).click()
        self.taps.append(len(taps) + 1)

    def everyone_passed(self, number: int) -> None:
        """Throw the hand in: open "Everyone passed…", then confirm (two taps)."""
        self.page.locator("#flag-thrown_in summary").click()
        what = self.words("Everyone passed")
        self.page.get_by_role(
            "button", name=self.words("Yes, save deal %(n)s as: %(what)s", n=number, what=what)
        ).click()
        self.taps.append(2)

    def wait_for_deal(self, number: int) -> None:
        """Wait until the form asks for the next deal (or the game is over)."""
        expect(self.page.locator("#deal-1")).to_be_attached()
        expect(self.page.locator(f"#deal-{number}")).to_be_attached()

    def board(self) -> list[tuple[str, int]]:
        region = self.page.locator("#scoreboard")
        names = region.locator(".score-row .name").all_inner_texts()
        scores = [int(s) for s in region.locator(".score-row .score").all_inner_texts()]
        return list(zip(names, scores, strict=True))

    def won(self) -> None:
        expect(self.page.locator(".banner")).to_be_visible()
        expect(self.page.locator("#deal-form")).to_have_count(0)
        check_axe(self.page)


def play_euchre(table: Table) -> None:
    table.hand("Bob", "hearts", 5, alone=True)  # a lone march: 4
    table.wait_for_deal(1)
    assert table.board() == [("Ann & Cy", 0), ("Bob & Di", 4)]
    table.everyone_passed(2)  # thrown in: Cy deals next
    table.wait_for_deal(2)
    expect(table.page.locator("#scoreboard")).to_contain_text("Di")
    table.hand("Ann", "spades", 2)  # euchred: 2 to Bob and Di
    table.won()
    assert table.board() == [("Ann & Cy", 0), ("Bob & Di", 6)]


def play_two_handed(table: Table) -> None:
    table.hand("Ann", "clubs", 5)  # a march: 2
    table.wait_for_deal(1)
    table.hand("Bob", "clubs", 1)  # euchred: 2 to Ann
    table.wait_for_deal(2)
    table.hand("Ann", "diamonds", 3)
    table.won()
    assert table.board() == [("Ann", 5), ("Bob", 0)]


def play_three_handed(table: Table) -> None:
    table.hand("Ann", "hearts", 5)  # a march: 3
    table.wait_for_deal(1)
    table.hand("Bob", "hearts", 0)  # euchred: 2 to each of Ann and Cy
    table.won()
    assert table.board() == [("Ann", 5), ("Bob", 0), ("Cy", 2)]


def play_six_handed(table: Table) -> None:
    table.hand("Bob", "spades", 5, alone=True)  # a lone march: 4
    table.wait_for_deal(1)
    table.hand("Ann", "spades", 4)
    table.wait_for_deal(2)
    table.hand("Cy", "clubs", 3)
    table.wait_for_deal(3)
    table.hand("Di", "clubs", 5)  # a march: 2
    table.won()
    assert table.board() == [("Ann, Cy & Ed", 2), ("Bob, Di & Flo", 6)]


GAMES = {
    "euchre": (["Ann", "Bob", "Cy", "Di"], play_euchre),
    "two-handed-euchre": (["Ann", "Bob"], play_two_handed),
    "three-handed-euchre": (["Ann", "Bob", "Cy"], play_three_handed),
    "six-handed-euchre": (["Ann", "Bob", "Cy", "Di", "Ed", "Flo"], play_six_handed),
}


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("ruleset", list(GAMES))
def test_each_euchre_game_from_the_new_game_page_to_the_win(
    browser, live_server, ruleset, language
):
    context = browser.new_context(viewport=PHONE, locale="de-DE" if language == "de" else "en-US")
    try:
        table = Table(context.new_page(), language)
        players, play = GAMES[ruleset]
        table.start(live_server, ruleset, players, 5)
        play(table)
        assert tuple(table.taps) == TAPS_PER_HAND[ruleset]
        assert re.match(r"/games/", table.page.url.removeprefix(live_server))
    finally:
        context.close()
