"""Keep the per-seat deal records and the winners' flags in step with the stored deals.

Statistics are aggregated in SQL over ``deal_seats`` (one row per seat per deal) and
``deal_seat_tags`` (the statistics tags a seat earned in a deal). Both are copied from
what the game's ruleset says about each stored deal (``roles`` and ``seat_tags``), never
the source of truth. Whatever writes deals calls this module in the same transaction:
the games service when a deal is added, corrected or undone, the tables service when a
game's seats are linked to regulars, the importer for the games it stores. ``rebuild``
writes every row again from the stored deals (``flask rebuild-records``), for a database
whose records are in doubt.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, delete, insert, select, update

from scorekeeper import engine
from scorekeeper.extensions import db
from scorekeeper.store.models import Deal, DealSeat, DealSeatTag, Game, Player

BATCH = 1000
"""Rows written per statement when rebuilding."""

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


def forget_deal(game: Game, number: int) -> None:
    """Remove the rows of a deal that was undone."""
    _forget(game.id, [number])


def record_winners(game: Game) -> None:
    """Set each seat's ``won`` flag from the game's winners."""
    db.session.execute(
        update(Player)
        .where(Player.game_id == game.id)
        .values(won=Player.seat.in_(list(game.winners or ())))
    )


def relink_seats(game: Game) -> None:
    """Copy each seat's regular (``table_player_id``) onto the game's rows and tags."""
    for player in game.players:
        for model in (DealSeat, DealSeatTag):
            db.session.execute(
                update(model)
                .where(model.game_id == game.id, model.seat == player.seat)
                .values(table_player_id=player.table_player_id)
            )


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
    run = (connection or db.session).execute
    if rows:
        run(insert(DealSeat), rows)
    if tag_rows:
        run(insert(DealSeatTag), tag_rows)


def _forget(game_id: str, numbers: list[int]) -> None:
    """Delete the tags, then the rows, of these deals of the game."""
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
