"""Several app instances on one PostgreSQL: a deal saved through one reaches the other's phones.

Two gunicorn processes, as the Procfile starts them (gunicorn.conf.py), on two ports and
one database. A phone following the game through one instance hears of a deal saved
through the other on its stream (PostgreSQL's notifications reach every instance), and its
next poll brings the deal: each instance keeps its own cache, keyed by the game's version,
so there is nothing to invalidate.
"""

import http.client
import json
import os
import re
import sys
import tempfile
import urllib.error
import urllib.request
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest

from bench.deals import entry
from tests.conftest import BOTH, FIVE
from tests.test_concurrency import free_port, run_gunicorn

BACKENDS = BOTH[1:]  # PostgreSQL: SQLite is one machine's database
# Seconds a stream may stay silent before the test gives up: a guard against a deal never
# heard of, not a speed limit (bench.live measures how soon it is, docs/performance.md).
WAIT = 20.0


def request(url, body=None, headers=None, method=None):
    """Return (status, headers, text) of an HTTP request, errors included."""
    data = json.dumps(body).encode() if body is not None else None
    sent = {"Content-Type": "application/json", **(headers or {})}
    req = urllib.request.Request(url, data=data, headers=sent, method=method)
    try:
        with urllib.request.urlopen(req, timeout=10) as response:
            return response.status, response.headers, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read().decode()


@pytest.fixture
def instances(app, database):
    """Start two gunicorn instances of the app on the test database; yield their addresses."""
    env = {**os.environ, "DATABASE_URL": database, "FLASK_SECRET_KEY": "instances"}
    with tempfile.TemporaryDirectory(prefix="sk_test_instances_") as folder, ExitStack() as stack:
        started = []
        for number in range(2):
            port = free_port()
            command = [sys.executable, "-m", "gunicorn", "--config", "gunicorn.conf.py"]
            command += ["--bind", f"127.0.0.1:{port}", "scorekeeper:create_app()"]
            log = Path(folder) / f"gunicorn-{number}.log"
            stack.enter_context(contextmanager(run_gunicorn)(command, env, log))
            started.append(f"http://127.0.0.1:{port}")
        yield started


class Stream:
    """A phone's stream of a game's versions, read line by line with a deadline."""

    def __init__(self, base, game_id):
        host, port = base.removeprefix("http://").split(":")
        self.connection = http.client.HTTPConnection(host, int(port), timeout=WAIT)
        self.connection.request("GET", f"/games/{game_id}/events")
        self.response = self.connection.getresponse()
        assert self.response.status == 200
        assert self.response.getheader("Content-Type").startswith("text/event-stream")

    def next_version(self):
        """Return the version of the next event; fails if none comes within WAIT."""
        while True:
            line = self.response.fp.readline().decode()
            if line.startswith("data: "):
                return int(line.removeprefix("data: "))

    def close(self):
        self.connection.close()


def test_a_deal_saved_through_one_instance_reaches_a_phone_following_the_other(instances):
    first, second = instances
    body = {"ruleset": "five-handed-schmier", "players": FIVE, "first_dealer": 0, "target": 999}
    status, _, text = request(first + "/api/v1/games", body)
    assert status == 201
    game = json.loads(text)
    auth = {"Authorization": f"Bearer {game['edit_token']}"}

    # A phone opens the game through the second instance and follows it.
    status, _, page = request(f"{second}/games/{game['id']}")
    assert status == 200 and "No deals yet." in page
    etag = re.search(r"If-None-Match&#34;: &#34;\\&#34;([^\\]+)\\&#34;", page).group(1)
    poll = {"HX-Request": "true", "If-None-Match": f'"{etag}"'}
    for _ in range(4):  # both workers of the second instance: unchanged
        assert request(f"{second}/games/{game['id']}/live", headers=poll)[0] == 304
    stream = Stream(second, game["id"])
    try:
        assert stream.next_version() == 1

        status, _, _ = request(f"{first}/api/v1/games/{game['id']}/deals", entry(1), auth)
        assert status == 201
        # The second instance's stream tells the phone, without it asking.
        assert stream.next_version() == 2
    finally:
        stream.close()
    # Its very next poll, whichever worker answers, brings the deal.
    for _ in range(4):
        status, headers, live = request(f"{second}/games/{game['id']}/live", headers=poll)
        assert status == 200
        assert 'id="deal-1"' in live
        assert headers["ETag"].startswith('"2-v')
    status, _, text = request(f"{second}/api/v1/games/{game['id']}")
    assert [d["number"] for d in json.loads(text)["deals"]] == [1]

    # And the other way round: a deal saved through the second reaches the first.
    assert request(f"{second}/api/v1/games/{game['id']}/deals", entry(2), auth)[0] == 201
    status, _, page = request(f"{first}/games/{game['id']}")
    assert 'id="deal-2"' in page and 'id="deal-1"' in page
