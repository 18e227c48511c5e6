"""Scale benchmark: one table with 10,000 games and 200,000 deals; time and count its pages.

    .venv/bin/python -m bench                      # SQLite file in a temporary folder
    .venv/bin/python -m bench --database postgresql+psycopg://postgres@127.0.0.1/bench
    .venv/bin/python -m bench --games 1000 --deals 20000   # a quicker run

Every game is generated with the engine (each deal checked by it) and written in bulk,
``deal_seats`` rows included, exactly as the store's records module writes them. Each
page is then fetched through the app several times; the median time and the number of
SQL statements are printed, next to the statement count for a table of 3 games.
"""

import argparse
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import event, insert, text

from bench.generate import random_game
from scorekeeper import create_app, engine
from scorekeeper.extensions import db
from scorekeeper.store import exchange, games, records, tables
from scorekeeper.store.models import CardTable, Deal, DealSeat, DealSeatTag, Game, Player

REGULARS = [
    "Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou",
]  # fmt: skip
BATCH = 500


def main() -> None:
    """Build the big table, then measure its pages."""
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n")[0])
    parser.add_argument("--database", help="SQLAlchemy URL (default: a new SQLite file)")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--deals", type=int, default=200_000, help="at least this many deals")
    parser.add_argument("--runs", type=int, default=5, help="fetches per page (median kept)")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        url = args.database or f"sqlite:///{Path(folder) / 'bench.sqlite'}"
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
            small = _small_table()
            started = time.perf_counter()
            big, deals = _big_table(args.games, args.deals, args.seed)
            built = time.perf_counter() - started
            print(f"Built {args.games:,} games, {deals:,} deals in {built:.1f} s on {_kind(url)}.")
            print()
            failures = _measure(app, small, big, args.runs)
            db.session.remove()
            db.engine.dispose()
    print()
    if failures:
        print("FAILED: " + "; ".join(failures))
        raise SystemExit(1)
    print("OK: every page runs the same statements as for 3 games; first pages under 1 s.")


def _kind(url: str) -> str:
    return "PostgreSQL" if url.startswith("postgres") else "SQLite"


def _small_table() -> CardTable:
    """Return a table of 3 games, stored through the store like any played game."""
    table, _ = tables.create_table("Small", REGULARS[:5])
    rng = random.Random(1)
    for _ in range(3):
        generated = random_game(rng, players=REGULARS[:5])
        game, _ = tables.start_game(table, **generated.setup)
        for entry in generated.entries:
            games.add_deal(game, entry)
    return table


