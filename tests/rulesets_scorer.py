"""An independent scorer and entry generator for the six newer rulesets.

Written from docs/rules.md ("Six-Handed Schmier" through "Five-Handed Euchre") and
docs/api.md ("Other rulesets") alone, without reading scorekeeper.engine: who scores
each point, made or set, the dealer's rotation, smucks and each ruleset's win check.
tests/test_api_rulesets_scoring.py plays random games through the API and asks this
module what every deal and the game should come to.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

SUITS = "SHDC"
SHMEAR_FAMILY = ("shmear", "shmear-high-low", "shmear-partners", "shmear-kitty")
RULESETS = ("six-handed-schmier", *SHMEAR_FAMILY, "five-handed-euchre")
TARGETS = {
    "six-handed-schmier": 21,
    "shmear": 11,
    "shmear-high-low": 15,
    "shmear-partners": 15,
    "shmear-kitty": 15,
    "five-handed-euchre": 10,
}
NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]
EUCHRE_CARDS = [rank + suit for suit in SUITS for rank in ("9", "10", "J", "Q", "K", "A")] + [
    "8S",
    "8H",
    "8D",
    "8C",
    "2S",
    "2H",
]
IN_PROGRESS = ("in_progress", [], None)


class Invalid(Exception):
    """An entry the rules refuse in this state (a later deal a correction breaks)."""


@dataclass(frozen=True)
class Table:
    """A game's settings: ruleset, player count, target, house rules, first dealer."""

    ruleset: str
    players: int
    target: int
    house_rules: dict[str, Any]
    first_dealer: int

    @property
    def sides(self) -> list[list[int]]:
        """Return the seats of each side: fixed teams, or one side per seat."""
        if self.ruleset == "six-handed-schmier":
            if self.house_rules.get("teams", "3x2") == "2x3":
                return [[0, 2, 4], [1, 3, 5]]
            return [[0, 3], [1, 4], [2, 5]]
        if self.ruleset == "shmear-partners":
            return [[0, 2], [1, 3]]
        return [[seat] for seat in range(self.players)]

    @property
    def teams(self) -> list[list[int]] | None:
        """Return the game document's `teams`."""
        if self.ruleset in ("six-handed-schmier", "shmear-partners"):
            return self.sides
        return None

    def side_of(self, seat: int) -> int:
        return next(index for index, seats in enumerate(self.sides) if seat in seats)


@dataclass(frozen=True)
class State:
    """Where a game stands before a deal: the dealer, scores and smucks per seat, outcome."""

    dealer: int
    scores: tuple[int, ...]
    smucks: tuple[int, ...]
    outcome: tuple[str, list[int], str | None] = IN_PROGRESS

    @classmethod
    def start(cls, table: Table) -> State:
        zeros = (0,) * table.players
        return cls(table.first_dealer, zeros, zeros)

    def side_score(self, table: Table, side: int) -> int:
        return self.scores[table.sides[side][0]]


@dataclass
class Row:
    """What one deal comes to: the deal document's computed fields."""

    dealer: int
    deltas: list[int]
    scores: list[int]
    bidder: int | None = None
    bid: int | str | None = None
    made: bool | None = None
    bidders: list[int] | None = None
    points: list[int] | None = None
    game: int | str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def compared(self) -> dict[str, Any]:
        """Return the fields compared with the API's deal document (Euchre has no bid or
        Game: its points are the tricks each side took)."""
        if self.extra.get("euchre"):
            return {
                "dealer": self.dealer,
                "deltas": self.deltas,
                "scores": self.scores,
                "bidder": self.bidder,
                "made": self.made,
                "bidders": self.bidders,
                "points": self.points,
            }
        return {
            "dealer": self.dealer,
            "deltas": self.deltas,
            "scores": self.scores,
            "bidder": self.bidder,
            "bid": self.bid,
            "made": self.made,
            "bidders": self.bidders,
            "points": self.points,
            "game": self.game,
        }


