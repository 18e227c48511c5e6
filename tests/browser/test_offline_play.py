"""A game started with no connection and played on the phone, to the win: its page on the
phone (`/offline/games/<ruleset>#<id>`, static/made-here.js), each deal kept and scored by
the engine in the phone's worker, and the game sent once the connection is back, started
on the server first, then its deals in order; the phone then shows the server's page."""

import json
import weakref

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import check_axe, read, server_board
from tests.browser.test_live import DEAL_1, PLAYERS, new_game, tap
from tests.browser.test_offline import open_as_editor, until, worker_ready
from tests.browser.test_phone_engine import READY_WITHIN, engine_ready
from tests.test_pages_rulesets import GAMES, encode
from tests.test_phone import taps_of

pytestmark = pytest.mark.browser

RULESETS = list(dict.fromkeys(game["ruleset"] for game in GAMES))
SENT_WITHIN = 60_000  # ms: a guard for a page that never syncs, not a speed target

PAGE_ERRORS = weakref.WeakKeyDictionary()  # each phone's page: what went wrong in it

# What the phone holds when its outbox stays shown: the deals in its store (static/store.js)
# and the outbox as the page shows it.
HELD = """async () => {
  const db = await new Promise((resolve, reject) => {
    const opening = indexedDB.open("scorekeeper");
    opening.onsuccess = () => resolve(opening.result);
    opening.onerror = () => reject(opening.error);
  });
  const kept = await new Promise((resolve) => {
    const asked = db.transaction("outbox").objectStore("outbox").getAll();
    asked.onsuccess = () => resolve(asked.result.map((e) => [e.game, e.number, e.state, e.why]));
  });
  db.close();
  const box = document.getElementById("outbox");
  const shown = box && box.innerHTML.slice(-600);
  return JSON.stringify({ url: location.href, kept, hidden: box && box.hidden, shown });
}"""


@pytest.fixture(autouse=True)
def engine_on(live_app):
    """Serve editors' pages with the engine's worker, as the app does by default."""
    live_app.config["PHONE_ENGINE"] = True
    yield
    live_app.config["PHONE_ENGINE"] = False


def all_sent(page):
    """Wait until the phone has sent every deal it kept (its outbox hidden); failing that,
    say what it still holds and what the page said went wrong."""
    try:
        expect(page.locator("#outbox")).to_be_hidden(timeout=SENT_WITHIN)
    except AssertionError as error:
        held = page.evaluate(HELD)
        errors = PAGE_ERRORS.get(page, [])
        raise AssertionError(f"{error}\nOn the phone: {held}\nPage errors: {errors}") from None


def has_played_once(phone, live_server):
    """The phone a scorekeeper uses: it kept a game online once, so its service worker holds
    the app's pages and its engine's files. Return that page."""
    errors = []
    phone.on("weberror", lambda error: errors.append(str(error.error)))
    page = open_as_editor(phone, live_server, new_game(live_server))
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    PAGE_ERRORS[page] = errors
    worker_ready(page)
    engine_ready(page)
    until(
        page,
        """async () => {
            const names = await caches.keys();
            const runtime = names.find((name) => name.startsWith("runtime-"));
            if (!runtime) { return false; }
            const kept = await (await caches.open(runtime)).keys();
            const pages = await caches.open("pages");
            return kept.some((r) => r.url.endsWith("/pyodide.asm.wasm"))
                && kept.some((r) => r.url.endsWith("/stdlib.zip"))
                && (await Promise.all(MADE_HERE.map((url) => pages.match(url)))).every(Boolean);
        }""".replace(
            "MADE_HERE", json.dumps([f"{live_server}/offline/games/{r}" for r in RULESETS])
        ),
        READY_WITHIN,
    )
    return page


