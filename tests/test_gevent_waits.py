"""psycopg's waits in gevent workers: a ready socket costs no switch, a waiting one lets others run.

The tests drive ``gevent_waits.wait`` as psycopg does, with generators that yield what
they wait for, on a local socket pair (and once on PostgreSQL itself). Whether another
greenlet ran during a wait tells whether the wait went through gevent's hub.
"""

from time import monotonic

import gevent
import pytest
from psycopg import errors, waiting
from psycopg.waiting import READY_NONE, READY_R, READY_W, WAIT_R, WAIT_W

from scorekeeper.store import gevent_waits


@pytest.fixture
def pair():
    """Yield a connected socket pair (gevent's sockets, so a send never blocks the test)."""
    from gevent import socket

    ours, theirs = socket.socketpair()
    yield ours, theirs
    ours.close()
    theirs.close()


def told(*waits):
    """A psycopg-like generator: yield each wait in turn; return what each was told."""
    answers = []
    for state in waits:
        answers.append((yield state))
    return answers


@pytest.fixture
def busy_recently(monkeypatch):
    """Make it as if this process's waits went through the hub a moment ago.

    The moment lasts a minute here, so a slow test machine cannot let it run out.
    """
    monkeypatch.setattr(gevent_waits, "MAX_BUSY", 60.0)
    monkeypatch.setattr(gevent_waits, "_last_yield", monotonic())


def test_a_socket_already_ready_is_used_without_letting_others_run(pair, busy_recently):
    ours, theirs = pair
    theirs.sendall(b"reply")
    ran = []
    gevent.spawn(ran.append, "other")
    answers = gevent_waits.wait(told(WAIT_R, WAIT_W), ours.fileno(), interval=1.0)
    assert answers == [READY_R, READY_W]
    assert ran == []  # the wait never went through the hub
    gevent.sleep(0)
    assert ran == ["other"]


def test_a_socket_not_ready_lets_the_others_run_until_the_reply_comes(pair, busy_recently):
    ours, theirs = pair
    ran = []

    def reply():
        ran.append("other")
        theirs.sendall(b"reply")

    gevent.spawn(reply)
    answers = gevent_waits.wait(told(WAIT_R), ours.fileno(), interval=1.0)
    assert answers == [READY_R]
    assert ran == ["other"]


def test_a_worker_busy_too_long_goes_through_the_hub_even_when_ready(pair, monkeypatch):
    ours, theirs = pair
    theirs.sendall(b"reply")
    long_ago = monotonic() - 2 * gevent_waits.MAX_BUSY
    monkeypatch.setattr(gevent_waits, "_last_yield", long_ago)
    ran = []
    gevent.spawn(ran.append, "other")
    assert gevent_waits.wait(told(WAIT_R), ours.fileno(), interval=1.0) == [READY_R]
    assert ran == ["other"]
    assert gevent_waits._last_yield > long_ago  # the trip through the hub is remembered


def test_each_interval_without_a_reply_is_told_as_nothing_ready(pair, busy_recently):
    ours, theirs = pair

    def until_readable():
        answers = []
        while not (ready := (yield WAIT_R)):
            answers.append(ready)
        answers.append(ready)
        return answers

    gevent.spawn_later(0.05, theirs.sendall, b"reply")
    answers = gevent_waits.wait(until_readable(), ours.fileno(), interval=0.01)
    assert answers[-1] == READY_R
    assert READY_NONE in answers[:-1]


def test_a_wait_past_its_timeout_raises_psycopgs_timeout(pair, busy_recently):
    ours, _ = pair

    def forever():
        while True:
            yield WAIT_R

    with pytest.raises(errors._WaitTimeout):
        gevent_waits.wait(forever(), ours.fileno(), interval=0.01, timeout=0.03)


def test_a_generator_that_needs_no_wait_returns_at_once(pair):
    def done():
        return "result"
        yield  # pragma: no cover  (makes this a generator that ends before any wait)

    assert gevent_waits.wait(done(), pair[0].fileno()) == "result"


def test_install_leaves_psycopg_alone_where_gevent_patched_nothing(monkeypatch):
    before = waiting.wait
    monkeypatch.setattr(waiting, "wait", before)  # restored whatever happens
    assert gevent_waits.install() is False
    assert waiting.wait is before


def test_install_takes_psycopgs_place_in_a_gevent_worker(monkeypatch):
    monkeypatch.setattr(waiting, "wait", waiting.wait)  # restored after the test
    monkeypatch.setattr(gevent_waits.monkey, "is_module_patched", lambda name: name == "select")
    assert gevent_waits.install() is True
    assert waiting.wait is gevent_waits.wait


@pytest.mark.postgres
def test_postgresql_answers_through_it_while_other_greenlets_run(monkeypatch):
    import psycopg

    from tests.conftest import _libpq, postgres_or_skip

    server = _libpq(postgres_or_skip())
    monkeypatch.setattr(waiting, "wait", gevent_waits.wait)
    events = []

    def query():
        with psycopg.connect(server) as connection:
            events.append("asked")
            value = connection.execute("SELECT 42 FROM pg_sleep(0.2)").fetchone()
            events.append("answered")
            return value

    asking = gevent.spawn(query)
    while "asked" not in events:
        gevent.sleep(0.01)
    events.append("another greenlet ran")
    assert asking.get(timeout=10) == (42,)
    assert events == ["asked", "another greenlet ran", "answered"]


def test_each_gunicorn_worker_installs_it(monkeypatch):
    import gc
    import runpy
    from pathlib import Path

    config = runpy.run_path(str(Path(__file__).resolve().parents[1] / "gunicorn.conf.py"))
    monkeypatch.setattr(waiting, "wait", waiting.wait)  # restored after the test
    monkeypatch.setattr(gevent_waits.monkey, "is_module_patched", lambda name: name == "select")
    monkeypatch.setattr(gc, "freeze", lambda: None)
    monkeypatch.setattr(gc, "set_threshold", lambda *thresholds: None)
    config["post_worker_init"](None)
    assert waiting.wait is gevent_waits.wait