# --- the auction ---------------------------------------------------------------------------


def resolve_bidder(table: Table, dealer: int, entry: dict[str, Any]) -> tuple[int, Any]:
    """Return (bidder, bid): from the auction when sent (checking any bidder/bid sent)."""
    auction = entry.get("auction")
    if auction is None:
        return entry["bidder"], entry["bid"]
    bids = [(i, value) for i, value in enumerate(auction) if value is not None]
    if bids:
        i, bid = bids[-1]
        bidder = (dealer + 1 + i) % table.players
    else:  # Shmear: everyone passed and the dealer plays at 2.
        bidder, bid = dealer, 2
    if entry.get("bidder") is not None and entry["bidder"] != bidder:
        raise Invalid("the auction names another bidder")
    if entry.get("bid") is not None and entry["bid"] != bid:
        raise Invalid("the auction ends on another bid")
    return bidder, bid


def all_pass(entry: dict[str, Any]) -> bool:
    auction = entry.get("auction")
    return auction is not None and all(value is None for value in auction)


# --- one deal --------------------------------------------------------------------------------


def play(table: Table, state: State, entry: dict[str, Any]) -> tuple[Row, State]:
    """Return the deal's row and the state after it; raise Invalid if the state refuses it."""
    if state.outcome[0] != "in_progress":
        raise Invalid("the game is over")
    if table.ruleset == "six-handed-schmier":
        return _six_handed(table, state, entry)
    if table.ruleset == "five-handed-euchre":
        return _euchre(table, state, entry)
    return _shmear(table, state, entry)


def _apply(table: Table, state: State, side_deltas: dict[int, int]) -> tuple[list[int], tuple]:
    """Return per-seat deltas and scores after adding each side's delta."""
    deltas = [side_deltas.get(table.side_of(seat), 0) for seat in range(table.players)]
    scores = tuple(s + d for s, d in zip(state.scores, deltas, strict=True))
    return deltas, scores


def _game_from_counts(counts: list[int]) -> int | str:
    best = max(counts)
    leaders = [i for i, count in enumerate(counts) if count == best]
    return leaders[0] if len(leaders) == 1 else "none"


def _six_handed(table: Table, state: State, entry: dict[str, Any]):
    dealer = state.dealer
    if entry.get("thrown_in") or all_pass(entry):
        row = Row(dealer, [0] * 6, list(state.scores))
        return row, state
    bidder, bid = resolve_bidder(table, dealer, entry)
    sides = table.sides
    points = [0] * len(sides)
    for point in ("high", "low", "jack", "off_jack", "joker"):
        points[table.side_of(entry[point])] += 1
    if entry.get("game_points") is not None:
        game = _game_from_counts(entry["game_points"])
    else:
        game = entry["game"]
    if game != "none":
        points[game] += 1
    team = table.side_of(bidder)
    made = points[team] >= bid
    side_deltas = {side: points[side] for side in range(len(sides))}
    side_deltas[team] = points[team] if made else -bid
    deltas, scores = _apply(table, state, side_deltas)
    bidders = [bidder, *sorted(seat for seat in sides[team] if seat != bidder)]
    row = Row(dealer, deltas, list(scores), bidder, bid, made, bidders, points, game)
    outcome = _six_handed_outcome(table, scores, team)
    return row, State((dealer + 1) % 6, scores, state.smucks, outcome)


def _six_handed_outcome(table: Table, scores, team: int):
    totals = [scores[seats[0]] for seats in table.sides]
    reached = [side for side, total in enumerate(totals) if total >= table.target]
    if not reached:
        return IN_PROGRESS
    best = max(totals[side] for side in reached)
    top = [side for side in reached if totals[side] == best]
    if len(top) == 1:
        return "won", list(table.sides[top[0]]), "highest"
    if team in top:
        return "won", list(table.sides[team]), "bidder"
    if table.house_rules.get("unresolved_tie", "play_on") == "shared":
        return "shared", sorted(seat for side in top for seat in table.sides[side]), "shared"
    return IN_PROGRESS