def start_offline(page, live_server, ruleset, players, first_dealer, target=None, house_rules=None):
    """Start a game on the new-game page's copy, with no connection, and open its page."""
    page.goto(f"{live_server}/games/new?ruleset={ruleset}")
    assert page.locator("html").get_attribute("data-offline-copy") is not None
    until(page, "window.htmx !== undefined")
    for seat, name in enumerate(players):
        page.locator(f'input[name="players-{seat}"]').fill(name)
    page.locator(f'input[name="first_dealer"][value="{first_dealer}"]').check()
    if target is not None:
        page.get_by_role("spinbutton", name="Target score").fill(str(target))
    for name, value in (house_rules or {}).items():
        page.locator(f'input[name="hr_{name}"][value="{encode(value)}"]').check()
    page.get_by_role("button", name="Start game").click()
    kept = page.get_by_role("region", name="Games kept on this phone")
    kept.get_by_role("link", name="Enter its deals on this phone").last.click()
    expect(page.locator("#deal-form")).to_be_visible()
    expect(page.get_by_role("heading", name="Deal 1", exact=True)).to_be_visible()
    engine_ready(page)
    return page.url.rsplit("#", 1)[1]


def phone_board(page):
    """Return the phone's scoreboard: (name, score) per side."""
    rows = page.locator("[data-phone-board] .score-row")
    names = rows.locator(".name").all_inner_texts()
    return list(zip(names, rows.locator(".score").all_inner_texts(), strict=True))


def save(page, number):
    page.get_by_role("button", name="Save deal").click()
    expect(page.locator("#kept-" + str(number))).to_be_visible()


def test_a_game_started_offline_is_played_on_the_phone_and_found_as_scored_on_the_server(
    phone, live_server
):
    page = has_played_once(phone, live_server)
    phone.set_offline(True)
    game_id = start_offline(page, live_server, "five-handed-schmier", PLAYERS, 0)
    expect(page.get_by_role("heading", level=1)).to_have_text(", ".join(PLAYERS))
    expect(page.locator("[data-turn]")).to_have_text("Ann deals · Bob bids first")
    assert phone_board(page) == [(name, "0") for name in PLAYERS]

    # Two deals, each previewed and scored on the phone.
    tap(page, DEAL_1)
    expect(page.locator("#deal-preview[data-from=phone]")).to_contain_text("If saved:")
    save(page, 1)
    expect(page.get_by_role("heading", name="Deal 2", exact=True)).to_be_visible()
    check_axe(page)
    expect(page.locator("[data-turn]")).to_have_text("Bob deals · Cy bids first")
    expect(page.locator("#kept-1 .outbox-score")).to_contain_text("Ann +2")
    expect(page.locator("[data-phone-board] .score-row .score")).to_have_text(
        ["2", "4", "2", "4", "2"]
    )
    tap(page, DEAL_1)
    expect(page.locator("#deal-preview[data-from=phone]")).to_contain_text("to 8")
    save(page, 2)
    expect(page.locator("[data-phone-board] .score-row .score")).to_have_text(
        ["4", "8", "4", "8", "4"]
    )
    # The deals kept are in the game's history, newest first, said to be on the phone only.
    history = page.get_by_role("region", name="Deals")
    kept_deals = history.get_by_role("list", name="Deals kept on this phone, not sent yet")
    expect(kept_deals.locator("h3")).to_have_text(
        [
            "Deal 2 dealt by Bob · kept on this phone, not sent yet",
            "Deal 1 dealt by Ann · kept on this phone, not sent yet",
        ]
    )
    expect(history.get_by_role("list", name="Changes in deal 1")).to_have_text(
        "Ann +2 Bob +4 Cy +2 Di +4 Ed +2", use_inner_text=True
    )
    expect(history.get_by_text("No deals yet.")).to_be_hidden()

    # A reload with no connection: the game, its deals kept and its scores are all there.
    page.reload()
    assert page.locator("html").get_attribute("data-offline-copy") is not None
    expect(page.get_by_role("heading", name="Deal 3", exact=True)).to_be_visible()
    expect(page.locator("#outbox .outbox-deal")).to_have_count(2)
    engine_ready(page)
    expect(page.locator("[data-phone-board] .score-row .score")).to_have_text(
        ["4", "8", "4", "8", "4"]
    )
    expect(page.locator("[data-turn]")).to_have_text("Cy deals · Di bids first")
    tap(page, DEAL_1)
    save(page, 3)
    expect(page.locator("[data-phone-board] .score-row .score")).to_have_text(
        ["6", "12", "6", "12", "6"]
    )
    offline = phone_board(page)

    # The connection is back: the game is started, its deals sent in order, and the phone
    # is on the server's own page of the game, with the scores it showed.
    phone.set_offline(False)
    page.wait_for_url(f"{live_server}/games/{game_id}", timeout=SENT_WITHIN)
    all_sent(page)
    expect(page.locator("#scoreboard .score-row .score")).to_have_text(
        [score for _name, score in offline], timeout=SENT_WITHIN
    )
    assert server_board(page) == offline
    expect(page.locator("#history .deals-kept")).to_have_count(0)
    expect(page.locator("#history .deal")).to_have_count(3)
    stored = read(live_server, f"/api/v1/games/{game_id}")
    assert [d["number"] for d in stored["deals"]] == [1, 2, 3]
    assert [(p["name"], str(p["score"])) for p in stored["players"]] == offline
    assert stored["first_dealer"] == 0


