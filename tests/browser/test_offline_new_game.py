"""A game started with no connection: kept on the phone, started on the server once the
connection is back, and opened on the phone with its edit rights."""

import re

import pytest
from playwright.sync_api import expect

from scorekeeper.extensions import db
from scorekeeper.store.models import Game
from tests.browser.conftest import check_axe, read
from tests.browser.test_offline import until, worker_ready

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Bob", "Cy", "Di"]
KEPT_IDS = """async () => {
  const db = await new Promise((ok) => {
    const open = indexedDB.open("scorekeeper");
    open.onsuccess = () => ok(open.result);
  });
  const all = await new Promise((ok) => {
    const read = db.transaction("games").objectStore("games").getAll();
    read.onsuccess = () => ok(read.result);
  });
  db.close();
  return all.map((game) => game.id);
}"""
"""The ids of the games kept on the phone, read from its IndexedDB."""


def test_a_game_started_offline_is_started_on_the_server_when_the_phone_is_back(phone, live_server):
    home = phone.new_page()
    home.goto(live_server + "/")
    worker_ready(home)
    kept_page = repr(live_server + "/games/new?ruleset=shmear")  # under the app's root
    until(home, f"async () => !!(await caches.match({kept_page}))")
    phone.set_offline(True)

    # From the home screen, no signal: "Start a game" opens the kept new-game page.
    home.get_by_role("link", name="Start a game").click()
    expect(home.get_by_role("heading", name="New game")).to_be_visible()
    assert home.locator("html").get_attribute("data-offline-copy") is not None
    until(home, "window.htmx !== undefined")
    # Choosing another game works offline: its setup comes from the phone's copy.
    home.get_by_role("radio", name="Shmear", exact=True).check()
    expect(home.locator("#target-hint")).to_contain_text("Shmear is played to 11.")
    for seat, name in enumerate(PLAYERS, start=1):
        home.get_by_role("textbox", name=re.compile(f"^Player {seat}")).fill(name)
    home.get_by_role("spinbutton", name="Target score").fill("7")
    dealer = home.get_by_role("group", name="First dealer")
    dealer.get_by_role("radio", name="Bob", exact=True).check()
    home.get_by_role("button", name="Start game").click()

    kept = home.get_by_role("region", name="Games kept on this phone")
    expect(kept).to_be_visible()
    expect(kept).to_contain_text("Game kept on this phone: there is no connection.")
    expect(kept.locator(".kept-game-what")).to_have_text("Shmear to 7: Ann, Bob, Cy, Di")
    expect(kept).to_contain_text("not started on the server yet")
    check_axe(home)
    game_id = home.evaluate(KEPT_IDS)
    assert len(game_id) == 1
    game_id = game_id[0]

    # Kept across a reload with no signal, listed on home too.
    home.goto(live_server + "/")
    expect(home.get_by_role("region", name="Games kept on this phone")).to_contain_text(
        "Shmear to 7: Ann, Bob, Cy, Di"
    )

    # Back online: the game is started on the server and this phone opens it, as editor.
    phone.set_offline(False)
    home.wait_for_url(f"{live_server}/games/{game_id}", timeout=20000)
    expect(home.locator("#game .flash")).to_contain_text("Game started. Bob deals first.")
    expect(home.locator("#deal-form")).to_be_visible()
    game = read(live_server, f"/api/v1/games/{game_id}")
    assert [p["name"] for p in game["players"]] == PLAYERS
    assert (game["ruleset"], game["target"], game["first_dealer"]) == ("shmear", 7, 1)
    assert game["deals"] == []
    home.goto(live_server + "/")
    expect(home.get_by_role("region", name="Games kept on this phone")).to_be_hidden()
    expect(home.get_by_role("region", name="Games on this device")).to_contain_text(
        "Ann, Bob, Cy, Di"
    )


