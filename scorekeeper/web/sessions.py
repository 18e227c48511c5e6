"""The browser's session: Flask's signed cookie, with its signer made once, not per request.

Flask makes the itsdangerous serializer that signs and checks the cookie anew for every
request, whether it carries a session or not, and making one serializes a test value. It
depends only on the secret key and its fallbacks, so one is kept until they change. A
request without any cookie (an API client, a phone's first visit) gets its new, empty
session without parsing cookies.
"""

from flask import Flask, Request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from itsdangerous import URLSafeTimedSerializer


class SignedCookieSessions(SecureCookieSessionInterface):
    """Flask's own session cookie, signed and checked by a serializer kept between requests."""

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
