"""Slow or stalled clients cannot hold the server: gunicorn as gunicorn.conf.py sets it up.

Finding 3 of the hardening issue: two sockets that send a request head and one byte of
body held both sync workers for 30 s. With gevent workers they hold two greenlets.
"""

from __future__ import annotations

import gc
import os
import socket
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.test_concurrency import ROOT, Server, free_port, run_gunicorn

ANSWER_WITHIN = 15.0  # seconds; a stalled worker would hold for the whole 30 s timeout


@pytest.fixture(scope="module")
def served(database: str) -> Iterator[Server]:
    """Serve the app exactly as the Procfile does (gunicorn.conf.py), on the test database."""
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database,
        "FLASK_SECRET_KEY": "slow-client-test-secret",
        "FLASK_RATELIMIT_ENABLED": "false",
    }
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "--config",
        "gunicorn.conf.py",
        "--bind",
        f"127.0.0.1:{port}",
        "scorekeeper:create_app()",
    ]
    with tempfile.TemporaryDirectory(prefix="sk_test_gunicorn_") as folder:
        yield from run_gunicorn(command, env, Path(folder) / "gunicorn.log")


def stalled_client(port: int) -> socket.socket:
    """Open a connection that sends a request head and one byte of its body, then waits."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.sendall(
        b"POST /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
    )
    return sock


def test_two_stalled_bodies_do_not_stop_a_third_client(served):
    stalled = [stalled_client(served.port) for _ in range(2)]
    try:
        time.sleep(0.5)  # let the workers pick the stalled requests up
        started = time.monotonic()
        status, rulesets = served.request("GET", "/api/v1/rulesets")
        waited = time.monotonic() - started
        assert status == 200 and rulesets
        assert waited < ANSWER_WITHIN, f"the third client waited {waited:.1f} s"
        game = served.create()
        assert game["edit_token"]
    finally:
        for sock in stalled:
            sock.close()


def test_procfile_and_make_serve_use_the_same_gunicorn_settings():
    procfile = (ROOT / "Procfile").read_text()
    makefile = (ROOT / "Makefile").read_text()
    assert "--config gunicorn.conf.py" in procfile
    assert "--config gunicorn.conf.py" in makefile
    settings: dict = {}
    exec((ROOT / "gunicorn.conf.py").read_text(), settings)
    # Greenlets: a stalled client, or a phone's open stream, holds one connection, not a worker.
    assert settings["worker_class"] == "gevent" and settings["worker_connections"] >= 1000


def test_a_worker_collects_garbage_rarely_and_never_walks_the_app_it_started_with():
    settings: dict = {}
    exec((ROOT / "gunicorn.conf.py").read_text(), settings)
    thresholds = gc.get_threshold()
    try:
        settings["post_worker_init"](None)
        young, middle, full = gc.get_threshold()
        assert young <= 2_000  # each young collection stays short
        assert young * middle >= 500_000  # allocations between collections of the middle
        assert young * middle * full >= 50_000_000  # and between full ones
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
    assert settings["timeout"] <= 60
