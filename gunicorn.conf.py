"""How gunicorn serves the app, for the Procfile and `make serve` alike.

gevent workers: each connection is a greenlet, so one worker holds thousands of open
connections at little cost. The phones following a game live each keep a stream open
(scorekeeper/web/live.py), and a client that sends its request slowly (or stops halfway
through a body) holds only its own greenlet until the timeout, never a whole worker.
psycopg cooperates with gevent by itself. GUNICORN_WORKERS and GUNICORN_CONNECTIONS
override the counts.
"""

import os

worker_class = "gevent"
workers = int(os.environ.get("GUNICORN_WORKERS", "2"))
# Open connections per worker: the live streams of a few thousand phones, and their polls.
worker_connections = int(os.environ.get("GUNICORN_CONNECTIONS", "5000"))
# A worker that stops answering its master this long is restarted; the live streams are
# idle connections and do not count against it.
timeout = 30
graceful_timeout = 10
# Phones poll every 2 s while their stream is down: keep their connections open a little
# longer than that.
keepalive = 5
# Request heads: small, like every body but an import.
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190


def post_worker_init(worker):
    """Keep the garbage collector's pauses short.

    Each phone following a game holds a greenlet and its request's objects for minutes;
    with Python's default thresholds a full collection walked them all every few seconds,
    stalling every request of the worker for 100 ms and more. What the worker built at
    start (the app, its templates and modules) is frozen out of the collections. The
    young generation is collected after 2,000 new objects (700 by default), the middle one
    after 250 young collections (half a million allocations) and the full collections
    become rare (about one in fifty million allocations). Young collections every 10,000
    objects paused a worker 15 to 25 ms each under the 1,000-table load, freeing the
    requests' reference cycles in one go; every 2,000 they take 3 to 8 ms.
    """
    import gc

    gc.freeze()
    gc.set_threshold(2_000, 250, 100)
