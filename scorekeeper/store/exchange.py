"""Carry games of any ruleset out and back in: lossless JSON, and CSV for spreadsheets.

The JSON keeps what was entered (each deal's entry, the change log, the times) and the
outcome; the CSV keeps each deal's entry in the columns its ruleset describes. Import
reads either, replays every entry through the engine for the game's ruleset, checks that
it gives the outcome the file states, and stores nothing unless the whole file passes.
"""

from __future__ import annotations

import csv
import io
import json
import re
import secrets
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import ColumnElement, Select, Text, cast, func, select, tuple_
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload

from scorekeeper import engine
from scorekeeper.extensions import db
from scorekeeper.store import import_checks, records, tokens
from scorekeeper.store.games import cache_state
from scorekeeper.store.import_checks import ImportRefused
from scorekeeper.store.models import (
    DEVICE_LENGTH,
    CardTable,
    Change,
    Deal,
    DealSeat,
    DealSeatTag,
    Game,
    Player,
    TablePlayer,
)
from scorekeeper.store.tables import iso, name_key, new_table_object

FORMAT = "scorekeeper-export"
BUNDLE = "scorekeeper-export-bundle"
VERSION = 1
ACTIONS = ("add", "correct", "undo")
PHONE_TOKEN = re.compile(r"[A-Za-z0-9_-]{32,64}")
"""An edit token a phone made for a game it started offline: as unguessable as ours."""
EXPORT_BATCH = 100
"""Games read at a time by an export, their deals and changes with them (a few thousand
rows): a table's export holds one batch in memory, however many games it has."""


@dataclass
class ImportResult:
    """What an import stored."""

    table: CardTable | None = None
    """The table created, if the file held one."""
    table_token: str | None = None
    """The new table's edit token (None when the file restored the table's own)."""
    games: list[Game] = field(default_factory=list)
    """The games created, in the file's order."""
    game_tokens: dict[str, str] = field(default_factory=dict)
    """New edit tokens by game id, for games whose file carried none."""


# ---------------------------------------------------------------- export


def export_game(game: Game, *, include_secrets: bool = False) -> dict[str, Any]:
    """Return the export document of one game."""
    return _document(None, _game_records(Game.id == game.id, include_secrets))


def export_table(table: CardTable, *, include_secrets: bool = False) -> dict[str, Any]:
    """Return the export document of a table and all its games, oldest first."""
    games = _game_records(Game.table_id == table.id, include_secrets)
    return _document(_table_record(table, include_secrets), games)


def table_json_chunks(table: CardTable, *, include_secrets: bool = False) -> Iterator[str]:
    """Yield the table's export document as JSON text (what `dumps` of `export_table` gives),
    a batch of games at a time.

    Each batch is read in its own short transaction, ended before its text is handed
    on: a slow download holds no snapshot, lock or connection while it is sent.
    """
    text = dumps(_document(_table_record(table, include_secrets), []))
    empty = "[]}\n"
    assert text.endswith(empty)  # "games" comes last, so the games go in its place
    yield text[: -len(empty)] + "["
    first = True
    for batch in _record_batches(Game.table_id == table.id, include_secrets, release=True):
        for record in batch:  # a game at a time: the sender may let others run in between
            text = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
            yield text if first else "," + text
            first = False
    yield "]}\n"


def _table_record(table: CardTable, include_secrets: bool) -> dict[str, Any]:
    record = {
        "id": table.id,
        "name": table.name,
        "created_at": _time(table.created_at),
        "players": [p.name for p in sorted(table.players, key=lambda p: p.key)],
    }
    if include_secrets:
        record["edit_token_hash"] = table.edit_token_hash
    return record


def export_everything(*, include_secrets: bool = True) -> dict[str, Any]:
    """Return a bundle of every table's document and one of the games without a table."""
    tables = db.session.scalars(
        select(CardTable).order_by(CardTable.created_at).options(selectinload(CardTable.players))
    )
    documents = [export_table(t, include_secrets=include_secrets) for t in tables]
    loose = _game_records(Game.table_id.is_(None), include_secrets)
    if loose:
        documents.append(_document(None, loose))
    return {"format": BUNDLE, "version": VERSION, "documents": documents}


def _document(table: dict[str, Any] | None, games: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": _time(datetime.now(UTC)),
        "table": table,
        "games": games,
    }


def _load_games(query: Select[Game]) -> list[Game]:
    return list(db.session.scalars(query.options(selectinload(Game.players))))


def _game_records(where: ColumnElement[bool], include_secrets: bool) -> list[dict[str, Any]]:
    """Return the export records of the games matching `where`, oldest first."""
    return [
        record
        for batch in _record_batches(where, include_secrets, release=False)
        for record in batch
    ]


