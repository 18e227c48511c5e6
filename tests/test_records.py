"""The per-seat deal records: kept in step by the services, and rebuilt the same from the deals."""

from sqlalchemy import func, select, update

from scorekeeper.extensions import db
from scorekeeper.store import exchange, records, stats, tables
from scorekeeper.store.models import DealSeat, DealSeatTag, Player
from tests.conftest import BOTH
from tests.tables_support import (
    FIRST,
    MADE_WITH_PARTNER,
    SET_ALONE,
    THROWN_IN,
    bearer,
    create_table,
    play,
    play_example,
    play_random_games,
    start_game,
)

BACKENDS = BOTH

SEAT_COLUMNS = (
    DealSeat.game_id,
    DealSeat.number,
    DealSeat.seat,
    DealSeat.table_player_id,
    DealSeat.role,
    DealSeat.bid,
    DealSeat.made,
    DealSeat.delta,
)


def kept(app):
    """Return every per-seat row and every seat's won flag, in a stable order."""
    with app.app_context():
        rows = db.session.execute(
            select(*SEAT_COLUMNS).order_by(DealSeat.game_id, DealSeat.number, DealSeat.seat)
        ).all()
        won = db.session.execute(
            select(Player.game_id, Player.seat, Player.won).order_by(Player.game_id, Player.seat)
        ).all()
        tags = db.session.execute(
            select(
                DealSeatTag.game_id, DealSeatTag.number, DealSeatTag.seat, DealSeatTag.tag
            ).order_by(DealSeatTag.game_id, DealSeatTag.number, DealSeatTag.seat, DealSeatTag.tag)
        ).all()
        db.session.remove()
    return [tuple(r) for r in rows], [tuple(w) for w in won], [tuple(t) for t in tags]


def test_rebuild_gives_the_rows_kept_in_step_after_adds_corrections_undos_and_imports(app, client):
    table = create_table(client)
    played = play_random_games(client, table, 3, seed=11)
    game = start_game(client, table)
    play(client, game, [MADE_WITH_PARTNER, THROWN_IN, SET_ALONE, MADE_WITH_PARTNER])
    edit = bearer(game["edit_token"])
    deals = f"/api/v1/games/{game['id']}/deals"
    assert client.put(f"{deals}/2", json=SET_ALONE, headers=edit).status_code == 200
    assert client.put(f"{deals}/1", json=THROWN_IN, headers=edit).status_code == 200
    assert client.delete(f"{deals}/4", headers=edit).status_code == 204
    finished = played[0]
    last = len(client.get(f"/api/v1/games/{finished['id']}/deals").get_json())
    undo = client.delete(
        f"/api/v1/games/{finished['id']}/deals/{last}", headers=bearer(finished["edit_token"])
    )
    assert undo.status_code == 204
    with app.app_context():
        document = exchange.export_table(tables.get_table(table["id"]))
        exchange.import_document(document)  # a copy: new table, new games
        db.session.remove()
    in_step = kept(app)
    assert len(in_step[0]) > 5 * 20
    assert any(won for *_, won in in_step[1])
    assert {"bid", "made", "set", "called", "alone"} <= {tag for *_, tag in in_step[2]}

    # Spoil the records, then rebuild them from the deals.
    with app.app_context():
        db.session.execute(update(DealSeat).values(delta=DealSeat.delta + 1, role="none"))
        db.session.execute(update(Player).values(won=False))
        db.session.execute(DealSeatTag.__table__.delete().where(DealSeatTag.number == 2))
        db.session.execute(DealSeatTag.__table__.delete().where(DealSeatTag.number == 1))
        db.session.execute(DealSeat.__table__.delete().where(DealSeat.number == 1))
        db.session.commit()
        db.session.remove()
    assert kept(app) != in_step

    result = app.test_cli_runner().invoke(args=["rebuild-records"])
    assert result.exit_code == 0, result.output
    assert f"Rebuilt {len(in_step[0])} per-seat deal records." in result.output
    assert kept(app) == in_step


