"""Render what many phones ask for once per version: game pages, live parts, documents.

Every key holds the game's version, the page's language and the viewer's rights, so a
change never has to invalidate anything: the next request asks for a new key and the old
entry ages out. The cache is each worker's memory by default, or Redis when
``FLASK_CACHE_REDIS_URL`` is set (then several app instances share it).

A page also carries what belongs to one browser: its CSRF token and its one-time
messages. The token is rendered as a marker and put in on the way out, so one rendering
serves every browser; a page with a one-time message waiting is rendered for that
browser alone and not kept.
"""

import hashlib
import hmac
import threading
from collections.abc import Callable, Mapping
from typing import Any

from flask import Response, current_app, g, request, session
from flask_wtf.csrf import generate_csrf

from scorekeeper.extensions import cache
from scorekeeper.http import keyring, languages, mount
from scorekeeper.http.fast import compression
from scorekeeper.http.htmx import wants_fragment
from scorekeeper.store.lookup import require_stamp


def csrf_marker() -> str:
    """Return what stands for the CSRF token in a stored page.

    Letters and digits, which escaping leaves be; unguessable, and the same in every worker
    and instance with this secret key, since a page stored in a shared cache (Redis) by one
    process is sent by another, which must find the marker to put the token in.
    """
    marker = current_app.extensions.get("scorekeeper.csrf_marker")
    if marker is None:
        secret = str(current_app.config["SECRET_KEY"]).encode()
        digest = hmac.new(secret, b"scorekeeper csrf marker", hashlib.sha256).hexdigest()
        marker = current_app.extensions["scorekeeper.csrf_marker"] = "csrf" + digest[:32]
    return marker


KEPT_HEADERS = ("Content-Type", "Vary", "Cache-Control", "ETag")
"""The headers a view sets that are stored with its page."""


HISTORY_FROM = "X-History-From"
"""The header in which a page that loaded earlier deals says the oldest one it shows
(static/live.js), so that the live parts replacing its history keep them."""


def live_etag(version: int, can_edit: bool) -> str:
    """Return the ETag (unquoted) of a game page's live parts: they vary by version and rights."""
    return f"{version}-{'e' if can_edit else 'v'}"


def document_key(game_id: str, version: int) -> str:
    """Return the cache key of the API's game document at this version (the same for everyone)."""
    return f"api-game|{game_id}|{version}"


def version_and_rights(game_id: str) -> tuple[int, bool]:
    """Return the game's version and whether this browser may edit it; one indexed read."""
    version, token_hash = require_stamp(game_id)
    return version, keyring.holds(keyring.GAME_TOKENS, game_id, token_hash)


def key(kind: str, game_id: str, version: int, can_edit: bool, *more: object) -> str:
    """Return the cache key of one rendering of a game's part for this request.

    Besides the game's version and the viewer's rights, a page depends on its language, the
    address it was asked at (its links and the language chooser's return address: the
    scheme, host and mount prefix, then the path), and on whether htmx asked for a fragment.
    """
    return page_key(
        kind,
        game_id,
        version,
        can_edit,
        # The code Flask-Babel's Locale is made from: the same text, without making one.
        languages.select_locale(),
        root_url(request.scheme, request.host, request.environ),
        request.full_path,
        wants_fragment(),
        *more,
    )


def page_key(
    kind: str,
    game_id: str,
    version: int,
    can_edit: bool,
    language: str,
    root: str,
    full_path: str,
    fragment: bool,
    *more: object,
) -> str:
    """Return the cache key `key` makes, from what it reads of the request."""
    parts = (
        kind,
        game_id,
        version,
        "e" if can_edit else "v",
        language,
        root,
        full_path,
        "f" if fragment else "p",
        *more,
    )
    return "|".join(str(part) for part in parts)


def root_url(scheme: str, host: str, environ: Mapping[str, Any]) -> str:
    """Return where every link of a page starts: the scheme, host and mount prefix asked at.

    The share links and QR codes hold all three, the other links the prefix; the layer
    ahead of Flask has no request object, so both read the prefix from the WSGI environ.
    """
    return f"{scheme}://{host}{mount.script_root(environ)}"


def page(cache_key: str, render: Callable[[], Response]) -> Response:
    """Return the response for the key, rendering it with `render` only the first time."""
    if session.get("_flashes"):
        return _respond(_render(render))  # a one-time message shows once, to this browser only
    return _respond(_kept(cache_key, lambda: _render(render)), cache_key)


def document(cache_key: str, build: Callable[[], Response]) -> Response:
    """Return a response without anything personal in it, built only the first time."""
    return _respond(_kept(cache_key, lambda: _stored(build())), cache_key)


def _kept(cache_key: str, make: Callable[[], dict]) -> dict:
    """Return what is kept under the key, making it first if need be (a 200 is kept).

    When a deal is saved, every phone following the game asks for the new version at
    once: one request of this process makes it while the others wait for it, instead of
    each making it again.
    """
    stored = cache.get(cache_key)
    if stored is not None:
        return stored
    with _making_lock:
        making = _making.setdefault(cache_key, threading.Lock())
    try:
        with making:
            stored = cache.get(cache_key)
            if stored is None:
                stored = make()
                if stored["status"] == 200:
                    cache.set(cache_key, stored)
    finally:
        with _making_lock:
            if _making.get(cache_key) is making and not making.locked():
                del _making[cache_key]
    return stored


_making: dict[str, threading.Lock] = {}
"""A lock per key being made in this process (greenlets under gevent, else threads)."""
_making_lock = threading.Lock()


def _render(render: Callable[[], Response]) -> dict:
    """Render with the CSRF marker in place of this browser's token; return what to keep."""
    # Flask-WTF keeps the request's token in g: every form and csrf_token() read it there.
    g.csrf_token = csrf_marker()
    try:
        response = render()
    finally:
        g.pop("csrf_token", None)
    return _stored(response)


def _stored(response: Response) -> dict:
    return {
        "body": response.get_data(),
        "status": response.status_code,
        "headers": [(k, v) for k, v in response.headers.items() if k in KEPT_HEADERS],
        # The edit link in the page: the response must not be stored anywhere else.
        "carries_token": bool(g.get("carries_token")),
    }


def _respond(stored: dict, cache_key: str = "") -> Response:
    """Build the response from what was stored, with this browser's CSRF token put in.

    With the fast path, a body the same for every browser (no token in it) goes out
    compressed as the browser accepts it, compressed once per key
    (scorekeeper/http/fast/compression.py); Flask-Compress compresses every other answer.
    """
    body = stored["body"]
    marker = csrf_marker().encode()
    encoded = None
    if marker in body:
        body = body.replace(marker, generate_csrf().encode())
    elif current_app.config["FAST_PATH"]:
        encoded = compression.encoded(stored, cache_key)
    response = encoded or current_app.response_class(body, stored["status"], stored["headers"])
    if stored["carries_token"]:
        g.carries_token = True
    return response
