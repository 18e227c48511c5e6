"""Render what many phones ask for once per version: game pages, live parts, documents.

Every key holds the game's version, the page's language and the viewer's rights, so a
change never has to invalidate anything: the next request asks for a new key and the old
entry ages out. The cache is Flask-Caching's: each worker's memory by default, or Redis
when ``FLASK_CACHE_REDIS_URL`` is set (then several app instances share it).

An answer the same for every browser (a viewer's page, the big screen, the API's game
document) is public: it sets no cookie, carries an ``ETag`` (a digest of its body, made
once per version) and ``Cache-Control: public, no-cache``, so that any shared cache in
front (deploy/nginx.conf) may keep it and asks again on every use, getting 304 while the
game is unchanged (Werkzeug's ``make_conditional``, once per answer, after compression:
`conditional`). Its compressed copies are kept too (Flask-Compress's cache, keyed by
`compressed_key`), each written once.

A page with edit rights carries what belongs to one browser: its CSRF token and its
one-time messages. The token is rendered as a marker and put in on the way out, so one
rendering serves every editor's browser; such a page is private. A page with a one-time
message waiting is rendered for that browser alone and not kept.
"""

import hashlib
import hmac
import threading
from collections.abc import Callable, Mapping
from typing import Any

from flask import Flask, Response, current_app, g, request, session
from flask_wtf.csrf import generate_csrf
from werkzeug.http import generate_etag

from scorekeeper.extensions import cache
from scorekeeper.http import keyring, languages, mount
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

    The share links and QR codes hold all three, the other links the prefix.
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
    body = response.get_data()
    return {
        "body": body,
        "status": response.status_code,
        "headers": [(k, v) for k, v in response.headers.items() if k in KEPT_HEADERS],
        # The edit link in the page: the response must not be stored anywhere else.
        "carries_token": bool(g.get("carries_token")),
        "etag": generate_etag(body),
    }


PUBLIC = "public, no-cache"
"""The Cache-Control of an answer the same for every browser: any cache may keep it, and
asks again on every use (so a new deal shows at once)."""

PRIVATE = "private, no-cache"
"""The Cache-Control of a page made for one browser (its token, a message for it alone):
no shared cache keeps it."""

STALE_AT_ONCE = ("X-Accel-Expires", "@1")
"""The same said to nginx, which stores no answer marked ``no-cache`` and none fresh for
under a second: kept, but out of date since 1970, so revalidated on every use
(deploy/nginx.conf; nginx passes the header on to no client)."""


def _respond(stored: dict, cache_key: str = "") -> Response:
    """Build the response from what was stored, with this browser's CSRF token put in.

    A body without a token, which no view marked private or conditional itself, is public
    (see the module's docstring); its compressed copies are kept under `cache_key`.
    """
    body = stored["body"]
    marker = csrf_marker().encode()
    public = False
    if marker in body:
        body = body.replace(marker, generate_csrf().encode())
    else:
        headers = dict(stored["headers"])
        public = bool(cache_key) and not (
            stored["carries_token"]
            or "ETag" in headers
            or headers.get("Cache-Control", PUBLIC) != PUBLIC
        )
    response = current_app.response_class(body, stored["status"], stored["headers"])
    if not public and "Cache-Control" not in response.headers:
        response.headers["Cache-Control"] = PRIVATE
    if stored["carries_token"]:
        g.carries_token = True
    if public:
        response.headers["Cache-Control"] = PUBLIC
        response.headers.set(*STALE_AT_ONCE)
        response.set_etag(stored["etag"])  # compared once compressed (`conditional`)
        g.compressed_key = cache_key
    return response


def init_app(app: Flask) -> None:
    """Answer conditional requests once, after compression.

    Call it before Flask-Compress is bound: Flask runs the functions of ``after_request``
    in the reverse order of their registration, so `conditional` then runs after
    Flask-Compress's own, which is told not to evaluate conditions (config.py).
    """
    app.after_request(conditional)


def conditional(response: Response) -> Response:
    """Answer a read 304 when the browser (or a cache) holds this answer's ETag.

    Once per answer, after compression: the ETag compared is the one sent, which
    Flask-Compress suffixes with the encoding (``"…:br"``). Only an answer with an ETag,
    to a GET or HEAD that names a condition, is looked at; werkzeug's ``make_conditional``
    does the rest (the ``Date``, the body dropped on a match).
    """
    if (
        request.method in READS
        and 200 <= response.status_code < 300
        and not response.is_streamed
        and "ETag" in response.headers
        and not CONDITIONS.isdisjoint(request.environ)
    ):
        response.make_conditional(request)
    return response


READS = ("GET", "HEAD")
"""The methods an ETag may answer with 304."""

CONDITIONS = frozenset(
    ("HTTP_IF_NONE_MATCH", "HTTP_IF_MATCH", "HTTP_IF_MODIFIED_SINCE", "HTTP_IF_UNMODIFIED_SINCE")
)
"""The request headers (as WSGI names them) that make an answer conditional: without any,
there is nothing to compare (a first visit, most pages asked by a phone), and the answer
goes out as it is, the server adding its Date."""


def compressed_key(_request: object) -> str:
    """Return the key Flask-Compress keeps this answer's compressed copy under ("" for none).

    Only a public answer has one: its body is the same for every browser asking for it.
    """
    return str(g.get("compressed_key", ""))


class CompressedCopies:
    """Flask-Compress's cache backend: the page cache, for public answers only.

    Flask-Compress asks for the copy, compresses the body when there is none, and then
    keeps the copy either way; a copy just found is not written again.
    """

    def get(self, key: str) -> bytes | None:
        """Return the compressed copy kept under the key, if any."""
        if key.endswith(";"):
            return None
        copy: bytes | None = cache.get("compressed|" + key)
        if copy is not None:
            g.compressed_copy_found = key
        return copy

    def set(self, key: str, value: bytes) -> bool | None:
        """Keep a compressed copy, unless its answer is not public (its key then ends in ";")
        or the copy was just found under the key."""
        if key.endswith(";") or g.get("compressed_copy_found") == key:
            return None
        return bool(cache.set("compressed|" + key, value))
