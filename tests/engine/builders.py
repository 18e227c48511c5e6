"""Build tables, deals and games for the engine tests (plain functions, no fixtures)."""

import copy

import pytest

from scorekeeper.engine import (
    DealResult,
    GameConfig,
    GameState,
    RuleViolation,
    apply_deal,
    configure,
    new_game,
    parse_entry,
)

RULESET = "five-handed-schmier"
PLAYERS = ("Ann", "Bob", "Cy", "Di", "Ed")

BASE = {
    "bidder": 1,
    "bid": 4,
    "trump": "H",
    "called_card": "KH",
    "partner": 3,
    "high": 3,
    "low": 0,
    "jack": 1,
    "off_jack": 2,
    "joker": 1,
    "game_points": {"bidders": 27, "opponents": 18},
}
"""API.md's example deal: Bob bids 4 in hearts and calls the KH, held by Di.

Bidders (Bob, Di) take High, Jack, Joker and Game; opponents take Low and Off-jack.
"""


def config(first_dealer: int = 0, target: int | None = None, **house_rules) -> GameConfig:
    """Return a Five-Handed Schmier table of Ann, Bob, Cy, Di and Ed."""
    return configure(RULESET, list(PLAYERS), first_dealer, target, house_rules or None)


def start(first_dealer: int = 0, target: int | None = None, **house_rules) -> GameState:
    """Return a new game on the standard table."""
    return new_game(config(first_dealer, target, **house_rules))


def deal(**changes) -> dict:
    """Return BASE with `changes`; a change to None sends null, which means "left out"."""
    raw = copy.deepcopy(BASE)
    raw.update(changes)
    return raw


def alone(bidder: int, bid: int = 3, took: tuple[str, ...] = (), **changes) -> dict:
    """Return a deal the bidder plays alone, taking the points in `took` (Game included)."""
    other = (bidder + 1) % len(PLAYERS)
    raw = {
        "bidder": bidder,
        "bid": bid,
        "trump": "S",
        **{f: bidder if f in took else other for f in ("high", "low", "jack", "off_jack", "joker")},
        "game": "bidders" if "game" in took else "opponents",
    }
    raw.update(changes)
    return raw


def play(state: GameState, *raws: dict) -> GameState:
    """Apply each raw entry in turn, as the API would after parsing it."""
    for raw in raws:
        state = apply_deal(state, parse_entry(state.config, raw))
    return state


def refusal(state: GameState, raw: object) -> RuleViolation:
    """Return the violation raised when `raw` is entered as the next deal."""
    with pytest.raises(RuleViolation) as info:
        apply_deal(state, parse_entry(state.config, raw))
    return info.value


def result(state: GameState, raw: dict) -> DealResult:
    """Return the result of entering `raw` as the next deal."""
    return play(state, raw).last
