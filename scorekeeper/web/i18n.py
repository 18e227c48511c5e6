"""The pages' language: the chooser in the footer, the catalogs, engine messages translated.

Which language a request gets (the one chosen and kept in the session, else the browser's)
is decided one layer down, in scorekeeper/http/languages.py, for the pages and the layer
ahead of Flask alike.
"""

from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from babel.support import NullTranslations
from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    g,
    has_app_context,
    redirect,
    request,
    session,
    url_for,
)
from flask_babel import get_domain, get_locale
from werkzeug.exceptions import HTTPException
from werkzeug.routing import RequestRedirect
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper import engine, words
from scorekeeper.http import languages

bp = Blueprint("i18n", __name__)

TRANSLATIONS = Path(__file__).parents[1] / "translations"
"""Where each language's catalog lives: ``<code>/LC_MESSAGES/messages.po`` (and ``.mo``)."""


def init_app(app: Flask) -> None:
    """Look up the page's catalog once per request in templates (see `translations`)."""
    # Jinja's i18n extension (which Flask-Babel adds) gives the environment this method at
    # run time, so Jinja's types do not declare it.
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda s: translations().ugettext(s),
        ngettext=lambda s, p, n: translations().ungettext(s, p, n),
        pgettext=lambda c, s: translations().upgettext(c, s),
        npgettext=lambda c, s, p, n: translations().unpgettext(c, s, p, n),
        newstyle=True,
    )


def translations() -> NullTranslations:
    """Return this request's catalog, as Flask-Babel chooses it, found once per request.

    A game page translates several hundred phrases; Flask-Babel finds the catalog again
    for each (its context, the locale, the cache), which made up a quarter of the time
    to render the live parts. The language never changes within a request.
    """
    if not has_app_context():
        return get_domain().get_translations()  # none chosen: the messages as written
    try:
        return g._page_translations
    except AttributeError:
        g._page_translations = found = get_domain().get_translations()
        return found


@bp.get("/language/<code>")
def choose(code: str) -> BaseResponse:
    """Keep the language chosen in the footer for this browser and go back to the page.

    A plain link, so it works without JavaScript and leaves view-only pages free of forms;
    all it changes is this browser's own choice of language.
    """
    if code not in languages.LANGUAGES:
        abort(404)
    session["locale"] = code
    session.permanent = True
    response = redirect(_safe_return(request.args.get("next", "")), 303)
    response.headers["Cache-Control"] = "no-store"
    return response


def _safe_return(target: str) -> str:
    """Return ``target`` if it is a page of this site answering GET, else the home page."""
    parts = urlsplit(target)
    if (
        not target.startswith("/")
        or target.startswith("//")
        or "\\" in target
        or parts.scheme
        or parts.netloc
    ):
        return url_for("games.home")
    try:
        current_app.url_map.bind("").match(parts.path, method="GET")
    except RequestRedirect:
        pass
    except HTTPException:
        return url_for("games.home")
    return target


@bp.app_context_processor
def language_context() -> dict[str, Any]:
    """Give every page its language code (for ``<html lang>``) and the chooser's languages."""
    return {
        "current_locale": str(get_locale() or languages.DEFAULT),
        "languages": languages.LANGUAGES,
    }


@bp.app_template_global()
def language_return_to() -> str:
    """Return the address the language chooser comes back to: this page, query included."""
    if request.method != "GET":
        return request.path
    return request.full_path.removesuffix("?")


@bp.after_app_request
def vary_by_language(response: Response) -> Response:
    """Tell caches that a page whose language came from Accept-Language varies by it.

    The header is extended as text: ``response.vary`` parses it into a set and writes it
    back, and a first-time visitor's every page passes here.
    """
    if g.get("locale_negotiated"):
        response.headers["Vary"] = languages.vary_with(
            response.headers.get("Vary"), "Accept-Language"
        )
    return response


def translate(value: object) -> str:
    """Return an engine message in the page's language; other values as text."""
    return words.translate(translations(), value)


def counted(phrase: engine.Plural, num: int) -> str:
    """Return an engine phrase that says a count, in the page's language ("2 bids")."""
    return words.counted(translations(), phrase, num)


def join_words(given: Iterable[str]) -> str:
    """Join words for a sentence in the page's language: "Ann, Bob and Cy"."""
    return words.join_words(translations(), given)


@bp.app_template_filter("t")
def translate_filter(value: object) -> str:
    """Show an engine message in the page's language: ``{{ outcome.explanation|t }}``."""
    return translate(value)
