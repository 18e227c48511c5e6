"""The big screen: a game's scores in large type, for a TV, laptop or tablet at the table.

Read-only like the view link, whoever opens it: it shows no control and nothing that
grants editing, even in an editor's browser, so its address and QR code can be put on
any screen. It follows the game as the game page does, on the same stream of versions
(scorekeeper/web/live.py, static/live.js), and asks for its own live part; without
JavaScript no stream can be followed, so the page reloads itself now and then.
"""

from flask import Blueprint, Response, make_response, redirect, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.http import cache
from scorekeeper.http.htmx import render, wants_fragment
from scorekeeper.store.lookup import require_game, require_stamp
from scorekeeper.web import errors, live
from scorekeeper.web.game_page import game_context

bp = Blueprint("screen", __name__)
errors.register_game_errors(bp)

RELOAD_SECONDS = 15
"""How often the page reloads itself without JavaScript."""


@bp.get("/games/<game_id>/screen")
def show(game_id: str) -> Response:
    """Show the big screen: the scores, the target, whose deal it is, the last hand, the win."""
    version, _hash = require_stamp(game_id)
    key = cache.key("screen", game_id, version, False)
    return cache.page(key, lambda: _render(game_id))


@bp.get("/games/<game_id>/screen/live")
def poll(game_id: str) -> BaseResponse:
    """Answer the big screen's poll: 304 while nothing changed, else its new live part."""
    if not wants_fragment():
        return redirect(url_for("screen.show", game_id=game_id), 303)
    version, _hash = require_stamp(game_id)
    etag = cache.live_etag(version, False)
    if request.if_none_match.contains(etag):
        return live.live_headers(make_response("", 304), etag)
    key = cache.key("screen-live", game_id, version, False)
    return cache.page(key, lambda: _render(game_id, live_part=True))


def _render(game_id: str, *, live_part: bool = False) -> Response:
    """Render the big screen (for htmx its live part) as the game stands now."""
    context = game_context(require_game(game_id))
    context["can_edit"] = False  # never any control, whoever looks
    response = render(
        "games/screen.html", "games/_screen.html", reload_seconds=RELOAD_SECONDS, **context
    )
    if live_part:
        live.live_headers(response, cache.live_etag(context["version"], False))
    return response