def _big_table(games: int, least_deals: int, seed: int) -> tuple[CardTable, int]:
    """Write a season of random games at one table in bulk; return it and the deal count."""
    rng = random.Random(seed)
    table, _ = tables.create_table("Season", REGULARS)
    db.session.flush()
    ids = {p.name: p.id for p in table.players}
    table_id = table.id
    db.session.commit()
    start = datetime(2026, 1, 1, 19, 0, tzinfo=UTC)
    total = 0
    batch: dict[str, list] = {"games": [], "players": [], "deals": [], "seats": [], "tags": []}
    for index in range(games):
        # Aim at the requested average length: a higher target makes longer games.
        left = games - index
        wanted = max(1, (least_deals - total) / left)
        target = 21 if wanted <= 8 else min(999, int(21 + (wanted - 8) * 2.6))
        most = int(wanted * 3) + 5
        if left == 1:  # the last game makes up any shortfall: a long game nobody wins
            target, most = 999, max(1, least_deals - total)
        names = rng.sample(REGULARS, 5)
        generated = random_game(rng, players=names, target=target, most=most)
        game_id = f"bench{index:011d}"
        at = start + timedelta(minutes=50 * index)
        final = generated.states[-1] if generated.states else None
        outcome = final.outcome if final else None
        batch["games"].append(
            {
                "id": game_id,
                "ruleset": generated.setup["ruleset"],
                "target": target,
                "first_dealer": generated.setup["first_dealer"],
                "house_rules": {
                    "partner_breaks_ties": True,
                    "unresolved_tie": "play_on",
                    "joker_callable": False,
                },
                "edit_token_hash": "0" * 64,
                "version": 1 + len(generated.entries),
                "deal_count": len(generated.entries),
                "status": outcome.status if outcome else "in_progress",
                "winners": list(outcome.winners) if outcome else [],
                "decided_by": outcome.decided_by if outcome else None,
                "explanation": str(outcome.explanation) if outcome else "",
                "next_dealer": final.next_dealer if final else generated.setup["first_dealer"],
                "scores": list(final.scores) if final else [0] * 5,
                "created_at": at,
                "updated_at": at,
                "table_id": table_id,
            }
        )
        winners = set(outcome.winners) if outcome else set()
        config = engine.configure(**generated.setup)
        seats = records.seating(game_id, config, [ids[name] for name in names])
        for seat, name in enumerate(names):
            batch["players"].append(
                {
                    "game_id": game_id,
                    "seat": seat,
                    "name": name,
                    "table_player_id": ids[name],
                    "won": seat in winners,
                }
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
        total += len(generated.entries)
        if len(batch["games"]) >= BATCH or index == games - 1:
            _write(batch)
            batch = {"games": [], "players": [], "deals": [], "seats": [], "tags": []}
    records.write_totals(db.session.connection())  # the regulars' totals, as the app keeps them
    db.session.execute(text("ANALYZE"))  # fresh planner statistics, as a live database has
    db.session.commit()
    return tables.get_table(table_id), total


def _write(batch: dict[str, list]) -> None:
    """Insert one batch with executemany, bypassing the ORM, the per-seat rows included."""
    session = db.session
    session.execute(insert(Game), batch["games"])
    session.execute(insert(Player), batch["players"])
    session.execute(insert(Deal), batch["deals"])
    session.execute(insert(DealSeat), batch["seats"])
    if batch["tags"]:
        session.execute(insert(DealSeatTag), batch["tags"])
    session.commit()


def _measure(app, small: CardTable, big: CardTable, runs: int) -> list[str]:
    """Fetch each page of both tables; print median time and statement counts.

    Return what falls short of the goal: a page whose statement count grows with the
    table, or a first page of games that takes a second or more.
    """
    failures = []
    client = app.test_client()
    pages = _pages(small, big)
    engine = db.engine
    statements = []

    def count(*_args, **_kwargs):
        statements.append(1)

    print(f"{'page':<44} {'queries (3 games)':>18} {'queries (big)':>14} {'median ms':>10}")
    event.listen(engine, "before_cursor_execute", count)
    try:
        for label, small_url, big_url in pages:
            statements.clear()
            assert client.get(small_url).status_code == 200, small_url
            few = len(statements)
            times = []
            for _ in range(runs):
                statements.clear()
                began = time.perf_counter()
                response = client.get(big_url)
                times.append(time.perf_counter() - began)
                assert response.status_code == 200, big_url
            many = len(statements)
            median = statistics.median(times) * 1000
            print(f"{label:<44} {few:>18} {many:>14} {median:>10.1f}")
            if few != many:
                failures.append(f"{label}: {few} statements for 3 games, {many} for the big table")
            if "first page" in label and median >= 1000:
                failures.append(f"{label}: {median:.0f} ms")
    finally:
        event.remove(engine, "before_cursor_execute", count)
    with app.test_request_context():
        table = tables.get_table(big.id)
        began = time.perf_counter()
        size = len(exchange.dumps(exchange.export_table(table)))
        took = time.perf_counter() - began
        print()
        print(f"Export of the big table as JSON: {took:.1f} s, {size / 1e6:.0f} MB.")
        began = time.perf_counter()
        size = len(exchange.table_csv(table))
        took = time.perf_counter() - began
        print(f"Export of the big table as CSV: {took:.1f} s, {size / 1e6:.0f} MB.")
    return failures


def _pages(small: CardTable, big: CardTable) -> list[tuple[str, str, str]]:
    """Return (label, URL on the small table, URL on the big one) for each page measured."""
    small_game = db.session.scalar(
        text("SELECT id FROM games WHERE table_id = :t LIMIT 1"), {"t": small.id}
    )
    big_game = db.session.scalar(
        text("SELECT id FROM games WHERE table_id = :t ORDER BY created_at DESC LIMIT 1"),
        {"t": big.id},
    )
    small_player = small.players[0].id
    big_player = big.players[0].id
    rows = [
        ("table page, first page of games", "/tables/{t}", {}),
        ("table page, page 250", "/tables/{t}?page=250", {}),
        ("table page, filtered by player and outcome", "/tables/{t}?player={p}&outcome=won", {}),
        ("API: first page of games", "/api/v1/tables/{t}/games", {}),
        ("API: table with regulars' counts", "/api/v1/tables/{t}", {}),
        ("player records, whole table", "/tables/{t}/stats", {}),
        ("one player's record", "/tables/{t}/players/{p}", {}),
        ("score sheet of one game", "/games/{g}/sheet", {}),
    ]
    return [
        (
            label,
            url.format(t=small.id, p=small_player, g=small_game),
            url.format(t=big.id, p=big_player, g=big_game),
        )
        for label, url, _ in rows
    ]


if __name__ == "__main__":
    main()