def test_rebuild_gives_the_rows_kept_in_step_for_every_ruleset(app, client):
    table = create_table(client)
    for example in FIRST.values():
        play_example(client, table, example)
    in_step = kept(app)
    tags = {tag for *_, tag in in_step[2]}
    assert {"smuck", "moon", "moon_made", "forfeit", "euchred", "march", "called"} <= tags
    assert {role for *_, role, _, _, _ in in_step[0]} == {"bidder", "partner", "opponent", "none"}
    with app.app_context():
        db.session.execute(DealSeatTag.__table__.delete())
        db.session.execute(update(DealSeat).values(role="none"))
        db.session.commit()
        db.session.remove()
    assert kept(app) != in_step
    result = app.test_cli_runner().invoke(args=["rebuild-records"])
    assert result.exit_code == 0, result.output
    assert kept(app) == in_step


def test_rebuild_of_records_already_right_changes_nothing(app, client):
    table = create_table(client)
    play_random_games(client, table, 2, seed=3)
    in_step = kept(app)
    with app.app_context():
        assert records.rebuild() == len(in_step[0])
        db.session.remove()
    assert kept(app) == in_step


def test_migration_rebuilds_the_records_from_the_deals_and_goes_back_down(empty_database):
    from datetime import UTC, datetime

    from flask_migrate import downgrade, upgrade
    from sqlalchemy import insert, inspect, text

    from scorekeeper import engine
    from scorekeeper.store.models import Deal, Game
    from tests.conftest import make_app

    app = make_app(empty_database)
    config = engine.configure("five-handed-schmier", ["Ann", "Bob", "Cy", "Di", "Ed"], 0)
    state = engine.new_game(config)
    deals = []
    for number, raw in enumerate([MADE_WITH_PARTNER, THROWN_IN, SET_ALONE], start=1):
        state = engine.apply_deal(state, engine.parse_entry(config, raw))
        deals.append({"game_id": "g" * 22, "number": number, "entry": raw})
        deals[-1]["result"] = state.last.to_document()
    now = datetime(2026, 11, 30, tzinfo=UTC)
    with app.app_context():
        upgrade(revision="c2b0e336b95a")  # the schema before the tags
        db.session.execute(
            insert(Game),
            [
                {
                    "id": "g" * 22, "ruleset": config.ruleset.id, "target": 21,
                    "first_dealer": 0, "house_rules": dict(config.house_rules),
                    "edit_token_hash": "0" * 64, "version": 4, "deal_count": 3,
                    "status": "in_progress", "winners": [], "explanation": "",
                    "next_dealer": 3, "scores": list(state.scores),
                    "created_at": now, "updated_at": now,
                }
            ],
        )  # fmt: skip
        db.session.execute(
            insert(Player),
            [{"game_id": "g" * 22, "seat": s, "name": n} for s, n in enumerate(config.players)],
        )
        db.session.execute(
            insert(Deal), [d | {"created_at": now, "updated_at": now} for d in deals]
        )
        db.session.commit()

        upgrade()
        rows = db.session.execute(
            select(
                DealSeat.number, DealSeat.seat, DealSeat.role, DealSeat.bid, DealSeat.delta
            ).order_by(DealSeat.number, DealSeat.seat)
        ).all()
        assert [tuple(r) for r in rows[:5]] == [
            (1, 0, "opponent", 4, 2), (1, 1, "bidder", 4, 4), (1, 2, "opponent", 4, 2),
            (1, 3, "partner", 4, 4), (1, 4, "opponent", 4, 2),
        ]  # fmt: skip
        assert {r.role for r in rows[5:10]} == {"none"} and len(rows) == 15
        tags = db.session.execute(
            select(DealSeatTag.number, DealSeatTag.seat, DealSeatTag.tag).order_by(
                DealSeatTag.number, DealSeatTag.seat, DealSeatTag.tag
            )
        ).all()
        assert [tuple(t) for t in tags] == [
            (1, 1, "bid"), (1, 1, "made"), (1, 3, "called"),
            (3, 0, "alone"), (3, 0, "bid"), (3, 0, "set"),
        ]  # fmt: skip
        db.session.commit()

        downgrade(revision="065226bd5974")  # the schema before the tags, with its checks
        assert "deal_seat_tags" not in inspect(db.engine).get_table_names()
        alone = db.session.execute(
            text("SELECT number, seat FROM deal_seats WHERE alone ORDER BY number, seat")
        ).all()
        assert [tuple(a) for a in alone] == [(3, 0)]
        db.session.commit()
        upgrade()
        assert db.session.scalar(select(func.count()).select_from(DealSeatTag)) == 6
        db.session.remove()
        db.engine.dispose()


