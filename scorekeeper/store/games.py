"""The service layer between the views and the database: games, deals and edit tokens.

The engine decides every rule; this module loads what it needs, stores what it computed,
and makes each change one transaction. Concurrent writers are kept apart by the game's
`version`: a change first claims the version it read with an ``UPDATE … WHERE
version = :read``, which takes the game row's write lock (PostgreSQL row lock, SQLite
database lock); a writer that finds the version moved on reloads and starts again. The
unique ``(game_id, number)`` constraint is the last line of defence.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from sqlalchemy import Engine, Select, bindparam, func, inspect, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import joinedload, selectinload
from sqlalchemy.orm.attributes import set_committed_value

from scorekeeper import engine
from scorekeeper.extensions import db
from scorekeeper.store import limits, records, tokens
from scorekeeper.store.models import DEVICE_LENGTH, Change, Deal, Game, Player, utcnow

T = TypeVar("T")

SETTINGS = ("ruleset", "players", "first_dealer", "target", "house_rules")
"""The settings a game is created with: `create_game`'s keyword arguments."""
# How often a change is retried after another request changed the same game first.
ATTEMPTS = 20
# Game and table ids are URL-safe base64 (see _new_id); anything else names nothing.
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


class NumberConflict(Exception):
    """The entry's `number` is not the next deal's number (another device was faster)."""

    def __init__(self, expected: int, sent: int | None = None, message: str | None = None):
        self.expected = expected
        self.sent = sent
        if message is None and sent is None:
            message = f"Deal {expected - 1} was changed meanwhile; reload the game and try again."
        elif message is None:
            message = (
                f"This entry is for deal {sent} but the next deal is {expected}; "
                "someone may have entered it already."
            )
        super().__init__(message)


class GameFull(Exception):
    """The game holds as many deals, or as many logged changes, as one game may."""


class NotLastDeal(Exception):
    """Only the last deal can be undone."""

    def __init__(self, number: int, last: int):
        self.number = number
        self.last = last
        super().__init__(f"Only the last deal ({last}) can be undone, not deal {number}.")


class NoSuchDeal(LookupError):
    """The game has no deal with this number."""

    def __init__(self, number: int):
        self.number = number
        super().__init__(f"This game has no deal {number}.")


class _Stale(Exception):
    """Another request changed the game after this one read it."""


# ---------------------------------------------------------------- reading


def get_game(game_id: str, *, deals: bool = True) -> Game | None:
    """Return the game with its players (and, unless told not to, its deals), or None.

    Always a fixed number of queries, whatever the game's length: the game with its
    players in one (a handful of rows, and every change starts here: one round trip
    fewer), its deals in another.
    """
    if not GAME_ID.fullmatch(game_id):
        return None  # not an id we hand out (and PostgreSQL refuses NUL bytes outright)
    options = [joinedload(Game.players)]
    if deals:
        options.append(selectinload(Game.deals))
    query = select(Game).where(Game.id == game_id).options(*options)
    found = db.session.scalars(query.execution_options(populate_existing=True))
    return found.unique().first()


def get_stamp(game_id: str, engine: Engine | None = None) -> tuple[int, str] | None:
    """Return the game's version and edit token hash, or None: one read by primary key.

    Enough to tell whether anything changed since a version was shown, and who may edit.
    `engine` serves a caller outside the app's context (the app's engine by default).
    """
    if not GAME_ID.fullmatch(game_id):
        return None
    engine = engine or db.engine
    try:
        row = _read_stamp(engine, game_id)
    except engine.dialect.loaded_dbapi.Error:
        # Read again through SQLAlchemy, which tells a lost connection from a busy database
        # and raises its own errors, the ones the error pages answer.
        with engine.connect() as connection:
            row = connection.execute(_STAMP, {"id": game_id}).first()
    return None if row is None else (row[0], row[1])


# Built once: a Core statement on the table skips the ORM's per-query work.
_STAMP = select(Game.__table__.c.version, Game.__table__.c.edit_token_hash).where(
    Game.__table__.c.id == bindparam("id")
)
_STAMP_SQL: dict[tuple[str, str], tuple[str, bool]] = {}
"""`_STAMP` as each kind of database takes it: its text, and whether parameters go by place."""


