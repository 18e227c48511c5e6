"""Each regular's record at a table, aggregated in SQL: five queries however many games.

Reads each regular's kept totals: of their games by ruleset and outcome
(``regular_game_totals``), of ``deal_seats`` (one row per seat per deal) and
``deal_seat_tags`` (the statistics tags a seat earned), and their finished games with
the wins in a row each ends (``regular_results``), all kept by
``scorekeeper.store.records`` as deals are saved, corrected and undone and games are put
at the table, imported or merged. A record
has the totals over every game and, for each ruleset the player played, the same totals
and the ruleset's own ``statistics`` (bids won, made, set …) in the ruleset's order.
Deals where nothing was played (thrown in, forfeited) are not counted as deals played;
their score changes (a forfeit's) count in the points.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from scorekeeper import engine
from scorekeeper.extensions import db
from scorekeeper.store.models import (
    MADE_KEYS,
    NO_BID,
    NO_DECISION,
    CardTable,
    RegularDealTotal,
    RegularGameTotal,
    RegularResult,
    RegularTagTotal,
    TableEnding,
    TablePlayer,
)
from scorekeeper.store.records import NO_ROLE

DECIDED_BY = tuple(str(step) for step in engine.DecidedBy)


def _totals() -> dict[str, Any]:
    return {
        "games": 0,
        "won": 0,
        "win_rate": None,
        "finished": 0,
        "deals": 0,
        "points": 0,
        "points_per_deal": None,
    }


def _empty(player: TablePlayer) -> dict[str, Any]:
    return {
        "id": player.id,
        "name": player.name,
        **_totals(),
        "longest_streak": 0,
        "wins_by": {},
        "rulesets": {},
    }


def _part(record: dict[str, Any], ruleset_id: str) -> dict[str, Any]:
    """Return the player's record within one ruleset, started empty on first use."""
    parts = record["rulesets"]
    if ruleset_id not in parts:
        ruleset = _described().get(ruleset_id)
        parts[ruleset_id] = {
            "id": ruleset_id,
            "name": ruleset.name if ruleset else ruleset_id,
            **_totals(),
            "bids": {},
            "partner": {"deals": 0, "made": 0, "set": 0, "points": 0},
            "statistics": {
                s.tag: {"tag": s.tag, "label": str(s.label), "count": 0}
                for s in (ruleset.statistics if ruleset else ())
            },
        }
    return parts[ruleset_id]


def _described() -> dict[str, engine.Ruleset]:
    return {ruleset.id: ruleset for ruleset in engine.rulesets()}


def table_stats(table: CardTable, player_id: int | None = None) -> dict[str, Any]:
    """Return every regular's statistics (or one regular's), and how the table's games ended."""
    players = [p for p in table.players if player_id is None or p.id == player_id]
    by_id: dict[int | None, dict[str, Any]] = {p.id: _empty(p) for p in players}
    ids = list(by_id)
    if not ids:
        return {"players": [], "endings": {}}
    _count_games(by_id, ids)
    _count_deals(by_id, ids)
    _count_tags(by_id, ids)
    _longest_streaks(by_id, ids)
    endings = _endings(table.id)
    return {"players": _ranked(by_id), "endings": endings}


def _count_games(by_id: dict[int | None, dict[str, Any]], ids: list[int | None]) -> None:
    """Count the games played and won, per ruleset, and how each win was decided (kept totals)."""
    games = select(
        RegularGameTotal.table_player_id,
        RegularGameTotal.ruleset,
        RegularGameTotal.status,
        RegularGameTotal.decided_by,
        RegularGameTotal.games,
        RegularGameTotal.won,
    ).where(RegularGameTotal.table_player_id.in_(ids))
    for pid, ruleset_id, status, decided_by, count, won in db.session.execute(games):
        record = by_id[pid]
        for totals in (record, _part(record, ruleset_id)):
            totals["games"] += count
            totals["won"] += won
            if status != engine.Status.IN_PROGRESS:
                totals["finished"] += count
        if won and decided_by != NO_DECISION:
            record["wins_by"][decided_by] = record["wins_by"].get(decided_by, 0) + won


