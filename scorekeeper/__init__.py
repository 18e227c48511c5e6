"""Scorekeeper: the score pad and table assistant for Five-Handed Schmier."""

import os
import secrets
from pathlib import Path

from flask import Flask

from scorekeeper.extensions import babel, csrf, db, migrate

MAX_BODY_BYTES = 64 * 1024


def create_app(test_config=None):
    """Create and configure the Flask application."""
    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder="../templates",
        static_folder="../static",
    )
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=None,
        MAX_CONTENT_LENGTH=MAX_BODY_BYTES,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        # Phones poll the scoreboard every few seconds; only a changed session is re-sent.
        SESSION_REFRESH_EACH_REQUEST=False,
        WTF_CSRF_TIME_LIMIT=None,
        HTMX_LOCAL_ONLY=False,
        PREFERRED_URL_SCHEME="http",
        BEHIND_PROXY=False,
        BABEL_DEFAULT_LOCALE="en",
        BABEL_TRANSLATION_DIRECTORIES=str(Path(__file__).parent / "translations"),
    )
    app.config.from_prefixed_env()
    app.config["SQLALCHEMY_DATABASE_URI"] = _database_url(app)
    if test_config is not None:
        app.config.update(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret(app)
    if app.config["PREFERRED_URL_SCHEME"] == "https":
        app.config["SESSION_COOKIE_SECURE"] = True

    register_extensions(app)
    register_blueprints(app)
    register_proxy_fix(app)
    return app


def register_extensions(app):
    """Bind the extension objects to this app."""
    from scorekeeper import (
        i18n,
        models,  # noqa: F401  (models must be known to migrations)
        records,  # noqa: F401  (keeps the per-seat deal records in step)
    )

    db.init_app(app)
    migrate.init_app(app, db, directory=str(Path(app.root_path).parent / "migrations"))
    csrf.init_app(app)
    babel.init_app(app, locale_selector=i18n.select_locale)


def register_blueprints(app):
    """Register one blueprint per area."""
    from scorekeeper import api, api_tables, cli, games, i18n, security, sharing, tables

    app.register_blueprint(api.bp)
    csrf.exempt(api.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(sharing.bp)
    app.register_blueprint(tables.bp)
    app.register_blueprint(api_tables.bp)
    csrf.exempt(api_tables.bp)
    app.register_blueprint(i18n.bp)
    cli.init_app(app)
    security.init_app(app)


def register_proxy_fix(app):
    """Trust one reverse proxy's X-Forwarded-* headers when told the app sits behind one."""
    if app.config["BEHIND_PROXY"]:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1)


def _database_url(app):
    """Return the SQLAlchemy URL from DATABASE_URL, or a SQLite file in the instance folder."""
    url = app.config.get("DATABASE_URL") or os.environ.get("DATABASE_URL")
    if not url:
        return "sqlite:///" + str(Path(app.instance_path) / "scorekeeper.sqlite")
    if url.startswith("postgres://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgres://")
    elif url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
    return url


def _instance_secret(app):
    """Return this installation's secret key, generating and keeping it on first start."""
    path = Path(app.instance_path) / "secret_key"
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        # Write aside, then link into place: of several workers starting at once, one wins.
        tmp = path.with_name(f".secret_key.{os.getpid()}")
        tmp.write_text(secrets.token_hex(32))
        tmp.chmod(0o600)
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass
        finally:
            tmp.unlink()
    return path.read_text().strip()
