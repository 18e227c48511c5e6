"""Installing the app on a phone's home screen: the web app manifest."""

import json

from flask import Blueprint, Response, current_app, url_for
from flask_babel import get_locale
from flask_babel import gettext as _

from scorekeeper.http.languages import DEFAULT

bp = Blueprint("install", __name__)

THEME = "#0a58b0"
"""The light theme's accent (static/app.css), the colour of the icons and the title bar."""
BACKGROUND = "#ffffff"
"""The splash screen's background, the light theme's page colour."""
ICONS = (
    ("icons/icon-192.png", "192x192", "any"),
    ("icons/icon-512.png", "512x512", "any"),
    ("icons/icon-maskable-512.png", "512x512", "maskable"),
)
"""The icons under static/ (drawn by tools/make_icons.py): file, size, purpose."""


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """Serve the manifest in the page's language, so phones can add the app to the home screen."""
    document = {
        "name": _("Scorekeeper"),
        "short_name": _("Scorekeeper"),
        "description": _("The score pad for Five-Handed Schmier and its relatives."),
        "lang": str(get_locale() or DEFAULT),
        "id": url_for("games.home"),
        "start_url": url_for("games.home"),
        "scope": url_for("games.home"),
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "icons": [
            {
                "src": url_for("static", filename=path),
                "sizes": sizes,
                "type": "image/png",
                "purpose": purpose,
            }
            for path, sizes, purpose in ICONS
        ],
    }
    response = current_app.response_class(
        json.dumps(document, ensure_ascii=False, indent=2),
        mimetype="application/manifest+json",
    )
    response.cache_control.public = True
    response.cache_control.max_age = 3600
    return response
