"""Tables and their archive: the groups that play together, their regulars and past games.

The service layer under the table pages and ``/api/v1/tables``: it checks input, stores,
and answers queries whose count does not grow with the number of games.
"""

from __future__ import annotations

import math
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import exists, false, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload

from scorekeeper import engine
from scorekeeper.extensions import db
from scorekeeper.store import games, limits, records, tokens
from scorekeeper.store.models import (
    CardTable,
    DealSeat,
    DealSeatTag,
    Game,
    Player,
    RegularGameTotal,
    TablePlayer,
)

TABLE_NAME_MAX = 80
PLAYER_NAME_MAX = 40
PER_PAGE = 20
ATTEMPTS = 5
OUTCOMES = tuple(engine.Status)
"""The statuses the archive can be filtered by: every one the engine names."""


TABLE_NAME_PROBLEMS = {
    engine.NameProblem.LENGTH: f"Give the table a name of 1 to {TABLE_NAME_MAX} characters.",
    engine.NameProblem.CONTROL: "The table's name must be plain text, without control characters.",
    engine.NameProblem.INVISIBLE: "The table's name must have a character that shows.",
}
TOO_MANY_REGULARS = engine.msg(
    "A table keeps at most %(count)s regulars; merge spellings of the same person to make room.",
    count=limits.REGULARS_PER_TABLE,
)


class MergeRefused(ValueError):
    """Two names cannot be one person: they sat at the same game."""


@dataclass(frozen=True)
class ArchivePage:
    """One page of a table's games, newest first, with what the filters matched."""

    games: list[dict[str, Any]]
    """Game summaries: id, date, ruleset, players with scores, winners, status."""
    total: int
    """How many games match the filters."""
    page: int
    """This page's number, from 1."""
    per_page: int

    @property
    def pages(self) -> int:
        """Return how many pages the matching games fill (at least 1)."""
        return max(1, math.ceil(self.total / self.per_page))


def iso(value: datetime) -> str:
    """Return a stored time as ISO 8601 in UTC (SQLite hands times back without a zone)."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).isoformat()


def regular_name_problem(name: str) -> str | None:
    """Return why a regular's name (already stripped) cannot be used, or None."""
    shown = name[:20] + ("…" if len(name) > 20 else "")
    match engine.name_problem(name, PLAYER_NAME_MAX):
        case engine.NameProblem.LENGTH:
            return f"{shown} is too long: names have at most {PLAYER_NAME_MAX} characters."
        case engine.NameProblem.CONTROL:
            return f"{shown!r} must be plain text, without control characters."
        case engine.NameProblem.INVISIBLE:
            return "A name must have a character that shows."
    return None


def name_key(name: str) -> str:
    """Return the form of a name that identifies a player within a table."""
    return name.strip().casefold()


# ---------------------------------------------------------------- tables


def create_table(name: object, players: object = None) -> tuple[CardTable, str]:
    """Store a new table (with optional regulars) and return it with its edit token.

    Raises WrongType or RuleViolation naming ``name`` or ``players``.
    """
    table, token = new_table_object(name, players)
    db.session.add(table)
    _commit()
    return table, token


def new_table_object(name: object, players: object = None) -> tuple[CardTable, str]:
    """Return a checked, unsaved table with its regulars, and its new edit token."""
    wrong: dict[str | None, list[str]] = {}
    if not isinstance(name, str):
        wrong["name"] = ["The table's name must be a string."]
    if players is not None and (
        not isinstance(players, list) or not all(isinstance(p, str) for p in players)
    ):
        wrong["players"] = ["Players must be a list of names."]
    if wrong or not isinstance(name, str):
        raise engine.WrongType(wrong)
    problems: dict[str | None, list[str | engine.Message]] = {}
    name = name.strip()
    wrong_name = engine.name_problem(name, TABLE_NAME_MAX)
    if wrong_name is not None:
        problems["name"] = [TABLE_NAME_PROBLEMS[wrong_name]]
    names = [p.strip() for p in (players if isinstance(players, list) else []) if p.strip()]
    for player in names:
        message = regular_name_problem(player)
        if message is not None:
            problems.setdefault("players", []).append(message)
    if len({name_key(p) for p in names}) > limits.REGULARS_PER_TABLE:
        problems.setdefault("players", []).append(TOO_MANY_REGULARS)
    if problems:
        raise engine.RuleViolation(problems)
    token = tokens.new_token()
    table = CardTable(
        id=secrets.token_urlsafe(16), name=name, edit_token_hash=tokens.hash_token(token)
    )
    seen = set()
    for player in names:
        if name_key(player) not in seen:
            seen.add(name_key(player))
            table.players.append(TablePlayer(name=player, key=name_key(player)))
    return table, token


