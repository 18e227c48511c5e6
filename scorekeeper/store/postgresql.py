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
answers 503 ``busy`` with ``Retry-After``.
"""

import select
import sys
from typing import Any

from flask import Flask
from sqlalchemy import Engine, event
from sqlalchemy.exc import DisconnectionError

from scorekeeper.extensions import db


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
        for engine in db.engines.values():
            if engine.dialect.name == "postgresql":
                listen_for_closed(engine)


def listen_for_closed(engine: Engine) -> None:
    """Drop each connection the server has closed when the engine's pool hands it out."""
    event.listen(engine, "checkout", _drop_if_closed)


def _drop_if_closed(dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
    if dbapi_connection.closed or dbapi_connection.broken or _readable(dbapi_connection):
        raise DisconnectionError("The database server closed this connection.")


def _readable(dbapi_connection: Any) -> bool:
    """Return whether the idle connection's socket has anything to read (or is closed)."""
    poll = _poll()
    poll.register(dbapi_connection.fileno(), select.POLLIN)
    return bool(poll.poll(0))