def _game_batches(where: ColumnElement[bool]) -> Iterator[list[Game]]:
    """Yield the games matching `where`, oldest first, `EXPORT_BATCH` at a time.

    Each batch is found from where the last one ended (the games' index, never an
    offset), so a batch may be read in a transaction of its own.
    """
    after: tuple[datetime, str] | None = None
    while True:
        query = select(Game).where(where).order_by(Game.created_at, Game.id).limit(EXPORT_BATCH)
        if after is not None:
            query = query.where(tuple_(Game.created_at, Game.id) > after)
        games = _load_games(query)
        if not games:
            return
        after = (games[-1].created_at, games[-1].id)
        yield games
        if len(games) < EXPORT_BATCH:
            return


def _record_batches(
    where: ColumnElement[bool], include_secrets: bool, *, release: bool
) -> Iterator[list[dict[str, Any]]]:
    """Yield the export records of the games matching `where`, a batch at a time.

    Deals and changes are read as plain rows, the batch's all at once (the stored
    results are not needed: import recomputes them). With `release`, each batch's
    transaction ends before the batch is handed on (see `_released`).
    """
    for games in _game_batches(where):
        chosen = [game.id for game in games]
        deals: dict[str, list] = {}
        query = (
            select(Deal.game_id, Deal.number, Deal.entry, Deal.created_at, Deal.updated_at)
            .where(Deal.game_id.in_(chosen))
            .order_by(Deal.game_id, Deal.number)
        )
        for game_id, number, entry, created, updated in db.session.execute(query):
            deals.setdefault(game_id, []).append(
                {
                    "number": number,
                    "entry": entry,
                    "created_at": _time(created),
                    "updated_at": _time(updated),
                }
            )
        changes: dict[str, list] = {}
        query = (
            select(
                Change.game_id,
                Change.number,
                Change.action,
                Change.before,
                Change.after,
                Change.at,
                Change.device,
            )
            .where(Change.game_id.in_(chosen))
            .order_by(Change.game_id, Change.id)
        )
        for game_id, number, action, before, after, at, device in db.session.execute(query):
            changes.setdefault(game_id, []).append(
                {
                    "number": number,
                    "action": action,
                    "before": before,
                    "after": after,
                    "at": _time(at),
                    "device": device,
                }
            )
        batch = [
            _game_record(g, deals.get(g.id, []), changes.get(g.id, []), include_secrets)
            for g in games
        ]
        if release:
            _released()
        yield batch


def _released() -> None:
    """End the read's transaction: its snapshot (and on SQLite its hold on the WAL) and its
    connection go, so a download sent slowly holds neither. Nothing was written."""
    db.session.rollback()


def _game_record(
    game: Game, deals: list[dict[str, Any]], changes: list[dict[str, Any]], include_secrets: bool
) -> dict[str, Any]:
    record = {
        "id": game.id,
        "ruleset": game.ruleset,
        "players": [p.name for p in game.players],
        "first_dealer": game.first_dealer,
        "target": game.target,
        "house_rules": dict(game.house_rules),
        "created_at": _time(game.created_at),
        "updated_at": _time(game.updated_at),
        "deals": deals,
        "changes": changes,
        "status": game.status,
        "winners": list(game.winners),
        "decided_by": game.decided_by,
        "scores": list(game.scores),
    }
    if include_secrets:
        record["edit_token_hash"] = game.edit_token_hash
    return record


def dumps(document: Mapping[str, Any]) -> str:
    """Return an export document as JSON text."""
    # One line, no indentation: the standard library's fast encoder only runs without indent.
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n"


# ---------------------------------------------------------------- CSV
#
# One row per player per deal, so a spreadsheet can sum, filter and chart by player
# without reading JSON: the game's setup, the deal's entry as it was entered (one column
# per entry field the games' rulesets describe, in their order; seats written as the
# players' names), then what the engine made of it (made, the seat's role and team, its
# change and total). The entry as entered, not as resolved, is what makes the file
# importable again: replayed through the engine it gives the same deals and outcome.
# Deal 0 is each game's start (every score 0, the first dealer), which keeps games
# without deals and gives a chart its first point. The change log and each deal's times
# travel only in the JSON export.

CSV_BEFORE = ("table", "game_id", "started", "ruleset", "target", "house_rules", "deal", "dealer")
CSV_AFTER = ("made", "seat", "player", "team", "role", "delta", "score", "status", "winner")
"""The columns around the entry fields' columns."""
ENTRY_PREFIX = "entry_"
"""Put before an entry field's name where it is also one of the columns around them."""
STRUCTURED = frozenset({engine.FieldKind.COUNTS, engine.FieldKind.AUCTION})
"""Entry fields whose value is a list or an object, written as JSON in one cell."""


def game_csv(game: Game, table: CardTable | None = None) -> str:
    """Return one row per deal per player of one game."""
    return "".join(_csv_chunks(Game.id == game.id, table.name if table else "", release=False))


