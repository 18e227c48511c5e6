"""A PostgreSQL restart, or a database that cannot be reached, is never answered with a 500.

After a restart every pooled connection of a worker was dead, and the first request on
each one answered 500 (``AdminShutdown … terminating connection``), saves included,
minutes later on an idle server. The restart is simulated by terminating the app's own
connections to this test's private database (``pg_terminate_backend``, waiting until
each is gone); a database that is down by pointing the app at a port where nothing
listens.
"""

from __future__ import annotations

import os
import re
import socket
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg
import pytest
from sqlalchemy import make_url

from scorekeeper.extensions import db
from tests.conftest import DEAL, DEAL_FORM, EXAMPLE_DEAL, FIVE, _libpq, make_app
from tests.tables_support import bearer, csrf_token
from tests.test_api import assert_error
from tests.test_concurrency import Server, at_once, run_gunicorn
from tests.test_held_locks import fetch

BACKENDS = ("postgresql",)
# Each test breaks its app's connections: that app is its own, not the one its process's
# other tests share (tests/conftest.py).
pytestmark = pytest.mark.own_app


def terminate_the_apps_connections(database: str) -> int:
    """End every other connection to this test's own database, as a restart does; count them."""
    name = make_url(database).database
    with psycopg.connect(_libpq(database), autocommit=True) as admin:
        row = admin.execute(
            "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid, 5000)) FROM pg_stat_activity"
            " WHERE datname = %s AND pid <> pg_backend_pid()",
            (name,),
        ).fetchone()
    assert row is not None
    return row[0]


def test_after_a_restart_pages_reads_and_saves_are_answered(app, client, api, database):
    game = api.create(target=999)
    client.get(f"/games/{game['id']}/edit/{game['edit_token']}")
    page = f"/games/{game['id']}"
    form = DEAL_FORM | {"csrf_token": csrf_token(client.get(page).text)}
    requests = {
        "page": lambda: client.get(page),
        "API read": lambda: client.get(f"/api/v1/games/{game['id']}"),
        "API deal": lambda: api.post(game, EXAMPLE_DEAL),
        "page deal": lambda: client.post(f"{page}/deals", data=form),
        "API correction": lambda: api.put(game, 1, DEAL),
    }
    for what, send in requests.items():
        assert terminate_the_apps_connections(database) >= 1, what
        response = send()
        assert response.status_code < 400, (what, response.status_code)
    assert [deal["number"] for deal in api.game(game)["deals"]] == [1, 2]


def test_a_page_deal_whose_connection_is_ended_while_it_saves_keeps_what_was_tapped(
    app, client, api, database
):
    game = api.create()
    client.get(f"/games/{game['id']}/edit/{game['edit_token']}")
    page = f"/games/{game['id']}"
    form = DEAL_FORM | {"csrf_token": csrf_token(client.get(page).text), "bid": "5"}
    name = make_url(database).database
    with (
        psycopg.connect(_libpq(database)) as locker,
        psycopg.connect(_libpq(database), autocommit=True) as admin,
        ThreadPoolExecutor(max_workers=1) as pool,
    ):
        # The save waits for the game's row, held here, until its session is ended.
        locker.execute("SELECT id FROM games WHERE id = %s FOR UPDATE", (game["id"],))
        post = pool.submit(client.post, f"{page}/deals", data=form)
        deadline = time.monotonic() + 4
        waiting = None
        while waiting is None and time.monotonic() < deadline:
            waiting = admin.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s AND wait_event_type = 'Lock'",
                (name,),
            ).fetchone()
        assert waiting is not None, "the save never waited for the lock"
        admin.execute("SELECT pg_terminate_backend(%s, 5000)", waiting)
        response = post.result(timeout=30)
        locker.rollback()
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "2"
    assert "database could not be reached" in response.text
    assert re.search(r'name="bid"[^>]*value="5"[^>]*checked', response.text)
    assert api.game(game)["deals"] == []
    assert client.post(f"{page}/deals", data=form).status_code == 303


def test_after_a_restart_a_followed_game_is_heard_again(app, api, database):
    game = api.create()
    watcher = app.extensions["scorekeeper.versions"]
    name = make_url(database).database
    with watcher.follow(game["id"]) as follower:
        with psycopg.connect(_libpq(database), autocommit=True) as admin:
            deadline = time.monotonic() + 5
            listening = None
            while listening is None and time.monotonic() < deadline:
                listening = admin.execute(
                    "SELECT pid FROM pg_stat_activity"
                    " WHERE datname = %s AND query LIKE 'LISTEN %%'",
                    (name,),
                ).fetchone()
        assert listening is not None, "the watcher never listened"
        assert terminate_the_apps_connections(database) >= 1
        api.add(game, DEAL)
        # The watcher listens again after a pause, reading the followed versions once.
        assert follower.wait(10) == 2


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def served(database: str) -> Iterator[Server]:
    """Serve the app as the Procfile does (gunicorn.conf.py: two gevent workers)."""
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database,
        "FLASK_SECRET_KEY": "lost-database-test-secret",
        "FLASK_RATELIMIT_ENABLED": "false",
        "GUNICORN_WORKERS": "2",
    }
    command = [sys.executable, "-m", "gunicorn", "--config", "gunicorn.conf.py"]
    command += ["--bind", f"127.0.0.1:{port}", "scorekeeper:create_app()"]
    with tempfile.TemporaryDirectory(prefix="sk_test_gunicorn_") as folder:
        yield from run_gunicorn(command, env, Path(folder) / "gunicorn.log")


def test_after_a_restart_the_first_requests_of_every_worker_are_answered(served, database):
    game = served.create(target=999)
    paths = [f"/games/{game['id']}", f"/api/v1/games/{game['id']}", "/api/v1/rulesets"]
    # Several at once, so that each worker opens connections of its own.
    at_once([lambda p=p: fetch(served.port, "GET", p) for p in paths * 4])
    assert terminate_the_apps_connections(database) >= 2
    # Saves first: a read that found its connection dead would renew its worker's pool.
    saves = at_once([lambda: served.post(game, EXAMPLE_DEAL)[0] for _ in range(6)])
    assert saves == [201] * 6
    assert terminate_the_apps_connections(database) >= 1
    reads = at_once([lambda p=p: fetch(served.port, "GET", p)[0] for p in paths[:2] * 3])
    assert reads == [200] * 6


@pytest.fixture
def unreachable(app, database):
    """Return the app of `app`'s database as it is when that database does not answer."""
    game = app.test_client().post(
        "/api/v1/games", json={"ruleset": "five-handed-schmier", "players": FIVE}
    )
    down = make_url(database).set(host="127.0.0.1", port=free_port())
    app = make_app(down.render_as_string(hide_password=False))
    yield app, game.get_json()
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def test_a_database_that_does_not_answer_is_refused_as_busy(unreachable):
    app, game = unreachable
    client = app.test_client()
    for response in (
        client.get(f"/api/v1/games/{game['id']}"),
        client.post(
            f"/api/v1/games/{game['id']}/deals",
            json=EXAMPLE_DEAL,
            headers=bearer(game["edit_token"]),
        ),
        client.post("/api/v1/games", json={"ruleset": "five-handed-schmier", "players": FIVE}),
    ):
        assert_error(response, 503, "busy")
        assert response.headers["Retry-After"] == "2"
    page = client.get(f"/games/{game['id']}")
    assert page.status_code == 503
    assert page.headers["Retry-After"] == "2"
    assert "database cannot be reached" in page.text
