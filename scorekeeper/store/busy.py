"""Tell a database that is busy (a lock held too long) or out of reach from one that failed.

A write that cannot get its lock in time is not a fault of the request, nor is a database
that is restarting or cannot be reached: the API answers 503 with ``Retry-After`` and the
pages keep what was typed, so it can be sent again.
"""

from collections.abc import Callable

from sqlalchemy.exc import OperationalError

from scorekeeper.extensions import db

RETRY_AFTER = 2
"""Seconds a client is asked to wait before sending a refused request again."""
MESSAGE = "The score pad is busy with another change; nothing was saved, send it again."
LOST_MESSAGE = (
    "The score pad's database cannot be reached just now; nothing was saved, send it again."
)

# PostgreSQL: lock not available (lock_timeout), deadlock, serialization failure, and a
# statement cancelled by statement_timeout.
_BUSY_STATES = frozenset(("55P03", "40P01", "40001", "57014"))
# SQLite: another connection holds the write lock past the store's wait (sqlite.py).
_BUSY_TEXT = ("database is locked", "database table is locked", "database schema is locked")
# PostgreSQL: the session was ended by an administrator (pg_terminate_backend, a restart) or
# a crash of another session, or the server is starting up or shutting down; and class 08,
# the connection's own failures.
_LOST_STATES = frozenset(("57P01", "57P02", "57P03"))


def is_busy(error: BaseException) -> bool:
    """Return whether the error means the database was busy, so the write may be retried."""
    if not isinstance(error, OperationalError):
        return False
    original = error.orig
    if getattr(original, "sqlstate", None) in _BUSY_STATES:
        return True
    text = str(original).lower()
    return any(phrase in text for phrase in _BUSY_TEXT)


def is_lost(error: BaseException) -> bool:
    """Return whether the error means the database could not be reached, or dropped the
    connection, so the same request may succeed in a moment."""
    if not isinstance(error, OperationalError):
        return False
    if error.connection_invalidated:
        return True
    return is_lost_connection(error.orig)


def is_lost_connection(original: BaseException | None) -> bool:
    """Return whether the driver's error means the connection is gone (the server ended
    the session, or it was refused, timed out or closed)."""
    state: str | None = getattr(original, "sqlstate", "")
    if state == "":
        return False  # not PostgreSQL's driver: its errors all have a state, maybe None
    # No state: psycopg's own error, not the server's answer to a statement. Its
    # OperationalErrors are the connection's: refused, timed out, closed.
    return state is None or state in _LOST_STATES or state.startswith("08")


def end_session() -> None:
    """Roll the session back; a connection the database dropped meanwhile (a restart) is
    let go instead of raising, since nothing is left to roll back on it."""
    _let_go(db.session.rollback)


def close_session() -> None:
    """Close the session at the end of the app context, as Flask-SQLAlchemy's teardown does
    (what was loaded stays readable), letting go of a connection the database dropped."""
    _let_go(db.session.close)


def _let_go(finish: Callable[[], None]) -> None:
    try:
        finish()
    except OperationalError as error:
        if not is_lost(error):
            raise
        db.session().invalidate()  # the connection is dropped, not handed back
