"""Decide between a fragment and a whole page, the one place that reads htmx's headers."""

from typing import Any

from flask import Response, make_response, render_template, request


def wants_fragment() -> bool:
    """Return True for an htmx request that swaps part of the page.

    Boosted requests and history restores replace the whole page, so they get the page.
    """
    headers = request.headers
    return (
        headers.get("HX-Request") == "true"
        and headers.get("HX-Boosted") != "true"
        and headers.get("HX-History-Restore-Request") != "true"
    )


def render(page: str, fragment: str, status: int = 200, **context: Any) -> Response:
    """Render the fragment for htmx and the page otherwise; both vary on HX-Request."""
    template = fragment if wants_fragment() else page
    response = make_response(render_template(template, **context), status)
    response.vary.add("HX-Request")
    return response