def _count_deals(by_id: dict[int | None, dict[str, Any]], ids: list[int | None]) -> None:
    """Count every deal each one sat in, by ruleset, role, bid and whether the contract was made."""
    # The totals kept as deals are saved: a few rows per regular however many deals.
    deals = select(
        RegularDealTotal.table_player_id,
        RegularDealTotal.ruleset,
        RegularDealTotal.role,
        RegularDealTotal.bid,
        RegularDealTotal.made,
        RegularDealTotal.deals,
        RegularDealTotal.points,
    ).where(RegularDealTotal.table_player_id.in_(ids))
    for pid, ruleset_id, role, bid, made, count, points in db.session.execute(deals):
        record = by_id[pid]
        part = _part(record, ruleset_id)
        for totals in (record, part):
            totals["points"] += int(points)
            if role != NO_ROLE:
                totals["deals"] += count
        outcome = "made" if made == MADE_KEYS[True] else "set"
        if role == str(engine.Role.BIDDER) and bid != NO_BID:
            level = part["bids"].setdefault(str(bid), {"made": 0, "set": 0})
            level[outcome] += count
        elif role == str(engine.Role.PARTNER):
            part["partner"]["deals"] += count
            part["partner"][outcome] += count
            part["partner"]["points"] += int(points)


def _count_tags(by_id: dict[int | None, dict[str, Any]], ids: list[int | None]) -> None:
    """Count the ruleset's statistics: deals in which the seat earned each tag (kept totals)."""
    tags = select(
        RegularTagTotal.table_player_id,
        RegularTagTotal.ruleset,
        RegularTagTotal.tag,
        RegularTagTotal.deals,
    ).where(RegularTagTotal.table_player_id.in_(ids))
    for pid, ruleset_id, tag, count in db.session.execute(tags):
        statistics = _part(by_id[pid], ruleset_id)["statistics"]
        if tag in statistics:  # a tag the ruleset no longer lists is not shown
            statistics[tag]["count"] += count


def _longest_streaks(by_id: dict[int | None, dict[str, Any]], ids: list[int | None]) -> None:
    """Note the longest run of won games: each regular's highest kept streak, one index look."""
    # The last entry of the regular's part of ix_regular_results_streak, on both databases.
    highest = (
        select(RegularResult.streak)
        .where(RegularResult.table_player_id == TablePlayer.id)
        .order_by(RegularResult.streak.desc())
        .limit(1)
        .scalar_subquery()
    )
    streaks = select(TablePlayer.id, highest).where(TablePlayer.id.in_(ids))
    for pid, length in db.session.execute(streaks):
        if length is not None:
            by_id[pid]["longest_streak"] = int(length)


def _endings(table_id: str) -> dict[str | None, int]:
    """Return how the table's finished games were decided (kept counts)."""
    decided = select(TableEnding.decided_by, TableEnding.games).where(
        TableEnding.table_id == table_id
    )
    return {decided_by: count for decided_by, count in db.session.execute(decided)}


def _ranked(by_id: dict[int | None, dict[str, Any]]) -> list[dict[str, Any]]:
    """Return the records with their rates, best first."""
    order_of = {ruleset.id: index for index, ruleset in enumerate(engine.rulesets())}
    for record in by_id.values():
        parts = sorted(record["rulesets"].values(), key=lambda p: order_of.get(p["id"], 99))
        for totals in (record, *parts):
            if totals["finished"]:
                totals["win_rate"] = totals["won"] / totals["finished"]
            if totals["deals"]:
                totals["points_per_deal"] = totals["points"] / totals["deals"]
        for part in parts:
            part["statistics"] = list(part["statistics"].values())
        record["rulesets"] = parts
    return sorted(
        by_id.values(), key=lambda r: (-(r["win_rate"] or 0), -r["games"], r["name"].casefold())
    )
