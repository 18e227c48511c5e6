"""The cards each ruleset says count towards its counts (Game), checked against a hand count.

The deal form's card counter is built from these values (`EntryField.card_values`) and
adds them up with `add_up`; here every deck is counted by hand, card by card, and a few
distributions of the cards are added up and then scored by the engine.
"""

import pytest

from scorekeeper.engine import (
    JOKER,
    Card,
    FieldKind,
    Rank,
    RuleViolation,
    Suit,
    add_up,
    apply_deal,
    configure,
    new_game,
    parse_entry,
    rulesets,
)

HAND = {Rank.TEN: 10, Rank.ACE: 4, Rank.KING: 3, Rank.QUEEN: 2, Rank.JACK: 1}
"""docs/rules.md's Game values, written out by hand for the test: 10 = 10, A = 4, K = 3, Q = 2,
J = 1, any other rank nothing."""
PLAYERS = {
    "five-handed-schmier": ["Ann", "Bob", "Cy", "Di", "Ed"],
    "six-handed-schmier": ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"],
    "shmear": ["Ann", "Bob", "Cy"],
    "shmear-high-low": ["Ann", "Bob", "Cy", "Di"],
    "shmear-partners": ["Ann", "Bob", "Cy", "Di"],
    "shmear-kitty": ["Ann", "Bob", "Cy", "Di"],
    "five-handed-euchre": ["Ann", "Bob", "Cy", "Di", "Ed"],
    "euchre": ["Ann", "Bob", "Cy", "Di"],
    "two-handed-euchre": ["Ann", "Bob"],
    "three-handed-euchre": ["Ann", "Bob", "Cy"],
    "six-handed-euchre": ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"],
}
JOKER_COUNTS = {"five-handed-schmier": 1, "six-handed-schmier": 1}
"""The joker counts 1 in the Schmier games that play one; the Shmear packs have none."""
PACK = {
    # 4 suits x (10 + 4 + 3 + 2 + 1) = 80, and the joker's 1 where it is in the pack.
    "five-handed-schmier": 81,
    "six-handed-schmier": 81,
    "shmear": 80,
    "shmear-high-low": 80,
    "shmear-partners": 80,
    "shmear-kitty": 80,
}
"""Every counting card of each pack added up, by hand."""


def config(ruleset_id):
    return configure(ruleset_id, PLAYERS[ruleset_id], 0)


def counts_field(ruleset_id):
    cfg = config(ruleset_id)
    fields = [f for f in cfg.ruleset.entry_fields(cfg) if f.kind == FieldKind.COUNTS]
    return fields[0] if fields else None


def card(text):
    return Card.parse(text)


@pytest.mark.parametrize("ruleset", [r.id for r in rulesets()])
def test_every_card_of_the_deck_counts_what_a_hand_count_says(ruleset):
    field = counts_field(ruleset)
    if ruleset not in PACK:
        # Euchre counts tricks, not cards: no counts, so no counter.
        assert field is None
        return
    values = {v.card: v.value for v in field.card_values}
    deck = config(ruleset).ruleset.deck
    expected = {
        c: (JOKER_COUNTS.get(ruleset, 0) if c.is_joker else HAND.get(c.rank, 0)) for c in deck
    }
    assert values == {c: v for c, v in expected.items() if v}
    assert sum(values.values()) == PACK[ruleset]
    # In the deck's order, each card once, so the counter lists a pack the way it is sorted.
    assert [v.card for v in field.card_values] == [c for c in deck if expected[c]]
    assert len(field.card_values) == (21 if ruleset in JOKER_COUNTS else 20)


@pytest.mark.parametrize("ruleset", sorted(PACK))
def test_the_whole_pack_to_one_side_adds_up_to_the_pack(ruleset):
    values = counts_field(ruleset).card_values
    assert add_up(values, {v.card: 0 for v in values}, 2) == (PACK[ruleset], 0)
    assert add_up(values, {}, 3) == (0, 0, 0)