def get_table(table_id: str) -> CardTable | None:
    """Return the table with its regulars, or None."""
    if not games.GAME_ID.fullmatch(table_id):
        return None  # not an id we hand out (and PostgreSQL refuses NUL bytes outright)
    query = (
        select(CardTable).where(CardTable.id == table_id).options(selectinload(CardTable.players))
    )
    return db.session.scalars(query).first()


def get_tables(table_ids: list[str]) -> list[CardTable]:
    """Return these tables in the order given (unknown ids skipped), in one query."""
    table_ids = [t for t in table_ids if isinstance(t, str) and games.GAME_ID.fullmatch(t)]
    if not table_ids:
        return []
    found = {
        t.id: t for t in db.session.scalars(select(CardTable).where(CardTable.id.in_(table_ids)))
    }
    return [found[t] for t in table_ids if t in found]


def check_table_token(table: CardTable, token: str | None) -> bool:
    """Return whether the token is this table's edit token (compared in constant time)."""
    return tokens.check_token(table.edit_token_hash, token)


def rotate_table_token(table: CardTable) -> str:
    """Give the table a new edit token (every older edit link stops working); return it."""
    token = tokens.new_token()
    table.edit_token_hash = tokens.hash_token(token)
    _commit()
    return token


def table_document(table: CardTable) -> dict[str, Any]:
    """Return the API's table document: name and regulars with games played and won."""
    counts = player_counts(table)
    return {
        "id": table.id,
        "name": table.name,
        "created_at": iso(table.created_at),
        "games": sum_games(table),
        "players": [
            {"id": p.id, "name": p.name, **counts.get(p.id, {"games": 0, "won": 0})}
            for p in regulars(table, counts)
        ],
    }


def player_counts(table: CardTable) -> dict[int, dict[str, int]]:
    """Return each regular's games played and won at this table (one query).

    Added up from each regular's kept game totals (`RegularGameTotal`): a few rows per
    regular, however many games the table has played.
    """
    ids = [p.id for p in table.players]
    if not ids:
        return {}
    query = (
        select(
            RegularGameTotal.table_player_id,
            func.sum(RegularGameTotal.games),
            func.sum(RegularGameTotal.won),
        )
        .where(RegularGameTotal.table_player_id.in_(ids))
        .group_by(RegularGameTotal.table_player_id)
    )
    return {pid: {"games": int(n), "won": int(w)} for pid, n, w in db.session.execute(query) if n}


def sum_games(table: CardTable) -> int:
    """Return how many games were played at the table."""
    return db.session.scalar(select(func.count()).where(Game.table_id == table.id)) or 0


def regulars(table: CardTable, counts: dict[int, dict[str, int]] | None = None) -> list:
    """Return the table's players, who played most first, then by name."""
    counts = player_counts(table) if counts is None else counts
    return sorted(
        table.players,
        key=lambda p: (-counts.get(p.id, {"games": 0})["games"], p.key),
    )


# ---------------------------------------------------------------- games at a table


def start_game(table: CardTable, **settings: Any) -> tuple[Game, str]:
    """Create a game at the table (the engine checks the setup) and link its players.

    Refused (RuleViolation on ``players``) when its new names would take the table past
    its limit of regulars.
    """
    names = settings.get("players")
    if isinstance(names, list) and all(isinstance(n, str) for n in names):
        _check_room(table, names)
    game, token = games.create_game(**settings)
    attach_game(table, game)
    return game, token


