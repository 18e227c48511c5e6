"""Suits, ranks and cards, written as docs/rules.md writes them (`AS`, `10H`, `JOKER`), and
what each card counts towards Game."""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from scorekeeper.engine.errors import RuleViolation
from scorekeeper.engine.frozen import FrozenMap
from scorekeeper.engine.messages import Message, msg


class Suit(StrEnum):
    """A suit, named by its letter."""

    SPADES = "S"
    """Spades, black."""
    HEARTS = "H"
    """Hearts, red."""
    DIAMONDS = "D"
    """Diamonds, red."""
    CLUBS = "C"
    """Clubs, black."""

    @property
    def is_red(self) -> bool:
        """Return whether the suit is red (hearts and diamonds)."""
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def same_colour(self) -> "Suit":
        """Return the other suit of the same colour (the left bauer's suit)."""
        return _SAME_COLOUR[self]

    @property
    def symbol(self) -> str:
        """Return the suit's symbol (♠ ♥ ♦ ♣)."""
        return _SYMBOLS[self]

    @property
    def noun(self) -> str:
        """Return the suit's English name in the plural ("hearts")."""
        return self.name.lower()

    @property
    def words(self) -> Message:
        """Return the suit's name for people, as a message ("hearts")."""
        return _SUIT_WORDS[self]


_SAME_COLOUR = {
    Suit.SPADES: Suit.CLUBS,
    Suit.CLUBS: Suit.SPADES,
    Suit.HEARTS: Suit.DIAMONDS,
    Suit.DIAMONDS: Suit.HEARTS,
}
_SUIT_WORDS = {
    Suit.SPADES: msg("spades"),
    Suit.HEARTS: msg("hearts"),
    Suit.DIAMONDS: msg("diamonds"),
    Suit.CLUBS: msg("clubs"),
}
_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}


class Rank(StrEnum):
    """A rank, named as written in card notation."""

    ACE = "A"
    """Ace."""
    KING = "K"
    """King."""
    QUEEN = "Q"
    """Queen."""
    JACK = "J"
    """Jack (a bauer when of trump or of trump's colour)."""
    TEN = "10"
    """Ten."""
    NINE = "9"
    """Nine."""
    EIGHT = "8"
    """Eight."""
    SEVEN = "7"
    """Seven."""
    SIX = "6"
    """Six."""
    FIVE = "5"
    """Five."""
    FOUR = "4"
    """Four."""
    THREE = "3"
    """Three."""
    TWO = "2"
    """Two."""


JOKER_NOTATION = "JOKER"


@dataclass(frozen=True, slots=True)
class Card:
    """A playing card; the joker has neither rank nor suit."""

    rank: Rank | None
    """The rank, or None for the joker."""
    suit: Suit | None
    """The suit, or None for the joker."""

    @classmethod
    def parse(cls, text: str) -> "Card":
        """Return the card written as `text` (`AS`, `10H`, `JOKER`), or raise RuleViolation."""
        if text == JOKER_NOTATION:
            return JOKER
        if isinstance(text, str) and len(text) >= 2:
            try:
                return cls(Rank(text[:-1]), Suit(text[-1]))
            except ValueError:
                pass
        raise RuleViolation(
            {
                "card": (
                    msg(
                        "%(text)r is not a card: write the rank then the suit, "
                        "like AS, 10H or QD, or JOKER.",
                        text=text,
                    ),
                )
            }
        )

    @property
    def is_joker(self) -> bool:
        """Return whether this is the joker."""
        return self.rank is None

    def __str__(self) -> str:
        """Return the card in notation."""
        return JOKER_NOTATION if self.is_joker else f"{self.rank}{self.suit}"

    @property
    def label(self) -> str:
        """Return the card for people: rank and suit symbol (`K♥`), or `Joker`."""
        if self.rank is None or self.suit is None:
            return "Joker"
        return f"{self.rank}{self.suit.symbol}"

    @property
    def words(self) -> Message:
        """Return the card in words as one message ("king of hearts", "the joker")."""
        if self.rank is None or self.suit is None:
            return msg("the joker")
        return msg("%(rank)s of %(suit)s", rank=_RANK_WORDS[self.rank], suit=self.suit.words)


JOKER = Card(None, None)
"""The joker: no rank, no suit."""

_RANK_WORDS = {
    Rank.ACE: msg("ace"),
    Rank.KING: msg("king"),
    Rank.QUEEN: msg("queen"),
    Rank.JACK: msg("jack"),
    **{rank: msg(str(rank)) for rank in Rank if rank.value.isdigit()},
}


GAME_VALUES: Mapping[Rank, int] = FrozenMap(
    {Rank.ACE: 4, Rank.KING: 3, Rank.QUEEN: 2, Rank.JACK: 1, Rank.TEN: 10}
)
"""What each rank counts towards Game in every game of the family that scores Game (the
Shmear games, Five- and Six-Handed Schmier); other ranks count nothing."""
JOKER_GAME_VALUE = 1
"""What the joker counts towards Game, in a pack that holds one."""


def game_value(card: Card) -> int:
    """Return what the card counts towards Game: by its rank, the joker 1."""
    if card.rank is None:
        return JOKER_GAME_VALUE
    return GAME_VALUES.get(card.rank, 0)


def full_ranks(deck: Iterable[Card]) -> list[str]:
    """Return the ranks of the deck found in every suit, in the deck's order (A K Q …)."""
    suits_of: dict[str, set[Suit | None]] = {}
    for card in deck:
        if card.rank is not None:
            suits_of.setdefault(str(card.rank), set()).add(card.suit)
    order = [str(rank) for rank in Rank]
    return [rank for rank in order if len(suits_of.get(rank, ())) == len(Suit)]
