"""The JSON API, version 1: games, deals and rulesets (see docs/api.md)."""

from __future__ import annotations

import re

from flask import Blueprint, Response, current_app, request, url_for

from scorekeeper import engine
from scorekeeper.api.errors import (
    ApiError,
    json_body,
    json_response,
    register_handlers,
    require_bearer,
)
from scorekeeper.http import API_V1, cache, devices, ratelimits
from scorekeeper.store import games, tables
from scorekeeper.store.lookup import require_deal, require_game, require_stamp
from scorekeeper.store.models import Game

bp = Blueprint("api", __name__, url_prefix=API_V1)
register_handlers(bp)

DEAL_NUMBER = re.compile(r"[0-9]{1,9}")


def _require_edit_token(game: Game) -> None:
    """Answer 401 without a bearer token and 403 with the wrong one."""
    require_bearer(lambda token: games.check_edit_token(game, token), "game")


def _deal_number(text: str) -> int:
    """Return the deal number from the URL; anything else names no deal."""
    if not DEAL_NUMBER.fullmatch(text):
        raise ApiError(404, "not_found", f"There is no deal {text!r} in this game.")
    return int(text)


def _device() -> str:
    """Return the label of the device making a change: an API client, named as it says."""
    return devices.api_label(request.headers.get("X-Device"))


def _deal_url(game_id: str, number: int) -> str:
    return url_for("api.deal", game_id=game_id, number=str(number))


# ---------------------------------------------------------------- views


@bp.get("/rulesets")
def list_rulesets() -> Response:
    """List every ruleset with its players, target and house rules."""
    return json_response([ruleset.describe() for ruleset in engine.rulesets()])


@bp.post("/games")
@ratelimits.creating
def create_game() -> Response:
    """Start a game; answer its document and its edit token."""
    body = json_body()
    settings = {name: body.get(name) for name in games.SETTINGS}
    unknown = sorted(set(body) - set(games.SETTINGS))
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
    game, token = games.create_game(**settings)
    document = games.game_document(game)
    document["edit_token"] = token
    return json_response(document, 201, {"Location": url_for("api.game", game_id=game.id)})


@bp.post("/games/<game_id>/rematch")
@ratelimits.creating
def rematch(game_id: str) -> Response:
    """Start the game's next game once: 201 the first time, then 200 with the same game.

    Same players, seats, rules, target and table; the seat after the last dealer deals
    first. The next game keeps this game's edit token. Refused (403) at a table whose
    edit link was renewed since the game was put there.
    """
    game = require_game(game_id, deals=False)
    _require_edit_token(game)
    try:
        next_game, started = tables.rematch(game)
    except tables.TableLinkRenewed as error:
        raise ApiError(403, "forbidden", str(error)) from None
    document = games.game_document(next_game)
    headers = {"Location": url_for("api.game", game_id=next_game.id)}
    return json_response(document, 201 if started else 200, headers)


@bp.get("/games/<game_id>", endpoint="game")
def read_game(game_id: str) -> Response:
    """Answer the game document, every deal included; built once per version of the game.

    The same for every client (public, with an ETag: scorekeeper/http/cache.py).
    """
    version, _ = require_stamp(game_id)
    return cache.document(
        cache.document_key(game_id, version),
        lambda: json_response(
            games.game_document(require_game(game_id)), headers={"Cache-Control": cache.PUBLIC}
        ),
    )


@bp.get("/games/<game_id>/deals", endpoint="deals")
def list_deals(game_id: str) -> Response:
    """List the game's deal documents, oldest first."""
    return json_response([games.deal_document(d) for d in require_game(game_id).deals])


@bp.post("/games/<game_id>/deals")
@ratelimits.changing
def add_deal(game_id: str) -> Response:
    """Store the next deal; answer its document."""
    game = require_game(game_id, deals=False)
    _require_edit_token(game)
    body = json_body()
    deal = games.add_deal(game, body, device=_device())
    return json_response(
        games.deal_document(deal), 201, {"Location": _deal_url(game.id, deal.number)}
    )


@bp.get("/games/<game_id>/deals/<number>", endpoint="deal")
def read_deal(game_id: str, number: str) -> Response:
    """Answer one deal's document."""
    game = require_game(game_id, deals=False)
    return json_response(games.deal_document(require_deal(game, _deal_number(number))))


@bp.put("/games/<game_id>/deals/<number>")
@ratelimits.changing
def correct_deal(game_id: str, number: str) -> Response:
    """Correct a deal; every later deal and the outcome are worked out again."""
    game = require_game(game_id, deals=False)
    _require_edit_token(game)
    deal_number = _deal_number(number)
    require_deal(game, deal_number)
    body = json_body()
    deal = games.correct_deal(game, deal_number, body, device=_device())
    return json_response(games.deal_document(deal))


@bp.delete("/games/<game_id>/deals/<number>")
@ratelimits.changing
def undo_deal(game_id: str, number: str) -> Response:
    """Undo the last deal."""
    game = require_game(game_id, deals=False)
    _require_edit_token(game)
    deal_number = _deal_number(number)
    require_deal(game, deal_number)
    games.undo_last_deal(game, deal_number, device=_device())
    return current_app.response_class(status=204)
