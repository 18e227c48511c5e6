"""Keep the per-seat deal records and the winners' flags in step with the stored deals.

Statistics are aggregated in SQL over ``deal_seats``: one row per seat per deal, copied
from the engine's deal document, never the source of truth. Whatever writes deals calls
this module in the same transaction: the games service when a deal is added, corrected
or undone, the tables service when a game's seats are linked to regulars, the importer
for the games it stores. ``rebuild`` writes every row again from the stored deals
(``flask rebuild-records``), for a database whose records are in doubt.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy import delete, insert, select, update

from scorekeeper.extensions import db
from scorekeeper.store.models import Deal, DealSeat, Game, Player

BATCH = 1000
"""Rows written per statement when rebuilding."""


def seat_rows(
    game_id: str, result: Mapping[str, Any], table_players: Sequence[int | None]
) -> list[dict[str, Any]]:
    """Return the ``deal_seats`` rows of one deal document, one per seat."""
    deltas = result.get("deltas") or ()
    number = result["number"]
    if result.get("thrown_in") or not result.get("bidders"):
        return [
            {
                "game_id": game_id,
                "number": number,
                "seat": seat,
                "table_player_id": table_players[seat] if seat < len(table_players) else None,
                "role": "none",
                "bid": None,
                "made": None,
                "alone": False,
                "delta": delta,
            }
            for seat, delta in enumerate(deltas)
        ]
    bidders = list(result["bidders"])
    bid = result.get("bid")
    bid = bid if isinstance(bid, int) and not isinstance(bid, bool) else None
    rows = []
    for seat, delta in enumerate(deltas):
        if seat == bidders[0]:
            role = "bidder"
        elif seat in bidders[1:]:
            role = "partner"
        else:
            role = "opponent"
        rows.append(
            {
                "game_id": game_id,
                "number": number,
                "seat": seat,
                "table_player_id": table_players[seat] if seat < len(table_players) else None,
                "role": role,
                "bid": bid,
                "made": result.get("made"),
                "alone": len(bidders) == 1,
                "delta": delta,
            }
        )
    return rows


def record_deals(game: Game, deals: Iterable[Deal], *, replace: bool = True) -> None:
    """Write the rows of these deals of the game, replacing the rows they had.

    ``replace=False`` skips the delete, for deals that cannot have rows yet.
    """
    deals = list(deals)
    if not deals:
        return
    table_players = _table_players(game)
    if replace:
        numbers = [deal.number for deal in deals]
        db.session.execute(
            delete(DealSeat).where(DealSeat.game_id == game.id, DealSeat.number.in_(numbers))
        )
    rows = [row for deal in deals for row in seat_rows(game.id, deal.result, table_players)]
    if rows:
        db.session.execute(insert(DealSeat), rows)


def forget_deal(game: Game, number: int) -> None:
    """Remove the rows of a deal that was undone."""
    db.session.execute(
        delete(DealSeat).where(DealSeat.game_id == game.id, DealSeat.number == number)
    )


def record_winners(game: Game) -> None:
    """Set each seat's ``won`` flag from the game's winners."""
    db.session.execute(
        update(Player)
        .where(Player.game_id == game.id)
        .values(won=Player.seat.in_(list(game.winners or ())))
    )


def relink_seats(game: Game) -> None:
    """Copy each seat's regular (``table_player_id``) onto the game's rows."""
    for player in game.players:
        db.session.execute(
            update(DealSeat)
            .where(DealSeat.game_id == game.id, DealSeat.seat == player.seat)
            .values(table_player_id=player.table_player_id)
        )


def rebuild() -> int:
    """Write every row and every ``won`` flag again from the stored deals; return the rows."""
    try:
        db.session.execute(delete(DealSeat))
        seats: dict[str, list[int | None]] = {}
        won: dict[int, tuple[str, int, bool]] = {}
        for player_id, game_id, seat, table_player_id, flag in db.session.execute(
            select(Player.id, Player.game_id, Player.seat, Player.table_player_id, Player.won)
        ):
            places = seats.setdefault(game_id, [])
            places.extend([None] * (seat + 1 - len(places)))
            places[seat] = table_player_id
            won[player_id] = (game_id, seat, flag)
        written = 0
        rows: list[dict[str, Any]] = []
        query = select(Deal.game_id, Deal.result).order_by(Deal.game_id, Deal.number)
        for game_id, result in db.session.execute(query.execution_options(yield_per=BATCH)):
            rows.extend(seat_rows(game_id, result, seats.get(game_id, [])))
            if len(rows) >= BATCH:
                db.session.execute(insert(DealSeat), rows)
                written += len(rows)
                rows = []
        if rows:
            db.session.execute(insert(DealSeat), rows)
            written += len(rows)
        winners = {
            game_id: set(game_winners or ())
            for game_id, game_winners in db.session.execute(select(Game.id, Game.winners))
        }
        changed = [
            {"id": player_id, "won": seat in winners.get(game_id, ())}
            for player_id, (game_id, seat, flag) in won.items()
            if flag != (seat in winners.get(game_id, ()))
        ]
        if changed:
            db.session.execute(update(Player), changed)
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    return written


def _table_players(game: Game) -> list[int | None]:
    """Return each seat's regular at the game's table (None where there is none)."""
    players = sorted(game.players, key=lambda p: p.seat)
    places: list[int | None] = [None] * (players[-1].seat + 1 if players else 0)
    for player in players:
        places[player.seat] = player.table_player_id
    return places
