"""Check an export file's records before anything is stored, as an entry is checked.

The engine replays every deal (``exchange``); this module checks the rest of what a file
carries and would otherwise be stored as it is: ids (the id alphabet only, so every
address opens), times (converted to UTC, within a sane range), numbers (finite), the
change log's ``before``/``after`` (shaped like deal documents, so the game page can show
them), the size of each game and the table's regulars (within the limits), and, for an
upload, the file's size in games, deals and changes (``check_sizes``). A refusal names
the record; nothing is stored then.
"""

from __future__ import annotations

import json
import math
import re
from datetime import UTC, datetime, timedelta
from typing import Any, TypeGuard

from scorekeeper import engine
from scorekeeper.store import limits
from scorekeeper.store.tables import name_key

ID = re.compile(r"[A-Za-z0-9_-]{16,32}")
"""Game and table ids as the app makes them: URL-safe base64, 16 to 32 characters."""
EARLIEST = datetime(2000, 1, 1, tzinfo=UTC)
"""No score pad kept before this; an earlier time is a broken file."""
FUTURE_SLACK = timedelta(days=1)
"""How far past now a time may be (clocks disagree a little)."""
INT_RANGE = range(-(2**31), 2**31)
"""Whole numbers every database column holds."""


class ImportRefused(ValueError):
    """The file cannot be imported; the message names the first bad record."""


def load(text: str | bytes) -> Any:
    """Parse an export file's text: JSON without NaN or infinities, or refuse it."""
    try:
        document = json.loads(text, parse_constant=_refuse_constant)
    except (ValueError, RecursionError) as error:
        raise ImportRefused(f"The file is not valid JSON ({error}).") from None
    _check_numbers(document)
    return document


def _refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number JSON allows")


def _check_numbers(document: Any) -> None:
    """Refuse a number no database stores: not finite (1e999), or an integer too large."""
    stack = [document]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, float) and not math.isfinite(value):
            raise ImportRefused("The file holds a number that is not finite.")
        elif isinstance(value, int) and not isinstance(value, bool) and value not in INT_RANGE:
            raise ImportRefused(f"The file holds the number {value}, which is too large.")


def parse_time(value: Any, where: str) -> datetime | None:
    """Return a file's ISO 8601 time in UTC (None when absent), or refuse it naming `where`."""
    if value is None:
        return None
    try:
        parsed = datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        parsed = None
    if parsed is None:
        raise ImportRefused(f"{where} must be a time written like 2026-11-30T18:00:00+00:00.")
    parsed = parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed.astimezone(UTC)
    if not EARLIEST <= parsed <= datetime.now(UTC) + FUTURE_SLACK:
        raise ImportRefused(f"{where} is {value}: a time from 2000 until today is expected.")
    return parsed


def check_documents(documents: list[Any], table_keys: set[str] | None) -> None:
    """Check every document of a file, before the engine replays its deals.

    `table_keys` are the name keys of the regulars of the table the games go to (None:
    each document's own table). Raises ImportRefused naming the first bad record. The
    file's size in games, deals and changes is checked apart (`check_sizes`): the import
    page limits it, a restore from the command line does not.
    """
    for index, document in enumerate(documents, start=1):
        prefix = f"Document {index}: " if len(documents) > 1 else ""
        try:
            _check_document(document, table_keys)
        except ImportRefused as error:
            raise ImportRefused(prefix + str(error)) from None


def check_sizes(documents: list[Any]) -> None:
    """Refuse a file holding more games, deals or changes than one upload may."""
    games = [
        game
        for document in documents
        if isinstance(document, dict) and isinstance(document.get("games"), list)
        for game in document["games"]
    ]
    deals = sum(len(g["deals"]) for g in games if isinstance(g, dict) and _is_list(g, "deals"))
    changes = sum(
        len(g["changes"]) for g in games if isinstance(g, dict) and _is_list(g, "changes")
    )
    for count, limit, what in (
        (len(games), limits.IMPORT_GAMES, "games"),
        (deals, limits.IMPORT_DEALS, "deals"),
        (changes, limits.IMPORT_CHANGES, "changes"),
    ):
        if count > limit:
            raise ImportRefused(
                f"The file holds {count} {what}; one import takes at most {limit}. "
                "Split it into several files."
            )


