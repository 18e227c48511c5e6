"""Error pages in the app's own look and the page's language, for every address outside /api,
and the one mapping of a refused save to its form's messages and status.

The API answers its own errors as JSON (``scorekeeper.api.errors``): its blueprints'
handlers come before these app-wide ones, and its check before any view answers
unknown addresses and methods under ``/api``, so these pages never reach an API client.
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from flask import Blueprint, Flask, Response, current_app, make_response, render_template
from flask_babel import gettext as _
from flask_limiter.errors import RateLimitExceeded
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import OperationalError
from werkzeug.exceptions import HTTPException, MethodNotAllowed, NotFound

from scorekeeper import engine
from scorekeeper.http import ratelimits
from scorekeeper.store import busy, games, limits, lookup

PAGES = {
    404: (
        lambda: _("Page not found"),
        lambda: _("There is nothing at this address. Check it, or go back to your games."),
    ),
    405: (
        lambda: _("Not possible here"),
        lambda: _("This address cannot be used that way. Go back to the page and try again."),
    ),
    413: (
        lambda: _("Too large"),
        lambda: _("What was sent is larger than this page accepts."),
    ),
    429: (
        lambda: _("Too many at once"),
        lambda: _("Too many of these were sent from here. Wait a minute, then try again."),
    ),
    500: (
        lambda: _("Something went wrong"),
        lambda: _("The server could not answer this time. Please try again in a moment."),
    ),
}
"""Title and sentence of each error page, by status."""


def init_app(app: Flask) -> None:
    """Answer the common errors with the app's own pages.

    Registered for HTTPException, not per status: Flask tries every status-specific
    handler before any class handler, so a 404 handler here would beat the API
    blueprints' JSON handler.
    """
    app.register_error_handler(HTTPException, error_page)
    app.register_error_handler(OperationalError, database_error)
    app.register_error_handler(lookup.Missing, missing)


def register_game_errors(bp: Blueprint) -> None:
    """Explain, on a game's pages, view-only access, a missing game and a stale form."""
    bp.register_error_handler(403, game_forbidden)
    bp.register_error_handler(404, game_not_found)
    bp.register_error_handler(lookup.Missing, game_not_found)
    bp.register_error_handler(CSRFError, stale_form)


def error_page(error: HTTPException) -> HTTPException | Response:
    """Render the page for an HTTP error (an unexpected exception arrives as a 500)."""
    status = error.code
    if status not in PAGES:
        return error
    if status == 500:
        busy.end_session()
    title, message = PAGES[status]
    response = render(title(), message(), status)
    if isinstance(error, MethodNotAllowed) and error.valid_methods:
        response.headers["Allow"] = ", ".join(sorted(error.valid_methods))
    if isinstance(error, RateLimitExceeded):
        response.headers["Retry-After"] = ratelimits.retry_after(error)
    return response


def missing(_error: lookup.Missing) -> HTTPException | Response:
    """Answer a game, deal or table the store does not have with the 404 page."""
    return error_page(NotFound())


def database_error(error: OperationalError) -> Response:
    """Answer a busy database, or one out of reach (a restart), with 503 and Retry-After;
    any other failure as a 500 page."""
    busy.end_session()
    if busy.is_busy(error):
        return busy_page()
    if busy.is_lost(error):
        current_app.logger.warning("Database out of reach: %s", error.orig)
        return lost_page()
    current_app.logger.error("Database error", exc_info=error)
    title, message = PAGES[500]
    return render(title(), message(), 500)


def busy_page() -> Response:
    """Return the 503 page of a busy database: nothing was saved, send it again."""
    message = _(
        "The score pad is busy with another change and nothing was saved. "
        "Go back and send it again in a moment."
    )
    return resend_page(_("Busy, please resend"), message)


def lost_page() -> Response:
    """Return the 503 page of a database out of reach: nothing was saved, send it again."""
    message = _(
        "The score pad's database cannot be reached just now, so nothing was saved. "
        "Go back and send it again in a moment."
    )
    return resend_page(_("Database out of reach"), message)


