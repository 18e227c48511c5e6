"""Locust's users for `make bench-load`: phones following games live, scorekeepers saving deals.

Each table is one game in progress: PHONES phones follow it as the game page does, with
its stream of versions open (/games/<id>/events), asking for the live parts once when the
stream tells of a new version; and one scorekeeper saves a deal through the API about once
a minute. When a phone has the live parts of a deal, the time since the scorekeeper sent
it is recorded as a request named "deal seen by a phone", so Locust's own statistics give
its percentiles next to the posts'. Opening a stream is recorded as "open the stream"
(the time to its first event).

bench/load.py writes the games to play (ids, edit tokens, versions) to the JSON file
named by SCOREKEEPER_LOAD_GAMES and starts Locust; run alone it needs the same.
"""

import functools
import http.client
import itertools
import json
import os
import random
import re
import time
from pathlib import Path
from urllib.parse import urlsplit

from locust import FastHttpUser, between, constant, events, task

from bench.deals import entry

PHONES = 5
DEAL_SECONDS = 60
SEEN = "deal seen by a phone"
STREAM = "open the stream"
LIVE = "live parts"

SAVED: dict[str, dict[int, float]] = {}
"""When each game's versions were sent to be saved, by game id: what the phones compare with."""
_phones = itertools.count()
_scorers = itertools.count()
VERSION = re.compile(r'"?(\d+)-')


@functools.cache
def games() -> list[dict]:
    """Return the games to play, as bench/load.py wrote them."""
    return json.loads(Path(os.environ["SCOREKEEPER_LOAD_GAMES"]).read_text())


def record(name, started, exception=None, request_type="GET"):
    """Put one timed step into Locust's statistics."""
    events.request.fire(
        request_type=request_type,
        name=name,
        response_time=(time.time() - started) * 1000,
        response_length=0,
        exception=exception,
        context={},
    )


class Phone(FastHttpUser):
    """A phone showing a game's page: it holds the game's stream open and fetches each deal."""

    weight = PHONES
    wait_time = constant(1)  # before opening the stream again, as the page's retry does

    def on_start(self):
        game = games()[next(_phones) // PHONES % len(games())]
        self.game_id = game["id"]
        self.version = game["version"]

    @task
    def follow(self):
        """Hold the stream open until the server ends it; fetch the live parts on each event."""
        address = urlsplit(self.host)
        connection = http.client.HTTPConnection(address.hostname, address.port, timeout=90)
        started = time.time()
        try:
            connection.request("GET", f"/games/{self.game_id}/events")
            response = connection.getresponse()
            if response.status != 200:
                record(STREAM, started, RuntimeError(f"the stream answered {response.status}"))
                return
            first = True
            for raw in response.fp:
                line = raw.decode().strip()
                if not line.startswith("data: "):
                    continue
                if first:
                    record(STREAM, started)
                    first = False
                version = int(line.removeprefix("data: "))
                if version > self.version:
                    self.fetch(version)
        except OSError as error:
            record(STREAM, started, error)
        finally:
            connection.close()

    def fetch(self, told):
        """Ask for the live parts, as the page does when its stream tells of a version."""
        headers = {"HX-Request": "true", "If-None-Match": f'"{self.version}-v"'}
        with self.client.get(
            f"/games/{self.game_id}/live", headers=headers, name=LIVE, catch_response=True
        ) as response:
            if response.status_code != 200:
                response.failure(f"the live parts answered {response.status_code}")
                return
            match = VERSION.match(response.headers.get("ETag", ""))
            if not match or int(match.group(1)) < told:
                response.failure("the live parts came without the version told")
                return
            response.success()
            version = int(match.group(1))
        sent = SAVED.get(self.game_id, {})
        for seen in range(self.version + 1, version + 1):
            if seen in sent:
                record(SEEN, sent[seen], request_type="SEEN")
        self.version = version


class Scorekeeper(FastHttpUser):
    """The phone that keeps a table's score: a deal about once a minute, through the API."""

    weight = 1
    wait_time = between(DEAL_SECONDS * 0.9, DEAL_SECONDS * 1.1)

    def on_start(self):
        game = games()[next(_scorers) % len(games())]
        self.game_id = game["id"]
        self.version = game["version"]
        self.number = game["deals"] + 1
        self.headers = {"Authorization": f"Bearer {game['edit_token']}"}
        # Tables started at different moments: spread the first deals over a minute.
        time.sleep(random.uniform(0, DEAL_SECONDS))

    @task
    def save_deal(self):
        sent = time.time()
        response = self.client.post(
            f"/api/v1/games/{self.game_id}/deals",
            json=entry(self.number),
            headers=self.headers,
            name="post a deal",
        )
        if response.status_code == 201:
            self.version += 1
            self.number += 1
            SAVED.setdefault(self.game_id, {})[self.version] = sent
