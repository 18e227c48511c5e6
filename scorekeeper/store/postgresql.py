"""What a PostgreSQL connection is checked for when the pool hands it out: is it still open?

A restart of PostgreSQL (or ``pg_terminate_backend``) ends every session: the server
sends its reason and closes the socket. The pool of each worker still held those
connections, so the first request on each one failed (a 500, saves included), however
long after the restart it came. SQLAlchemy's ``pool_pre_ping`` would find them out with a
statement sent to the server on every checkout, doubling the round trips of a cached
page, which makes one. A connection the server closed says so for nothing: the server's
last message and the end of the stream sit in its socket, while an idle connection that
is still open has nothing to read (the pool's rollback read every reply before it took the
connection back, and no pooled connection ``LISTEN``\\ s). So the check asks the operating
system, with a poll that does not wait; a connection with something to read is dropped
(``DisconnectionError``), and the pool opens a new one in its place.

A connection that dies while a request uses it, or a server that cannot be reached at
all, fails that request; ``busy.is_lost`` tells it from other failures, and the request
answers 503 ``busy`` with ``Retry-After``. Such a failure (the server ended the session:
a restart) counts as a disconnect, so SQLAlchemy drops that connection and every other
one the pool opened before it, and the requests after it start on new ones. When the
connection dies after the view made its answer, the session's end lets it go (its
rollback has nothing left to undo) and the answer stands, instead of failing in the
teardown, where only the server's bare 500 could answer.
"""

import select
import sys
from typing import Any

from flask import Flask
from sqlalchemy import Engine, event
from sqlalchemy.engine import ExceptionContext
from sqlalchemy.exc import InvalidatePoolError

from scorekeeper.extensions import db
from scorekeeper.store import busy


def _os_poll() -> Any:
    """Return the operating system's poll, even where gevent's worker put its own in its
    place (which goes through gevent's hub). gevent is only imported where it patched."""
    monkey = sys.modules.get("gevent.monkey")
    if monkey is not None and monkey.is_module_patched("select"):
        return monkey.get_original("select", "poll")
    return select.poll  # imported before any patching: the operating system's


_poll = _os_poll()


def init_app(app: Flask) -> None:
    """Check the connections the app's PostgreSQL engines hand out."""
    with app.app_context():
        engines = [e for e in db.engines.values() if e.dialect.name == "postgresql"]
    for engine in engines:
        listen_for_closed(engine)
    if engines:
        # Registered after Flask-SQLAlchemy's own, so it runs first: that one's rollback
        # would raise on a connection the server closed.
        app.teardown_appcontext(_end_session)


def _end_session(_error: BaseException | None) -> None:
    busy.close_session()


def listen_for_closed(engine: Engine) -> None:
    """Drop each connection the server has closed when the engine's pool hands it out, and
    with it every connection the pool opened before (they were all ended by the restart)."""
    event.listen(engine, "checkout", _drop_if_closed)
    event.listen(engine, "handle_error", _lost_is_a_disconnect)


def _drop_if_closed(dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
    if dbapi_connection.closed or dbapi_connection.broken or _readable(dbapi_connection):
        raise InvalidatePoolError("The database server closed this connection.")


def _lost_is_a_disconnect(context: ExceptionContext) -> None:
    """Count a session the server ended as a lost connection, whatever the driver's text."""
    if busy.is_lost_connection(context.original_exception):
        context.is_disconnect = True
        context.invalidate_pool_on_disconnect = True


def _readable(dbapi_connection: Any) -> bool:
    """Return whether the idle connection's socket has anything to read (or is closed)."""
    poll = _poll()
    poll.register(dbapi_connection.fileno(), select.POLLIN)
    return bool(poll.poll(0))
