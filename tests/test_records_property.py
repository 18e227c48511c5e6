"""The regulars' records are kept up to date by every write, equal to a full recomputation.

Statistics and the regulars' counts are read from rows the store keeps as it goes
(``players.won``, ``deal_seats``, ``deal_seat_tags`` and each regular's totals of them,
each regular's games by outcome and finished games with their streaks;
scorekeeper/store/records.py),
never recomputed from the deals when a page is asked for. After any mix of play,
corrections, undos, merges of two spellings and imports, those rows, the counts and the
statistics must be exactly what ``records.rebuild`` writes from the stored deals, and
the counts what a plain recount of the games gives.
"""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from bench.generate import random_entry
from scorekeeper import engine
from scorekeeper.extensions import db
from scorekeeper.store import exchange, games, records, stats, tables
from scorekeeper.store.models import (
    DealSeat,
    DealSeatTag,
    Game,
    Player,
    RegularDealTotal,
    RegularGameTotal,
    RegularResult,
    RegularTagTotal,
    TableEnding,
)
from tests.conftest import BOTH
from tests.quick import examples

BACKENDS = BOTH
NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Anne", "Flo"]
"""Regulars' names, one of them a second spelling of another (to merge)."""

ACTIONS = st.lists(
    st.tuples(
        st.sampled_from(["start", "play", "play", "play", "correct", "undo", "merge", "import"]),
        st.integers(min_value=0, max_value=10_000),
    ),
    min_size=1,
    max_size=30,
)


def kept_rows() -> dict[str, list]:
    """Return every row the store keeps for the records, in a stable order."""
    seats = select(
        DealSeat.game_id,
        DealSeat.number,
        DealSeat.seat,
        DealSeat.table_player_id,
        DealSeat.ruleset,
        DealSeat.role,
        DealSeat.bid,
        DealSeat.made,
        DealSeat.delta,
    ).order_by(DealSeat.game_id, DealSeat.number, DealSeat.seat)
    tags = select(
        DealSeatTag.game_id,
        DealSeatTag.number,
        DealSeatTag.seat,
        DealSeatTag.tag,
        DealSeatTag.table_player_id,
        DealSeatTag.ruleset,
    ).order_by(DealSeatTag.game_id, DealSeatTag.number, DealSeatTag.seat, DealSeatTag.tag)
    won = select(Player.game_id, Player.seat, Player.won).order_by(Player.game_id, Player.seat)
    totals = select(RegularDealTotal).order_by(*RegularDealTotal.__table__.primary_key.columns)
    tag_totals = select(RegularTagTotal).order_by(*RegularTagTotal.__table__.primary_key.columns)
    kept = {
        name: [tuple(row) for row in db.session.execute(query)]
        for name, query in (("seats", seats), ("tags", tags), ("won", won))
    }
    game_totals = select(RegularGameTotal).order_by(*RegularGameTotal.__table__.primary_key.columns)
    results = select(RegularResult).order_by(*RegularResult.__table__.primary_key.columns)
    for name, query in (
        ("totals", totals),
        ("tag totals", tag_totals),
        ("game totals", game_totals),
        ("results", results),
        ("endings", select(TableEnding).order_by(TableEnding.table_id, TableEnding.decided_by)),
    ):
        kept[name] = [
            tuple(getattr(row, c.key) for c in row.__table__.columns)
            for row in db.session.scalars(query)
        ]
    return kept


def recount(table_id: str) -> dict[int, dict[str, int]]:
    """Count each regular's games and wins from the games' own winners, in Python."""
    counts: dict[int, dict[str, int]] = {}
    for game in db.session.scalars(select(Game).where(Game.table_id == table_id)):
        for player in game.players:
            if player.table_player_id is not None:
                mine = counts.setdefault(player.table_player_id, {"games": 0, "won": 0})
                mine["games"] += 1
                mine["won"] += player.seat in game.winners
    return counts


