"""A table's pages at club scale: plans that need no statistics, and SQLite's own upkeep.

SQLite plans a query without statistics until ``ANALYZE`` runs; the archive's player
filter must still seek the regular's seat of each game, never scan the regular's seats
(seconds at 10,000 games), and the regulars' counts read their kept totals by key. The
statements are the store's own, read back with ``EXPLAIN QUERY PLAN`` on a database that
has no statistics.
"""

from sqlalchemy import event, func, select, text

from scorekeeper.extensions import db
from scorekeeper.store import sqlite, tables
from scorekeeper.store.models import Game
from tests.conftest import make_app, upgrade_schema

FIVE = ["Ann", "Bob", "Cy", "Di", "Ed"]


def plans(statements: list[str]) -> list[str]:
    """Return SQLite's plan of every statement, one line per step."""
    lines = []
    for statement in statements:
        if statement.lstrip().upper().startswith("SELECT"):
            plan = db.session.execute(text("EXPLAIN QUERY PLAN " + statement))
            lines.extend(row[-1] for row in plan)
    return lines


def captured(run) -> list[str]:
    """Run the store call and return its SQL statements with their values written in."""
    statements: list[str] = []
    connection = db.session.connection()

    def keep(_conn, _cursor, statement, parameters, _context, _many):
        for value in parameters if isinstance(parameters, (list, tuple)) else ():
            literal = f"'{value}'" if isinstance(value, str) else str(value)
            statement = statement.replace("?", literal, 1)
        statements.append(statement)

    event.listen(connection.engine, "before_cursor_execute", keep)
    try:
        run()
    finally:
        event.remove(connection.engine, "before_cursor_execute", keep)
    return statements


def test_the_archive_filtered_by_a_player_seeks_each_games_seat_without_statistics(tmp_path):
    # A database of its own: the shared one has statistics once a connection has closed.
    url = f"sqlite:///{tmp_path / 'plans.sqlite'}"
    upgrade_schema(url)
    app = make_app(url)
    with app.app_context():
        table, _ = tables.create_table("Club", FIVE)
        tables.start_game(table, ruleset="five-handed-schmier", players=FIVE, first_dealer=0)
        # No statistics, as in a database grown by use before SQLite's upkeep has run: any
        # left by a closed connection are deleted and the planner told to read them again.
        if db.session.execute(
            text("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'")
        ).all():
            db.session.execute(text("DELETE FROM sqlite_stat1"))
            db.session.execute(text("ANALYZE sqlite_master"))
        player = table.players[0].id
        steps = plans(captured(lambda: tables.archive(table, player=player)))
        counts = plans(captured(lambda: tables.player_counts(table)))
        db.session.remove()
        db.engine.dispose()
    app.extensions["scorekeeper.versions"].stop()
    seeks = [s for s in steps if "ix_players_regular" in s]
    assert sum("(table_player_id=? AND game_id=?)" in s for s in seeks) == 2, steps  # count, page
    assert not any(s.startswith("SCAN players") for s in steps), steps
    # The regulars' counts read their kept totals by key, never their seats.
    assert counts and all("regular_game_totals" in s for s in counts), counts
    assert all("(table_player_id=?)" in s for s in counts if s.startswith("SEARCH")), counts
    assert not any(s.startswith("SCAN") for s in counts), counts


def test_sqlite_gathers_its_statistics_itself_as_its_documentation_advises(app, monkeypatch):
    monkeypatch.setattr(sqlite, "OPTIMIZE_EVERY_SECONDS", 0.0)
    with app.app_context():
        table, _ = tables.create_table("Club", FIVE)
        for _ in range(30):
            tables.start_game(table, ruleset="five-handed-schmier", players=FIVE, first_dealer=0)
        # Connections going back to the pool keep the statistics (here at once, not hourly).
        tables.archive(tables.get_table(table.id), player=table.players[0].id)
        db.session.remove()
        stats = db.session.execute(text("SELECT tbl, idx FROM sqlite_stat1")).all()
        assert ("players", "ix_players_regular") in stats
        assert db.session.scalar(select(func.count()).select_from(Game)) == 30
