"""Extension objects, created unbound and bound to the app in the factory."""

from typing import TYPE_CHECKING

from flask_babel import Babel
from flask_caching import Cache
from flask_compress import Compress
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """Declarative base shared by every model."""


class RouteLimiter(Limiter):
    """Flask-Limiter, leaving alone the requests no limit applies to.

    Every limit of the app decorates its view (scorekeeper/ratelimits.py), and the decorator
    checks it when the view is called. Flask-Limiter also looks at every request before its
    view, for limits that apply app-wide (default, application, blueprint, meta and fallback
    limits): with none of them set, that pass finds nothing, at a cost of about a sixth of a
    cached game page's time. It runs only when one of them is set (by ``RATELIMIT_DEFAULT``,
    say).
    """

    def _check_request_limit(
        self, callable_name: str | None = None, in_middleware: bool = True
    ) -> None:
        if in_middleware and not self._has_app_wide_limits():
            return
        super()._check_request_limit(callable_name, in_middleware)

    def _has_app_wide_limits(self) -> bool:
        manager = self.limit_manager
        return bool(
            manager._application_limits
            or manager._default_limits
            or manager._blueprint_limits
            or self._meta_limits
            or self._in_memory_fallback_enabled
        )


db = SQLAlchemy(model_class=Base)

if TYPE_CHECKING:
    Model = Base
    """What models derive from: Flask-SQLAlchemy's ``db.Model``, typed as its base."""
else:
    Model = db.Model
migrate = Migrate()
csrf = CSRFProtect()
babel = Babel()
limiter = RouteLimiter(key_func=get_remote_address)
cache = Cache()
compress = Compress()
