"""Simultaneous requests against a real gunicorn with several workers, on both databases."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, func, select

from scorekeeper.store.models import (
    DealSeat,
    Game,
    Player,
    RegularDealTotal,
    RegularGameTotal,
    RegularResult,
    TablePlayer,
)

BACKENDS = ("sqlite", "postgresql")

ROOT = Path(__file__).resolve().parents[1]
WORKERS = 3
THREADS = 8
TIMEOUT = 20  # seconds, for any one request
FIVE = ["Ann", "Bob", "Cy", "Di", "Ed"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """A gunicorn serving the app, and a tiny HTTP client for it."""

    def __init__(self, port: int):
        self.port = port

    def request(
        self, method: str, path: str, body: Any = None, token: str | None = None, raw=None
    ) -> tuple[int, Any]:
        """Send one request on a new connection; return the status and the decoded JSON."""
        headers = {"Content-Type": "application/json"}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        data = raw if raw is not None else (None if body is None else json.dumps(body))
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=TIMEOUT)
        try:
            connection.request(method, path, body=data, headers=headers)
            response = connection.getresponse()
            payload = response.read()
        finally:
            connection.close()
        return response.status, json.loads(payload) if payload else None

    def create(self, **settings: Any) -> dict[str, Any]:
        body = {"ruleset": "five-handed-schmier", "players": FIVE, "first_dealer": 0, **settings}
        status, game = self.request("POST", "/api/v1/games", body)
        assert status == 201, game
        return game

    def game(self, game: dict[str, Any]) -> dict[str, Any]:
        status, document = self.request("GET", f"/api/v1/games/{game['id']}")
        assert status == 200, document
        return document

    def post(self, game: dict[str, Any], entry: dict[str, Any]) -> tuple[int, Any]:
        return self.request("POST", f"/api/v1/games/{game['id']}/deals", entry, game["edit_token"])


@pytest.fixture(scope="module")
def server(database: str) -> Iterator[Server]:
    """Serve the app with gunicorn and several workers on the test database; always stop it."""
    with tempfile.TemporaryDirectory(prefix="sk_test_gunicorn_") as folder:
        yield from _serve(database, Path(folder) / "gunicorn.log")


def _serve(database: str, log: Path) -> Iterator[Server]:
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database,
        "FLASK_SECRET_KEY": "concurrency-test-secret",
        "FLASK_RATELIMIT_ENABLED": "false",  # many games from one address, on purpose
    }
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "--workers",
        str(WORKERS),
        "--bind",
        f"127.0.0.1:{port}",
        "--timeout",
        "60",
        "--graceful-timeout",
        "5",
        "scorekeeper:create_app()",
    ]
    yield from run_gunicorn(command, env, log)


def run_gunicorn(command: list[str], env: dict[str, str], log: Path) -> Iterator[Server]:
    """Start gunicorn with `command`, yield it once it answers, and always stop it."""
    port = int(command[command.index("--bind") + 1].rsplit(":", 1)[1])
    with log.open("wb") as output:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=output, stderr=output)
    try:
        served = Server(port)
        # Only a guard against a server that never comes up: on a busy 2-core machine its
        # workers take well over 30 s to import the app.
        deadline = time.monotonic() + 180
        while True:
            try:
                if served.request("GET", "/api/v1/rulesets")[0] == 200:
                    break
            except OSError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"gunicorn did not start:\n{log.read_text()[-3000:]}")
            time.sleep(0.1)
        yield served
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


def sweep(bidder: int, partner: int, bid: int = 3) -> dict[str, Any]:
    """Return an entry in which the bidders take all six points."""
    points = dict.fromkeys(("high", "low", "jack", "off_jack", "joker"), bidder)
    call = {"bidder": bidder, "bid": bid, "trump": "S", "called_card": "KS", "partner": partner}
    return call | points | {"game": "bidders"}


def at_once(calls) -> list[Any]:
    """Run the calls in threads released together; return their results in order."""
    barrier = threading.Barrier(len(calls))

    def run(call):
        barrier.wait(timeout=TIMEOUT)
        return call()

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(run, calls, timeout=TIMEOUT * 3))


def entry_of(deal: dict[str, Any]) -> dict[str, Any]:
    """Return what a client would post for a stored deal document."""
    if deal["thrown_in"]:
        return {"thrown_in": True}
    keys = ("bidder", "bid", "trump", "called_card", "partner", "high", "low", "jack")
    keys += ("off_jack", "joker", "game_points")
    entry = {key: deal[key] for key in keys if deal[key] is not None}
    if "game_points" not in entry:
        entry["game"] = deal["game"]
    return entry


def assert_consistent(server: Server, game: dict[str, Any]) -> dict[str, Any]:
    """Check the stored game equals a fresh game fed its stored deals one by one."""
    stored = server.game(game)
    fresh = server.create(target=stored["target"], first_dealer=stored["first_dealer"])
    for deal in stored["deals"]:
        status, document = server.post(fresh, entry_of(deal))
        assert status == 201, document
    replayed = server.game(fresh)
    for key in ("players", "next_dealer", "status", "winners", "decided_by", "deals"):
        assert stored[key] == replayed[key], key
    return stored


def test_simultaneous_posts_of_the_same_number_store_exactly_one(server):
    game = server.create(target=999)
    for number in range(1, 5):
        entries = [{"number": number, **sweep(seat % 5, (seat + 1) % 5)} for seat in range(THREADS)]
        results = at_once([lambda e=e: server.post(game, e) for e in entries])
        statuses = sorted(status for status, _ in results)
        assert statuses == [201] + [409] * (THREADS - 1), results
        for status, body in results:
            if status == 409:
                assert body["error"]["code"] == "conflict"
        winner = next(body for status, body in results if status == 201)
        stored = server.game(game)
        assert len(stored["deals"]) == number
        assert stored["deals"][-1] == winner
    assert_consistent(server, game)


def test_simultaneous_posts_without_a_number_all_land_in_turn(server):
    game = server.create(target=999)
    entries = [sweep(seat % 5, (seat + 2) % 5, bid=3 + seat % 3) for seat in range(THREADS)]
    results = at_once([lambda e=e: server.post(game, e) for e in entries])
    assert [status for status, _ in results] == [201] * THREADS, results
    assert sorted(body["number"] for _, body in results) == list(range(1, THREADS + 1))
    stored = assert_consistent(server, game)
    assert len(stored["deals"]) == THREADS


def test_a_correction_racing_a_post_leaves_a_consistent_game(server):
    game = server.create(target=999)
    for seat in range(3):
        assert server.post(game, sweep(seat, (seat + 1) % 5))[0] == 201
    path = f"/api/v1/games/{game['id']}/deals"
    for round_ in range(4):
        # Turn deal 1 into a thrown-in deal and back, while someone posts the next deal.
        correction = {"thrown_in": True} if round_ % 2 == 0 else sweep(0, 1)
        results = at_once(
            [
                lambda c=correction: server.request("PUT", f"{path}/1", c, game["edit_token"]),
                lambda r=round_: server.post(game, sweep(r % 5, (r + 3) % 5)),
            ]
        )
        assert [status for status, _ in results] == [200, 201], results
        assert_consistent(server, game)


def test_undo_racing_a_post_of_the_next_number_lets_exactly_one_through(server):
    game = server.create(target=999)
    for seat in range(6):
        assert server.post(game, sweep(seat % 5, (seat + 1) % 5))[0] == 201
    path = f"/api/v1/games/{game['id']}/deals"
    for _ in range(4):
        count = len(server.game(game)["deals"])
        results = at_once(
            [
                lambda n=count: server.request("DELETE", f"{path}/{n}", None, game["edit_token"]),
                lambda n=count: server.post(game, {"number": n + 1, **sweep(2, 4)}),
            ]
        )
        statuses = sorted(status for status, _ in results)
        assert statuses in ([204, 409], [201, 409]), results
        assert_consistent(server, game)


# ---------------------------------------------------------------- the real server's edges


def test_too_large_bodies_get_the_json_error_over_http(server):
    big = json.dumps({"ruleset": "five-handed-schmier", "players": FIVE, "x": "a" * 70_000})
    status, body = server.request("POST", "/api/v1/games", raw=big)
    assert (status, body["error"]["code"]) == (413, "too_large")


def test_too_large_chunked_body_gets_the_json_error_over_http(server):
    def chunks():
        yield b'{"ruleset": "five-handed-schmier", "x": "'
        for _ in range(40):
            yield b"a" * 4096
        yield b'"}'

    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=TIMEOUT)
    try:
        connection.request("POST", "/api/v1/games/nope/deals", body=chunks(), encode_chunked=True)
        response = connection.getresponse()
        body = json.loads(response.read())
    finally:
        connection.close()
    assert (response.status, body["error"]["code"]) == (413, "too_large")


def test_small_chunked_body_is_read_over_http(server):
    body = json.dumps({"ruleset": "five-handed-schmier", "players": FIVE}).encode()
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=TIMEOUT)
    try:
        connection.request(
            "POST", "/api/v1/games", body=iter([body[:10], body[10:]]), encode_chunked=True
        )
        response = connection.getresponse()
        document = json.loads(response.read())
    finally:
        connection.close()
    assert response.status == 201, document
    assert document["players"][0]["name"] == "Ann"


def test_malformed_bodies_get_the_json_error_over_http(server):
    # One test, not a parametrized one: the module's server is started once per database.
    for raw, status, code in [
        ("{", 400, "bad_request"),
        ("[]", 400, "bad_request"),
        ('{"ruleset": "five-handed-schmier", "players": 5}', 400, "bad_request"),
        ('{"ruleset": "five-handed-schmier", "players": ["Ann"]}', 422, "invalid"),
    ]:
        answer, body = server.request("POST", "/api/v1/games", raw=raw)
        assert (answer, body["error"]["code"]) == (status, code), raw
    for method, path in [("GET", "/api/v1/nothing"), ("PATCH", "/api/v1/games")]:
        answer, body = server.request(method, path)
        assert body["error"]["code"] in ("not_found", "method_not_allowed")
        assert answer in (404, 405)


def table_of_four_games(server: Server) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Make a table of FIVE and four games of it, each with its own first dealer."""
    status, table = server.request("POST", "/api/v1/tables", {"name": "Club", "players": FIVE})
    assert status == 201, table
    games = []
    for first_dealer in range(4):
        status, game = server.request(
            "POST",
            f"/api/v1/tables/{table['id']}/games",
            {"ruleset": "five-handed-schmier", "players": FIVE, "first_dealer": first_dealer},
            token=table["edit_token"],
        )
        assert status == 201, game
        games.append(game)
    return table, games


