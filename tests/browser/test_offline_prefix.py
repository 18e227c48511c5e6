"""The offline tests again, with the app mounted under a path prefix
(`FLASK_APPLICATION_ROOT=/scores`): every address the service worker keeps or matches
(pages, shell, the engine's files, the games' exports) is under the app's root.

The tests are those of the offline modules, run here against an app served at
`http://127.0.0.1:<port>/scores` (this module's `live_app` and `live_server`), so each
of their addresses starts with the prefix."""

import pytest
from werkzeug.exceptions import NotFound
from werkzeug.middleware.dispatcher import DispatcherMiddleware

from tests.browser import (
    test_offline,
    test_offline_conflicts,
    test_offline_kept,
    test_offline_new_game,
    test_offline_play,
    test_offline_store,
    test_phone_engine,
)
from tests.browser.conftest import browser_app, serve, whole_bodies
from tests.browser.test_offline_conflicts import other_phone  # noqa: F401  (a fixture)

pytestmark = pytest.mark.browser

PREFIX = "/scores"


@pytest.fixture(scope="module")
def live_app(tmp_path_factory):
    """The app of the browser tests (tests/browser/conftest.py), mounted under the prefix."""
    path = tmp_path_factory.mktemp("prefixed") / "scorekeeper.sqlite"
    yield from browser_app(path, APPLICATION_ROOT=PREFIX)


@pytest.fixture(scope="module")
def live_server(live_app):
    """Yield the app's address under the prefix; anything else on the server is not found."""
    yield from serve(DispatcherMiddleware(NotFound(), {PREFIX: whole_bodies(live_app)}), PREFIX)


@pytest.fixture
def engine_on(live_app):
    """The phone's engine for the tests that need it (as their own modules turn it on)."""
    live_app.config["PHONE_ENGINE"] = True
    yield
    live_app.config["PHONE_ENGINE"] = False


def test_the_worker_is_served_and_scoped_under_the_prefix(phone, live_server):
    page = phone.new_page()
    page.goto(live_server + "/")
    test_offline.until(page, "navigator.serviceWorker.controller !== null")
    script = page.evaluate("navigator.serviceWorker.controller.scriptURL")
    assert script == live_server + "/sw.js"
    scope = page.evaluate("(async () => (await navigator.serviceWorker.ready).scope)()")
    assert scope == live_server + "/"


# Every test of the offline modules (tests/browser/test_offline*.py), under the prefix, but
# the release handover: the worker's address under the prefix is checked above, and the
# handover's timing (Chromium activates the new worker once the old one is idle) is
# tested once, at the top of the site.
HANDOVER = "test_a_new_release_takes_over_cleanly_and_a_kept_deal_outlives_it"
for module in (
    test_offline,
    test_offline_conflicts,
    test_offline_kept,
    test_offline_new_game,
    test_offline_store,
):
    for name in dir(module):
        if name.startswith("test_") and name != HANDOVER:
            globals()[name] = getattr(module, name)


def test_a_game_started_offline_is_played_on_the_phone(engine_on, phone, live_server):
    test_offline_play.test_a_game_started_offline_is_played_on_the_phone_and_found_as_scored_on_the_server(
        phone, live_server
    )


def test_the_engine_starts_from_the_phone_with_the_network_cut(engine_on, phone, live_server):
    """The phone's engine and the game's export kept under the prefix (the export's pattern
    once named /games/ at the top of the site, and the engine had nothing to score from)."""
    test_phone_engine.test_the_engine_starts_from_the_phone_with_the_network_cut(phone, live_server)


def test_an_engine_ready_before_the_worker_still_starts_offline(engine_on, phone, live_server):
    test_phone_engine.test_an_engine_ready_before_the_service_worker_still_starts_offline_the_next_time(
        phone, live_server
    )