def _read_stamp(engine: Engine, game_id: str) -> Any:
    """Read the stamp straight through the driver, on a connection from the engine's pool.

    Every cached page, poll and API document starts with this read, and SQLAlchemy's
    connection and result objects cost twice the read itself.
    """
    kind = (engine.dialect.name, engine.dialect.paramstyle)
    if kind not in _STAMP_SQL:
        compiled = _STAMP.compile(dialect=engine.dialect)
        _STAMP_SQL[kind] = (str(compiled), compiled.positional)
    sql, positional = _STAMP_SQL[kind]
    connection = engine.raw_connection()
    try:
        cursor = connection.cursor()
        try:
            cursor.execute(sql, (game_id,) if positional else {"id": game_id})
            return cursor.fetchone()
        finally:
            cursor.close()
    finally:
        connection.close()  # back to the pool, which rolls the read's transaction back


def recent_changes(game: Game, count: int) -> tuple[list[Change], int]:
    """Return the game's last `count` changes, oldest first, and how many it has in all."""
    query = select(Change).where(Change.game_id == game.id).order_by(Change.id.desc()).limit(count)
    recent = list(db.session.scalars(query))[::-1]
    if len(recent) < count:
        return recent, len(recent)
    total = db.session.scalar(select(func.count()).where(Change.game_id == game.id))
    return recent, total or 0


def get_deal(game: Game, number: int) -> Deal | None:
    """Return the game's deal with this number, or None."""
    if _deals_loaded(game):
        if 1 <= number <= len(game.deals) and game.deals[number - 1].number == number:
            return game.deals[number - 1]
        return next((d for d in game.deals if d.number == number), None)
    query = select(Deal).where(Deal.game_id == game.id, Deal.number == number)
    return db.session.scalars(query).first()


def game_config(game: Game) -> engine.GameConfig:
    """Return the engine's configuration of a stored game."""
    return engine.configure(
        ruleset=game.ruleset,
        players=[player.name for player in game.players],
        first_dealer=game.first_dealer,
        target=game.target,
        house_rules=dict(game.house_rules),
    )


def game_state(game: Game) -> engine.GameState:
    """Return the game's state after its last stored deal, resumed from that deal's result."""
    last = _last_deals(game, 1)
    result = engine.DealResult.from_document(last[0].result) if last else None
    return engine.resume(game_config(game), result)


def game_document(game: Game, state: engine.GameState | None = None) -> dict[str, Any]:
    """Return the API's game document (players, status and every deal)."""
    state = state or game_state(game)
    config = state.config
    outcome = state.outcome
    teams = config.ruleset.teams(config)
    extras = config.ruleset.player_extras(
        config, [engine.DealResult.from_document(deal.result) for deal in game.deals]
    )
    return {
        "id": game.id,
        "ruleset": game.ruleset,
        "target": config.target,
        "house_rules": dict(config.house_rules),
        "first_dealer": config.first_dealer,
        "players": [
            {"seat": seat, "name": name, "score": state.scores[seat], **extras[seat]}
            for seat, name in enumerate(config.players)
        ],
        "teams": [list(team) for team in teams] if teams is not None else None,
        "next_dealer": state.next_dealer,
        "status": str(outcome.status),
        "winners": list(outcome.winners),
        "decided_by": None if outcome.decided_by is None else str(outcome.decided_by),
        "explanation": str(outcome.explanation),
        "deals": [deal_document(deal) for deal in game.deals],
        "table": game.table_id,  # the table it was started at, or None (docs/tables.md)
        "next_game": game.next_game_id,  # the game its Rematch started, or None
    }


def deal_document(deal: Deal) -> dict[str, Any]:
    """Return the API's deal document: the entry as stored plus what was computed."""
    return dict(deal.result)


# ---------------------------------------------------------------- changing


def create_game(
    *,
    ruleset: object,
    players: object,
    first_dealer: object = None,
    target: object = None,
    house_rules: object = None,
) -> tuple[Game, str]:
    """Check the setup with the engine, store the game and return it with its edit token.

    Raises WrongType or RuleViolation naming the fields at fault. A `first_dealer` of
    None is drawn at random.
    """
    token = tokens.new_token()
    game = _new_game(
        ruleset=ruleset,
        players=players,
        first_dealer=first_dealer,
        target=target,
        house_rules=house_rules,
        edit_token_hash=tokens.hash_token(token),
    )
    db.session.add(game)
    try:
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    return game, token