def longest_streaks(table_id: str) -> dict[int, int]:
    """Find each regular's most finished games won in a row, in the order played, in Python."""
    query = (
        select(Game)
        .where(Game.table_id == table_id, Game.status != engine.Status.IN_PROGRESS)
        .order_by(Game.created_at, Game.id)
    )
    runs: dict[int, int] = {}
    longest: dict[int, int] = {}
    for game in db.session.scalars(query):
        for player in game.players:
            pid = player.table_player_id
            if pid is not None:
                runs[pid] = runs.get(pid, 0) + 1 if player.seat in game.winners else 0
                longest[pid] = max(longest.get(pid, 0), runs[pid])
    return longest


def endings_and_wins(table_id: str) -> tuple[dict[str, int], dict[int, dict[str, int]]]:
    """Count the table's games by deciding step, and each regular's wins by it, in Python."""
    endings: dict[str, int] = {}
    wins_by: dict[int, dict[str, int]] = {}
    for game in db.session.scalars(select(Game).where(Game.table_id == table_id)):
        if game.decided_by is None:
            continue
        endings[game.decided_by] = endings.get(game.decided_by, 0) + 1
        for player in game.players:
            if player.table_player_id is not None and player.seat in game.winners:
                mine = wins_by.setdefault(player.table_player_id, {})
                mine[game.decided_by] = mine.get(game.decided_by, 0) + 1
    return endings, wins_by


def apply(table_id: str, action: str, pick: int) -> None:
    """Do one thing a table's players or keeper may do; a refusal changes nothing."""
    rng = random.Random(pick)
    table = tables.get_table(table_id)
    assert table is not None
    at_table = list(db.session.scalars(select(Game).where(Game.table_id == table_id)))
    game = at_table[pick % len(at_table)] if at_table else None
    try:
        if action == "start" or game is None:
            players = rng.sample(NAMES, 5)
            tables.start_game(table, ruleset="five-handed-schmier", players=players, target=15)
        elif action == "play":
            state = games.game_state(game)
            entry = random_entry(rng)
            if not state.outcome.finished and engine.can_deal(
                state, engine.parse_entry(state.config, entry)
            ):
                games.add_deal(game, entry)
        elif action == "correct" and game.deal_count:
            games.correct_deal(game, 1 + pick % game.deal_count, random_entry(rng))
        elif action == "undo" and game.deal_count:
            games.undo_last_deal(game, game.deal_count)
        elif action == "merge" and len(table.players) > 1:
            source, target = rng.sample(list(table.players), 2)
            tables.merge_players(table, source.id, target.id)
        elif action == "import":
            document = exchange.export_game(game)
            exchange.import_document(document, table=table)
    except (engine.RuleViolation, tables.MergeRefused, games.GameFull):
        db.session.rollback()


@settings(
    max_examples=examples(12),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(actions=ACTIONS)
def test_records_counts_and_statistics_equal_a_full_recomputation(app, actions):
    with app.app_context():
        table, _ = tables.create_table("Club", NAMES[:3])
        table_id = table.id
        for action, pick in actions:
            db.session.remove()  # each action its own request, its own session
            apply(table_id, action, pick)
        db.session.remove()
        table = tables.get_table(table_id)
        kept, counts, figures = kept_rows(), tables.player_counts(table), stats.table_stats(table)
        assert counts == recount(table_id)
        endings, wins_by = endings_and_wins(table_id)
        assert figures["endings"] == endings
        assert {r["id"]: r["wins_by"] for r in figures["players"]} == {
            p.id: wins_by.get(p.id, {}) for p in table.players
        }
        streaks = {r["id"]: r["longest_streak"] for r in figures["players"]}
        assert streaks == {p.id: longest_streaks(table_id).get(p.id, 0) for p in table.players}

        records.rebuild()
        db.session.remove()
        table = tables.get_table(table_id)
        assert kept_rows() == kept
        assert tables.player_counts(table) == counts
        assert stats.table_stats(table) == figures