def _floor_zero(score: int, change: int) -> int:
    """Return the change actually made to a score that never drops below 0."""
    return max(0, score + change) - score


def _taken_off(table: Table, score: int, change: int) -> int:
    """Return a loss as made: in full with house rule `negative_scores`, else floored at 0."""
    return change if table.house_rules.get("negative_scores") else _floor_zero(score, change)


def _card_points(table: Table) -> tuple[str, ...]:
    """Return the points entered as a seat: High, Low, Jack, and the Jick when played."""
    return (
        ("high", "low", "jack", "jick")
        if table.house_rules.get("jick")
        else ("high", "low", "jack")
    )


def _shmear(table: Table, state: State, entry: dict[str, Any]):
    dealer = state.dealer
    n = table.players
    next_state = replace(state, dealer=(dealer + 1) % n)
    if entry.get("forfeit"):
        side = table.side_of(dealer)
        change = _taken_off(table, state.side_score(table, side), -2)
        deltas, scores = _apply(table, state, {side: change})
        return Row(dealer, deltas, list(scores)), replace(next_state, scores=scores)
    bidder, bid = resolve_bidder(table, dealer, entry)
    if table.ruleset == "shmear-high-low":
        return _high_low(table, state, entry, bidder, bid)
    side = table.side_of(bidder)
    if bid == "moon" and state.side_score(table, side) < 1:
        raise Invalid("a moon by a side without a point")
    points = [0] * len(table.sides)
    for point in _card_points(table):
        if entry.get(point) is not None:
            points[table.side_of(entry[point])] += 1
    if entry.get("game_points") is not None:
        game = _game_from_counts(entry["game_points"])
    else:
        game = entry["game"]
    if game != "none":
        points[game] += 1
    side_deltas = {other: points[other] for other in range(len(table.sides))}
    smucks = list(state.smucks)
    if bid == "moon":
        made = points[side] == len(_card_points(table)) + 1
        if not made:
            side_deltas[side] = -state.side_score(table, side)
    else:
        made = points[side] >= bid
        if not made:
            side_deltas[side] = _taken_off(table, state.side_score(table, side), -bid)
    if not made:
        for seat in table.sides[side]:
            smucks[seat] += 1
    deltas, scores = _apply(table, state, side_deltas)
    bidders = [bidder] + [seat for seat in table.sides[side] if seat != bidder]
    row = Row(dealer, deltas, list(scores), bidder, bid, made, bidders, points, game)
    if bid == "moon" and made:
        outcome = ("won", list(table.sides[side]), "moon")
    else:
        outcome = _shmear_outcome(table, scores, side)
    return row, replace(next_state, scores=scores, smucks=tuple(smucks), outcome=outcome)


def _high_low(table: Table, state: State, entry: dict[str, Any], bidder: int, bid: int):
    dealer = state.dealer
    high, low, jack, jick = entry["high"], entry["low"], entry.get("jack"), entry.get("jick")
    pair = [high] if high == low else [high, low]
    if entry.get("game_points") is not None:
        counts = entry["game_points"]
        # The pair pools its count against each other player's own count.
        rivals = [sum(counts[seat] for seat in pair)] + [
            counts[seat] for seat in range(4) if seat not in pair
        ]
        others = [seat for seat in range(4) if seat not in pair]
        winner = _game_from_counts(rivals)
        game_to = "none" if winner == "none" else ("pair" if winner == 0 else others[winner - 1])
    elif entry["game"] == "none":
        game_to = "none"
    else:
        game_to = "pair" if entry["game"] in pair else entry["game"]
    pair_points = 2 + (jack in pair) + (jick in pair) + (game_to == "pair")
    made = pair_points >= bid
    points = [0] * 4
    points[high] += 1 + (game_to == "pair")
    points[low] += 1
    if jack is not None:
        points[jack] += 1
    if jick is not None:
        points[jick] += 1
    if game_to not in ("pair", "none"):
        points[game_to] += 1
    side_deltas = {}
    smucks = list(state.smucks)
    for seat in range(4):
        if seat not in pair:
            side_deltas[seat] = points[seat]
        elif made:
            side_deltas[seat] = pair_points
        else:
            side_deltas[seat] = _taken_off(table, state.scores[seat], -bid)
            smucks[seat] += 1
    deltas, scores = _apply(table, state, side_deltas)
    game = high if game_to == "pair" else game_to
    row = Row(dealer, deltas, list(scores), bidder, bid, made, pair, points, game)
    outcome = _shmear_outcome(table, scores, bidder)
    return row, State((dealer + 1) % 4, scores, tuple(smucks), outcome)


