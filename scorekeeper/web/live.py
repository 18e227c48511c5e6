"""Keep every open game page up to date, and bring what it leaves out of a long game.

A game page follows its game through a stream of server-sent events (``/events``): the
server says each new version as it is saved (scorekeeper/store/versions.py hears of it,
from any app instance), and the page then asks for its live parts once. While the stream
is down (a proxy that buffers, a browser without EventSource) the page polls every 2 s
instead: static/live.js switches between the two.

Asking for the live parts sends the ETag of what the page shows in ``If-None-Match`` (set
by ``hx-headers``): an unchanged game costs one read of its version by primary key, and no
loading of the game, templates or translations. A changed one is rendered once per
version, language and rights (scorekeeper/web/cache.py) for every phone that follows it.

The live page shows the last deals and the last changes; the earlier deals load on
demand, a batch at a time, and the whole change log has its own page.
"""

import json
import re
import time

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from itsdangerous import BadSignature
from markupsafe import Markup
from werkzeug.exceptions import SecurityError
from werkzeug.http import parse_cookie, parse_etags, quote_etag
from werkzeug.wsgi import get_host

from scorekeeper.extensions import db
from scorekeeper.store import games, versions
from scorekeeper.store.lookup import game_or_404
from scorekeeper.web import cache, errors, keyring, security
from scorekeeper.web.game_page import (
    EARLIER_DEALS,
    RECENT_DEALS,
    game_context,
    history,
    next_deal_form,
)
from scorekeeper.web.htmx import render, wants_fragment

bp = Blueprint("live", __name__)
errors.register_game_errors(bp)

POLL_INTERVAL = "2s"

RETRY_MS = 2000
"""How long a browser waits before opening a dropped stream again."""

KEEPALIVE_SECONDS = 25
"""How often an idle stream sends a comment, so that no proxy takes it for dead."""


@bp.get("/games/<game_id>/live")
def poll(game_id):
    """Answer the poll of an open game page: 304 while nothing changed, else the new parts."""
    if not wants_fragment():
        return redirect(url_for("games.show", game_id=game_id), 303)
    version, can_edit = cache.version_and_rights(game_id)
    etag = live_etag(version, can_edit)
    if request.if_none_match.contains(etag):  # UnchangedPolls answers most of these first
        return _live_headers(make_response("", 304), etag)
    # The page was an editor's and this browser's token no longer works: say so where
    # the deal form is, or its next save would silently fail.
    revoked = not can_edit and request.headers.get("If-None-Match", "").endswith('-e"')

    def render_live():
        context = game_context(game_or_404(game_id))
        form = next_deal_form(context)
        page = render_template("games/_live.html", revoked=revoked, form=form, **context)
        return _live_headers(make_response(page), live_etag(context["version"], can_edit))

    return cache.page(cache.key("live", game_id, version, can_edit, revoked), render_live)


@bp.get("/games/<game_id>/events")
def events(game_id):
    """Stream the game's version as server-sent events: now, then each one saved.

    Each event is ``event: version`` with the version as its data (and id). The stream
    ends after LIVE_STREAM_SECONDS and the browser opens a new one; it holds no database
    connection while it waits.
    """
    seconds = current_app.config["LIVE_STREAM_SECONDS"]
    follower = versions.watcher().follow(game_id)
    if follower is None:
        abort(404)

    def stream():
        yield f"retry: {RETRY_MS}\n\n"
        yield _event(follower.version)
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            seen = follower.version
            version = follower.wait(min(KEEPALIVE_SECONDS, left))
            if version is None:
                return
            yield _event(version) if version != seen else ": still here\n\n"

    response = Response(stream(), mimetype="text/event-stream")
    # The server closes the response however the stream ends, started or not.
    response.call_on_close(follower.close)
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


def _event(version):
    return f"id: {version}\nevent: version\ndata: {version}\n\n"


@bp.get("/games/<game_id>/earlier")
def earlier(game_id):
    """Show the deals before `before` (else before the live page's), newest first.

    htmx puts them in place of the history's "earlier deals" link; without JavaScript
    they come as a page of their own.
    """
    version, can_edit = cache.version_and_rights(game_id)
    before = request.args.get("before", type=int)

    def render_earlier():
        context = game_context(game_or_404(game_id))
        deals = context["game"]["deals"]
        end = len(deals) - RECENT_DEALS if before is None else min(before, len(deals) + 1) - 1
        earlier_deals = deals[max(0, end - EARLIER_DEALS) : max(0, end)]
        context["history"] = history(context["config"], earlier_deals)
        return render("games/earlier.html", "games/_earlier.html", **context)

    return cache.page(cache.key("earlier", game_id, version, can_edit), render_earlier)