def test_deals_saved_at_once_at_one_tables_games_keep_the_regulars_totals(server, database):
    """Every game of a table adds to the same regulars' totals: none waits forever, none is lost."""
    table, games = table_of_four_games(server)
    for _ in range(3):
        calls = [
            lambda game=game, seat=seat: server.post(game, sweep(seat, (seat + 1) % 5))
            for seat, game in enumerate(games)
        ]
        assert [status for status, _ in at_once(calls)] == [201] * len(games)

    engine = create_engine(database)
    try:
        with engine.connect() as connection:
            # The module's server is shared: count this table's regulars only.
            regulars = select(TablePlayer.id).where(TablePlayer.table_id == table["id"])
            counted = connection.execute(
                select(func.sum(RegularDealTotal.deals), func.sum(RegularDealTotal.points)).where(
                    RegularDealTotal.table_player_id.in_(regulars)
                )
            ).one()
            rows = connection.execute(
                select(func.count(), func.sum(DealSeat.delta)).where(
                    DealSeat.table_player_id.in_(regulars)
                )
            ).one()
    finally:
        engine.dispose()
    assert tuple(counted) == tuple(rows)
    assert rows[0] == 4 * 3 * 5


def test_games_ending_at_once_at_one_table_keep_the_regulars_streaks(server, database):
    """Games of one table finishing together each renumber their regulars' streaks in turn:
    the kept results and game totals are what the games themselves say."""
    table, games = table_of_four_games(server)
    for _ in range(4):  # the fourth sweep takes every game past its target, all at once
        calls = [
            lambda game=game, seat=seat: server.post(game, sweep(seat % 2, 2 + seat % 3))
            for seat, game in enumerate(games)
        ]
        assert [status for status, _ in at_once(calls)] == [201] * len(games)

    engine = create_engine(database)
    try:
        with engine.connect() as connection:
            regulars = select(TablePlayer.id).where(TablePlayer.table_id == table["id"])
            seats = connection.execute(
                select(Player.table_player_id, Game.id, Game.status, Player.won)
                .join(Game, Game.id == Player.game_id)
                .where(Game.table_id == table["id"])
                .order_by(Game.created_at, Game.id)
            ).all()
            kept = connection.execute(
                select(
                    RegularResult.table_player_id,
                    RegularResult.game_id,
                    RegularResult.won,
                    RegularResult.streak,
                )
                .where(RegularResult.table_player_id.in_(regulars))
                .order_by(RegularResult.created_at, RegularResult.game_id)
            ).all()
            totals = connection.execute(
                select(
                    RegularGameTotal.table_player_id,
                    func.sum(RegularGameTotal.games),
                    func.sum(RegularGameTotal.won),
                )
                .where(RegularGameTotal.table_player_id.in_(regulars))
                .group_by(RegularGameTotal.table_player_id)
            ).all()
    finally:
        engine.dispose()
    runs: dict[int, int] = {}
    expected = []
    for pid, game_id, game_status, won in seats:
        assert game_status != "in_progress"
        runs[pid] = runs.get(pid, 0) + 1 if won else 0
        expected.append((pid, game_id, won, runs[pid]))
    assert sorted(tuple(row) for row in kept) == sorted(expected)
    assert {pid: (int(n), int(w)) for pid, n, w in totals} == {
        pid: (4, sum(won for p, _, _, won in seats if p == pid)) for pid in runs
    }