def _is_list(record: dict[str, Any], key: str) -> bool:
    return isinstance(record.get(key), list)


def _check_document(document: Any, table_keys: set[str] | None) -> None:
    if not isinstance(document, dict):
        return  # the importer names this itself
    table = document.get("table")
    keys = set(table_keys or ())
    if table_keys is None and isinstance(table, dict):
        _check_id(table.get("id"), "Table")
        parse_time(table.get("created_at"), "Table: created_at")
        players = table.get("players")
        if isinstance(players, list):
            keys |= {name_key(p) for p in players if isinstance(p, str) and p.strip()}
    games = document.get("games")
    if not isinstance(games, list):
        return
    for index, record in enumerate(games, start=1):
        if isinstance(record, dict):
            _check_game(record, f"Game {index}")
            names = record.get("players")
            if isinstance(names, list):
                keys |= {name_key(n) for n in names if isinstance(n, str)}
    if (table_keys is not None or table is not None) and len(keys) > limits.REGULARS_PER_TABLE:
        raise ImportRefused(
            f"The table would have {len(keys)} regulars; a table keeps at most "
            f"{limits.REGULARS_PER_TABLE}."
        )


def _check_id(value: Any, where: str) -> None:
    if value is not None and not (isinstance(value, str) and ID.fullmatch(value)):
        raise ImportRefused(
            f"{where}: its id must be 16 to 32 letters, digits, '-' or '_' (or be left out)."
        )


def _check_game(record: dict[str, Any], where: str) -> None:
    """Check a game record's id, times, size and change log."""
    _check_id(record.get("id"), where)
    for name in ("created_at", "updated_at"):
        parse_time(record.get(name), f"{where}: {name}")
    try:
        seats = len(
            engine.configure(
                ruleset=record.get("ruleset"),
                players=record.get("players"),
                first_dealer=record.get("first_dealer"),
                target=record.get("target"),
                house_rules=record.get("house_rules"),
            ).players
        )
    except engine.RuleViolation:
        return  # the importer names the bad setup when it replays the game
    deals = record.get("deals")
    if isinstance(deals, list):
        if len(deals) > limits.DEALS_PER_GAME:
            raise ImportRefused(
                f"{where}: it has {len(deals)} deals; a game holds at most {limits.DEALS_PER_GAME}."
            )
        for number, deal in enumerate(deals, start=1):
            if isinstance(deal, dict):
                for name in ("created_at", "updated_at"):
                    parse_time(deal.get(name), f"{where}, deal {number}: {name}")
    changes = record.get("changes")
    if not isinstance(changes, list):
        return
    if len(changes) > limits.CHANGES_PER_GAME:
        raise ImportRefused(
            f"{where}: it has {len(changes)} changes; a game keeps at most "
            f"{limits.CHANGES_PER_GAME}."
        )
    for index, change in enumerate(changes, start=1):
        if not isinstance(change, dict):
            continue  # the importer names this itself
        here = f"{where}, change {index}"
        deal_number = change.get("number")
        if _is_int(deal_number) and not 1 <= deal_number <= limits.DEALS_PER_GAME:
            raise ImportRefused(
                f"{here}: the deal number must be from 1 to {limits.DEALS_PER_GAME}."
            )
        for name in ("before", "after"):
            if change.get(name) is not None:
                _check_deal_document(change[name], seats, f"{here}: {name}")
        parse_time(change.get("at"), f"{here}: at")


def _check_deal_document(document: Any, seats: int, where: str) -> None:
    """Refuse a change's before/after unless it has a deal document's shape."""
    problem = None
    if not isinstance(document, dict):
        problem = "must be a deal document or null"
    elif not _is_int(document.get("number")) or document["number"] < 1:
        problem = "needs the deal's number (a whole number from 1)"
    else:
        for name in ("scores", "deltas"):
            values = document.get(name)
            if not (
                isinstance(values, list)
                and len(values) == seats
                and all(_is_int(v) for v in values)
            ):
                problem = f"needs {name}: one whole number per player ({seats})"
                break
        else:
            dealer = document.get("dealer")
            if not (_is_int(dealer) and 0 <= dealer < seats):
                problem = f"needs the dealer: a seat from 0 to {seats - 1}"
    if problem is not None:
        raise ImportRefused(f"{where} {problem}.")


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
