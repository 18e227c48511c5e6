"""Refuse a request for a mount prefix or a scheme this app is not served at.

Every link of a page starts with the prefix the app is mounted under (WSGI's
``SCRIPT_NAME``), and the share links and QR codes with its scheme too. Both can come
from request headers: gunicorn takes a ``SCRIPT_NAME:`` header and ``X-Forwarded-Proto``
from the addresses it trusts (``forwarded_allow_ips``, 127.0.0.1 by default), Werkzeug's
ProxyFix takes ``X-Forwarded-Proto`` behind FLASK_BEHIND_PROXY. A prefix other than the
one the app is configured for (``APPLICATION_ROOT``, ``/`` unless set) would make a page
whose every link and asset goes elsewhere (``//evil.example/static/…`` is off-site): such
a request is refused with 400 before anything reads it. The scheme must be http or
https; each is a page of its own, kept apart (scorekeeper/http/cache.py).

`Guard` asks here first, for every request, ahead of everything else the app does.
"""

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from flask import Flask

from scorekeeper.http import API_PREFIX, security

SCHEMES = ("http", "https")
"""The schemes a page may be made for."""

Answer = tuple[str, list[tuple[str, str]], bytes]
WsgiApp = Callable[[dict, Callable], Iterable[bytes]]


def init_app(app: Flask) -> None:
    """Put the guard in front of the app's WSGI stack (inside ProxyFix, which wraps it later)."""
    guard = Guard(app.wsgi_app, served_root(app.config), security.headers(app.config))
    app.wsgi_app = guard  # type: ignore[method-assign]  # Flask's way to add WSGI middleware


class Guard:
    """The WSGI layer refusing a request for another mount prefix or scheme with 400."""

    def __init__(self, wsgi_app: WsgiApp, root: str, headers: list[tuple[str, str]]) -> None:
        self.wsgi_app = wsgi_app
        self.root = root
        self.headers = headers

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        answer = refusal(environ, self.root, self.headers)
        if answer is None:
            return self.wsgi_app(environ, start_response)
        status, headers, body = answer
        start_response(status, headers)
        return [body]


def served_root(config: Mapping[str, Any]) -> str:
    """Return the prefix the app is configured to be mounted under, as a WSGI server gives
    it in SCRIPT_NAME (its UTF-8 bytes as Latin-1), without its trailing slash."""
    root = str(config.get("APPLICATION_ROOT") or "/").rstrip("/")
    return root.encode("utf-8").decode("latin-1")


def script_root(environ: Mapping[str, Any]) -> str:
    """Return the prefix a request was made under, as Flask's ``request.script_root`` reads it."""
    raw = str(environ.get("SCRIPT_NAME") or "")
    return raw.encode("latin-1").decode("utf-8", errors="replace").rstrip("/")


def refusal(environ: Mapping[str, Any], root: str, headers: list[tuple[str, str]]) -> Answer | None:
    """Return the 400 answer to a request for another prefix or scheme, None for any other.

    `root` is `served_root`'s, `headers` the security headers every answer carries. The
    API answers in its error shape, pages in a line of text.
    """
    asked = str(environ.get("SCRIPT_NAME") or "")
    scheme = environ.get("wsgi.url_scheme")
    if asked.rstrip("/") == root and scheme in SCHEMES:
        return None
    if asked.rstrip("/") != root:
        shown = script_root(environ) or "/"
        served = root.encode("latin-1").decode("utf-8") or "/"
        message = f"This server is not mounted at {shown!r}: it answers under {served!r} only."
    else:
        message = f"This server answers over http or https, not {scheme!r}."
    path = str(environ.get("PATH_INFO") or "")
    if path == API_PREFIX or path.startswith(API_PREFIX + "/"):
        # The API's error shape; no `fields`: the request as a whole is at fault.
        error = {"error": {"code": "bad_request", "message": message}}
        body = json.dumps(error).encode()
        content_type = "application/json"
    else:
        body = message.encode() + b"\n"
        content_type = "text/plain; charset=utf-8"
    answer_headers = [
        ("Content-Type", content_type),
        ("Content-Length", str(len(body))),
        ("Cache-Control", "no-store"),
        *headers,
    ]
    return "400 BAD REQUEST", answer_headers, body
