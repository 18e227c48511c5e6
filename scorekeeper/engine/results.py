"""Immutable values the engine hands out: entries, deal results, outcomes, house rules."""

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

IN_PROGRESS = "in_progress"
WON = "won"
SHARED = "shared"
DRAWN = "drawn"


@dataclass(frozen=True, slots=True)
class HouseRule:
    """A per-game setting where the written rules are silent."""

    values: tuple
    """The values it may take."""
    default: Any
    """The value when the game does not set it."""
    summary: str
    """One line for players: what it decides."""


@dataclass(frozen=True, slots=True)
class Entry:
    """A deal as entered, its JSON types checked but its rules not yet."""

    raw: Mapping[str, Any]
    """The fields as sent, nulls and `number` dropped: what storage keeps and replays."""
    number: int | None = None
    """The deal number the client expects to write, if it sent one."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """Where the game stands after the win check."""

    status: str
    """`in_progress`, `won`, `shared` or `drawn`."""
    winners: tuple[int, ...]
    """Winning seats, ascending; empty unless won or shared."""
    decided_by: str | None
    """The step of the win check that decided, or None while in progress."""
    explanation: str
    """One or two sentences for people, naming players and the rule applied."""

    @property
    def finished(self) -> bool:
        """Return whether no further deal may be entered."""
        return self.status != IN_PROGRESS


@dataclass(frozen=True, slots=True)
class DealResult:
    """A stored deal: the entry as resolved plus everything the engine computed."""

    number: int
    """1, 2, 3 … in the order entered, thrown-in deals included."""
    dealer: int
    """The seat that dealt."""
    thrown_in: bool
    """Whether everyone passed."""
    bidder: int | None = None
    """The seat that won the auction."""
    bid: int | None = None
    """The winning bid."""
    trump: str | None = None
    """The trump suit's letter."""
    called_card: str | None = None
    """The card the bidder called, in notation."""
    partner: int | None = None
    """The seat that held the called card."""
    auction: tuple | None = None
    """What each speaker said from the dealer's left, if entered (None for a pass)."""
    high: int | None = None
    """Seat that held and played the ace of trump."""
    low: int | None = None
    """Seat that held and played the 4 of trump."""
    jack: int | None = None
    """Seat that won the trick with the right bauer."""
    off_jack: int | None = None
    """Seat that won the trick with the left bauer."""
    joker: int | None = None
    """Seat that won the trick with the joker."""
    game_points: Mapping[str, int] | None = None
    """Both sides' Game counts, if entered."""
    game: str | None = None
    """Who took Game: `bidders`, `opponents` or `none`."""
    bidders: tuple[int, ...] | None = None
    """The bidder, then the partner if any."""
    points: Mapping[str, int] | None = None
    """Points each side took this deal."""
    made: bool | None = None
    """Whether the bidders took at least the bid."""
    deltas: tuple[int, ...] = ()
    """Each seat's change this deal."""
    scores: tuple[int, ...] = ()
    """Each seat's total after this deal."""

    def to_document(self) -> dict[str, Any]:
        """Return the API's deal document."""
        doc = {f.name: getattr(self, f.name) for f in fields(self)}
        for name in ("auction", "bidders", "deltas", "scores"):
            if doc[name] is not None:
                doc[name] = list(doc[name])
        for name in ("game_points", "points"):
            if doc[name] is not None:
                doc[name] = dict(doc[name])
        return doc

    @classmethod
    def from_document(cls, doc: Mapping[str, Any]) -> "DealResult":
        """Rebuild a result from its stored document."""
        values = {f.name: doc.get(f.name) for f in fields(cls)}
        for name in ("auction", "bidders", "deltas", "scores"):
            if values[name] is not None:
                values[name] = tuple(values[name])
        return cls(**values)