def test_a_game_started_offline_that_the_server_refuses_goes_back_to_the_form(phone, live_server):
    page = phone.new_page()
    page.goto(live_server + "/games/new?ruleset=shmear")
    worker_ready(page)
    until(page, "window.htmx !== undefined")
    phone.set_offline(True)
    for seat, name in enumerate(["Ann", "Bob"], start=1):  # Shmear needs three
        page.get_by_role("textbox", name=re.compile(f"^Player {seat}")).fill(name)
    page.get_by_role("button", name="Start game").click()
    kept = page.get_by_role("region", name="Games kept on this phone")
    expect(kept.locator(".kept-game-what")).to_have_text("Shmear to 11: Ann, Bob")

    phone.set_offline(False)
    expect(kept).to_contain_text("The server did not start this game:", timeout=20000)
    expect(kept).to_contain_text("The name in seat 2 must be")  # the engine's reason
    expect(kept).not_to_contain_text("there is no connection")
    kept.get_by_role("button", name="Back to the form").click()
    expect(kept).to_be_hidden()
    player = page.get_by_role("textbox", name=re.compile("^Player 2"))
    expect(player).to_have_value("Bob")
    page.get_by_role("textbox", name=re.compile("^Player 3")).fill("Cy")
    page.get_by_role("button", name="Start game").click()
    expect(page.get_by_role("region", name="Scoreboard")).to_be_visible()
    game = read(live_server, "/api/v1/games/" + page.url.rsplit("/", 1)[1])
    assert [p["name"] for p in game["players"]] == ["Ann", "Bob", "Cy"]


def test_a_game_started_from_the_kept_copy_is_kept_while_the_server_does_not_answer(
    phone, live_server
):
    """One bar of signal: the phone says it is online, but the new-game page came from
    the copy and the server does not answer the post."""
    page = phone.new_page()
    page.goto(live_server + "/games/new?ruleset=shmear")
    worker_ready(page)
    phone.set_offline(True)
    page.reload()
    assert page.locator("html").get_attribute("data-offline-copy") is not None
    phone.route(re.compile(r".*/games/new(\?.*)?$"), lambda route: route.abort())
    phone.set_offline(False)
    until(page, "window.htmx !== undefined")
    for seat, name in enumerate(["Ann", "Bob", "Cy"], start=1):
        page.get_by_role("textbox", name=re.compile(f"^Player {seat}")).fill(name)
    page.get_by_role("button", name="Start game").click()
    kept = page.get_by_role("region", name="Games kept on this phone")
    expect(kept.locator(".kept-game-what")).to_have_text("Shmear to 11: Ann, Bob, Cy")
    page.wait_for_timeout(1000)
    expect(kept).to_contain_text("not started on the server yet")

    phone.unroute(re.compile(r".*/games/new(\?.*)?$"))
    page.wait_for_url(re.compile(r".*/games/(?!new)[^/?#]+$"), timeout=20000)
    expect(page.locator("#deal-form")).to_be_visible()
    game = read(live_server, "/api/v1/games/" + page.url.rsplit("/", 1)[1])
    assert [p["name"] for p in game["players"]] == ["Ann", "Bob", "Cy"]


def test_same_players_again_works_with_no_connection(phone, live_server):
    page = phone.new_page()
    page.goto(live_server + "/games/new?ruleset=shmear")
    worker_ready(page)
    for seat, name in enumerate(["Ann", "Bob", "Cy", "Di"], start=1):
        page.get_by_role("textbox", name=re.compile(f"^Player {seat}")).fill(name)
    page.get_by_role("button", name="Start game").click()
    expect(page.get_by_role("region", name="Scoreboard")).to_be_visible()
    page.goto(live_server + "/games/new")
    # The copy kept of the page is the one with this line-up.
    copy = "(await (await caches.open('pages')).match(location.href)).text()"
    until(page, f"async () => (await {copy}).includes('data-names')")
    phone.set_offline(True)
    page.reload()
    assert page.locator("html").get_attribute("data-offline-copy") is not None
    until(page, "window.htmx !== undefined")
    page.get_by_role("link", name="Ann, Bob, Cy, Di").click()
    expect(page.locator("#target-hint")).to_contain_text("Shmear is played to 11.")
    expect(page.get_by_role("textbox", name=re.compile("^Player 4"))).to_have_value("Di")
    page.get_by_role("button", name="Start game").click()
    kept = page.get_by_role("region", name="Games kept on this phone")
    expect(kept.locator(".kept-game-what")).to_have_text("Shmear to 11: Ann, Bob, Cy, Di")

    phone.set_offline(False)
    page.wait_for_url(re.compile(r".*/games/(?!new)[^/?#]+$"), timeout=20000)
    game = read(live_server, "/api/v1/games/" + page.url.rsplit("/", 1)[1])
    assert [p["name"] for p in game["players"]] == ["Ann", "Bob", "Cy", "Di"]
    assert game["ruleset"] == "shmear"


