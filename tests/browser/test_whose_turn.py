"""Whose turn, on a phone at 390 x 844: above the deal form and on a phone that follows."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import check_axe
from tests.browser.test_at_the_table import DEAL_1, FORM_MAX, tap
from tests.browser.test_live import LIVE_WAIT, new_game, phones  # noqa: F401 (fixture)

pytestmark = pytest.mark.browser


def test_both_phones_say_who_deals_and_bids_first_and_the_auction_follows(phones, live_server):  # noqa: F811
    editor, viewer = phones
    game = new_game(live_server)
    editor.goto(f"{live_server}/games/{game['id']}/edit/{game['edit_token']}")
    viewer.goto(f"{live_server}/games/{game['id']}")

    entry = editor.locator("#deal-entry")
    turn = entry.locator(".turn-line")
    expect(turn).to_have_text("Ann deals · Bob bids first")
    # At the top of the form: right under its heading, above every control.
    assert turn.bounding_box()["y"] < editor.locator("#deal-form").bounding_box()["y"]
    setup = entry.locator("details.deal-setup")
    expect(setup).to_have_attribute("open", "")
    expect(setup).to_contain_text("Take every 2 and 3 out of a 52-card pack and add one joker")
    expect(setup).to_contain_text("the dealer keeps the other 15 as a stock")
    expect(viewer.locator("#following .turn-line")).to_have_text("Ann deals · Bob bids first")
    expect(viewer.locator("#following details.deal-setup")).to_contain_text("45 cards")

    # The auction, folded away, lists the speakers from the one who bids first.
    entry.locator("details.auction > summary").click()
    legends = entry.locator("details.auction fieldset legend").all_inner_texts()
    assert [legend.strip() for legend in legends][:5] == ["Bob", "Cy", "Di", "Ed", "Ann"]
    entry.locator("details.auction > summary").click()

    tap(editor, DEAL_1)
    expect(editor.locator("#deal-preview")).to_contain_text("made")
    height = editor.evaluate(
        "document.querySelector('form#deal-form').getBoundingClientRect().height"
    )
    print(f"\nthe deal form is {height:.0f} px tall at 390 px, with whose turn above it")
    assert height <= FORM_MAX
    above = editor.evaluate(
        "document.querySelector('form#deal-form').getBoundingClientRect().top"
        " - document.getElementById('deal-entry').getBoundingClientRect().top"
    )
    print(f"the heading and whose turn above it take {above:.0f} px")
    check_axe(editor)
    check_axe(viewer)
    editor.get_by_role("button", name="Save deal").click()

    for phone in (editor, viewer):
        expect(phone.locator(".turn-line")).to_have_text(
            "Bob deals · Cy bids first", timeout=LIVE_WAIT
        )
        expect(phone.locator("details.deal-setup")).not_to_have_attribute("open", "")
    entry.locator("details.auction > summary").click()
    legends = entry.locator("details.auction fieldset legend").all_inner_texts()
    assert [legend.strip() for legend in legends][:5] == ["Cy", "Di", "Ed", "Ann", "Bob"]


def test_whose_turn_in_indonesian_and_french(page, live_server):
    game = new_game(live_server)
    url = f"/games/{game['id']}"
    page.goto(f"{live_server}/language/id?next={url}")
    expect(page.locator("#following .turn-line")).to_have_text("Ann membagi · Bob menawar pertama")
    expect(page.locator("#following details.deal-setup summary")).to_have_text(
        "Yang disiapkan pembagi"
    )
    expect(page.locator("#following details.deal-setup")).to_contain_text("tambahkan satu joker")
    check_axe(page)
    page.goto(f"{live_server}/language/fr?next={url}")
    expect(page.locator("#following .turn-line")).to_have_text("Ann donne · Bob parle en premier")
    expect(page.locator("#following details.deal-setup")).to_contain_text(
        "ajoutez un joker : 45 cartes"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    check_axe(page)