def table_csv(table: CardTable) -> str:
    """Return one row per deal per player of every game at the table, oldest game first."""
    return "".join(table_csv_chunks(table, release=False))


def table_csv_chunks(table: CardTable, *, release: bool = True) -> Iterator[str]:
    """Yield the table's CSV a batch of games at a time (see `table_json_chunks`)."""
    return _csv_chunks(Game.table_id == table.id, table.name, release=release)


def _csv_columns(where: ColumnElement[bool]) -> dict[str, None]:
    """Return the entry fields of every setup the games matching `where` were played with.

    In the order the games first used them; one row per setup is read (not per game),
    so the header is written before any game is.
    """
    seats = func.json_array_length(Game.scores)
    rules = cast(Game.house_rules, Text)
    setups = (
        select(Game.ruleset, Game.target, rules, seats)
        .where(where)
        .group_by(Game.ruleset, Game.target, rules, seats)
        .order_by(func.min(Game.created_at))
    )
    columns: dict[str, None] = {}
    for ruleset, target, house_rules, count in db.session.execute(setups):
        config = engine.configure(
            ruleset=ruleset,
            players=[f"Seat {seat + 1}" for seat in range(count)],
            first_dealer=0,
            target=target,
            house_rules=json.loads(house_rules),
        )
        columns.update((f.name, None) for f in config.ruleset.entry_fields(config))
    return columns


def _csv_chunks(where: ColumnElement[bool], table_name: str, *, release: bool) -> Iterator[str]:
    """Yield the CSV of the games matching `where`: the header, then a batch of games at a
    time, each batch's deals read as rows in one query."""
    columns = _csv_columns(where)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([*CSV_BEFORE, *(_entry_column(name) for name in columns), *CSV_AFTER])
    yield out.getvalue()
    out.seek(0)
    out.truncate()
    table_name = _cell(table_name)
    for games in _game_batches(where):
        deals: dict[str, list] = {}
        query = (
            select(Deal.game_id, Deal.entry, Deal.result)
            .where(Deal.game_id.in_([game.id for game in games]))
            .order_by(Deal.game_id, Deal.number)
        )
        for game_id, entry, result in db.session.execute(query):
            deals.setdefault(game_id, []).append((entry, result))
        sheets = [_SheetGame.of(game) for game in games]
        if release:
            _released()
        for sheet in sheets:  # a game at a time: the sender may let others run in between
            _csv_game_rows(writer, sheet, deals.get(sheet.id, ()), columns, table_name)
            yield out.getvalue()
            out.seek(0)
            out.truncate()


@dataclass(frozen=True)
class _SheetGame:
    """What a game's rows in the CSV are made of, read before its transaction ends."""

    id: str
    created_at: datetime
    ruleset: str
    target: int
    house_rules: dict[str, Any]
    status: engine.Status
    winners: list[int]
    config: engine.GameConfig

    @classmethod
    def of(cls, game: Game) -> _SheetGame:
        """Return the values of a loaded game."""
        return cls(
            game.id,
            game.created_at,
            game.ruleset,
            game.target,
            dict(game.house_rules),
            game.status,
            list(game.winners),
            records.game_config(game),
        )


def _csv_game_rows(
    writer: Any, game: _SheetGame, deals: Any, columns: dict[str, None], table_name: str
) -> None:
    """Write one game's rows: its start, then one row per player per deal."""
    config = game.config
    ruleset = config.ruleset
    fields = {f.name: f for f in ruleset.entry_fields(config)}
    names = [_cell(name) for name in config.players]
    team_of = {seat: i for i, team in enumerate(config.teams() or ()) for seat in team}
    head = [
        table_name,
        game.id,
        _time(game.created_at),
        game.ruleset,
        game.target,
        json.dumps(game.house_rules, separators=(",", ":")),
    ]
    finished = game.status != engine.Status.IN_PROGRESS
    won = [_flag(seat in game.winners) if finished else "" for seat in range(len(names))]
    start = [*head, 0, names[config.first_dealer], *[""] * len(columns)]
    for seat, name in enumerate(names):
        team = team_of.get(seat, "")
        writer.writerow([*start, "", seat, name, team, "", 0, 0, game.status, won[seat]])
    for entry, document in deals:
        result = engine.DealResult.from_document(document)
        roles = ruleset.roles(config, result)
        deal = [
            *head,
            result.number,
            names[result.dealer],
            *(_encode(fields.get(name), entry.get(name), names) for name in columns),
            _flag(result.made),
        ]
        for seat, (name, role) in enumerate(zip(names, roles, strict=True)):
            writer.writerow(
                [
                    *deal,
                    seat,
                    name,
                    team_of.get(seat, ""),
                    "" if role is None else str(role),
                    result.deltas[seat],
                    result.scores[seat],
                    game.status,
                    won[seat],
                ]
            )


