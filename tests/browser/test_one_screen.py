"""The deal form on about one screen: every state of it at most 1,300 px tall at 390 x 844.

All seven games, with the players of a test game's short names and with five and six
players of ten-letter names ("Margaretha", "Christophe" …), in English and in German: as
it opens, some of it tapped, "Enter counts" open, a whole deal tapped in with its
preview (counts open too, and their card counter, a sheet over the form), the
seat-by-seat auction open, tapped in and refused, refused with nothing tapped (a message
at every field), refused with one point (Euchre: the tricks) left out, and the correction
form, which shares the layout, with its preview
(the table of every later total sits below the form: it grows with the game). In every
state no choice or heading sticks out of the form.
"""

import json
import re
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.browser.test_at_the_table import FORM_MAX
from tests.browser.test_live import api

pytestmark = pytest.mark.browser

DATA = Path(__file__).parents[1] / "data"
GAMES = [
    *json.loads((DATA / "five-handed-games.json").read_text())[:1],
    *json.loads((DATA / "other-rulesets-games.json").read_text()),
]
NAMES = ["Margaretha", "Christophe", "Bernadette", "Maximilian", "Konstantin", "Alexandrea"]
SEATS = {
    "five-handed-schmier": [5],
    "five-handed-euchre": [5],
    "shmear": [5, 6],
    "shmear-kitty": [5, 6],
    "shmear-partners": [4],
    "shmear-high-low": [4],
    "six-handed-schmier": [6],
}
"""Every game with ten-letter names, at the most players it takes (and five where it
takes six): the longest rows of chips and the widest grid."""


def played_deal(ruleset, seats):
    """Return a whole played deal of this game from the test games that fits `seats`."""
    return next(
        {k: v for k, v in deal.items() if k != "auction"}
        for game in GAMES
        if game["ruleset"] == ruleset
        for deal in game["deals"]
        if "bidder" in deal
        and "game_points" not in deal
        and all(v < seats for k, v in deal.items() if isinstance(v, int) and k != "bid")
    )


def case(ruleset, players, locale="en-US"):
    return pytest.param(
        ruleset, players, locale, id=f"{ruleset}-{len(players)}-{players[0]}-{locale[:2]}"
    )


CASES = [
    *(case(g["ruleset"], g["players"]) for g in {g["ruleset"]: g for g in GAMES}.values()),
    *(
        case(ruleset, NAMES[:seats], locale)
        for locale in ("en-US", "de-DE")
        for ruleset, counts in SEATS.items()
        for seats in counts
    ),
    # French and Indonesian in the tallest form, five ten-letter names in Five-Handed Schmier.
    *(case("five-handed-schmier", NAMES[:5], locale) for locale in ("fr-FR", "id-ID")),
]
HEIGHT = """() => {
  const form = document.querySelector('form.deal-form');
  const box = form.getBoundingClientRect();
  const out = Array.from(form.querySelectorAll('.chip, .cell, legend'))
    .filter((e) => e.checkVisibility() && !e.matches('.vh, .subgroup > legend'))
    .filter((e) => !e.closest('.counter-sheet'))
    .filter((e) => {
      const r = e.getBoundingClientRect();
      return r.left < box.left - 1 || r.right > box.right + 1 || e.scrollWidth > e.clientWidth + 1;
    })
    .map((e) => e.textContent.trim());
  const why = form.querySelector('.preview-why > summary');
  const tap = why && why.checkVisibility() ? why.getBoundingClientRect().height : null;
  return {height: box.height, out: out, why: tap};
}"""
"""The form's height, the text of any choice or heading that sticks out of it (the card
counter's sheet lies over the page, as wide as the screen: test_card_counter checks it),
and the height of the preview's "Why this score" (a thumb's tap, 44 px), when shown."""


def enter(page, entry):
    """Tap an API entry into the deal form by its controls' names and values."""
    form = page.locator("form.deal-form")
    for name, value in entry.items():
        if name == "called_card":
            form.locator(f'input[name="called_card_rank"][value="{value[:-1]}"]').click()
            form.locator(f'input[name="called_card_suit"][value="{value[-1]}"]').click()
        else:
            form.locator(f'input[name="{name}"][value="{value}"]').click(timeout=5000)


def open_all(page, selector):
    """Open every section of the form that `selector` finds, as a tap on its summary would."""
    closed = page.locator(f"form.deal-form {selector}:not([open]) > summary")
    while closed.count():
        closed.first.click()


def save(page):
    """Tap Save and wait for the refusal to have settled (htmx swaps it in, then settles it:
    measured in between, the form is some pixels taller for a moment)."""
    page.locator("#deal-form button[data-save]").click()
    expect(page.locator("#deal-form .field-errors").first).to_be_visible()
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
    )


def call(page, speaker, value, form="#deal-form"):
    """Tap one call of the auction: `speaker` is the row (in speaking order)."""
    page.locator(f'{form} input[name="auction-{speaker}"][value="{value}"]').click()


def by_auction(page, players, deal, form="#deal-form"):
    """Tap the deal in with its auction instead of its bidder and bid.

    Those before the bidder pass and the bidder's call ends it, as the form reads it.
    """
    open_all(page, "details.auction")
    rows = page.locator(f"{form} fieldset.call-row legend").all_inner_texts()
    bidder = rows.index(players[deal["bidder"]])
    for speaker in range(bidder):
        call(page, speaker, "none", form)
    call(page, bidder, deal["bid"], form)
    enter(page, {k: v for k, v in deal.items() if k not in ("bidder", "bid")})


