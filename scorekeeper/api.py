"""The JSON API, version 1: games, deals and rulesets (see docs/api.md)."""

from __future__ import annotations

import json
import re
from typing import Any

from flask import Blueprint, current_app, request, url_for
from werkzeug.exceptions import HTTPException, MethodNotAllowed, RequestEntityTooLarge

from scorekeeper import engine, store
from scorekeeper.extensions import db

bp = Blueprint("api", __name__, url_prefix="/api/v1")

GAME_FIELDS = ("ruleset", "players", "first_dealer", "target", "house_rules")
# A too-large body is read and thrown away up to this much, so the client sees the 413
# instead of a connection reset; beyond it the connection is simply closed.
DRAIN_LIMIT = 1024 * 1024
DEAL_NUMBER = re.compile(r"[0-9]{1,9}")

HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    422: "invalid",
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
    ):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.fields = fields or {}
        self.headers = headers or {}

    def response(self):
        """Return the error as a JSON response."""
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.fields:
            error["fields"] = self.fields
        return json_response({"error": error}, self.status, self.headers)


def json_response(document: Any, status: int = 200, headers: dict[str, str] | None = None):
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


# ---------------------------------------------------------------- checks before the views


def _is_api(path: str) -> bool:
    return path == bp.url_prefix or path.startswith(bp.url_prefix + "/")


@bp.before_app_request
def _check_size_and_route():
    """Answer the checks that come before any view: body size (413), unknown URL or method.

    Registered app-wide because a request whose URL matches no route has no blueprint,
    and the body limit comes first in the API's order of checks.
    """
    if not _is_api(request.path):
        return None
    try:
        data = request.get_data(cache=True)
    except RequestEntityTooLarge:
        return _too_large()
    if request.content_length is None and len(data) >= current_app.config["MAX_CONTENT_LENGTH"]:
        # A body without a length (chunked) is cut at the limit without an error; one more
        # byte after the limit means it was too large.
        stream = request.environ.get("wsgi.input")
        if stream is not None and stream.read(1):
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


def _too_large():
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


def _not_found(message: str):
    return ApiError(404, "not_found", message).response()


# ---------------------------------------------------------------- error answers


@bp.errorhandler(ApiError)
def api_error(error: ApiError):
    db.session.rollback()
    return error.response()


@bp.errorhandler(engine.RuleViolation)
def rule_violation(error: engine.RuleViolation):
    db.session.rollback()
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
    message = whole[0] if whole else error.message
    if f"deal {error.number}" not in message.lower():
        message = f"After this correction deal {error.number} no longer fits: {message}"
    return message


@bp.errorhandler(store.NumberConflict)
def _number_conflict(error: store.NumberConflict):
    db.session.rollback()
    return ApiError(409, "conflict", str(error), {"number": [str(error)]}).response()


@bp.errorhandler(store.NotLastDeal)
def _not_last_deal(error: store.NotLastDeal):
    db.session.rollback()
    return ApiError(409, "conflict", str(error)).response()


@bp.errorhandler(store.NoSuchDeal)
def _no_such_deal(error: store.NoSuchDeal):
    db.session.rollback()
    return _not_found(str(error))


@bp.errorhandler(HTTPException)
def http_error(error: HTTPException):
    db.session.rollback()
    if isinstance(error, RequestEntityTooLarge):
        return _too_large()
    status = error.code or 500
    code = HTTP_CODES.get(status, "internal_error" if status >= 500 else "bad_request")
    message = error.description or error.name
    return ApiError(status, code, message).response()


# ---------------------------------------------------------------- helpers for the views


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


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def _game_or_404(game_id: str, *, deals: bool = True):
    game = store.get_game(game_id, deals=deals)
    if game is None:
        raise ApiError(404, "not_found", "There is no game with this id.")
    return game


def require_bearer(check, what: str) -> None:
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


