"""Random whole games through the API, checked deal by deal against a scorer written here.

The scorer below is docs/rules.md ("Five-Handed Schmier") read afresh, independent of
scorekeeper.engine: who scores each point, made or set, the dealer's rotation and the
win check with its house rules. Every deal's dealer, deltas and scores and the final
outcome must agree.
"""

import random

import pytest

FIVE = ["Ann", "Bob", "Cy", "Di", "Ed"]
SUITS = "SHDC"


def random_entry(rng):
    """Return a valid deal entry: a throw-in, or a bid with every point given to a seat."""
    if rng.random() < 0.1:
        return {"thrown_in": True}
    bidder = rng.randrange(5)
    entry = {"bidder": bidder, "bid": rng.randint(3, 6), "trump": rng.choice(SUITS)}
    # Call a K, Q, 10 or 9: never a card the rules tie to a point or keep in play.
    call = rng.random()
    if call < 0.7:
        entry["called_card"] = rng.choice(["K", "Q", "10", "9"]) + rng.choice(SUITS)
        entry["partner"] = rng.choice([s for s in range(5) if s != bidder])
    elif call < 0.85:
        entry["called_card"] = rng.choice(["K", "Q", "10", "9"]) + rng.choice(SUITS)
    for point in ("high", "low", "jack", "off_jack", "joker"):
        entry[point] = rng.randrange(5)
    entry["game"] = rng.choice(["bidders", "opponents", "none"])
    return entry


def score(entry, dealer, scores):
    """Return (dealer, deltas, new scores, bidders) for one deal, by the rule book
    (docs/rules.md#five-handed-schmier)."""
    if entry.get("thrown_in"):
        return dealer, [0] * 5, list(scores), None
    bidders = [entry["bidder"]] + ([entry["partner"]] if entry.get("partner") is not None else [])
    taken = 0
    for point in ("high", "low", "jack", "off_jack", "joker"):
        taken += entry[point] in bidders
    took_game = {"bidders": 1, "opponents": 0, "none": 0}[entry["game"]]
    gave_game = {"bidders": 0, "opponents": 1, "none": 0}[entry["game"]]
    bidders_points = taken + took_game
    opponents_points = (5 - taken) + gave_game
    made = bidders_points >= entry["bid"]
    deltas = [
        (bidders_points if made else -entry["bid"]) if seat in bidders else opponents_points
        for seat in range(5)
    ]
    return dealer, deltas, [s + d for s, d in zip(scores, deltas, strict=True)], bidders


def outcome(scores, bidders, target, house_rules):
    """Return (status, winners, decided_by) by the win check of the rule book
    (docs/rules.md#five-handed-schmier)."""
    reached = [seat for seat in range(5) if scores[seat] >= target]
    if not reached:
        return "in_progress", [], None
    best = max(scores[seat] for seat in reached)
    top = [seat for seat in reached if scores[seat] == best]
    if len(top) == 1:
        return "won", top, "highest"
    if bidders is not None and bidders[0] in top:
        return "won", [bidders[0]], "bidder"
    if (
        house_rules["partner_breaks_ties"]
        and bidders is not None
        and len(bidders) > 1
        and bidders[1] in top
    ):
        return "won", [bidders[1]], "partner"
    if house_rules["unresolved_tie"] == "shared":
        return "shared", sorted(top), "shared"
    return "in_progress", [], None


@pytest.mark.parametrize("seed", range(40))
def test_random_game_matches_an_independent_scorer(api, seed):
    rng = random.Random(seed)
    house_rules = {
        "partner_breaks_ties": rng.random() < 0.5,
        "unresolved_tie": rng.choice(["play_on", "shared"]),
    }
    target = rng.choice([5, 11, 21, 21, 31])
    first_dealer = rng.randrange(5)
    game = api.create(first_dealer=first_dealer, target=target, house_rules=house_rules)

    dealer, scores, bidders_of_last = first_dealer, [0] * 5, None
    status = "in_progress"
    for number in range(1, 80):
        entry = random_entry(rng)
        expected_dealer, deltas, scores, bidders = score(entry, dealer, scores)
        deal = api.add(game, {"number": number, **entry})
        assert (deal["dealer"], deal["deltas"], deal["scores"]) == (
            expected_dealer,
            deltas,
            scores,
        ), (number, entry)
        if not entry.get("thrown_in"):
            dealer = (dealer + 1) % 5
            bidders_of_last = bidders
            status, winners, decided_by = outcome(scores, bidders, target, house_rules)
        document = api.game(game)
        assert document["next_dealer"] == dealer
        assert [p["score"] for p in document["players"]] == scores
        if status != "in_progress":
            break
        assert document["status"] == "in_progress", (number, scores, bidders_of_last)
    else:
        pytest.skip("the game did not end within 79 deals")

    assert (document["status"], document["winners"], document["decided_by"]) == (
        status,
        winners,
        decided_by,
    )
    refused = api.post(game, {"thrown_in": True})
    assert refused.status_code == 409
    assert refused.get_json()["error"]["code"] == "game_over"


def replay(entries, first_dealer, target, house_rules):
    """Return every deal's (dealer, deltas, scores) and the final outcome, or None if the
    game would end before its last deal."""
    dealer, scores, rows, result = first_dealer, [0] * 5, [], ("in_progress", [], None)
    for entry in entries:
        if result[0] != "in_progress":
            return None
        this_dealer, deltas, scores, bidders = score(entry, dealer, scores)
        rows.append((this_dealer, deltas, scores))
        if not entry.get("thrown_in"):
            dealer = (dealer + 1) % 5
            result = outcome(scores, bidders, target, house_rules)
    return rows, result, dealer


@pytest.mark.parametrize("seed", range(12))
def test_random_corrections_match_an_independent_scorer(api, seed):
    rng = random.Random(1000 + seed)
    house_rules = {
        "partner_breaks_ties": rng.random() < 0.5,
        "unresolved_tie": rng.choice(["play_on", "shared"]),
    }
    target, first_dealer = rng.choice([11, 21]), rng.randrange(5)
    game = api.create(first_dealer=first_dealer, target=target, house_rules=house_rules)
    entries = []
    while len(entries) < 60:
        entry = random_entry(rng)
        if replay([*entries, entry], first_dealer, target, house_rules) is None:
            break
        api.add(game, entry)
        entries.append(entry)
        if replay(entries, first_dealer, target, house_rules)[1][0] != "in_progress":
            break

    for _ in range(8):
        number = rng.randrange(1, len(entries) + 1)
        replacement = random_entry(rng)
        candidate = [*entries[: number - 1], replacement, *entries[number:]]
        expected = replay(candidate, first_dealer, target, house_rules)
        before = api.game(game)
        response = api.put(game, number, replacement)
        if expected is None:
            assert response.status_code == 409, response.get_json()
            assert response.get_json()["error"]["code"] == "conflict"
            assert api.game(game) == before
            continue
        assert response.status_code == 200, (number, replacement, response.get_json())
        entries = candidate
        rows, (status, winners, decided_by), next_dealer = expected
        document = api.game(game)
        assert [(d["dealer"], d["deltas"], d["scores"]) for d in document["deals"]] == [
            (dealer, deltas, scores) for dealer, deltas, scores in rows
        ]
        assert (document["status"], document["winners"], document["decided_by"]) == (
            status,
            winners,
            decided_by,
        )
        assert document["next_dealer"] == next_dealer