def _entry_column(name: str) -> str:
    """Return the column of an entry field: its name, unless a setup or result column has it."""
    taken = name in CSV_BEFORE or name in CSV_AFTER or name.startswith(ENTRY_PREFIX)
    return ENTRY_PREFIX + name if taken else name


def _entry_field(column: str) -> str:
    """Return the entry field a column holds (the inverse of `_entry_column`)."""
    return column.removeprefix(ENTRY_PREFIX)


def _encode(field: engine.EntryField | None, value: Any, names: list[str]) -> Any:
    """Return an entry value as a cell: a seat as its player's name, flags as yes or no."""
    if value is None:
        return ""
    if field is not None and field.kind == engine.FieldKind.SEAT and _is_int(value):
        return names[value] if 0 <= value < len(names) else value
    if isinstance(value, bool):
        return _flag(value)
    if isinstance(value, str):
        return _cell(value)
    if isinstance(value, int):
        return value
    return json.dumps(value, separators=(",", ":"))


def _decode(field: engine.EntryField | None, text: str, names: list[str], where: str) -> Any:
    """Return an entry value from its cell, as `_encode` wrote it, or refuse it."""
    kind = field.kind if field is not None else None
    if kind == engine.FieldKind.SEAT:
        name = _uncell(text)
        if name in names:
            return names.index(name)
        if text.isdigit():
            return int(text)
        raise ImportRefused(f"{where}: {name!r} is not a player of this game.")
    toggles = (engine.FieldKind.FLAG, engine.FieldKind.TOGGLE)
    if kind in toggles or (field is None and text in ("yes", "no")):
        if text not in ("yes", "no"):
            raise ImportRefused(f"{where}: write yes or no.")
        return text == "yes"
    if kind in STRUCTURED or (field is None and text[:1] in ("[", "{")):
        try:
            return json.loads(text)
        except ValueError:
            raise ImportRefused(f"{where}: {text!r} is not valid JSON.") from None
    if text.lstrip("-").isdigit():
        return int(text)
    return _uncell(text)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _cell(text: str) -> str:
    """Return text a spreadsheet shows as text, never runs as a formula.

    A leading apostrophe is added before a formula character, and before an apostrophe
    (so that `_uncell` gives back exactly what was written).
    """
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r", "'") else text


def _uncell(text: str) -> str:
    """Return the text `_cell` was given."""
    return text[1:] if text[:1] == "'" else text


def _flag(value: bool | None) -> str:
    return "" if value is None else ("yes" if value else "no")


def parse_csv(text: str) -> dict[str, Any]:
    """Return the export document a CSV export holds (its games and its table's name).

    Every game is then checked by the engine like a JSON file's (see `import_document`).
    """
    reader = csv.DictReader(io.StringIO(text))
    header = reader.fieldnames or []
    missing = [name for name in (*CSV_BEFORE, *CSV_AFTER) if name not in header]
    if missing:
        raise ImportRefused(f"The CSV file has no column {missing[0]!r}.")
    columns = [name for name in header if name not in CSV_BEFORE and name not in CSV_AFTER]
    games: dict[str, dict[str, Any]] = {}
    table_name = ""
    for line, row in enumerate(reader, start=2):
        where = f"Line {line}"
        if None in row or any(value is None for value in row.values()):
            raise ImportRefused(f"{where}: it does not have one cell per column.")
        table_name = table_name or _uncell(row["table"])
        deal, seat = _whole(row["deal"], f"{where}: deal"), _whole(row["seat"], f"{where}: seat")
        game = games.get(row["game_id"])
        if game is None:
            try:
                house_rules = json.loads(row["house_rules"] or "{}")
            except ValueError:
                raise ImportRefused(f"{where}: house_rules is not valid JSON.") from None
            game = games[row["game_id"]] = {
                "id": row["game_id"],
                "ruleset": row["ruleset"],
                "target": _whole(row["target"], f"{where}: target"),
                "house_rules": house_rules,
                "created_at": row["started"] or None,
                "status": row["status"],
                "seats": {},
                "dealer": None,
                "deals": {},
                "winners": set(),
                "scores": {},
                "line": line,
            }
        if deal == 0:
            game["seats"][seat] = _uncell(row["player"])
            game["dealer"] = _uncell(row["dealer"])
        elif deal not in game["deals"]:
            cells = {_entry_field(column): row[column] for column in columns if row[column]}
            game["deals"][deal] = (line, cells)
        game["scores"][seat] = _whole(row["score"], f"{where}: score")
        if row["winner"] == "yes":
            game["winners"].add(seat)
    return {
        "format": FORMAT,
        "version": VERSION,
        "table": {"name": table_name, "players": []} if table_name else None,
        "games": [_csv_game(game) for game in games.values()],
    }


