"""Keep every open game page up to date: it polls, and hears 304 while nothing changed.

The page sends the ETag of what it shows in ``If-None-Match`` (set by ``hx-headers``), so
an unchanged game costs one small query and no rendering.
"""

import json

from flask import Blueprint, make_response, redirect, render_template, request, url_for
from markupsafe import Markup
from werkzeug.http import quote_etag

from scorekeeper.store.lookup import game_or_404
from scorekeeper.web import errors, keyring
from scorekeeper.web.game_page import game_context
from scorekeeper.web.htmx import wants_fragment

bp = Blueprint("live", __name__)
errors.register_game_errors(bp)

POLL_INTERVAL = "2s"


@bp.get("/games/<game_id>/live")
def poll(game_id):
    """Answer the poll of an open game page: 304 while nothing changed, else the new parts."""
    if not wants_fragment():
        return redirect(url_for("games.show", game_id=game_id), 303)
    game = game_or_404(game_id, deals=False)
    can_edit = keyring.can_edit(keyring.GAME_TOKENS, game)
    etag = live_etag(game.version, can_edit)
    if request.if_none_match.contains(etag):
        return _live_headers(make_response("", 304), etag)
    # The page was an editor's and this browser's token no longer works: say so where
    # the deal form is, or its next save would silently fail.
    revoked = not can_edit and request.headers.get("If-None-Match", "").endswith('-e"')
    context = game_context(game_or_404(game_id))
    response = make_response(render_template("games/_live.html", revoked=revoked, **context))
    return _live_headers(response, etag)


def live_etag(version, can_edit):
    """Return the ETag (unquoted) of a game page's live parts: they vary by version and rights."""
    return f"{version}-{'e' if can_edit else 'v'}"


@bp.app_template_global()
def live_attributes(game_id, version, can_edit):
    """Return the htmx attributes that make the scoreboard poll for changes."""
    headers = json.dumps({"If-None-Match": quote_etag(live_etag(version, can_edit))})
    return Markup(
        'data-live hx-get="{url}" hx-trigger="every {every}" hx-swap="outerHTML"'
        ' hx-headers="{headers}"'
    ).format(url=url_for("live.poll", game_id=game_id), every=POLL_INTERVAL, headers=headers)


def _live_headers(response, etag):
    """Mark a live response as revalidated on every poll and varying by session."""
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache, private"
    response.vary.update(("Cookie", "HX-Request"))
    return response
