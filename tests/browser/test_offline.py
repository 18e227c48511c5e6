"""Phones without a connection: the viewer that lost the game says so and catches up."""

import json
import re
import time
import urllib.request

import pytest
from playwright.sync_api import expect

from tests.browser.test_live import DEAL_1, DEAL_1_API, api, new_game, scores, tap
from tests.browser.test_table import pass_all

pytestmark = pytest.mark.browser

OFFLINE_MARK = re.compile(r"^Offline — last update \d{1,2}:\d{2}")


def test_a_viewer_that_lost_the_game_says_since_when_and_catches_up_by_itself(phone, live_server):
    game = new_game(live_server)
    viewer = phone.new_page()
    viewer.goto(f"{live_server}/games/{game['id']}")
    expect(viewer.locator("html")).to_have_attribute("data-stream", "open")
    mark = viewer.locator("#offline-mark")
    expect(mark).to_be_hidden()

    phone.set_offline(True)
    expect(mark).to_be_visible()
    expect(mark).to_have_text(OFFLINE_MARK)
    expect(mark).to_have_attribute("role", "status")
    # The polls go on failing; the mark stays and keeps the time it last heard.
    shown = mark.inner_text()
    viewer.wait_for_timeout(2500)
    assert mark.inner_text() == shown

    # Meanwhile the scorekeeper saves a deal; the viewer cannot know yet.
    api(live_server, f"/api/v1/games/{game['id']}/deals", DEAL_1_API, game["edit_token"])
    expect(viewer.locator("#scoreboard")).not_to_contain_text("Deal 1:")

    phone.set_offline(False)
    expect(viewer.locator("#scoreboard")).to_contain_text("Deal 1:", timeout=5000)
    expect(mark).to_be_hidden()
    expect(viewer.locator("html")).to_have_attribute("data-stream", "open", timeout=10000)


def kept(page):
    """Return the lines of the deals kept on this phone, as the page lists them."""
    return page.locator("#outbox .outbox-deal p").all_inner_texts()


def deals(live_server, game):
    """Return the deals the server has stored for the game."""
    with urllib.request.urlopen(f"{live_server}/api/v1/games/{game['id']}", timeout=5) as answer:
        return json.load(answer)["deals"]


def open_as_editor(context, live_server, game):
    page = context.new_page()
    page.goto(f"{live_server}/games/{game['id']}/edit/{game['edit_token']}")
    expect(page.locator("#deal-form")).to_be_visible()
    until(page, "window.htmx !== undefined")
    return page


def test_a_deal_saved_with_no_signal_is_kept_on_the_phone_and_sent_by_itself(phone, live_server):
    game = new_game(live_server)
    editor = open_as_editor(phone, live_server, game)

    phone.set_offline(True)
    tap(editor, DEAL_1)
    editor.get_by_role("button", name="Save deal").click()
    expect(editor.locator("#game .flash")).to_contain_text(
        "Deal 1 saved on this phone, not sent yet"
    )
    expect(editor.get_by_role("region", name="Kept on this phone")).to_be_visible()
    assert kept(editor) == ["Deal 1: saved on this phone, not sent yet."]
    # The form is cleared for the next deal, as after a save.
    expect(editor.get_by_role("heading", name="Deal 2", exact=True)).to_be_visible()
    assert editor.locator('#deal-form input[name="number"]').input_value() == "2"
    assert editor.locator("#deal-form input:checked").count() == 0
    assert deals(live_server, game) == []

    # The tab is closed; the phone is back on a network whose server does not answer yet.
    editor.close()
    phone.route("**/deals", lambda route: route.fulfill(status=502, body="Bad gateway"))
    phone.set_offline(False)
    editor = phone.new_page()
    with editor.expect_response(lambda r: r.url.endswith("/deals") and r.status == 502):
        editor.goto(f"{live_server}/games/{game['id']}")
    expect(editor.locator("#outbox")).to_contain_text("Deal 1: saved on this phone, not sent yet.")
    assert deals(live_server, game) == []

    # The server answers again: deal 1 goes by itself, with no tap.
    phone.unroute("**/deals")
    expect(editor.locator("#scoreboard")).to_contain_text("Deal 1:", timeout=15000)
    expect(editor.locator("#outbox")).to_be_hidden()
    expect(editor.locator("#game .flash")).to_contain_text(
        "Every deal kept on this phone has been sent."
    )
    stored = deals(live_server, game)
    assert [d["number"] for d in stored] == [1]
    assert {k: stored[0][k] for k in DEAL_1_API} == DEAL_1_API
    assert scores(editor) == ["2", "4", "2", "4", "2"]
    expect(editor.get_by_role("heading", name=re.compile("^Deal 2"))).to_be_visible()


