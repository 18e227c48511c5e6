"""Tell a database that is busy (a lock held too long) from one that failed.

A write that cannot get its lock in time is not a fault of the request: the API answers
503 with ``Retry-After`` and the pages keep what was typed, so it can be sent again.
"""

from sqlalchemy.exc import OperationalError

RETRY_AFTER = 2
"""Seconds a client is asked to wait before sending a refused write again."""
MESSAGE = "The score pad is busy with another change; nothing was saved, send it again."

# PostgreSQL: lock not available (lock_timeout), deadlock, serialization failure, and a
# statement cancelled by statement_timeout.
_BUSY_STATES = frozenset(("55P03", "40P01", "40001", "57014"))
# SQLite: another connection holds the write lock past the store's wait (sqlite.py).
_BUSY_TEXT = ("database is locked", "database table is locked", "database schema is locked")


def is_busy(error: BaseException) -> bool:
    """Return whether the error means the database was busy, so the write may be retried."""
    if not isinstance(error, OperationalError):
        return False
    original = error.orig
    if getattr(original, "sqlstate", None) in _BUSY_STATES:
        return True
    text = str(original).lower()
    return any(phrase in text for phrase in _BUSY_TEXT)
