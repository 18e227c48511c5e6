"""Fewer taps per deal at 390x844: what the rules decide from what is already tapped is
chosen for the scorekeeper, shown as chosen (a dashed ring and a small "auto"), and can
be changed. Each test counts the taps a typical deal takes, Save included.

Measured: Five-Handed Schmier 11 when the ace (or the 4) of trump is called (13 before),
12 for another card of trump (13); Shmear 8, and 7 when everyone passed and the dealer
plays at 2 (10 before: the all-pass box, the dealer, the bid); the other games in TAPS
below. The Euchre family's counts are in tests/browser/test_euchre_family.py.
"""

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, check_axe, read
from tests.browser.test_live import api
from tests.browser.test_offline import worker_ready
from tests.browser.test_offline_play import engine_on  # noqa: F401 (autouse: the phone's engine on)
from tests.browser.test_phone_engine import engine_ready
from tests.browser.test_table import COUNT_TAPS, choice, tap

pytestmark = pytest.mark.browser

FIVE = ["Annabelle", "Bartholomew", "Cy", "Di", "Ed"]
CHOSEN = re.compile(r"\bis-chosen-for-you\b")


def start(page, live_server, ruleset, players, first_dealer=0):
    game = api(
        live_server,
        "/api/v1/games",
        {"ruleset": ruleset, "players": players, "first_dealer": first_dealer},
    )
    page.goto(f"{live_server}/games/{game['id']}/edit/{game['edit_token']}")
    page.evaluate(COUNT_TAPS)
    return game


def save(page, number):
    page.get_by_role("button", name="Save deal").click()
    expect(page.get_by_role("status").first).to_contain_text(f"Deal {number} saved.")
    return page.evaluate("window.__taps")


def saved_deal(live_server, game, number):
    document = read(live_server, f"/api/v1/games/{game['id']}")
    return next(d for d in document["deals"] if d["number"] == number)


def radio(page, name, value):
    return page.locator(f'#deal-form input[name="{name}"][value="{value}"]')


def chip_of(page, name, value):
    return page.locator(f'#deal-form label:has(> input[name="{name}"][value="{value}"])')


def test_the_ace_of_trump_in_one_tap_and_its_holder_takes_high_eleven_taps(page, live_server):
    game = start(page, live_server, "five-handed-schmier", FIVE)
    tap(page, [("Bidder", "Bartholomew"), ("Bid", "4"), ("Trump", "hearts")])
    # With trump known the ranks stand for cards of trump: tapping A calls the A♥.
    expect(chip_of(page, "called_card_rank", "A")).to_contain_text("A♥")
    tap(page, [("Rank", "A")])
    expect(radio(page, "called_card_suit", "H")).to_be_checked()
    expect(chip_of(page, "called_card_suit", "H")).to_have_class(CHOSEN)
    expect(chip_of(page, "called_card_suit", "H")).to_have_attribute("data-chosen", "auto")
    # The partner held the ace of trump, so High is theirs: chosen, and marked so.
    tap(page, [("Partner", "Di")])
    expect(radio(page, "high", "3")).to_be_checked()
    expect(page.locator('#high-group label:has(input[value="3"])')).to_have_class(CHOSEN)
    tap(page, [("Low", "Annabelle"), ("Jack", "Bartholomew"), ("Off-jack", "Cy")])
    tap(page, [("Joker", "Bartholomew"), ("Game", "Bidders")])
    check_axe(page)
    taps = save(page, 1)
    print(f"\nFive-Handed Schmier, the ace of trump called: {taps} taps")
    assert taps == 11
    deal = saved_deal(live_server, game, 1)
    assert (deal["called_card"], deal["partner"], deal["high"]) == ("AH", 3, 3)


