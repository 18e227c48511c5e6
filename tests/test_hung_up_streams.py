"""Streams a client hangs up on are let go at once; one address cannot hold every stream.

Opening streams, reading their first event and closing them used to keep every one
counted against the process's LIVE_STREAMS_MAX until its next write (up to 25 s), so a
few hundred short connections sent every phone of a worker back to polling.
"""

from __future__ import annotations

import os
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import Api
from tests.test_concurrency import Server, free_port, run_gunicorn

# ---------------------------------------------------------------- the follower


def test_closing_a_follower_ends_its_wait_at_once(app: Flask, api: Api) -> None:
    game = api.create()
    follower = app.extensions["scorekeeper.versions"].follow(game["id"])
    waited: list[object] = []
    # Waiting out its time would return the version (1); closed, the wait returns None.
    waiting = threading.Thread(target=lambda: waited.append(follower.wait(60)))
    waiting.start()
    time.sleep(0.2)
    follower.close()
    waiting.join(30)
    assert waited == [None]


# ---------------------------------------------------------------- streams per address


def open_stream(client: FlaskClient, game_id: str, address: str):
    return client.get(
        f"/games/{game_id}/events", buffered=False, environ_overrides={"REMOTE_ADDR": address}
    )


def test_one_address_past_its_streams_is_told_to_poll_while_another_is_served(
    app: Flask, client: FlaskClient, api: Api
) -> None:
    app.config["LIVE_STREAMS_PER_ADDRESS"] = 2
    game = api.create()
    held = [open_stream(client, game["id"], "198.51.100.7") for _ in range(2)]
    assert [stream.status_code for stream in held] == [200, 200]

    refused = open_stream(client, game["id"], "198.51.100.7")
    assert refused.status_code == 503
    assert refused.headers["Retry-After"] == "30"
    assert refused.headers["Cache-Control"] == "no-store"
    other = open_stream(client, game["id"], "198.51.100.8")
    assert other.status_code == 200

    held.pop().close()  # a stream ends: its address may open another
    again = open_stream(client, game["id"], "198.51.100.7")
    assert again.status_code == 200
    for stream in (*held, other, again):
        stream.close()
    assert app.extensions["scorekeeper.versions"].following() == 0


def test_a_stream_refused_or_of_an_unknown_game_holds_nothing(
    app: Flask, client: FlaskClient, api: Api
) -> None:
    app.config["LIVE_STREAMS_PER_ADDRESS"] = 1
    assert open_stream(client, "n0-such-game-at-all", "198.51.100.7").status_code == 404
    game = api.create()
    app.config["LIVE_STREAMS_MAX"] = 0
    assert open_stream(client, game["id"], "198.51.100.7").status_code == 503
    app.config["LIVE_STREAMS_MAX"] = 10
    stream = open_stream(client, game["id"], "198.51.100.7")
    assert stream.status_code == 200
    stream.close()


# ---------------------------------------------------------------- under gunicorn

MOST = 4
PER_ADDRESS = 2


@pytest.fixture(scope="module")
def served(database: str) -> Iterator[Server]:
    """One gevent worker as gunicorn.conf.py sets it up, holding at most MOST streams."""
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database,
        "FLASK_SECRET_KEY": "hung-up-streams-test-secret",
        "FLASK_RATELIMIT_ENABLED": "false",
        "FLASK_LIVE_STREAMS_MAX": str(MOST),
        "FLASK_LIVE_STREAMS_PER_ADDRESS": str(PER_ADDRESS),
        "GUNICORN_WORKERS": "1",
    }
    command = [sys.executable, "-m", "gunicorn", "--config", "gunicorn.conf.py"]
    command += ["--bind", f"127.0.0.1:{port}", "scorekeeper:create_app()"]
    with tempfile.TemporaryDirectory(prefix="sk_test_gunicorn_") as folder:
        yield from run_gunicorn(command, env, Path(folder) / "gunicorn.log")


def stream_from(port: int, game_id: str, address: str) -> tuple[int, socket.socket]:
    """Open a game's stream from a loopback address; return its status and its socket,
    once its first version arrived (a 200) or its answer ended (a refusal)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(address, 0))
    sock.sendall(
        f"GET /games/{game_id}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        "Accept: text/event-stream\r\n\r\n".encode()
    )
    read = b""
    while b"\r\n\r\n" not in read:
        read += sock.recv(4096)
    status = int(read.split(b" ", 2)[1])
    while status == 200 and b"event: version" not in read:
        read += sock.recv(4096)
    return status, sock


def test_under_gunicorn_streams_hung_up_on_are_let_go_at_once(served: Server) -> None:
    game = served.create()
    addresses = ["127.0.0.1", "127.0.0.2"] * PER_ADDRESS
    for _ in range(3):  # each time every stream the worker may hold, then hung up on
        opened = [stream_from(served.port, game["id"], address) for address in addresses]
        assert [status for status, _ in opened] == [200] * MOST
        for _, sock in opened:
            sock.close()
        time.sleep(0.3)


def test_under_gunicorn_one_address_past_its_streams_is_refused_another_served(
    served: Server,
) -> None:
    game = served.create()
    held = [stream_from(served.port, game["id"], "127.0.0.3") for _ in range(PER_ADDRESS)]
    try:
        assert [status for status, _ in held] == [200] * PER_ADDRESS
        status, refused = stream_from(served.port, game["id"], "127.0.0.3")
        refused.close()
        assert status == 503
        status, other = stream_from(served.port, game["id"], "127.0.0.4")
        other.close()
        assert status == 200
    finally:
        for _, sock in held:
            sock.close()
