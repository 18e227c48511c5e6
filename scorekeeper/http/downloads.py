"""Export files as downloads: the HTTP answer around what `store.exchange` writes.

The store makes the export's text (JSON or CSV); how it is handed to a browser or an API
client, with its type and file name, is HTTP, shared by the pages and the API.

A table's export is streamed: the store yields it a batch of games at a time, each batch
read in its own short transaction, and the answer sends each batch as it comes (a
10,000-game table never sits whole in memory). Flask-Compress leaves streams alone
(``COMPRESS_STREAMS`` is off for the static files' sake), so a stream is gzip-compressed
here, with the standard library's zlib, when the client accepts gzip. Between batches
the greenlet lets the worker's other requests run (`time.sleep(0)` is gevent's
cooperative yield under its worker), so a download never holds the worker.
"""

import time
import zlib
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from flask import Response, current_app, request, stream_with_context

from scorekeeper.store import exchange

GZIP_LEVEL = 5
"""zlib's level for a streamed export: cheap, and CSV and JSON shrink ten times anyway."""
GZIP_WINDOW = 16 + zlib.MAX_WBITS
"""zlib's window bits asking for the gzip format (header and trailer)."""


def csv_response(text: str, filename: str) -> Response:
    """Return CSV text as a download."""
    response = current_app.response_class(text, mimetype="text/csv")
    response.headers["Content-Disposition"] = _disposition(filename)
    return response


def json_download(document: Mapping[str, Any], filename: str) -> Response:
    """Return an export document as a JSON download."""
    response = current_app.response_class(exchange.dumps(document), mimetype="application/json")
    response.headers["Content-Disposition"] = _disposition(filename)
    return response


def streamed_download(chunks: Iterable[str], mimetype: str, filename: str) -> Response:
    """Return text made a piece at a time as a download, sent as it is made (gzip if accepted).

    The request's context stays open until the last piece is sent (`stream_with_context`):
    the store reads the database as the pieces are asked for.
    """
    gzip = request.accept_encodings["gzip"] > 0
    body = _gzipped(chunks) if gzip else _encoded(chunks)
    response = current_app.response_class(stream_with_context(body), mimetype=mimetype)
    response.headers["Content-Disposition"] = _disposition(filename)
    response.vary.add("Accept-Encoding")
    if gzip:
        response.headers["Content-Encoding"] = "gzip"
    return response


def _encoded(chunks: Iterable[str]) -> Iterator[bytes]:
    """Yield each piece as UTF-8, letting the worker's other requests run in between."""
    for chunk in chunks:
        yield chunk.encode()
        time.sleep(0)


def _gzipped(chunks: Iterable[str]) -> Iterator[bytes]:
    """Yield the pieces compressed as one gzip stream, as soon as zlib hands out bytes."""
    compressor = zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, GZIP_WINDOW)
    first = True
    for chunk in _encoded(chunks):
        packed = compressor.compress(chunk)
        if first:  # the head goes out at once: the download has begun
            packed += compressor.flush(zlib.Z_SYNC_FLUSH)
            first = False
        if packed:
            yield packed
    yield compressor.flush()


def _disposition(filename: str) -> str:
    safe = "".join(c if c.isalnum() or c in "-_." else "-" for c in filename) or "export"
    return f'attachment; filename="{safe}"'