def _csv_game(game: dict[str, Any]) -> dict[str, Any]:
    """Return a game's export record from its CSV rows, entries decoded by its ruleset."""
    where = f"Line {game['line']}"
    seats = game["seats"]
    if sorted(seats) != list(range(len(seats))) or not seats:
        raise ImportRefused(f"{where}: game {game['id']} needs a deal 0 row for every seat.")
    names = [seats[seat] for seat in range(len(seats))]
    if game["dealer"] not in names:
        raise ImportRefused(f"{where}: the first dealer {game['dealer']!r} is not a player.")
    try:
        config = engine.configure(
            ruleset=game["ruleset"],
            players=names,
            first_dealer=names.index(game["dealer"]),
            target=game["target"],
            house_rules=game["house_rules"],
        )
    except engine.RuleViolation as error:
        raise ImportRefused(f"{where}: {error.message}") from None
    fields = {f.name: f for f in config.ruleset.entry_fields(config)}
    deals = []
    for number in sorted(game["deals"]):
        line, cells = game["deals"][number]
        entry = {
            name: _decode(fields.get(name), text, names, f"Line {line}: {name}")
            for name, text in cells.items()
        }
        deals.append({"number": number, "entry": entry})
    return {
        "id": game["id"],
        "ruleset": game["ruleset"],
        "players": names,
        "first_dealer": config.first_dealer,
        "target": game["target"],
        "house_rules": game["house_rules"],
        "created_at": game["created_at"],
        "deals": deals,
        "changes": [],
        "status": game["status"],
        "winners": sorted(game["winners"]),
        "scores": [game["scores"][seat] for seat in range(len(names))],
    }


def _whole(text: str, where: str) -> int:
    """Return a cell's whole number, or refuse it."""
    try:
        return int(text)
    except ValueError:
        raise ImportRefused(f"{where} must be a whole number, not {text!r}.") from None


# ---------------------------------------------------------------- import


def load(text: str | bytes) -> Any:
    """Parse an export file's text, JSON or CSV, or refuse it."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ImportRefused("The file is not UTF-8 text.") from None
    text = text.removeprefix("\ufeff")
    if text.startswith(",".join(CSV_BEFORE[:2]) + ","):
        return parse_csv(text)
    return import_checks.load(text)


def documents_of(document: Any) -> list[Any]:
    """Return the export documents a file holds: itself, or a bundle's list."""
    if isinstance(document, dict) and document.get("format") == BUNDLE:
        documents = document.get("documents")
        if not isinstance(documents, list):
            raise ImportRefused("The bundle's documents must be a list.")
        return documents
    return [document]


def import_document(
    document: Any, *, keep_ids: bool = False, table: CardTable | None = None
) -> ImportResult:
    """Check every game of an export document with the engine, then store them all.

    With `keep_ids`, games (and the table) keep the ids and edit-token hashes the file
    carries, as a restored backup should; otherwise they get new ones. `table` puts the
    games at an existing table instead of the file's. Raises ImportRefused naming the
    first bad record; nothing is stored then.
    """
    return import_documents([document], keep_ids=keep_ids, table=table)[0]


def import_documents(
    documents: list[Any],
    *,
    keep_ids: bool = False,
    table: CardTable | None = None,
    progress: Progress | None = None,
) -> list[ImportResult]:
    """Import several export documents as one transaction: all of them or nothing.

    `progress` is told, after each game is checked, how many of the file's games are.
    """
    import_checks.check_documents(documents, None if table is None else _keys(table))
    counter = _Counter(documents, progress)
    try:
        results = []
        for index, document in enumerate(documents, start=1):
            prefix = f"Document {index}: " if len(documents) > 1 else ""
            try:
                # Nothing is written while the games are replayed and built, so the write
                # lock (all of SQLite) is held only from the first flush to the commit.
                with db.session.no_autoflush:
                    results.append(_stage(document, keep_ids, table, counter))
            except ImportRefused as error:
                raise ImportRefused(prefix + str(error)) from None
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    return results