def _require_edit_token(game) -> None:
    """Answer 401 without a bearer token and 403 with the wrong one."""
    require_bearer(lambda token: store.check_edit_token(game, token), "game")


def _deal_number(text: str) -> int:
    """Return the deal number from the URL; anything else names no deal."""
    if not DEAL_NUMBER.fullmatch(text):
        raise ApiError(404, "not_found", f"There is no deal {text!r} in this game.")
    return int(text)


def _deal_or_404(game, number: int):
    deal = store.get_deal(game, number)
    if deal is None:
        raise ApiError(404, "not_found", f"This game has no deal {number}.")
    return deal


def _device() -> str | None:
    """Return the label of the device making a change, as the client gave it."""
    return request.headers.get("X-Device") or "api"


def _deal_url(game_id: str, number: int) -> str:
    return url_for("api.deal", game_id=game_id, number=str(number))


# ---------------------------------------------------------------- views


@bp.get("/rulesets")
def list_rulesets():
    """List every ruleset with its players, target and house rules."""
    return json_response([ruleset.describe() for ruleset in engine.rulesets()])


@bp.post("/games")
def create_game():
    """Start a game; answer its document and its edit token."""
    body = json_body()
    settings = {name: body.get(name) for name in GAME_FIELDS}
    unknown = sorted(set(body) - set(GAME_FIELDS))
    if unknown:
        problems = {name: [f"There is no setting {name!r}."] for name in unknown}
        try:
            first_dealer = 0 if settings["first_dealer"] is None else settings["first_dealer"]
            engine.configure(**{**settings, "first_dealer": first_dealer})
        except engine.WrongType:
            raise
        except engine.RuleViolation as error:
            problems.update(error.fields)
        raise ApiError(422, "invalid", problems[unknown[0]][0], problems)
    game, token = store.create_game(**settings)
    document = store.game_document(game)
    document["edit_token"] = token
    return json_response(document, 201, {"Location": url_for("api.game", game_id=game.id)})


@bp.get("/games/<game_id>", endpoint="game")
def read_game(game_id: str):
    """Answer the game document, every deal included."""
    return json_response(store.game_document(_game_or_404(game_id)))


@bp.get("/games/<game_id>/deals", endpoint="deals")
def list_deals(game_id: str):
    """List the game's deal documents, oldest first."""
    return json_response([store.deal_document(d) for d in _game_or_404(game_id).deals])


@bp.post("/games/<game_id>/deals")
def add_deal(game_id: str):
    """Store the next deal; answer its document."""
    game = _game_or_404(game_id, deals=False)
    _require_edit_token(game)
    body = json_body()
    deal = store.add_deal(game, body, device=_device())
    return json_response(
        store.deal_document(deal), 201, {"Location": _deal_url(game.id, deal.number)}
    )


@bp.get("/games/<game_id>/deals/<number>", endpoint="deal")
def read_deal(game_id: str, number: str):
    """Answer one deal's document."""
    game = _game_or_404(game_id, deals=False)
    return json_response(store.deal_document(_deal_or_404(game, _deal_number(number))))


@bp.put("/games/<game_id>/deals/<number>")
def correct_deal(game_id: str, number: str):
    """Correct a deal; every later deal and the outcome are worked out again."""
    game = _game_or_404(game_id, deals=False)
    _require_edit_token(game)
    deal_number = _deal_number(number)
    _deal_or_404(game, deal_number)
    body = json_body()
    deal = store.correct_deal(game, deal_number, body, device=_device())
    return json_response(store.deal_document(deal))


@bp.delete("/games/<game_id>/deals/<number>")
def undo_deal(game_id: str, number: str):
    """Undo the last deal."""
    game = _game_or_404(game_id, deals=False)
    _require_edit_token(game)
    deal_number = _deal_number(number)
    _deal_or_404(game, deal_number)
    store.undo_last_deal(game, deal_number, device=_device())
    return current_app.response_class(status=204)