def start_next_game(game: Game, **setup: Any) -> tuple[Game, bool]:
    """Return the game's next game and whether this call started it (with `setup`).

    Rematch is made once: the game row records its next game, claimed by one UPDATE that
    only the first writer makes, so a second tap or a second phone reaches the same game.
    The next game keeps this game's edit token: every phone that may edit this one may
    edit the next. Its version moves on, so every phone following it hears of the next game.
    Raises WrongType or RuleViolation like `create_game`; nothing is stored then.
    """
    game_id, token_hash = game.id, game.edit_token_hash
    if game.next_game_id is not None:
        existing = get_game(game.next_game_id, deals=False)
        if existing is not None:
            return existing, False
    new_game = _new_game(**setup, edit_token_hash=token_hash)
    db.session.add(new_game)
    try:
        db.session.flush()
        claimed = db.session.execute(
            update(Game)
            # Not when its edit link was renewed meanwhile: the new game would keep the old one.
            .where(
                Game.id == game_id,
                Game.next_game_id.is_(None),
                Game.edit_token_hash == token_hash,
            )
            .values(next_game_id=new_game.id, version=Game.version + 1, updated_at=utcnow())
            .execution_options(synchronize_session=False)
        )
        if getattr(claimed, "rowcount", 0) != 1:
            # Another tap or phone was first: its game is the next one, ours is not kept.
            db.session.rollback()
            winner = db.session.scalar(select(Game.next_game_id).where(Game.id == game_id))
            existing = get_game(winner, deals=False) if winner is not None else None
            if existing is not None:
                return existing, False
            raise NumberConflict(1, message="The next game changed meanwhile; try again.")
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    return new_game, True


def _new_game(
    *,
    ruleset: object,
    players: object,
    first_dealer: object = None,
    target: object = None,
    house_rules: object = None,
    edit_token_hash: str,
) -> Game:
    """Check the setup with the engine and return the game it makes, not yet stored."""
    if first_dealer is None:
        first_dealer = (
            secrets.randbelow(len(players)) if isinstance(players, list) and players else 0
        )
    config = engine.configure(
        ruleset=ruleset,
        players=players,
        first_dealer=first_dealer,
        target=target,
        house_rules=house_rules,
    )
    if not all(_storable(name) for name in config.players):
        # PostgreSQL cannot store NUL, and no database stores half a surrogate pair.
        raise engine.RuleViolation({"players": ("A name must be plain text, without NUL.",)})
    game = Game(
        id=_new_id(),
        ruleset=config.ruleset.id,
        target=config.target,
        first_dealer=config.first_dealer,
        house_rules=dict(config.house_rules),
        edit_token_hash=edit_token_hash,
        version=1,
        players=[Player(seat=seat, name=name) for seat, name in enumerate(config.players)],
        deals=[],
    )
    cache_state(game, engine.new_game(config))
    return game


def add_deal(game: Game, raw: object, *, device: str | None = None) -> Deal:
    """Check the entry with the engine and store it as the game's next deal.

    Raises WrongType, NumberConflict, GameOver or RuleViolation, in that order of checks;
    nothing is stored then.
    """

    def attempt(game: Game) -> Deal:
        state = game_state(game)
        entry = engine.parse_entry(state.config, raw)
        expected = state.deal_count + 1
        if entry.number is not None and entry.number != expected:
            raise NumberConflict(expected, entry.number)
        if state.deal_count >= limits.DEALS_PER_GAME:
            raise GameFull(
                f"A game holds at most {limits.DEALS_PER_GAME} deals; start a new game to go on."
            )
        new_state = engine.apply_deal(state, entry)
        result = new_state.last
        assert result is not None  # apply_deal always records the deal it applied
        document = result.to_document()
        was = records.ending(game)
        _claim(game, new_state, logged=True)
        deal = Deal(game_id=game.id, number=result.number, entry=entry.to_json(), result=document)
        db.session.add(deal)
        if _deals_loaded(game):
            game.deals.append(deal)
        _log(game, result.number, "add", None, document, device)
        try:
            db.session.flush()
        except IntegrityError as error:
            # Someone stored this number first: with a number sent, that is a conflict.
            if entry.number is not None:
                raise NumberConflict(expected + 1, entry.number) from error
            raise _Stale from error
        records.record_deals(game, [deal], replace=False)
        records.record_ending(game, was)
        return deal

    return _retrying(game, attempt)


def correct_deal(game: Game, number: int, raw: object, *, device: str | None = None) -> Deal:
    """Replace deal `number`'s entry, recompute it and every later deal, and store them.

    Raises NoSuchDeal, WrongType, NumberConflict (a `number` other than this deal's),
    RuleViolation (the entry itself) or CorrectionConflict (a later deal cannot survive).
    """

    def attempt(game: Game) -> Deal:
        deals = _all_deals(game)
        if not 1 <= number <= len(deals):
            raise NoSuchDeal(number)
        config = game_config(game)
        entry = engine.parse_entry(config, raw)
        if entry.number is not None and entry.number != number:
            message = f"This correction is sent to deal {number} but says number {entry.number}."
            raise NumberConflict(number, entry.number, message)
        results = engine.correct_deal(config, [d.entry for d in deals], number, entry)
        was = records.ending(game)
        _claim(game, engine.resume(config, results[-1]), logged=True)
        now = utcnow()
        target = deals[number - 1]
        before = dict(target.result)
        target.entry = entry.to_json()
        rewritten = []
        for deal, result in zip(deals, results, strict=True):
            document = result.to_document()
            if deal.number >= number and (deal is target or deal.result != document):
                deal.result = document
                deal.updated_at = now
                rewritten.append(deal)
        after = dict(target.result)
        _log(game, number, "correct", before, after, device)
        _flush()
        records.record_deals(game, rewritten)
        records.record_ending(game, was)
        return target

    return _retrying(game, attempt)