def _shmear_outcome(table: Table, scores, bidding_side: int):
    totals = [scores[seats[0]] for seats in table.sides]
    reached = [side for side, total in enumerate(totals) if total >= table.target]
    if not reached:
        return IN_PROGRESS
    if len(reached) == 1:
        return "won", list(table.sides[reached[0]]), "highest"
    if bidding_side in reached:
        return "won", list(table.sides[bidding_side]), "bidder"
    best = max(totals[side] for side in reached)
    top = [side for side in reached if totals[side] == best]
    if len(top) == 1:
        return "won", list(table.sides[top[0]]), "highest"
    if table.house_rules.get("unresolved_tie", "play_on") == "shared":
        return "shared", sorted(seat for side in top for seat in table.sides[side]), "shared"
    return IN_PROGRESS


def _euchre(table: Table, state: State, entry: dict[str, Any]):
    dealer = state.dealer
    bidder, partner, tricks = entry["bidder"], entry.get("partner"), entry["tricks"]
    makers = [bidder] + ([partner] if partner is not None else [])
    made = tricks >= 3
    if not made:
        gain = {seat: 2 for seat in range(5) if seat not in makers}
    elif tricks < 5:
        gain = {seat: 1 for seat in makers}
    elif partner is None and entry.get("called_card") is None:
        gain = {bidder: 4}  # all five tricks after declaring alone
    else:
        gain = {seat: 2 for seat in makers}
    deltas, scores = _apply(table, state, gain)
    points = {"bidders": tricks, "opponents": 5 - tricks}
    row = Row(dealer, deltas, list(scores), bidder, None, made, makers, points, None)
    row.extra["euchre"] = True
    reached = [seat for seat in range(5) if scores[seat] >= table.target]
    if not reached:
        outcome = IN_PROGRESS
    elif len(reached) == 1:
        outcome = ("won", reached, "highest")
    else:
        lowest = min(state.scores[seat] for seat in reached)
        first = [seat for seat in reached if state.scores[seat] == lowest]
        outcome = ("won", first, "lowest_at_start") if len(first) == 1 else ("drawn", [], "draw")
    return row, State((dealer + 1) % 5, scores, state.smucks, outcome)


def replay(table: Table, entries: list[dict[str, Any]]) -> tuple[list[Row], State] | None:
    """Return every deal's row and the final state, or None when a correction could not
    stand: a deal the rules now refuse, or a game over before its last deal."""
    state, rows = State.start(table), []
    for entry in entries:
        try:
            row, state = play(table, state, entry)
        except Invalid:
            return None
        rows.append(row)
    return rows, state


# --- random valid entries ---------------------------------------------------------------------


