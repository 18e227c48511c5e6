"""The browser's session: Flask's signed cookie, with its signer made once, not per request.

Flask makes the itsdangerous serializer that signs and checks the cookie anew for every
request, whether it carries a session or not, and making one serializes a test value. It
depends only on the secret key and its fallbacks, so one is kept until they change. A
request without any cookie (an API client, a phone's first visit) gets its new, empty
session without parsing cookies.
"""

import json
from typing import Any

from flask import Flask, Request
from flask.json.tag import TaggedJSONSerializer
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from itsdangerous import URLSafeTimedSerializer


class SortedJSON(TaggedJSONSerializer):
    """Flask's session serializer, writing the same JSON in a request and outside one.

    Flask's writes through the active app, which sorts the keys, and in insertion order
    when no app is active; a cookie made ahead of Flask (scorekeeper/http/fast/ahead.py) must be
    the app's, byte for byte. This one always sorts, as the app did.
    """

    def dumps(self, value: Any) -> str:
        return json.dumps(self.tag(value), separators=(",", ":"), sort_keys=True)


class SignedCookieSessions(SecureCookieSessionInterface):
    """Flask's own session cookie, signed and checked by a serializer kept between requests."""

    serializer = SortedJSON()

    def __init__(self) -> None:
        self._kept: tuple[object, URLSafeTimedSerializer | None] | None = None

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        keys = (app.secret_key, tuple(app.config["SECRET_KEY_FALLBACKS"] or ()))
        kept = self._kept
        if kept is None or kept[0] != keys:
            kept = (keys, super().get_signing_serializer(app))
            self._kept = kept  # one assignment: threads see the old pair or the new one
        return kept[1]

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        if "HTTP_COOKIE" not in request.environ and self.get_signing_serializer(app):
            return self.session_class()  # sent no cookie: a new, empty session, as Flask's
        return super().open_session(app, request)


def init_app(app: Flask) -> None:
    """Keep this app's sessions in the signed cookie with a lasting signer."""
    app.session_interface = SignedCookieSessions()
