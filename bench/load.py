"""Load test: many tables at once on PostgreSQL, each followed live by phones (Locust).

    .venv/bin/python -m bench.load --tables 1000          # or: make bench-load TABLES=1000
    .venv/bin/python -m bench.load --tables 300 --minutes 3 --server postgresql+psycopg://…
    .venv/bin/python -m bench.load --tables 1000 --nginx  # through deploy/nginx.conf

A new PostgreSQL database is made for the run (and dropped after it), the tables' games
are started in it, and the app is served by gunicorn as the Procfile serves it
(gunicorn.conf.py when the project has one, else two workers). Locust then plays every
table (bench/locustfile.py): 5 phones following each game on its stream of versions, as
the game page does, and a scorekeeper saving a deal about once a minute, for a few
minutes after every user has started. The figures are those of that steady state: Locust's
statistics are reset once the last user has started (its half-minute ramp-up, when every
phone opens its stream at once, is not what a thousand tables in play look like).
With ``--nginx`` every request goes through Debian's nginx running deploy/nginx.conf in
front of the app (bench/nginx.py), as in production (docs/deploy.md).

It passes when nothing failed, deal posts answered within 100 ms at the 99th percentile,
and every phone heard of every deal within 3 s of its being sent.
"""

import argparse
import csv
import json
import os
import secrets
import subprocess
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path

import psycopg
from sqlalchemy import make_url

from bench import nginx
from bench.locustfile import LIVE, PHONES, SEEN, STREAM
from bench.throughput import ROOT, _free_port, _serve
from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.store import games

SERVER = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
POST_P99_MS = 100
SEEN_MS = 3000


def main() -> None:
    """Make the database and the games, serve the app, run Locust and judge its figures."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.load", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--minutes", type=float, default=3, help="after every user started")
    parser.add_argument("--server", default=SERVER, help="a PostgreSQL server's SQLAlchemy URL")
    parser.add_argument("--nginx", action="store_true", help="through deploy/nginx.conf")
    args = parser.parse_args()

    name = f"bench_load_{secrets.token_hex(4)}"
    url = make_url(args.server).set(database=name).render_as_string(hide_password=False)
    _admin(args.server, f'CREATE DATABASE "{name}"')
    try:
        with tempfile.TemporaryDirectory() as folder:
            played = Path(folder) / "games.json"
            played.write_text(json.dumps(_start_games(url, args.tables)))
            sessions_before = _sessions(args.server, name)
            proxied = {"FLASK_BEHIND_PROXY": "true"} if args.nginx else {}
            with ExitStack() as stack:
                app = stack.enter_context(_serve("scorekeeper:create_app()", url, proxied))
                base = app.base
                if args.nginx:
                    upstream = [app.base.removeprefix("http://")]
                    base = stack.enter_context(nginx.running(Path(folder), _free_port(), upstream))
                cpu_before = app.cpu_seconds()
                stats = _locust(base, played, args.tables, args.minutes, Path(folder))
                cpu = app.cpu_seconds() - cpu_before
            sessions = _sessions(args.server, name) - sessions_before
    finally:
        _admin(args.server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    failures = _report(stats, args.tables)
    print(
        f"The app's processes used {cpu:.0f} s of CPU during Locust's run; PostgreSQL"
        f" sessions opened to the run's database meanwhile: {sessions}"
    )
    if failures:
        print("FAILED: " + "; ".join(failures))
        raise SystemExit(1)
    print(f"OK: {args.tables} tables, every deal seen within 3 s, posts p99 under 100 ms.")


def _admin(server: str, statement: str) -> None:
    conninfo = make_url(server).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(conninfo, autocommit=True) as connection:
        connection.execute(statement)


def _sessions(server: str, database: str) -> int:
    """Return how many sessions PostgreSQL has opened to this database so far (its
    statistics, ``pg_stat_database.sessions``): each is a connection the app made."""
    conninfo = make_url(server).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(conninfo, autocommit=True) as connection:
        connection.execute("SELECT pg_stat_clear_snapshot()")
        row = connection.execute(
            "SELECT sessions FROM pg_stat_database WHERE datname = %s", (database,)
        ).fetchone()
    return int(row[0]) if row and row[0] is not None else 0


def _start_games(url: str, tables: int) -> list[dict]:
    """Start one five-player game per table, each with a first deal; return what Locust needs."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench", "TESTING": True})
    from bench.deals import PLAYERS, entry

    started = []
    with app.app_context():
        from flask_migrate import upgrade

        upgrade()
        for _ in range(tables):
            game, token = games.create_game(
                ruleset="five-handed-schmier", players=PLAYERS, first_dealer=0, target=999
            )
            games.add_deal(game, entry(1))
            started.append(
                {"id": game.id, "edit_token": token, "version": game.version, "deals": 1}
            )
        db.session.remove()
        db.engine.dispose()
    return started