class TableLinkRenewed(PermissionError):
    """The game's table has a new edit link since the game was put at it: the game's edit
    rights no longer start games there."""


def rematch(game: Game, table_token: str | None = None) -> tuple[Game, bool]:
    """Return the game's next game and whether this call started it.

    Same players in the same seats, rules, target and table; the seat after the last
    dealer deals first. Made once (`games.start_next_game`): a second call, from any
    phone or client, answers the same game. Starting it at the table needs the table's
    edit link the game was put there under, or the table's edit token as it is now
    (`table_token`): raises TableLinkRenewed otherwise, storing nothing.
    """
    config = games.game_config(game)
    table_id = game.table_id
    if game.next_game_id is None and table_id is not None:
        table = get_table(table_id)
        renewed = (
            table is not None
            and game.table_token_hash is not None
            and game.table_token_hash != table.edit_token_hash
        )
        if renewed and not (table is not None and check_table_token(table, table_token)):
            raise TableLinkRenewed(
                "This table has a new edit link since this game was put at it; "
                "starting its next game there needs the table's new edit link."
            )
    next_game, started = games.start_next_game(
        game,
        ruleset=config.ruleset.id,
        players=list(config.players),
        first_dealer=game.next_dealer,
        target=config.target,
        house_rules=dict(config.house_rules),
    )
    table = get_table(table_id) if started and table_id else None
    if table is not None:
        attach_game(table, next_game)
    return next_game, started


def attach_game(table: CardTable, game: Game) -> None:
    """Put a game at the table, each seat linked to a regular by name (new names added).

    Two games started at once may both add the same new name; the database keeps one
    (unique key) and the loser reloads the regulars and links to it.
    """
    table_id, game_id = table.id, game.id
    for attempt in range(ATTEMPTS):
        known = {p.key: p for p in table.players}
        for player in game.players:
            if name_key(player.name) not in known:
                regular = TablePlayer(name=player.name, key=name_key(player.name))
                table.players.append(regular)
                known[regular.key] = regular
        try:
            db.session.flush()  # new regulars get their ids
            for player in game.players:
                player.table_player_id = known[name_key(player.name)].id
            game.table_id, game.table_token_hash = table.id, table.edit_token_hash
            db.session.flush()
            if game.deal_count:
                records.relink_seats(game)
            records.add_games([game.id])
            db.session.commit()
            return
        except IntegrityError:
            db.session.rollback()
            if attempt == ATTEMPTS - 1:
                raise
            fresh_table = get_table(table_id)
            fresh_game = games.get_game(game_id, deals=False)
            if fresh_table is None or fresh_game is None:
                raise LookupError("The table or the game no longer exists.") from None
            table, game = fresh_table, fresh_game


class AlreadyAtTable(ValueError):
    """The game was already put at a table; a game belongs to one table."""


def put_game_at_table(table: CardTable, game: Game) -> None:
    """Put a game started on its own at the table: its seats join the regulars and records.

    Raises AlreadyAtTable if the game is at a table already, RuleViolation (``players``)
    if its new names would take the table past its limit of regulars. The game's version
    moves on, so every open page and cached rendering of it shows the table from now on.
    """
    if game.table_id is not None:
        raise AlreadyAtTable(game.table_id)
    _check_room(table, [player.name for player in game.players])
    game_id = game.id
    attach_game(table, game)
    db.session.execute(update(Game).where(Game.id == game_id).values(version=Game.version + 1))
    _commit()


def put_game_at_new_table(name: object, game: Game) -> tuple[CardTable, str]:
    """Create a table named `name` with the game's players and put the game there.

    Return the table and its edit token. The table and the game's place at it are stored
    together or not at all: raises WrongType or RuleViolation (``name``) for a name no
    table may have, AlreadyAtTable if the game is at a table already, and then nothing is
    stored.
    """
    if game.table_id is not None:
        raise AlreadyAtTable(game.table_id)
    table, token = new_table_object(name)
    db.session.add(table)
    try:
        put_game_at_table(table, game)
    except BaseException:
        db.session.rollback()
        raise
    return table, token


