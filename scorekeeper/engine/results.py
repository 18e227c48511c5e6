"""Immutable values the engine hands out: entries, deal results, outcomes, house rules."""

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from scorekeeper.engine.frozen import EMPTY, FrozenMap, freeze, thaw
from scorekeeper.engine.messages import Message


class Status(StrEnum):
    """Where a game stands."""

    IN_PROGRESS = "in_progress"
    """Deals are still played (an unsettled tie under `play_on` included)."""
    WON = "won"
    """One side won."""
    SHARED = "shared"
    """Tied sides share the win (house rule `unresolved_tie: shared`)."""
    DRAWN = "drawn"
    """The rules end the game with nobody winning."""


class DecidedBy(StrEnum):
    """The step of the win check that ended the game."""

    HIGHEST = "highest"
    """One side at the target, or the highest of several."""
    BIDDER = "bidder"
    """Tied (or, in the Shmear family, several at the target) with the bidder among them."""
    PARTNER = "partner"
    """Tied with the bidder's partner among them (house rule `partner_breaks_ties`)."""
    SHARED = "shared"
    """An unsettled tie shared under the house rule."""
    MOON = "moon"
    """A successful moon ends the game at once."""
    LOWEST_AT_START = "lowest_at_start"
    """Several reached the target together: the lowest before the hand wins."""
    DRAW = "draw"
    """Still tied after every step that the rules give: the game is drawn."""


class DealKind(StrEnum):
    """What happened to a deal."""

    PLAYED = "played"
    """The hand was played and scored; the win check runs after it."""
    THROWN_IN = "thrown_in"
    """Everyone passed and the same dealer deals again."""
    FORFEIT = "forfeit"
    """Everyone passed and the dealer forfeited instead of playing at the lowest bid."""


@dataclass(frozen=True, slots=True)
class HouseRule:
    """A per-game setting where the written rules are silent."""

    values: tuple[Any, ...]
    """The values it may take."""
    default: Any
    """The value when the game does not set it."""
    summary: Message
    """One line for players: what it decides."""
    label: Message | None = None
    """Its name for people; None: the rule's id in words."""


@dataclass(frozen=True, slots=True)
class Entry:
    """A deal as entered, its JSON types checked but its rules not yet."""

    raw: FrozenMap[str, Any]
    """The fields as sent, nulls and `number` dropped: what storage keeps and replays."""
    number: int | None = None
    """The deal number the client expects to write, if it sent one."""

    def to_json(self) -> dict[str, Any]:
        """Return the entry as plain JSON values, as storage keeps it."""
        return thaw(self.raw)  # type: ignore[no-any-return]


@dataclass(frozen=True, slots=True)
class Outcome:
    """Where the game stands after the win check."""

    status: Status
    """In progress, won, shared or drawn."""
    winners: tuple[int, ...]
    """Winning seats, ascending; empty unless won or shared."""
    decided_by: DecidedBy | None
    """The step of the win check that decided, or None while in progress."""
    explanation: Message
    """One or two sentences for people, naming players and the rule applied."""
    open_tie: tuple[int, ...] = ()
    """Seats tied at the top that the rules leave open (play on), else empty."""

    @property
    def finished(self) -> bool:
        """Return whether no further deal may be entered."""
        return self.status != Status.IN_PROGRESS


CORE_FIELDS = ("number", "dealer", "bidders", "made", "deltas", "scores")
"""Fields every deal document has, whatever the ruleset."""


@dataclass(frozen=True, slots=True)
class DealResult:
    """A stored deal: the common core every ruleset shares, plus the ruleset's own detail."""

    number: int
    """1, 2, 3 … in the order entered, thrown-in and forfeited deals included."""
    dealer: int
    """The seat that dealt."""
    kind: DealKind
    """Played, thrown in or forfeited."""
    bidders: tuple[int, ...] | None
    """The side that played the contract, bidder first where the bidder is in it."""
    made: bool | None
    """Whether that side made its contract; None when nothing was played."""
    deltas: tuple[int, ...]
    """Each seat's change this deal."""
    scores: tuple[int, ...]
    """Each seat's total after this deal."""
    detail: FrozenMap[str, Any] = EMPTY
    """The ruleset's own fields of the deal document, in its order (entry as resolved, points)."""

    @property
    def played(self) -> bool:
        """Return whether the hand was played and scored."""
        return self.kind == DealKind.PLAYED

    @property
    def bidder(self) -> int | None:
        """Return the seat that won the auction (or made trump), if any."""
        value = self.detail.get("bidder")
        return value if isinstance(value, int) else None

    def __getattr__(self, name: str) -> Any:
        """Return a field of the ruleset's detail by name (`result.trump`)."""
        if name == "detail":
            raise AttributeError(name)
        try:
            return self.detail[name]
        except KeyError:
            raise AttributeError(name) from None

    def get(self, name: str, default: Any = None) -> Any:
        """Return a field of the ruleset's detail."""
        return self.detail.get(name, default)

    @property
    def starting_scores(self) -> tuple[int, ...]:
        """Return each seat's total before this deal."""
        return tuple(s - d for s, d in zip(self.scores, self.deltas, strict=True))

    def to_document(self) -> dict[str, Any]:
        """Return the API's deal document."""
        doc: dict[str, Any] = {"number": self.number, "dealer": self.dealer}
        bidders = None if self.bidders is None else list(self.bidders)
        for name, value in self.detail.items():
            if name == "points":
                doc["bidders"] = bidders  # the API lists the side before what it took
            doc[name] = thaw(value)
        doc.setdefault("bidders", bidders)
        doc.update(made=self.made, deltas=list(self.deltas), scores=list(self.scores))
        return doc

    @classmethod
    def from_document(cls, doc: Mapping[str, Any]) -> "DealResult":
        """Rebuild a result from its stored document."""
        bidders = doc.get("bidders")
        kind = (
            DealKind.THROWN_IN
            if doc.get("thrown_in")
            else DealKind.FORFEIT
            if doc.get("forfeit")
            else DealKind.PLAYED
        )
        return cls(
            number=doc["number"],
            dealer=doc["dealer"],
            kind=kind,
            bidders=None if bidders is None else tuple(bidders),
            made=doc.get("made"),
            deltas=tuple(doc["deltas"]),
            scores=tuple(doc["scores"]),
            detail=freeze({k: v for k, v in doc.items() if k not in CORE_FIELDS}),
        )


def house_rule_text(value: object) -> str:
    """Return a house rule's value as the new-game form sends it (booleans as true/false)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
