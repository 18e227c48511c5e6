"""Static files across visits and releases: a second visit asks for none, and a new release
reaches every phone at once, its files included, without losing a deal kept on the phone.

The server here serves two releases of the app on one database, each built from its own
copy of static/ (the second with a changed script and style, and its own FLASK_RELEASE),
and switches from the first to the second as a deploy does. It notes every address asked.
"""

import json
import re
import shutil
import threading
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect
from werkzeug.serving import make_server

from scorekeeper import create_app
from scorekeeper.extensions import db
from tests.browser.conftest import PHONE, whole_bodies
from tests.browser.test_live import DEAL_1, tap
from tests.browser.test_offline import kept, until, worker_ready
from tests.test_assets import static_url

pytestmark = pytest.mark.browser

STATIC = Path(__file__).resolve().parents[2] / "static"
SHELLS = "async () => (await caches.keys()).filter(n => n.startsWith('shell-')).sort()"
PLAYERS = ["Ann", "Bob", "Cy", "Di", "Ed"]


class Releases:
    """One address, the releases behind it: the one served now answers every request."""

    def __init__(self, apps):
        self.apps = apps
        self.now = 0
        self.asked: list[str] = []
        self.served = [whole_bodies(app) for app in apps]

    def __call__(self, environ, start_response):
        self.asked.append(environ.get("PATH_INFO", ""))
        return self.served[self.now](environ, start_response)

    def static_asked(self):
        return [path for path in self.asked if path.startswith("/static/")]


def release(tmp_path, name, database, change=None):
    """Make the app of one release on its own copy of static/ (the runtime left out)."""
    folder = tmp_path / name / "static"
    shutil.copytree(STATIC, folder, ignore=shutil.ignore_patterns("pyodide"))
    if change:
        change(folder)
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "browser-test-secret",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}",
            "HTMX_LOCAL_ONLY": True,
            "RATELIMIT_ENABLED": False,
            "RELEASE": name,
            "STATIC_FOLDER": str(folder),
            "STATIC_BUILD_FOLDER": str(tmp_path / name / "build"),
        }
    )
    return app


def second(folder):
    """The second release changes a style and a script."""
    with open(folder / "app.css", "a") as css:
        css.write('\n:root { --release: "2026.12.2"; }\n')
    with open(folder / "app.js", "a") as js:
        js.write('\ndocument.documentElement.dataset.release = "2026.12.2";\n')


