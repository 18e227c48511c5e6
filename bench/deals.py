"""Deal cost benchmark: posting deal 300 costs what posting deal 10 costs; reads are fixed.

    .venv/bin/python -m bench.deals                  # SQLite file in a temporary folder
    .venv/bin/python -m bench.deals --database postgresql+psycopg://postgres@127.0.0.1/bench

One game of 300 deals is played through the JSON API (the Flask test client, so the
figures are the app's and the database's, not the network's). For deals 1-10 and
291-300 it records the time and the SQL statements of each POST, and of a GET of the
whole game after them. It fails when a late POST runs more statements than an early one,
when a late POST takes more than 1.5 times as long, or when reading the game runs more
statements at 300 deals than at 10.
"""

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from sqlalchemy import event

from scorekeeper import create_app
from scorekeeper.extensions import db

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Ed"]
DEALS = 300
WINDOW = 10
MAX_RATIO = 1.5


def entry(number: int) -> dict:
    """Return a valid deal that keeps every score under the target for 300 deals.

    The bidder (seat left of the dealer) calls the 10 of trump held by the next seat;
    each side takes three points, so the bid of 3 is made and everyone gains 3.
    """
    dealer = (number - 1) % 5
    bidder, partner, other = (dealer + 1) % 5, (dealer + 2) % 5, (dealer + 3) % 5
    return {
        "number": number,
        "bidder": bidder,
        "bid": 3,
        "trump": "HSDC"[number % 4],
        "called_card": "10" + "HSDC"[number % 4],
        "partner": partner,
        "high": bidder,
        "low": partner,
        "jack": other,
        "off_jack": other,
        "joker": bidder,
        "game_points": {"bidders": 30, "opponents": 20},
    }


def main() -> None:
    """Play the long game and compare the early and late costs."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.deals", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--database", help="SQLAlchemy URL (default: a new SQLite file)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = args.database or f"sqlite:///{Path(folder) / 'deals.sqlite'}"
        app = create_app(
            {
                "SQLALCHEMY_DATABASE_URI": url,
                "SECRET_KEY": "bench",
                "TESTING": True,
                "RATELIMIT_ENABLED": False,
            }
        )
        with app.app_context():
            from flask_migrate import upgrade

            upgrade()
            failures = _run(app, url)
            db.session.remove()
            db.engine.dispose()
    if failures:
        print("FAILED: " + "; ".join(failures))
        raise SystemExit(1)
    print("OK: a late deal costs what an early one costs; reading runs fixed statements.")


def _run(app, url: str) -> list[str]:
    statements = []
    event.listen(db.engine, "before_cursor_execute", lambda *a: statements.append(1))
    client = app.test_client()
    created = client.post(
        "/api/v1/games",
        json={
            "ruleset": "five-handed-schmier",
            "players": PLAYERS,
            "first_dealer": 0,
            "target": 999,
        },
    ).get_json()
    address = f"/api/v1/games/{created['id']}"
    auth = {"Authorization": f"Bearer {created['edit_token']}"}
    posts: dict[int, tuple[float, int]] = {}
    reads: dict[int, tuple[float, int]] = {}
    for number in range(1, DEALS + 1):
        statements.clear()
        started = time.perf_counter()
        response = client.post(f"{address}/deals", json=entry(number), headers=auth)
        posts[number] = (time.perf_counter() - started, len(statements))
        if response.status_code != 201:
            return [f"deal {number} was refused: {response.get_json()}"]
        if number in (WINDOW, DEALS):
            statements.clear()
            started = time.perf_counter()
            document = client.get(address).get_json()
            reads[number] = (time.perf_counter() - started, len(statements))
            assert len(document["deals"]) == number

    early = [posts[n] for n in range(1, WINDOW + 1)][1:]  # deal 1 warms the caches
    late = [posts[n] for n in range(DEALS - WINDOW + 1, DEALS + 1)]
    early_ms = statistics.median(t for t, _ in early) * 1000
    late_ms = statistics.median(t for t, _ in late) * 1000
    early_sql = max(s for _, s in early)
    late_sql = max(s for _, s in late)
    kind = "PostgreSQL" if url.startswith("postgres") else "SQLite"
    print(f"{DEALS} deals posted through the API on {kind}.")
    print(f"{'':28}{'median time':>12}{'statements':>12}")
    print(f"{'POST, deals 2-10':28}{early_ms:>10.1f}ms{early_sql:>12}")
    print(f"{'POST, deals 291-300':28}{late_ms:>10.1f}ms{late_sql:>12}")
    for number, (seconds, count) in reads.items():
        print(f"{f'GET game at {number} deals':28}{seconds * 1000:>10.1f}ms{count:>12}")
    print(f"late/early POST time: {late_ms / early_ms:.2f}")

    failures = []
    if late_sql > early_sql:
        failures.append(f"a late POST runs {late_sql} statements, an early one {early_sql}")
    if late_ms > MAX_RATIO * early_ms:
        failures.append(f"a late POST takes {late_ms / early_ms:.1f} times an early one")
    if reads[DEALS][1] > reads[WINDOW][1]:
        failures.append(
            f"reading the game runs {reads[DEALS][1]} statements at {DEALS} deals, "
            f"{reads[WINDOW][1]} at {WINDOW}"
        )
    return failures


if __name__ == "__main__":
    main()
