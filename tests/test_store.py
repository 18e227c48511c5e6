"""The service layer: one transaction per change, cheap reads at any length, audit rows."""

from contextlib import contextmanager

import pytest
from sqlalchemy import event, func, select

from scorekeeper import engine
from scorekeeper.extensions import db
from scorekeeper.store import games
from scorekeeper.store.models import Change, Deal, Game

BACKENDS = ("sqlite", "postgresql")

FIVE = ["Ann", "Bob", "Cy", "Di", "Ed"]


def sweep(bidder, partner, bid=3):
    """Return an entry in which the bidders take all six points."""
    points = dict.fromkeys(("high", "low", "jack", "off_jack", "joker"), bidder)
    call = {"bidder": bidder, "bid": bid, "trump": "C", "called_card": "QC", "partner": partner}
    return call | points | {"game": "bidders"}


def nth_entry(n):
    """Return the n-th deal of a long game that never reaches its target of 999."""
    if n % 3 == 0:
        return {"thrown_in": True}
    return sweep(n % 5, (n + 2) % 5)


@contextmanager
def statements():
    """Collect the SQL statements the app's engine runs inside the block."""
    seen = []

    def record(conn, cursor, statement, parameters, context, executemany):
        seen.append(statement)

    event.listen(db.engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(db.engine, "before_cursor_execute", record)


def long_game(deals):
    """Store a game of `deals` deals in one go (the engine computes them); return id, token."""
    game, token = games.create_game(
        ruleset="five-handed-schmier", players=FIVE, first_dealer=0, target=999
    )
    config = games.game_config(game)
    entries = [engine.parse_entry(config, nth_entry(n)) for n in range(1, deals + 1)]
    states = engine.replay(config, entries)
    db.session.add_all(
        Deal(game_id=game.id, number=n, entry=entry.to_json(), result=state.last.to_document())
        for n, (entry, state) in enumerate(zip(entries, states, strict=True), start=1)
    )
    game.deal_count = deals
    db.session.commit()
    return game.id, token


@pytest.fixture
def ctx(app):
    with app.app_context():
        yield app
        db.session.remove()


def test_create_game_stores_the_setup_and_a_hash_of_the_token(ctx):
    game, token = games.create_game(
        ruleset="five-handed-schmier", players=[" Ann", *FIVE[1:]], first_dealer=3
    )
    db.session.expire_all()
    stored = games.get_game(game.id)
    assert [p.name for p in stored.players] == FIVE
    assert [p.seat for p in stored.players] == list(range(5))
    assert stored.first_dealer == 3
    assert stored.target == 21
    assert stored.house_rules == {
        "partner_breaks_ties": True,
        "unresolved_tie": "play_on",
        "joker_callable": False,
    }
    assert token not in stored.edit_token_hash
    assert len(stored.edit_token_hash) == 64
    assert (stored.status, stored.next_dealer, stored.scores) == ("in_progress", 3, [0] * 5)
    assert games.check_edit_token(stored, token)
    assert not games.check_edit_token(stored, token + "x")
    assert not games.check_edit_token(stored, "")
    assert not games.check_edit_token(stored, None)


def test_create_game_draws_the_first_dealer_when_not_given(ctx):
    dealers = {
        games.create_game(ruleset="five-handed-schmier", players=FIVE)[0].first_dealer
        for _ in range(30)
    }
    assert dealers <= set(range(5))
    assert len(dealers) > 1


def test_create_game_refusal_stores_nothing(ctx):
    with pytest.raises(engine.RuleViolation):
        games.create_game(ruleset="five-handed-schmier", players=FIVE[:3])
    assert db.session.scalar(select(func.count()).select_from(Game)) == 0


def test_game_ids_and_tokens_are_unguessable(ctx):
    game, token = games.create_game(ruleset="five-handed-schmier", players=FIVE)
    other, other_token = games.create_game(ruleset="five-handed-schmier", players=FIVE)
    assert len(game.id) >= 22 and game.id != other.id
    assert len(token) >= 43 and token != other_token


def test_rotate_edit_token_retires_the_old_one(ctx):
    game, old = games.create_game(ruleset="five-handed-schmier", players=FIVE)
    version = game.version
    new = games.rotate_edit_token(game)
    assert games.check_edit_token(game, new)
    assert not games.check_edit_token(game, old)
    assert game.version == version + 1


def test_every_change_moves_the_version_on_and_is_logged(ctx):
    game, _ = games.create_game(ruleset="five-handed-schmier", players=FIVE, first_dealer=0)
    versions = [game.version]
    games.add_deal(game, sweep(1, 2), device="Ann's phone")
    versions.append(game.version)
    games.add_deal(game, sweep(2, 3))
    versions.append(game.version)
    games.correct_deal(game, 1, sweep(1, 4), device="Bob's phone")
    versions.append(game.version)
    games.undo_last_deal(game, 2)
    versions.append(game.version)
    assert versions == sorted(set(versions))

    changes = db.session.scalars(select(Change).order_by(Change.id)).all()
    assert [(c.action, c.number) for c in changes] == [
        ("add", 1),
        ("add", 2),
        ("correct", 1),
        ("undo", 2),
    ]
    assert changes[0].before is None and changes[0].after["bidders"] == [1, 2]
    assert changes[0].device == "Ann's phone"
    assert changes[2].before["bidders"] == [1, 2]
    assert changes[2].after["bidders"] == [1, 4]
    assert changes[2].device == "Bob's phone"
    assert changes[3].before["number"] == 2 and changes[3].after is None


def test_add_deal_stores_the_entry_as_sent_and_the_engines_result(ctx):
    game, _ = games.create_game(ruleset="five-handed-schmier", players=FIVE, first_dealer=4)
    deal = games.add_deal(game, {"number": 1, "auction": None, **sweep(0, 1)})
    db.session.expire_all()
    stored = db.session.scalars(select(Deal)).one()
    assert stored.entry == sweep(0, 1)  # nulls and number dropped
    assert stored.result == deal.result
    assert stored.result["dealer"] == 4
    state = games.game_state(games.get_game(game.id))
    assert state.deal_count == 1
    assert state.scores == (6, 6, 0, 0, 0)
    assert state.next_dealer == 0


def test_refused_changes_leave_the_game_as_it_was(ctx):
    game, _ = games.create_game(ruleset="five-handed-schmier", players=FIVE, first_dealer=0)
    games.add_deal(game, sweep(0, 1))
    before = games.game_document(games.get_game(game.id))
    refusals = [
        (games.NumberConflict, lambda: games.add_deal(game, {"number": 1, **sweep(0, 1)})),
        (engine.WrongType, lambda: games.add_deal(game, {"bid": "3"})),
        (engine.RuleViolation, lambda: games.add_deal(game, sweep(1, 1))),
        (engine.RuleViolation, lambda: games.correct_deal(game, 1, sweep(1, 1))),
        (games.NumberConflict, lambda: games.correct_deal(game, 1, {"number": 2, **sweep(1, 2)})),
        (games.NoSuchDeal, lambda: games.correct_deal(game, 2, sweep(1, 2))),
        (games.NoSuchDeal, lambda: games.undo_last_deal(game, 2)),
    ]
    for error, refused in refusals:
        with pytest.raises(error):
            refused()
        db.session.expire_all()
        assert games.game_document(games.get_game(game.id)) == before
    assert db.session.scalar(select(func.count()).select_from(Change)) == 1


def test_undo_refuses_a_deal_that_is_not_the_last(ctx):
    game, _ = games.create_game(ruleset="five-handed-schmier", players=FIVE, first_dealer=0)
    games.add_deal(game, sweep(0, 1))
    games.add_deal(game, sweep(1, 2))
    with pytest.raises(games.NotLastDeal):
        games.undo_last_deal(game, 1)


def test_cached_columns_follow_the_engine(ctx):
    game, _ = games.create_game(ruleset="five-handed-schmier", players=FIVE, first_dealer=0)
    for _ in range(4):
        games.add_deal(game, sweep(0, 1, bid=6))
    db.session.expire_all()
    stored = games.get_game(game.id)
    state = games.game_state(stored)
    assert stored.status == state.outcome.status == "won"
    assert stored.winners == [0]
    assert stored.decided_by == "bidder"
    assert stored.scores == [24, 24, 0, 0, 0]
    assert stored.next_dealer == state.next_dealer == 4
    assert stored.deal_count == 4
    games.undo_last_deal(stored, 4)
    db.session.expire_all()
    stored = games.get_game(game.id)
    assert (stored.status, stored.winners, stored.decided_by) == ("in_progress", [], None)
    assert (stored.scores, stored.deal_count, stored.next_dealer) == ([18, 18, 0, 0, 0], 3, 3)


def test_the_stamp_is_read_through_the_driver_or_else_through_sqlalchemy(ctx, monkeypatch):
    game, _ = games.create_game(ruleset="five-handed-schmier", players=FIVE)
    stamp = (game.version, game.edit_token_hash)
    in_use = db.engine.pool.checkedout()
    with statements() as seen:
        assert games.get_stamp(game.id) == stamp
        assert games.get_stamp("nosuchgame") is None
    assert seen == []  # straight through the driver, past SQLAlchemy's statement events
    assert db.engine.pool.checkedout() == in_use  # and the connection went back to the pool

    def failing(engine, game_id):
        raise engine.dialect.loaded_dbapi.OperationalError("server closed the connection")

    monkeypatch.setattr(games, "_read_stamp", failing)
    with statements() as seen:
        assert games.get_stamp(game.id) == stamp
    assert len(seen) == 1  # read again through SQLAlchemy, which raises its own errors


def test_reading_a_game_costs_the_same_queries_at_any_length(ctx):
    short, _ = long_game(10)
    long, _ = long_game(300)
    client = ctx.test_client()
    counts = []
    for game_id in (short, long):
        db.session.remove()
        with statements() as seen:
            response = client.get(f"/api/v1/games/{game_id}")
        assert response.status_code == 200
        counts.append(len(seen))
    assert counts[0] == counts[1] <= 4
    assert len(response.get_json()["deals"]) == 300


def test_posting_deal_300_costs_what_posting_deal_10_costs(ctx):
    client = ctx.test_client()
    counts, loaded = [], []
    for deals in (10, 300):  # deals 11 and 301 are both played: each writes its seats' tags
        game_id, token = long_game(deals)
        db.session.remove()
        headers = {"Authorization": f"Bearer {token}"}
        with statements() as seen:
            response = client.post(
                f"/api/v1/games/{game_id}/deals", json=nth_entry(deals + 1), headers=headers
            )
        assert response.status_code == 201, response.get_json()
        assert response.get_json()["number"] == deals + 1
        counts.append(len(seen))
        with statements() as seen:
            games.add_deal(games.get_game(game_id, deals=False), nth_entry(deals + 2))
        loaded.append(sum(isinstance(o, Deal) for o in db.session.identity_map.values()))
        db.session.remove()
    assert counts[0] == counts[1]
    assert loaded[0] == loaded[1] <= 2


def test_game_state_resumes_from_the_last_deal_without_replay(ctx, monkeypatch):
    game_id, _ = long_game(30)
    db.session.remove()
    game = games.get_game(game_id)

    def no_replay(*args, **kwargs):
        raise AssertionError("game_state must not replay the game")

    monkeypatch.setattr(engine, "apply_deal", no_replay)
    monkeypatch.setattr(engine, "replay", no_replay)
    state = games.game_state(game)
    assert state.deal_count == 30
    assert list(state.scores) == game.deals[-1].result["scores"]


def test_unique_number_backs_up_the_version_check(ctx, monkeypatch):
    """Two writers that both claim the game cannot both store deal 2."""
    game, _ = games.create_game(ruleset="five-handed-schmier", players=FIVE, first_dealer=0)
    first = games.add_deal(game, sweep(0, 1))
    # A deal 2 appears behind the store's back (as if the version check were bypassed).
    result = {**first.result, "number": 2}
    db.session.add(Deal(game_id=game.id, number=2, entry=first.entry, result=result))
    db.session.commit()
    with pytest.raises(games.NumberConflict):
        games.add_deal(game, {"number": 2, **sweep(1, 2)})
    assert db.session.scalar(select(func.count()).select_from(Deal)) == 2
