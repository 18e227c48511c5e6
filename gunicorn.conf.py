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


GC_THRESHOLDS = (2_000, 250, 100)
"""New objects before a young collection; young collections before a middle one; middle
ones before a full one."""


def post_worker_init(worker):
    """Keep the garbage collector's pauses short in a worker holding many open requests.

    Each phone following a game holds a greenlet and its request's objects for minutes;
    with Python's default thresholds a full collection walked them all every few seconds,
    stalling every request of the worker for 100 ms and more. What the worker built at
    start (the app, its templates and modules) is frozen out of the collections; young
    collections come every 2,000 new objects (3 to 8 ms each under the 1,000-table load),
    full ones rarely.
    """
    import gc

    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
