"""The rules engine: pure Python, standard library only, immutable values throughout."""

from scorekeeper.engine.cards import JOKER, Card, Rank, Suit
from scorekeeper.engine.errors import CorrectionConflict, GameOver, RuleViolation, WrongType
from scorekeeper.engine.game import (
    GameConfig,
    GameState,
    apply_deal,
    can_deal,
    check_deal,
    correct_deal,
    explain_deal,
    get_ruleset,
    new_game,
    parse_entry,
    replay,
    resume,
    rulesets,
)
from scorekeeper.engine.results import DealResult, Entry, HouseRule, Outcome
from scorekeeper.engine.ruleset import Ruleset

__all__ = [
    "JOKER",
    "Card",
    "CorrectionConflict",
    "DealResult",
    "Entry",
    "GameConfig",
    "GameOver",
    "GameState",
    "HouseRule",
    "Outcome",
    "Rank",
    "RuleViolation",
    "Ruleset",
    "Suit",
    "WrongType",
    "apply_deal",
    "can_deal",
    "check_deal",
    "correct_deal",
    "explain_deal",
    "get_ruleset",
    "new_game",
    "parse_entry",
    "replay",
    "resume",
    "rulesets",
]
