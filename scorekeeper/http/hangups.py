"""Notice at once that a client hung up on a stream it held open, and who holds how many.

A stream of new versions (scorekeeper/web/live.py) writes only when a version is saved or
every 25 s; without more, a client that hung up is noticed at that write, and its stream
counted against the process's LIVE_STREAMS_MAX until then. Under gunicorn's gevent
workers the request's socket is in the WSGI environ (``gunicorn.socket``): a greenlet
waits for it to become readable, which a closed connection is at once (a read then
finds its end), and lets the stream go. Elsewhere (Flask's own server, TLS served by
gunicorn itself) the stream is let go at its next write, as before.

Each stream also counts against its client's address (LIVE_STREAMS_PER_ADDRESS), so one
address cannot hold every stream of a process.
"""

import socket
import ssl
import threading
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any


def _nothing() -> None:
    """Stop nothing: there is no watch to stop."""


def watch(environ: Mapping[str, Any], hung_up: Callable[[], None]) -> Callable[[], None]:
    """Call `hung_up` once the request's client closes its connection; return how to stop.

    Only in a gevent worker, on a plain socket: a readable TLS socket may hold a record
    still to be read, and a real thread per stream would cost more than the wait saves.
    """
    sock = environ.get("gunicorn.socket")
    if not isinstance(sock, socket.socket) or isinstance(sock, ssl.SSLSocket):
        return _nothing
    from gevent import monkey

    if not monkey.is_module_patched("socket"):
        return _nothing
    import gevent
    from gevent import socket as gevent_socket

    def wait() -> None:
        try:
            gevent_socket.wait_read(sock.fileno())
            # Readable: either the connection's end, or bytes the client sent (a stream's
            # client sends none); those are left for the server to read.
            closed = sock.recv(1, socket.MSG_PEEK) == b""
        except OSError:
            closed = True
        if closed:
            hung_up()

    waiting = gevent.spawn(wait)
    return waiting.kill


class Holders:
    """The streams each client address holds open in this process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._held: Counter[str] = Counter()

    def take(self, address: str, most: int) -> Callable[[], None] | None:
        """Count one more stream for the address and return how to let it go (once is
        enough, again is harmless); None when the address holds `most` already (0: no
        limit)."""
        with self._lock:
            if most and self._held[address] >= most:
                return None
            self._held[address] += 1
        released = False

        def release() -> None:
            nonlocal released
            with self._lock:
                if released:
                    return
                released = True
                self._held[address] -= 1
                if self._held[address] <= 0:
                    del self._held[address]

        return release

    def held(self, address: str) -> int:
        """Return how many streams the address holds open in this process."""
        with self._lock:
            return self._held[address]
