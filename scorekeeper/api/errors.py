"""The API's one error shape, its JSON answers, and the checks that answer with them.

Every error is ``{"error": {"code", "message", "fields"}}`` and changes nothing: each
handler rolls the session back. ``register_handlers`` attaches the handlers to an API
blueprint; ``init_app`` adds the checks that come before any view (body size, unknown
address or method), which must run app-wide because an unknown address has no blueprint.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, NoReturn

from flask import Blueprint, Flask, Response, current_app, request
from flask_limiter.errors import RateLimitExceeded
from sqlalchemy.exc import OperationalError
from werkzeug.exceptions import HTTPException, MethodNotAllowed, RequestEntityTooLarge

from scorekeeper import engine
from scorekeeper.http import API_PREFIX, bodies, ratelimits
from scorekeeper.store import busy, games, lookup

# A too-large body is read and thrown away up to this much, so the client sees the 413
# instead of a connection reset; beyond it the connection is simply closed.
DRAIN_LIMIT = 1024 * 1024

HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    422: "invalid",
    429: "too_many_requests",
    503: "busy",
}


class ApiError(Exception):
    """An error answer in the API's one error shape."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        fields: dict[str, list[str]] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.fields = fields or {}
        self.headers = headers or {}

    def response(self) -> Response:
        """Return the error as a JSON response."""
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.fields:
            error["fields"] = self.fields
        return json_response({"error": error}, self.status, self.headers)


def json_response(
    document: Any, status: int = 200, headers: dict[str, str] | None = None
) -> Response:
    """Return `document` as JSON, keys in the order built (the reference's order)."""
    body = json.dumps(document, ensure_ascii=False, separators=(", ", ": ")) + "\n"
    try:
        body.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate sent back in a message: escape it
        body = json.dumps(document, separators=(", ", ": ")) + "\n"
    response = current_app.response_class(body, status=status, mimetype="application/json")
    response.headers.update(headers or {})
    response.headers.setdefault("Cache-Control", "no-store")
    return response


def is_api_path(path: str) -> bool:
    """Return whether an address belongs to the API (and so answers errors as JSON)."""
    return path == API_PREFIX or path.startswith(API_PREFIX + "/")


# ---------------------------------------------------------------- checks before the views


def init_app(app: Flask) -> None:
    """Answer the API's checks that come before any view, for every API address."""
    app.before_request(_check_size_and_route)


def _check_size_and_route() -> Response | None:
    """Answer the checks that come before any view: body size (413), unknown URL or method.

    Registered app-wide because a request whose URL matches no route has no blueprint,
    and the body limit comes first in the API's order of checks.
    """
    if not is_api_path(request.path):
        return None
    try:
        if not bodies.sent_no_body():  # a read's document has nothing to measure
            request.get_data(cache=True)
            if bodies.chunked_too_large(current_app.config["MAX_CONTENT_LENGTH"]):
                return _too_large()
    except RequestEntityTooLarge:
        return _too_large()
    error = request.routing_exception
    if isinstance(error, MethodNotAllowed):
        allowed = ", ".join(sorted(error.valid_methods or ()))
        return ApiError(
            405,
            "method_not_allowed",
            f"{request.method} is not allowed here; use {allowed}.",
            headers={"Allow": allowed},
        ).response()
    if isinstance(error, HTTPException) and error.code == 404:
        return _not_found("There is nothing at this address in the API.")
    return None


def _too_large() -> Response:
    """Answer 413, after reading what is left of the body so the client hears the answer."""
    stream = request.environ.get("wsgi.input")
    remaining = request.content_length
    # Without a length, only a server that terminates the stream itself is safe to read.
    if stream is not None and (remaining is not None or "wsgi.input_terminated" in request.environ):
        drained = 0
        while drained < DRAIN_LIMIT and (remaining is None or drained < remaining):
            chunk = stream.read(65536)
            if not chunk:
                break
            drained += len(chunk)
    limit = current_app.config["MAX_CONTENT_LENGTH"]
    return ApiError(
        413,
        "too_large",
        f"The request body is larger than {limit // 1024} KiB.",
        headers={"Connection": "close"},
    ).response()


def _not_found(message: str) -> Response:
    return ApiError(404, "not_found", message).response()


# ---------------------------------------------------------------- error answers


def register_handlers(bp: Blueprint) -> None:
    """Answer every error of this blueprint's views in the API's shape."""
    bp.register_error_handler(ApiError, api_error)
    bp.register_error_handler(engine.RuleViolation, rule_violation)
    bp.register_error_handler(games.NumberConflict, number_conflict)
    bp.register_error_handler(games.NotLastDeal, not_last_deal)
    bp.register_error_handler(games.NoSuchDeal, no_such_deal)
    bp.register_error_handler(lookup.Missing, missing)
    bp.register_error_handler(games.GameFull, game_full)
    bp.register_error_handler(OperationalError, database_error)
    bp.register_error_handler(HTTPException, http_error)


