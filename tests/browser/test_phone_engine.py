"""The engine on the scorekeeper's phone: Pyodide in a module worker, offline too.

The worker runs scorekeeper/engine/ and scorekeeper/phone.py as the app bundles them,
on the runtime `make install` vendors (tools/vendor_pyodide.py).
"""

import json
import re
import time

import pytest
from playwright.sync_api import expect
from werkzeug.datastructures import MultiDict

from tests.browser.conftest import server_board
from tests.browser.test_live import DEAL_1, DEAL_1_API, new_game, tap
from tests.browser.test_offline import deals, open_as_editor, until, worker_ready

pytestmark = pytest.mark.browser

READY_WITHIN = 240  # seconds: a cold start on a busy machine, not a speed target (bench/)


@pytest.fixture(autouse=True)
def engine_on(live_app):
    """Serve editors' pages with the engine's worker, as the app does by default."""
    live_app.config["PHONE_ENGINE"] = True
    yield
    live_app.config["PHONE_ENGINE"] = False


PHONE_MODULE = """document.querySelector('script[type=module][src*="/phone."]').src"""
"""The address of static/phone.js as the page imported it: importing it again gives that very
module, and the engine it exports."""
READY = """async () => {
    const script = document.querySelector('script[type=module][src*="/phone."]');
    return Boolean(script) && (await import(script.src)).phone.ready();
}"""
"""True once the engine is ready on the page: its module loaded, the worker started."""


def engine_ready(page):
    until(page, READY, READY_WITHIN)


def preview_html(page):
    return page.locator("#deal-preview").inner_html()


def normal(html):
    """Return markup with its spaces made single, none between tags nor before a closing
    tag (a space the browser does not show)."""
    single = re.sub(r"\s+", " ", html)
    return re.sub(r"\s+</", "</", re.sub(r">\s+<", "><", single)).strip()


def phone_render(page):
    """Return the phone's preview of the form's fields as they are, as the page writes it."""
    return normal(
        page.evaluate(
            """async (module) => {
                const taps = [];
                new FormData(document.getElementById("deal-form")).forEach((value, name) => {
                    if (name !== "csrf_token") { taps.push([name, value]); }
                });
                const { phone } = await import(module);
                const answer = await phone.call(
                    "preview", [document.getElementById("outbox").dataset.game, "[]",
                                JSON.stringify(taps)]);
                return phone.render(answer);
            }""",
            page.evaluate(PHONE_MODULE),
        )
    )


def settled(page, selector, expected, seconds=30):
    """Wait until the preview shown matches `selector` and reads `expected`; return it."""
    deadline = time.monotonic() + seconds
    while True:
        shown = page.locator(selector).count() == 1 and normal(preview_html(page))
        if shown == expected:
            return shown
        assert time.monotonic() < deadline, f"the preview shown is {shown!r}, not {expected!r}"
        page.wait_for_timeout(100)


def test_the_engine_runs_on_the_phone_and_previews_as_the_server_does(phone, live_server):
    game = new_game(live_server)
    editor = open_as_editor(phone, live_server, game)
    engine_ready(editor)
    tap(editor, DEAL_1)
    # The server's preview comes and confirms the phone's: the same words and markup.
    server = settled(editor, "#deal-preview:not([data-from])", phone_render(editor))
    tap(editor, [("Game", "Opponents")])
    opponents = settled(editor, "#deal-preview:not([data-from])", phone_render(editor))
    assert opponents != server

    # Offline, the phone's preview is the one shown: the server's words, as online.
    phone.set_offline(True)
    tap(editor, [("Game", "Bidders")])
    settled(editor, "#deal-preview[data-from=phone]", server)
    tap(editor, [("Game", "Opponents")])
    settled(editor, "#deal-preview[data-from=phone]", opponents)


def as_the_browser_writes(page, html):
    """Return markup as the page writes it back (' for &#39; …), to compare with its own,
    without what htmx swaps elsewhere (`hx-swap-oob`: the auction's refusals, beside it)."""
    return page.evaluate(
        "(html) => { const d = document.createElement('div'); d.innerHTML = html;"
        " d.querySelectorAll('[hx-swap-oob]').forEach((e) => e.remove());"
        " return d.innerHTML; }",
        html,
    )


def worker_preview(page, game_id, kept, taps):
    """Return the phone's preview, as the page shows it, for these taps after `kept`."""
    return page.evaluate(
        """async ([module, id, kept, taps]) => {
            const { phone } = await import(module);
            const answer = await phone.call("preview", [id, kept, taps]);
            return phone.render(answer);
        }""",
        [page.evaluate(PHONE_MODULE), game_id, json.dumps(kept), json.dumps(taps)],
    )