def random_table(rng: random.Random, ruleset: str) -> Table:
    """Return random settings for a game of this ruleset."""
    players = {"six-handed-schmier": 6, "five-handed-euchre": 5}.get(ruleset, 4)
    if ruleset in ("shmear", "shmear-kitty"):
        players = rng.randint(3, 6)
    house_rules: dict[str, Any] = {}
    if ruleset == "six-handed-schmier":
        house_rules["teams"] = rng.choice(["3x2", "2x3"])
    if ruleset in SHMEAR_FAMILY:
        house_rules["low_to_taker"] = rng.random() < 0.3
        house_rules["jick"] = rng.random() < 0.4
        house_rules["negative_scores"] = rng.random() < 0.4
    if ruleset not in ("shmear-partners", "five-handed-euchre"):
        house_rules["unresolved_tie"] = rng.choice(["play_on", "shared"])
    default = TARGETS[ruleset]
    # Small targets make several sides reach it at once: every branch of the win check.
    target = rng.choice([default, default, default, 1, 2, 3, 4, default // 2 + 1, default + 10])
    return Table(ruleset, players, target, house_rules, rng.randrange(players))


def random_entry(rng: random.Random, table: Table, state: State) -> dict[str, Any]:
    """Return an entry the rules accept in this state."""
    if table.ruleset == "six-handed-schmier":
        entry = _random_six_handed(rng, table, state)
    elif table.ruleset == "five-handed-euchre":
        entry = _random_euchre(rng)
    else:
        entry = _random_shmear(rng, table, state)
    return entry


def _random_auction(rng, table, dealer, bids, top, can_moon=lambda seat: False):
    """Return an auction of rising bids (at least one), each speaker once, `top` ending it."""
    n = table.players
    while True:
        auction, current = [], None
        for i in range(n):
            seat = (dealer + 1 + i) % n
            higher = [b for b in bids if current is None or bids.index(b) > bids.index(current)]
            if can_moon(seat) and rng.random() < 0.3:
                higher.append("moon")
            if higher and rng.random() < 0.45:
                current = rng.choice(higher)
                auction.append(current)
                if current in (top, "moon"):
                    break
            else:
                auction.append(None)
        if current is not None:
            return auction


def _counts(rng, sides: int, minimum: list[int], total: int) -> list[int]:
    """Return Game counts per side, each at least its minimum, adding to at most `total`;
    often with a tie for highest, sometimes at the edges (a minimum, the whole pack)."""
    while True:
        counts = [m + rng.randint(0, 2 * total // sides) for m in minimum]
        shape = rng.random()
        if shape < 0.2 and sides > 1:
            a, b = rng.sample(range(sides), 2)
            counts[a] = counts[b] = max(counts[a], counts[b])
        elif shape < 0.3:
            counts = list(minimum)
        if shape > 0.9 and sum(counts) < total:
            counts[rng.randrange(sides)] += total - sum(counts)
        if sum(counts) <= total:
            return counts


def _random_six_handed(rng, table: Table, state: State) -> dict[str, Any]:
    kind = rng.random()
    if kind < 0.08:
        return rng.choice(
            [
                {"thrown_in": True},
                {"auction": [None] * 6},
                {"thrown_in": True, "auction": [None] * 6},
            ]
        )
    entry: dict[str, Any] = {}
    if kind < 0.35:
        entry["auction"] = _random_auction(rng, table, state.dealer, [3, 4, 5, 6], 6)
        if rng.random() < 0.3:
            bidder, bid = resolve_bidder(table, state.dealer, entry)
            entry.update(bidder=bidder, bid=bid)
    else:
        entry.update(bidder=rng.randrange(6), bid=rng.choice([3, 3, 3, 4, 4, 5, 6]))
    entry["trump"] = rng.choice(SUITS)
    bidder, _ = resolve_bidder(table, state.dealer, entry)
    team = table.sides[table.side_of(bidder)]
    for point in ("high", "low", "jack", "off_jack", "joker"):
        # The bidding team usually holds the better cards.
        entry[point] = rng.choice(team) if rng.random() < 0.4 else rng.randrange(6)
    sides = len(table.sides)
    if rng.random() < 0.5:
        minimum = [0] * sides
        minimum[table.side_of(entry["high"])] += 4
        for point in ("jack", "off_jack", "joker"):
            minimum[table.side_of(entry[point])] += 1
        entry["game_points"] = _counts(rng, sides, minimum, 81)
    else:
        entry["game"] = rng.choice([*range(sides), "none"])
    return entry


def _random_shmear(rng, table: Table, state: State) -> dict[str, Any]:
    n, dealer = table.players, state.dealer
    high_low = table.ruleset == "shmear-high-low"
    kind = rng.random()
    if kind < 0.07:
        return rng.choice([{"forfeit": True}, {"forfeit": True, "auction": [None] * n}])

    def can_moon(seat: int) -> bool:
        return not high_low and state.side_score(table, table.side_of(seat)) >= 1

    jick = bool(table.house_rules.get("jick"))
    number_bids = [2, 3, 4, 5] if jick else [2, 3, 4]

    entry: dict[str, Any] = {}
    if kind < 0.15:  # everyone passed and the dealer plays at 2
        entry["auction"] = [None] * n
        if rng.random() < 0.4:
            entry.update(bidder=dealer, bid=2)
    elif kind < 0.4:
        entry["auction"] = _random_auction(rng, table, dealer, number_bids, None, can_moon)
        if rng.random() < 0.3:
            bidder, bid = resolve_bidder(table, dealer, entry)
            entry.update(bidder=bidder, bid=bid)
    else:
        bidder = rng.randrange(n)
        bids = number_bids + (["moon"] if can_moon(bidder) and rng.random() < 0.2 else [])
        entry.update(bidder=bidder, bid=rng.choice(bids))
    bidder, bid = resolve_bidder(table, dealer, entry)
    entry["trump"] = rng.choice(SUITS)
    sides = table.sides
    shooter = table.side_of(bidder)
    sweep = bid == "moon" and rng.random() < 0.4
    if sweep:  # a successful moon: every point to the shooter's side
        entry.update({point: rng.choice(sides[shooter]) for point in _card_points(table)})
    else:
        # The bidder usually holds the better cards.
        def seat() -> int:
            return rng.choice(sides[shooter]) if rng.random() < 0.35 else rng.randrange(n)

        entry["high"] = seat()
        entry["low"] = entry["high"] if rng.random() < 0.2 else seat()
        entry["jack"] = seat() if rng.random() < 0.8 else None
        if jick:
            entry["jick"] = seat() if rng.random() < 0.8 else None
    _random_shmear_game(rng, table, entry, shooter, sweep)
    for point in ("jack", "jick"):
        if point in entry and entry[point] is None and rng.random() < 0.5:
            del entry[point]
    return entry


def _random_shmear_game(rng, table: Table, entry: dict[str, Any], shooter: int, sweep: bool):
    """Add Game to a Shmear entry: the counts of game points, or who took it."""
    high_low = table.ruleset == "shmear-high-low"
    count_sides = table.players if high_low else len(table.sides)
    if rng.random() < 0.5:
        minimum = [0] * count_sides
        for point in ("jack", "jick"):
            if entry.get(point) is not None:
                minimum[entry[point] if high_low else table.side_of(entry[point])] += 1
        counts = _counts(rng, count_sides, minimum, 80)
        if sweep:  # the shooter's side counts most
            counts = [0] * count_sides
            counts[shooter] = rng.randint(1, 80)
        entry["game_points"] = counts
    elif sweep:
        entry["game"] = shooter
    else:
        entry["game"] = rng.choice([*range(count_sides), "none"])


def _random_euchre(rng) -> dict[str, Any]:
    bidder = rng.randrange(5)
    entry: dict[str, Any] = {"bidder": bidder, "trump": rng.choice(SUITS)}
    call = rng.random()
    if call < 0.5:
        entry["called_card"] = rng.choice(EUCHRE_CARDS)
        entry["partner"] = rng.choice([seat for seat in range(5) if seat != bidder])
    elif call < 0.75:
        entry["called_card"] = rng.choice(EUCHRE_CARDS)
    entry["tricks"] = rng.choice([0, 1, 2, 3, 4, 5, 5, 5])
    return entry