def test_another_card_of_trump_takes_twelve_taps_and_another_suit_can_be_tapped(page, live_server):
    game = start(page, live_server, "five-handed-schmier", FIVE)
    tap(page, [("Bidder", "Bartholomew"), ("Bid", "4"), ("Trump", "hearts"), ("Rank", "K")])
    expect(radio(page, "called_card_suit", "H")).to_be_checked()
    # Another suit, tapped: the choice is the scorekeeper's, and the ranks follow it.
    tap(page, [("Suit", "spades")])
    expect(chip_of(page, "called_card_suit", "S")).not_to_have_class(CHOSEN)
    expect(chip_of(page, "called_card_rank", "K")).to_contain_text("K♠")
    tap(page, [("Suit", "hearts")])
    tap(page, [("Partner", "Di"), ("High", "Annabelle"), ("Low", "Annabelle")])
    tap(page, [("Jack", "Bartholomew"), ("Off-jack", "Cy"), ("Joker", "Di"), ("Game", "Bidders")])
    taps = save(page, 1)
    # Two taps of the suit were to change it; a scorekeeper who calls the K♥ takes 12.
    print(f"\nFive-Handed Schmier, another card of trump called: {taps - 2} taps")
    assert taps - 2 == 12
    assert saved_deal(live_server, game, 1)["called_card"] == "KH"


def test_a_suit_chosen_for_the_scorekeeper_follows_trump(page, live_server):
    start(page, live_server, "five-handed-schmier", FIVE)
    tap(page, [("Trump", "hearts"), ("Rank", "Q")])
    expect(radio(page, "called_card_suit", "H")).to_be_checked()
    tap(page, [("Trump", "clubs")])
    expect(radio(page, "called_card_suit", "C")).to_be_checked()
    expect(chip_of(page, "called_card_rank", "Q")).to_contain_text("Q♣")


def test_a_rank_tapped_before_trump_is_of_trump_once_trump_is_tapped(page, live_server):
    """The chips never read "Q♥" unless the Q♥ is what would be saved."""
    start(page, live_server, "five-handed-schmier", FIVE)
    tap(page, [("Rank", "Q")])
    expect(page.locator('#deal-form input[name="called_card_suit"]:checked')).to_have_count(0)
    tap(page, [("Trump", "hearts")])
    expect(radio(page, "called_card_suit", "H")).to_be_checked()
    expect(chip_of(page, "called_card_suit", "H")).to_have_class(CHOSEN)
    expect(chip_of(page, "called_card_rank", "Q")).to_contain_text("Q♥")


def test_everyone_passed_chooses_the_dealer_at_2_and_a_deal_takes_seven_taps(page, live_server):
    players = ["Annabelle", "Bartholomew", "Cy", "Di"]
    game = start(page, live_server, "shmear", players, first_dealer=2)
    page.get_by_role("checkbox", name="Everyone passed: the dealer plays at 2").click()
    # Cy deals: Cy is the bidder, at 2, both chosen and marked so.
    expect(radio(page, "bidder", "2")).to_be_checked()
    expect(radio(page, "bid", "2")).to_be_checked()
    expect(chip_of(page, "bidder", "2")).to_have_class(CHOSEN)
    expect(chip_of(page, "bid", "2")).to_have_class(CHOSEN)
    expect(chip_of(page, "bid", "2")).to_have_attribute("data-chosen", "auto")
    tap(page, [("Trump", "spades"), ("High", "Cy"), ("Low", "Cy"), ("Jack", "Di")])
    tap(page, [("Game", "Cy")])
    expect(page.locator("#deal-preview")).to_contain_text("Cy")
    check_axe(page)
    taps = save(page, 1)
    print(f"\nShmear, everyone passed and the dealer plays at 2: {taps} taps")
    assert taps == 7
    deal = saved_deal(live_server, game, 1)
    assert (deal["bidder"], deal["bid"]) == (2, 2)


def test_another_bidder_takes_back_everyone_passed_and_unticking_it_clears_the_choices(
    page, live_server
):
    start(page, live_server, "shmear", ["Ann", "Bob", "Cy", "Di"], first_dealer=1)
    passed = page.get_by_role("checkbox", name="Everyone passed: the dealer plays at 2")
    passed.click()
    expect(radio(page, "bidder", "1")).to_be_checked()
    passed.click()
    expect(radio(page, "bidder", "1")).not_to_be_checked()
    expect(radio(page, "bid", "2")).not_to_be_checked()
    passed.click()
    choice(page, "Bidder", "Di").click()
    expect(passed).not_to_be_checked()
    expect(chip_of(page, "bidder", "3")).not_to_have_class(CHOSEN)
    # The bid chosen with it stays, still marked as chosen for the scorekeeper.
    expect(radio(page, "bid", "2")).to_be_checked()


