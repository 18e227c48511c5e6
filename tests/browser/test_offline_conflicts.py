"""A deal kept offline whose number another phone took: both shown, the scorekeeper chooses.

Each choice is tapped as a scorekeeper would, and checked against what the server stores:
the deals and the change log.
"""

import json
import urllib.request

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, check_axe
from tests.browser.test_live import DEAL_1, DEAL_1_API, api, new_game, scores, tap
from tests.browser.test_offline import deals, open_as_editor, worker_ready
from tests.browser.test_table import pass_all

pytestmark = pytest.mark.browser

THROWN_IN = {"number": 1, "thrown_in": True}
MINE = (
    "Bob bid 4: Made · Trump ♥ hearts · Called card K♥ of hearts · Partner Di · High Di · "
    "Low Ann · Jack Bob · Off-jack Cy · Joker Bob · Game Bidders"
)


@pytest.fixture
def other_phone(browser):
    context = browser.new_context(viewport=PHONE)
    yield context
    context.close()


def changes(live_server, game):
    """Return the game's change log as (action, deal number, device) rows, oldest first."""
    url = f"{live_server}/games/{game['id']}/export.json"
    with urllib.request.urlopen(url, timeout=5) as answer:
        record = json.load(answer)["games"][0]
    return [(c["action"], c["number"], c["device"]) for c in record["changes"]]


def kept_offline_then_taken(phone, live_server, game, theirs=THROWN_IN):
    """Keep deal 1 on this phone with no signal while the API saves deal 1; come back."""
    editor = open_as_editor(phone, live_server, game)
    worker_ready(editor)
    phone.set_offline(True)
    tap(editor, DEAL_1)
    editor.get_by_role("button", name="Save deal").click()
    expect(editor.locator("#outbox")).to_contain_text("Deal 1: saved on this phone, not sent yet.")
    api(live_server, f"/api/v1/games/{game['id']}/deals", theirs, game["edit_token"])
    phone.set_offline(False)
    return editor


def expect_both(line, theirs):
    expect(line).to_contain_text("Deal 1 was not sent:", timeout=10000)
    expect(line.locator("dt").first).to_have_text("Saved by the other phone as deal 1:")
    expect(line.locator(".outbox-theirs")).to_have_text(theirs)
    expect(line.locator("dt").nth(1)).to_have_text("Yours, kept on this phone:")


def test_both_deals_shown_across_reloads_and_keep_theirs_drops_mine(phone, live_server):
    game = new_game(live_server)
    editor = kept_offline_then_taken(phone, live_server, game)
    line = editor.locator("#kept-1")
    expect_both(line, "Everyone passed: thrown in.")
    expect(line.locator(".outbox-mine")).to_contain_text(MINE)
    buttons = line.get_by_role("button").all_inner_texts()
    assert buttons == ["Keep theirs, drop mine", "Add mine as deal 2", "Correct deal 1 to mine"]
    check_axe(editor)

    # The choice waits on the phone: after a reload, and after one with no signal.
    editor.reload()
    expect_both(editor.locator("#kept-1"), "Everyone passed: thrown in.")
    phone.set_offline(True)
    editor.reload()
    assert editor.locator("html").get_attribute("data-offline-copy")
    expect_both(editor.locator("#kept-1"), "Everyone passed: thrown in.")
    expect(editor.locator("#kept-1 .outbox-mine")).to_contain_text(MINE)
    phone.set_offline(False)
    editor.wait_for_timeout(1000)
    assert [d["thrown_in"] for d in deals(live_server, game)] == [True]

    editor.locator("#kept-1").get_by_role("button", name="Keep theirs, drop mine").click()
    expect(editor.locator("#outbox")).to_be_hidden()
    expect(editor.locator("#game .flash")).to_contain_text(
        "Deal 1 kept as the other phone saved it; yours was dropped."
    )
    expect(editor.get_by_role("heading", name="Deal 2", exact=True)).to_be_visible()
    editor.reload()
    expect(editor.locator("#outbox")).to_be_hidden()
    stored = deals(live_server, game)
    assert [(d["number"], d["thrown_in"]) for d in stored] == [(1, True)]
    assert [(action, number) for action, number, _ in changes(live_server, game)] == [("add", 1)]


