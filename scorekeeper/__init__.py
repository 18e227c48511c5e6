"""Scorekeeper: the score pad and table assistant for Five-Handed Schmier."""

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask

from scorekeeper import config
from scorekeeper.extensions import (
    babel,
    cache,
    compress,
    csrf,
    db,
    limiter,
    migrate,
)


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Create and configure the Flask application."""
    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder="../templates",
        static_folder="../static",
    )
    app.config.from_mapping(config.DEFAULTS)
    app.config.from_prefixed_env()
    app.config["SQLALCHEMY_DATABASE_URI"] = config.database_url(app)
    if test_config is not None:
        app.config.update(test_config)
    if app.config.get("STATIC_FOLDER"):  # another release's files (tests make one)
        app.static_folder = app.config["STATIC_FOLDER"]
    for name, value in config.engine_options(app.config["SQLALCHEMY_DATABASE_URI"]).items():
        app.config.setdefault("SQLALCHEMY_ENGINE_OPTIONS", {}).setdefault(name, value)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = config.instance_secret(app)
    if isinstance(app.config.get("TRUSTED_HOSTS"), str):  # FLASK_TRUSTED_HOSTS=a.org,b.org
        app.config["TRUSTED_HOSTS"] = [h.strip() for h in app.config["TRUSTED_HOSTS"].split(",")]
    app.config["CACHE_TYPE"] = config.cache_type(app)
    if app.config["PREFERRED_URL_SCHEME"] == "https":
        app.config["SESSION_COOKIE_SECURE"] = True

    register_extensions(app)
    register_blueprints(app)
    register_error_pages(app)
    register_page_helpers(app)
    register_commands(app)
    register_ahead_of_flask(app)
    register_proxy_fix(app)
    return app


def register_extensions(app: Flask) -> None:
    """Bind the extension objects to this app."""
    from scorekeeper.http import cache as cache_module
    from scorekeeper.http import languages, sessions
    from scorekeeper.store import (
        models,  # noqa: F401  (models must be known to migrations)
        postgresql,
        sqlite,
        versions,
    )
    from scorekeeper.web import i18n

    sessions.init_app(app)
    db.init_app(app)
    sqlite.init_app(app)
    postgresql.init_app(app)
    versions.init_app(app)
    migrate.init_app(app, db, directory=str(Path(app.root_path).parent / "migrations"))
    csrf.init_app(app)
    babel.init_app(app, locale_selector=languages.select_locale)
    i18n.init_app(app)
    limiter.init_app(app)
    cache.init_app(app)
    cache_module.init_app(app)  # before Flask-Compress: its conditional pass runs after it
    # Public answers keep their compressed copies with the pages (scorekeeper/http/cache.py).
    app.config.setdefault("COMPRESS_CACHE_KEY", cache_module.compressed_key)
    app.config.setdefault("COMPRESS_CACHE_BACKEND", cache_module.CompressedCopies)
    compress.init_app(app)


def register_blueprints(app: Flask) -> None:
    """Register one blueprint per area: the JSON API (bearer tokens, no CSRF), then the pages."""
    from scorekeeper.api import games as api_games
    from scorekeeper.api import tables as api_tables
    from scorekeeper.web import games, i18n, install, live, offline, rules, screen, sharing, tables

    for bp in (api_games.bp, api_tables.bp):
        app.register_blueprint(bp)
        csrf.exempt(bp)
    for bp in (
        games.bp,
        sharing.bp,
        live.bp,
        screen.bp,
        tables.bp,
        rules.bp,
        install.bp,
        offline.bp,
        i18n.bp,
    ):
        app.register_blueprint(bp)


def register_error_pages(app: Flask) -> None:
    """Answer errors as JSON under /api and with the app's own pages everywhere else."""
    from scorekeeper.api import errors as api_errors
    from scorekeeper.web import errors

    api_errors.init_app(app)
    errors.init_app(app)


def register_page_helpers(app: Flask) -> None:
    """Give the templates their helpers and every response its security headers."""
    from scorekeeper.http import security
    from scorekeeper.web import changes, charts, game_page

    changes.init_app(app)
    game_page.init_app(app)
    charts.init_app(app)
    security.init_app(app)


def register_ahead_of_flask(app: Flask) -> None:
    """Serve the static files ahead of Flask (hashed, precompressed); refuse other mount
    prefixes and schemes before anything (inside ProxyFix, which wraps the app later)."""
    from scorekeeper.http import assets, mount, security

    # Of the security headers, those that mean something for a script or a style: the
    # policy and the framing rules are a document's, and would cost every file 450 bytes.
    meant = {"X-Content-Type-Options", "Strict-Transport-Security"}
    kept = [(name, value) for name, value in security.headers(app.config) if name in meant]
    assets.init_app(app, headers=kept)
    mount.init_app(app)


def register_commands(app: Flask) -> None:
    """Add the export, import and record commands to `flask`."""
    from scorekeeper import cli

    cli.init_app(app)


def register_proxy_fix(app: Flask) -> None:
    """Trust one reverse proxy's X-Forwarded-* headers when told the app sits behind one."""
    if app.config["BEHIND_PROXY"]:
        from werkzeug.middleware.proxy_fix import ProxyFix

        # Wrapping the method is how Flask's docs mount ProxyFix; mypy sees a method replaced.
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1)  # type: ignore[method-assign]
