"""The phone's store (IndexedDB `scorekeeper`) across releases open in two tabs: an older
page lets a newer version open and goes on keeping deals; a tab that holds an older
version open is said, and waited for."""

import pytest
from playwright.sync_api import expect

from tests.browser.test_live import DEAL_1, new_game, tap
from tests.browser.test_offline import deals, kept, open_as_editor, until

pytestmark = pytest.mark.browser

UPGRADE = """(version) => new Promise((ok, fail) => {
  const open = indexedDB.open("scorekeeper", version);
  let blocked = false;
  open.onupgradeneeded = () => open.result.createObjectStore("later", { keyPath: "key" });
  open.onblocked = () => { blocked = true; };
  open.onsuccess = () => {
    const db = open.result;
    db.close();
    ok({ blocked, version: db.version });
  };
  open.onerror = () => fail(String(open.error));
})"""
"""A newer release's page opening the store at a newer version (with a store of its own)."""

HOLD_OLD = """() => new Promise((ok) => {
  const open = indexedDB.open("scorekeeper", 1);
  open.onupgradeneeded = () =>
    open.result.createObjectStore("outbox", { keyPath: "key", autoIncrement: true });
  open.onsuccess = () => { window.heldStore = open.result; ok(open.result.version); };
})"""
"""A page of a release before version 2 (which never let go of the store) holding it."""

OUTBOX_AS_IT_IS = """() => new Promise((ok) => {
  const open = indexedDB.open("scorekeeper");
  open.onsuccess = () => {
    const db = open.result;
    const read = db.transaction("outbox").objectStore("outbox").getAll();
    read.onsuccess = () => {
      db.close();
      ok({ version: db.version, numbers: read.result.map((e) => e.number) });
    };
  };
})"""

COUNT = """async () => {
    const outbox = document.querySelector('script[type=module][src*="/outbox."]').src;
    const { store } = await import(outbox);
    return (await store.transact('%s', 'readonly', (s) => s.count())) >= 0;
}"""
"""True once the page's own store is open (its object store counted): the store static/outbox.js
keeps its deals in, as that module exports it."""


def test_an_open_page_lets_a_newer_version_open_and_still_keeps_its_deals(phone, live_server):
    game = new_game(live_server)
    editor = open_as_editor(phone, live_server, game)
    until(editor, COUNT % "outbox")

    # A newer release opens in another tab: the open page lets go, nothing blocks it.
    newer = phone.new_page()
    newer.goto(live_server + "/")
    assert newer.evaluate(UPGRADE, 4) == {"blocked": False, "version": 4}
    expect(newer.locator("#store-blocked")).to_be_hidden()

    # The open page, next used, opens the store as the newer one left it: its deal is kept.
    phone.set_offline(True)
    tap(editor, DEAL_1)
    editor.get_by_role("button", name="Save deal").click()
    expect(editor.locator("#game .flash")).to_contain_text(
        "Deal 1 saved on this phone, not sent yet"
    )
    assert kept(editor) == ["Deal 1: saved on this phone, not sent yet."]
    assert newer.evaluate(OUTBOX_AS_IT_IS) == {"version": 4, "numbers": [1]}

    # And sent once the server answers again.
    phone.set_offline(False)
    expect(editor.locator("#outbox")).to_be_hidden(timeout=15000)
    assert [d["number"] for d in deals(live_server, game)] == [1]


def test_a_tab_holding_an_older_version_is_said_and_the_page_goes_on_once_it_closes(
    phone, live_server
):
    old = phone.new_page()
    old.goto(live_server + "/static/app.css")
    assert old.evaluate(HOLD_OLD) == 1

    page = phone.new_page()
    page.goto(live_server + "/")
    note = page.locator("#store-blocked")
    expect(note).to_be_visible()
    expect(note).to_have_text(
        "Scorekeeper is open in another tab with an older version. Close or reload that tab:"
        " what you keep on this phone waits until then."
    )
    expect(note).to_have_attribute("role", "status")

    # The old tab goes: the page's own open goes on by itself, and the store is upgraded.
    old.evaluate("() => window.heldStore.close()")
    expect(note).to_be_hidden()
    until(page, COUNT % "games")
    assert page.evaluate(OUTBOX_AS_IT_IS) == {"version": 3, "numbers": []}
