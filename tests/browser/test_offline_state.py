"""The phone's record of a game is its state: the last game it got from the server and the
deals kept on it. A page reopened with no signal shows the game as the phone last knew
it, not as the page was when its copy was kept.
"""

import pytest
from playwright.sync_api import expect

from tests.browser.test_live import DEAL_1, new_game, scores, tap
from tests.browser.test_offline import deals, open_as_editor, until, worker_ready
from tests.browser.test_phone_engine import engine_ready
from tests.browser.test_table import pass_all

pytestmark = pytest.mark.browser


@pytest.fixture(autouse=True)
def engine_on(live_app):
    """Serve editors' pages with the engine's worker, as the app does by default."""
    live_app.config["PHONE_ENGINE"] = True
    yield
    live_app.config["PHONE_ENGINE"] = False


CONFLICTS_SEEN = """
new MutationObserver(() => {
  if (document.querySelector(".outbox-deal.is-conflict, #deal-conflict")) {
    sessionStorage.setItem("conflict-seen", "1");
  }
}).observe(document, { subtree: true, childList: true, attributes: true });
"""
"""Notes in the tab's session whether a conflict box was ever on the page, across reloads."""

BOARD_SHOWN = """
const shown = new MutationObserver(() => {
  const score = document.querySelector("#scoreboard .score-row .score");
  if (score && document.readyState !== "loading" && score.textContent !== "0") {
    const engine = document.documentElement.dataset.phoneEngine || "not started";
    window.engineWhenShown = window.engineWhenShown || engine;
    shown.disconnect();
  }
});
shown.observe(document, { subtree: true, childList: true, characterData: true });
document.addEventListener("DOMContentLoaded", () => {
  const score = document.querySelector("#scoreboard .score-row .score");
  if (score && score.textContent !== "0") { window.engineWhenShown = "not started"; }
});
"""
"""Notes, in the page, how far the engine was when a score other than 0 was first shown (a
copy kept once the phone knew of deal 1 shows it as it is parsed)."""


RECORD_WORKED_OUT = """async () => {
  const db = await new Promise((resolve, reject) => {
    const asked = indexedDB.open("scorekeeper");
    asked.onsuccess = () => resolve(asked.result);
    asked.onerror = () => reject(asked.error);
  });
  const record = await new Promise((resolve) => {
    const got = db.transaction("states").objectStore("states").get("GAME");
    got.onsuccess = () => resolve(got.result);
  });
  db.close();
  const data = record ? JSON.parse(record.document) : null;
  return !!record && !!record.board && (data.games ? data.games[0] : data).deals.length === 1;
}"""
"""Whether the phone's record of the game holds deal 1 and the engine's answer for it."""


LEARNT_AGAIN = """async () => {
  const at = async () => {
    const db = await new Promise((resolve) => {
      const asked = indexedDB.open("scorekeeper");
      asked.onsuccess = () => resolve(asked.result);
    });
    const record = await new Promise((resolve) => {
      const got = db.transaction("states").objectStore("states").get("GAME");
      got.onsuccess = () => resolve(got.result);
    });
    db.close();
    return [record.at, record.etag];
  };
  const before = await at();
  const module = performance.getEntriesByType("resource").map((e) => e.name)
    .find((name) => name.includes("/static/state."));
  const state = await import(module);
  await state.refresh("GAME", document.querySelector("#outbox").dataset.export, null);
  return [before, await at()];
}"""
"""Has the page's own state module ask the server for the game again (a version it does not
know), and returns when the phone's record of it was learnt and its export's ETag, before
and after."""


ANSWER_DROPPED = """async () => {
  const db = await new Promise((resolve) => {
    const asked = indexedDB.open("scorekeeper");
    asked.onsuccess = () => resolve(asked.result);
  });
  await new Promise((resolve) => {
    const states = db.transaction("states", "readwrite").objectStore("states");
    const got = states.get("GAME");
    got.onsuccess = () => { states.put({ ...got.result, board: null }).onsuccess = resolve; };
  });
  db.close();
}"""
"""Drops the engine's answer from the phone's record of the game, as if kept without it."""


def phone_board(page):
    """Return the scores the phone shows after the deals kept on it."""
    return page.locator("#outbox .outbox-board .score").all_inner_texts()


