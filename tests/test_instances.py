"""Several app instances on one PostgreSQL: a deal saved through one reaches the other's phones.

Two gunicorn processes, as the Procfile starts them, on two ports and one database. Each
keeps its own cache, keyed by the game's version, so the very next poll through the
other instance brings the deal: no waiting, nothing to invalidate.
"""

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from bench.deals import entry
from tests.conftest import BOTH, FIVE

BACKENDS = BOTH[1:]  # PostgreSQL: SQLite is one machine's database
ROOT = Path(__file__).resolve().parents[1]


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
    started = []
    for _ in range(2):
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        env = {**os.environ, "DATABASE_URL": database, "FLASK_SECRET_KEY": "instances"}
        command = [sys.executable, "-m", "gunicorn", "--workers", "2"]
        process = subprocess.Popen(
            [*command, "--bind", f"127.0.0.1:{port}", "scorekeeper:create_app()"],
            cwd=ROOT,
            env=env,
            stderr=subprocess.DEVNULL,
        )
        started.append((process, f"http://127.0.0.1:{port}"))
    try:
        for process, base in started:
            _wait_until_serving(process, base)
        yield [base for _, base in started]
    finally:
        for process, _ in started:
            process.terminate()
            process.wait(timeout=30)


def _wait_until_serving(process, base):
    for _ in range(300):
        if process.poll() is not None:
            pytest.fail(f"gunicorn at {base} stopped")
        try:
            urllib.request.urlopen(base + "/api/v1/rulesets", timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    pytest.fail(f"gunicorn at {base} did not answer")


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

    status, _, _ = request(f"{first}/api/v1/games/{game['id']}/deals", entry(1), auth)
    assert status == 201
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