def fill(page, taps):
    """Tap the deal form's controls to these fields (radios, ticks and counts by name)."""
    page.evaluate(
        """(taps) => {
            const form = document.getElementById("deal-form");
            for (const [name, value] of taps) {
                if (name === "number") { continue; }
                for (const input of form.querySelectorAll(`[name="${CSS.escape(name)}"]`)) {
                    if (input.type === "radio") { input.checked = input.value === value; }
                    else if (input.type === "checkbox") { input.checked = true; }
                    else { input.value = value; }
                }
            }
            form.dispatchEvent(new Event("change", { bubbles: true }));
        }""",
        taps,
    )


def finished_game(ruleset):
    """The shortest worked game of this ruleset that ends with its outcome decided."""
    done = [
        g for g in GAMES if g["ruleset"] == ruleset and g["expected"]["status"] != "in_progress"
    ]
    return min(done, key=lambda g: len(g["deals"]))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_worked_game_played_offline_from_the_new_game_to_the_win(phone, live_server, ruleset):
    example = finished_game(ruleset)
    page = has_played_once(phone, live_server)
    phone.set_offline(True)
    game_id = start_offline(
        page,
        live_server,
        ruleset,
        example["players"],
        example["first_dealer"],
        example["target"],
        example["house_rules"],
    )
    for number, entry in enumerate(example["deals"], start=1):
        expect(page.locator('#deal-form input[name="number"]')).to_have_value(str(number))
        taps = taps_of(example, entry, number)
        flag = next((name for name, _value in taps if name in ("thrown_in", "forfeit")), None)
        if flag:
            page.locator(f"#flag-{flag} summary").click()
            page.locator(f"#flag-{flag} button[type=submit]").click()
            expect(page.locator(f"#kept-{number}")).to_be_visible()
        else:
            fill(page, taps)
            expect(page.locator("#deal-preview[data-from=phone] .preview-line")).to_be_visible()
            save(page, number)
        expect(page.locator(f"#kept-{number} .outbox-score")).to_be_visible()

    # The win on the phone: the form is withdrawn, the board says who won and why.
    outcome = page.locator("[data-phone-board] .outbox-outcome.is-finished")
    expect(outcome).to_be_visible()
    expect(page.locator("#deal-form")).to_be_hidden()
    said = outcome.inner_text()
    winners = page.locator("[data-phone-board] .score-row.is-winner .name").all_inner_texts()
    offline = phone_board(page)

    phone.set_offline(False)
    page.wait_for_url(f"{live_server}/games/{game_id}", timeout=SENT_WITHIN)
    all_sent(page)
    expect(page.locator(".banner")).to_contain_text(said, timeout=SENT_WITHIN)
    assert server_board(page) == offline
    stored = read(live_server, f"/api/v1/games/{game_id}")
    assert len(stored["deals"]) == len(example["deals"])
    assert stored["explanation"] == said
    assert stored["status"] == example["expected"]["status"]
    stored_winners = {stored["players"][seat]["name"] for seat in stored["winners"]}
    assert {name for label in winners for name in stored_winners if name in label} == (
        stored_winners
    )
    assert bool(winners) == bool(stored_winners)