def import_made_offline(
    setup: Mapping[str, Any], game_id: str, token: str, made_at: str | None
) -> tuple[Game, bool]:
    """Store a game made on a phone with no connection, under the id and edit token it chose.

    The phone made both at random when the game was started, so that a game sent again
    (the answer to the first send was lost) is found, not made twice: the game already
    stored under that id with that token is answered, with False. The game is checked as
    an import of a one-game export is (`import_document`, with the ids kept): its id, its
    time made (`made_at`, ISO 8601), its setup by the engine. A `first_dealer` of None is
    drawn at random. Raises ImportRefused naming what is wrong; nothing is stored then.
    """
    # Both are checked before either is looked up: PostgreSQL refuses a NUL byte outright.
    if not isinstance(token, str) or not PHONE_TOKEN.fullmatch(token):
        raise ImportRefused(
            "The edit token made on the phone must be 32 to 64 URL-safe characters."
        )
    if not isinstance(game_id, str) or not import_checks.ID.fullmatch(game_id):
        raise ImportRefused("The game's id must be 16 to 32 letters, digits, '-' or '_'.")
    existing = _made_offline_already(game_id, token)
    if existing is not None:
        return existing, False
    players = setup.get("players")
    first_dealer = setup.get("first_dealer")
    if first_dealer is None:
        first_dealer = (
            secrets.randbelow(len(players)) if isinstance(players, list) and players else 0
        )
    record: dict[str, Any] = {
        "id": game_id,
        "ruleset": setup.get("ruleset"),
        "players": players,
        "first_dealer": first_dealer,
        "target": setup.get("target"),
        "house_rules": setup.get("house_rules"),
        "created_at": made_at,
        "deals": [],
        "edit_token_hash": tokens.hash_token(token),
    }
    try:
        result = import_document(
            {"format": FORMAT, "version": VERSION, "games": [record]}, keep_ids=True
        )
    except (ImportRefused, IntegrityError):
        # Sent twice at once: the other send stored it after our look and before our write
        # (its row is found, or its key refuses ours). Every send is answered as the first.
        existing = _made_offline_already(game_id, token)
        if existing is None:
            raise
        return existing, False
    return result.games[0], True


def _made_offline_already(game_id: str, token: str) -> Game | None:
    """Return the game stored under this id with this edit token, or None when there is
    none; refuse a game stored under this id with another token."""
    existing = db.session.get(Game, game_id, populate_existing=True)
    if existing is None:
        return None
    if not tokens.check_token(existing.edit_token_hash, token):
        raise ImportRefused(f"Game {game_id} is already stored.")
    return existing


Progress = Callable[[int, int], None]
"""Told how many games of a file are checked so far, and how many it holds."""


class _Counter:
    """Count the games checked and tell `Progress`, if any, after each."""

    def __init__(self, documents: list[Any], progress: Progress | None) -> None:
        self.total = sum(
            len(d["games"])
            for d in documents
            if isinstance(d, dict) and isinstance(d.get("games"), list)
        )
        self.done = 0
        self.progress = progress

    def checked(self) -> None:
        """Count one more game checked."""
        self.done += 1
        if self.progress is not None:
            self.progress(self.done, self.total)


@dataclass
class _Rows:
    """The rows an import inserts, a table's worth at a time (see `_insert_rows`)."""

    players: list[dict[str, Any]] = field(default_factory=list)
    deals: list[dict[str, Any]] = field(default_factory=list)
    changes: list[dict[str, Any]] = field(default_factory=list)
    seats: list[dict[str, Any]] = field(default_factory=list)
    tags: list[dict[str, Any]] = field(default_factory=list)


def _stage(
    document: Any, keep_ids: bool, table: CardTable | None, counter: _Counter
) -> ImportResult:
    """Check one document and add its table and games to the session, uncommitted."""
    games, table_record = _check_document(document)
    checked = []
    for i, record in enumerate(games, start=1):
        checked.append(_check_game(i, record))
        counter.checked()
    result = ImportResult()
    if table is None and table_record is not None:
        table, result.table_token = _new_table(table_record, keep_ids)
        result.table = table
    elif table is not None:
        result.table = table
    ids = [_game_id(record, keep_ids) for record, _ in checked]
    if len(set(ids)) != len(ids):
        raise ImportRefused("The file holds the same game twice.")
    taken = set(db.session.scalars(select(Game.id).where(Game.id.in_(ids)))) if ids else set()
    if taken:
        raise ImportRefused(
            f"Game {sorted(taken)[0]} is already stored; import it as a copy instead."
        )
    regulars = {p.key: p for p in table.players} if table is not None else {}
    built = []
    for game_id, (record, states) in zip(ids, checked, strict=True):
        game, token = _build_game(game_id, record, states, keep_ids)
        if token is not None:
            result.game_tokens[game_id] = token
        if table is not None:
            _seat_regulars(table, regulars, game, _config(record, states).players)
        db.session.add(game)
        result.games.append(game)
        built.append((game, record, states))
    db.session.flush()  # the games in one statement; the new regulars get their ids
    rows = _Rows()
    seated = []
    for game, record, states in built:
        config = _config(record, states)
        places = [regulars[name_key(n)].id if table is not None else None for n in config.players]
        _game_rows(rows, game, record, states, config, places)
        seated.append((game, places))
    _insert_rows(rows)
    if table is not None:
        # Counted from the rows in hand, never read back by the list of games just written.
        records.account_rows(rows.seats, rows.tags)
        records.add_seated_games(seated)
    return result


