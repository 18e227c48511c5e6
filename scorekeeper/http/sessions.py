"""The signed session cookie, read and written only when a request has one or a view uses it.

Flask's cookie session makes its signing serializer on every request, to read a cookie or
not, and works out every cookie setting on the way out. Most requests are phones' reads
of a game they follow without an edit link: they send no session cookie, and their view
reads the session only to find no token in it. Such a request gets an empty session with
nothing made; the answer passes through untouched unless the view read the session
(``Vary: Cookie``) or wrote to it (the cookie is set), as Flask's own interface does.
"""

from flask import Flask, Request, Response
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin


class CookieSessions(SecureCookieSessionInterface):
    """Flask's signed cookie session, with nothing done for a request that has none."""

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        """Return an empty session at once when the request sends no session cookie."""
        if app.secret_key and not request.cookies.get(self.get_cookie_name(app)):
            return self.session_class()
        return super().open_session(app, request)

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        """Leave the answer as it is when the view neither read nor changed the session."""
        if not session.accessed and not self.should_set_cookie(app, session):
            return
        super().save_session(app, session, response)


def init_app(app: Flask) -> None:
    """Serve the app's sessions through `CookieSessions`."""
    app.session_interface = CookieSessions()