NEW_GAME = re.compile(r".*/games/new(\?.*)?$")
GAME_PAGE = re.compile(r".*/games/(?!new)[^/?#]+$")


def games_stored(live_app):
    with live_app.app_context():
        return db.session.query(Game).count()


def hold_starts(held, status):
    """A route that holds each post of "Start game" (answered `status`, or never)."""

    def handle(route):
        request = route.request
        if request.method != "POST" or "switch=" in (request.post_data or ""):
            route.continue_()
            return
        held.append(route)
        if status is not None:
            route.fulfill(status=status, body="Busy")

    return handle


def fill_names(page, names):
    for seat, name in enumerate(names, start=1):
        page.get_by_role("textbox", name=re.compile(f"^Player {seat}")).fill(name)


@pytest.mark.parametrize("status", [None, 503], ids=["no answer in time", "server error"])
def test_start_game_with_a_server_that_does_not_answer_keeps_the_game_and_starts_it_once(
    phone, live_app, live_server, status
):
    """The phone believes it is online; the server does not answer the post (or answers
    503): the game is kept as when offline, and started once when the server answers."""
    page = phone.new_page()
    page.goto(live_server + "/games/new?ruleset=shmear")
    until(page, "window.htmx !== undefined")
    before = games_stored(live_app)
    held = []
    page.route(NEW_GAME, hold_starts(held, status))
    fill_names(page, ["Hal", "Ivy", "Jo"])
    page.get_by_role("button", name="Start game").click()

    kept = page.get_by_role("region", name="Games kept on this phone")
    said = "Game kept on this phone: the server did not answer."
    expect(kept).to_contain_text(said, timeout=20000)
    expect(kept.locator(".kept-game-what")).to_have_text("Shmear to 11: Hal, Ivy, Jo")
    expect(kept).to_contain_text("not started on the server yet")
    assert page.url.endswith("/games/new?ruleset=shmear")
    game_id = page.evaluate(KEPT_IDS)
    assert len(game_id) == 1
    game_id = game_id[0]
    if status is None:
        # That post did reach the server, which started the game; only its answer was lost.
        assert held[0].fetch(max_redirects=0).status == 303
        assert games_stored(live_app) == before + 1
    else:
        assert games_stored(live_app) == before

    # The server answers again: the kept game is sent by itself, found or started, once.
    page.unroute(NEW_GAME)
    page.wait_for_url(f"{live_server}/games/{game_id}", timeout=40000)
    expect(page.locator("#deal-form")).to_be_visible()
    game = read(live_server, f"/api/v1/games/{game_id}")
    assert [p["name"] for p in game["players"]] == ["Hal", "Ivy", "Jo"]
    assert games_stored(live_app) == before + 1
    assert page.evaluate(KEPT_IDS) == []


def test_start_game_refused_by_the_server_shows_its_reasons_and_keeps_nothing(
    phone, live_app, live_server
):
    page = phone.new_page()
    page.goto(live_server + "/games/new?ruleset=shmear")
    until(page, "window.htmx !== undefined")
    before = games_stored(live_app)
    refused = []
    page.on("response", lambda r: refused.append(r.status) if r.request.method == "POST" else None)
    fill_names(page, ["Kit", "Kit", "Lu"])  # one name twice
    page.get_by_role("button", name="Start game").click()
    expect(page.locator("#players-errors")).to_contain_text("Each player needs a different name")
    assert refused == [422]
    assert page.url.endswith("/games/new?ruleset=shmear")
    expect(page.get_by_role("region", name="Games kept on this phone")).to_be_hidden()
    assert page.evaluate(KEPT_IDS) == []
    assert games_stored(live_app) == before
    # Put right, it starts as usual.
    page.get_by_role("textbox", name=re.compile("^Player 2")).fill("Max")
    page.get_by_role("button", name="Start game").click()
    page.wait_for_url(GAME_PAGE)
    expect(page.locator("#game .flash")).to_contain_text("Game started.")
    game = read(live_server, "/api/v1/games/" + page.url.rsplit("/", 1)[1])
    assert [p["name"] for p in game["players"]] == ["Kit", "Max", "Lu"]
    assert games_stored(live_app) == before + 1
