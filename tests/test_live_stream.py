"""Following a game live: the version watcher and the event stream.

The watcher hears of a saved version from PostgreSQL's notifications, or by reading the
followed games' versions on SQLite; the stream passes each version to the page.
"""

from __future__ import annotations

import re
import threading
import time

from scorekeeper.store import versions
from tests.conftest import BOTH, DEAL

BACKENDS = BOTH
# Seconds: a guard against a follower or stream that never hears, not a speed limit (how
# soon a saved deal reaches a stream is measured by bench.live, docs/performance.md).
WAIT = 20.0


def save_deal_later(api, game, entry=DEAL, after=0.3):
    """Save a deal through the API from another thread after a moment; return the thread."""
    thread = threading.Thread(target=lambda: (time.sleep(after), api.add(game, entry)))
    thread.start()
    return thread


def wait_until(condition, seconds=WAIT):
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
        thread = save_deal_later(api, game)
        assert follower.wait(WAIT) == 2
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


def test_a_version_saved_while_a_game_is_first_followed_is_not_missed(app, api, monkeypatch):
    # The watcher is already listening, for another game, as in a busy process.
    other, game = api.create(), api.create()
    watcher = versions.VersionWatcher(_engine(app))
    with watcher.follow(other["id"]) as listening:
        thread = save_deal_later(api, other, after=0)
        assert listening.wait(WAIT) == 2
        thread.join()

        # A deal of the game is saved, and announced, after the watcher read its version
        # but before the game is among those followed: that announcement is not for it.
        read = watcher._read

        def read_then_save(ids):
            found = read(ids)
            if game["id"] in ids and not saved:
                saved.append(api.add(game, DEAL))
                time.sleep(0.3)  # the announcement is heard, and passed over
            return found

        saved: list = []
        monkeypatch.setattr(watcher, "_read", read_then_save)
        with watcher.follow(game["id"]) as follower:
            assert saved
            assert follower.wait(WAIT) == 2
    watcher.stop()


def test_a_game_gone_by_the_second_read_is_not_followed(app, api, monkeypatch):
    game = api.create()
    watcher = versions.VersionWatcher(_engine(app))
    assert watcher.listens
    reads = []

    def read_once(ids):
        reads.append(ids)
        return {game["id"]: 1} if len(reads) == 1 else {}

    monkeypatch.setattr(watcher, "_read", read_once)
    monkeypatch.setattr(watcher, "_start", lambda: None)  # no listening thread reads too
    assert watcher.follow(game["id"]) is None
    assert len(reads) == 2
    assert watcher.followed() == {}
    watcher.stop()


# Only a listening watcher (PostgreSQL) reads a game's version a second time.
test_a_game_gone_by_the_second_read_is_not_followed.BACKENDS = ("postgresql",)


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

    thread = save_deal_later(api, game)
    assert events(response, 1) == ["id: 2\nevent: version\ndata: 2\n\n"]
    thread.join()
    response.close()
    assert app.extensions["scorekeeper.versions"].followed() == {}


def test_the_stream_ends_after_its_time_and_lets_go_of_the_game(app, client, api):
    app.config["LIVE_STREAM_SECONDS"] = 0.5
    game = api.create()
    response = client.get(f"/games/{game['id']}/events", buffered=False)
    started = time.monotonic()
    assert len(b"".join(response.response).split(b"\n\n")) >= 2
    assert time.monotonic() - started < WAIT  # not the 300 s a stream lasts by default
    response.close()
    assert app.extensions["scorekeeper.versions"].followed() == {}


def test_a_stream_closed_before_it_started_lets_go_of_the_game(app, client, api):
    game = api.create()
    client.get(f"/games/{game['id']}/events", buffered=False).close()
    assert app.extensions["scorekeeper.versions"].followed() == {}


def test_past_its_most_streams_a_process_says_to_poll_and_takes_them_again_once_one_ends(
    app, client, api
):
    app.config["LIVE_STREAMS_MAX"] = 2
    first, second = api.create(), api.create()
    watcher = app.extensions["scorekeeper.versions"]
    streams = [
        client.get(f"/games/{first['id']}/events", buffered=False),
        client.get(f"/games/{second['id']}/events", buffered=False),
    ]
    assert [s.status_code for s in streams] == [200, 200]
    assert watcher.following() == 2

    refused = client.get(f"/games/{first['id']}/events")
    assert refused.status_code == 503
    assert refused.headers["Retry-After"] == "30"
    assert refused.headers["Cache-Control"] == "no-store"
    assert watcher.following() == 2
    # The page itself, and its poll, are served as ever.
    assert client.get(f"/games/{first['id']}").status_code == 200

    streams.pop().close()
    assert watcher.following() == 1
    again = client.get(f"/games/{first['id']}/events", buffered=False)
    assert again.status_code == 200
    assert events(again, 2)[1] == "id: 1\nevent: version\ndata: 1\n\n"
    again.close()
    streams.pop().close()
    assert watcher.following() == 0
    assert watcher.followed() == {}


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
    assert re.search(r"/static/live\.[0-9a-f]{12}\.js", page)
