"""The pages' language: chosen in the footer and kept in the session, else the browser's."""

from pathlib import Path
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    abort,
    current_app,
    g,
    has_app_context,
    has_request_context,
    redirect,
    request,
    session,
    url_for,
)
from flask_babel import get_domain, get_locale
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException
from werkzeug.routing import RequestRedirect

from scorekeeper import engine

bp = Blueprint("i18n", __name__)

TRANSLATIONS = Path(__file__).parents[1] / "translations"
"""Where each language's catalog lives: ``<code>/LC_MESSAGES/messages.po`` (and ``.mo``)."""

DEFAULT = "en"
"""The language the messages are written in, used when nothing better matches."""

LANGUAGES = {
    "en": "English",
    "fr": "Français",
    "de": "Deutsch",
    "id": "Bahasa Indonesia",
}
"""Every language the pages are offered in, by code, each named in itself for the chooser."""

ALIASES = {"in": "id"}
"""Old codes some browsers still send, mapped to the code the catalogs use."""


def init_app(app):
    """Look up the page's catalog once per request in templates (see `translations`)."""
    app.jinja_env.install_gettext_callables(
        gettext=lambda s: translations().ugettext(s),
        ngettext=lambda s, p, n: translations().ungettext(s, p, n),
        pgettext=lambda c, s: translations().upgettext(c, s),
        npgettext=lambda c, s, p, n: translations().unpgettext(c, s, p, n),
        newstyle=True,
    )


def translations():
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


def select_locale():
    """Return this request's language: the one chosen, else the browser's best, else English."""
    if not has_request_context():
        return DEFAULT
    code, negotiated = language_of(session, request.accept_languages)
    if negotiated:
        g.locale_negotiated = True
    return code


def language_of(held, accepted):
    """Return the language `select_locale` gives, and whether it came from the browser.

    For a request read outside Flask (scorekeeper/web/ahead.py): `held` is what its session
    holds, `accepted` its parsed Accept-Language.
    """
    chosen = held.get("locale")
    if chosen in LANGUAGES:
        return chosen, False
    return best_match(accepted) or DEFAULT, True


def best_match(accepted):
    """Return the offered language the browser prefers most, matching on the primary tag.

    ``accepted`` is Werkzeug's ``LanguageAccept`` (best quality first): ``en-GB, de;q=0.5``
    gives English, where Werkzeug's own ``best_match`` would take the exact ``de`` first.
    """
    for tag, quality in accepted:
        if quality <= 0:
            continue
        if tag == "*":
            return DEFAULT
        primary = tag.replace("_", "-").split("-")[0].lower()
        primary = ALIASES.get(primary, primary)
        if primary in LANGUAGES:
            return primary
    return None


@bp.get("/language/<code>")
def choose(code):
    """Keep the language chosen in the footer for this browser and go back to the page.

    A plain link, so it works without JavaScript and leaves view-only pages free of forms;
    all it changes is this browser's own choice of language.
    """
    if code not in LANGUAGES:
        abort(404)
    session["locale"] = code
    session.permanent = True
    response = redirect(_safe_return(request.args.get("next", "")), 303)
    response.headers["Cache-Control"] = "no-store"
    return response


def _safe_return(target):
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
def language_context():
    """Give every page its language code (for ``<html lang>``) and the chooser's languages."""
    return {"current_locale": str(get_locale() or DEFAULT), "languages": LANGUAGES}


@bp.app_template_global()
def language_return_to():
    """Return the address the language chooser comes back to: this page, query included."""
    if request.method != "GET":
        return request.path
    return request.full_path.removesuffix("?")


@bp.after_app_request
def vary_by_language(response):
    """Tell caches that a page whose language came from Accept-Language varies by it.

    The header is extended as text: ``response.vary`` parses it into a set and writes it
    back, and a first-time visitor's every page passes here.
    """
    if g.get("locale_negotiated"):
        response.headers["Vary"] = vary_with(response.headers.get("Vary"), "Accept-Language")
    return response


def vary_with(vary, name):
    """Return the text of a Vary header with `name` added, unless it names it already.

    The answers made ahead of Flask (scorekeeper/web/ahead.py) add their names the same way.
    """
    if not vary:
        return name
    if name.lower() in {part.strip().lower() for part in vary.split(",")}:
        return vary
    return f"{vary}, {name}"


def translate(value):
    """Return an engine message in the page's language; other values as text."""
    if isinstance(value, engine.Message):
        return engine.render(value, _lookup, join_words)
    return "" if value is None else str(value)


def _lookup(template):
    """Return the catalog's text for an engine template (the template itself if none)."""
    return translations().ugettext(template) if template else template


def join_words(words):
    """Join words for a sentence in the page's language: "Ann, Bob and Cy"."""
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return _("%(list)s and %(last)s", list=", ".join(words[:-1]), last=words[-1])


@bp.app_template_filter("t")
def translate_filter(value):
    """Show an engine message in the page's language: ``{{ outcome.explanation|t }}``."""
    return translate(value)
