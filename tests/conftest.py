"""Shared fixtures: the app on a real database (SQLite, and PostgreSQL where asked), clients.

A test module runs on SQLite unless it sets ``BACKENDS = BOTH`` (or any list of
``"sqlite"``/``"postgresql"``): then each of its tests that uses ``app``, ``client``,
``api`` or ``database`` runs once per database. A test function may narrow its module's
choice with its own ``BACKENDS`` attribute. The schema is created once per test session
per database, through the migrations; one app per database serves the process's tests in
turn, its tables emptied and its cache cleared before each (``own_app`` marks a test that
needs an app of its own). PostgreSQL tests get a database of their own
(``sk_test_<random>``), dropped at the end; SQLite ones a temporary folder, removed at the
end. Without a PostgreSQL server they skip, saying why; with
``SCOREKEEPER_REQUIRE_POSTGRES=1`` (set by ``.ci/run``) they fail instead.
"""

from __future__ import annotations

import os
import secrets
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jinja2
import pytest
from hypothesis import settings
from sqlalchemy import make_url

from scorekeeper import create_app
from scorekeeper.extensions import cache, db, limiter
from tests.quick import QUICK

# Property tests that name no number of examples try Hypothesis's default (100), or ten in
# the quick loop (the others ask tests/quick.py).
settings.register_profile("quick", max_examples=10)
if QUICK:
    settings.load_profile("quick")

