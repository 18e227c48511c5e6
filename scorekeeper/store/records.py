"""Keep the per-seat deal records and the winners' flags in step with the stored deals.

Statistics are aggregated in SQL over ``deal_seats`` (one row per seat per deal) and
``deal_seat_tags`` (the statistics tags a seat earned in a deal). Both are copied from
what the game's ruleset says about each stored deal (``roles`` and ``seat_tags``), never
the source of truth. Whatever writes deals calls this module in the same transaction:
the games service when a deal is added, corrected or undone, the tables service when a
game's seats are linked to regulars, the importer for the games it stores. ``rebuild``
writes every row again from the stored deals (``flask rebuild-records``), for a database
whose records are in doubt.

Each regular's totals (``regular_deal_totals``, ``regular_tag_totals``) are kept with
the rows, in the same transaction: whatever adds rows adds their totals, whatever
removes or relinks rows takes theirs away first. A regular's statistics are then read
from a few rows, however many deals the table has played. Totals are added by upsert,
in key order, so two games saved at once at one table wait for each other, never
deadlock.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    Select,
    Table,
    bindparam,
    case,
    cast,
    delete,
    func,
    insert,
    literal,
    literal_column,
    select,
    tuple_,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite

from scorekeeper import engine
from scorekeeper.extensions import db
from scorekeeper.store.models import (
    MADE_KEYS,
    NO_BID,
    NO_DECISION,
    Deal,
    DealSeat,
    DealSeatTag,
    Game,
    Player,
    RegularDealTotal,
    RegularGameTotal,
    RegularResult,
    RegularTagTotal,
    TableEnding,
    TablePlayer,
)

BATCH = 1000
"""Rows written per statement when rebuilding."""
STREAK_PAGE = 200
"""A regular's results read at a time while their streaks are numbered again."""

NO_ROLE = "none"
"""The role stored for every seat of a deal where nothing was played."""


@dataclass(frozen=True, slots=True)
class Seating:
    """What the records of one game's deals are made from: its rules and its regulars."""

    game_id: str
    """The game the rows belong to."""
    config: engine.GameConfig
    """The game's rules, players and house rules."""
    table_players: Sequence[int | None]
    """Each seat's regular at the game's table (None where there is none)."""
    bid_field: str | None
    """The entry field that holds the bid, where the ruleset has one."""


def seating(
    game_id: str, config: engine.GameConfig, table_players: Sequence[int | None]
) -> Seating:
    """Return what the rows of this game's deals need."""
    bid_field = next(
        (f.name for f in config.ruleset.entry_fields(config) if f.kind == engine.FieldKind.BID),
        None,
    )
    return Seating(game_id, config, tuple(table_players), bid_field)


