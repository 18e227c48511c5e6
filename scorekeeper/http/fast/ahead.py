"""Answer the busiest reads ahead of Flask: unchanged polls, kept game pages and documents.

Every phone at a table follows its game, so most requests are a poll of a game that has
not changed, or a game page (or the API's game document) already made for its version.
For those, Flask's own work around a cache hit (the request context, the session object,
routing, a dozen hooks) costs more than the answer. `AheadOfFlask` answers them from one
read of the game's version by primary key, the browser's session cookie checked for its
signature, and what is kept in the cache (scorekeeper/http/cache.py), with exactly the
app's answer: the same status, headers and body, the same session cookie when the page
changes it. Tests compare the two header for header.

It stands behind the guard that refuses a request for a mount prefix or scheme the app
is not served at (scorekeeper/http/mount.py). Anything it cannot vouch for
goes on to the app unchanged: a changed game, an unknown one, an editor's page (it
carries this browser's CSRF token), a one-time message waiting, a page not yet kept, a
request with anything more than the plain read (a query, a body, a condition), a
database error, or rate limits that apply app-wide.
"""

import re
import time
from collections.abc import Callable, Iterable
from typing import Any
from wsgiref.types import StartResponse, WSGIEnvironment

from flask import Flask
from flask.sessions import SecureCookieSessionInterface
from itsdangerous import BadSignature
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.datastructures import LanguageAccept
from werkzeug.exceptions import SecurityError
from werkzeug.http import http_date, parse_accept_header, parse_cookie, parse_etags, quote_etag
from werkzeug.wsgi import get_host

from scorekeeper import extensions
from scorekeeper.extensions import db
from scorekeeper.http import (
    API_V1,
    assets,
    bodies,
    cache,
    keyring,
    languages,
    ratelimits,
    security,
)
from scorekeeper.http.fast import compression
from scorekeeper.store import games

WsgiApp = Callable[[dict, Callable], Iterable[bytes]]
Answer = tuple[str, list[tuple[str, str]], bytes]
"""A status line, the headers and the body."""

GAME_PAGE = re.compile(rf"/games/({games.GAME_ID.pattern})")
LIVE_POLL = re.compile(rf"/games/({games.GAME_ID.pattern})/live")
API_GAME = re.compile(rf"{API_V1}/games/({games.GAME_ID.pattern})")

PASSED_ON = (
    "HTTP_HX_REQUEST",
    "HTTP_IF_NONE_MATCH",
    "HTTP_IF_MATCH",
    "HTTP_IF_MODIFIED_SINCE",
    "HTTP_IF_UNMODIFIED_SINCE",
    "HTTP_IF_RANGE",
    "HTTP_RANGE",
)
"""What makes a page request more than the plain read answered here: htmx's, a
conditional or partial one (and, besides, a query or a body)."""

VERIFIED_COOKIES = 10_000
"""How many session cookies a process remembers as checked (all forgotten when full)."""

FLASHES = "_flashes"
"""Where Flask keeps the one-time messages waiting in the session."""


def init_app(app: Flask) -> None:
    """Put the layer in front of the app (inside ProxyFix, which wraps it later)."""
    # Wrapping the method is how Flask's docs put middleware in front; mypy sees a method replaced.
    app.wsgi_app = AheadOfFlask(app, app.wsgi_app)  # type: ignore[method-assign]