def _check_document(document: Any) -> tuple[list[Any], dict[str, Any] | None]:
    """Return the document's games and its table record; refuse a document of another shape."""
    if not isinstance(document, dict):
        raise ImportRefused("The file must hold a JSON object.")
    if document.get("format") != FORMAT:
        raise ImportRefused(f"This is not a Scorekeeper export (format is not {FORMAT!r}).")
    if document.get("version") != VERSION:
        raise ImportRefused(f"This export is version {document.get('version')!r}; expected 1.")
    games = document.get("games")
    if not isinstance(games, list):
        raise ImportRefused("The file's games must be a list.")
    table_record = document.get("table")
    if table_record is not None and not isinstance(table_record, dict):
        raise ImportRefused("The file's table must be an object.")
    return games, table_record


def _seat_regulars(
    table: CardTable, regulars: dict[str, TablePlayer], game: Game, players: Sequence[str]
) -> None:
    """Put the game at the table, under its edit link, and every player among its regulars
    (`regulars`, by key: new ones added)."""
    game.table_id, game.table_token_hash = table.id, table.edit_token_hash
    for name in players:
        key = name_key(name)
        if key not in regulars:
            regulars[key] = TablePlayer(name=name, key=key)
            table.players.append(regulars[key])


def _config(record: dict[str, Any], states: tuple) -> engine.GameConfig:
    """Return the engine's configuration of a checked game record."""
    if states:
        config: engine.GameConfig = states[-1].config
        return config
    return engine.configure(
        record["ruleset"],
        record["players"],
        record["first_dealer"],
        record.get("target"),
        record.get("house_rules"),
    )


def _game_rows(
    rows: _Rows,
    game: Game,
    record: dict[str, Any],
    states: tuple,
    config: engine.GameConfig,
    places: list[int | None],
) -> None:
    """Add a checked game's players, deals, change log and per-seat records to `rows`."""
    created = game.created_at
    winners = set(game.winners)
    rows.players.extend(
        {
            "game_id": game.id,
            "seat": seat,
            "name": name,
            "table_player_id": places[seat],
            "won": seat in winners,
        }
        for seat, name in enumerate(config.players)
    )
    seating = records.seating(game.id, config, places)
    for deal, state in zip(record["deals"], states, strict=True):
        document = state.last.to_document()
        rows.deals.append(
            {
                "game_id": game.id,
                "number": state.last.number,
                "entry": dict(deal["entry"]),
                "result": document,
                "created_at": _parse_time(deal.get("created_at"), "") or created,
                "updated_at": _parse_time(deal.get("updated_at"), "") or created,
            }
        )
        seats, tags = records.seat_rows(seating, document)
        rows.seats.extend(seats)
        rows.tags.extend(tags)
    rows.changes.extend(
        {
            "game_id": game.id,
            "number": c["number"],
            "action": c["action"],
            "before": c.get("before"),
            "after": c.get("after"),
            "at": _parse_time(c.get("at"), "") or created,
            "device": c.get("device"),
        }
        for c in record.get("changes", [])
    )


def _insert_rows(rows: _Rows) -> None:
    """Insert the rows, `records.BATCH` to a statement, parents first."""
    for model, batch in (
        (Player, rows.players),
        (Deal, rows.deals),
        (Change, rows.changes),
        (DealSeat, rows.seats),
        (DealSeatTag, rows.tags),
    ):
        records.insert_rows(model, batch)


def _check_game(index: int, record: Any) -> tuple[dict[str, Any], tuple]:
    """Replay one game's entries through the engine; refuse at its first bad record."""
    where = f"Game {index}"
    if not isinstance(record, dict):
        raise ImportRefused(f"{where}: a game must be an object.")
    try:
        config = engine.configure(
            ruleset=record.get("ruleset"),
            players=record.get("players"),
            first_dealer=record.get("first_dealer"),
            target=record.get("target"),
            house_rules=record.get("house_rules"),
        )
    except engine.RuleViolation as error:
        raise ImportRefused(f"{where}: {error.message}") from None
    deals = record.get("deals")
    if not isinstance(deals, list):
        raise ImportRefused(f"{where}: its deals must be a list.")
    states = _replay(where, config, deals)
    _check_stated(where, record, states[-1] if states else engine.new_game(config))
    changes = record.get("changes", [])
    if not isinstance(changes, list):
        raise ImportRefused(f"{where}: its changes must be a list.")
    for i, change in enumerate(changes, start=1):
        _check_change(f"{where}, change {i}", change)
    for name in ("created_at", "updated_at"):
        _parse_time(record.get(name), f"{where}: {name}")
    secret = record.get("edit_token_hash")
    if secret is not None and not tokens.is_hash(secret):
        raise ImportRefused(f"{where}: the edit token hash must be 64 hex digits.")
    return record, tuple(states)


