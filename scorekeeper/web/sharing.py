"""Share a game: view and edit links with QR codes, and revoking edit rights.

A game has two links. The view link is the game's own address: anyone holding it follows
the game read-only. The edit link carries the edit token; opening it stores the token in
this browser's signed session cookie and redirects to the plain game address, so the
token leaves the address bar. Every change re-checks the stored token against the game's
hash, so making a new token (rotating) revokes every older link, session and API client
at once.
"""

from typing import Any
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    g,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from scorekeeper.http import cache, keyring
from scorekeeper.store import games
from scorekeeper.store.lookup import require_game
from scorekeeper.web import errors, links
from scorekeeper.web.forms import ConfirmForm

bp = Blueprint("sharing", __name__)
errors.register_game_errors(bp)

_NO_STORE = "no-store"

COPY_HEADER = "X-Offline-Copy"
"""The header the service worker asks a page with when the page as this browser got it is
marked ``no-store`` (templates/offline/sw.js): the copy it keeps for offline use, the same
page without this browser's edit link and its QR code. Every answer it changes names it in
``Vary``."""


def for_copy() -> bool:
    """Return whether this request asks for the copy a service worker may keep (no token)."""
    return request.headers.get(COPY_HEADER) == "1"


# --- views -----------------------------------------------------------------------------


@bp.get("/games/<game_id>/edit/<token>")
def join(game_id: str, token: str) -> ResponseReturnValue:
    """Let this browser edit the game when the token is right, then drop the token from the URL."""
    game = require_game(game_id)
    g.carries_token = True
    if not games.check_edit_token(game, token):
        page = render_template("games/edit_link_invalid.html", game_id=game.id)
        return page, 403
    keyring.grant(keyring.GAME_TOKENS, game.id, token)
    keyring.remember(keyring.RECENT_GAMES, game.id)
    flash(_("This device can now enter and correct deals."))
    return redirect(url_for("games.show", game_id=game.id), 303)


@bp.post("/games/<game_id>/edit-link")
def rotate(game_id: str) -> Response:
    """Make a new edit token: every older edit link, session and API token stops working."""
    game = require_game(game_id)
    if not keyring.can_edit(keyring.GAME_TOKENS, game):
        abort(403)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    token = games.rotate_edit_token(game)
    # This browser keeps editing the games after this one that took the new token too.
    for next_id in [game.id, *games.following(game)]:
        keyring.grant(keyring.GAME_TOKENS, next_id, token)
    flash(
        _(
            "New edit link made. Old edit links and API tokens no longer work; "
            "share the new link with whoever should keep entering deals."
        )
    )
    return redirect(url_for("games.show", game_id=game.id, _anchor="share"), 303)


# --- template helpers ------------------------------------------------------------------


@bp.app_template_global()
def share_links(game_id: str, can_edit: bool) -> dict[str, Any]:
    """Return the view link, the big screen's and, for a browser that may edit, the edit
    link, each with a QR code."""
    base = links.public_base_url()
    view_url = base + url_for("games.show", game_id=game_id)
    screen_url = base + url_for("screen.show", game_id=game_id)
    links_loopback = links.is_loopback(urlsplit(base).netloc)
    shared = {
        "view_url": view_url,
        "view_qr": links.qr_svg(view_url, _("QR code of the view link")),
        "screen_url": screen_url,
        "screen_qr": links.qr_svg(screen_url, _("QR code of the big screen")),
        "edit_url": None,
        "edit_qr": None,
        # Opened on the server itself: the links use its LAN address, or (none found) are
        # of no use to the phones; either way the page says how to serve the network.
        "lan_rewritten": (
            links.is_loopback(request.host)
            and not links_loopback
            and not current_app.config.get("PUBLIC_URL")
        ),
        "loopback_only": links_loopback,
    }
    # The copy a phone keeps offline holds no edit link: the page itself shows it online.
    token = keyring.token(keyring.GAME_TOKENS, game_id) if can_edit and not for_copy() else None
    if token:
        edit_url = base + url_for("sharing.join", game_id=game_id, token=token)
        shared["edit_url"] = edit_url
        shared["edit_qr"] = links.qr_svg(edit_url, _("QR code of the edit link"))
        g.carries_token = True
    return shared


# --- after every request ---------------------------------------------------------------


@bp.after_app_request
def _protect_token_pages(response: Response) -> Response:
    """Keep pages that carry an edit token out of caches and out of Referer headers.

    Such a page, and every answer to a request for the copy a service worker keeps, varies
    by `COPY_HEADER`: the copy is the page without the token.
    """
    if g.get("carries_token"):
        response.headers["Cache-Control"] = _NO_STORE
        response.headers["Referrer-Policy"] = "no-referrer"
    if g.get("carries_token") or for_copy():
        response.vary.add(COPY_HEADER)
    if for_copy() and "Cache-Control" not in response.headers:
        response.headers["Cache-Control"] = cache.PRIVATE  # for this browser's phone alone
    return response
