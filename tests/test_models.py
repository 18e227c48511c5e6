"""The schema: migrations create it on an empty database and the database keeps its rules."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask_migrate import downgrade, upgrade
from sqlalchemy import create_engine, func, inspect, make_url, select, text, update
from sqlalchemy.exc import IntegrityError

from scorekeeper.engine import Status
from scorekeeper.extensions import db
from scorekeeper.store import games
from scorekeeper.store.models import Deal, DealSeat, Game, Player, utcnow
from tests.conftest import make_app

BACKENDS = ("sqlite", "postgresql")

ROOT = Path(__file__).resolve().parents[1]
BEFORE_CHECKS = "c2b0e336b95a"
CHECKS = "065226bd5974"
"""The revision before the CHECK constraints."""
FIVE = ["Ann", "Bob", "Cy", "Di", "Ed"]


def test_migrations_match_the_models(app):
    with app.app_context(), db.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), db.metadata)
    assert differences == []


def test_flask_db_upgrade_creates_the_schema_on_an_empty_database(empty_database):
    url = empty_database
    if url.startswith("postgresql"):
        # Hosting platforms hand out postgres:// URLs; the app accepts them.
        url = "postgres://" + url.split("://", 1)[1]
    env = {**os.environ, "DATABASE_URL": url, "FLASK_SECRET_KEY": "migration-test"}
    result = subprocess.run(
        [sys.executable, "-m", "flask", "--app", "scorekeeper", "db", "upgrade"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert {"games", "players", "deals", "changes", "alembic_version"} <= tables(empty_database)

    # Every revision also goes down and up again.
    app = make_app(empty_database)
    with app.app_context():
        downgrade(revision="base")
        assert tables(empty_database) <= {"alembic_version"}
        upgrade()
        db.engine.dispose()
    assert {"games", "players", "deals", "changes"} <= tables(empty_database)


def tables(url):
    engine = create_engine(make_url(url))
    try:
        return set(inspect(engine).get_table_names())
    finally:
        engine.dispose()


@pytest.fixture
def game(app):
    with app.app_context():
        game, _ = games.create_game(ruleset="five-handed-schmier", players=FIVE, first_dealer=0)
        yield game
        db.session.rollback()
        db.session.remove()


THROWN_IN = {"number": 1, "dealer": 0, "thrown_in": True, "deltas": [0] * 5, "scores": [0] * 5}


def test_status_is_stored_as_its_word_and_read_back_as_the_engine_enum(game):
    games_table = db.metadata.tables["games"]
    db.session.commit()
    stored = db.session.execute(text("SELECT status FROM games WHERE id = :id"), {"id": game.id})
    assert stored.scalar_one() == "in_progress"
    db.session.expire(game)
    assert game.status is Status.IN_PROGRESS

    db.session.execute(update(games_table).where(games_table.c.id == game.id).values(status="won"))
    db.session.expire(game)
    assert game.status is Status.WON


def test_database_refuses_two_deals_with_the_same_number(game):
    entry = {"thrown_in": True}
    db.session.add(Deal(game_id=game.id, number=1, entry=entry, result=THROWN_IN))
    db.session.commit()
    db.session.add(Deal(game_id=game.id, number=1, entry=entry, result=THROWN_IN))
    with pytest.raises(IntegrityError):
        db.session.flush()


def test_database_refuses_two_players_in_one_seat(game):
    db.session.add(Player(game_id=game.id, seat=0, name="Flo"))
    with pytest.raises(IntegrityError):
        db.session.flush()


@pytest.mark.parametrize(
    ("model", "values"),
    [
        ("games", {"status": "paused"}),
        ("games", {"next_dealer": -1}),
        ("players", {"seat": -1}),
        ("changes", {"action": "delete"}),
        ("changes", {"number": 0}),
    ],
    ids=repr,
)
def test_database_refuses_a_value_outside_its_checks(game, model, values):
    table = db.metadata.tables[model]
    key = table.c.id if model == "games" else table.c.game_id
    if model == "changes":
        db.session.execute(
            table.insert().values(game_id=game.id, number=1, action="add", at=game.created_at)
        )
    with pytest.raises(IntegrityError):
        db.session.execute(table.update().where(key == game.id).values(**values))
        db.session.flush()


def test_database_refuses_a_deal_seat_with_a_negative_seat_or_unknown_role(game):
    row = {"game_id": game.id, "number": 1, "seat": 0, "role": "bidder", "ruleset": game.ruleset}
    db.session.execute(DealSeat.__table__.insert().values(**row, delta=2))
    for wrong in ({"seat": -1}, {"role": "dealer"}, {"number": 0}):
        with pytest.raises(IntegrityError), db.session.begin_nested():
            db.session.execute(DealSeat.__table__.insert().values(**{**row, **wrong}, delta=0))


def test_checks_upgrade_keep_every_row_and_downgrade_removes_them(empty_database):
    app = make_app(empty_database)
    with app.app_context():
        upgrade(revision=BEFORE_CHECKS)
        game_id = insert_game_of_that_schema()
        db.session.execute(
            Deal.__table__.insert().values(
                game_id=game_id, number=1, entry={"thrown_in": True}, result={}
            )
        )
        db.session.commit()
        db.session.remove()
        before = row_counts()
        upgrade(revision=CHECKS)  # on SQLite the tables are copied: their rows must all stay
        assert row_counts() == before
        with pytest.raises(IntegrityError):
            db.session.execute(update(Game).where(Game.id == game_id).values(status="paused"))
            db.session.flush()
        db.session.remove()
        downgrade(revision=BEFORE_CHECKS)
        assert row_counts() == before
        db.session.execute(update(Game).where(Game.id == game_id).values(status="paused"))
        db.session.remove()
        upgrade(revision=CHECKS)
        db.session.remove()
        db.engine.dispose()


def insert_game_of_that_schema():
    """Store a game with the columns an older schema has (the model may have more)."""
    now = utcnow()
    row = {
        "id": "game-of-an-older-schema",
        "ruleset": "five-handed-schmier",
        "target": 21,
        "first_dealer": 0,
        "house_rules": {},
        "edit_token_hash": "0" * 64,
        "version": 1,
        "deal_count": 0,
        "status": "in_progress",
        "winners": [],
        "explanation": "",
        "next_dealer": 0,
        "scores": [0] * 5,
        "created_at": now,
        "updated_at": now,
    }
    present = {column["name"] for column in inspect(db.engine).get_columns("games")}
    assert set(row) <= present
    db.session.execute(Game.__table__.insert().values(**row))
    db.session.commit()
    return row["id"]


def row_counts():
    """Return how many rows each table of the database holds (no transaction left open)."""
    present = set(inspect(db.engine).get_table_names())
    counts = {
        table.name: db.session.scalar(select(func.count()).select_from(table))
        for table in db.metadata.sorted_tables
        if table.name in present
    }
    db.session.remove()
    return counts


def test_sqlite_connections_enforce_foreign_keys_leave_waiting_to_the_store_and_use_wal(app):
    with app.app_context(), db.engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        # SQLite's own wait would hold a gevent worker: scorekeeper/store/sqlite.py waits.
        assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() == 0
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"


test_sqlite_connections_enforce_foreign_keys_leave_waiting_to_the_store_and_use_wal.BACKENDS = (
    "sqlite",
)


def test_sqlite_in_memory_keeps_its_journal_and_checks_foreign_keys():
    app = make_app("sqlite://")
    with app.app_context(), db.engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "memory"