def _replay(where: str, config: engine.GameConfig, deals: list[Any]) -> list[engine.GameState]:
    """Return the game's state after each deal, replayed through the engine."""
    state = engine.new_game(config)
    states = []
    for number, deal in enumerate(deals, start=1):
        here = f"{where}, deal {number}"
        if not isinstance(deal, dict) or not isinstance(deal.get("entry"), dict):
            raise ImportRefused(f"{here}: a deal must be an object with its entry.")
        if deal.get("number", number) != number:
            raise ImportRefused(f"{here}: it is numbered {deal.get('number')!r}.")
        for name in ("created_at", "updated_at"):
            _parse_time(deal.get(name), f"{here}: {name}")
        try:
            entry = engine.parse_entry(config, deal["entry"])
            state = engine.apply_deal(state, entry)
        except engine.RuleViolation as error:
            raise ImportRefused(f"{here}: {error.message}") from None
        states.append(state)
    return states


def _check_stated(where: str, record: dict[str, Any], state: engine.GameState) -> None:
    """Refuse a game whose stated status, winners or scores its deals do not give."""
    outcome = state.outcome
    stated = {
        "status": outcome.status,
        "winners": list(outcome.winners),
        "decided_by": outcome.decided_by,
        "scores": list(state.scores),
    }
    for name, value in stated.items():
        if name in record and record[name] != value:
            raise ImportRefused(
                f"{where}: the file says {name} is {record[name]!r}, but its deals give {value!r}."
            )


def _check_change(here: str, change: Any) -> None:
    """Refuse a change-log record of the wrong shape."""
    if not isinstance(change, dict):
        raise ImportRefused(f"{here}: a change must be an object.")
    if change.get("action") not in ACTIONS:
        raise ImportRefused(f"{here}: the action must be add, correct or undo.")
    changed = change.get("number")
    if not isinstance(changed, int) or isinstance(changed, bool) or changed < 1:
        raise ImportRefused(f"{here}: the deal number must be a whole number from 1.")
    for name in ("before", "after"):
        if change.get(name) is not None and not isinstance(change[name], dict):
            raise ImportRefused(f"{here}: {name} must be a deal document or null.")
    device = change.get("device")
    if device is not None and (not isinstance(device, str) or len(device) > DEVICE_LENGTH):
        raise ImportRefused(f"{here}: the device must be a short text or null.")
    _parse_time(change.get("at"), f"{here}: at")


def _game_id(record: dict[str, Any], keep_ids: bool) -> str:
    game_id = record.get("id")
    if keep_ids and isinstance(game_id, str) and 16 <= len(game_id) <= 32:
        return game_id
    return secrets.token_urlsafe(16)


def _build_game(
    game_id: str, record: dict[str, Any], states: tuple, keep_ids: bool
) -> tuple[Game, str | None]:
    """Return the game's row as an ORM object (its players, deals and changes are inserted
    as rows, see `_game_rows`), with a new edit token unless the file kept its own."""
    config = _config(record, states)
    final = states[-1] if states else engine.new_game(config)
    token = None
    secret = record.get("edit_token_hash") if keep_ids else None
    if secret is None:
        token = tokens.new_token()
        secret = tokens.hash_token(token)
    created = _parse_time(record.get("created_at"), "") or datetime.now(UTC)
    game = Game(
        id=game_id,
        ruleset=config.ruleset.id,
        target=config.target,
        first_dealer=config.first_dealer,
        house_rules=dict(config.house_rules),
        edit_token_hash=secret,
        version=1,
        created_at=created,
        updated_at=_parse_time(record.get("updated_at"), "") or created,
    )
    cache_state(game, final)
    return game, token


def _new_table(record: dict[str, Any], keep_ids: bool) -> tuple[CardTable, str | None]:
    """Create the file's table (its regulars included), keeping its id when restoring."""
    name = record.get("name")
    players = record.get("players", [])
    token: str | None
    try:
        table, token = new_table_object(name, players)
    except engine.RuleViolation as error:
        raise ImportRefused(f"Table: {error.message}") from None
    table_id, secret = record.get("id"), record.get("edit_token_hash")
    if keep_ids and isinstance(table_id, str) and 16 <= len(table_id) <= 32:
        if db.session.get(CardTable, table_id) is not None:
            raise ImportRefused(f"Table {table_id} is already stored; import it as a copy.")
        table.id = table_id
        if secret is not None:
            if not tokens.is_hash(secret):
                raise ImportRefused("Table: the edit token hash must be 64 hex digits.")
            table.edit_token_hash, token = secret, None
    table.created_at = _parse_time(record.get("created_at"), "Table: created_at") or (
        datetime.now(UTC)
    )
    db.session.add(table)
    return table, token


def _time(value: datetime | None) -> str | None:
    """Return a stored time as ISO 8601 text in UTC."""
    return None if value is None else iso(value)


def _parse_time(value: Any, where: str) -> datetime | None:
    """Return an ISO 8601 time from the file in UTC (None when absent), or refuse it."""
    return import_checks.parse_time(value, where)


def _keys(table: CardTable) -> set[str]:
    return {p.key for p in table.players}