def test_two_deals_entered_offline_reach_the_server_in_order(phone, live_server):
    game = new_game(live_server)
    editor = open_as_editor(phone, live_server, game)

    phone.set_offline(True)
    tap(editor, DEAL_1)
    editor.get_by_role("button", name="Save deal").click()
    expect(editor.get_by_role("heading", name="Deal 2", exact=True)).to_be_visible()
    pass_all(editor, 2)
    expect(editor.get_by_role("heading", name="Deal 3", exact=True)).to_be_visible()
    assert kept(editor) == [
        "Deal 1: saved on this phone, not sent yet.",
        "Deal 2: saved on this phone, not sent yet.",
    ]

    phone.set_offline(False)
    expect(editor.locator("#outbox")).to_be_hidden(timeout=10000)
    stored = deals(live_server, game)
    assert [(d["number"], d["bidder"], d["thrown_in"]) for d in stored] == [
        (1, 1, False),
        (2, None, True),
    ]
    expect(editor.locator("#history")).to_contain_text("Deal 2", timeout=5000)
    assert scores(editor) == ["2", "4", "2", "4", "2"]
    expect(editor.get_by_role("heading", name=re.compile("^Deal 3"))).to_be_visible()


def test_a_kept_deal_another_phone_numbered_first_stays_until_the_scorekeeper_chooses(
    phone, live_server
):
    game = new_game(live_server)
    editor = open_as_editor(phone, live_server, game)
    phone.set_offline(True)
    tap(editor, DEAL_1)
    editor.get_by_role("button", name="Save deal").click()
    expect(editor.locator("#outbox")).to_be_visible()

    # Another phone saves deal 1 (everyone passed) while this one has no signal.
    thrown_in = {"number": 1, "thrown_in": True}
    api(live_server, f"/api/v1/games/{game['id']}/deals", thrown_in, game["edit_token"])
    phone.set_offline(False)
    line = editor.locator("#kept-1")
    expect(line).to_contain_text("Deal 1 was not sent:", timeout=10000)
    expect(line).to_contain_text("Deal 1 was just saved by another phone")
    # Kept, not dropped: still there after a reload, waiting for the scorekeeper.
    editor.reload()
    expect(editor.locator("#kept-1")).to_contain_text("Deal 1 was not sent:")
    editor.wait_for_timeout(1000)
    assert [d["number"] for d in deals(live_server, game)] == [1]

    editor.locator("#kept-1").get_by_role("button", name="Add mine as deal 2").click()
    expect(editor.locator("#outbox")).to_be_hidden(timeout=10000)
    stored = deals(live_server, game)
    assert [(d["number"], d["bidder"]) for d in stored] == [(1, None), (2, 1)]
    expect(editor.locator("#history")).to_contain_text("Deal 2", timeout=5000)
    expect(editor.get_by_role("heading", name=re.compile("^Deal 3"))).to_be_visible()


