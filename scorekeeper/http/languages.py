"""Which language a request is answered in: the one chosen, else the browser's, else English.

The choice is kept in the browser's session (the chooser in the footer,
scorekeeper/web/i18n.py); without one, the browser's Accept-Language decides, and the
answer then varies by it. Read by Flask-Babel for every page and by the page cache's keys.
"""

import functools
from collections.abc import Iterable

from flask import g, has_request_context, request, session
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

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


def select_locale() -> str:
    """Return this request's language: the one chosen, else the browser's best, else English."""
    if not has_request_context():
        return DEFAULT
    chosen = session.get("locale")
    if chosen in LANGUAGES:
        return str(chosen)
    g.locale_negotiated = True
    return browser_language(request.headers.get("Accept-Language", ""))


@functools.lru_cache(maxsize=1024)
def browser_language(accept_language: str) -> str:
    """Return the language an Accept-Language header asks for, else English.

    Kept per header text: every request of a page, a poll or a document asks, and a table's
    phones send a handful of different headers between them.
    """
    return best_match(parse_accept_header(accept_language, LanguageAccept)) or DEFAULT


def best_match(accepted: Iterable[tuple[str, float]]) -> str | None:
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


def vary_with(vary: str | None, name: str) -> str:
    """Return the text of a Vary header with `name` added, unless it names it already."""
    if not vary:
        return name
    if name.lower() in {part.strip().lower() for part in vary.split(",")}:
        return vary
    return f"{vary}, {name}"
