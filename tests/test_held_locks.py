"""A lock held by another process stops only the writes that need it, in a gevent worker.

SQLite's own busy handler slept inside C, which stopped the whole gevent worker: while
another process held ``BEGIN IMMEDIATE``, ``GET /rules`` (no lock needed) waited as long
as the lock was held, and the posts were refused one after another, 10 s each. The
store now waits for the lock itself, through gevent (scorekeeper/store/sqlite.py); on
PostgreSQL the server's ``lock_timeout`` already did. gunicorn runs as the Procfile runs
it (gunicorn.conf.py), with one worker, so the reads and the post share it.
"""

from __future__ import annotations

import http.client
import json
import os
import sqlite3
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import make_url

from tests.conftest import BOTH, EXAMPLE_DEAL
from tests.test_concurrency import Server, free_port, run_gunicorn
from tests.test_hardening import write_locked

BACKENDS = BOTH

APART_WITHIN = 4.0
"""Seconds between the first post refused and the last: side by side they come together;
one after another they would come a lock wait (5 s) apart each. Not a speed limit."""


@pytest.fixture(scope="module")
def served(database: str) -> Iterator[Server]:
    """Serve the app with gunicorn.conf.py's gevent worker, one of them, on the test database."""
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database,
        "FLASK_SECRET_KEY": "held-lock-test-secret",
        "FLASK_RATELIMIT_ENABLED": "false",
        "GUNICORN_WORKERS": "1",
    }
    command = [sys.executable, "-m", "gunicorn", "--config", "gunicorn.conf.py"]
    command += ["--bind", f"127.0.0.1:{port}", "scorekeeper:create_app()"]
    with tempfile.TemporaryDirectory(prefix="sk_test_gunicorn_") as folder:
        yield from run_gunicorn(command, env, Path(folder) / "gunicorn.log")


def fetch(
    port: int, method: str, path: str, body: Any = None, token: str | None = None
) -> tuple[int, dict[str, str], bytes]:
    """Send one request; return its status, headers and body."""
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request(method, path, None if body is None else json.dumps(body), headers)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def test_a_lock_held_elsewhere_lets_the_reads_through_and_refuses_the_write_in_time(
    served, database
):
    game = served.create()
    post = (f"/api/v1/games/{game['id']}/deals", EXAMPLE_DEAL, game["edit_token"])
    # PostgreSQL queues the posts for the game's row, each waiting up to its lock_timeout
    # for the one ahead of it: one post there.
    posts = 3 if database.startswith("sqlite") else 1
    refused_at: list[float] = []

    def refused(*args: Any) -> tuple[int, dict[str, str], bytes]:
        answer = fetch(*args)
        refused_at.append(time.monotonic())
        return answer

    with write_locked(database, game["id"]), ThreadPoolExecutor(max_workers=posts) as pool:
        waiting = [pool.submit(refused, served.port, "POST", *post) for _ in range(posts)]
        time.sleep(0.5)  # the posts are waiting for the lock by now
        for path in ("/rules", f"/api/v1/games/{game['id']}", f"/games/{game['id']}"):
            status, _headers, _body = fetch(served.port, "GET", path)
            assert status == 200, path
            assert not any(each.done() for each in waiting), f"{path} waited for a post"
        # Refused side by side, not one after another (10 s, 20 s, 30 s on SQLite before).
        for each in waiting:
            status, headers, body = each.result(timeout=60)
            assert status == 503, body
            assert json.loads(body)["error"]["code"] == "busy"
            assert headers["Retry-After"] == "2"
    assert max(refused_at) - min(refused_at) < APART_WITHIN, refused_at
    assert served.game(game)["deals"] == []
    assert served.post(game, EXAMPLE_DEAL)[0] == 201


def test_a_write_waits_for_a_lock_held_elsewhere_and_lands_once_it_is_released(api, database):
    game = api.create()
    other = sqlite3.connect(
        make_url(database).database, isolation_level=None, check_same_thread=False
    )
    other.execute("BEGIN IMMEDIATE")
    release = threading.Timer(0.5, other.execute, ("ROLLBACK",))
    release.start()
    try:
        response = api.post(game, EXAMPLE_DEAL)
    finally:
        release.join()
        other.close()
    assert response.status_code == 201, response.get_json()
    assert len(api.game(game)["deals"]) == 1


test_a_write_waits_for_a_lock_held_elsewhere_and_lands_once_it_is_released.BACKENDS = ("sqlite",)
