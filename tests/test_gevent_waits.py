"""psycopg's waits in gevent workers: a query waiting for PostgreSQL lets the other greenlets run.

psycopg chooses how it waits when it is imported: where gevent has patched ``select``
first, as in gunicorn's gevent workers, it waits through gevent's ``poll``, so a worker
answers its other requests while one waits for the database. The app adds nothing of its
own (and changes nothing of psycopg's): the test runs a worker's order of imports in a
process of its own and checks that another greenlet ran during a slow query.
"""

import subprocess
import sys

import pytest

from tests.conftest import _libpq, postgres_or_skip

WORKER = """
import sys
from gevent import monkey

monkey.patch_all()

import gevent
import psycopg

events = []


def query():
    with psycopg.connect(sys.argv[1]) as connection:
        events.append("asked")
        value = connection.execute("SELECT 42 FROM pg_sleep(0.2)").fetchone()
        events.append("answered")
        return value


asking = gevent.spawn(query)
while "asked" not in events:
    gevent.sleep(0.01)
events.append("another greenlet ran")
assert asking.get(timeout=10) == (42,), asking.value
print(" / ".join(events))
"""


@pytest.mark.postgres
def test_postgresql_answers_while_other_greenlets_run():
    server = _libpq(postgres_or_skip())
    done = subprocess.run(
        [sys.executable, "-c", WORKER, server],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "asked / another greenlet ran / answered"
