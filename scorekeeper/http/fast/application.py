"""The application class: Flask's own, asking once per function whether it is async."""

import functools
import inspect
from collections.abc import Callable
from typing import Any

from flask import Flask


class Application(Flask):
    """Flask, remembering which of its hooks and views are coroutine functions.

    Flask asks ``inspect.iscoroutinefunction`` about every before-request, after-request
    and teardown hook and the view, on every request (a dozen a request here), though the
    answer never changes for a function.
    """

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        if _is_coroutine_function(func):
            return self.async_to_sync(func)
        return func


def _is_coroutine_function(func: Callable[..., Any]) -> bool:
    try:
        return _remembered(func)
    except TypeError:  # a callable that cannot be a dictionary key
        return inspect.iscoroutinefunction(func)


@functools.lru_cache(maxsize=256)  # bounded: one-off functions (after_this_request) pass by
def _remembered(func: Callable[..., Any]) -> bool:
    return inspect.iscoroutinefunction(func)
