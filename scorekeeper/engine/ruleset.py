"""The interface every ruleset implements: data plus a few functions."""

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from scorekeeper.engine.cards import Card
from scorekeeper.engine.results import DealResult, Entry, HouseRule, Outcome

if TYPE_CHECKING:
    from scorekeeper.engine.game import GameConfig


class Ruleset(ABC):
    """A game of the family: its table, its entry, its scoring and its win check."""

    id: str
    """Identifier used by the API (`five-handed-schmier`)."""
    name: str
    """Name for people."""
    min_players: int
    """Fewest players at the table."""
    max_players: int
    """Most players at the table."""
    target: int
    """Score that wins unless the game sets another."""
    deck: tuple[Card, ...]
    """Every card of the pack this game is played with."""
    house_rules: Mapping[str, HouseRule]
    """Settings where the written rules are silent, with their defaults."""
    entry_fields: tuple[str, ...]
    """Keys a deal entry may carry."""

    def teams(self, config: "GameConfig") -> tuple[tuple[int, ...], ...] | None:
        """Return the fixed teams as seat tuples, or None when scores are individual."""
        return None

    def describe(self) -> dict[str, Any]:
        """Return the ruleset as `GET /api/v1/rulesets` lists it."""
        return {
            "id": self.id,
            "name": self.name,
            "players": {"min": self.min_players, "max": self.max_players},
            "target": self.target,
            "teams": None,
            "house_rules": {
                name: {"values": list(rule.values), "default": rule.default}
                for name, rule in self.house_rules.items()
            },
        }

    @abstractmethod
    def parse_entry(self, raw: object) -> Entry:
        """Return the entry with its JSON types checked, or raise WrongType."""

    @abstractmethod
    def score_deal(
        self, config: "GameConfig", number: int, dealer: int, scores: Sequence[int], entry: Entry
    ) -> DealResult:
        """Check the entry against every rule and score it, or raise RuleViolation."""

    @abstractmethod
    def outcome(
        self, config: "GameConfig", scores: Sequence[int], last: DealResult | None
    ) -> Outcome:
        """Run the win check after a deal."""

    def next_dealer(self, config: "GameConfig", result: DealResult) -> int:
        """Return who deals after this deal: the same dealer after a throw-in, else the left."""
        if result.thrown_in:
            return result.dealer
        return (result.dealer + 1) % len(config.players)

    @abstractmethod
    def explain(self, config: "GameConfig", result: DealResult) -> tuple[str, ...]:
        """Return the deal's scoring in sentences for players."""
