"""What every SQLite connection is told first: enforce foreign keys, use WAL, wait when busy.

SQLite leaves foreign keys unchecked unless each connection turns them on; WAL lets the
phones' polls read while a deal is written. PostgreSQL needs none of this.

Planner statistics are kept as SQLite's documentation asks of an application with
long-lived connections (https://sqlite.org/lang_analyze.html#req): ``PRAGMA optimize``
with a bounded ``analysis_limit`` when a connection opens (``0x10002``: every table is
looked at), again at most every `OPTIMIZE_EVERY_SECONDS` when one goes back to the pool,
and when one is closed. It is upkeep, not a crutch: every query has an index that makes
its plan plain without statistics (scorekeeper/store/models.py). Upkeep never waits for
a lock: a connection that finds the database busy leaves it to the next one.

A writer that finds the write lock held by another connection (another worker's deal, a
backup, ``flask import`` or ``flask rebuild-records`` in another process) waits for it
here, not in SQLite: SQLite's own busy handler sleeps inside C, which in a gevent worker
stops every other request of the worker with it (a ``GET /rules`` waited 25 s behind a
lock it never needed). So SQLite is told not to wait at all (``busy_timeout=0``), and a
statement it refuses as busy is sent again after a pause through ``time.sleep``, which
gevent's worker makes a cooperative wait: the worker answers its other requests
meanwhile. After `LOCK_WAIT_SECONDS` the statement fails as busy, and the request
answers 503 as on PostgreSQL (its ``lock_timeout``, scorekeeper/config.py).

Sending a refused statement again is sound: the write lock is only ever wanted by a
transaction's first write (the driver begins the transaction right before it, so the
transaction has read nothing yet), and SQLite refusing it leaves nothing behind. The one
refusal that waiting cannot cure, a transaction that read an older snapshot than the one
it wants to write on (``SQLITE_BUSY_SNAPSHOT``), fails at once.
"""

import contextlib
import sqlite3
import time
from collections.abc import Callable
from typing import Any

from flask import Flask
from sqlalchemy import Engine, event
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.pool import ConnectionPoolEntry

from scorekeeper.extensions import db

BUSY_TIMEOUT_MS = 0
"""How long SQLite itself waits for another's lock: not at all, the store waits instead."""
OPTIMIZE_EVERY_SECONDS = 3600.0
"""How often a pooled connection runs ``PRAGMA optimize`` (the documentation: hourly or daily)."""
ANALYSIS_LIMIT = 400
"""Rows ``ANALYZE`` reads per index when ``PRAGMA optimize`` runs it (the documented 400)."""
LOCK_WAIT_SECONDS = 5.0
"""How long a statement waits for another connection's lock before failing as busy."""
PAUSES = (0.001, 0.002, 0.005, 0.01, 0.015, 0.02, 0.025, 0.025, 0.025, 0.05, 0.05, 0.1)
"""Seconds between a statement's tries (SQLite's own steps); the last one repeats."""
_BUSY = sqlite3.SQLITE_BUSY
_BUSY_SNAPSHOT = 517  # SQLITE_BUSY | 2 << 8: the transaction's snapshot is out of date


def init_app(app: Flask) -> None:
    """Listen for new connections and statements on the app's SQLite engines."""
    with app.app_context():
        for engine in db.engines.values():
            if engine.dialect.name == "sqlite":
                in_memory = _in_memory(engine)
                event.listen(engine, "connect", _pragmas(in_memory))
                event.listen(engine, "checkin", _optimize_now_and_then)
                event.listen(engine, "close", _optimize_on_close)
                listen_for_busy(engine)


def listen_for_busy(engine: Engine) -> None:
    """Make the engine's statements wait for another connection's lock (see the module)."""
    event.listen(engine, "do_execute", _execute)
    event.listen(engine, "do_execute_no_params", _execute_no_params)
    event.listen(engine, "do_executemany", _executemany)