def test_a_shmear_deal_bid_in_the_auction_takes_eight_taps(page, live_server):
    start(page, live_server, "shmear", ["Ann", "Bob", "Cy", "Di"])
    tap(page, [("Bidder", "Bob"), ("Bid", "3"), ("Trump", "hearts"), ("High", "Bob")])
    tap(page, [("Low", "Cy"), ("Jack", "Bob"), ("Game", "Bob")])
    taps = save(page, 1)
    print(f"\nShmear, a bid of 3: {taps} taps")
    assert taps == 8


def test_everyone_passed_chooses_the_dealer_the_phone_knows_offline(browser, live_server):
    """The dealer moves with the deals kept on the phone: the choice follows it."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    try:
        start(page, live_server, "shmear", ["Ann", "Bob", "Cy", "Di"], first_dealer=0)
        worker_ready(page)
        engine_ready(page)
        context.set_offline(True)
        tap(page, [("Bidder", "Bob"), ("Bid", "3"), ("Trump", "hearts"), ("High", "Bob")])
        tap(page, [("Low", "Cy"), ("Jack", "Bob"), ("Game", "Bob")])
        page.get_by_role("button", name="Save deal").click()
        expect(page.locator('#deal-form input[name="number"]')).to_have_value("2")
        # Bob deals deal 2: the phone's engine says so once it has played the kept deal.
        expect(page.locator("#deal-entry [data-turn]").first).to_contain_text(
            "Bob deals", timeout=30000
        )
        expect(page.locator(".deal-fields")).to_have_attribute("data-dealer", "1")
        # The auction's rows by seat follow too: Cy speaks first.
        expect(page.locator("details.auction")).to_have_attribute("data-speakers", "2 3 0 1")
        page.get_by_role("checkbox", name="Everyone passed: the dealer plays at 2").click()
        expect(radio(page, "bidder", "1")).to_be_checked()
    finally:
        context.set_offline(False)
        context.close()


OTHER_GAMES = json.loads(
    (Path(__file__).parents[1] / "data" / "other-rulesets-games.json").read_text()
)
TAPS = {
    "six-handed-schmier": 10,
    "five-handed-euchre": 7,
    "shmear-high-low": 8,
    "shmear-partners": 8,
    "shmear-kitty": 7,
}
"""Taps a typical deal of each other game takes, Save included, as measured below (the
first example deal played with a bid, no auction and no counts): what was already chosen
for the scorekeeper is not tapped again."""


def tap_entry(page, entry):
    """Tap an API entry into the deal form as a scorekeeper would: in the form's order,
    leaving what the form already chose as the entry says."""
    form = page.locator("#deal-form")

    def chosen(name, value):
        return form.locator(f'input[name="{name}"][value="{value}"]')

    for name, value in entry.items():
        if name == "called_card":
            chosen("called_card_rank", value[:-1]).click()
            if not chosen("called_card_suit", value[-1]).is_checked():
                chosen("called_card_suit", value[-1]).click()
        elif not chosen(name, value).is_checked():
            chosen(name, value).click()


@pytest.mark.parametrize("ruleset", sorted(TAPS))
def test_a_typical_deal_of_every_other_game_is_counted(page, live_server, ruleset):
    example = next(g for g in OTHER_GAMES if g["ruleset"] == ruleset)
    entry = next(
        d
        for d in example["deals"]
        if not ({"thrown_in", "forfeit", "auction", "game_points"} & set(d))
    )
    body = {k: example[k] for k in ("ruleset", "players", "first_dealer", "target", "house_rules")}
    game = api(live_server, "/api/v1/games", body)
    page.goto(f"{live_server}/games/{game['id']}/edit/{game['edit_token']}")
    page.evaluate(COUNT_TAPS)
    tap_entry(page, entry)
    taps = save(page, 1)
    print(f"\n{ruleset}: {taps} taps")
    saved = saved_deal(live_server, game, 1)
    assert {k: saved[k] for k in entry} == entry
    assert taps == TAPS[ruleset]
