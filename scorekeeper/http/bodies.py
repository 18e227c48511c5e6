"""Request bodies over the size limit: refused with 413, never cut short and used.

A body sent without a length (chunked) is read only up to the limit by Werkzeug, which
then stops without an error: the form would be parsed from what arrived. Reading one byte
more tells a body that fits from one that was too large.
"""

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from flask import abort, current_app, request

BODY_METHODS = frozenset(("POST", "PUT", "PATCH", "DELETE"))
"""The methods whose body a view reads; GET, HEAD and OPTIONS views never read one."""

View = TypeVar("View", bound=Callable[..., object])

_BODY_LIMITS: dict[Callable[..., object], int] = {}
"""The views that take larger bodies than MAX_CONTENT_LENGTH (`allow_body`), with their limit."""


def sent_no_body() -> bool:
    """Return whether the request plainly has no body to measure: a method whose body no
    view reads, sent without one."""
    return request.method not in BODY_METHODS and has_no_body(request.environ)


def has_no_body(environ: Mapping[str, Any]) -> bool:
    """Return whether a request, as its WSGI environ says, was sent without a body.

    Neither a length above zero nor a transfer coding: HTTP/1.1 has no other way to send a
    body, and servers then pass none on. The environ is read as sent: Werkzeug's parsed
    headers cost more here, and the layer ahead of Flask has no request object.
    """
    return (
        environ.get("CONTENT_LENGTH", "") in ("", "0") and "HTTP_TRANSFER_ENCODING" not in environ
    )


def chunked_too_large(limit: int | None) -> bool:
    """Return whether a body without Content-Length is larger than `limit`; reads it once."""
    if limit is None or request.content_length is not None:
        return False
    if request.method not in BODY_METHODS:
        return False
    data = request.get_data(cache=True)
    if len(data) < limit:
        return False
    stream = request.environ.get("wsgi.input")
    return stream is not None and bool(stream.read(1))


def allow_body(limit: int) -> Callable[[View], View]:
    """Let a view take bodies up to `limit` bytes instead of the app's MAX_CONTENT_LENGTH."""

    def decorate(view: View) -> View:
        _BODY_LIMITS[view] = limit
        return view

    return decorate


def refuse_oversized_body() -> None:
    """Answer 413 for a body over its view's limit, before any view reads it (pages only)."""
    if request.method not in BODY_METHODS:
        return  # nothing will read it: skip the view's limit and the length checks
    view = current_app.view_functions.get(request.endpoint or "")
    limit = None if view is None else _BODY_LIMITS.get(view)
    if limit is not None:
        request.max_content_length = limit
    if chunked_too_large(request.max_content_length):
        abort(413)