@bp.get("/games/<game_id>/changes")
def changes(game_id):
    """Show a game's whole change log."""
    game = game_or_404(game_id, deals=True)
    context = game_context(game)
    context["changes"] = list(game.changes)
    context["changes_total"] = len(context["changes"])
    return render_template("games/changes.html", **context)


def live_etag(version, can_edit):
    """Return the ETag (unquoted) of a game page's live parts: they vary by version and rights."""
    return f"{version}-{'e' if can_edit else 'v'}"


@bp.app_template_global()
def live_attributes(game_id, version, can_edit):
    """Return the attributes that keep the scoreboard current: htmx asks for the live parts
    on the event ``live`` (sent by static/live.js when the stream says a new version) and
    every 2 s while the stream is down."""
    headers = json.dumps({"If-None-Match": quote_etag(live_etag(version, can_edit))})
    return Markup(
        'data-live data-events="{events}" data-version="{version}" hx-get="{url}"'
        ' hx-trigger="every {every}, live" hx-swap="outerHTML" hx-headers="{headers}"'
    ).format(
        events=url_for("live.events", game_id=game_id),
        version=version,
        url=url_for("live.poll", game_id=game_id),
        every=POLL_INTERVAL,
        headers=headers,
    )


def init_app(app):
    """Answer the polls of unchanged games ahead of the app (see UnchangedPolls)."""
    app.wsgi_app = UnchangedPolls(app, app.wsgi_app)


class UnchangedPolls:
    """Answer a live poll of an unchanged game before the request reaches Flask.

    Most polls find nothing new. For those this answers what `poll` would, the same 304
    with the same headers, from one read of the game's version by primary key and, when the
    browser sends a session, its signature checked for the edit rights; no request context,
    session object, hooks or translations. Anything else (a changed game, an unknown one,
    a request that is not a plain poll) goes on to the app unchanged.
    """

    PATH = re.compile(rf"/games/({games.GAME_ID.pattern})/live")

    def __init__(self, app, wsgi_app):
        self.wsgi_app = wsgi_app
        with app.app_context():
            self.engine = db.engine
        self.sessions = app.session_interface.get_signing_serializer(app)
        self.cookie = app.config["SESSION_COOKIE_NAME"]
        self.max_age = int(app.permanent_session_lifetime.total_seconds())
        self.trusted_hosts = app.config["TRUSTED_HOSTS"]
        self.headers = [
            ("Cache-Control", "no-cache, private"),
            ("Vary", "Cookie, HX-Request, Accept-Encoding"),  # as the app (and Flask-Compress) says
            *security.headers(app.config),
        ]

    def __call__(self, environ, start_response):
        etag = self._unchanged(environ)
        if etag is None:
            return self.wsgi_app(environ, start_response)
        start_response("304 NOT MODIFIED", [("ETag", quote_etag(etag)), *self.headers])
        return []

    def _unchanged(self, environ):
        """Return the ETag the poll sent when it is still the game's, else None."""
        if (
            environ["REQUEST_METHOD"] != "GET"
            or environ.get("HTTP_HX_REQUEST") != "true"
            or "HTTP_HX_BOOSTED" in environ
            or "HTTP_HX_HISTORY_RESTORE_REQUEST" in environ
            or environ.get("QUERY_STRING")
            or "HTTP_IF_NONE_MATCH" not in environ
        ):
            return None
        found = self.PATH.fullmatch(environ.get("PATH_INFO", ""))
        if found is None or not self._trusted(environ):
            return None
        game_id = found[1]
        stamp = games.get_stamp(game_id, self.engine)
        if stamp is None:
            return None
        version, token_hash = stamp
        held = self._session(environ)
        if held is None:
            return None
        can_edit = keyring.holds(keyring.GAME_TOKENS, game_id, token_hash, held)
        etag = live_etag(version, can_edit)
        return etag if parse_etags(environ["HTTP_IF_NONE_MATCH"]).contains(etag) else None

    def _trusted(self, environ):
        if not self.trusted_hosts:
            return True
        try:
            get_host(environ, self.trusted_hosts)
        except SecurityError:
            return False
        return True

    def _session(self, environ):
        """Return what the browser's session holds ({} without one), None if it is not ours."""
        value = parse_cookie(environ).get(self.cookie) if "HTTP_COOKIE" in environ else None
        if not value:
            return {}
        try:
            held = self.sessions.loads(value, max_age=self.max_age)
        except BadSignature:
            return None  # the app decides what an unreadable session means
        return held if isinstance(held, dict) else None


def _live_headers(response, etag):
    """Mark a live response as revalidated on every poll and varying by session."""
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache, private"
    response.vary.update(("Cookie", "HX-Request"))
    return response