def test_correct_theirs_to_mine_goes_through_the_correction_and_outlives_a_reload(
    phone, live_server
):
    game = new_game(live_server)
    editor = kept_offline_then_taken(phone, live_server, game)
    line = editor.locator("#kept-1")
    expect_both(line, "Everyone passed: thrown in.")

    # Chosen with no signal: the choice is kept and sent by itself once the phone is back.
    phone.set_offline(True)
    line.get_by_role("button", name="Correct deal 1 to mine").click()
    expect(line).to_contain_text("Deal 1: correcting theirs to yours, not sent yet.")
    editor.reload()
    expect(editor.locator("#kept-1")).to_contain_text(
        "Deal 1: correcting theirs to yours, not sent yet."
    )
    expect(editor.locator("#kept-1 .outbox-mine")).to_contain_text(MINE)
    assert [d["thrown_in"] for d in deals(live_server, game)] == [True]

    phone.set_offline(False)
    expect(editor.locator("#outbox")).to_be_hidden(timeout=15000)
    expect(editor.locator("#game .flash")).to_contain_text("Deal 1 corrected to yours")
    expect(editor.locator("#scoreboard")).to_contain_text("Deal 1:", timeout=5000)
    assert scores(editor) == ["2", "4", "2", "4", "2"]
    stored = deals(live_server, game)
    assert [d["number"] for d in stored] == [1]
    assert {k: stored[0][k] for k in DEAL_1_API} == DEAL_1_API
    log = changes(live_server, game)
    assert [(action, number) for action, number, _ in log] == [("add", 1), ("correct", 1)]
    assert log[0][2] != log[1][2]  # the API added it, this phone corrected it


def test_both_phones_offline_the_second_back_adds_its_deal_as_the_next(
    phone, other_phone, live_server
):
    """The other way round: this phone keeps a thrown-in deal 1, the other phone keeps a
    played one; the other phone is back first, this one then adds its deal as deal 2."""
    game = new_game(live_server)
    mine = open_as_editor(phone, live_server, game)
    theirs = open_as_editor(other_phone, live_server, game)
    phone.set_offline(True)
    other_phone.set_offline(True)
    pass_all(mine, 1)
    expect(mine.locator("#outbox")).to_contain_text("Deal 1: saved on this phone, not sent yet.")
    tap(theirs, DEAL_1)
    theirs.get_by_role("button", name="Save deal").click()
    expect(theirs.locator("#outbox")).to_contain_text("Deal 1: saved on this phone, not sent yet.")

    other_phone.set_offline(False)
    expect(theirs.locator("#outbox")).to_be_hidden(timeout=15000)
    phone.set_offline(False)
    line = mine.locator("#kept-1")
    expect(line).to_contain_text("Deal 1 was not sent:", timeout=15000)
    expect(line.locator(".outbox-theirs")).to_contain_text(MINE)
    expect(line.locator(".outbox-mine")).to_have_text("Everyone passed: thrown in.")

    line.get_by_role("button", name="Add mine as deal 2").click()
    expect(mine.locator("#outbox")).to_be_hidden(timeout=10000)
    stored = deals(live_server, game)
    assert [(d["number"], d["bidder"], d["thrown_in"]) for d in stored] == [
        (1, 1, False),
        (2, None, True),
    ]
    log = changes(live_server, game)
    assert [(action, number) for action, number, _ in log] == [("add", 1), ("add", 2)]
    assert log[0][2] != log[1][2]  # each phone its own
    # Both phones show the two deals.
    for page in (mine, theirs):
        expect(page.locator("#history")).to_contain_text("Deal 2", timeout=5000)
        expect(page.get_by_role("heading", name="Deal 3", exact=True)).to_be_visible()
