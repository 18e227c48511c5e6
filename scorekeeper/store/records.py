"""Keep the per-seat deal records and the winners' flags in step with every stored deal.

Statistics are aggregated in SQL over ``deal_seats``: one row per seat per deal, copied
from the engine's deal document. The copy is made here, in a flush hook, so that every
path that writes deals (the store's add, correct and undo, imports, anything later)
keeps it right without calling us: a new or changed deal rewrites its rows, a deleted
deal removes them, a game whose winners change updates its players' ``won`` flags.
"""

from collections.abc import Mapping, Sequence
from typing import Any

from flask_sqlalchemy.session import Session
from sqlalchemy import delete, event, insert, inspect, select, update

from scorekeeper.store.models import Deal, DealSeat, Game, Player


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


def _changed(obj: object, *names: str) -> bool:
    state = inspect(obj)
    return any(state.attrs[name].history.has_changes() for name in names)


@event.listens_for(Session, "after_flush")
def _after_flush(session: Session, _context: object) -> None:
    """Rewrite the records of the deals and games this flush touched."""
    written: dict[str, list[Deal]] = {}
    removed: list[tuple[str, int]] = []
    games: list[Game] = []
    players: list[Player] = []
    for obj in session.new:
        if isinstance(obj, Deal):
            written.setdefault(obj.game_id, []).append(obj)
        elif isinstance(obj, Game) and obj.winners:
            games.append(obj)
    for obj in session.dirty:
        if isinstance(obj, Deal) and _changed(obj, "result", "number"):
            written.setdefault(obj.game_id, []).append(obj)
        elif isinstance(obj, Game) and _changed(obj, "winners"):
            games.append(obj)
        elif isinstance(obj, Player) and _changed(obj, "table_player_id"):
            players.append(obj)
    for obj in session.deleted:
        if isinstance(obj, Deal):
            removed.append((obj.game_id, obj.number))
    if not (written or removed or games or players):
        return

    connection = session.connection()
    for game_id, number in removed:
        connection.execute(
            delete(DealSeat).where(DealSeat.game_id == game_id, DealSeat.number == number)
        )
    for game_id, deals in written.items():
        seats = connection.execute(
            select(Player.seat, Player.table_player_id).where(Player.game_id == game_id)
        ).all()
        table_players = [None] * (max((s for s, _ in seats), default=-1) + 1)
        for seat, table_player_id in seats:
            table_players[seat] = table_player_id
        numbers = [deal.number for deal in deals]
        connection.execute(
            delete(DealSeat).where(DealSeat.game_id == game_id, DealSeat.number.in_(numbers))
        )
        rows = [row for deal in deals for row in seat_rows(game_id, deal.result, table_players)]
        if rows:
            connection.execute(insert(DealSeat), rows)
    for game in games:
        connection.execute(
            update(Player)
            .where(Player.game_id == game.id)
            .values(won=Player.seat.in_(list(game.winners or ())))
        )
    for player in players:
        connection.execute(
            update(DealSeat)
            .where(DealSeat.game_id == player.game_id, DealSeat.seat == player.seat)
            .values(table_player_id=player.table_player_id)
        )
