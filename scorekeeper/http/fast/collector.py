"""The garbage collector's settings for a gunicorn worker: short pauses, rare full walks.

Each phone following a game holds a greenlet and its request's objects for minutes;
with Python's default thresholds a full collection walked them all every few seconds,
stalling every request of the worker for 100 ms and more. What the worker built at start
(the app, its templates and modules) is frozen out of the collections. The young
generation is collected after 2,000 new objects (700 by default), the middle one after
250 young collections (half a million allocations), and full collections become rare
(about one in fifty million allocations). Young collections every 10,000 objects paused a
worker 15 to 25 ms each under the 1,000-table load, freeing the requests' reference
cycles in one go; every 2,000 they take 3 to 8 ms.

gunicorn.conf.py calls `tune` as each worker starts, unless the fast path is off
(``FLASK_FAST_PATH=false``): then Python's defaults apply.
"""

import gc

THRESHOLDS = (2_000, 250, 100)
"""New objects before a young collection; young collections before a middle one; middle
ones before a full one."""


def tune() -> None:
    """Freeze what the worker started with out of the collections and set the thresholds."""
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
