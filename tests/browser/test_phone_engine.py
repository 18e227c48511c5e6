"""The engine on the scorekeeper's phone: Pyodide in a module worker, offline too.

The worker runs scorekeeper/engine/ and scorekeeper/phone.py as the app bundles them,
on the runtime `make install` vendors (tools/vendor_pyodide.py).
"""

import json
import re

import pytest
from playwright.sync_api import expect
from werkzeug.datastructures import MultiDict

from tests.browser.conftest import PHONE
from tests.browser.test_live import DEAL_1, new_game, tap
from tests.browser.test_offline import open_as_editor, until

pytestmark = pytest.mark.browser

READY_WITHIN = 60  # seconds: a cold start on a busy machine, not a speed target (bench/)


@pytest.fixture
def phone(browser):
    """One phone with its own cookies (and its own service worker); closed after the test."""
    context = browser.new_context(viewport=PHONE)
    yield context
    context.close()


def engine_ready(page):
    until(page, "!!(window.scorekeeperPhone && window.scorekeeperPhone.ready())", READY_WITHIN)


def preview_html(page):
    return page.locator("#deal-preview").inner_html()


def normal(html):
    """Return markup with its spaces made single, none between tags nor before a closing
    tag (a space the browser does not show)."""
    single = re.sub(r"\s+", " ", html)
    return re.sub(r"\s+</", "</", re.sub(r">\s+<", "><", single)).strip()


def test_the_engine_runs_on_the_phone_and_previews_as_the_server_does(phone, live_server):
    game = new_game(live_server)
    editor = open_as_editor(phone, live_server, game)
    engine_ready(editor)
    tap(editor, DEAL_1)
    # The server's preview comes and confirms the phone's: the same words.
    with editor.expect_response(lambda r: r.url.endswith("/preview")) as answer:
        tap(editor, [("Game", "Opponents")])
    expect(editor.locator("#deal-preview:not([data-from])")).to_have_count(1)
    server = normal(preview_html(editor))
    assert server == normal(answer.value.text())
    phone.set_offline(True)
    tap(editor, [("Game", "Bidders")])
    tap(editor, [("Game", "Opponents")])
    expect(editor.locator("#deal-preview[data-from=phone]")).to_have_count(1)
    assert normal(preview_html(editor)) == server


def as_the_browser_writes(page, html):
    """Return markup as the page writes it back (' for &#39; …), to compare with its own."""
    return page.evaluate(
        "(html) => { const d = document.createElement('div'); d.innerHTML = html;"
        " return d.innerHTML; }",
        html,
    )


def worker_preview(page, game_id, kept, taps):
    """Return the phone's preview, as the page shows it, for these taps after `kept`."""
    return page.evaluate(
        """async ([id, kept, taps]) => {
            const answer = await window.scorekeeperPhone.call("preview", [id, kept, taps]);
            return window.scorekeeperPhone.render(JSON.parse(answer));
        }""",
        [game_id, json.dumps(kept), json.dumps(taps)],
    )


def worker_play(page, game_id, kept):
    answer = page.evaluate(
        "([id, kept]) => window.scorekeeperPhone.call('play', [id, kept])",
        [game_id, json.dumps(kept)],
    )
    return json.loads(answer)


def test_every_worked_game_played_offline_from_its_first_deal_then_synced(
    phone, live_server, live_app
):
    """Every deal of every worked game of tests/data/, all seven rulesets: the phone's
    preview offline is the server's, word for word and tag for tag, and the scores, dealer
    and outcome it shows after the deals kept are what the server stores once they are sent."""
    from tests.test_pages_rulesets import GAMES, api_game, start
    from tests.test_phone import taps_of

    editor = open_as_editor(phone, live_server, new_game(live_server))
    engine_ready(editor)
    played = []
    for example in GAMES:
        client = live_app.test_client()  # a browser holds the edit rights of 20 games at most
        url = start(
            client,
            example["ruleset"],
            example["players"],
            example["first_dealer"],
            example["target"],
            example["house_rules"],
        )
        game_id = url.rsplit("/", 1)[1]
        # The phone has the game as it started (its export), then loses the network.
        editor.evaluate(
            """async (url) => window.scorekeeperPhone.call(
                "load", [await (await fetch(url + "/export.json")).text()])""",
            url,
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
