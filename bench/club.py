"""Club scale: a table of 10,000 games in a database of 100,000, every page of it timed.

    .venv/bin/python -m bench.club                                  # SQLite, full size
    .venv/bin/python -m bench.club --database postgresql+psycopg://postgres@127.0.0.1/club
    .venv/bin/python -m bench.club --sizes 10,100,1000 --others 9000  # a quicker run

Tables of each size in ``--sizes`` are written next to ``--others`` games at other tables
(the database a club's table lives in). The games are random games made by the engine
(a pool of ``--pool`` distinct ones, each deal checked), written in bulk with their
``deal_seats`` rows as the store writes them. Statistics are never gathered by hand: no
``ANALYZE``; only what the app does itself (SQLite's ``PRAGMA optimize``, PostgreSQL's
autovacuum) runs.

Measured, each size against each page: the median time of the table's pages, the
filtered archive, the stats page, a player's record and the API's reads (in process,
through Flask). On the largest table, served by one gunicorn gevent worker as in
production: the JSON and CSV exports' time to first byte, total time and the worker's
memory growth, and a game page asked for while the export is being sent. Last, a
100-game import. The goals (issue 33) are printed beside the figures.
"""

import argparse
import http.client
import random
import statistics
import tempfile
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import insert

from bench.generate import random_game
from bench.throughput import _serve
from scorekeeper import create_app, engine
from scorekeeper.extensions import db
from scorekeeper.store import exchange, records, tables
from scorekeeper.store.models import Deal, DealSeat, DealSeatTag, Game, Player

REGULARS = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou"]
BATCH = 1000
"""Games written per batch."""
OTHER_TABLE_GAMES = 2000
"""Games per table among the others."""
GOAL_READ_MS = 300
GOAL_FIRST_BYTE_S = 1.0
GOAL_GROWTH_MB = 50
GOAL_CONCURRENT_MS = 200
GOAL_IMPORT_S = 1.0


