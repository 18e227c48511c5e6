"""A kept answer compressed once: beside it in the cache, under its key and the algorithm.

Every phone accepts brotli or gzip, and compressing a 40 KB page again for each costs
a millisecond, more than the rest of a cache hit. A kept answer the same for every
browser (a viewer's page, the live parts, the API's document) is compressed once per key
and algorithm and kept beside it; the layer ahead of Flask sends that copy too. The
algorithm is the one Flask-Compress would choose (werkzeug's parser of Accept-Encoding,
``COMPRESS_ALGORITHM``'s order on a tie), made by the ``brotli`` and ``gzip`` modules at
Flask-Compress's levels. Without the fast path Flask-Compress compresses every answer.
"""

import gzip
from collections.abc import Callable, Mapping
from typing import Any

import brotli
from flask import Flask, Response, current_app, request
from werkzeug.http import parse_accept_header, parse_options_header

from scorekeeper.extensions import cache


def encoded(stored: dict, cache_key: str) -> Response | None:
    """Return the stored answer compressed as this browser accepts, None if it is not.

    Every phone accepts brotli or gzip, and compressing a 40 KB page again for each costs
    a millisecond; the compressed body is kept beside the page, under its key and the
    algorithm, and made with Flask-Compress's settings (`compressed`).
    """
    app = current_app
    algorithm = compressed_as(app, stored, request.headers.get("Accept-Encoding"))
    if not cache_key or algorithm is None:
        return None
    data = cache.get(variant_key(cache_key, algorithm))
    if data is None:
        data = compressed(app, stored["body"], algorithm)
        cache.set(variant_key(cache_key, algorithm), data)
    # With Flask-Compress's headers: the encoding, and a strong ETag marked with it.
    response = app.response_class(data, stored["status"], stored["headers"])
    response.headers["Content-Encoding"] = algorithm
    etag, weak = response.get_etag()
    if etag and not weak:
        response.set_etag(f"{etag}:{algorithm}")
    if app.config["COMPRESS_EVALUATE_CONDITIONAL_REQUEST"] and request.method in ("GET", "HEAD"):
        response.make_conditional(request)
    return response


def compressed_as(app: Flask, stored: dict, accepted: str | None) -> str | None:
    """Return the algorithm the stored answer goes out compressed with, None to send it as is.

    Compressed as Flask-Compress compresses the app's other answers: a 200 of one of its
    types and at least its smallest size, with the algorithm of ``COMPRESS_ALGORITHM``
    the browser accepts with the highest quality (the first of them on a tie).
    """
    config = app.config
    if (
        not accepted
        or stored["status"] != 200
        or len(stored["body"]) < config["COMPRESS_MIN_SIZE"]
        or _mimetype(stored) not in config["COMPRESS_MIMETYPES"]
    ):
        return None
    offered = [name for name in _algorithms(config) if name in ENCODERS]
    chosen = parse_accept_header(accepted).best_match([*offered, "identity"])
    return None if chosen in (None, "identity") else chosen


def compressed(app: Flask, body: bytes, algorithm: str) -> bytes:
    """Return the body compressed with the algorithm, at Flask-Compress's level for it."""
    return ENCODERS[algorithm](app.config, body)


ENCODERS: dict[str, Callable[[Mapping[str, Any], bytes], bytes]] = {
    "br": lambda config, body: brotli.compress(
        body,
        mode=config["COMPRESS_BR_MODE"],
        quality=config["COMPRESS_BR_LEVEL"],
        lgwin=config["COMPRESS_BR_WINDOW"],
        lgblock=config["COMPRESS_BR_BLOCK"],
    ),
    "gzip": lambda config, body: gzip.compress(body, config["COMPRESS_LEVEL"]),
}
"""How each algorithm a kept answer may go out in is made, from Flask-Compress's settings."""


def _algorithms(config: Mapping[str, Any]) -> list[str]:
    """Return ``COMPRESS_ALGORITHM`` as a list (Flask-Compress takes a list or a string)."""
    setting = config["COMPRESS_ALGORITHM"]
    if isinstance(setting, str):
        return [name.strip() for name in setting.split(",")]
    return list(setting)


def variant_key(cache_key: str, algorithm: str) -> str:
    """Return the key the answer's body compressed with the algorithm is kept under."""
    return f"{cache_key}|{algorithm}"


def _mimetype(stored: dict) -> str:
    content_type = next((v for k, v in stored["headers"] if k == "Content-Type"), "")
    return parse_options_header(content_type)[0]