def _execute(cursor: Any, statement: str, parameters: Any, _context: Any) -> bool:
    waiting(lambda: cursor.execute(statement, parameters))
    return True  # executed: SQLAlchemy does not execute it again


def _execute_no_params(cursor: Any, statement: str, _context: Any) -> bool:
    waiting(lambda: cursor.execute(statement))
    return True


def _executemany(cursor: Any, statement: str, parameters: Any, _context: Any) -> bool:
    waiting(lambda: cursor.executemany(statement, parameters))
    return True


def waiting(run: Callable[[], object]) -> None:
    """Run a statement, trying again while another connection holds the lock it needs.

    Raises SQLite's busy error after `LOCK_WAIT_SECONDS`, and any other error at once.
    """
    deadline = time.monotonic() + LOCK_WAIT_SECONDS
    tries = 0
    while True:
        try:
            run()
            return
        except sqlite3.OperationalError as error:
            code = getattr(error, "sqlite_errorcode", _BUSY)
            if code & 0xFF != _BUSY or code == _BUSY_SNAPSHOT:
                raise
            pause = PAUSES[min(tries, len(PAUSES) - 1)]
            if time.monotonic() + pause > deadline:
                raise
        # time.sleep as it is now: gevent's worker replaces it, maybe after this import.
        time.sleep(pause)
        tries += 1


def _in_memory(engine: Engine) -> bool:
    """Return whether the engine's database lives in memory (where WAL does not apply)."""
    database = engine.url.database or ""
    return database in ("", ":memory:") or "mode=memory" in str(engine.url.query)


def _pragmas(in_memory: bool) -> Callable[[DBAPIConnection, ConnectionPoolEntry], None]:
    """Return the connect listener that sets the pragmas on each new connection."""

    def set_pragmas(dbapi_connection: DBAPIConnection, record: ConnectionPoolEntry) -> None:
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            if not in_memory:
                waiting(lambda: cursor.execute("PRAGMA journal_mode=WAL"))
            cursor.execute(f"PRAGMA analysis_limit={ANALYSIS_LIMIT}")
        finally:
            cursor.close()
        record.info[_OPTIMIZED] = time.monotonic()
        optimize(dbapi_connection, "PRAGMA optimize=0x10002")

    return set_pragmas


_OPTIMIZED = "scorekeeper.optimized"
"""The key, in a pooled connection's ``info``, of when it last ran ``PRAGMA optimize``."""


def optimize(dbapi_connection: DBAPIConnection, statement: str = "PRAGMA optimize") -> bool:
    """Run SQLite's ``PRAGMA optimize`` on a connection; return False if the lock was busy.

    Run outside any transaction (a connection going back to the pool has ended its own);
    an ANALYZE it starts is committed at once.
    """
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute(statement)
        cursor.fetchall()
        dbapi_connection.commit()
    except sqlite3.OperationalError as error:
        if getattr(error, "sqlite_errorcode", _BUSY) & 0xFF != _BUSY:
            raise
        dbapi_connection.rollback()
        return False
    finally:
        cursor.close()
    return True


def _optimize_now_and_then(
    dbapi_connection: DBAPIConnection | None, record: ConnectionPoolEntry
) -> None:
    """Run ``PRAGMA optimize`` on a connection back in the pool, once an hour at most."""
    if dbapi_connection is None:
        return  # the connection was dropped: nothing to keep up
    last = record.info.get(_OPTIMIZED, 0.0)
    if time.monotonic() - last >= OPTIMIZE_EVERY_SECONDS and optimize(dbapi_connection):
        record.info[_OPTIMIZED] = time.monotonic()


def _optimize_on_close(dbapi_connection: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
    """Run ``PRAGMA optimize`` as a connection closes, as the documentation advises."""
    # A connection closed because it broke has nothing to keep up: its error is not news.
    with contextlib.suppress(sqlite3.Error):
        optimize(dbapi_connection)