def worker_play(page, game_id, kept):
    answer = page.evaluate(
        "async ([module, id, kept]) => (await import(module)).phone.call('play', [id, kept])",
        [page.evaluate(PHONE_MODULE), game_id, json.dumps(kept)],
    )
    return json.loads(answer)


def test_every_worked_game_played_offline_from_its_first_deal_then_synced(
    phone, live_server, live_app
):
    """Every deal of every worked game of tests/data/, all seven rulesets: the phone's
    preview offline is the server's, word for word and tag for tag, and the scores, dealer
    and outcome it shows after the deals kept are what the server stores once they are sent."""
    from tests.test_pages_rulesets import GAMES, api_game, start_worked
    from tests.test_phone import taps_of

    editor = open_as_editor(phone, live_server, new_game(live_server))
    engine_ready(editor)
    played = []
    for example in GAMES:
        client = live_app.test_client()  # a browser holds the edit rights of 20 games at most
        url = start_worked(client, example)
        game_id = url.rsplit("/", 1)[1]
        # The phone has the game as it started (its export), then loses the network.
        editor.evaluate(
            """async ([module, url]) => (await import(module)).phone.call(
                "load", [await (await fetch(url + "/export.json")).text()])""",
            [editor.evaluate(PHONE_MODULE), url],
        )
        played.append((example, client, url, game_id))
    phone.set_offline(True)
    offline = {}
    for example, _client, _url, game_id in played:
        kept, seen = [], []
        for number, entry in enumerate(example["deals"], start=1):
            taps = taps_of(example, entry, number)
            preview = worker_preview(editor, game_id, kept, taps)
            kept.append(taps)
            seen.append((taps, preview, worker_play(editor, game_id, kept)))
        offline[game_id] = seen
    phone.set_offline(False)

    # Synced: each deal sent as the outbox sends it, the server asked what it says.
    from tests.test_pages import csrf

    for example, client, url, game_id in played:
        token = csrf(client.get(url))
        for number, (taps, preview, board) in enumerate(offline[game_id], start=1):
            flag = any(name in ("thrown_in", "forfeit") for name, _ in taps)
            if not flag:
                answer = client.post(
                    f"{url}/preview",
                    data=MultiDict([*taps, ("csrf_token", token)]),
                    headers={"HX-Request": "true"},
                )
                server = as_the_browser_writes(editor, answer.text)
                assert normal(preview) == normal(server), (example["about"], number)
            saved = client.post(
                f"{url}/deals",
                data=MultiDict([*taps, ("csrf_token", token)]),
                headers={"HX-Request": "true"},
            )
            assert saved.status_code == 200, (example["about"], number)
            stored = api_game(client, url)
            assert board["deals"][-1]["number"] == number
            last = stored["deals"][-1]
            assert board["outcome"] == stored["explanation"], (example["about"], number)
            assert board["finished"] == (stored["status"] != "in_progress")
            assert board["dealer"] == stored["players"][stored["next_dealer"]]["name"]
            sides = {s["label"]: s for s in board["sides"]}
            for seat, player in enumerate(stored["players"]):
                side = next(s for label, s in sides.items() if player["name"] in label)
                assert side["score"] == player["score"], (example["about"], number, seat)
                assert side["delta"] == f"{last['deltas'][seat]:+d}"
            winners = {stored["players"][s]["name"] for s in stored["winners"]}
            assert {s["label"] for s in board["sides"] if s["winner"]} == {
                label for label in sides if any(w in label for w in winners)
            }


def kept_lines(page):
    return page.locator("#outbox .outbox-deal > p").all_inner_texts()


def board_rows(page):
    """Return the phone's scoreboard for the deals kept: (name, score) per side."""
    rows = page.locator("#outbox .outbox-board .score-row")
    names = rows.locator(".name").all_inner_texts()
    return list(zip(names, rows.locator(".score").all_inner_texts(), strict=True))


def test_the_engine_starts_from_the_phone_with_the_network_cut(phone, live_server):
    game = new_game(live_server)
    editor = open_as_editor(phone, live_server, game)
    worker_ready(editor)
    engine_ready(editor)
    # Every file the engine needs is kept on the phone once it has run.
    until(
        editor,
        """async () => {
            const names = await caches.keys();
            const runtime = names.find((name) => name.startsWith("runtime-"));
            if (!runtime) { return false; }
            const kept = await (await caches.open(runtime)).keys();
            return kept.some((r) => r.url.endsWith("/pyodide.asm.wasm"))
                && kept.some((r) => r.url.endsWith("/stdlib.zip"));
        }""",
    )
    phone.set_offline(True)
    editor.reload()
    expect(editor.locator("#offline-mark")).to_be_visible()
    engine_ready(editor)
    tap(editor, DEAL_1)
    preview = editor.locator("#deal-preview[data-from=phone]")
    expect(preview).to_contain_text("If saved:")
    expect(preview).to_contain_text("Ann +2")


