"""Security headers for every response: a strict CSP and no-sniff, no-referrer, no framing."""

import functools
from collections.abc import Iterable, Mapping
from typing import Any

from flask import Flask, Response, current_app, request

from scorekeeper.http import API_PREFIX, bodies

HSTS_SECONDS = 365 * 24 * 3600
HTMX_VERSION = "2.0.11"
HTMX_FILE = f"htmx-{HTMX_VERSION}.min.js"
HTMX_CDN_URL = f"https://cdn.jsdelivr.net/npm/htmx.org@{HTMX_VERSION}/dist/htmx.min.js"
# sha384 of static/htmx-2.0.11.min.js, which is byte-identical to the npm package's dist file.
HTMX_INTEGRITY = "sha384-2OatzQy1H+Zd/IIrjr1TcuDGqLXeHhbooAyJY1KdQMKnr4LZ22k31GBLdYKHmVjg"


def init_app(app: Flask) -> None:
    """Add the security headers to every response, refuse oversized page bodies (the API
    refuses its own), and expose the htmx source to templates."""
    app.before_request(_check_page_body)
    app.after_request(_add_headers)
    app.context_processor(_htmx_context)


@functools.cache
def content_security_policy(local_only: bool) -> str:
    """Return the CSP: our own origin only, plus the one pinned htmx file unless local-only."""
    scripts = "'self'" if local_only else f"'self' {HTMX_CDN_URL}"
    return "; ".join(
        [
            "default-src 'self'",
            f"script-src {scripts}",
            "style-src 'self'",
            "img-src 'self' data:",
            "font-src 'none'",
            "connect-src 'self'",
            "worker-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        ]
    )


def _check_page_body() -> None:
    """Refuse a page's body over its limit with 413, even one sent without a length."""
    if not request.path.startswith(API_PREFIX + "/"):
        bodies.refuse_oversized_body()


_FIXED_HEADERS = (
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("X-Frame-Options", "DENY"),
)
# Served over HTTPS: browsers keep to it for a year, even when a link says http.
_HSTS = ("Strict-Transport-Security", f"max-age={HSTS_SECONDS}")


def headers(config: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Return the security headers every response carries under these settings."""
    wanted = [
        ("Content-Security-Policy", content_security_policy(config.get("HTMX_LOCAL_ONLY", False))),
        *_FIXED_HEADERS,
    ]
    if config.get("PREFERRED_URL_SCHEME") == "https":
        wanted.append(_HSTS)
    return wanted


def _add_headers(response: Response) -> Response:
    """Set the headers without overriding any a view chose itself.

    Every response passes here, so the response's header names are looked at once (not
    once per header) and the policy text is made once.
    """
    for name, value in missing(response.headers.keys(), headers(current_app.config)):
        response.headers.add(name, value)
    return response


def missing(present: Iterable[str], wanted: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """Return those of the `wanted` headers whose names are not among the `present` ones."""
    chosen = {name.lower() for name in present}
    return [(name, value) for name, value in wanted if name.lower() not in chosen]


def _htmx_context() -> dict[str, Any]:
    """Give templates the pinned htmx file, its CDN URL and integrity hash."""
    return {
        "htmx_file": HTMX_FILE,
        "htmx_cdn_url": HTMX_CDN_URL,
        "htmx_integrity": HTMX_INTEGRITY,
        "htmx_local_only": current_app.config.get("HTMX_LOCAL_ONLY", False),
    }
