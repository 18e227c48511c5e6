"""The app's settings: defaults, the database address, and this installation's secret key."""

import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask

MAX_BODY_BYTES = 64 * 1024
"""The largest request body accepted (an import raises it for its own upload)."""

DEFAULTS: dict[str, Any] = {
    "SQLALCHEMY_DATABASE_URI": None,
    "MAX_CONTENT_LENGTH": MAX_BODY_BYTES,
    "SESSION_COOKIE_HTTPONLY": True,
    "SESSION_COOKIE_SAMESITE": "Lax",
    # Phones poll the scoreboard every few seconds; only a changed session is re-sent.
    "SESSION_REFRESH_EACH_REQUEST": False,
    "WTF_CSRF_TIME_LIMIT": None,
    "HTMX_LOCAL_ONLY": False,
    # The release the service worker is named after (scorekeeper/web/offline.py); None: a
    # hash of the static files and templates, so every change to them is a new release.
    "RELEASE": None,
    # What the service worker keeps of the pages opened (templates/offline/sw.js): at most
    # this many (besides the pages kept from the start), none older than this many days.
    "OFFLINE_PAGES_MAX": 60,
    "OFFLINE_PAGES_DAYS": 30,
    # The static folder (None: static/ of the checkout), and where its files are built as
    # served (scorekeeper/http/assets.py; None: build/static/ beside the static folder).
    "STATIC_FOLDER": None,
    "STATIC_BUILD_FOLDER": None,
    # Whether scorekeepers' phones run the engine themselves (docs/offline.md), where the
    # runtime is installed (`make install-run` vendors it).
    "PHONE_ENGINE": True,
    "PREFERRED_URL_SCHEME": "http",
    "BEHIND_PROXY": False,
    "BABEL_DEFAULT_LOCALE": "en",
    # Rate limits (Flask-Limiter): per address for creating, per edit token for changes.
    "RATELIMIT_ENABLED": True,
    "RATELIMIT_STORAGE_URI": "memory://",
    "RATELIMIT_CREATE": "30 per minute;300 per day",
    "RATELIMIT_CHANGES": "60 per minute",
    "BABEL_TRANSLATION_DIRECTORIES": str(Path(__file__).parent / "translations"),
    # A phone following a game live holds a stream open this long, then opens a new one.
    "LIVE_STREAM_SECONDS": 300,
    # Streams one process holds open at most; past it a page follows its game by polling.
    # Keep it under the worker's connections (GUNICORN_CONNECTIONS, 5,000): a worker whose
    # every connection is a stream has none left to save a deal or answer a poll.
    "LIVE_STREAMS_MAX": 4000,
    # Of those, the streams one client address may hold (0: no limit): a table's phones,
    # a club's behind one router, but not a worker's every stream.
    "LIVE_STREAMS_PER_ADDRESS": 100,
    # Rendered pages and documents, keyed by the game's version (scorekeeper/http/cache.py):
    # in each worker's memory, or in Redis when FLASK_CACHE_REDIS_URL is set.
    "CACHE_TYPE": "SimpleCache",
    "CACHE_DEFAULT_TIMEOUT": 600,
    "CACHE_THRESHOLD": 2000,
    # Only what is worth it: a cheap compression level, nothing under 500 bytes. Files sent
    # as streams (the static folder) are left as they are: compressing a stream leaves its
    # file open. Brotli 5 makes the deal form's page 10 % smaller than 4 (9.7 against
    # 10.7 KB) for under a millisecond more; 9 gains little more, 11 costs 140 ms.
    "COMPRESS_ALGORITHM": ["br", "gzip"],
    "COMPRESS_STREAMS": False,
    "COMPRESS_LEVEL": 5,
    "COMPRESS_BR_LEVEL": 5,
    # Conditional requests are answered once, after compression (scorekeeper/http/cache.py).
    "COMPRESS_EVALUATE_CONDITIONAL_REQUEST": False,
}
"""Every setting's default; ``FLASK_``-prefixed environment variables override them."""


def database_url(app: Flask) -> str:
    """Return the SQLAlchemy URL from DATABASE_URL, or a SQLite file in the instance folder."""
    url = app.config.get("DATABASE_URL") or os.environ.get("DATABASE_URL")
    if not url:
        return "sqlite:///" + str(Path(app.instance_path) / "scorekeeper.sqlite")
    if url.startswith("postgres://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgres://")
    elif url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
    return url


LOCK_TIMEOUT_MS = 5000
"""How long a PostgreSQL statement waits for a lock before the request answers 503."""


POOL_SIZE = 20
"""PostgreSQL connections each process keeps open for its requests.

A gevent worker runs hundreds of requests at once, and a few dozen of them may want the
database at the same moment (a new version brings every phone following the game). With
SQLAlchemy's default of 5 kept (and 10 more lent for a burst, closed as they come back),
each burst opened and closed connections: a new PostgreSQL session each time, a server
process started and several round trips before the first statement. 85 sessions were
opened in half a minute of 100 tables, against 24 with 20 kept (bench/load.py prints the
count). Two workers keep at most 40, lend at most 20 more (MAX_OVERFLOW): within
PostgreSQL's default of 100 connections. With more workers or instances on one server,
set ``FLASK_SQLALCHEMY_ENGINE_OPTIONS='{"pool_size": …, "max_overflow": …}'``."""

MAX_OVERFLOW = 10
"""Connections a process opens beyond POOL_SIZE for a burst, closed when handed back."""


def engine_options(url: str) -> dict[str, Any]:
    """Return SQLAlchemy engine options for this database: on PostgreSQL a lock timeout,
    so a write that cannot get its lock answers 503 instead of waiting for the worker's end,
    and a pool sized for a gevent worker's bursts (POOL_SIZE)."""
    if url.startswith("postgresql"):
        return {
            "connect_args": {"options": f"-c lock_timeout={LOCK_TIMEOUT_MS}"},
            "pool_size": POOL_SIZE,
            "max_overflow": MAX_OVERFLOW,
        }
    return {}


def cache_type(app: Flask) -> str:
    """Return the cache's kind: Redis when an address is given, shared by every instance."""
    if app.config.get("CACHE_REDIS_URL"):
        return "RedisCache"
    return app.config["CACHE_TYPE"]


def instance_secret(app: Flask) -> str:
    """Return this installation's secret key, generating and keeping it on first start."""
    path = Path(app.instance_path) / "secret_key"
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        # Write aside, then link into place: of several workers starting at once, one wins.
        tmp = path.with_name(f".secret_key.{os.getpid()}")
        tmp.write_text(secrets.token_hex(32))
        tmp.chmod(0o600)
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass
        finally:
            tmp.unlink()
    return path.read_text().strip()
