"""Helpers for the tables, history, statistics and export tests."""

from __future__ import annotations

import json
import random
import re
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import event

from bench.generate import random_game


@contextmanager
def count_queries(engine):
    """Count the SQL statements run on the engine inside the block."""
    statements: list[str] = []

    def before(conn, cursor, statement, parameters, context, executemany):
        statements.append(statement)

    event.listen(engine, "before_cursor_execute", before)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", before)


def create_table(client, name="Thursday club", players=None) -> dict[str, Any]:
    """Create a table through the API; return its document with the edit token."""
    body = {"name": name} | ({"players": players} if players is not None else {})
    response = client.post("/api/v1/tables", json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def start_game(client, table, players=("Ann", "Bob", "Cy", "Di", "Ed"), **settings):
    """Start a game at the table through the API; return its document with the edit token."""
    body = {"ruleset": "five-handed-schmier", "players": list(players), "first_dealer": 0}
    response = client.post(
        f"/api/v1/tables/{table['id']}/games",
        json=body | settings,
        headers=bearer(table["edit_token"]),
    )
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def play(client, game, entries) -> None:
    """Post deals to a game; each must be stored."""
    for entry in entries:
        response = client.post(
            f"/api/v1/games/{game['id']}/deals", json=entry, headers=bearer(game["edit_token"])
        )
        assert response.status_code == 201, response.get_json()


def play_random_games(
    client, table, count, seed=7, players=("Ann", "Bob", "Cy", "Di", "Ed"), most=60
):
    """Play `count` random valid games at the table through the API; return their documents."""
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        names = list(players)
        rng.shuffle(names)
        generated = random_game(rng, players=names, most=most)
        game = start_game(client, table, names, first_dealer=generated.setup["first_dealer"])
        play(client, game, generated.entries)
        games.append(game)
    return games


def csrf_token(html: str) -> str:
    """Return the CSRF token of the first form on a page."""
    match = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert match, "no CSRF token on the page"
    return match.group(1)


# A deal each kind: made with a partner, set alone, thrown in.
MADE_WITH_PARTNER = {
    "bidder": 1, "bid": 4, "trump": "H", "called_card": "KH", "partner": 3,
    "high": 3, "low": 0, "jack": 1, "off_jack": 2, "joker": 1,
    "game_points": {"bidders": 27, "opponents": 18},
}  # fmt: skip
SET_ALONE = {
    "bidder": 0, "bid": 5, "trump": "S",
    "high": 0, "low": 2, "jack": 3, "off_jack": 0, "joker": 4, "game": "opponents",
}  # fmt: skip
THROWN_IN = {"thrown_in": True}


DATA = Path(__file__).parent / "data"
EXAMPLES = [
    *json.loads((DATA / "five-handed-games.json").read_text()),
    *json.loads((DATA / "other-rulesets-games.json").read_text()),
    *json.loads((DATA / "euchre-family-games.json").read_text()),
]
"""The worked games of every ruleset (tests/data)."""
FIRST = {}
"""Each ruleset's first worked game, by ruleset id, in the rule book's order."""
for _example in EXAMPLES:
    FIRST.setdefault(_example["ruleset"], _example)


def play_example(client, table, example):
    """Start the worked game at the table and post every deal; return the game document."""
    setup = {k: example[k] for k in ("ruleset", "players", "first_dealer", "target", "house_rules")}
    response = client.post(
        f"/api/v1/tables/{table['id']}/games", json=setup, headers=bearer(table["edit_token"])
    )
    assert response.status_code == 201, response.get_json()
    game = response.get_json()
    for number, entry in enumerate(example["deals"], start=1):
        response = client.post(
            f"/api/v1/games/{game['id']}/deals",
            json={"number": number, **entry},
            headers=bearer(game["edit_token"]),
        )
        assert response.status_code == 201, (number, response.get_json())
    return client.get(f"/api/v1/games/{game['id']}").get_json() | {"edit_token": game["edit_token"]}