def preview_correction(
    game: Game, number: int, raw: object
) -> tuple[tuple[engine.DealResult, ...], engine.GameState]:
    """Return every deal's result and the game's state if deal `number` became `raw`.

    Nothing is stored. Raises NoSuchDeal, WrongType, RuleViolation (the entry itself) or
    CorrectionConflict (a later deal cannot survive), as `correct_deal` would.
    """
    deals = _all_deals(game)
    if not 1 <= number <= len(deals):
        raise NoSuchDeal(number)
    config = game_config(game)
    entry = engine.parse_entry(config, raw)
    results = engine.correct_deal(config, [d.entry for d in deals], number, entry)
    return results, engine.resume(config, results[-1])


def undo_last_deal(game: Game, number: int, *, device: str | None = None) -> None:
    """Delete deal `number` if it is the last one; the game returns to the state before it.

    Raises NoSuchDeal, NotLastDeal or GameFull (the change log has no room for the undo:
    a log past its limit would make the game's own export one the import refuses).
    """

    def attempt(game: Game) -> None:
        last_two = _last_deals(game, 2)
        if not last_two or number > last_two[0].number or number < 1:
            raise NoSuchDeal(number)
        last = last_two[0]
        if number != last.number:
            raise NotLastDeal(number, last.number)
        config = game_config(game)
        previous = (
            engine.DealResult.from_document(last_two[1].result) if len(last_two) > 1 else None
        )
        before = dict(last.result)
        was = records.ending(game)
        _claim(game, engine.resume(config, previous), logged=True)
        db.session.delete(last)
        if _deals_loaded(game):
            game.deals.remove(last)
        _log(game, number, "undo", before, None, device)
        _flush()
        records.forget_deal(game, number)
        records.record_ending(game, was)

    _retrying(game, attempt)


def check_edit_token(game: Game, token: str | None) -> bool:
    """Return whether the token is this game's edit token (compared in constant time)."""
    return tokens.check_token(game.edit_token_hash, token)


def rotate_edit_token(game: Game) -> str:
    """Give the game a new edit token (the old one stops working) and return it.

    Every next game that inherited the old token through Rematch (`following`) takes the
    new one in the same transaction: a revoked link edits none of them.
    """
    token = tokens.new_token()
    new_hash = tokens.hash_token(token)

    def attempt(game: Game) -> None:
        old_hash = game.edit_token_hash
        inherited = following(game)
        _claim(game)
        game.edit_token_hash = new_hash
        if inherited:
            # Their versions move on too, so every phone following one of them hears of it.
            db.session.execute(
                update(Game)
                .where(Game.id.in_(inherited), Game.edit_token_hash == old_hash)
                .values(edit_token_hash=new_hash, version=Game.version + 1, updated_at=utcnow())
                .execution_options(synchronize_session=False)
            )

    _retrying(game, attempt)
    return token


def following(game: Game) -> list[str]:
    """Return the ids of the games after this one in its Rematch chain (its next game, that
    one's next …) that hold the same edit token, nearest first: one read by key each."""
    found: list[str] = []
    next_id = game.next_game_id
    while next_id is not None and next_id not in found and next_id != game.id:
        row = db.session.execute(
            select(Game.edit_token_hash, Game.next_game_id).where(Game.id == next_id)
        ).first()
        if row is None or row.edit_token_hash != game.edit_token_hash:
            break
        found.append(next_id)
        next_id = row.next_game_id
    return found


# ---------------------------------------------------------------- internals


def _retrying(game: Game, attempt: Callable[[Game], T]) -> T:
    """Run one change as one transaction; start again if another request changed the game."""
    game_id = game.id
    for _ in range(ATTEMPTS):
        try:
            outcome = attempt(game)
            _commit()
            return outcome
        except _Stale:
            db.session.rollback()
            fresh = get_game(game_id, deals=_deals_loaded(game))
            if fresh is None:
                raise LookupError(f"The game {game_id} no longer exists.") from None
            game = fresh
        except BaseException:
            db.session.rollback()
            raise
    # Only under pathological contention: answer as a conflict, the client may retry.
    raise NumberConflict(game.deal_count + 1)  # pragma: no cover