@pytest.fixture
def releases(tmp_path):
    database = tmp_path / "scorekeeper.sqlite"
    apps = [
        release(tmp_path, "2026.12.1", database),
        release(tmp_path, "2026.12.2", database, second),
    ]
    with apps[0].app_context():
        db.create_all()
    served = Releases(apps)
    server = make_server("127.0.0.1", 0, served, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    served.url = f"http://127.0.0.1:{server.server_port}"
    yield served
    server.shutdown()
    thread.join(timeout=5)
    server.server_close()
    for app in apps:
        app.extensions["scorekeeper.versions"].stop()
        with app.app_context():
            db.engine.dispose()


def new_game(url):
    body = {"ruleset": "five-handed-schmier", "players": PLAYERS, "first_dealer": 0}
    request = urllib.request.Request(
        f"{url}/api/v1/games",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=5) as answer:
        return json.load(answer)


def stored(url, game):
    with urllib.request.urlopen(f"{url}/api/v1/games/{game['id']}", timeout=5) as answer:
        return [deal["number"] for deal in json.load(answer)["deals"]]


def open_deal_form(context, url, game):
    page = context.new_page()
    page.goto(f"{url}/games/{game['id']}/edit/{game['edit_token']}")
    expect(page.locator("#deal-form")).to_be_visible()
    until(page, "window.htmx !== undefined")
    return page


def stylesheet(page):
    return page.evaluate("document.querySelector('link[rel=stylesheet]').getAttribute('href')")


@pytest.mark.parametrize("workers", ["allow", "block"])
def test_a_second_visit_asks_the_server_for_no_static_file(browser, releases, workers):
    """With the service worker (its copies) and without it (the browser's cache alone)."""
    context = browser.new_context(viewport=PHONE, service_workers=workers)
    try:
        game = new_game(releases.url)
        page = open_deal_form(context, releases.url, game)
        first = releases.static_asked()
        assert static_url(releases.apps[0], "app.css") in first
        assert static_url(releases.apps[0], "htmx-2.0.11.min.js") in first
        if workers == "allow":
            worker_ready(page)
            until(page, f"async () => (await ({SHELLS})()).length === 1")
        page.close()

        releases.asked.clear()
        again = open_deal_form(context, releases.url, game)
        other = context.new_page()
        other.goto(releases.url + "/")
        expect(other.locator("h1")).to_be_visible()
        until(other, "window.htmx !== undefined")
        again.wait_for_timeout(500)
        assert releases.static_asked() == []
        assert any(path.startswith(f"/games/{game['id']}") for path in releases.asked)
    finally:
        context.close()


def test_a_new_release_takes_over_with_its_files_and_a_kept_deal_is_sent(browser, releases):
    phone = browser.new_context(viewport=PHONE)
    try:
        game = new_game(releases.url)
        editor = open_deal_form(phone, releases.url, game)
        worker_ready(editor)
        until(editor, f"async () => JSON.stringify(await ({SHELLS})()) === '[\"shell-2026.12.1\"]'")
        old_css = static_url(releases.apps[0], "app.css")
        assert stylesheet(editor) == old_css
        # A second tab, left open on the game across the update.
        viewer = phone.new_page()
        viewer.goto(f"{releases.url}/games/{game['id']}")
        until(viewer, "navigator.serviceWorker.controller !== null")

        # A deal kept on the phone while the server is away …
        phone.route("**/deals", lambda route: route.fulfill(status=502, body="Bad gateway"))
        phone.set_offline(True)
        tap(editor, DEAL_1)
        editor.get_by_role("button", name="Save deal").click()
        expect(editor.locator("#outbox")).to_be_visible()
        assert kept(editor) == ["Deal 1: saved on this phone, not sent yet."]

        # … and the new release deployed meanwhile. Back online, the phone takes it at once.
        releases.now = 1
        phone.set_offline(False)
        until(
            editor,
            f"async () => JSON.stringify(await ({SHELLS})()) === '[\"shell-2026.12.2\"]'",
            seconds=30,
        )
        new_css = static_url(releases.apps[1], "app.css")
        new_js = static_url(releases.apps[1], "app.js")
        assert new_css != old_css
        shell = "async () => (await (await caches.open('shell-2026.12.2')).keys()).map(r => r.url)"
        urls = [re.sub(r"^https?://[^/]+", "", url) for url in editor.evaluate(shell)]
        assert new_css in urls and new_js in urls and old_css not in urls
        # Both tabs are the new worker's: none is left on the old shell.
        for page in (editor, viewer):
            until(page, "navigator.serviceWorker.controller !== null")
            release = page.evaluate(
                """() => new Promise(resolve => {
                  navigator.serviceWorker.addEventListener("message", e => resolve(e.data.release));
                  navigator.serviceWorker.controller.postMessage("release");
                })"""
            )
            assert release == "2026.12.2"

        # The page opened again is the new release's, with its new style and script.
        editor.reload()
        expect(editor.locator("#deal-form")).to_be_visible()
        assert stylesheet(editor) == new_css
        until(editor, "document.documentElement.dataset.release === '2026.12.2'")
        style = "getComputedStyle(document.documentElement).getPropertyValue('--release')"
        assert editor.evaluate(style).strip() == '"2026.12.2"'
        # The kept deal outlived the update, and goes once the server answers.
        expect(editor.locator("#outbox")).to_contain_text(
            "Deal 1: saved on this phone, not sent yet."
        )
        assert stored(releases.url, game) == []
        phone.unroute("**/deals")
        expect(editor.locator("#outbox")).to_be_hidden(timeout=15000)
        assert stored(releases.url, game) == [1]
        expect(editor.locator("#scoreboard")).to_contain_text("Deal 1:")
    finally:
        phone.close()