def main() -> None:
    """Build the tables, then measure their pages, exports and an import."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.club", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--database", help="SQLAlchemy URL of an empty database (default: SQLite)")
    parser.add_argument("--sizes", default="10,100,1000,10000", help="games of each table measured")
    parser.add_argument("--others", type=int, default=90_000, help="games at other tables")
    parser.add_argument("--pool", type=int, default=300, help="distinct random games written")
    parser.add_argument("--runs", type=int, default=5, help="fetches per page (median kept)")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]

    with tempfile.TemporaryDirectory() as folder:
        url = args.database or f"sqlite:///{Path(folder) / 'club.sqlite'}"
        app = create_app(
            {"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench", "RATELIMIT_ENABLED": False}
        )
        with app.app_context():
            from flask_migrate import upgrade

            upgrade()
            rng = random.Random(args.seed)
            pool = [
                random_game(rng, players=rng.sample(REGULARS, 5), most=40) for _ in range(args.pool)
            ]
            began = time.perf_counter()
            start = datetime(2020, 1, 1, 19, 0, tzinfo=UTC)
            written = 0
            for index in range(0, args.others, OTHER_TABLE_GAMES):
                count = min(OTHER_TABLE_GAMES, args.others - index)
                _table(f"Other {index // OTHER_TABLE_GAMES}", pool, count, start, rng)
                written += count
            measured = [_table(f"Club of {size}", pool, size, start, rng) for size in sizes]
            # The regulars' totals, as the app keeps them as deals are saved (not statistics).
            records.write_totals(db.session.connection())
            db.session.commit()
            total = written + sum(sizes)
            kind = "PostgreSQL" if url.startswith("postgres") else "SQLite"
            took = time.perf_counter() - began
            print(f"{kind}: {total:,} games written in {took:.0f} s (no ANALYZE).")
            print()
            failures = _pages(app, measured, sizes, args.runs)
            biggest = measured[-1]
            failures += _import(app, biggest)
            db.session.remove()
            db.engine.dispose()
        with _serve("scorekeeper:create_app()", url, {"GUNICORN_WORKERS": "1"}) as server:
            _wait_ready(server.base)
            failures += _exports(server, biggest, sizes[-1])
    print()
    if failures:
        print("Short of the goals: " + "; ".join(failures))
        raise SystemExit(1)
    print("Every goal met.")


def _table(name: str, pool: list, count: int, start: datetime, rng: random.Random) -> dict:
    """Write a table of `count` games drawn from the pool; return its ids for the pages."""
    table, _ = tables.create_table(name, REGULARS)
    db.session.flush()
    ids = {p.name: p.id for p in table.players}
    table_id = table.id
    db.session.commit()
    batch: dict[str, list] = {"games": [], "players": [], "deals": [], "seats": [], "tags": []}
    for index in range(count):
        generated = pool[rng.randrange(len(pool))]
        names = generated.setup["players"]
        game_id = f"{table_id[:10]}{index:012d}"
        at = start + timedelta(minutes=50 * index, seconds=rng.random())
        final = generated.states[-1] if generated.states else None
        outcome = final.outcome if final else None
        config = engine.configure(**generated.setup)
        batch["games"].append(
            {
                "id": game_id,
                "ruleset": config.ruleset.id,
                "target": config.target,
                "first_dealer": config.first_dealer,
                "house_rules": dict(config.house_rules),
                "edit_token_hash": "0" * 64,
                "version": 1 + len(generated.entries),
                "deal_count": len(generated.entries),
                "status": outcome.status if outcome else engine.Status.IN_PROGRESS,
                "winners": list(outcome.winners) if outcome else [],
                "decided_by": outcome.decided_by if outcome else None,
                "explanation": str(outcome.explanation) if outcome else "",
                "next_dealer": final.next_dealer if final else config.first_dealer,
                "scores": list(final.scores) if final else [0] * 5,
                "created_at": at,
                "updated_at": at,
                "table_id": table_id,
            }
        )
        winners = set(outcome.winners) if outcome else set()
        seats = records.seating(game_id, config, [ids[n] for n in names])
        batch["players"].extend(
            {
                "game_id": game_id,
                "seat": s,
                "name": n,
                "table_player_id": ids[n],
                "won": s in winners,
            }
            for s, n in enumerate(names)
        )
        for entry, state in zip(generated.entries, generated.states, strict=True):
            document = state.last.to_document()
            batch["deals"].append(
                {
                    "game_id": game_id,
                    "number": document["number"],
                    "entry": entry,
                    "result": document,
                    "created_at": at,
                    "updated_at": at,
                }
            )
            rows, tags = records.seat_rows(seats, document)
            batch["seats"].extend(rows)
            batch["tags"].extend(tags)
        if len(batch["games"]) >= BATCH or index == count - 1:
            for model, key in (
                (Game, "games"),
                (Player, "players"),
                (Deal, "deals"),
                (DealSeat, "seats"),
                (DealSeatTag, "tags"),
            ):
                if batch[key]:
                    db.session.execute(insert(model), batch[key])
            db.session.commit()
            batch = {key: [] for key in batch}
    newest = f"{table_id[:10]}{count - 1:012d}" if count else None
    return {"id": table_id, "player": ids["Ann"], "game": newest}


def _pages(app: Any, measured: list[dict], sizes: list[int], runs: int) -> list[str]:
    """Time every page on every table; print one row per page, one column per size."""
    client = app.test_client()
    pages = [
        ("table page", "/tables/{t}"),
        ("table page, last page of games", "/tables/{t}?page=9999"),
        ("archive filtered by player", "/tables/{t}?player={p}"),
        ("archive filtered by player and outcome", "/tables/{t}?player={p}&outcome=won"),
        ("stats page", "/tables/{t}/stats"),
        ("one player's record", "/tables/{t}/players/{p}"),
        ("API: table with regulars' counts", "/api/v1/tables/{t}"),
        ("API: games, filtered by player", "/api/v1/tables/{t}/games?player={p}"),
        ("API: stats", "/api/v1/tables/{t}/stats"),
        ("game page (newest game)", "/games/{g}"),
        ("API: game (newest game)", "/api/v1/games/{g}"),
    ]
    print(f"{'median ms, table of … games':<42}" + "".join(f"{size:>10,}" for size in sizes))
    failures = []
    for label, pattern in pages:
        cells = []
        for table, size in zip(measured, sizes, strict=True):
            if table["game"] is None:
                cells.append("-")
                continue
            address = pattern.format(t=table["id"], p=table["player"], g=table["game"])
            assert client.get(address).status_code == 200, address  # warm, and it answers
            times = []
            for _ in range(runs):
                began = time.perf_counter()
                response = client.get(address)
                times.append((time.perf_counter() - began) * 1000)
                assert response.status_code == 200, address
            median = statistics.median(times)
            cells.append(f"{median:.1f}")
            if median > GOAL_READ_MS:
                failures.append(f"{label} at {size:,} games: {median:.0f} ms")
        print(f"{label:<42}" + "".join(f"{cell:>10}" for cell in cells))
    return failures


def _import(app: Any, table: dict) -> list[str]:
    """Time the import of 100 of the table's games (statements batched), thrice."""
    with app.test_request_context():
        document = exchange.export_table(tables.get_table(table["id"]))
    document["games"] = document["games"][:100]
    text = exchange.dumps(document)
    times = []
    for _ in range(3):
        began = time.perf_counter()
        with app.app_context():
            exchange.import_document(exchange.load(text))
        times.append(time.perf_counter() - began)
    took = statistics.median(times)
    print()
    print(f"Import of {len(document['games'])} games: {took:.2f} s (goal ≤ {GOAL_IMPORT_S:.0f} s).")
    return [f"100-game import {took:.2f} s"] if took > GOAL_IMPORT_S else []


