"""Keep every open game page up to date, and bring what it leaves out of a long game.

A game page follows its game through a stream of server-sent events (``/events``): the
server says each new version as it is saved (scorekeeper/store/versions.py hears of it,
from any app instance), and the page then asks for its live parts once. While the stream
is down (a proxy that buffers, a browser without EventSource, a process that already
holds LIVE_STREAMS_MAX streams, or LIVE_STREAMS_PER_ADDRESS for the page's address) the
page polls every 2 s instead: static/live.js switches between the two. A stream whose
client hung up is let go at once (scorekeeper/http/hangups.py).

Asking for the live parts sends the ETag of what the page shows in ``If-None-Match`` (set
by ``hx-headers``): an unchanged game costs one read of its version by primary key, and no
loading of the game, templates or translations. A changed one is rendered once per
version, language and rights (scorekeeper/http/cache.py) for every phone that follows it.

The live page shows the last deals and the last changes; the earlier deals load on
demand, a batch at a time, and the whole change log has its own page.
"""

import json
import time
from collections.abc import Iterator
from typing import TypeVar

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
from markupsafe import Markup
from werkzeug.http import quote_etag
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.http import cache, hangups, params
from scorekeeper.http.htmx import render, wants_fragment
from scorekeeper.store import versions
from scorekeeper.store.lookup import require_game
from scorekeeper.web import errors
from scorekeeper.web.game_page import (
    EARLIER_DEALS,
    RECENT_DEALS,
    game_context,
    history,
    next_deal_form,
)

bp = Blueprint("live", __name__)
errors.register_game_errors(bp)

POLL_INTERVAL = "2s"

RETRY_MS = 2000
"""How long a browser waits before opening a dropped stream again."""

KEEPALIVE_SECONDS = 25
"""How often an idle stream sends a comment, so that no proxy takes it for dead."""

AnyResponse = TypeVar("AnyResponse", bound=BaseResponse)


@bp.get("/games/<game_id>/live")
def poll(game_id: str) -> BaseResponse:
    """Answer the poll of an open game page: 304 while nothing changed, else the new parts."""
    if not wants_fragment():
        return redirect(url_for("games.show", game_id=game_id), 303)
    version, can_edit = cache.version_and_rights(game_id)
    etag = cache.live_etag(version, can_edit)
    if request.if_none_match.contains(etag):
        return live_headers(make_response("", 304), etag)
    # The page was an editor's and this browser's token no longer works: say so where
    # the deal form is, or its next save would silently fail.
    revoked = not can_edit and request.headers.get("If-None-Match", "").endswith('-e"')
    # A page that loaded earlier deals keeps them: it says the oldest one it shows.
    shown_from = (
        params.parse_int(request.headers.get(cache.HISTORY_FROM), None, 0, params.MAX_ID) or None
    )

    def render_live() -> Response:
        context = game_context(require_game(game_id))
        if shown_from is not None and shown_from < context["recent_from"]:
            deals = context["game"]["deals"]
            context["history"] = history(context["config"], deals[shown_from - 1 :])
        form = next_deal_form(context)
        page = render_template("games/_live.html", revoked=revoked, form=form, **context)
        return live_headers(make_response(page), cache.live_etag(context["version"], can_edit))

    key = cache.key("live", game_id, version, can_edit, revoked, shown_from or "")
    return cache.page(key, render_live)


@bp.get("/games/<game_id>/events")
def events(game_id: str) -> Response:
    """Stream the game's version as server-sent events: now, then each one saved.

    Each event is ``event: version`` with the version as its data (and id). The stream
    ends after LIVE_STREAM_SECONDS and the browser opens a new one; it holds no database
    connection while it waits.
    """
    seconds = current_app.config["LIVE_STREAM_SECONDS"]
    watcher = versions.watcher()
    release = None
    if watcher.following() < current_app.config["LIVE_STREAMS_MAX"]:
        most = current_app.config["LIVE_STREAMS_PER_ADDRESS"]
        release = _holders().take(request.remote_addr or "", most)
    if release is None:
        # Every connection of the worker would be a stream, or one address would hold
        # them: the page polls instead (live.js lets its 2-second poll run while it has
        # no stream, and asks again in 5 s).
        busy = Response("Too many games followed live here; the page polls instead.", 503)
        busy.headers["Retry-After"] = "30"
        busy.headers["Cache-Control"] = "no-store"
        return busy
    try:
        follower = watcher.follow(game_id)
    except BaseException:  # a database error: the address holds no stream
        release()
        raise
    if follower is None:
        release()
        abort(404)

    def let_go() -> None:
        follower.close()  # its wait returns at once, and the stream ends
        release()

    stop_watching = hangups.watch(request.environ, let_go)

    def stream() -> Iterator[str]:
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
    response.call_on_close(stop_watching)
    response.call_on_close(let_go)
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


def _event(version: int) -> str:
    return f"id: {version}\nevent: version\ndata: {version}\n\n"


def _holders() -> hangups.Holders:
    """Return this app's count of the streams each client address holds open."""
    holders = current_app.extensions.get("scorekeeper.stream_holders")
    if holders is None:
        holders = current_app.extensions["scorekeeper.stream_holders"] = hangups.Holders()
    return holders


@bp.get("/games/<game_id>/earlier")
def earlier(game_id: str) -> Response:
    """Show the deals before `before` (else before the live page's), newest first.

    htmx puts them in place of the history's "earlier deals" link; without JavaScript
    they come as a page of their own.
    """
    version, can_edit = cache.version_and_rights(game_id)
    before = params.int_arg("before", None, 0, params.MAX_ID)

    def render_earlier() -> Response:
        context = game_context(require_game(game_id))
        deals = context["game"]["deals"]
        end = len(deals) - RECENT_DEALS if before is None else min(before, len(deals) + 1) - 1
        earlier_deals = deals[max(0, end - EARLIER_DEALS) : max(0, end)]
        context["history"] = history(context["config"], earlier_deals)
        return render("games/earlier.html", "games/_earlier.html", **context)

    return cache.page(cache.key("earlier", game_id, version, can_edit), render_earlier)


@bp.get("/games/<game_id>/changes")
def changes(game_id: str) -> str:
    """Show a game's whole change log."""
    game = require_game(game_id, deals=True)
    context = game_context(game)
    context["changes"] = list(game.changes)
    context["changes_total"] = len(context["changes"])
    return render_template("games/changes.html", **context)


@bp.app_template_global()
def live_attributes(game_id: str, version: int, can_edit: bool, poll: str = "live.poll") -> Markup:
    """Return the attributes that keep the scoreboard current: htmx asks for the live parts
    on the event ``live`` (sent by static/live.js when the stream says a new version) and
    every 2 s while the stream is down.

    `poll` is the endpoint answering with them: the game page's, or another page's that
    follows the game on the same stream (the big screen's).
    """
    headers = json.dumps({"If-None-Match": quote_etag(cache.live_etag(version, can_edit))})
    return Markup(
        'data-live data-events="{events}" data-version="{version}" hx-get="{url}"'
        ' hx-trigger="every {every}, live" hx-swap="outerHTML" hx-headers="{headers}"'
    ).format(
        events=url_for("live.events", game_id=game_id),
        version=version,
        url=url_for(poll, game_id=game_id),
        every=POLL_INTERVAL,
        headers=headers,
    )


def live_headers(response: AnyResponse, etag: str) -> AnyResponse:
    """Mark a live response as revalidated on every poll and varying by session."""
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache, private"
    response.vary.update(("Cookie", "HX-Request", cache.HISTORY_FROM))
    return response
