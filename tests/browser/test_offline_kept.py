"""What the service worker keeps in Cache Storage: nothing the server marks no-store, no
edit link, nothing past its bounds, nothing of a game this browser no longer edits."""

import pytest
from playwright.sync_api import expect

from tests.browser.test_live import new_game
from tests.browser.test_offline import OFFLINE_MARK, cut_off, open_as_editor, until, worker_ready

pytestmark = pytest.mark.browser

KEPT = r"""async () => {
  const found = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const asked of await cache.keys()) {
      const kept = await cache.match(asked, { ignoreVary: true });
      const type = kept.headers.get("Content-Type") || "";
      found.push({
        cache: name,
        url: asked.url,
        cacheControl: kept.headers.get("Cache-Control") || "",
        editor: kept.headers.get("X-Kept-Editor"),
        body: /^(text\/html|application\/json)/.test(type) ? await kept.text() : "",
      });
    }
  }
  return found;
}"""
"""A script: every answer in Cache Storage, with its headers and (pages, exports) its body."""


def kept(page):
    return page.evaluate(KEPT)


def kept_copy(page, url):
    """Wait until the worker keeps a copy at this address; return what Cache Storage holds."""
    until(page, f"async () => !!(await (await caches.open('pages')).match({url!r}))")
    return kept(page)


def test_no_page_marked_no_store_is_kept_and_the_scorekeepers_copy_holds_no_edit_link(
    phone, live_server
):
    game = new_game(live_server)
    editor = open_as_editor(phone, live_server, game)
    address = f"{live_server}/games/{game['id']}"
    # The page as this browser got it holds the edit link and is marked no-store.
    assert game["edit_token"] in editor.content()
    worker_ready(editor)
    until(editor, "async () => !!(await (await caches.open('pages')).match(location.href))")
    until(
        editor,
        "async () => (await (await caches.open('pages')).match(location.href))"
        ".headers.get('X-Kept-Editor') === '1'",
    )
    everything = kept(editor)
    assert everything, "the worker keeps the shell and the pages"
    for answer in everything:
        assert "no-store" not in answer["cacheControl"], answer["url"]
        assert game["edit_token"] not in answer["body"], answer["url"]
    (copy,) = [a for a in everything if a["cache"] == "pages" and a["url"] == address]
    assert copy["cacheControl"] == "private, no-cache"
    assert 'id="deal-form"' in copy["body"]

    # Offline, the copy is the scorekeeper's page with its form, without the edit link.
    cut_off(phone)
    editor.reload()
    assert editor.locator("html").get_attribute("data-offline-copy")
    expect(editor.locator("#offline-mark")).to_have_text(OFFLINE_MARK)
    expect(editor.locator("#deal-form")).to_be_visible()
    assert game["edit_token"] not in editor.content()
    expect(editor.locator("#share")).to_contain_text("View link")
    expect(editor.locator("#share")).not_to_contain_text("Edit link")


def test_the_pages_kept_are_bounded_in_number(phone, live_app, live_server):
    games = [new_game(live_server) for _ in range(4)]
    live_app.config["OFFLINE_PAGES_MAX"] = 2
    try:
        viewer = phone.new_page()
        viewer.goto(f"{live_server}/games/{games[0]['id']}")
        worker_ready(viewer)
        for game in games[1:]:
            viewer.goto(f"{live_server}/games/{game['id']}")
            kept_copy(viewer, f"{live_server}/games/{game['id']}")
        addresses = {f"{live_server}/games/{game['id']}": game for game in games}

        def games_kept():
            return sorted(a["url"] for a in kept(viewer) if a["url"] in addresses)

        newest = sorted(f"{live_server}/games/{game['id']}" for game in games[2:])
        deadline = 50
        while games_kept() != newest and deadline:
            viewer.wait_for_timeout(100)
            deadline -= 1
        assert games_kept() == newest
        # The pages kept from the start are neither dropped nor counted.
        urls = {a["url"] for a in kept(viewer) if a["cache"] == "pages"}
        assert {f"{live_server}/", f"{live_server}/rules", f"{live_server}/offline"} <= urls

        # Offline, the newest opens from its copy; one dropped says it has no copy.
        cut_off(phone)
        viewer.goto(f"{live_server}/games/{games[3]['id']}")
        expect(viewer.locator("#scoreboard")).to_be_visible()
        viewer.goto(f"{live_server}/games/{games[0]['id']}")
        expect(viewer.locator("h1").first).to_contain_text("Offline")
        expect(viewer.locator("#scoreboard")).to_have_count(0)

    finally:
        live_app.config["OFFLINE_PAGES_MAX"] = 60


def test_the_pages_kept_are_bounded_in_age(phone, live_app, live_server):
    """No copy older than the days allowed is kept or served (0 days: none at all, but the
    pages kept from the start)."""
    game = new_game(live_server)
    live_app.config["OFFLINE_PAGES_DAYS"] = 0
    try:
        viewer = phone.new_page()
        viewer.goto(f"{live_server}/games/{game['id']}")
        until(viewer, "navigator.serviceWorker.controller !== null")
        viewer.reload()  # through the worker now
        expect(viewer.locator("#scoreboard")).to_be_visible()
        until(
            viewer,
            f"async () => ({KEPT})().then((all) => all.some((a) => a.url === {live_server + '/'!r})"
            " && !all.some((a) => a.url === location.href))",
        )
        viewer.wait_for_timeout(500)
        assert f"{live_server}/games/{game['id']}" not in [a["url"] for a in kept(viewer)]
        cut_off(phone)
        viewer.reload()
        expect(viewer.locator("h1").first).to_contain_text("Offline")
        expect(viewer.locator("#scoreboard")).to_have_count(0)
    finally:
        live_app.config["OFFLINE_PAGES_DAYS"] = 30


def test_what_is_kept_of_a_game_goes_once_this_browser_no_longer_edits_it(phone, live_server):
    game = new_game(live_server)
    editor = open_as_editor(phone, live_server, game)
    address = f"{live_server}/games/{game['id']}"
    export = f"{address}/export.json"
    worker_ready(editor)
    until(
        editor,
        "async () => (await (await caches.open('pages')).match(location.href))"
        ".headers.get('X-Kept-Editor') === '1'",
    )
    # The export the phone's engine scores from, kept as the engine would fetch it.
    editor.evaluate(f"async () => {{ await (await fetch({export!r})).text(); }}")
    kept_copy(editor, export)

    # The browser's cookies are cleared (or its edit link revoked): online, the game's page
    # is a viewer's, and what the worker kept of the game as its scorekeeper goes.
    phone.clear_cookies()
    editor.reload()
    expect(editor.locator("#deal-form")).to_have_count(0)
    until(
        editor,
        "async () => { const copy = await (await caches.open('pages')).match(location.href);"
        " return !!copy && copy.headers.get('X-Kept-Editor') === null; }",
    )
    urls = [a["url"] for a in kept(editor)]
    assert export not in urls
    assert urls.count(address) == 1

    cut_off(phone)
    editor.reload()
    assert editor.locator("html").get_attribute("data-offline-copy")
    expect(editor.locator("#scoreboard")).to_be_visible()
    assert editor.locator("#deal-form").count() == 0
