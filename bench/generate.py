"""Generate valid random Five-Handed Schmier games, every deal checked by the engine."""

import random
from dataclasses import dataclass
from typing import Any

from scorekeeper import engine

SUITS = ("S", "H", "D", "C")
RED = {"H": "D", "D": "H", "S": "C", "C": "S"}
PLAIN_RANKS = ("K", "Q", "10", "9", "8", "7", "6", "5")
NAMES = (
    "Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo",
    "Kim", "Lou", "Max", "Ned", "Olga", "Pat",
)  # fmt: skip


@dataclass(frozen=True)
class RandomGame:
    """A game's setup and its entries, as a client would send them."""

    setup: dict[str, Any]
    """What POST /api/v1/games takes: ruleset, players, first_dealer, target, house_rules."""
    entries: list[dict[str, Any]]
    """The deals' entries, oldest first, each valid after the ones before it."""
    states: tuple[engine.GameState, ...]
    """The engine's state after each deal."""


def random_entry(rng: random.Random, seats: int = 5) -> dict[str, Any]:
    """Return one plausible entry: a thrown-in deal, a called partner, or the bidder alone."""
    if rng.random() < 0.04:
        return {"thrown_in": True}
    bidder = rng.randrange(seats)
    trump = rng.choice(SUITS)
    entry: dict[str, Any] = {
        "bidder": bidder,
        "bid": rng.choices((3, 4, 5, 6), weights=(6, 4, 2, 1))[0],
        "trump": trump,
    }
    others = [s for s in range(seats) if s != bidder]
    partner = None
    roll = rng.random()
    if roll < 0.08:
        pass  # alone by choice: no card called
    elif roll < 0.12:
        entry["called_card"] = rng.choice(PLAIN_RANKS) + rng.choice(SUITS)  # out of play
    else:
        partner = rng.choice(others)
        entry["called_card"] = rng.choice(PLAIN_RANKS) + rng.choice(SUITS)
        entry["partner"] = partner
    side = {bidder} if partner is None else {bidder, partner}
    strength = rng.random()  # how well the bidders' cards ran this deal
    for point in ("high", "low", "jack", "off_jack", "joker"):
        ours = rng.random() < strength
        pool = sorted(side) if ours else [s for s in range(seats) if s not in side]
        entry[point] = rng.choice(pool)
    if rng.random() < 0.5:
        entry["game"] = rng.choices(("bidders", "opponents", "none"), weights=(5, 5, 1))[0]
    else:
        total = rng.randint(40, 81)
        ours = rng.randint(0, total)
        entry["game_points"] = {"bidders": ours, "opponents": total - ours}
    return entry


def random_game(
    rng: random.Random, *, players: list[str] | None = None, most: int = 60, target: int = 21
) -> RandomGame:
    """Return a random valid game, played until won or shared or `most` deals are entered."""
    names = players or rng.sample(NAMES, 5)
    setup = {
        "ruleset": "five-handed-schmier",
        "players": names,
        "first_dealer": rng.randrange(5),
        "target": target,
        "house_rules": {},
    }
    config = engine.configure(**setup)
    state = engine.new_game(config)
    entries, states = [], []
    while not state.outcome.finished and len(entries) < most:
        for _ in range(50):
            raw = random_entry(rng)
            entry = engine.parse_entry(config, raw)
            if engine.can_deal(state, entry):
                break
        else:  # pragma: no cover - the generator always finds a valid entry quickly
            raise RuntimeError("no valid random entry found")
        state = engine.apply_deal(state, entry)
        entries.append(entry.to_json())
        states.append(state)
    return RandomGame(setup, entries, tuple(states))
