"""Extension objects, created unbound and bound to the app in the factory."""

from collections.abc import Callable
from functools import partial, wraps
from typing import TYPE_CHECKING, Any

from flask import Flask, g
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


_CHECKED = "_rate_limits_checked"
"""Flag in ``g``: this request's rate limits were checked."""


class RouteLimiter(Limiter):
    """Flask-Limiter, leaving alone the requests no limit applies to.

    Every limit of the app decorates its view (scorekeeper/ratelimits.py), and the decorator
    checks it when the view is called. Flask-Limiter also looks at every request before its
    view, for limits that apply app-wide (default, application, blueprint, meta and fallback
    limits): with none of them set, that pass finds nothing, at a cost of about an eighth of
    a cached game page's time. It runs only when one of them is set (by
    ``RATELIMIT_DEFAULT``, say). Its after-request and teardown hooks, which make the
    limiter's per-request state only to read it, run only for a request whose limits were
    checked: no other has any (the limit for the headers, deductions to make after the
    answer, state to clear).
    """

    def init_app(self, app: Flask) -> None:
        super().init_app(app)
        after, teardown = app.after_request_funcs[None], app.teardown_request_funcs[None]
        after[:] = [self._if_checked(hook, passed=0) for hook in after]
        teardown[:] = [self._if_checked(hook) for hook in teardown]

    def _if_checked(self, hook: Callable, passed: int | None = None) -> Callable:
        """Return one of this limiter's hooks run only after a check (others unchanged)."""
        if isinstance(hook, partial):
            owner = hook.args[0] if hook.args else None
        else:
            owner = getattr(hook, "__self__", None)
        if owner is not self:
            return hook

        @wraps(hook)
        def when_checked(*args: Any) -> Any:
            if g.get(_CHECKED):
                return hook(*args)
            return None if passed is None else args[passed]

        return when_checked

    def _check_request_limit(
        self, callable_name: str | None = None, in_middleware: bool = True
    ) -> None:
        if in_middleware and not self._has_app_wide_limits():
            return
        g.setdefault(_CHECKED, True)
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


db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})

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
"""Rendered pages, live parts and documents (scorekeeper/web/cache.py)."""
row_cache = Cache()
"""Rendered rows of a game page (scorekeeper/web/rows.py): many more, and small."""
compress = Compress()
