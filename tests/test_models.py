"""The schema: migrations create it on an empty database and the database keeps its rules."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask_migrate import downgrade, upgrade
from sqlalchemy import create_engine, inspect, make_url
from sqlalchemy.exc import IntegrityError

from scorekeeper.extensions import db
from scorekeeper.store import games
from scorekeeper.store.models import Deal, Player
from tests.conftest import make_app

BACKENDS = ("sqlite", "postgresql")

ROOT = Path(__file__).resolve().parents[1]
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