def _claim(game: Game, state: engine.GameState | None = None, *, logged: bool = False) -> None:
    """Take the game's write lock by moving its version on, or raise _Stale if it moved.

    The same statement writes the time and, given the state the change leads to, what
    `cache_state` keeps of it: the change makes no other UPDATE of the game's row. A
    change `logged` in the change log claims only while the log has room (else GameFull).
    """
    values: dict[str, Any] = {"updated_at": utcnow()}
    if state is not None:
        values |= state_columns(state)
    claim = update(Game).where(Game.id == game.id, Game.version == game.version)
    if logged:
        claim = claim.where(_change_count(game).scalar_subquery() < limits.CHANGES_PER_GAME)
    claimed = db.session.execute(
        claim.values(version=Game.version + 1, **values).execution_options(
            synchronize_session=False
        )
    )
    if getattr(claimed, "rowcount", 0) != 1:
        if logged:
            _check_change_room(game)
        raise _Stale
    # Keep the loaded object in step without writing the row again.
    values["version"] = game.version + 1
    for name, value in values.items():
        set_committed_value(game, name, value)


def state_columns(state: engine.GameState) -> dict[str, Any]:
    """Return the game row's columns that cache the engine's state, for lists and quick looks."""
    outcome = state.outcome
    return {
        "deal_count": state.deal_count,
        "scores": list(state.scores),
        "next_dealer": state.next_dealer,
        "status": outcome.status,
        "winners": list(outcome.winners),
        "decided_by": None if outcome.decided_by is None else str(outcome.decided_by),
        "explanation": str(outcome.explanation),
    }


def cache_state(game: Game, state: engine.GameState) -> None:
    """Cache the engine's state on a game being made (a change writes it in `_claim`)."""
    for name, value in state_columns(state).items():
        setattr(game, name, value)


def _log(
    game: Game,
    number: int,
    action: str,
    before: Mapping[str, Any] | None,
    after: Mapping[str, Any] | None,
    device: str | None,
) -> None:
    db.session.add(
        Change(
            game_id=game.id,
            number=number,
            action=action,
            before=dict(before) if before is not None else None,
            after=dict(after) if after is not None else None,
            device=_label(device),
        )
    )


def _check_change_room(game: Game) -> None:
    """Raise GameFull when the game's change log is full (one counting query).

    Asked when a claim failed: the log may be full, or another request changed the game.
    """
    count = db.session.scalar(_change_count(game)) or 0
    if count >= limits.CHANGES_PER_GAME:
        raise GameFull(
            f"A game keeps at most {limits.CHANGES_PER_GAME} changes in its log; "
            "start a new game to go on."
        )


def _change_count(game: Game) -> Select[Any]:
    """Return the query counting the game's change-log entries."""
    return select(func.count()).where(Change.game_id == game.id)


def _storable(text: str) -> bool:
    """Return whether every database can store this text as it is."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return "\x00" not in text


def _label(device: str | None) -> str | None:
    """Return a device label fit to store: printable characters, as many as the column holds."""
    label = "".join(ch for ch in device or "" if ch.isprintable()).strip()[:DEVICE_LENGTH]
    return label or None


def _flush() -> None:
    """Write the change so far; a constraint refusing it means another request was first."""
    try:
        db.session.flush()
    except IntegrityError as error:
        raise _Stale from error


def _commit() -> None:
    try:
        db.session.commit()
    except IntegrityError as error:
        db.session.rollback()
        raise _Stale from error


def _deals_loaded(game: Game) -> bool:
    return "deals" not in inspect(game).unloaded


def _all_deals(game: Game) -> list[Deal]:
    if _deals_loaded(game):
        return list(game.deals)
    query = select(Deal).where(Deal.game_id == game.id).order_by(Deal.number)
    return list(db.session.scalars(query))


def _last_deals(game: Game, count: int) -> list[Deal]:
    """Return the game's last `count` deals, newest first."""
    if _deals_loaded(game):
        return list(reversed(game.deals[-count:]))
    query = select(Deal).where(Deal.game_id == game.id).order_by(Deal.number.desc()).limit(count)
    return list(db.session.scalars(query))


def _new_id() -> str:
    """Return an unguessable game id (over 128 bits) that does not start with - or _.

    A leading dash would read as an option on command lines (`flask … <id>`).
    """
    while True:
        game_id = secrets.token_urlsafe(17)
        if game_id[0].isalnum():
            return game_id
