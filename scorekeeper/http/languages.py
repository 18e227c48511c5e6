"""Which language a request is answered in: the one chosen, else the browser's, else English.

The choice is kept in the browser's session (the chooser in the footer,
scorekeeper/web/i18n.py); without one, the browser's Accept-Language decides, and the
answer then varies by it. Read by Flask-Babel for every page and by the page cache's keys.
"""

from collections.abc import Iterable, Mapping
from typing import Any

from flask import g, has_request_context, request, session

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
    code, negotiated = language_of(session, request.accept_languages)
    if negotiated:
        g.locale_negotiated = True
    return code


def language_of(
    session_data: Mapping[str, Any], accepted: Iterable[tuple[str, float]]
) -> tuple[str, bool]:
    """Return the language `select_locale` gives, and whether it came from the browser.

    `session_data` is what the request's session holds, `accepted` its parsed
    Accept-Language.
    """
    chosen = session_data.get("locale")
    if chosen in LANGUAGES:
        return chosen, False
    return best_match(accepted) or DEFAULT, True


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
