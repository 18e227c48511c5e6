"""psycopg's waits in a gevent worker: a ready socket is used without a trip through the hub.

psycopg runs each statement as a generator that says what it is waiting for (its socket
readable, or writable) and a wait function that waits for it. In a gevent worker psycopg
waits on gevent's ``poll``, which hands the worker to gevent's hub on every wait, ready
or not; the hub runs every other greenlet that is ready before it comes back. Saving a
deal waits about thirty times, mostly for a reply already sitting in the socket, and
under load each of those trips cost 1 to 5 ms: the saves' 99th percentile came within a
few milliseconds of its 100 ms goal (docs/performance.md).

``wait`` asks the operating system first (a poll with no timeout, which never switches)
and goes through the hub only when the socket is not ready, or when the worker has not
been through the hub for ``MAX_BUSY`` seconds, so a greenlet whose socket is always
ready cannot starve the others. psycopg's own asyncio wait works the same way.
``install`` puts it in psycopg's place; gunicorn.conf.py calls it in each gevent worker.
"""

from __future__ import annotations

import select
from collections.abc import Generator
from time import monotonic
from typing import Any, TypeVar

from gevent import monkey
from gevent import select as gevent_select
from psycopg import errors, waiting
from psycopg.waiting import READY_NONE, READY_R, READY_W, WAIT_R, WAIT_RW, WAIT_W

T = TypeVar("T")

MAX_BUSY = 0.005
"""Seconds a worker may go on without its database waits passing through the hub."""

_MASKS = {
    WAIT_R: select.POLLIN,
    WAIT_W: select.POLLOUT,
    WAIT_RW: select.POLLIN | select.POLLOUT,
}
_BAD = ~(select.POLLIN | select.POLLOUT)
_native_poll = monkey.get_original("select", "poll")
_last_yield = 0.0
"""When a database wait of this process last went through the hub."""


def install() -> bool:
    """Make psycopg wait with ``wait`` where gevent patched ``select``; say whether it did."""
    if not monkey.is_module_patched("select"):
        return False
    waiting.wait = wait  # psycopg looks this name up on every wait
    return True


def wait(
    gen: Generator[Any, Any, T], fileno: int, interval: float = 0.0, timeout: float | None = None
) -> T:
    """Run psycopg's generator `gen` on socket `fileno` to its end; return what it returns.

    The same contract as psycopg's wait functions: each state the generator yields is
    waited for, at most `interval` seconds at a time (then it is told nothing is ready,
    so it can check for interruptions), and ``_WaitTimeout`` is raised after `timeout`.
    """
    global _last_yield
    deadline = None if timeout is None else monotonic() + timeout
    try:
        state = next(gen)
        now = _native_poll()
        hub = gevent_select.poll()
        now.register(fileno, _MASKS[state])
        hub.register(fileno, _MASKS[state])
        while True:
            found = now.poll(0) if monotonic() - _last_yield < MAX_BUSY else []
            if not found:
                found = hub.poll(_milliseconds(interval, deadline))
                _last_yield = monotonic()
            state = gen.send(_ready(found))
            now.modify(fileno, _MASKS[state])
            hub.modify(fileno, _MASKS[state])
            if deadline is not None and monotonic() >= deadline:
                raise errors._WaitTimeout("wait timeout expired")
    except StopIteration as stop:
        return stop.value


def _milliseconds(interval: float, deadline: float | None) -> int:
    seconds = interval if deadline is None else min(interval, deadline - monotonic())
    return int(max(0.0, seconds) * 1000)


def _ready(found: list[tuple[int, int]]) -> int:
    """Return psycopg's Ready flags for what poll found (nothing: READY_NONE)."""
    if not found:
        return READY_NONE
    events = found[0][1]
    ready = (READY_R if events & select.POLLIN else 0) | (READY_W if events & select.POLLOUT else 0)
    if not ready and events & _BAD:
        raise errors.OperationalError("connection socket closed")
    return ready