def test_a_kept_deal_the_rules_refuse_goes_back_to_the_form_and_is_saved_from_there(
    phone, live_server
):
    game = new_game(live_server)
    editor = open_as_editor(phone, live_server, game)
    phone.set_offline(True)
    tap(editor, DEAL_1[:6])  # bidder to partner: the points are not entered yet
    editor.get_by_role("button", name="Save deal").click()
    expect(editor.locator("#outbox")).to_be_visible()

    phone.set_offline(False)
    line = editor.locator("#kept-1")
    expect(line).to_contain_text("Deal 1 was not saved:", timeout=10000)
    expect(line.get_by_role("button", name="Add mine as deal 2")).to_have_count(0)
    line.get_by_role("button", name="Back to the form").click()
    expect(line).to_contain_text("Deal 1 is back in the form")
    expect(editor.get_by_role("heading", name="Deal 1", exact=True)).to_be_visible()
    bidder = editor.get_by_role("group", name="Bidder", exact=True)
    expect(bidder.get_by_role("radio", name="Bob", exact=True)).to_be_checked()
    assert deals(live_server, game) == []

    tap(editor, DEAL_1[6:])
    editor.get_by_role("button", name="Save deal").click()
    expect(editor.locator("#scoreboard")).to_contain_text("Deal 1:")
    expect(editor.locator("#outbox")).to_be_hidden()
    stored = deals(live_server, game)
    assert {k: stored[0][k] for k in DEAL_1_API} == DEAL_1_API


def test_a_deal_back_in_the_form_keeps_its_number_when_a_live_answer_settles_meanwhile(
    phone, live_server
):
    """The live answer that follows the connection's return can settle while the phone is
    still storing "back in the form": the form stays the refused deal's, not the next."""
    game = new_game(live_server)
    editor = open_as_editor(phone, live_server, game)
    phone.set_offline(True)
    tap(editor, DEAL_1[:6])
    editor.get_by_role("button", name="Save deal").click()
    expect(editor.locator("#outbox")).to_be_visible()
    phone.set_offline(False)
    line = editor.locator("#kept-1")
    expect(line).to_contain_text("Deal 1 was not saved:", timeout=10000)
    # The tap and a settling live answer in one task: the store has not answered yet.
    editor.evaluate(
        """() => {
            document.querySelector('#kept-1 [data-outbox="form"]').click();
            document.body.dispatchEvent(new CustomEvent("htmx:afterSettle", { bubbles: true }));
        }"""
    )
    expect(line).to_contain_text("Deal 1 is back in the form")
    expect(editor.get_by_role("heading", name="Deal 1", exact=True)).to_be_visible()
    expect(editor.locator('#deal-form input[name="number"]')).to_have_value("1")


def cut_off(context):
    """Take the phone off the network: its pages, and its service worker's own fetches."""
    context.set_offline(True)


def until(page, script, seconds=10):
    """Wait until the script is true in the page (the page's CSP forbids Playwright's
    own polling, which evaluates strings; each evaluate goes through DevTools instead)."""
    deadline = time.monotonic() + seconds
    while not page.evaluate(script):
        assert time.monotonic() < deadline, f"still false after {seconds} s: {script}"
        page.wait_for_timeout(100)


def worker_ready(page):
    """Wait until the service worker controls the page and has kept its copy of it. Its
    install keeps the new-game and offline pages of every ruleset first: on a server that
    has not rendered them yet (a test run alone) that takes several seconds."""
    until(page, "navigator.serviceWorker.controller !== null", seconds=30)
    until(page, "async () => !!(await (await caches.open('pages')).match(location.href))")


