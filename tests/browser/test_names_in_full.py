"""Names in full at 390 px: ten-letter names in the deal form's chips and grid, and the sheet.

Five and six players named "Margaretha", "Christophe" …, as Debian's DejaVu fonts draw them.
"""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import WORDS_OF, check_axe
from tests.browser.test_live import api

pytestmark = pytest.mark.browser

NAMES = ["Margaretha", "Christophe", "Bernadette", "Maximilian", "Konstantin", "Alexandrea"]

# Every element of the deal form that shows a player's name, with what it shows and whether
# any of it is hidden: cut by its own box (an ellipsis, a clipped overflow) or spilling out
# of the chip, grid column or auction row that holds it. A chip the form hid (the bidder,
# among the partners) is left out.
NAMES_SHOWN = """(names) => {
  const form = document.querySelector('#deal-form');
  const spans = Array.from(form.querySelectorAll('.chip > span, .col-name, .call-row > legend'))
    .filter((e) => names.includes(e.textContent.trim()) && e.getClientRects().length > 0);
  return spans.map((e) => {
    const box = e.getBoundingClientRect();
    const holder = (e.closest('.chip') || e.parentElement).getBoundingClientRect();
    const range = document.createRange();
    range.selectNodeContents(e);
    const vertical = getComputedStyle(e).writingMode.startsWith('vertical');
    const lines = new Set(Array.from(range.getClientRects())
      .map((r) => Math.round(vertical ? r.left : r.top)));
    return {
      name: e.textContent.trim(),
      cut: e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1
        || getComputedStyle(e).textOverflow === 'ellipsis',
      outside: box.left < holder.left - 1 || box.right > holder.right + 1
        || box.top < holder.top - 1 || box.bottom > holder.bottom + 1,
      lines: lines.size,
    };
  });
}"""


def new_game(live_server, ruleset, names):
    """Start a game of `ruleset` for these players through the API, the first one dealing."""
    return api(
        live_server, "/api/v1/games", {"ruleset": ruleset, "players": names, "first_dealer": 0}
    )


@pytest.mark.parametrize(
    ("ruleset", "players"),
    [
        ("five-handed-schmier", 5),
        ("five-handed-euchre", 5),
        ("shmear", 5),
        ("shmear", 6),
        ("six-handed-schmier", 6),
    ],
)
def test_ten_letter_names_show_in_full_in_the_deal_form(page, live_server, ruleset, players):
    names = NAMES[:players]
    game = new_game(live_server, ruleset, names)
    page.goto(f"{live_server}/games/{game['id']}/edit/{game['edit_token']}")
    expect(page.locator("#deal-form")).to_be_visible()
    # A chosen name shows its tick as well: choose the first seat's chip. The auction, where
    # the game has one, open: a row per speaker, named.
    page.locator("#deal-form [data-kind='seat'] .chip").first.click()
    auction = page.locator("#deal-form details.auction > summary")
    if auction.count():
        auction.click()
        expect(page.locator("#deal-form .call-row").first).to_be_visible()
        speakers = page.locator("#deal-form .call-row > legend").all_inner_texts()
        assert sorted(speakers) == sorted(names)
    shown = page.evaluate(NAMES_SHOWN, names)
    assert {s["name"] for s in shown} == set(names)
    hidden = [s for s in shown if s["cut"] or s["outside"] or s["lines"] != 1]
    assert hidden == [], hidden
    check_axe(page)


ELEVEN = ["Bartholomew", "Annabelle11", "Maximiliana", "Konstantine", "Christopher", "Wilhelmina1"]
"""Eleven-letter names, "Bartholomew" among the widest a table gives."""


@pytest.mark.parametrize(("ruleset", "players"), [("five-handed-schmier", 5), ("shmear", 6)])
def test_the_auction_never_breaks_inside_an_eleven_letter_name(page, live_server, ruleset, players):
    names = ELEVEN[:players]
    game = new_game(live_server, ruleset, names)
    page.goto(f"{live_server}/games/{game['id']}/edit/{game['edit_token']}")
    page.locator("#deal-form details.auction > summary").click()
    expect(page.locator("#deal-form .call-row").first).to_be_visible()
    shown = [s for s in page.evaluate(NAMES_SHOWN, names) if s["name"] in names]
    speakers = page.locator("#deal-form .call-row > legend").all_inner_texts()
    assert sorted(speakers) == sorted(names)
    hidden = [s for s in shown if s["cut"] or s["outside"] or s["lines"] != 1]
    assert hidden == [], hidden
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    check_axe(page)


@pytest.mark.parametrize(("ruleset", "players"), [("shmear", 6), ("five-handed-schmier", 5)])
def test_the_score_sheet_never_breaks_inside_a_name(page, live_server, ruleset, players):
    names = NAMES[:players]
    game = new_game(live_server, ruleset, names)
    page.goto(f"{live_server}/games/{game['id']}/sheet")
    broken = page.evaluate(
        "() => { const wordsOf = "
        + WORDS_OF
        + """;
      return Array.from(document.querySelectorAll('.sheet-table thead th')).flatMap((th) => {
        const text = th.firstChild && th.firstElementChild ? th.firstElementChild : th;
        return wordsOf(text.firstChild)
          .filter(([_word, range]) => range.getClientRects().length > 1)
          .map(([word]) => word);
      }); }"""
    )
    assert broken == []
    headings = page.locator(".sheet-table thead th").all_inner_texts()
    assert [h.strip() for h in headings[1:]] == names
    check_axe(page)


def test_team_names_show_in_full_on_the_scoreboard(page, live_server):
    names = NAMES[:4]
    game = new_game(live_server, "shmear-partners", names)
    page.goto(f"{live_server}/games/{game['id']}/edit/{game['edit_token']}")
    rows = page.locator("#scoreboard .score-row .name")
    expect(rows.first).to_be_visible()
    shown = rows.evaluate_all(
        """(spans) => spans.map((e) => ({
          text: e.textContent.trim(),
          cut: e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1
            || getComputedStyle(e).textOverflow === 'ellipsis',
        }))"""
    )
    teams = [f"{names[0]} & {names[2]}", f"{names[1]} & {names[3]}"]
    assert shown == [{"text": team, "cut": False} for team in teams]
    check_axe(page)


@pytest.mark.parametrize(("ruleset", "players"), [("shmear-partners", 4), ("shmear", 6)])
def test_the_chart_names_every_line_in_full(page, live_server, ruleset, players):
    names = NAMES[:players]
    game = new_game(live_server, ruleset, names)
    deal = {"bidder": 1, "bid": 2, "trump": "H", "high": 1, "low": 1, "jack": 1, "game": 1}
    api(live_server, f"/api/v1/games/{game['id']}/deals", deal, game["edit_token"])
    page.goto(f"{live_server}/games/{game['id']}/sheet")
    labels = page.locator("svg.score-chart g > text").evaluate_all(
        """(texts) => texts.map((t) => {
          const svg = t.ownerSVGElement.getBoundingClientRect();
          const box = t.getBoundingClientRect();
          const inside = box.left >= svg.left && box.right <= svg.right + 0.5;
          return {text: t.textContent, inside: inside};
        })"""
    )
    assert all(label["inside"] for label in labels), labels
    shown = " ".join(label["text"] for label in labels)
    assert all(name in shown for name in names), shown
    check_axe(page)
