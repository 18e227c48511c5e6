"""What every SQLite connection is told first: enforce foreign keys, use WAL, wait when busy.

SQLite leaves foreign keys unchecked unless each connection turns them on; WAL lets the
phones' polls read while a deal is written; the busy timeout makes a writer wait for
another instead of failing at once. PostgreSQL needs none of this.
"""

from flask import Flask
from sqlalchemy import Engine, event

from scorekeeper.extensions import db

BUSY_TIMEOUT_MS = 10_000
"""How long a connection waits for another's write lock before giving up."""


def init_app(app: Flask) -> None:
    """Listen for new connections on the app's SQLite engines."""
    with app.app_context():
        for engine in db.engines.values():
            if engine.dialect.name == "sqlite":
                in_memory = _in_memory(engine)
                event.listen(engine, "connect", _pragmas(in_memory))


def _in_memory(engine: Engine) -> bool:
    """Return whether the engine's database lives in memory (where WAL does not apply)."""
    database = engine.url.database or ""
    return database in ("", ":memory:") or "mode=memory" in str(engine.url.query)


def _pragmas(in_memory: bool):
    """Return the connect listener that sets the pragmas on each new connection."""

    def set_pragmas(dbapi_connection, _record):
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            if not in_memory:
                cursor.execute("PRAGMA journal_mode=WAL")
        finally:
            cursor.close()

    return set_pragmas