POSTGRES_URL = os.environ.get(
    "SCOREKEEPER_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
BOTH = ("sqlite", "postgresql")

FIVE = ["Ann", "Bob", "Cy", "Di", "Ed"]
EXAMPLE_DEAL = {
    "bidder": 1,
    "bid": 4,
    "trump": "H",
    "called_card": "KH",
    "partner": 3,
    "high": 3,
    "low": 0,
    "jack": 1,
    "off_jack": 2,
    "joker": 1,
    "game_points": {"bidders": 27, "opponents": 18},
}
"""API.md's example entry: Bob bids 4 in hearts and calls the KH, which Di holds."""
DEAL = {**{k: v for k, v in EXAMPLE_DEAL.items() if k != "game_points"}, "game": "bidders"}
"""The same deal with Game entered as who took it, as the pages usually send it."""
DEAL_FORM = {
    "bidder": "1",
    "bid": "4",
    "trump": "H",
    "called_card_rank": "K",
    "called_card_suit": "H",
    "partner": "3",
    "high": "3",
    "low": "0",
    "jack": "1",
    "off_jack": "2",
    "joker": "1",
    "game": "bidders",
}
"""The same deal as the page's form posts it."""


def pytest_generate_tests(metafunc):
    """Run database tests on the databases their module asks for (SQLite by default)."""
    if "backend" in metafunc.fixturenames:
        backends = getattr(
            metafunc.function, "BACKENDS", getattr(metafunc.module, "BACKENDS", ("sqlite",))
        )
        params = [
            pytest.param(name, marks=pytest.mark.postgres, id=name)
            if name == "postgresql"
            else pytest.param(name, id=name)
            for name in backends
        ]
        metafunc.parametrize("backend", params, scope="session")


SERVER_FIXTURES = frozenset({"server", "served", "instances", "proxied"})
"""Fixtures that start gunicorn (or nginx) processes: their tests are marked ``server``."""
SERVER_MODULES = frozenset({"test_gevent_waits.py"})
"""Modules whose tests start a server process of their own."""


def pytest_collection_modifyitems(items):
    """Mark the tests that start server processes ``server``, and those under tests/browser/
    ``browser``, so that `make test-quick` (-m "not browser and not server") leaves them out."""
    for item in items:
        if SERVER_FIXTURES.intersection(getattr(item, "fixturenames", ())) or (
            item.path.name in SERVER_MODULES
        ):
            item.add_marker(pytest.mark.server)
        if "browser" in item.path.parent.parts[-1:]:
            item.add_marker(pytest.mark.browser)


TEMPLATES_COMPILED = jinja2.FileSystemBytecodeCache()
"""Jinja's cache of compiled templates in this user's temporary folder, checked against
each template's source: each app the suite makes (one per database and process, and each
test's own where it asks) would otherwise compile every template it renders again."""


def make_app(database_url: str = "sqlite://", **config: Any):
    """Return an app for tests on this database (schema not created), with test settings,
    its templates loaded compiled from the suite's cache."""
    settings = {
        "TESTING": True,
        "SECRET_KEY": "test-secret-key",
        "SQLALCHEMY_DATABASE_URI": database_url,
        # Tests create games by the dozen from one address; the rate-limit tests turn it on.
        "RATELIMIT_ENABLED": False,
        **config,
    }
    app = create_app(settings)
    app.jinja_env.bytecode_cache = TEMPLATES_COMPILED
    return app


def upgrade_schema(database_url: str) -> None:
    """Create the schema on an empty database through the migrations, as `flask db upgrade`."""
    from flask_migrate import upgrade

    app = make_app(database_url)
    with app.app_context():
        upgrade()
        db.engine.dispose()


def postgres_or_skip() -> str:
    """Return the PostgreSQL server's URL, or skip (fail when PostgreSQL is required)."""
    import psycopg

    try:
        psycopg.connect(_libpq(POSTGRES_URL), connect_timeout=5).close()
    except psycopg.Error as error:
        url = make_url(POSTGRES_URL)
        reason = f"PostgreSQL is not reachable at {url.host}:{url.port or 5432} ({error})".strip()
        if os.environ.get("SCOREKEEPER_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"{reason}; SCOREKEEPER_REQUIRE_POSTGRES=1 does not allow skipping")
        pytest.skip(reason)
    return POSTGRES_URL


def _libpq(url: str) -> str:
    """Return a SQLAlchemy URL as a libpq connection string."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


@pytest.fixture(scope="session")
def backend() -> str:
    """Name the database a test runs on (parametrized by pytest_generate_tests)."""
    return "sqlite"


@pytest.fixture(scope="session")
def database(backend: str) -> Iterator[str]:
    """Yield the URL of a migrated database of this kind, private to this test session."""
    if backend == "sqlite":
        with tempfile.TemporaryDirectory(prefix="sk_test_") as folder:
            url = f"sqlite:///{Path(folder) / 'scorekeeper.sqlite'}"
            upgrade_schema(url)
            yield url
        return

    import psycopg

    server = postgres_or_skip()
    name = f"sk_test_{secrets.token_hex(6)}"
    with psycopg.connect(_libpq(server), autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    url = make_url(server).set(database=name).render_as_string(hide_password=False)
    try:
        upgrade_schema(url)
        yield url
    finally:
        with psycopg.connect(_libpq(server), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def empty_tables(database_url: str) -> None:
    """Delete every row the app stores (children first), keeping the schema."""
    from sqlalchemy import create_engine

    engine = create_engine(database_url)
    try:
        with engine.begin() as connection:
            for table in reversed(db.metadata.sorted_tables):
                connection.execute(table.delete())
    finally:
        engine.dispose()


SHARED_APPS: dict[str, Any] = {}
"""The app of each database, made once per test process and lent to one test at a time."""


@pytest.fixture
def app(database: str, request: pytest.FixtureRequest) -> Iterator[Any]:
    """Yield an app on an empty migrated database (SQLite unless the module asks for more).

    Making an app costs more than most tests (Werkzeug compiles every URL rule), so one app
    per database serves every test of this process in turn: its tables are emptied, its
    cache cleared and its settings put back for each. A test that changes more of its app
    than that (ends its database connections, say) is marked ``own_app`` and has its own.
    """
    own = request.node.get_closest_marker("own_app") is not None
    app = make_app(database) if own else SHARED_APPS.get(database)
    if app is None:
        app = SHARED_APPS[database] = make_app(database)
    settings = dict(app.config)
    # Flask-Limiter keeps whether it is on in the one extension of every app: the last app
    # made set it.
    limiter.enabled = app.config["RATELIMIT_ENABLED"]
    with app.app_context():
        for table in reversed(db.metadata.sorted_tables):
            db.session.execute(table.delete())
        db.session.commit()
        db.session.remove()
        cache.clear()
    yield app
    if own:
        app.extensions["scorekeeper.versions"].stop()
    app.config.clear()
    app.config.update(settings)
    with app.app_context():
        db.session.remove()
        if own:
            db.engine.dispose()


@pytest.fixture
def client(app):
    """Return a test client of the app."""
    return app.test_client()


class Api:
    """A thin JSON API client over the test client, for readable tests."""

    def __init__(self, client):
        self.client = client

    def create(self, **settings: Any) -> dict[str, Any]:
        """Create a game (five players, dealer 0 unless given); return its document."""
        body = {"ruleset": "five-handed-schmier", "players": FIVE, "first_dealer": 0, **settings}
        response = self.client.post("/api/v1/games", json=body)
        assert response.status_code == 201, response.get_json()
        return response.get_json()

    def headers(self, game: dict[str, Any]) -> dict[str, str]:
        return {"Authorization": f"Bearer {game['edit_token']}"}

    def game(self, game: dict[str, Any]) -> dict[str, Any]:
        response = self.client.get(f"/api/v1/games/{game['id']}")
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    def post(self, game: dict[str, Any], entry: Any, **kwargs: Any):
        headers = kwargs.pop("headers", self.headers(game))
        return self.client.post(
            f"/api/v1/games/{game['id']}/deals", json=entry, headers=headers, **kwargs
        )

    def put(self, game: dict[str, Any], number: int, entry: Any, **kwargs: Any):
        headers = kwargs.pop("headers", self.headers(game))
        return self.client.put(
            f"/api/v1/games/{game['id']}/deals/{number}", json=entry, headers=headers, **kwargs
        )

    def delete(self, game: dict[str, Any], number: int, **kwargs: Any):
        headers = kwargs.pop("headers", self.headers(game))
        return self.client.delete(
            f"/api/v1/games/{game['id']}/deals/{number}", headers=headers, **kwargs
        )

    def add(self, game: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
        """Post a deal that must be stored; return its document."""
        response = self.post(game, entry)
        assert response.status_code == 201, response.get_json()
        return response.get_json()


@pytest.fixture
def api(client) -> Api:
    """Return a JSON API helper over the test client."""
    return Api(client)


@pytest.fixture
def empty_database(backend: str) -> Iterator[str]:
    """Yield the URL of a brand-new database without any schema; drop it afterwards."""
    if backend == "sqlite":
        with tempfile.TemporaryDirectory(prefix="sk_test_") as folder:
            yield f"sqlite:///{Path(folder) / 'empty.sqlite'}"
        return

    import psycopg

    server = postgres_or_skip()
    name = f"sk_test_empty_{secrets.token_hex(6)}"
    with psycopg.connect(_libpq(server), autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield make_url(server).set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(_libpq(server), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
