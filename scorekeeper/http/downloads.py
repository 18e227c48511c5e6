"""Export files as downloads: the HTTP answer around what `store.exchange` writes.

The store makes the export's text (JSON or CSV); how it is handed to a browser or an API
client, with its type and file name, is HTTP, shared by the pages and the API.
"""

from collections.abc import Mapping
from typing import Any

from flask import Response, current_app

from scorekeeper.store import exchange


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


def _disposition(filename: str) -> str:
    safe = "".join(c if c.isalnum() or c in "-_." else "-" for c in filename) or "export"
    return f'attachment; filename="{safe}"'