def test_a_distribution_adds_up_card_by_card():
    values = counts_field("five-handed-schmier").card_values
    taken = {card("10H"): 0, card("AS"): 1, JOKER: 0, card("JD"): 0, card("QC"): 1}
    assert add_up(values, taken, 2) == (10 + 1 + 1, 4 + 2)
    values = counts_field("shmear").card_values
    tens = {card(f"10{s}"): i % 3 for i, s in enumerate("SHDC")}
    assert add_up(values, tens, 3) == (20, 10, 10)


def test_a_card_that_counts_nothing_or_a_side_not_there_is_refused():
    values = counts_field("shmear").card_values
    with pytest.raises(ValueError, match="9H counts nothing"):
        add_up(values, {card("9H"): 0}, 2)
    with pytest.raises(ValueError, match="JOKER counts nothing"):
        add_up(values, {JOKER: 0}, 2)
    with pytest.raises(ValueError, match="no side 2"):
        add_up(values, {card("AS"): 2}, 2)


def split_pack(ruleset, sides, first):
    """Give the first `first` counting cards to side 0, the rest round the other sides."""
    values = counts_field(ruleset).card_values
    taken = {v.card: 0 if i < first else 1 + (i % (sides - 1)) for i, v in enumerate(values)}
    return add_up(values, taken, sides)


def test_counted_counts_score_in_five_handed_schmier():
    # Bob bids 4 in hearts, calls the KH held by Di; the bidders took the spades and hearts.
    counts = split_pack("five-handed-schmier", 2, 10)
    assert counts == (2 * 20, 81 - 40)
    entry = {
        "bidder": 1, "bid": 4, "trump": "H", "called_card": "KH", "partner": 3,
        "high": 3, "low": 0, "jack": 1, "off_jack": 2, "joker": 1,
        "game_points": {"bidders": counts[0], "opponents": counts[1]},
    }  # fmt: skip
    cfg = config("five-handed-schmier")
    after = apply_deal(new_game(cfg), parse_entry(cfg, entry))
    # The opponents counted 41 to 40: Game is theirs, and with Low and Off-jack each of
    # them scores 3; the bidders took 3 of the 4 they bid, set.
    assert after.last.get("game") == "opponents"
    assert after.scores == (3, -4, 3, -4, 3)


def test_counted_counts_score_in_high_low_shmear_pooled_by_the_pair():
    cfg = config("shmear-high-low")
    values = counts_field("shmear-high-low").card_values
    # Ann (High) took the four 10s, Cy (Low) the aces: pooled 56 against Bob's and Di's.
    taken = {v.card: 0 if v.card.rank == Rank.TEN else 2 if v.card.rank == Rank.ACE else 1
             for v in values}  # fmt: skip
    taken[Card(Rank.KING, Suit.CLUBS)] = 3
    counts = add_up(values, taken, 4)
    assert counts == (40, 80 - 40 - 16 - 3, 16, 3)
    entry = {"bidder": 1, "bid": 2, "trump": "S", "high": 0, "low": 2, "jack": 1,
             "game_points": list(counts)}  # fmt: skip
    after = apply_deal(new_game(cfg), parse_entry(cfg, entry))
    assert after.last.bidders == (0, 2)
    # The pair made High, Low and Game (56 against 21 and 3); Bob took the Jack alone.
    assert after.scores == (3, 1, 3, 0)


def test_counted_counts_score_in_partner_shmear_for_teams():
    cfg = config("shmear-partners")
    counts = split_pack("shmear-partners", 2, 5)  # team 0 took the spades: 20
    assert counts == (20, 60)
    entry = {"bidder": 0, "bid": 2, "trump": "S", "high": 0, "low": 2, "jack": 1,
             "game_points": list(counts)}  # fmt: skip
    after = apply_deal(new_game(cfg), parse_entry(cfg, entry))
    assert after.last.get("game") == 1
    assert after.scores == (2, 2, 2, 2)


def test_more_than_the_pack_is_still_refused_as_typed():
    cfg = config("shmear")
    entry = {"bidder": 0, "bid": 2, "trump": "S", "high": 0, "low": 1, "jack": 2,
             "game_points": [PACK["shmear"], 1, 0]}  # fmt: skip
    with pytest.raises(RuleViolation) as refused:
        apply_deal(new_game(cfg), parse_entry(cfg, entry))
    assert "game_points" in refused.value.problems
