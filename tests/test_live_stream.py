"""Following a game live: the version watcher, the event stream, and the unchanged poll.

The watcher hears of a saved version from PostgreSQL's notifications, or by reading the
followed games' versions on SQLite; the stream passes each version to the page; a poll of
an unchanged game is answered ahead of the app, with exactly the app's answer.
"""

from __future__ import annotations

import threading
import time

import pytest
from werkzeug.test import EnvironBuilder, run_wsgi_app

from scorekeeper.store import games, versions
from scorekeeper.web.live import UnchangedPolls
from tests.conftest import BOTH, DEAL

BACKENDS = BOTH
WITHIN = 3.0  # seconds: every phone shows a saved deal within this


def save_deal_later(api, game, entry=DEAL, after=0.3):
    """Save a deal through the API from another thread after a moment; return the thread."""
    thread = threading.Thread(target=lambda: (time.sleep(after), api.add(game, entry)))
    thread.start()
    return thread


def wait_until(condition, seconds=WITHIN):
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


# ---------------------------------------------------------------- the watcher


def test_a_follower_hears_the_version_a_deal_saves(app, api):
    game = api.create()
    watcher = app.extensions["scorekeeper.versions"]
    assert watcher.listens is (app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"))
    with watcher.follow(game["id"]) as follower:
        assert follower.version == 1
        started = time.monotonic()
        thread = save_deal_later(api, game)
        assert follower.wait(WITHIN) == 2
        assert time.monotonic() - started < WITHIN
        thread.join()
        assert watcher.followed() == {game["id"]: 2}


def test_waiting_on_an_unchanged_game_returns_the_version_it_had(app, api):
    game = api.create()
    watcher = versions.VersionWatcher(_engine(app))
    with watcher.follow(game["id"]) as follower:
        assert follower.wait(0.2) == 1
    watcher.stop()


def test_there_is_nothing_to_follow_for_an_unknown_or_malformed_id(app):
    watcher = app.extensions["scorekeeper.versions"]
    assert watcher.follow("n0-such-game") is None
    assert watcher.follow("../etc") is None
    assert watcher.followed() == {}


def test_the_watcher_forgets_a_game_and_stops_when_its_last_follower_leaves(app, api):
    game = api.create()
    watcher = versions.VersionWatcher(_engine(app))
    first, second = watcher.follow(game["id"]), watcher.follow(game["id"])
    assert watcher.followed() == {game["id"]: 1}
    assert watcher._thread is not None and watcher._thread.is_alive()
    first.close()
    first.close()  # closing twice leaves the other follower be
    assert watcher.followed() == {game["id"]: 1}
    second.close()
    assert watcher.followed() == {}
    assert wait_until(lambda: watcher._thread is None, seconds=5)


def test_followers_of_one_game_are_not_woken_by_another(app, api):
    followed, other = api.create(), api.create()
    with app.extensions["scorekeeper.versions"].follow(followed["id"]) as follower:
        thread = save_deal_later(api, other, after=0)
        assert follower.wait(1.5) == 1
        thread.join()


def _engine(app):
    from scorekeeper.extensions import db

    with app.app_context():
        return db.engine


# ---------------------------------------------------------------- the stream


def events(response, count):
    """Read `count` events (or comments) off a streamed response; return their texts."""
    read = []
    for chunk in response.response:
        read.append(chunk.decode() if isinstance(chunk, bytes) else chunk)
        if len(read) == count:
            break
    return read


def test_the_stream_says_the_version_now_then_each_one_saved(app, client, api):
    game = api.create()
    response = client.get(f"/games/{game['id']}/events", buffered=False)
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    assert response.headers["Cache-Control"] == "no-cache"
    assert response.headers["X-Accel-Buffering"] == "no"
    assert "Content-Security-Policy" in response.headers
    assert events(response, 2) == ["retry: 2000\n\n", "id: 1\nevent: version\ndata: 1\n\n"]

    started = time.monotonic()
    thread = save_deal_later(api, game)
    assert events(response, 1) == ["id: 2\nevent: version\ndata: 2\n\n"]
    assert time.monotonic() - started < WITHIN
    thread.join()
    response.close()
    assert app.extensions["scorekeeper.versions"].followed() == {}


def test_the_stream_ends_after_its_time_and_lets_go_of_the_game(app, client, api):
    app.config["LIVE_STREAM_SECONDS"] = 0.5
    game = api.create()
    response = client.get(f"/games/{game['id']}/events", buffered=False)
    started = time.monotonic()
    assert len(b"".join(response.response).split(b"\n\n")) >= 2
    assert time.monotonic() - started < 2
    response.close()
    assert app.extensions["scorekeeper.versions"].followed() == {}


def test_a_stream_closed_before_it_started_lets_go_of_the_game(app, client, api):
    game = api.create()
    client.get(f"/games/{game['id']}/events", buffered=False).close()
    assert app.extensions["scorekeeper.versions"].followed() == {}


def test_there_is_no_stream_for_an_unknown_game(client):
    response = client.get("/games/n0-such-game/events")
    assert response.status_code == 404
    assert response.mimetype == "text/html"


def test_the_scoreboard_names_its_stream_and_its_version(client, api):
    game = api.create()
    api.add(game, DEAL)
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert f'data-events="/games/{game["id"]}/events"' in page
    assert 'data-version="2"' in page
    assert 'hx-trigger="every 2s, live"' in page
    assert "/static/live.js" in page


# ---------------------------------------------------------------- the unchanged poll


def poll(app, game_id, etag, cookie=None, through=None, **more):
    """Send a live poll straight to a WSGI app; return (status, headers)."""
    headers = {"HX-Request": "true", "If-None-Match": etag, **more}
    if cookie:
        headers["Cookie"] = f"session={cookie}"
    environ = EnvironBuilder(path=f"/games/{game_id}/live", headers=headers).get_environ()
    _, status, sent = run_wsgi_app(through or app.wsgi_app, environ, buffered=True)
    return int(status.split()[0]), sent


class Counting:
    """The app behind UnchangedPolls, counting the requests that reach it."""

    def __init__(self, wsgi_app):
        self.wsgi_app = wsgi_app
        self.calls = 0

    def __call__(self, environ, start_response):
        self.calls += 1
        return self.wsgi_app(environ, start_response)


@pytest.fixture
def behind(app):
    """Put a counter between UnchangedPolls and the app; return it."""
    fast = app.wsgi_app
    assert isinstance(fast, UnchangedPolls)
    counter = Counting(fast.wsgi_app)
    fast.wsgi_app = counter
    return counter


def editor_cookie(client, game):
    client.get(f"/games/{game['id']}/edit/{game['edit_token']}")
    return client.get_cookie("session").value


def without_date(headers):
    return sorted((k, v) for k, v in headers.items() if k != "Date")


@pytest.mark.parametrize("rights", ["viewer", "editor"])
def test_an_unchanged_poll_is_answered_ahead_of_the_app_with_the_apps_own_answer(
    app, client, api, behind, rights
):
    game = api.create()
    cookie = editor_cookie(client, game) if rights == "editor" else None
    etag = '"1-e"' if rights == "editor" else '"1-v"'
    behind.calls = 0
    status, fast = poll(app, game["id"], etag, cookie)
    assert status == 304 and behind.calls == 0
    app_status, own = poll(app, game["id"], etag, cookie, through=behind)
    assert app_status == 304 and behind.calls == 1
    assert without_date(fast) == without_date(own)
    assert fast["ETag"] == etag


def test_a_poll_after_a_change_reaches_the_app(app, client, api, behind):
    game = api.create()
    api.add(game, DEAL)
    behind.calls = 0
    status, headers = poll(app, game["id"], '"1-v"')
    assert status == 200 and behind.calls == 1
    assert headers["ETag"] == '"2-v"'


def test_a_poll_whose_rights_changed_reaches_the_app(app, client, api, behind):
    game = api.create()
    cookie = editor_cookie(client, game)
    behind.calls = 0
    # This browser now holds the edit token: its viewer's page must gain the deal form.
    assert poll(app, game["id"], '"1-v"', cookie)[0] == 200
    # A new edit link was made: the old editor's page must say so.
    with app.app_context():
        games.rotate_edit_token(games.get_game(game["id"]))
    assert poll(app, game["id"], '"2-e"', cookie)[0] == 200
    assert behind.calls == 2


@pytest.mark.parametrize(
    ("cookie", "more"),
    [
        ("not-a-signed-session", {}),
        (None, {"HX-Boosted": "true"}),
        (None, {"HX-History-Restore-Request": "true"}),
    ],
)
def test_a_poll_the_fast_answer_cannot_vouch_for_reaches_the_app(app, api, behind, cookie, more):
    game = api.create()
    behind.calls = 0
    poll(app, game["id"], '"1-v"', cookie, **more)
    assert behind.calls == 1


def test_polls_of_unknown_games_and_other_addresses_reach_the_app(app, api, behind):
    behind.calls = 0
    assert poll(app, "n0-such-game", '"1-v"')[0] == 404
    environ = EnvironBuilder(path="/games/x/live", query_string="a=1").get_environ()
    run_wsgi_app(app.wsgi_app, environ, buffered=True)
    assert behind.calls == 2


def test_an_untrusted_host_is_refused_by_the_app_not_answered(app, api, behind):
    game = api.create()
    app.config["TRUSTED_HOSTS"] = ["scores.example"]
    app.wsgi_app = UnchangedPolls(app, behind)  # built again: it reads the settings once
    behind.calls = 0
    assert poll(app, game["id"], '"1-v"', Host="evil.example")[0] == 400
    assert poll(app, game["id"], '"1-v"', Host="scores.example")[0] == 304
    assert behind.calls == 1
