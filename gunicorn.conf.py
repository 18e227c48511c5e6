"""How gunicorn serves the app, for the Procfile and `make serve` alike.

Threaded workers: a client that sends its request slowly (or stops halfway through a
body) holds one thread until the timeout, never a whole worker, so the phones at the
table are still answered. GUNICORN_WORKERS and GUNICORN_THREADS override the counts.
"""

import os

worker_class = "gthread"
workers = int(os.environ.get("GUNICORN_WORKERS", "2"))
threads = int(os.environ.get("GUNICORN_THREADS", "8"))
# A request (body included) that takes longer than this is dropped; an import of the
# largest file accepted takes a few seconds.
timeout = 30
graceful_timeout = 10
# Phones poll every 2 s: keep their connections open a little longer than that.
keepalive = 5
# Request heads: small, like every body but an import.
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190