def test_rebuild_counts_the_regulars_games_from_the_won_flags_it_set_right(app, client):
    table = create_table(client)
    play_random_games(client, table, 4, seed=5, most=40)
    with app.app_context():
        before = tables.player_counts(tables.get_table(table["id"]))
        figures = stats.table_stats(tables.get_table(table["id"]))
        db.session.execute(update(Player).values(won=~Player.won))  # every flag wrong
        records.write_totals(db.session.connection())  # and the totals counted from them
        db.session.commit()
        assert tables.player_counts(tables.get_table(table["id"])) != before
        records.rebuild()
        db.session.remove()
        assert tables.player_counts(tables.get_table(table["id"])) == before
        assert stats.table_stats(tables.get_table(table["id"])) == figures
        db.session.remove()


def test_migration_fills_the_regulars_games_streaks_and_the_tables_endings(empty_database):
    from datetime import UTC, datetime, timedelta

    from flask_migrate import upgrade
    from sqlalchemy import insert

    from scorekeeper.store.models import (
        CardTable,
        Game,
        RegularGameTotal,
        RegularResult,
        TableEnding,
        TablePlayer,
    )
    from tests.conftest import make_app

    app = make_app(empty_database)
    start = datetime(2026, 11, 30, tzinfo=UTC)
    # Ann wins the first two games, Bob the third; the fourth is still being played.
    outcomes = [("won", [0], "highest"), ("won", [0], "bidder"), ("won", [1], "highest")]
    outcomes.append(("in_progress", [], None))
    with app.app_context():
        upgrade(revision="f4a2b8d1c6e7")  # the schema before the regulars' games
        db.session.execute(
            insert(CardTable),
            [{"id": "t" * 22, "name": "Club", "edit_token_hash": "0" * 64, "created_at": start}],
        )
        db.session.execute(
            insert(TablePlayer),
            [
                {"id": 1, "table_id": "t" * 22, "name": "Ann", "key": "ann"},
                {"id": 2, "table_id": "t" * 22, "name": "Bob", "key": "bob"},
            ],
        )
        for index, (status, winners, decided_by) in enumerate(outcomes):
            game_id = f"g{index}" * 11
            at = start + timedelta(hours=index)
            db.session.execute(
                insert(Game),
                [
                    {
                        "id": game_id, "ruleset": "euchre-2", "target": 10, "first_dealer": 0,
                        "house_rules": {}, "edit_token_hash": "0" * 64, "version": 1,
                        "deal_count": 0, "status": status, "winners": winners,
                        "decided_by": decided_by, "explanation": "", "next_dealer": 0,
                        "scores": [0, 0], "created_at": at, "updated_at": at,
                        "table_id": "t" * 22,
                    }
                ],
            )  # fmt: skip
            db.session.execute(
                insert(Player),
                [
                    {"game_id": game_id, "seat": seat, "name": name, "table_player_id": seat + 1,
                     "won": seat in winners}
                    for seat, name in enumerate(["Ann", "Bob"])
                ],
            )  # fmt: skip
        db.session.commit()

        upgrade()
        streaks = db.session.execute(
            select(RegularResult.table_player_id, RegularResult.streak).order_by(
                RegularResult.table_player_id, RegularResult.created_at
            )
        ).all()
        assert [tuple(s) for s in streaks] == [(1, 1), (1, 2), (1, 0), (2, 0), (2, 0), (2, 1)]
        games = db.session.execute(
            select(
                RegularGameTotal.table_player_id,
                func.sum(RegularGameTotal.games),
                func.sum(RegularGameTotal.won),
            ).group_by(RegularGameTotal.table_player_id)
        ).all()
        assert sorted(tuple(g) for g in games) == [(1, 4, 2), (2, 4, 1)]
        endings = db.session.execute(select(TableEnding.decided_by, TableEnding.games)).all()
        assert dict(endings) == {"highest": 2, "bidder": 1}
        db.session.remove()
        db.engine.dispose()