def test_an_engine_ready_before_the_service_worker_still_starts_offline_the_next_time(
    phone, live_server
):
    """On a first visit the engine may have its game before the service worker controls the
    page (the worker's script is slow to come): once the worker does, it keeps what the
    engine fetched without it, the runtime and the game's export, and the phone starts
    offline."""
    held = []
    phone.route("**/sw.js", lambda route: held.append(route))
    game = new_game(live_server)
    editor = open_as_editor(phone, live_server, game)
    engine_ready(editor)
    assert held, "the page asked for no service worker"
    assert editor.evaluate("navigator.serviceWorker.controller") is None
    for route in held:
        route.continue_()
    phone.unroute("**/sw.js")
    worker_ready(editor)
    until(
        editor,
        """async () => {
            const kept = [];
            for (const name of await caches.keys()) {
                const cache = await caches.open(name);
                for (const r of await cache.keys()) { kept.push(new URL(r.url).pathname); }
            }
            const wanted = [document.getElementById("outbox").dataset.export,
                            "/phone/worker.js", "/stdlib.zip", "/pyodide.asm.wasm"];
            return wanted.every((end) => kept.some((path) => path.endsWith(end)));
        }""",
        READY_WITHIN,
    )
    phone.set_offline(True)
    editor.reload()
    expect(editor.locator("#offline-mark")).to_be_visible()
    engine_ready(editor)
    tap(editor, DEAL_1)
    expect(editor.locator("#deal-preview[data-from=phone]")).to_contain_text("Ann +2")


def test_a_scorekeeper_keeps_scoring_offline_and_the_server_stores_the_same(phone, live_server):
    game = new_game(live_server)
    editor = open_as_editor(phone, live_server, game)
    engine_ready(editor)
    phone.set_offline(True)

    # What the rules refuse is said beside its field, and nothing is kept: here Save is
    # tapped before the points are entered.
    tap(editor, DEAL_1[:6])
    expect(editor.locator("#deal-preview[data-from=phone] .preview-problems")).to_be_visible()
    editor.get_by_role("button", name="Save deal").click()
    expect(editor.locator("#high-group #high-errors")).to_have_text(
        "Every deal awards High: choose who held and played the ace of trump."
    )
    expect(editor.locator("#game-group .field-errors, #game-errors").first).to_be_visible()
    expect(editor.locator("#outbox")).to_be_hidden()
    assert editor.get_by_role("heading", name="Deal 1", exact=True).is_visible()

    tap(editor, DEAL_1[6:])
    expect(editor.locator("#deal-preview[data-from=phone]")).to_contain_text("If saved:")
    editor.get_by_role("button", name="Save deal").click()
    expect(editor.get_by_role("heading", name="Deal 2", exact=True)).to_be_visible()
    board = editor.locator("#outbox .outbox-board")
    expect(board).to_contain_text("On this phone, with the deals not sent yet")
    expect(editor.locator("#kept-1 .outbox-score")).to_contain_text("Ann +2")
    assert board_rows(editor) == [("Ann", "2"), ("Bob", "4"), ("Cy", "2"), ("Di", "4"), ("Ed", "2")]
    expect(board).to_contain_text("Bob deals next")

    # A second deal, previewed after the first kept one; then taken back before it is sent.
    tap(editor, DEAL_1)
    expect(editor.locator("#deal-preview[data-from=phone]")).to_contain_text("to 8")
    editor.get_by_role("button", name="Save deal").click()
    expect(editor.locator("#kept-2 .outbox-score")).to_be_visible()
    assert board_rows(editor) == [("Ann", "4"), ("Bob", "8"), ("Cy", "4"), ("Di", "8"), ("Ed", "4")]
    editor.locator("#kept-2").get_by_role("button", name="Undo deal 2").click()
    expect(editor.locator("#kept-2")).to_have_count(0)
    expect(editor.locator("#kept-1").get_by_role("button", name="Undo deal 1")).to_be_visible()
    assert board_rows(editor) == [("Ann", "2"), ("Bob", "4"), ("Cy", "2"), ("Di", "4"), ("Ed", "2")]
    offline_board = board_rows(editor)

    # Back online: the kept deal goes by itself; the server's scoreboard is the phone's.
    phone.set_offline(False)
    expect(editor.locator("#outbox")).to_be_hidden(timeout=15000)
    expect(editor.locator("#scoreboard")).to_contain_text("Deal 1:", timeout=5000)
    assert server_board(editor) == offline_board
    stored = deals(live_server, game)
    assert {k: stored[0][k] for k in DEAL_1_API} == DEAL_1_API
    assert len(stored) == 1
