"""Each regular's record at a table, aggregated in SQL: four queries however many games.

Reads ``players`` (who sat where, who won) and ``deal_seats`` (one row per seat per deal,
kept by ``scorekeeper.store.records``). Thrown-in deals are not counted as deals played: nothing
was at stake in them.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import and_, case, func, select

from scorekeeper.extensions import db
from scorekeeper.store.models import CardTable, DealSeat, Game, Player, TablePlayer

BIDS = (3, 4, 5, 6)
DECIDED_BY = ("highest", "bidder", "partner", "shared", "lowest_at_start", "draw", "moon")


def _empty(player: TablePlayer) -> dict[str, Any]:
    return {
        "id": player.id,
        "name": player.name,
        "games": 0,
        "won": 0,
        "win_rate": None,
        "finished": 0,
        "deals": 0,
        "points": 0,
        "points_per_deal": None,
        "bids": {str(b): {"made": 0, "set": 0} for b in BIDS},
        "bids_made": 0,
        "bids_set": 0,
        "partner": {"called": 0, "made": 0, "set": 0, "points": 0},
        "alone": {"played": 0, "made": 0, "set": 0},
        "longest_streak": 0,
        "wins_by": {},
    }


def table_stats(table: CardTable, player_id: int | None = None) -> dict[str, Any]:
    """Return every regular's statistics (or one regular's), and how the table's games ended."""
    players = [p for p in table.players if player_id is None or p.id == player_id]
    by_id = {p.id: _empty(p) for p in players}
    ids = list(by_id)
    if not ids:
        return {"players": [], "endings": {}}
    at_table = Game.table_id == table.id

    # 1. Games played and won, and how each win was decided.
    games = (
        select(
            Player.table_player_id,
            Game.status,
            Game.decided_by,
            func.count(),
            func.coalesce(func.sum(case((Player.won, 1), else_=0)), 0),
        )
        .join(Game, Game.id == Player.game_id)
        .where(at_table, Player.table_player_id.in_(ids))
        .group_by(Player.table_player_id, Game.status, Game.decided_by)
    )
    for pid, status, decided_by, count, won in db.session.execute(games):
        record = by_id[pid]
        record["games"] += count
        record["won"] += int(won)
        if status != "in_progress":
            record["finished"] += count
        if won and decided_by:
            record["wins_by"][decided_by] = record["wins_by"].get(decided_by, 0) + int(won)

    # 2. Every deal each one sat in, by role, bid, result and whether the bidder went alone.
    deals = (
        select(
            DealSeat.table_player_id,
            DealSeat.role,
            DealSeat.bid,
            DealSeat.made,
            DealSeat.alone,
            func.count(),
            func.coalesce(func.sum(DealSeat.delta), 0),
        )
        .where(DealSeat.table_player_id.in_(ids), DealSeat.role != "none")
        .group_by(
            DealSeat.table_player_id, DealSeat.role, DealSeat.bid, DealSeat.made, DealSeat.alone
        )
    )
    for pid, role, bid, made, alone, count, points in db.session.execute(deals):
        record = by_id[pid]
        record["deals"] += count
        record["points"] += int(points)
        outcome = "made" if made else "set"
        if role == "bidder":
            level = record["bids"].setdefault(str(bid), {"made": 0, "set": 0})
            level[outcome] += count
            record[f"bids_{outcome}"] += count
            if alone:
                record["alone"]["played"] += count
                record["alone"][outcome] += count
        elif role == "partner":
            record["partner"]["called"] += count
            record["partner"][outcome] += count
            record["partner"]["points"] += int(points)

    # 3. Longest run of won games, finished games in the order played (gaps and islands).
    order = (Game.created_at, Game.id)
    ranked = (
        select(
            Player.table_player_id.label("pid"),
            Player.won.label("won"),
            (
                func.row_number().over(partition_by=Player.table_player_id, order_by=order)
                - func.row_number().over(
                    partition_by=(Player.table_player_id, Player.won), order_by=order
                )
            ).label("island"),
        )
        .join(Game, Game.id == Player.game_id)
        .where(at_table, Game.status != "in_progress", Player.table_player_id.in_(ids))
        .subquery()
    )
    runs = (
        select(ranked.c.pid, func.count().label("length"))
        .where(ranked.c.won)
        .group_by(ranked.c.pid, ranked.c.island)
        .subquery()
    )
    streaks = select(runs.c.pid, func.max(runs.c.length)).group_by(runs.c.pid)
    for pid, length in db.session.execute(streaks):
        by_id[pid]["longest_streak"] = int(length)

    # 4. How the table's finished games were decided.
    endings = select(Game.decided_by, func.count()).where(
        and_(at_table, Game.decided_by.is_not(None))
    )
    endings = {
        decided_by: count
        for decided_by, count in db.session.execute(endings.group_by(Game.decided_by))
    }

    for record in by_id.values():
        if record["finished"]:
            record["win_rate"] = record["won"] / record["finished"]
        if record["deals"]:
            record["points_per_deal"] = record["points"] / record["deals"]
    ranked_players = sorted(
        by_id.values(), key=lambda r: (-(r["win_rate"] or 0), -r["games"], r["name"].casefold())
    )
    return {"players": ranked_players, "endings": endings}