def resend_page(title: str, message: str) -> Response:
    """Return a 503 page asking to send again, with the store's Retry-After."""
    response = render(title, message, 503)
    response.headers["Retry-After"] = str(busy.RETRY_AFTER)
    return response


def game_forbidden(_error: HTTPException) -> Response:
    """Explain that this browser may look but not change the game."""
    message = _("This browser can view this game but not change it.")
    return render(_("View only"), message, 403)


def game_not_found(_error: HTTPException | lookup.Missing) -> Response:
    """Explain a missing game or deal."""
    message = _("There is no such game or deal. Check the address.")
    return render(_("Not found"), message, 404)


def stale_form(_error: CSRFError) -> Response:
    """Explain a stale or foreign form without losing the player's place."""
    message = _("This form is out of date. Reload the page and enter it again.")
    return render(_("Please reload"), message, 400)


def render(title: str, message: str, status: int) -> Response:
    """Return the error page with this title and sentence."""
    return make_response(render_template("error.html", title=title, message=message), status)


# --- a save refused, answered on its form --------------------------------------------------

REFUSALS = (engine.RuleViolation, games.NumberConflict, games.GameFull, OperationalError)
"""What saving a deal or a correction may be refused with: `refused` answers each on the form."""


class RuleErrorForm(Protocol):
    """A form that shows the engine's problems beside its fields (``forms._RuleErrors``)."""

    def add_rule_errors(self, problems: Mapping[str | None, Iterable[object]]) -> None:
        """Add problems keyed by field; None, or a field without a control, goes on top."""


@dataclass(frozen=True, slots=True)
class Refusal:
    """How the page answers a refused save: its status, and the headers that go with it."""

    status: int
    """409 (another phone changed the game, or it is full), 422 (the rules), 503 (busy)."""
    headers: dict[str, str] = field(default_factory=dict)
    """`Retry-After` for a busy database or one out of reach."""


def refused(
    form: RuleErrorForm, error: Exception, renamed: Mapping[str, str] | None = None
) -> Refusal:
    """Say on the form why the store or the engine refused a save; return how to answer.

    Nothing was stored (the store rolled the change back) and the form keeps what was
    entered. `renamed` moves the engine's problems of a field onto the form's field of
    another name. A database error that is neither busy nor out of reach is raised
    again: that is the 500 page.
    """
    problems: Mapping[str | None, Iterable[object]]
    headers: dict[str, str] = {}
    if isinstance(error, engine.GameOver):
        # Another phone ended the game: say so, and keep what was tapped in view.
        kept = _("Nothing was saved; your choices are kept below.")
        problems, status = {None: [*error.problems.get(None, ()), kept]}, 409
    elif isinstance(error, engine.CorrectionConflict):
        # The later deal's sentence alone: its field problems are not this form's fields.
        problems, status = {None: [error.first]}, 409
    elif isinstance(error, games.NumberConflict):
        problems, status = {None: [str(error)]}, 409
    elif isinstance(error, games.GameFull):
        problems, status = {None: [game_full_message()]}, 409
    elif isinstance(error, OperationalError):
        problems, status = {None: [_busy_message(error)]}, 503
        headers["Retry-After"] = str(busy.RETRY_AFTER)
    elif isinstance(error, engine.RuleViolation):
        names = renamed or {}
        problems = {names.get(k, k) if k else None: v for k, v in error.problems.items()}
        status = 422
    else:
        raise error
    form.add_rule_errors(problems)
    return Refusal(status, headers)


def game_full_message() -> str:
    """Return why a game takes no more deals, corrections or undos."""
    return _(
        "This game holds as many deals and corrections as a game may (%(n)s deals). "
        "Start a new game to go on.",
        n=limits.DEALS_PER_GAME,
    )


def _busy_message(error: OperationalError) -> str:
    """Return why a deal was not saved, when the database was busy or out of reach (a restart).

    Raises the error again when it was neither: that is a 500.
    """
    if busy.is_busy(error):
        return _(
            "The score pad was busy with another change, so this deal was not saved. "
            "Your entry is kept: save it again."
        )
    if busy.is_lost(error):
        return _(
            "The score pad's database could not be reached, so this deal was not saved. "
            "Your entry is kept: save it again in a moment."
        )
    raise error
