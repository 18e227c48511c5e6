"""The per-seat deal records: kept in step by the services, and rebuilt the same from the deals."""

from sqlalchemy import select, update

from scorekeeper.extensions import db
from scorekeeper.store import exchange, records, tables
from scorekeeper.store.models import DealSeat, DealSeatTag, Player
from tests.conftest import BOTH
from tests.tables_support import (
    MADE_WITH_PARTNER,
    SET_ALONE,
    THROWN_IN,
    bearer,
    create_table,
    play,
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


def test_rebuild_of_records_already_right_changes_nothing(app, client):
    table = create_table(client)
    play_random_games(client, table, 2, seed=3)
    in_step = kept(app)
    with app.app_context():
        assert records.rebuild() == len(in_step[0])
        db.session.remove()
    assert kept(app) == in_step
