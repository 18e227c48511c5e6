"""The big screen: a game's scores in large type, for a TV, laptop or tablet at the table.

Read-only like the view link, whoever opens it: it shows no control and nothing that
grants editing, even in an editor's browser, so its address and QR code can be put on
any screen. It follows the game as the game page does, on the same stream of versions
(scorekeeper/web/live.py, static/live.js), and asks for its own live part; without
JavaScript no stream can be followed, so the page reloads itself now and then.
"""

from collections.abc import Iterable

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
NAME_EM_STEPS = (4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 18, 20, 24, 28, 32)
"""The widths, in em, a longest name can be sized to (static/screen.css has one rule each):
32 em holds 40 lowercase letters, the longest name a game takes."""
NARROW = frozenset("iIjJlf.,:;'!|()[]rt-")
"""Letters about half an em wide."""
WIDE = frozenset("mwMWŒæÆœ@&")
"""Letters about an em wide or more."""


def letter_em(letter: str) -> float:
    """Return about how wide a letter is in the big screen's bold type, in em.

    Measured on DejaVu Sans Bold, the widest of the fonts the page may be drawn in
    (Debian's, where system-ui has none of its own), rounded up.
    """
    if letter in NARROW:
        return 0.5
    if letter in WIDE:
        return 1.12
    if letter.isupper():
        return 0.86
    return 0.73


def name_em(labels: Iterable[str]) -> int:
    """Return the width of the longest word among these names, rounded up to a known step.

    The names' type on the big screen is sized so that this many em fit a side's column:
    a name is broken only between words ("Ann & Di"), never inside one.
    """
    widest = max(
        (sum(map(letter_em, word)) for label in labels for word in str(label).split()),
        default=0.0,
    )
    return next((step for step in NAME_EM_STEPS if step >= widest), NAME_EM_STEPS[-1])


def score_chars(scores: Iterable[int]) -> int:
    """Return how many characters the widest score takes: 2 to 4 (static/screen.css).

    Never fewer than two, so the scores keep their size when the first reaches 10.
    """
    return min(4, max(2, *(len(str(score)) for score in scores)))


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
        "games/screen.html",
        "games/_screen.html",
        reload_seconds=RELOAD_SECONDS,
        name_em=name_em(row["label"] for row in context["board"]),
        score_chars=score_chars(row["score"] for row in context["board"]),
        **context,
    )
    if live_part:
        live.live_headers(response, cache.live_etag(context["version"], False))
    return response
