"""The JSON API for tables: create one, read it, list its games, start games, merge names.

Same conventions and error shape as ``/api/v1/games`` (``scorekeeper.api.errors``);
documented in docs/tables.md.
"""

from __future__ import annotations

from flask import Blueprint, Response, request, url_for

from scorekeeper import engine
from scorekeeper.api.errors import (
    ApiError,
    json_body,
    json_response,
    register_handlers,
    require_bearer,
)
from scorekeeper.http import API_V1, downloads, params, ratelimits
from scorekeeper.store import exchange, games, stats, tables
from scorekeeper.store.lookup import require_table
from scorekeeper.store.models import CardTable

bp = Blueprint("api_tables", __name__, url_prefix=f"{API_V1}/tables")
register_handlers(bp)

TABLE_FIELDS = ("name", "players")


def _require_table_token(table: CardTable) -> None:
    """Answer 401 without a bearer token and 403 with the wrong one."""
    require_bearer(lambda token: tables.check_table_token(table, token), "table")


def _int_arg(name: str, default: int | None, lo: int, hi: int) -> int | None:
    """Return a whole-number query argument clamped to [lo, hi], or answer 400 naming it."""
    value = request.args.get(name)
    if value is None or value == "":
        return default
    if not params.is_digits(value):
        raise ApiError(
            400,
            "bad_request",
            f"{name} must be a whole number.",
            {name: [f"{name} must be a whole number."]},
        )
    return params.parse_int(value, default, lo, hi)


@bp.post("")
@ratelimits.creating
def create_table() -> Response:
    """Create a table; answer its document and its edit token."""
    body = json_body()
    unknown = sorted(set(body) - set(TABLE_FIELDS))
    if unknown:
        problems = {name: [f"There is no setting {name!r}."] for name in unknown}
        raise ApiError(422, "invalid", problems[unknown[0]][0], problems)
    table, token = tables.create_table(body.get("name"), body.get("players"))
    document = tables.table_document(table)
    document["edit_token"] = token
    return json_response(
        document, 201, {"Location": url_for("api_tables.table", table_id=table.id)}
    )


@bp.get("/<table_id>", endpoint="table")
def read_table(table_id: str) -> Response:
    """Answer the table: its name and regulars with games played and won."""
    return json_response(tables.table_document(require_table(table_id)))


@bp.get("/<table_id>/games")
def list_games(table_id: str) -> Response:
    """List the table's games, newest first, a page at a time, filtered if asked."""
    table = require_table(table_id)
    outcome = request.args.get("outcome") or None
    if outcome is not None and outcome not in tables.OUTCOMES:
        message = "outcome is one of " + ", ".join(tables.OUTCOMES) + "."
        raise ApiError(400, "bad_request", message, {"outcome": [message]})
    page = tables.archive(
        table,
        page=_int_arg("page", 1, 1, params.MAX_ID) or 1,
        per_page=_int_arg("per_page", tables.PER_PAGE, 1, 100) or tables.PER_PAGE,
        player=_int_arg("player", None, 1, params.MAX_ID),
        ruleset=request.args.get("ruleset") or None,
        outcome=None if outcome is None else engine.Status(outcome),
    )
    return json_response(
        {"games": page.games, "page": page.page, "pages": page.pages, "total": page.total}
    )


@bp.post("/<table_id>/games")
@ratelimits.creating
def start_game(table_id: str) -> Response:
    """Start a game at the table (body as POST /api/v1/games); answer it with its edit token."""
    table = require_table(table_id)
    _require_table_token(table)
    body = json_body()
    unknown = sorted(set(body) - set(games.SETTINGS))
    if unknown:
        problems = {name: [f"There is no setting {name!r}."] for name in unknown}
        raise ApiError(422, "invalid", problems[unknown[0]][0], problems)
    game, token = tables.start_game(table, **{name: body.get(name) for name in games.SETTINGS})
    document = games.game_document(game)
    document["edit_token"] = token
    return json_response(document, 201, {"Location": url_for("api.game", game_id=game.id)})


@bp.post("/<table_id>/merge")
def merge(table_id: str) -> Response:
    """Merge two spellings of one player: ``{"from": id, "into": id}``."""
    table = require_table(table_id)
    _require_table_token(table)
    body = json_body()
    wrong = {
        name: [f"{name} must be a player id (a whole number)."]
        for name in ("from", "into")
        if not isinstance(body.get(name), int) or isinstance(body.get(name), bool)
    }
    if wrong:
        raise ApiError(400, "bad_request", next(iter(wrong.values()))[0], wrong)
    try:
        tables.merge_players(table, body["from"], body["into"])
    except tables.MergeRefused as error:
        raise ApiError(409, "conflict", str(error)) from None
    except LookupError as error:
        raise ApiError(404, "not_found", str(error)) from None
    return json_response(tables.table_document(table))


@bp.get("/<table_id>/stats")
def table_stats(table_id: str) -> Response:
    """Answer every regular's statistics at this table."""
    table = require_table(table_id)
    return json_response(stats.table_stats(table))


@bp.get("/<table_id>/export")
def export(table_id: str) -> Response:
    """Answer the whole table as the lossless JSON export (``?format=csv`` for a sheet)."""
    table = require_table(table_id)
    if request.args.get("format") == "csv":
        chunks = exchange.table_csv_chunks(table)
        return downloads.streamed_download(chunks, "text/csv", f"{table.name}.csv")
    chunks = exchange.table_json_chunks(table)
    return downloads.streamed_download(chunks, "application/json", f"{table.name}.json")