def seat_rows(
    seats: Seating, document: Mapping[str, Any]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Return the ``deal_seats`` rows of one deal document and its ``deal_seat_tags`` rows."""
    config = seats.config
    result = engine.DealResult.from_document(document)
    roles = config.ruleset.roles(config, result)
    tags = config.ruleset.seat_tags(config, result)
    bid = result.get(seats.bid_field) if seats.bid_field and result.played else None
    # Bids are tabled by level; a bid that is not a number is counted by its tag, if any.
    bid = bid if isinstance(bid, int) and not isinstance(bid, bool) else None
    players = seats.table_players
    rows = [
        {
            "game_id": seats.game_id,
            "number": result.number,
            "seat": seat,
            "table_player_id": players[seat] if seat < len(players) else None,
            "ruleset": config.ruleset.id,
            "role": NO_ROLE if role is None else str(role),
            "bid": bid,
            "made": result.made if role is not None else None,
            "delta": delta,
        }
        for seat, (role, delta) in enumerate(zip(roles, result.deltas, strict=True))
    ]
    tag_rows = [
        {
            "game_id": seats.game_id,
            "number": result.number,
            "seat": seat,
            "tag": tag,
            "table_player_id": rows[seat]["table_player_id"],
            "ruleset": config.ruleset.id,
        }
        for seat, seat_tags in enumerate(tags)
        for tag in sorted(seat_tags)
    ]
    return rows, tag_rows


def record_deals(game: Game, deals: Iterable[Deal], *, replace: bool = True) -> None:
    """Write the rows of these deals of the game, replacing the rows they had.

    ``replace=False`` skips the delete, for deals that cannot have rows yet.
    """
    deals = list(deals)
    if not deals:
        return
    if replace:
        _forget(game.id, [deal.number for deal in deals])
    seats = seating(game.id, game_config(game), _table_players(game))
    rows: list[dict[str, Any]] = []
    tag_rows: list[dict[str, Any]] = []
    for deal in deals:
        more, more_tags = seat_rows(seats, deal.result)
        rows.extend(more)
        tag_rows.extend(more_tags)
    _insert(rows, tag_rows)
    account(_deals_of(game.id, [deal.number for deal in deals]), 1)


def forget_deal(game: Game, number: int) -> None:
    """Remove the rows of a deal that was undone."""
    _forget(game.id, [number])


def record_winners(game: Game) -> None:
    """Set each seat's ``won`` flag from the game's winners (`record_ending` calls it)."""
    db.session.execute(
        update(Player)
        .where(Player.game_id == game.id)
        .values(won=Player.seat.in_(list(game.winners or ())))
    )


def relink_seats(game: Game) -> None:
    """Copy each seat's regular (``table_player_id``) onto the game's rows and tags."""
    account(DealSeat.game_id == game.id, -1)
    for player in game.players:
        for model in (DealSeat, DealSeatTag):
            db.session.execute(
                update(model)
                .where(model.game_id == game.id, model.seat == player.seat)
                .values(table_player_id=player.table_player_id)
            )
    account(DealSeat.game_id == game.id, 1)


def game_config(game: Game) -> engine.GameConfig:
    """Return the engine's configuration of a stored game."""
    return engine.configure(
        ruleset=game.ruleset,
        players=[player.name for player in game.players],
        first_dealer=game.first_dealer,
        target=game.target,
        house_rules=dict(game.house_rules),
    )


def rebuild() -> int:
    """Write every row and every ``won`` flag again from the stored deals; return the rows."""
    try:
        db.session.execute(delete(DealSeatTag))
        db.session.execute(delete(DealSeat))
        written = write_all(db.session.connection())
        winners = {
            game_id: set(game_winners or ())
            for game_id, game_winners in db.session.execute(select(Game.id, Game.winners))
        }
        changed = [
            {"id": player_id, "won": seat in winners.get(game_id, ())}
            for player_id, game_id, seat, flag in db.session.execute(
                select(Player.id, Player.game_id, Player.seat, Player.won)
            )
            if flag != (seat in winners.get(game_id, ()))
        ]
        if changed:
            db.session.execute(update(Player), changed)
        # The regulars' games and streaks are counted from the won flags just set right.
        write_totals(db.session.connection())
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    return written


def write_all(connection: Connection) -> int:
    """Write the rows of every stored deal on this connection (tables empty); return the rows.

    Works on a bare connection, so a migration can fill the records as the app would.
    """
    players: dict[str, list[tuple[int, str, int | None]]] = {}
    for game_id, seat, name, table_player_id in connection.execute(
        select(Player.game_id, Player.seat, Player.name, Player.table_player_id)
    ):
        players.setdefault(game_id, []).append((seat, name, table_player_id))
    games: dict[str, Seating] = {}
    for game_id, ruleset, first_dealer, target, house_rules in connection.execute(
        select(Game.id, Game.ruleset, Game.first_dealer, Game.target, Game.house_rules)
    ):
        seated = sorted(players.get(game_id, []))
        config = engine.configure(
            ruleset=ruleset,
            players=[name for _, name, _ in seated],
            first_dealer=first_dealer,
            target=target,
            house_rules=dict(house_rules or {}),
        )
        games[game_id] = seating(game_id, config, [p for _, _, p in seated])
    written = 0
    rows: list[dict[str, Any]] = []
    tag_rows: list[dict[str, Any]] = []
    query = select(Deal.game_id, Deal.result).order_by(Deal.game_id, Deal.number)
    for game_id, result in connection.execute(query.execution_options(yield_per=BATCH)):
        more, more_tags = seat_rows(games[game_id], result)
        rows.extend(more)
        tag_rows.extend(more_tags)
        if len(rows) >= BATCH:
            _insert(rows, tag_rows, connection)
            written += len(rows)
            rows, tag_rows = [], []
    _insert(rows, tag_rows, connection)
    return written + len(rows)


def _insert(
    rows: list[dict[str, Any]], tag_rows: list[dict[str, Any]], connection: Connection | None = None
) -> None:
    """Insert seat rows, then the tags that refer to them."""
    insert_rows(DealSeat, rows, connection)
    insert_rows(DealSeatTag, tag_rows, connection)


def insert_rows(
    model: Any, rows: list[dict[str, Any]], connection: Connection | None = None
) -> None:
    """Insert rows of one model (each with the same keys), `BATCH` to a statement.

    The table's insert, not the model's: no ORM bookkeeping. SQLite takes it as a plain
    executemany. On PostgreSQL an executemany is one statement per row on the wire and
    psycopg's work for each (a 100-game import is about 7,000 rows), so each column's
    values go as one array instead, and the rows are read from them on the server: one
    ``INSERT … SELECT * FROM unnest(…)`` per batch, the same statement every time.
    """
    if not rows:
        return
    run = (connection or db.session).execute
    table = table_of(model)
    bind = connection if connection is not None else db.session.get_bind()
    if bind.dialect.name != "postgresql":
        for start in range(0, len(rows), BATCH):
            run(insert(table), rows[start : start + BATCH])
        return
    columns = [column for column in table.columns if column.key in rows[0]]
    arrays = [
        cast(bindparam(f"unnest_{c.key}", type_=postgresql.ARRAY(c.type)), postgresql.ARRAY(c.type))
        for c in columns
    ]
    rows_of: Select[Any] = select(literal_column("*")).select_from(func.unnest(*arrays))
    statement = insert(table).from_select([c.key for c in columns], rows_of)
    for start in range(0, len(rows), BATCH):
        batch = rows[start : start + BATCH]
        run(statement, {f"unnest_{c.key}": [row[c.key] for row in batch] for c in columns})


def table_of(model: Any) -> Table:
    """Return a model's table, whose insert is a plain executemany (no ORM bookkeeping)."""
    table: Table = model.metadata.tables[model.__tablename__]
    return table


def _forget(game_id: str, numbers: list[int]) -> None:
    """Delete the tags, then the rows, of these deals of the game (their totals first)."""
    account(_deals_of(game_id, numbers), -1)
    db.session.execute(
        delete(DealSeatTag).where(DealSeatTag.game_id == game_id, DealSeatTag.number.in_(numbers))
    )
    db.session.execute(
        delete(DealSeat).where(DealSeat.game_id == game_id, DealSeat.number.in_(numbers))
    )


def _table_players(game: Game) -> list[int | None]:
    """Return each seat's regular at the game's table (None where there is none)."""
    players = sorted(game.players, key=lambda p: p.seat)
    places: list[int | None] = [None] * (players[-1].seat + 1 if players else 0)
    for player in players:
        places[player.seat] = player.table_player_id
    return places


# ---------------------------------------------------------------- the regulars' totals


def _deals_of(game_id: str, numbers: list[int]) -> ColumnElement[bool]:
    return (DealSeat.game_id == game_id) & DealSeat.number.in_(numbers)


def account(where: ColumnElement[bool], sign: int) -> None:
    """Add (`sign` 1) or take away (-1) the totals of the ``deal_seats`` rows matching
    `where` (written on ``deal_seats``; their tags come with them)."""
    keys, counted = _deal_groups()
    seats = select(*keys, *counted).where(where, DealSeat.table_player_id.is_not(None))
    rows = [
        {**dict(zip(DEAL_KEYS, key, strict=True)), "deals": sign * n, "points": sign * int(p)}
        for *key, n, p in db.session.execute(seats.group_by(*keys))
    ]
    tag_keys = (DealSeatTag.table_player_id, DealSeatTag.ruleset, DealSeatTag.tag)
    tags = (
        select(*tag_keys, func.count())
        .join(
            DealSeat,
            (DealSeat.game_id == DealSeatTag.game_id)
            & (DealSeat.number == DealSeatTag.number)
            & (DealSeat.seat == DealSeatTag.seat),
        )
        .where(where, DealSeatTag.table_player_id.is_not(None))
        .group_by(*tag_keys)
    )
    tag_rows = [
        {**dict(zip(TAG_KEYS, key, strict=True)), "deals": sign * n}
        for *key, n in db.session.execute(tags)
    ]
    _add(RegularDealTotal, DEAL_KEYS, ("deals", "points"), rows)
    _add(RegularTagTotal, TAG_KEYS, ("deals",), tag_rows)
    if sign < 0:
        players = {row["table_player_id"] for row in rows + tag_rows}
        for model in (RegularDealTotal, RegularTagTotal):
            db.session.execute(
                delete(model).where(model.table_player_id.in_(players), model.deals == 0)
            )


def recount(table_player_ids: Sequence[int]) -> None:
    """Write these regulars' totals again from their rows (after a merge moved them)."""
    ids = sorted(table_player_ids)
    _lock(ids)
    for model in (RegularDealTotal, RegularTagTotal, RegularGameTotal, RegularResult):
        db.session.execute(delete(model).where(model.table_player_id.in_(ids)))
    _write_totals(db.session.connection(), ids)
    _write_games(db.session.connection(), ids)


def write_totals(connection: Connection) -> None:
    """Write every regular's totals and results from the rows again; on a bare connection
    too, so a migration fills them as the app would."""
    write_deal_totals(connection)
    write_game_totals(connection)


def write_deal_totals(connection: Connection) -> None:
    """Write every regular's deal and tag totals from the rows again."""
    connection.execute(delete(RegularTagTotal))
    connection.execute(delete(RegularDealTotal))
    _write_totals(connection, None)


def write_game_totals(connection: Connection) -> None:
    """Write every regular's game totals and results from the seats and games again."""
    for model in (RegularResult, RegularGameTotal, TableEnding):
        connection.execute(delete(model))
    _write_games(connection, None)
    connection.execute(insert(TableEnding).from_select([*ENDING_KEYS, "games"], _endings()))


def _write_totals(connection: Connection, ids: list[int] | None) -> None:
    """Insert the totals of these regulars' rows (None: every regular's)."""
    keys, counted = _deal_groups()
    seats = select(*keys, *counted).where(DealSeat.table_player_id.is_not(None))
    tag_keys = (DealSeatTag.table_player_id, DealSeatTag.ruleset, DealSeatTag.tag)
    tags = select(*tag_keys, func.count()).where(DealSeatTag.table_player_id.is_not(None))
    if ids is not None:
        seats = seats.where(DealSeat.table_player_id.in_(ids))
        tags = tags.where(DealSeatTag.table_player_id.in_(ids))
    columns = [*DEAL_KEYS, "deals", "points"]
    connection.execute(insert(RegularDealTotal).from_select(columns, seats.group_by(*keys)))
    tagged = tags.group_by(*tag_keys)
    connection.execute(insert(RegularTagTotal).from_select([*TAG_KEYS, "deals"], tagged))


DEAL_KEYS = ("table_player_id", "ruleset", "role", "bid", "made")
"""`RegularDealTotal`'s key, in the order rows are locked."""
TAG_KEYS = ("table_player_id", "ruleset", "tag")
"""`RegularTagTotal`'s key."""


def _deal_groups() -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """Return the ``deal_seats`` expressions of a total's key, and its count and sum."""
    made = case((DealSeat.made.is_(None), -1), (DealSeat.made.is_(True), 1), else_=0)
    bid = func.coalesce(DealSeat.bid, NO_BID)
    keys = (DealSeat.table_player_id, DealSeat.ruleset, DealSeat.role, bid, made)
    return keys, (func.count(), func.coalesce(func.sum(DealSeat.delta), 0))


def _add(model: Any, keys: Sequence[str], sums: Sequence[str], rows: list[dict[str, Any]]) -> None:
    """Add the rows' counts to the totals with these keys, made where missing (upsert)."""
    if not rows:
        return
    rows.sort(key=lambda row: tuple(row[k] for k in keys))
    dialect = db.session.get_bind().dialect.name
    statement = (postgresql if dialect == "postgresql" else sqlite).insert(model)
    statement = statement.on_conflict_do_update(
        index_elements=list(keys),
        set_={name: getattr(model, name) + statement.excluded[name] for name in sums},
    )
    db.session.execute(statement, rows)


# ---------------------------------------------------------------- the regulars' games


@dataclass(frozen=True, slots=True)
class Ending:
    """How a game stands, as far as its regulars' games and results are concerned."""

    status: engine.Status
    """The game's status."""
    decided_by: str | None
    """The step of the win check that decided it, if any."""
    winners: tuple[int, ...]
    """The winning seats."""

    @property
    def finished(self) -> bool:
        """Whether the game counts among its regulars' finished games (and streaks)."""
        return self.status != engine.Status.IN_PROGRESS


def ending(game: Game) -> Ending:
    """Return how the game stands now (before a change, to hand to `record_ending`)."""
    return Ending(game.status, game.decided_by, tuple(game.winners or ()))


def record_ending(game: Game, before: Ending) -> None:
    """Keep the seats' won flags, the regulars' game totals and results in step with a
    change that moved the game's outcome from `before` (nothing to do when it did not)."""
    after = ending(game)
    if after == before:
        return
    if after.winners != before.winners:
        record_winners(game)
    seats = [(p.seat, p.table_player_id) for p in game.players if p.table_player_id is not None]
    if not seats:
        return
    _lock(sorted({pid for _, pid in seats}))
    counted: dict[tuple[Any, ...], dict[str, Any]] = {}
    for state, sign in ((before, -1), (after, 1)):
        for seat, pid in seats:
            key = (pid, game.ruleset, state.status, state.decided_by or NO_DECISION)
            row = counted.setdefault(
                key, {**dict(zip(GAME_KEYS, key, strict=True)), "games": 0, "won": 0}
            )
            row["games"] += sign
            row["won"] += sign * (seat in state.winners)
    _add(RegularGameTotal, GAME_KEYS, ("games", "won"), list(counted.values()))
    _forget_empty(RegularGameTotal, {pid for _, pid in seats})
    if before.decided_by != after.decided_by and game.table_id is not None:
        endings = [
            {"table_id": game.table_id, "decided_by": state.decided_by, "games": sign}
            for state, sign in ((before, -1), (after, 1))
            if state.decided_by is not None
        ]
        _add(TableEnding, ENDING_KEYS, ("games",), endings)
        db.session.execute(
            delete(TableEnding).where(TableEnding.table_id == game.table_id, TableEnding.games == 0)
        )
    if before.finished or after.finished:
        _place_results([game.id])


def account_rows(rows: list[dict[str, Any]], tag_rows: list[dict[str, Any]]) -> None:
    """Add the totals of ``deal_seats`` rows and their tags just written (an import's),
    counted from the rows in hand, as `account` counts them from the table.

    Reading back what was just written by a list of games would cost a plan PostgreSQL
    makes from statistics it may not have yet: a scan of every seat of the database.
    """
    deals: dict[tuple[Any, ...], dict[str, Any]] = {}
    for row in rows:
        if row["table_player_id"] is None:
            continue
        bid = NO_BID if row["bid"] is None else row["bid"]
        key = (row["table_player_id"], row["ruleset"], row["role"], bid, MADE_KEYS[row["made"]])
        total = deals.setdefault(
            key, {**dict(zip(DEAL_KEYS, key, strict=True)), "deals": 0, "points": 0}
        )
        total["deals"] += 1
        total["points"] += row["delta"]
    tags: dict[tuple[Any, ...], dict[str, Any]] = {}
    for row in tag_rows:
        if row["table_player_id"] is None:
            continue
        tag = (row["table_player_id"], row["ruleset"], row["tag"])
        tags.setdefault(tag, {**dict(zip(TAG_KEYS, tag, strict=True)), "deals": 0})["deals"] += 1
    _add(RegularDealTotal, DEAL_KEYS, ("deals", "points"), list(deals.values()))
    _add(RegularTagTotal, TAG_KEYS, ("deals",), list(tags.values()))


def add_seated_games(seated: Sequence[tuple[Game, Sequence[int | None]]]) -> None:
    """Add the regulars' game totals, results and the tables' endings of games just
    imported, each with its seats' regulars, counted from the games in hand (see
    `account_rows`)."""
    totals: dict[tuple[Any, ...], dict[str, Any]] = {}
    endings: dict[tuple[str, str], dict[str, Any]] = {}
    results: list[dict[str, Any]] = []
    starts: dict[int, Any] = {}
    placed: dict[int, set[str]] = {}
    for game, places in seated:
        state = ending(game)
        for seat, pid in enumerate(places):
            if pid is None:
                continue
            won = seat in state.winners
            key = (pid, game.ruleset, state.status, state.decided_by or NO_DECISION)
            total = totals.setdefault(
                key, {**dict(zip(GAME_KEYS, key, strict=True)), "games": 0, "won": 0}
            )
            total["games"] += 1
            total["won"] += won
            if state.finished:
                results.append(
                    {
                        "table_player_id": pid,
                        "created_at": game.created_at,
                        "game_id": game.id,
                        "won": won,
                        "streak": -1,
                    }
                )
                if pid not in starts or game.created_at < starts[pid]:
                    starts[pid] = game.created_at
                placed.setdefault(pid, set()).add(game.id)
        if game.table_id is not None and state.decided_by is not None:
            decided = (game.table_id, state.decided_by)
            endings.setdefault(decided, {"table_id": decided[0], "decided_by": decided[1]})
            endings[decided]["games"] = endings[decided].get("games", 0) + 1
    _lock(sorted({key[0] for key in totals}))
    _add(RegularGameTotal, GAME_KEYS, ("games", "won"), list(totals.values()))
    _add(TableEnding, ENDING_KEYS, ("games",), list(endings.values()))
    insert_rows(RegularResult, results)
    _number_from(starts, placed)


def add_games(game_ids: Sequence[str]) -> None:
    """Add the regulars' game totals and results of these games (just put at a table or
    imported), counted from their seats."""
    game_ids = list(game_ids)
    if not game_ids:
        return
    for start in range(0, len(game_ids), BATCH):
        batch = game_ids[start : start + BATCH]
        keys, counted = _game_groups()
        seats = (
            select(*keys, *counted)
            .join(Game, Game.id == Player.game_id)
            .where(Player.game_id.in_(batch), Player.table_player_id.is_not(None))
            .group_by(*keys)
        )
        rows = [
            {**dict(zip(GAME_KEYS, key, strict=True)), "games": n, "won": int(w)}
            for *key, n, w in db.session.execute(seats)
        ]
        _lock(sorted({row["table_player_id"] for row in rows}))
        _add(RegularGameTotal, GAME_KEYS, ("games", "won"), rows)
        decided = _endings().where(Game.id.in_(batch))
        endings = [
            {"table_id": table_id, "decided_by": decided_by, "games": n}
            for table_id, decided_by, n in db.session.execute(decided)
        ]
        _add(TableEnding, ENDING_KEYS, ("games",), endings)
    _place_results(game_ids)


GAME_KEYS = ("table_player_id", "ruleset", "status", "decided_by")
"""`RegularGameTotal`'s key, in the order rows are locked."""
ENDING_KEYS = ("table_id", "decided_by")
"""`TableEnding`'s key."""


def _endings() -> Select[str | None, str | None, int]:
    """Return the query counting the games at tables by the step that decided them."""
    return (
        select(Game.table_id, Game.decided_by, func.count())
        .where(Game.table_id.is_not(None), Game.decided_by.is_not(None))
        .group_by(Game.table_id, Game.decided_by)
    )


def _game_groups() -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """Return the ``players``/``games`` expressions of a game total's key, and its sums."""
    keys = (
        Player.table_player_id,
        Game.ruleset,
        Game.status,
        func.coalesce(Game.decided_by, NO_DECISION),
    )
    return keys, (func.count(), func.coalesce(func.sum(case((Player.won, 1), else_=0)), 0))


def _lock(table_player_ids: Sequence[int]) -> None:
    """Hold these regulars (in id order) until the commit, so two games of one regular
    ending at once number its streaks one after the other (PostgreSQL; SQLite has one
    writer). ``FOR NO KEY UPDATE`` leaves the totals' foreign keys free to be checked."""
    if table_player_ids and db.session.get_bind().dialect.name == "postgresql":
        held = (
            select(TablePlayer.id)
            .where(TablePlayer.id.in_(list(table_player_ids)))
            .order_by(TablePlayer.id)
            .with_for_update(key_share=True)
        )
        db.session.execute(held).all()


def _forget_empty(model: Any, table_player_ids: Iterable[int]) -> None:
    """Delete these regulars' totals that count nothing any more."""
    db.session.execute(
        delete(model).where(model.table_player_id.in_(list(table_player_ids)), model.games == 0)
    )


def _place_results(game_ids: Sequence[str]) -> None:
    """Write these games' results again from their seats, then number again the streaks
    that follow each one, for each of its regulars."""
    starts: dict[int, Any] = {}
    placed: dict[int, set[str]] = {}
    key = (RegularResult.created_at, RegularResult.game_id)
    for start in range(0, len(game_ids), BATCH):
        batch = list(game_ids[start : start + BATCH])
        kept = RegularResult.game_id.in_(batch)
        old = db.session.execute(select(RegularResult.table_player_id, *key).where(kept)).all()
        db.session.execute(delete(RegularResult).where(kept))
        finished = (
            select(Player.table_player_id, Game.created_at, Game.id, Player.won, literal(-1))
            .join(Game, Game.id == Player.game_id)
            .where(
                Player.game_id.in_(batch),
                Player.table_player_id.is_not(None),
                Game.status != engine.Status.IN_PROGRESS,
            )
        )
        columns = ["table_player_id", "created_at", "game_id", "won", "streak"]
        db.session.execute(insert(RegularResult).from_select(columns, finished))
        new = db.session.execute(
            select(RegularResult.table_player_id, *key).where(kept, RegularResult.streak < 0)
        ).all()
        for pid, created_at, _ in [*old, *new]:
            if pid not in starts or created_at < starts[pid]:
                starts[pid] = created_at
        for pid, _, game_id in new:
            placed.setdefault(pid, set()).add(game_id)
    _number_from(starts, placed)


def _number_from(starts: Mapping[int, Any], placed: Mapping[int, set[str]]) -> None:
    """Number each regular's streaks again from the first of its results made at `starts`
    (every game of that time: ids are ordered by the database's collation, not Python's)."""
    for pid in sorted(starts):
        _number_streaks(pid, (starts[pid], ""), placed.get(pid, set()))


def _number_streaks(pid: int, start: tuple[Any, str], placed: set[str]) -> None:
    """Number the regular's streaks again from the result at `start` (or the first after
    it) on, until every result `placed` is passed and the numbers agree again.

    A result's streak depends only on the one before it, so once one is found right and
    none of the results just written is still ahead, every later one is right too.
    """
    key = (RegularResult.created_at, RegularResult.game_id)
    mine = RegularResult.table_player_id == pid
    previous = (
        select(RegularResult.streak)
        .where(mine, tuple_(*key) < start)
        .order_by(RegularResult.created_at.desc(), RegularResult.game_id.desc())
        .limit(1)
    )
    run = db.session.scalar(previous) or 0
    ahead = set(placed)
    after = tuple_(*key) >= start
    while True:
        page = db.session.execute(
            select(*key, RegularResult.won, RegularResult.streak)
            .where(mine, after)
            .order_by(*key)
            .limit(STREAK_PAGE)
        ).all()
        changed = []
        agreed = False
        for created_at, game_id, won, streak in page:
            run = run + 1 if won else 0
            ahead.discard(game_id)
            if streak != run:
                changed.append(
                    {
                        "table_player_id": pid,
                        "created_at": created_at,
                        "game_id": game_id,
                        "streak": run,
                    }
                )
            elif not ahead:
                agreed = True
                break
        if changed:
            db.session.execute(update(RegularResult), changed)
        if agreed or len(page) < STREAK_PAGE:
            return
        after = tuple_(*key) > (page[-1].created_at, page[-1].game_id)


def _write_games(connection: Connection, ids: list[int] | None) -> None:
    """Insert the game totals and results of these regulars' seats (None: every regular's),
    the streaks numbered by gaps and islands over each regular's finished games."""
    keys, counted = _game_groups()
    seats = (
        select(*keys, *counted)
        .join(Game, Game.id == Player.game_id)
        .where(Player.table_player_id.is_not(None))
    )
    finished: list[ColumnElement[bool]] = [
        Player.table_player_id.is_not(None),
        Game.status != engine.Status.IN_PROGRESS,
    ]
    if ids is not None:
        seats = seats.where(Player.table_player_id.in_(ids))
        finished.append(Player.table_player_id.in_(ids))
    columns = [*GAME_KEYS, "games", "won"]
    connection.execute(insert(RegularGameTotal).from_select(columns, seats.group_by(*keys)))
    order = (Game.created_at, Game.id)
    ranked = (
        select(
            Player.table_player_id.label("pid"),
            Game.created_at.label("created_at"),
            Game.id.label("game_id"),
            Player.won.label("won"),
            (
                func.row_number().over(partition_by=Player.table_player_id, order_by=order)
                - func.row_number().over(
                    partition_by=(Player.table_player_id, Player.won), order_by=order
                )
            ).label("island"),
        )
        .join(Game, Game.id == Player.game_id)
        .where(*finished)
        .subquery()
    )
    in_run = func.row_number().over(
        partition_by=(ranked.c.pid, ranked.c.won, ranked.c.island),
        order_by=(ranked.c.created_at, ranked.c.game_id),
    )
    results = select(
        ranked.c.pid,
        ranked.c.created_at,
        ranked.c.game_id,
        ranked.c.won,
        case((ranked.c.won, in_run), else_=0),
    )
    columns = ["table_player_id", "created_at", "game_id", "won", "streak"]
    connection.execute(insert(RegularResult).from_select(columns, results))
