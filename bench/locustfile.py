"""Locust's users for `make bench-load`: phones following games live, scorekeepers saving deals.

Each table is one game in progress: PHONES phones poll its live address every 2 s, as
the game page does, and one scorekeeper saves a deal through the API about once a
minute. When a phone first hears of a deal, the time since the scorekeeper sent it is
recorded as a request named "deal seen by a phone", so Locust's own statistics give its
percentiles next to the posts' and polls'.

bench/load.py writes the games to play (ids, edit tokens, versions) to the JSON file
named by SCOREKEEPER_LOAD_GAMES and starts Locust; run alone it needs the same.
"""

import functools
import itertools
import json
import os
import random
import re
import time
from pathlib import Path

from locust import FastHttpUser, between, constant, events, task

from bench.deals import entry

PHONES = 5
POLL_SECONDS = 2
DEAL_SECONDS = 60
SEEN = "deal seen by a phone"

SAVED: dict[str, dict[int, float]] = {}
"""When each game's versions were sent to be saved, by game id: what the phones compare with."""
_phones = itertools.count()
_scorers = itertools.count()
VERSION = re.compile(r'"?(\d+)-')


@functools.cache
def games() -> list[dict]:
    """Return the games to play, as bench/load.py wrote them."""
    return json.loads(Path(os.environ["SCOREKEEPER_LOAD_GAMES"]).read_text())


class Phone(FastHttpUser):
    """A phone showing a game's page: it polls, and hears 304 until a deal is saved."""

    weight = PHONES
    wait_time = constant(POLL_SECONDS)

    def on_start(self):
        game = games()[next(_phones) // PHONES % len(games())]
        self.game_id = game["id"]
        self.version = game["version"]
        # Phones opened their pages at different moments: spread the first polls.
        time.sleep(random.uniform(0, POLL_SECONDS))

    @task
    def poll(self):
        headers = {"HX-Request": "true", "If-None-Match": f'"{self.version}-v"'}
        with self.client.get(
            f"/games/{self.game_id}/live", headers=headers, name="poll", catch_response=True
        ) as response:
            if response.status_code == 304:
                response.success()
                return
            if response.status_code != 200:
                response.failure(f"poll answered {response.status_code}")
                return
            response.success()
            match = VERSION.match(response.headers.get("ETag", ""))
            if not match:
                response.failure("a changed poll came without its version")
                return
            version = int(match.group(1))
        sent = SAVED.get(self.game_id, {})
        for seen in range(self.version + 1, version + 1):
            if seen in sent:
                lag = (time.time() - sent[seen]) * 1000
                events.request.fire(
                    request_type="SEEN",
                    name=SEEN,
                    response_time=lag,
                    response_length=0,
                    exception=None,
                    context={},
                )
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