def test_a_game_opened_once_opens_again_with_no_connection_marked_offline(phone, live_server):
    game = new_game(live_server)
    api(live_server, f"/api/v1/games/{game['id']}/deals", DEAL_1_API, game["edit_token"])
    editor = open_as_editor(phone, live_server, game)
    worker_ready(editor)

    cut_off(phone)
    editor.reload()
    # The page is the copy this phone kept, and says so.
    assert editor.locator("html").get_attribute("data-offline-copy")
    mark = editor.locator("#offline-mark")
    expect(mark).to_have_text(OFFLINE_MARK)
    expect(editor.locator("#scoreboard")).to_contain_text("Deal 1:")
    assert scores(editor) == ["2", "4", "2", "4", "2"]
    expect(editor.locator("#history")).to_contain_text("Deal 1")

    # A deal saved on the copy is kept, and still there after another reload offline.
    pass_all(editor, 2)
    expect(editor.locator("#outbox")).to_contain_text("Deal 2: saved on this phone, not sent yet.")
    editor.reload()
    assert editor.locator("html").get_attribute("data-offline-copy")
    expect(editor.locator("#outbox")).to_contain_text("Deal 2: saved on this phone, not sent yet.")
    expect(editor.get_by_role("heading", name="Deal 3", exact=True)).to_be_visible()
    assert [d["number"] for d in deals(live_server, game)] == [1]

    # Home and the rules open too; a page never opened here says it has no copy.
    for path, heading in (("/", "Score pad"), ("/rules", "Rules"), ("/tables/new", "Offline")):
        other = phone.new_page()
        other.goto(live_server + path)
        assert other.locator("html").get_attribute("data-offline-copy") is not None, path
        expect(other.locator("#offline-mark")).to_have_text(OFFLINE_MARK)
        expect(other.locator("h1").first).to_contain_text(heading)
        other.close()

    # Back online: the kept deal goes by itself, and the page is live again.
    phone.set_offline(False)
    expect(editor.locator("#outbox")).to_be_hidden(timeout=15000)
    expect(mark).to_be_hidden()
    expect(editor.locator("#history")).to_contain_text("Deal 2", timeout=5000)
    assert [d["number"] for d in deals(live_server, game)] == [1, 2]


def test_a_viewers_copy_is_a_viewers_page(phone, live_server):
    game = new_game(live_server)
    viewer = phone.new_page()
    viewer.goto(f"{live_server}/games/{game['id']}")
    worker_ready(viewer)
    cut_off(phone)
    viewer.reload()
    assert viewer.locator("html").get_attribute("data-offline-copy")
    expect(viewer.locator("#offline-mark")).to_have_text(OFFLINE_MARK)
    assert viewer.locator("form").count() == 0
    assert game["edit_token"] not in viewer.content()


def test_a_new_release_takes_over_cleanly_and_a_kept_deal_outlives_it(phone, live_app, live_server):
    shells = "async () => (await caches.keys()).filter(n => n.startsWith('shell-')).sort()"
    live_app.config["RELEASE"] = "test-one"
    try:
        game = new_game(live_server)
        editor = open_as_editor(phone, live_server, game)
        worker_ready(editor)
        until(editor, f"async () => JSON.stringify(await ({shells})()) === '[\"shell-test-one\"]'")

        # A deal kept on the phone while the server is away …
        editor.route("**/deals", lambda route: route.fulfill(status=502, body="Bad gateway"))
        phone.set_offline(True)
        tap(editor, DEAL_1)
        editor.get_by_role("button", name="Save deal").click()
        expect(editor.locator("#outbox")).to_be_visible()

        # … and a new release meanwhile. Back online, the phone takes it at once: the new
        # worker controls the page, the old shell is gone, and nothing else is lost.
        live_app.config["RELEASE"] = "test-two"
        phone.set_offline(False)
        until(
            editor,
            f"async () => JSON.stringify(await ({shells})()) === '[\"shell-test-two\"]'",
            seconds=60,
        )
        until(editor, "navigator.serviceWorker.controller.scriptURL.endsWith('/sw.js')")
        editor.reload()
        expect(editor.locator("#outbox")).to_contain_text(
            "Deal 1: saved on this phone, not sent yet."
        )
        assert editor.evaluate("async () => !!(await caches.match(location.href))")
        assert deals(live_server, game) == []

        editor.unroute("**/deals")
        expect(editor.locator("#outbox")).to_be_hidden(timeout=15000)
        assert [d["number"] for d in deals(live_server, game)] == [1]
    finally:
        live_app.config["RELEASE"] = None


def test_taps_held_beside_another_phones_deal_are_kept_offline_as_the_deal_chosen(
    phone, live_server
):
    game = new_game(live_server)
    editor = open_as_editor(phone, live_server, game)
    tap(editor, DEAL_1)
    # Another phone saves deal 1 first: the taps wait beside it, with the two choices.
    thrown_in = {"number": 1, "thrown_in": True}
    api(live_server, f"/api/v1/games/{game['id']}/deals", thrown_in, game["edit_token"])
    save_as = editor.get_by_role("button", name="Save mine as deal 2")
    expect(save_as).to_be_visible(timeout=5000)

    phone.set_offline(True)
    save_as.click()
    expect(editor.locator("#outbox")).to_contain_text("Deal 2: saved on this phone, not sent yet.")
    # The form is for deal 3 and can be saved again.
    expect(editor.get_by_role("heading", name="Deal 3", exact=True)).to_be_visible()
    expect(editor.get_by_role("button", name="Save deal")).to_be_visible()

    phone.set_offline(False)
    expect(editor.locator("#outbox")).to_be_hidden(timeout=10000)
    stored = deals(live_server, game)
    assert [(d["number"], d["bidder"]) for d in stored] == [(1, None), (2, 1)]


