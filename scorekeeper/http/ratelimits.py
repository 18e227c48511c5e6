"""Rate limits: how fast one address may create games and tables, one token make changes.

Counted by Flask-Limiter in memory (per worker) unless ``RATELIMIT_STORAGE_URI`` names a
shared store such as ``redis://…``. Over a limit the answer is 429 with ``Retry-After``:
the API's error shape under /api, the app's error page elsewhere.
"""

import hashlib
from collections.abc import Mapping
from typing import Any

from flask import current_app, request, session
from flask_limiter.errors import RateLimitExceeded
from flask_limiter.util import get_remote_address

from scorekeeper.extensions import limiter

CREATE_SCOPE = "create"

EVERY_REQUEST = (
    "RATELIMIT_DEFAULT",
    "RATELIMIT_APPLICATION",
    "RATELIMIT_META",
    "RATELIMIT_IN_MEMORY_FALLBACK",
    "RATELIMIT_IN_MEMORY_FALLBACK_ENABLED",
)
"""Flask-Limiter's settings that make it count (or refuse) every request, not only the
views decorated below: default, application-wide and meta limits, and the in-memory
fallback's limits."""


READS = frozenset({"GET", "HEAD", "OPTIONS"})
"""Methods that change nothing: none of the app's own limits counts them."""


def limits_every_request(config: Mapping[str, Any]) -> bool:
    """Return whether, with these settings, a rate limit applies to every request.

    The app's own limits decorate their views; only Flask-Limiter's settings add any
    elsewhere.
    """
    return bool(config.get("RATELIMIT_ENABLED", True)) and any(
        config.get(name) for name in EVERY_REQUEST
    )


@limiter.request_filter
def _plain_read() -> bool:
    """Exempt a read from the limiter's work: the app's limits count changes only, so a
    read (a phone's poll, a page) costs no lookup of limits, unless Flask-Limiter's
    settings add limits on every request."""
    return request.method in READS and not limits_every_request(current_app.config)


def _create_limit() -> str:
    return current_app.config["RATELIMIT_CREATE"]


def _change_limit() -> str:
    return current_app.config["RATELIMIT_CHANGES"]


def _token_key() -> str:
    """Count changes per edit token: the bearer token, or the one this browser holds.

    Only a digest is kept; without a token (the request is then refused anyway) the
    client's address is counted.
    """
    scheme, _, sent = request.headers.get("Authorization", "").strip().partition(" ")
    token: str | None = sent
    if scheme.lower() != "bearer" or not sent.strip():
        game_id = (request.view_args or {}).get("game_id")
        token = session.get("edit", {}).get(game_id) if game_id else None
    if not token:
        return "address:" + get_remote_address()
    digest = hashlib.sha256(token.strip().encode("utf-8", "surrogatepass")).hexdigest()
    return "token:" + digest[:32]


def retry_after(error: RateLimitExceeded) -> str:
    """Return the Retry-After of a refusal: the seconds of the window that was exceeded."""
    return str(error.limit.limit.get_expiry())


creating = limiter.shared_limit(
    _create_limit,
    scope=CREATE_SCOPE,
    methods=["POST"],
    error_message="Too many games and tables were created from this address; "
    "wait a while before creating more.",
)
"""Decorate a view that creates a game or a table: all of them share one count per address."""

changing = limiter.limit(
    _change_limit,
    key_func=_token_key,
    methods=["POST", "PUT", "DELETE"],
    error_message="Too many changes were sent with this edit token; "
    "wait a moment, then send it again.",
)
"""Decorate a view that changes a game's deals: counted per edit token."""