class AheadOfFlask:
    """The WSGI layer answering unchanged polls, kept game pages and documents before Flask."""

    def __init__(self, app: Flask, wsgi_app: WsgiApp) -> None:
        self.app = app
        self.wsgi_app = wsgi_app
        with app.app_context():
            self.engine = db.engine
            self.marker = cache.csrf_marker().encode()
        # A rate limit on every request must see every request: then everything goes on.
        self.enabled = not ratelimits.limits_every_request(app.config)
        self.kept = app.extensions["cache"][extensions.cache]
        sessions = app.session_interface
        if not isinstance(sessions, SecureCookieSessionInterface):
            raise TypeError("The layer ahead of Flask reads Flask's signed cookie sessions only.")
        self.sessions = sessions
        self.signer = self.sessions.get_signing_serializer(app)
        self.cookie = app.config["SESSION_COOKIE_NAME"]
        self.max_age = int(app.permanent_session_lifetime.total_seconds())
        self.trusted_hosts = app.config["TRUSTED_HOSTS"]
        self.security = security.headers(app.config)
        self.poll_headers = [
            ("Cache-Control", "no-cache, private"),
            # As the app (and Flask-Compress) says.
            ("Vary", f"Cookie, HX-Request, {cache.HISTORY_FROM}, Accept-Encoding"),
            *self.security,
        ]
        self._first_visits: tuple[int, dict[str, str]] = (0, {})
        self._verified: dict[str, tuple[dict, int]] = {}

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        answer = self._answer(environ) if self.enabled else None
        if answer is None:
            return self.wsgi_app(environ, start_response)
        status, headers, body = answer
        start_response(status, headers)
        return [body] if body else []

    def _answer(self, environ: WSGIEnvironment) -> Answer | None:
        if environ["REQUEST_METHOD"] != "GET":
            return None
        path = environ.get("PATH_INFO", "")
        try:
            if found := LIVE_POLL.fullmatch(path):
                return self._unchanged_poll(environ, found[1])
            if found := GAME_PAGE.fullmatch(path):
                return self._kept_page(environ, found[1])
            if found := API_GAME.fullmatch(path):
                return self._kept_document(environ, found[1])
        except SQLAlchemyError:
            return None  # the app reads again and answers with its error pages
        return None

    # ------------------------------------------------------------ the unchanged poll

    def _unchanged_poll(self, environ: WSGIEnvironment, game_id: str) -> Answer | None:
        """Answer 304 to a poll whose ETag is still the game's (what `live.poll` does)."""
        if (
            environ.get("HTTP_HX_REQUEST") != "true"
            or "HTTP_HX_BOOSTED" in environ
            or "HTTP_HX_HISTORY_RESTORE_REQUEST" in environ
            or environ.get("QUERY_STRING")
            or "HTTP_IF_NONE_MATCH" not in environ
        ):
            return None
        read = self._read(environ, game_id)
        if read is None:
            return None
        version, can_edit, _, _ = read
        etag = cache.live_etag(version, can_edit)
        if not parse_etags(environ["HTTP_IF_NONE_MATCH"]).contains(etag):
            return None
        return "304 NOT MODIFIED", [("ETag", quote_etag(etag)), *self.poll_headers], b""

    # ------------------------------------------------------------ kept pages and documents

    def _kept_page(self, environ: WSGIEnvironment, game_id: str) -> Answer | None:
        """Answer a viewer's game page kept for this version (what `games.show` does).

        The page remembers the game in the browser's session for "Games on this device",
        so a first visit gets the session cookie the app would set.
        """
        if not _plain(environ):
            return None
        read = self._read(environ, game_id)
        if read is None:
            return None
        version, can_edit, session, root_url = read
        if can_edit or FLASHES in session or keyring.REFILL in session:
            return None  # the page holds this browser's token, or is for it alone
        accepted = parse_accept_header(environ.get("HTTP_ACCEPT_LANGUAGE"), LanguageAccept)
        language, negotiated = languages.language_of(session, accepted)
        full_path = f"{environ['PATH_INFO']}?"  # as request.full_path has it, with no query
        key = cache.page_key("game", game_id, version, False, language, root_url, full_path, False)
        answer = self._kept_answer(environ, key)
        if answer is None:
            return None
        headers, body = answer
        # The app's after-request hooks, in their order, then its session.
        if negotiated:
            _vary(headers, "Accept-Language")
        _vary(headers, "Accept-Encoding")  # Flask-Compress says it of every answer
        _vary(headers, "Cookie")  # the view reads the session
        headers.append(("Link", assets.preload_links(self.app, _script_root(environ))))
        cookie = self._session_cookie(environ, session, game_id)
        if cookie:
            headers.append(("Set-Cookie", cookie))
        return "200 OK", headers, body

    def _kept_document(self, environ: WSGIEnvironment, game_id: str) -> Answer | None:
        """Answer the API's game document kept for this version (what `api.read_game` does)."""
        if not _plain(environ) or self._host(environ) is None:
            return None
        stamp = games.get_stamp(game_id, self.engine)
        if stamp is None:
            return None
        answer = self._kept_answer(environ, cache.document_key(game_id, stamp[0]))
        if answer is None:
            return None
        headers, body = answer
        _vary(headers, "Accept-Encoding")
        return "200 OK", headers, body

    def _kept_answer(
        self, environ: WSGIEnvironment, key: str
    ) -> tuple[list[tuple[str, str]], bytes] | None:
        """Return the headers and body kept under the key, compressed as the browser accepts.

        None when nothing is kept (or not yet in the encoding asked for: the app compresses
        it once and keeps it), or what is kept is not the same for everyone, or has an ETag
        (the app answers conditions on it).
        """
        stored = self.kept.get(key)
        if (
            stored is None
            or stored["status"] != 200
            or stored["carries_token"]
            or self.marker in stored["body"]
            or any(name == "ETag" for name, _ in stored["headers"])
        ):
            return None
        headers = list(stored["headers"])
        body = stored["body"]
        algorithm = compression.compressed_as(self.app, stored, environ.get("HTTP_ACCEPT_ENCODING"))
        if algorithm is not None:
            body = self.kept.get(compression.variant_key(key, algorithm))
            if body is None:
                return None
            headers.append(("Content-Encoding", algorithm))
            if self.app.config["COMPRESS_EVALUATE_CONDITIONAL_REQUEST"]:
                headers.append(("Date", http_date()))  # werkzeug's make_conditional adds it
        headers.append(("Content-Length", str(len(body))))
        headers += security.missing((name for name, _ in headers), self.security)
        return headers, body

    def _session_cookie(
        self, environ: WSGIEnvironment, session: dict[str, Any], game_id: str
    ) -> str | None:
        """Return the Set-Cookie header the app sends as its page remembers the game, if any.

        A phone without a session (a first visit) gets the same cookie as any other first
        visit of the game within the same second (the cookie's time is in whole seconds):
        it is signed once for them all.
        """
        changed = self.sessions.session_class(session)
        keyring.remember(keyring.RECENT_GAMES, game_id, changed)
        if not self.sessions.should_set_cookie(self.app, changed):
            return None
        first = "HTTP_COOKIE" not in environ
        second = int(time.time())
        if first:
            kept_second, signed = self._first_visits
            if kept_second == second and game_id in signed:
                return signed[game_id]
        response = self.app.response_class()
        self.sessions.save_session(self.app, changed, response)
        cookie = response.headers["Set-Cookie"]
        if first:
            kept_second, signed = self._first_visits
            if kept_second != second:
                self._first_visits = (second, signed := {})
            signed[game_id] = cookie
        return cookie

    # ------------------------------------------------------------ reading the request

    def _read(
        self, environ: WSGIEnvironment, game_id: str
    ) -> tuple[int, bool, dict[str, Any], str] | None:
        """Return the game's version, this browser's rights, its session and its root URL.

        None when the app must answer: an untrusted host, an unknown game, or a session
        cookie that is not ours.
        """
        host = self._host(environ)
        if host is None:
            return None
        stamp = games.get_stamp(game_id, self.engine)
        if stamp is None:
            return None
        session = self._session(environ)
        if session is None:
            return None
        version, token_hash = stamp
        can_edit = keyring.holds(keyring.GAME_TOKENS, game_id, token_hash, session)
        return version, can_edit, session, cache.root_url(environ["wsgi.url_scheme"], host, environ)

    def _host(self, environ: WSGIEnvironment) -> str | None:
        """Return the host asked for as the app reads it, None if it is not a trusted one."""
        try:
            return get_host(environ, self.trusted_hosts)
        except SecurityError:
            return None

    def _session(self, environ: WSGIEnvironment) -> dict[str, Any] | None:
        """Return what the browser's session holds ({} without one), None if it is not ours.

        A phone sends the same cookie with every poll: its signature is checked once, and
        the cookie's age on each request.
        """
        value = parse_cookie(environ).get(self.cookie) if "HTTP_COOKIE" in environ else None
        if not value:
            return {}
        verified = self._verified.get(value)
        if verified is None:
            if self.signer is None:
                return None  # no secret key: the app answers with its null session
            try:
                session, signed = self.signer.loads(
                    value, max_age=self.max_age, return_timestamp=True
                )
            except BadSignature:
                return None  # the app decides what an unreadable session means
            if not isinstance(session, dict):
                return None
            if len(self._verified) >= VERIFIED_COOKIES:
                self._verified.clear()
            self._verified[value] = verified = (session, int(signed.timestamp()))
        session, signed = verified
        if not 0 <= int(time.time()) - signed <= self.max_age:
            return None  # expired since: the app starts a new session
        return dict(session)


def _script_root(environ: WSGIEnvironment) -> str:
    """Return the address the app is mounted at, as ``request.script_root`` has it."""
    return str(environ.get("SCRIPT_NAME", "")).rstrip("/")


def _plain(environ: WSGIEnvironment) -> bool:
    """Return whether a request is the plain read of its address, as a phone sends it."""
    return (
        not any(name in environ for name in PASSED_ON)
        and not environ.get("QUERY_STRING")
        and bodies.has_no_body(environ)
    )


def _vary(headers: list[tuple[str, str]], name: str) -> None:
    """Add the name to the Vary header in the list (making one if need be), once."""
    for index, (header, value) in enumerate(headers):
        if header == "Vary":
            headers[index] = ("Vary", languages.vary_with(value, name))
            return
    headers.append(("Vary", name))