def held_post(page, held, count, seconds=15):
    """Wait until `count` posts are held by the route; return the last."""
    deadline = time.monotonic() + seconds
    while len(held) < count:
        assert time.monotonic() < deadline, f"{len(held)} posts, not {count}"
        page.wait_for_timeout(50)
    return held[count - 1]


def test_a_save_answered_5xx_or_not_in_time_is_kept_and_never_saved_twice(phone, live_server):
    game = new_game(live_server)
    editor = open_as_editor(phone, live_server, game)

    # The server answers 503: deal 1 is kept, then sent once it answers again.
    phone.route("**/deals", lambda route: route.fulfill(status=503, body="Busy"))
    tap(editor, DEAL_1)
    editor.get_by_role("button", name="Save deal").click()
    expect(editor.locator("#outbox")).to_contain_text("Deal 1: saved on this phone, not sent yet.")
    phone.unroute("**/deals")
    expect(editor.locator("#outbox")).to_be_hidden(timeout=15000)
    assert [d["number"] for d in deals(live_server, game)] == [1]

    # Deal 2's save gets no answer within 10 s: the phone keeps it and sends it again. That
    # post reaches the server but its answer is lost, so the phone sends it once more: the
    # server has that very deal already, and says it is saved.
    held = []
    phone.route("**/deals", lambda route: held.append(route))
    pass_all(editor, 2)
    held_post(editor, held, 1)  # never answered
    expect(editor.locator("#outbox")).to_contain_text(
        "Deal 2: saved on this phone, not sent yet.", timeout=15000
    )
    again = held_post(editor, held, 2)
    assert again.fetch().status == 200  # deal 2 stored; this answer is lost
    assert [d["number"] for d in deals(live_server, game)] == [1, 2]
    answer = again.fetch()  # the same post once more
    assert answer.status == 200
    again.fulfill(response=answer)
    phone.unroute("**/deals")
    expect(editor.locator("#outbox")).to_be_hidden()
    expect(editor.locator("#game .flash")).to_contain_text(
        "Every deal kept on this phone has been sent."
    )
    stored = deals(live_server, game)
    assert [(d["number"], d["thrown_in"]) for d in stored] == [(1, False), (2, True)]


def test_a_save_on_its_way_when_another_phones_deal_arrives_is_kept_if_it_fails(phone, live_server):
    game = new_game(live_server)
    editor = open_as_editor(phone, live_server, game)
    held = []
    phone.route("**/deals", lambda route: held.append(route))
    tap(editor, DEAL_1)
    editor.get_by_role("button", name="Save deal").click()
    held_post(editor, held, 1)  # on its way, never answered
    # Meanwhile another phone saves deal 1: the live answer replaces the form under it.
    thrown_in = {"number": 1, "thrown_in": True}
    api(live_server, f"/api/v1/games/{game['id']}/deals", thrown_in, game["edit_token"])
    expect(editor.locator("#history")).to_contain_text("Deal 1", timeout=5000)
    # The save gives up after 10 s: it is kept, sent, and refused, and stays for a choice.
    line = editor.locator("#kept-1")
    expect(line).to_be_visible(timeout=15000)
    again = held_post(editor, held, 2)
    again.fulfill(response=again.fetch())
    phone.unroute("**/deals")
    expect(line).to_contain_text("Deal 1 was not sent:")
    expect(line.get_by_role("button", name="Add mine as deal 2")).to_be_visible()
    assert [(d["number"], d["thrown_in"]) for d in deals(live_server, game)] == [(1, True)]