def _wait_ready(base: str) -> None:
    deadline = time.monotonic() + 120
    while True:
        try:
            _get(base, "/api/v1/rulesets")
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def _get(base: str, path: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    host = base.removeprefix("http://")
    connection = http.client.HTTPConnection(host, timeout=120)
    try:
        connection.request("GET", path, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def _rss_mb(pid: int) -> float:
    """Return a process's resident memory in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _exports(server: Any, table: dict, size: int) -> list[str]:
    """Download the largest table's exports from a one-worker server; time a game page meanwhile."""
    worker = int(Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()[0])
    host = server.base.removeprefix("http://")
    game_page = f"/games/{table['game']}"
    _get(server.base, game_page)  # warm
    quiet = [_timed(server.base, game_page) for _ in range(5)]
    print()
    print(f"Exports of the table of {size:,} games, one gevent worker (gzip accepted):")
    print(f"  game page alone: median {statistics.median(quiet):.1f} ms")
    failures = []
    for label, path in (
        ("JSON", f"/tables/{table['id']}/export.json"),
        ("CSV", f"/tables/{table['id']}/export.csv"),
    ):
        before = _rss_mb(worker)
        peak = before
        during: list[float] = []
        done = threading.Event()

        def ask(done: threading.Event = done, during: list[float] = during) -> None:
            while not done.is_set():
                during.append(_timed(server.base, game_page))
                time.sleep(0.05)

        connection = http.client.HTTPConnection(host, timeout=300)
        began = time.perf_counter()
        connection.request("GET", path, headers={"Accept-Encoding": "gzip"})
        response = connection.getresponse()
        first = None
        asking = threading.Thread(target=ask)
        sent = 0
        while True:
            piece = response.read1(65536)
            if first is None:
                first = time.perf_counter() - began
                asking.start()
            if not piece:
                break
            sent += len(piece)
            peak = max(peak, _rss_mb(worker))
        took = time.perf_counter() - began
        done.set()
        asking.join()
        connection.close()
        growth = peak - before
        worst = max(during) if during else float("nan")
        middle = statistics.median(during) if during else float("nan")
        print(
            f"  {label}: first byte {first:.2f} s, all {took:.1f} s, {sent / 1e6:.1f} MB sent, "
            f"worker memory +{growth:.0f} MB; game page meanwhile: median {middle:.0f} ms, "
            f"worst {worst:.0f} ms ({len(during)} asked)"
        )
        if first is not None and first > GOAL_FIRST_BYTE_S:
            failures.append(f"{label} export first byte {first:.2f} s")
        if growth > GOAL_GROWTH_MB:
            failures.append(f"{label} export grew the worker {growth:.0f} MB")
        if during and middle > GOAL_CONCURRENT_MS:
            failures.append(f"game page during the {label} export {middle:.0f} ms")
    return failures


def _timed(base: str, path: str) -> float:
    began = time.perf_counter()
    status, _ = _get(base, path)
    assert status == 200, (path, status)
    return (time.perf_counter() - began) * 1000


if __name__ == "__main__":
    main()
