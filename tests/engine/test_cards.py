"""Cards in docs/rules.md's notation: `AS`, `10H`, `QD`, `4C`, `JOKER`."""

import dataclasses

import pytest

from scorekeeper.engine import JOKER, Card, Rank, RuleViolation, Suit

RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
SUITS = ("S", "H", "D", "C")


def test_suits_are_the_four_letters_in_rules_order():
    assert [str(s) for s in Suit] == list(SUITS)


def test_ranks_are_written_as_in_card_notation():
    assert [str(r) for r in Rank] == list(RANKS)


@pytest.mark.parametrize(
    ("suit", "red", "same_colour"),
    [
        pytest.param("S", False, "C", id="spades-black-pair-clubs"),
        pytest.param("C", False, "S", id="clubs-black-pair-spades"),
        pytest.param("H", True, "D", id="hearts-red-pair-diamonds"),
        pytest.param("D", True, "H", id="diamonds-red-pair-hearts"),
    ],
)
def test_suit_colour_and_left_bauer_suit(suit, red, same_colour):
    assert Suit(suit).is_red is red
    assert Suit(suit).same_colour == Suit(same_colour)


@pytest.mark.parametrize(
    "text", [pytest.param(f"{r}{s}", id=f"{r}{s}") for r in RANKS for s in SUITS]
)
def test_card_parse_reads_every_suited_card_and_writes_it_back(text):
    card = Card.parse(text)
    assert str(card.rank) + str(card.suit) == text
    assert str(card) == text
    assert not card.is_joker


def test_card_parse_reads_the_joker():
    card = Card.parse("JOKER")
    assert card == JOKER
    assert card.is_joker
    assert card.rank is None and card.suit is None
    assert str(card) == "JOKER"


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("", id="empty"),
        pytest.param("A", id="rank-only"),
        pytest.param("S", id="suit-only"),
        pytest.param("10", id="ten-without-suit"),
        pytest.param("1H", id="rank-1"),
        pytest.param("11H", id="rank-11"),
        pytest.param("KX", id="suit-X"),
        pytest.param("kh", id="lower-case"),
        pytest.param("Kh", id="lower-case-suit"),
        pytest.param("HK", id="suit-first"),
        pytest.param("AS ", id="trailing-space"),
        pytest.param(" AS", id="leading-space"),
        pytest.param("A♠", id="suit-symbol"),
        pytest.param("joker", id="joker-lower-case"),
        pytest.param("JOKERS", id="jokers"),
        pytest.param("1OH", id="letter-O-for-zero"),
    ],
)
def test_card_parse_refuses_bad_notation(text):
    with pytest.raises(RuleViolation) as info:
        Card.parse(text)
    assert info.value.message.endswith(".")


def test_card_is_frozen():
    card = Card.parse("AS")
    with pytest.raises(dataclasses.FrozenInstanceError):
        card.rank = Rank.KING


def test_cards_compare_by_rank_and_suit():
    assert Card.parse("10H") == Card(Rank.TEN, Suit.HEARTS)
    assert Card.parse("10H") != Card.parse("10D")
    assert len({Card.parse("QD"), Card.parse("QD"), JOKER}) == 2


@pytest.mark.parametrize(
    ("text", "label"),
    [
        pytest.param("KH", "K♥", id="king-of-hearts"),
        pytest.param("10S", "10♠", id="ten-of-spades"),
        pytest.param("4D", "4♦", id="four-of-diamonds"),
        pytest.param("JC", "J♣", id="jack-of-clubs"),
        pytest.param("JOKER", "Joker", id="joker"),
    ],
)
def test_card_label_for_people(text, label):
    assert Card.parse(text).label == label
