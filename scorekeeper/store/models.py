"""Database models: what was entered and what the engine computed, no rules."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    DDL,
    JSON,
    Boolean,
    CheckConstraint,
    DateTime,
    Enum,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    event,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from scorekeeper.engine import Role, Status
from scorekeeper.extensions import Model

STATUSES = tuple(str(status) for status in Status)
"""A game's status, as the engine's outcome names it."""
ACTIONS = ("add", "correct", "undo")
"""What a change-log entry did to a deal."""
ROLES = (*(str(role) for role in Role), "none")
"""A seat's part in a deal (``none`` in a thrown-in deal)."""
DEVICE_LENGTH = 84
"""A change's device label, at most: an API client's ``api:`` and its 80 characters."""


def _one_of(column: str, values: tuple[str, ...]) -> str:
    """Return the SQL condition that a column holds one of these words."""
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


def utcnow() -> datetime:
    """Return the current time in UTC."""
    return datetime.now(UTC)


class Game(Model):
    """One game: its setup, its edit token's hash and the engine's state after the last deal."""

    __tablename__ = "games"
    __table_args__ = (
        CheckConstraint(_one_of("status", STATUSES), name="ck_games_status"),
        CheckConstraint("first_dealer >= 0 AND next_dealer >= 0", name="ck_games_dealers"),
        CheckConstraint("deal_count >= 0 AND version >= 1", name="ck_games_counts"),
        UniqueConstraint("next_game_id", name="uq_games_next_game_id"),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    """Unguessable id (128 bits of randomness), also the game's address."""
    ruleset: Mapped[str] = mapped_column(String(40))
    """The id of the ruleset the game is played by."""
    target: Mapped[int] = mapped_column(Integer)
    first_dealer: Mapped[int] = mapped_column(Integer)
    house_rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    """Every house rule of the ruleset with its effective value."""
    edit_token_hash: Mapped[str] = mapped_column(String(64))
    """SHA-256 hex digest of the edit token; the token itself is never stored."""
    version: Mapped[int] = mapped_column(Integer, default=1)
    """Incremented by every change; a writer claims the version it read (optimistic lock)."""

    # The engine's state after the last stored deal, cached for lists and cheap reads.
    deal_count: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[Status] = mapped_column(
        Enum(
            Status,
            native_enum=False,
            length=20,
            values_callable=lambda statuses: [str(status) for status in statuses],
        ),
        default=Status.IN_PROGRESS,
    )
    """The engine's `Status`, stored as its value (``in_progress``, ``won`` ...) in a VARCHAR.

    The column hands back the enum, never a bare string, so code compares with
    ``Status.WON``; ``ck_games_status`` refuses any other word in the database."""
    winners: Mapped[list[int]] = mapped_column(JSON, default=list)
    decided_by: Mapped[str | None] = mapped_column(String(20))
    explanation: Mapped[str] = mapped_column(Text, default="")
    next_dealer: Mapped[int] = mapped_column(Integer)
    scores: Mapped[list[int]] = mapped_column(JSON)

    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    table_id: Mapped[str | None] = mapped_column(
        ForeignKey("card_tables.id", ondelete="SET NULL", name="fk_games_table_id")
    )
    """The table (group of regular players) the game was played at, if any."""
    table_token_hash: Mapped[str | None] = mapped_column(String(64))
    """The table's edit token hash when the game was put at it: the game's edit rights
    start its Rematch at the table only while the table keeps that edit link."""
    next_game_id: Mapped[str | None] = mapped_column(
        ForeignKey("games.id", ondelete="SET NULL", name="fk_games_next_game_id")
    )
    """The game its Rematch started, once: every later tap and phone is sent there."""

    players: Mapped[list[Player]] = relationship(
        back_populates="game",
        order_by="Player.seat",
        cascade="all, delete-orphan",
        passive_deletes=True,
    )
    deals: Mapped[list[Deal]] = relationship(
        back_populates="game",
        order_by="Deal.number",
        cascade="all, delete-orphan",
        passive_deletes=True,
    )
    changes: Mapped[list[Change]] = relationship(
        back_populates="game",
        order_by="Change.id",
        cascade="all, delete-orphan",
        passive_deletes=True,
    )

    def __repr__(self) -> str:
        return f"<Game {self.id} {self.ruleset} v{self.version}>"


VERSION_CHANNEL = "game_versions"
"""The PostgreSQL notification channel on which every saved version is announced."""

NOTIFY_VERSIONS = (
    DDL(
        f"""CREATE OR REPLACE FUNCTION notify_game_version() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('{VERSION_CHANNEL}', NEW.id || ' ' || NEW.version);
    RETURN NULL;
END
$$ LANGUAGE plpgsql"""
    ),
    DDL(
        """CREATE TRIGGER games_notify_version AFTER UPDATE OF version ON games
FOR EACH ROW WHEN (OLD.version IS DISTINCT FROM NEW.version)
EXECUTE FUNCTION notify_game_version()"""
    ),
)
"""On PostgreSQL, announce ``'<game id> <version>'`` when a change to a game commits, from
whichever app instance saved it (scorekeeper/store/versions.py listens). A migration adds
it to a migrated database, and these listeners to one made by ``create_all``."""

for _statement in NOTIFY_VERSIONS:
    event.listen(Game.__table__, "after_create", _statement.execute_if(dialect="postgresql"))


class Player(Model):
    """A seat at a game's table and the name of who sits there."""

    __tablename__ = "players"
    __table_args__ = (
        UniqueConstraint("game_id", "seat", name="uq_players_game_seat"),
        CheckConstraint("seat >= 0", name="ck_players_seat"),
        # A regular's seats: "did this regular play that game" is one lookup of two equal
        # columns (the archive's player filter), and a regular's games and wins are counted
        # from the index alone. No planner needs statistics to prefer it.
        Index("ix_players_regular", "table_player_id", "game_id", "won"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    """Seat number, 0..n-1 clockwise."""
    name: Mapped[str] = mapped_column(String(40))
    table_player_id: Mapped[int | None] = mapped_column(
        ForeignKey("table_players.id", ondelete="SET NULL", name="fk_players_table_player_id")
    )
    """Who this is among the table's regular players, when the game has a table."""
    won: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Whether this seat is among the game's winners (kept in step with ``Game.winners``)."""

    game: Mapped[Game] = relationship(back_populates="players")

    def __repr__(self) -> str:
        return f"<Player {self.seat} {self.name!r}>"


class Deal(Model):
    """One stored deal: the entry as posted and the result the engine computed for it."""

    __tablename__ = "deals"
    # Two phones posting the same deal cannot both land: the database refuses the second.
    __table_args__ = (
        UniqueConstraint("game_id", "number", name="uq_deals_game_number"),
        CheckConstraint("number >= 1", name="ck_deals_number"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    """1, 2, 3 … in the order stored, thrown-in deals included."""
    entry: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The entry as posted (the engine's ``Entry.raw``: nulls and ``number`` dropped)."""
    result: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The engine's deal document (``DealResult.to_document()``), scores after it included."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    game: Mapped[Game] = relationship(back_populates="deals")

    def __repr__(self) -> str:
        return f"<Deal {self.game_id}#{self.number}>"


class Change(Model):
    """Audit log: one row per deal added, corrected or undone."""

    __tablename__ = "changes"
    __table_args__ = (
        CheckConstraint(_one_of("action", ACTIONS), name="ck_changes_action"),
        CheckConstraint("number >= 1", name="ck_changes_number"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    """The deal the change was made to."""
    action: Mapped[str] = mapped_column(String(10))
    """``add``, ``correct`` or ``undo``."""
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    """The deal document before the change (``None`` for ``add``)."""
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    """The deal document after the change (``None`` for ``undo``)."""
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    device: Mapped[str | None] = mapped_column(String(DEVICE_LENGTH))
    """A label for the device that made the change, when known."""

    game: Mapped[Game] = relationship(back_populates="changes")

    def __repr__(self) -> str:
        return f"<Change {self.action} {self.game_id}#{self.number}>"


# ---------------------------------------------------------------- tables and history


class CardTable(Model):
    """A table: a named group that plays together, holding its games and players' records."""

    __tablename__ = "card_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    """Unguessable id (128 bits of randomness), also the table's view link."""
    name: Mapped[str] = mapped_column(String(80))
    edit_token_hash: Mapped[str] = mapped_column(String(64))
    """SHA-256 hex digest of the table's edit token; the token itself is never stored."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    players: Mapped[list[TablePlayer]] = relationship(
        back_populates="table",
        order_by="TablePlayer.name",
        cascade="all, delete-orphan",
        passive_deletes=True,
    )

    def __repr__(self) -> str:
        return f"<CardTable {self.id} {self.name!r}>"


# Scanned backwards for "newest first"; both databases read an ascending index either way.
Index("ix_games_table_created", Game.table_id, Game.created_at, Game.id)


class TablePlayer(Model):
    """A regular at a table, known by name (compared case-insensitively)."""

    __tablename__ = "table_players"
    __table_args__ = (UniqueConstraint("table_id", "key", name="uq_table_players_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("card_tables.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(40))
    """The spelling first used (or chosen when merging)."""
    key: Mapped[str] = mapped_column(String(160))
    """The name case-folded: two spellings with the same key are the same person."""

    table: Mapped[CardTable] = relationship(back_populates="players")

    def __repr__(self) -> str:
        return f"<TablePlayer {self.name!r}>"


class DealSeat(Model):
    """One seat's part in one deal, copied from the deal's result for statistics in SQL.

    Written by the services whenever a deal is stored, corrected or undone, and by the
    importer (see ``scorekeeper.store.records``); never the source of truth, always
    rebuildable from ``Deal.result`` (``flask rebuild-records``).
    """

    __tablename__ = "deal_seats"
    __table_args__ = (
        UniqueConstraint("game_id", "number", "seat", name="uq_deal_seats_game_number_seat"),
        CheckConstraint("seat >= 0 AND number >= 1", name="ck_deal_seats_place"),
        CheckConstraint(_one_of("role", ROLES), name="ck_deal_seats_role"),
        # Covers the statistics query: read from the index alone, already in group order.
        Index("ix_deal_seats_stats", "table_player_id", "ruleset", "role", "bid", "made", "delta"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    table_player_id: Mapped[int | None] = mapped_column(
        ForeignKey("table_players.id", ondelete="SET NULL")
    )
    ruleset: Mapped[str] = mapped_column(String(40))
    """The game's ruleset (copied, so the statistics group by it without reading games)."""
    role: Mapped[str] = mapped_column(String(10))
    """The ruleset's role for the seat (``bidder``, ``partner``, ``opponent``), or ``none``
    where nothing was played (thrown in, forfeited)."""
    bid: Mapped[int | None] = mapped_column(Integer)
    """The deal's winning bid when it is a number (None otherwise, or when nothing was played)."""
    made: Mapped[bool | None] = mapped_column(Boolean)
    """Whether the bidding side made its contract (None when nothing was played)."""
    delta: Mapped[int] = mapped_column(Integer)
    """This seat's change in score from this deal."""


class DealSeatTag(Model):
    """A statistics tag the ruleset gave one seat in one deal (``bid``, ``made``, ``set`` …)."""

    __tablename__ = "deal_seat_tags"
    __table_args__ = (
        ForeignKeyConstraint(
            ["game_id", "number", "seat"],
            ["deal_seats.game_id", "deal_seats.number", "deal_seats.seat"],
            ondelete="CASCADE",
            name="fk_deal_seat_tags_deal_seat",
        ),
        # Covers the statistics query: counted from the index alone.
        Index("ix_deal_seat_tags_stats", "table_player_id", "ruleset", "tag"),
    )

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    tag: Mapped[str] = mapped_column(String(20), primary_key=True)
    """One of the tags the ruleset lists in its ``statistics``."""
    table_player_id: Mapped[int | None] = mapped_column(
        ForeignKey(
            "table_players.id", ondelete="SET NULL", name="fk_deal_seat_tags_table_player_id"
        )
    )
    """The seat's regular, as on its ``deal_seats`` row."""
    ruleset: Mapped[str] = mapped_column(String(40))
    """The game's ruleset, as on its ``deal_seats`` row."""


class RegularDealTotal(Model):
    """A regular's deals of one kind (ruleset, role, bid, made), counted and summed.

    Kept by ``scorekeeper.store.records`` in the same transaction as the ``deal_seats``
    rows it totals, so a regular's statistics are read from a few rows however many deals
    were played; equal to grouping ``deal_seats`` at any time (``flask rebuild-records``
    writes it again from them). The key holds no NULL, so a row is found by its key:
    `NO_BID` and `made` as `MADE_KEYS`.
    """

    __tablename__ = "regular_deal_totals"

    table_player_id: Mapped[int] = mapped_column(
        ForeignKey("table_players.id", ondelete="CASCADE"), primary_key=True
    )
    ruleset: Mapped[str] = mapped_column(String(40), primary_key=True)
    role: Mapped[str] = mapped_column(String(10), primary_key=True)
    bid: Mapped[int] = mapped_column(Integer, primary_key=True)
    """The winning bid when it was a number, else `NO_BID`."""
    made: Mapped[int] = mapped_column(Integer, primary_key=True)
    """1 made, 0 set, -1 nothing played (``deal_seats.made`` true, false, null)."""
    deals: Mapped[int] = mapped_column(Integer)
    """How many of the regular's ``deal_seats`` rows have this key."""
    points: Mapped[int] = mapped_column(Integer)
    """The sum of their ``delta``."""


class RegularTagTotal(Model):
    """A regular's count of deals that earned one statistics tag, in one ruleset.

    Kept with ``deal_seat_tags`` as `RegularDealTotal` is with ``deal_seats``."""

    __tablename__ = "regular_tag_totals"

    table_player_id: Mapped[int] = mapped_column(
        ForeignKey("table_players.id", ondelete="CASCADE"), primary_key=True
    )
    ruleset: Mapped[str] = mapped_column(String(40), primary_key=True)
    tag: Mapped[str] = mapped_column(String(20), primary_key=True)
    deals: Mapped[int] = mapped_column(Integer)
    """How many of the regular's ``deal_seat_tags`` rows have this tag."""


class RegularGameTotal(Model):
    """A regular's games of one ruleset that stand the same way (status, how decided), counted.

    Kept by ``scorekeeper.store.records`` in the transaction that moves a game's outcome,
    puts a game at the table, imports it or merges two spellings, so a regular's games and
    wins are read from a few rows however many games were played; equal to grouping the
    regular's ``players`` rows with their games at any time (``flask rebuild-records``
    writes it again from them). `decided_by` is `NO_DECISION` for a game not decided.
    """

    __tablename__ = "regular_game_totals"

    table_player_id: Mapped[int] = mapped_column(
        ForeignKey("table_players.id", ondelete="CASCADE"), primary_key=True
    )
    ruleset: Mapped[str] = mapped_column(String(40), primary_key=True)
    status: Mapped[Status] = mapped_column(
        Enum(
            Status,
            native_enum=False,
            length=20,
            create_constraint=False,
            values_callable=lambda statuses: [str(status) for status in statuses],
        ),
        primary_key=True,
    )
    """The games' `Status`, stored as its value, as ``games.status`` is."""
    decided_by: Mapped[str] = mapped_column(String(20), primary_key=True)
    """The step of the win check that decided them, or `NO_DECISION`."""
    games: Mapped[int] = mapped_column(Integer)
    """How many of the regular's games stand this way."""
    won: Mapped[int] = mapped_column(Integer)
    """How many of them the regular won."""


class RegularResult(Model):
    """A regular's finished game, in the order played, with the run of wins it ends.

    One row per regular per finished game at the table, kept with `RegularGameTotal`.
    `streak` is how many games the regular won in a row up to and including this one (0
    for a game not won), so the longest streak is one look at an index however many games
    were played, and a game that finishes, is undone, corrected or imported renumbers
    only the run of wins that follows it.
    """

    __tablename__ = "regular_results"
    __table_args__ = (
        Index("ix_regular_results_streak", "table_player_id", "streak"),
        Index("ix_regular_results_game", "game_id"),
    )

    table_player_id: Mapped[int] = mapped_column(
        ForeignKey("table_players.id", ondelete="CASCADE"), primary_key=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), primary_key=True)
    """The game's ``created_at``: with `game_id`, the order the games were played in."""
    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    won: Mapped[bool] = mapped_column(Boolean)
    """Whether the regular won the game (a shared win counts)."""
    streak: Mapped[int] = mapped_column(Integer)
    """Games won in a row, ending with this one (0 where it was not won)."""


class TableEnding(Model):
    """How many of a table's games one step of the win check decided.

    Kept with `RegularGameTotal`, so the stats page's endings are read from a few rows
    however many games the table played; equal to grouping the table's decided games by
    ``decided_by`` at any time (``flask rebuild-records`` writes it again from them).
    """

    __tablename__ = "table_endings"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("card_tables.id", ondelete="CASCADE"), primary_key=True
    )
    decided_by: Mapped[str] = mapped_column(String(20), primary_key=True)
    """The step of the win check (``highest``, ``bidder`` …)."""
    games: Mapped[int] = mapped_column(Integer)
    """How many of the table's games it decided."""


NO_BID = -1
"""`RegularDealTotal.bid` of deals whose bid was not a number (or nothing was played)."""
MADE_KEYS = {True: 1, False: 0, None: -1}
"""`RegularDealTotal.made` for each value of ``deal_seats.made``."""
NO_DECISION = ""
"""`RegularGameTotal.decided_by` of games no step of the win check decided (yet)."""
