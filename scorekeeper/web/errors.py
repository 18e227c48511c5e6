"""Error pages in the app's own look and the page's language."""

from flask import Blueprint, make_response, render_template
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError


def register_game_errors(bp: Blueprint) -> None:
    """Explain, on a game's pages, view-only access, a missing game and a stale form."""
    bp.register_error_handler(403, game_forbidden)
    bp.register_error_handler(404, game_not_found)
    bp.register_error_handler(CSRFError, stale_form)


def game_forbidden(_error):
    """Explain that this browser may look but not change the game."""
    message = _("This browser can view this game but not change it.")
    return render(_("View only"), message, 403)


def game_not_found(_error):
    """Explain a missing game or deal."""
    message = _("There is no such game or deal. Check the address.")
    return render(_("Not found"), message, 404)


def stale_form(_error):
    """Explain a stale or foreign form without losing the player's place."""
    message = _("This form is out of date. Reload the page and enter it again.")
    return render(_("Please reload"), message, 400)


def render(title: str, message: str, status: int):
    """Return the error page with this title and sentence."""
    return make_response(render_template("error.html", title=title, message=message), status)
