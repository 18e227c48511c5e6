"""The Five-Handed Schmier pack, its trump order and its Game counts
(docs/rules.md#five-handed-schmier)."""

import pytest

from scorekeeper.engine import JOKER, Card, Rank, Suit
from scorekeeper.engine.rulesets.five_handed import (
    DECK,
    PACK_GAME_COUNT,
    FiveHandedSchmier,
    game_value,
    trump_order,
)


def test_deck_has_45_distinct_cards_without_2s_or_3s_and_one_joker():
    assert len(DECK) == 45
    assert len(set(DECK)) == 45
    assert JOKER in DECK
    assert not [c for c in DECK if c.rank in (Rank.TWO, Rank.THREE)]


def test_ruleset_plays_with_the_45_card_deck():
    assert FiveHandedSchmier().deck == DECK


@pytest.mark.parametrize(
    ("trump", "order"),
    [
        pytest.param("H", "AH KH QH JH JD 10H 9H 8H 7H 6H 5H 4H JOKER", id="hearts-left-bauer-JD"),
        pytest.param(
            "D", "AD KD QD JD JH 10D 9D 8D 7D 6D 5D 4D JOKER", id="diamonds-left-bauer-JH"
        ),
        pytest.param("S", "AS KS QS JS JC 10S 9S 8S 7S 6S 5S 4S JOKER", id="spades-left-bauer-JC"),
        pytest.param("C", "AC KC QC JC JS 10C 9C 8C 7C 6C 5C 4C JOKER", id="clubs-left-bauer-JS"),
    ],
)
def test_trump_order_runs_ace_king_queen_bauers_ten_to_four_then_joker(trump, order):
    assert [str(card) for card in trump_order(Suit(trump))] == order.split()


@pytest.mark.parametrize(
    ("card", "value"),
    [
        pytest.param("AS", 4, id="ace-4"),
        pytest.param("KH", 3, id="king-3"),
        pytest.param("QD", 2, id="queen-2"),
        pytest.param("JC", 1, id="jack-1"),
        pytest.param("10H", 10, id="ten-10"),
        pytest.param("JOKER", 1, id="joker-1"),
        pytest.param("9S", 0, id="nine-0"),
        pytest.param("4H", 0, id="four-0"),
    ],
)
def test_game_value_of_each_card(card, value):
    assert game_value(Card.parse(card)) == value


def test_the_pack_counts_81_towards_game():
    assert PACK_GAME_COUNT == 81