def merge_players(table: CardTable, source_id: int, target_id: int) -> TablePlayer:
    """Make two spellings one person: the source's games and records move to the target.

    Raises LookupError if either is not a regular of this table, MergeRefused if both
    sat at one game.
    """
    by_id = {p.id: p for p in table.players}
    source, target = by_id.get(source_id), by_id.get(target_id)
    if source is None or target is None:
        raise LookupError("Both players must be regulars of this table.")
    if source is target:
        raise MergeRefused("Choose two different names to merge.")
    a, b = Player.__table__.alias("a"), Player.__table__.alias("b")
    together = select(a.c.game_id).where(
        a.c.table_player_id == source.id,
        exists().where(b.c.game_id == a.c.game_id, b.c.table_player_id == target.id),
    )
    if db.session.execute(together.limit(1)).first() is not None:
        raise MergeRefused(
            f"{source.name} and {target.name} played in the same game, "
            "so they are two different people."
        )
    db.session.execute(
        update(Player)
        .where(Player.table_player_id == source.id)
        .values(table_player_id=target.id)
        .execution_options(synchronize_session=False)
    )
    for model in (DealSeat, DealSeatTag):
        db.session.execute(
            update(model)
            .where(model.table_player_id == source.id)
            .values(table_player_id=target.id)
            .execution_options(synchronize_session=False)
        )
    records.recount([source.id, target.id])
    table.players.remove(source)
    db.session.delete(source)
    _commit()
    return target


# ---------------------------------------------------------------- the archive


def archive(
    table: CardTable,
    *,
    page: int = 1,
    per_page: int = PER_PAGE,
    player: int | None = None,
    ruleset: str | None = None,
    outcome: engine.Status | None = None,
) -> ArchivePage:
    """Return one page of the table's games, newest first, filtered; three queries."""
    where = [Game.table_id == table.id]
    if player is not None:
        seat = select(Player.id).where(Player.game_id == Game.id, Player.table_player_id == player)
        where.append(seat.exists())
    if ruleset:
        # An id no ruleset has matches no game, and never reaches the database (NUL).
        known = ruleset in {r.id for r in engine.rulesets()}
        where.append(Game.ruleset == ruleset if known else false())
    if outcome:
        where.append(Game.status == outcome)
    total = db.session.scalar(select(func.count()).select_from(Game).where(*where)) or 0
    page = max(1, min(page, max(1, math.ceil(total / per_page))))
    query = (
        select(Game)
        .where(*where)
        .order_by(Game.created_at.desc(), Game.id.desc())
        .limit(per_page)
        .offset((page - 1) * per_page)
        .options(selectinload(Game.players))
    )
    summaries = [game_summary(game) for game in db.session.scalars(query)]
    return ArchivePage(summaries, total, page, per_page)


def game_summary(game: Game) -> dict[str, Any]:
    """Return a game's row in the archive, from the state cached on the game."""
    names = [p.name for p in game.players]
    return {
        "id": game.id,
        "created_at": iso(game.created_at),
        "ruleset": game.ruleset,
        "target": game.target,
        "deal_count": game.deal_count,
        "status": game.status,
        "decided_by": game.decided_by,
        "winners": list(game.winners),
        "winner_names": [names[seat] for seat in game.winners],
        "players": [
            {"seat": p.seat, "name": p.name, "score": game.scores[p.seat]} for p in game.players
        ],
    }


# ---------------------------------------------------------------- internals


def _check_room(table: CardTable, names: list[str]) -> None:
    """Refuse names that would take the table past its limit of regulars (RuleViolation)."""
    known = {p.key for p in table.players}
    new_names = {name_key(n) for n in names} - known
    if new_names and len(known) + len(new_names) > limits.REGULARS_PER_TABLE:
        raise engine.RuleViolation({"players": [TOO_MANY_REGULARS]})


def _commit() -> None:
    try:
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