def states(page, url, players, deal):
    """Yield (state, height) for each state of this game's deal form."""
    form = page.locator("#deal-form")
    preview = page.locator("#deal-preview .preview-line")
    page.goto(url)
    expect(form).to_be_visible()
    yield "as it opens", page.evaluate(HEIGHT)
    has_counts = form.locator("details.counts").count() > 0
    has_auction = form.locator("details.auction").count() > 0
    enter(page, {k: deal[k] for k in list(deal)[:3]})
    expect(page.locator("#deal-preview li").first).to_be_visible()
    yield "some tapped", page.evaluate(HEIGHT)
    if has_counts:
        open_all(page, "details.counts")
        yield "some tapped, counts open", page.evaluate(HEIGHT)
    page.goto(url)
    enter(page, deal)
    expect(preview).to_be_visible()
    yield "a deal tapped in, with its preview", page.evaluate(HEIGHT)
    if has_counts:
        open_all(page, "details.counts")
        yield "a deal tapped in, with its preview, counts open", page.evaluate(HEIGHT)
    if form.locator("details.card-counter").count():
        # The card counter opens as a sheet over the form: the form stays as tall.
        open_all(page, "details.card-counter")
        expect(form.locator(".counter-sheet")).to_be_visible()
        yield "a deal tapped in, card counter open", page.evaluate(HEIGHT)
    if has_auction:
        page.goto(url)
        open_all(page, "details.auction")
        yield "auction open", page.evaluate(HEIGHT)
        by_auction(page, players, deal)
        expect(preview).to_be_visible()
        yield "auction tapped in, with its preview", page.evaluate(HEIGHT)
        # The first two speakers bid the same: refused at the auction, the rest kept. The
        # page offers no bid below one made before it, so the second speaker's goes in first.
        lowest = form.locator('input[name="auction-0"]').nth(1).get_attribute("value")
        call(page, 0, "none")
        call(page, 1, lowest)
        call(page, 0, lowest)
        save(page)
        expect(form.locator("details.auction[open] .field-errors")).to_be_visible()
        yield "auction refused", page.evaluate(HEIGHT)
    page.goto(url)
    save(page)
    yield "nothing tapped, refused", page.evaluate(HEIGHT)
    page.goto(url)
    left_out = "high" if "high" in deal else "tricks"
    enter(page, {k: v for k, v in deal.items() if k != left_out})
    save(page)
    yield "a point left out, refused", page.evaluate(HEIGHT)
    if has_counts:
        open_all(page, "details.counts")
        yield "a point left out, refused, counts open", page.evaluate(HEIGHT)


def correction_states(page, base, auction, players, deal):
    """Yield (state, height) for the correction form of deal 1 (deal 2 follows it), and of
    deal 2, entered with its auction (which the correction opens with).

    Deal 1 was entered with its bidder and bid: its correction with the auction opened (they
    step aside) is then saved with its auction tapped in, and keeps them.
    """
    preview = page.locator("#correction-totals .correction-scores")
    page.goto(f"{base}/deals/1/edit")
    expect(preview).to_be_visible()
    yield "correction, with its preview", page.evaluate(HEIGHT)
    if page.locator("#correction-form details.counts").count():
        open_all(page, "details.counts")
        yield "correction, counts open", page.evaluate(HEIGHT)
    if auction:
        page.goto(f"{base}/deals/1/edit")
        expect(preview).to_be_visible()
        open_all(page, "details.auction")
        yield "correction of a deal with its bidder and bid, auction open", page.evaluate(HEIGHT)
        by_auction(page, players, deal, "#correction-form")
        page.locator("#correction-form .correction-buttons button.primary").click()
        expect(page).not_to_have_url(re.compile(r"/edit$"))
        with urllib.request.urlopen(base.replace("/games/", "/api/v1/games/") + "/deals/1") as r:
            saved = json.load(r)
        assert (saved["bidder"], saved["bid"]) == (deal["bidder"], deal["bid"])
        assert deal["bid"] in saved["auction"]
        page.goto(f"{base}/deals/2/edit")
        expect(preview).to_be_visible()
        expect(page.locator("#correction-form details.auction[open]")).to_be_visible()
        yield "correction of a deal with its auction", page.evaluate(HEIGHT)


@pytest.mark.parametrize(("ruleset", "players", "locale"), CASES)
def test_every_state_of_the_deal_form_fits_1300_px(browser, live_server, ruleset, players, locale):
    context = browser.new_context(viewport=PHONE, locale=locale)
    page = context.new_page()
    game = api(
        live_server, "/api/v1/games", {"ruleset": ruleset, "players": players, "first_dealer": 0}
    )
    base = f"{live_server}/games/{game['id']}"
    url = f"{base}/edit/{game['edit_token']}"
    deal = played_deal(ruleset, len(players))
    heights = dict(states(page, url, players, deal))
    api(live_server, f"/api/v1/games/{game['id']}/deals", deal, game["edit_token"])
    page.goto(url)
    auction = page.locator("#deal-form details.auction").count() > 0
    if auction:
        by_auction(page, players, deal)
        page.locator("#deal-form button[data-save]").click()
        expect(page.locator("#deal-entry")).to_have_attribute("data-number", "3")
    else:
        api(live_server, f"/api/v1/games/{game['id']}/deals", deal, game["edit_token"])
    heights |= correction_states(page, base, auction, players, deal)
    context.close()
    sticking_out = {state: m["out"] for state, m in heights.items() if m["out"]}
    short_why = {state: m["why"] for state, m in heights.items() if (m["why"] or 44) < 44}
    heights = {state: m["height"] for state, m in heights.items()}
    print(
        f"\n{ruleset} {players[0]} {locale}: "
        + ", ".join(f"{s} {h:.0f}" for s, h in heights.items())
    )
    assert {state: round(h) for state, h in heights.items() if h > FORM_MAX} == {}
    assert sticking_out == {}
    assert short_why == {}
