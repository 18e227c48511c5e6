"""What the dealer prepares and who speaks first: each ruleset says it of its own game."""

import re

import pytest

from scorekeeper import engine

RULESETS = engine.rulesets()


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.id)
def test_every_ruleset_says_what_the_dealer_prepares_and_its_pack_is_its_deck(ruleset):
    assert ruleset.deal_setup, f"{ruleset.id} says nothing of what the dealer prepares"
    pack = str(ruleset.deal_setup[0])
    sizes = re.findall(r"(\d+)(?:-card pack| cards)", pack)
    assert sizes, pack
    assert int(sizes[-1]) == len(ruleset.deck), (pack, len(ruleset.deck))
    dealt = " ".join(str(line) for line in ruleset.deal_setup[1:])
    assert re.search(r"Deal (five|six) cards to each player", dealt), dealt


@pytest.mark.parametrize(
    ("ruleset_id", "kept"),
    [
        ("five-handed-schmier", "the dealer keeps the other 15 as a stock"),
        ("six-handed-schmier", "the dealer keeps the other 17 as a stock"),
        ("shmear-kitty", "three to the kitty"),
        ("five-handed-euchre", "the other five form the kitty"),
    ],
)
def test_the_stock_or_kitty_is_what_the_pack_leaves(ruleset_id, kept):
    ruleset = engine.get_ruleset(ruleset_id)
    assert kept in " ".join(str(line) for line in ruleset.deal_setup)
    if ruleset_id != "shmear-kitty":
        left = len(ruleset.deck) - ruleset.max_players * (5 if "euchre" in ruleset_id else 6)
        assert str(left) in kept or {5: "five"}[left] in kept


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.id)
def test_the_dealers_left_speaks_first_as_the_auction_is_read(ruleset):
    seats = ruleset.max_players
    config = engine.configure(
        ruleset=ruleset.id,
        players=[f"P{seat}" for seat in range(seats)],
        first_dealer=0,
    )
    for dealer in range(seats):
        assert ruleset.first_speaker(config, dealer) == (dealer + 1) % seats