def api_error(error: ApiError) -> Response:
    """Answer an ApiError as it is."""
    busy.end_session()
    return error.response()


def rule_violation(error: engine.RuleViolation) -> Response:
    """Answer the engine's refusal: 400 wrong type, 409 game over or conflict, else 422."""
    busy.end_session()
    if isinstance(error, engine.WrongType):
        status, code = 400, "bad_request"
    elif isinstance(error, engine.GameOver):
        status, code = 409, "game_over"
    elif isinstance(error, engine.CorrectionConflict):
        return ApiError(409, "conflict", _conflict_message(error)).response()
    else:
        status, code = 422, "invalid"
    return ApiError(status, code, error.message, error.fields).response()


def _conflict_message(error: engine.CorrectionConflict) -> str:
    """Return a sentence naming the later deal that cannot survive the correction.

    Its field problems concern that later deal, not this request, so they are not sent
    as `fields`.
    """
    whole = error.problems.get(None)
    message = str(whole[0]) if whole else error.message
    if f"deal {error.number}" not in message.lower():
        message = f"After this correction deal {error.number} no longer fits: {message}"
    return message


def number_conflict(error: games.NumberConflict) -> Response:
    """Answer 409: the entry is not for the next deal."""
    busy.end_session()
    return ApiError(409, "conflict", str(error), {"number": [str(error)]}).response()


def not_last_deal(error: games.NotLastDeal) -> Response:
    """Answer 409: only the last deal can be undone."""
    busy.end_session()
    return ApiError(409, "conflict", str(error)).response()


def no_such_deal(error: games.NoSuchDeal) -> Response:
    """Answer 404 for a deal the game does not have."""
    busy.end_session()
    return _not_found(str(error))


def missing(error: lookup.Missing) -> Response:
    """Answer 404 for a game, deal or table the store does not have, in the store's words."""
    busy.end_session()
    return _not_found(str(error))


def game_full(error: games.GameFull) -> Response:
    """Answer 409: the game holds as many deals or changes as a game may."""
    busy.end_session()
    return ApiError(409, "game_full", str(error)).response()


def database_error(error: OperationalError) -> Response:
    """Answer 503 with Retry-After when the database was busy or out of reach (a restart);
    any other failure is a 500."""
    busy.end_session()
    if busy.is_busy(error):
        return busy_response()
    if busy.is_lost(error):
        current_app.logger.warning("Database out of reach: %s", error.orig)
        return busy_response(busy.LOST_MESSAGE)
    current_app.logger.error("Database error", exc_info=error)
    return ApiError(500, "internal_error", "The server could not answer this time.").response()


def busy_response(message: str = busy.MESSAGE) -> Response:
    """Return the 503 a busy database gets: nothing changed, send the same request again."""
    headers = {"Retry-After": str(busy.RETRY_AFTER)}
    return ApiError(503, "busy", message, headers=headers).response()


def http_error(error: HTTPException) -> Response:
    """Answer any HTTP error (a 405, a 500 â¦) in the API's shape."""
    busy.end_session()
    if isinstance(error, RequestEntityTooLarge):
        return _too_large()
    status = error.code or 500
    code = HTTP_CODES.get(status, "internal_error" if status >= 500 else "bad_request")
    message = error.description or error.name
    headers: dict[str, str] = {}
    if isinstance(error, RateLimitExceeded):
        headers["Retry-After"] = ratelimits.retry_after(error)
    return ApiError(status, code, message, headers=headers).response()


# ---------------------------------------------------------------- checks the views call


def json_body() -> dict[str, Any]:
    """Return the body parsed as a JSON object, whatever the Content-Type, or answer 400."""
    data = request.get_data(cache=True)
    try:
        value = json.loads(data, parse_constant=_refuse_constant)
    except (ValueError, RecursionError):
        raise ApiError(400, "bad_request", "The body is not valid JSON.") from None
    if not isinstance(value, dict):
        raise ApiError(400, "bad_request", "The body must be a JSON object.")
    return value


def _refuse_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not JSON")


def require_bearer(check: Callable[[str], bool], what: str) -> None:
    """Answer 401 without a bearer token and 403 when `check(token)` refuses it.

    `what` names the thing the token edits, for the messages ("game", "table").
    """
    scheme, _, token = request.headers.get("Authorization", "").strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise ApiError(
            401,
            "unauthorized",
            f"Send the {what}'s edit token as 'Authorization: Bearer <edit_token>'.",
            headers={"WWW-Authenticate": 'Bearer realm="scorekeeper"'},
        )
    if not check(token):
        raise ApiError(403, "forbidden", f"This edit token does not belong to this {what}.")
