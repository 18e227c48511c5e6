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


db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})

if TYPE_CHECKING:
    Model = Base
    """What models derive from: Flask-SQLAlchemy's ``db.Model``, typed as its base."""
else:
    Model = db.Model
migrate = Migrate()
csrf = CSRFProtect()
babel = Babel()
limiter = Limiter(key_func=get_remote_address)
"""Rate limits, each on the view it applies to (scorekeeper/http/ratelimits.py)."""
cache = Cache()
"""Rendered pages, live parts and documents (scorekeeper/http/cache.py)."""
compress = Compress()
