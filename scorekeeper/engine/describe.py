"""How a ruleset describes itself as data: its entry fields, sides, seat roles, statistics.

Forms, pages, logs, statistics and exports are built from this description, so nothing
outside a ruleset's module needs to know its fields or ids.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from scorekeeper.engine.cards import Card, Rank
from scorekeeper.engine.messages import Message, Plural


class FieldKind(StrEnum):
    """What kind of value an entry field takes, and so which control enters it."""

    SEAT = "seat"
    """A seat at the table (an integer)."""
    BID = "bid"
    """One of the field's choices (integers, and `"moon"` where the ruleset has it)."""
    SUIT = "suit"
    """A suit letter."""
    CARD = "card"
    """A card of the ruleset's deck, in notation."""
    SIDE = "side"
    """Who took a point decided by counts: one of the choices, or a side index."""
    COUNTS = "counts"
    """A count per side (named sides in the choices, else one per side of the game)."""
    NUMBER = "number"
    """A whole number among the choices (tricks taken)."""
    FLAG = "flag"
    """A boolean that marks a special deal (thrown in, forfeited)."""
    TOGGLE = "toggle"
    """A boolean within a played deal (the maker went alone): one of the field's two
    choices, `False` first."""
    AUCTION = "auction"
    """What each player said, from the dealer's left."""


class SideKind(StrEnum):
    """How players are grouped for scoring."""

    INDIVIDUAL = "individual"
    """Every player keeps their own score (a partner may be called each deal)."""
    TEAMS = "teams"
    """Fixed teams score together."""
    PAIR = "pair"
    """Individual scores; a pair is formed by the cards each deal."""


class Role(StrEnum):
    """The part a seat played in one deal."""

    BIDDER = "bidder"
    """Won the auction (or made trump)."""
    PARTNER = "partner"
    """On the contract's side with the bidder, or a member of the deal's pair."""
    OPPONENT = "opponent"
    """Against the contract."""


class WinFact(StrEnum):
    """A fact of the deal just scored that a ruleset's win check reads, besides the scores."""

    BIDDER = "bidder"
    """Who won the auction: a tie that includes the bidder (or the bidding side) goes to them."""
    PARTNER = "partner"
    """The bidder's called partner, who may break a tie the bidder is not part of."""
    MOON = "moon"
    """Whether the bidder shot the moon and took every point, which wins at once."""
    STARTING_SCORES = "starting_scores"
    """Each player's score before the deal: the lowest of those who reached the target wins."""


@dataclass(frozen=True, slots=True)
class Choice:
    """One value a field may take, with its label."""

    value: Any
    """The JSON value (an integer or a string)."""
    label: Message
    """The value for people."""


@dataclass(frozen=True, slots=True)
class CardValue:
    """What one card of the deck adds to a count entered per side (Game's 10 = 10, A = 4)."""

    card: Card
    """The card."""
    value: int
    """What it counts, more than 0."""


def add_up(values: Sequence[CardValue], taken: Mapping[Card, int], sides: int) -> tuple[int, ...]:
    """Return each side's count: the values of the cards `taken` gives it (card: side index).

    Cards not in `taken` were not captured by anyone counted (not dealt, or left out); a
    card that counts nothing, or a side outside 0 to `sides` - 1, raises ValueError.
    """
    worth = {value.card: value.value for value in values}
    counts = [0] * sides
    for card, side in taken.items():
        if card not in worth:
            raise ValueError(f"{card} counts nothing here")
        if not 0 <= side < sides:
            raise ValueError(f"there is no side {side}")
        counts[side] += worth[card]
    return tuple(counts)


@dataclass(frozen=True, slots=True)
class DealerPlays:
    """What an auction in which everyone passed decides, where the dealer must then play:
    the dealer is the bidder, at a set bid. A form may choose both for the scorekeeper."""

    bidder: str
    """The seat field naming the bidder, which becomes the dealer."""
    bid: str
    """The bid field."""
    value: Any
    """The bid the dealer plays at."""


@dataclass(frozen=True, slots=True)
class EntryField:
    """One field of a deal entry, as the API names it."""

    name: str
    """The API field name (`bidder`, `high`, `game_points` …)."""
    kind: FieldKind
    """The value it takes."""
    label: Message
    """Its name for people."""
    hint: Message | None = None
    """One line that says what to enter."""
    choices: tuple[Choice, ...] = ()
    """Allowed values where they are not the seats or the suits; for a card, the cards that
    may be called besides a rank of every suit (the joker, Euchre's 2S and 2H)."""
    blank: Message | None = None
    """The label of leaving it out on purpose ("No partner", "Not in play"), if allowed; for
    an auction, the label of one where everyone passed and the hand is still played."""
    point: bool = False
    """Whether it awards one of the hand's points (shown together in a grid)."""
    advanced: bool = False
    """Whether the form tucks it away by default (the auction, the counts)."""
    differs_from: str | None = None
    """Another seat field this one never equals (the partner is never the bidder)."""
    holder: str | None = None
    """For a called card: the seat field naming who held it (the partner)."""
    hint_shown: bool = False
    """Whether the form shows the hint in full even where it tucks hints away (the points
    grid): it names a card players may not know by heart (the Jick)."""
    card_values: tuple[CardValue, ...] = ()
    """For counts of captured cards: every card of the deck that counts, with its value, in
    the deck's order, so a counter can add up the cards each side took (see `add_up`)."""
    names: str | None = None
    """For an auction: the seat field its last bid names (the bidder)."""
    dealer_plays: DealerPlays | None = None
    """For an auction whose blank is played (everyone passed): the bidder and bid it decides."""

    def choice(self, value: Any) -> Choice | None:
        """Return the choice with this value, or None (a seat, a suit, a card of a suit)."""
        return next((c for c in self.choices if c.value == value), None)


@dataclass(frozen=True, slots=True)
class CalledPoint:
    """Calling this rank of trump makes its holder the partner, who then takes the point."""

    rank: Rank
    """The rank of trump called."""
    point: str
    """The entry field of the point its holder takes."""


@dataclass(frozen=True, slots=True)
class Statistic:
    """A count a player's record shows: deals in which a seat carries the tag."""

    tag: str
    """The tag the ruleset gives seats (`bid`, `made`, `set` …)."""
    label: Message
    """The statistic's name for people."""


@dataclass(frozen=True, slots=True)
class PlayerExtra:
    """A count the game document gives each player beside the score, and its words."""

    key: str
    """Its name in each player of the game document (and so of the API)."""
    words: Plural
    """The count for people, as the scoreboard shows it beside the player's name."""


@dataclass(frozen=True, slots=True)
class ContractWords:
    """How a game says a contract went: made, or lost ("set", or the game's own word)."""

    made: Message
    """The word within a line ("Bob 4♥: made")."""
    lost: Message
    """The word within a line for a contract lost."""
    made_heading: Message
    """The word at the head of a line ("Made")."""
    lost_heading: Message
    """The word at the head of a line for a contract lost."""

    def said(self, made: bool | None, *, heading: bool = False) -> Message:
        """Return the word for a contract made or lost, within a line or at its head."""
        if heading:
            return self.made_heading if made else self.lost_heading
        return self.made if made else self.lost