def _locust(base: str, played: Path, tables: int, minutes: float, folder: Path) -> dict:
    """Run Locust headless against the app; return its statistics by request name."""
    users = tables * (PHONES + 1)
    rate = max(10, users // 30)  # every user started within about half a minute
    ramp = users / rate
    seconds = int(ramp + minutes * 60)
    prefix = folder / "locust"
    command = [
        sys.executable, "-m", "locust", "-f", str(ROOT / "bench" / "locustfile.py"),
        "--headless", "--only-summary", "--host", base,
        "--users", str(users), "--spawn-rate", str(rate), "--run-time", f"{seconds}s",
        "--stop-timeout", "5", "--csv", str(prefix), "--reset-stats",
    ]  # fmt: skip
    env = {**os.environ, "SCOREKEEPER_LOAD_GAMES": str(played), "PYTHONPATH": str(ROOT)}
    print(f"Locust: {tables} tables, {users} users, {seconds} s (started within {ramp:.0f} s)")
    subprocess.run(command, cwd=ROOT, env=env, check=False)
    with open(f"{prefix}_stats.csv", newline="") as rows:
        return {row["Name"]: row for row in csv.DictReader(rows)}


def _report(stats: dict, tables: int) -> list[str]:
    """Print the figures that matter; return the goals missed."""
    print()
    print(f"{tables} tables on PostgreSQL, {os.cpu_count()} cores (app and Locust on one machine)")
    print(f"{'':24}{'count':>8}{'failed':>8}{'median':>8}{'p95':>8}{'p99':>8}{'max':>8}  ms")
    for name in (STREAM, LIVE, "post a deal", SEEN, "Aggregated"):
        row = stats.get(name)
        if row is None:
            continue
        figures = [row["50%"], row["95%"], row["99%"], row["Max Response Time"]]
        # Locust says N/A for a figure of requests of which none succeeded.
        times = "".join(
            f"{figure:>8}" if figure == "N/A" else f"{float(figure):>8.0f}" for figure in figures
        )
        print(f"{name:<24}{row['Request Count']:>8}{row['Failure Count']:>8}{times}")
    failures = []
    total = stats.get("Aggregated", {})
    if int(total.get("Failure Count", 1)) > 0:
        failures.append(f"{total.get('Failure Count')} requests failed")
    posts = stats.get("post a deal")
    if posts is None or int(posts["Request Count"]) == 0:
        failures.append("no deal was posted")
    elif float(posts["99%"]) >= POST_P99_MS:
        failures.append(f"deal posts took {posts['99%']} ms at the 99th percentile")
    seen = stats.get(SEEN)
    if seen is None or int(seen["Request Count"]) == 0:
        failures.append("no phone saw a deal")
    elif float(seen["Max Response Time"]) > SEEN_MS:
        failures.append(f"a phone saw a deal {float(seen['Max Response Time']):.0f} ms after it")
    return failures


if __name__ == "__main__":
    main()
