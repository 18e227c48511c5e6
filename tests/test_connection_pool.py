"""A burst of requests on PostgreSQL leaves its connections open for the next one.

Each connection the pool closes is a PostgreSQL session to open again (a server process
started, several round trips) the next time a burst comes: under the load test's thousand
tables, a new version of a game brings a burst every few milliseconds.
"""

from sqlalchemy import event

from scorekeeper.extensions import db

BACKENDS = ("postgresql",)


def test_a_burst_of_fifteen_requests_finds_its_connections_open_the_next_time(app):
    with app.app_context():
        opened = []
        event.listen(db.engine, "connect", lambda *args: opened.append(1))
        for burst in range(2):
            held = [db.engine.connect() for _ in range(15)]
            for connection in held:
                connection.close()
            if burst == 0:
                first = len(opened)
        assert first <= 15
        assert len(opened) == first, f"the second burst opened {len(opened) - first} anew"


def test_the_pool_still_lends_connections_beyond_those_it_keeps(app):
    with app.app_context():
        held = [db.engine.connect() for _ in range(db.engine.pool.size() + 5)]
        try:
            assert all(not c.closed for c in held)
        finally:
            for connection in held:
                connection.close()