def test_a_page_reopened_offline_shows_the_game_as_the_phone_last_knew_it(phone, live_server):
    phone.add_init_script(CONFLICTS_SEEN)
    phone.add_init_script(BOARD_SHOWN)
    game = new_game(live_server)
    editor = open_as_editor(phone, live_server, game)
    worker_ready(editor)
    engine_ready(editor)

    # Deal 1 is saved with no signal (kept), then sent once the signal is back.
    phone.set_offline(True)
    tap(editor, DEAL_1)
    editor.get_by_role("button", name="Save deal").click()
    expect(editor.locator("#outbox")).to_contain_text("Deal 1: saved on this phone, not sent yet.")
    with editor.expect_response(lambda r: r.url.endswith("/deals") and r.ok):
        phone.set_offline(False)
    expect(editor.locator("#game .flash")).to_contain_text(
        "Every deal kept on this phone has been sent.", timeout=15000
    )
    expect(editor.get_by_role("heading", name="Deal 2", exact=True)).to_be_visible()
    after_one = scores(editor)
    assert after_one == ["2", "4", "2", "4", "2"]

    # The phone has worked out the game it now knows (the engine's answer kept with it).
    until(editor, RECORD_WORKED_OUT.replace("GAME", game["id"]), seconds=10)
    # Asked of the server again (a live update, another save's answer), the same game leaves
    # the record as it is, the engine's answer with it: a page reloaded at that moment still
    # has it to show.
    before, after = editor.evaluate(LEARNT_AGAIN.replace("GAME", game["id"]))
    assert before == after
    assert after[1].startswith('W/"export-')  # the game's version: an unchanged one is a 304
    assert editor.evaluate(RECORD_WORKED_OUT.replace("GAME", game["id"]))
    # A record kept without the engine's answer (kept while the engine was not running) is
    # worked out when the same game comes again.
    editor.evaluate(ANSWER_DROPPED.replace("GAME", game["id"]))
    assert not editor.evaluate(RECORD_WORKED_OUT.replace("GAME", game["id"]))
    editor.evaluate(LEARNT_AGAIN.replace("GAME", game["id"]))
    assert editor.evaluate(RECORD_WORKED_OUT.replace("GAME", game["id"]))

    # No signal again, and the page reloaded: it is the copy kept before deal 1 was sent,
    # and shows at once, before the engine has started, what the phone knows.
    phone.set_offline(True)
    editor.reload()
    assert editor.locator("html").get_attribute("data-offline-copy")
    expect(editor.locator("#scoreboard .score-row .score").first).to_have_text("2", timeout=2000)
    assert editor.evaluate("window.engineWhenShown") == "not started"
    assert scores(editor) == after_one
    expect(editor.locator("#scoreboard")).to_contain_text("Deal 2 next")
    expect(editor.locator("#scoreboard")).not_to_contain_text("Deal 1 next")
    expect(editor.locator("#scoreboard .is-dealer .name")).to_have_text("Bob")
    expect(editor.get_by_role("heading", name="Deal 2", exact=True)).to_be_visible()
    expect(editor.locator('#deal-form input[name="number"]')).to_have_value("2")
    expect(editor.locator("#deal-entry [data-turn]").first).to_contain_text("Bob deals")
    expect(editor.locator("#history")).to_contain_text("Deal 1")

    # Two more deals, kept as deals 2 and 3 and scored on the phone.
    engine_ready(editor)
    tap(editor, DEAL_1)
    editor.get_by_role("button", name="Save deal").click()
    expect(editor.locator("#outbox")).to_contain_text("Deal 2: saved on this phone, not sent yet.")
    pass_all(editor, 3)
    expect(editor.locator("#outbox")).to_contain_text("Deal 3: saved on this phone, not sent yet.")
    assert editor.locator("#outbox .outbox-deal > p").all_inner_texts() == [
        "Deal 2: saved on this phone, not sent yet.",
        "Deal 3: saved on this phone, not sent yet.",
    ]
    until(editor, "document.querySelectorAll('#outbox .outbox-score').length === 2")
    shown = phone_board(editor)
    assert shown and shown != after_one

    # Back online: both go, and the server scores the game as the phone showed it.
    phone.set_offline(False)
    expect(editor.locator("#outbox")).to_be_hidden(timeout=15000)
    assert [d["number"] for d in deals(live_server, game)] == [1, 2, 3]
    expect(editor.locator("#history")).to_contain_text("Deal 3", timeout=5000)
    assert scores(editor) == shown
    assert not editor.evaluate("sessionStorage.getItem('conflict-seen')")
