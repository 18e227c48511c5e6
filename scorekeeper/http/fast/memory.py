"""The in-process cache of pages and rows: cachetools' time-aware LRU behind Flask-Caching.

Flask-Caching's own in-process cache (cachelib's SimpleCache) pickles every value, and once
it holds its threshold of entries, each new one makes it scan every entry for the expired
and sort them all to drop the oldest: with the 30,000 rows a worker keeps, every row
made then stalls the worker for milliseconds, and every phone waiting on it with it.
cachetools' TLRUCache drops the least recently used entry (or an expired one) in constant
time, and keeps values as they are: what is kept is never changed in place (pages are
bytes and header lists copied on the way out, rows text).

Named in ``CACHE_TYPE`` as ``scorekeeper.http.fast.memory.MemoryCache``, sized by
``CACHE_THRESHOLD`` and timed by ``CACHE_DEFAULT_TIMEOUT`` like SimpleCache.
"""

import math
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from cachetools import TLRUCache
from flask import Flask
from flask_caching.backends.base import BaseCache


class MemoryCache(BaseCache):
    """A Flask-Caching backend in this process's memory, least recently used dropped first.

    Safe to share between threads (a lock guards every call) and greenlets.
    """

    def __init__(
        self,
        threshold: int = 500,
        default_timeout: int = 300,
        ignore_delete_many_errors: bool = False,
        timer: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(default_timeout, ignore_delete_many_errors)
        self._timer = timer
        self._entries: TLRUCache[str, tuple[float, Any]] = TLRUCache(
            maxsize=threshold, ttu=_expiry, timer=timer
        )
        self._lock = threading.Lock()

    @classmethod
    def factory(
        cls, app: Flask, config: dict[str, Any], args: list[Any], kwargs: dict[str, Any]
    ) -> "MemoryCache":
        kwargs.update(threshold=config["CACHE_THRESHOLD"])
        return cls(*args, **kwargs)

    def _expires(self, timeout: int | timedelta | None) -> float:
        if timeout is None:
            timeout = self.default_timeout
        # As Flask-Caching counts a timeout: a timedelta in whole seconds, rounded up.
        seconds = math.ceil(timeout.total_seconds()) if isinstance(timeout, timedelta) else timeout
        return math.inf if seconds == 0 else self._timer() + seconds

    def get(self, key: str) -> Any:
        with self._lock:
            entry = self._entries.get(key)
        return None if entry is None else entry[1]

    def set(self, key: str, value: Any, timeout: int | timedelta | None = None) -> bool:
        expires = self._expires(timeout)
        if expires <= self._timer():  # a timeout below zero: gone at once
            self.delete(key)
            return True
        with self._lock:
            self._entries[key] = (expires, value)
        return True

    def add(self, key: str, value: Any, timeout: int | timedelta | None = None) -> bool:
        with self._lock:
            if key in self._entries:
                return False
            self._entries[key] = (self._expires(timeout), value)
        return True

    def delete(self, key: str) -> bool:
        with self._lock:
            return self._entries.pop(key, None) is not None

    def has(self, key: str) -> bool:
        with self._lock:
            return key in self._entries

    def clear(self) -> bool:
        with self._lock:
            self._entries.clear()
        return True

    def kept_keys(self) -> list[str]:
        """Return the keys of the entries kept now."""
        with self._lock:
            self._entries.expire()
            return list(self._entries.keys())

    def __len__(self) -> int:
        with self._lock:
            self._entries.expire()
            return len(self._entries)


def _expiry(key: str, entry: tuple[float, Any], now: float) -> float:
    """Return when an entry expires (cachetools asks it of every entry set)."""
    return entry[0]
