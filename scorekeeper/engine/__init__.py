"""The rules engine: pure Python, standard library only, immutable values throughout."""

from scorekeeper.engine.cards import JOKER, Card, Rank, Suit
from scorekeeper.engine.describe import (
    CalledPoint,
    Choice,
    ContractWords,
    EntryField,
    FieldKind,
    Role,
    SideKind,
    Statistic,
    WinFact,
)
from scorekeeper.engine.errors import CorrectionConflict, GameOver, RuleViolation, WrongType
from scorekeeper.engine.frozen import FrozenMap, freeze, thaw
from scorekeeper.engine.game import (
    GameState,
    apply_deal,
    can_deal,
    check_deal,
    configure,
    correct_deal,
    explain_deal,
    new_game,
    parse_entry,
    replay,
    resume,
    rulesets,
)
from scorekeeper.engine.messages import Message, english_and, msg, render
from scorekeeper.engine.names import NameProblem, name_problem
from scorekeeper.engine.results import (
    DealKind,
    DealResult,
    DecidedBy,
    Entry,
    HouseRule,
    Outcome,
    Status,
)
from scorekeeper.engine.ruleset import GameConfig, Ruleset
from scorekeeper.engine.rulesets import get_ruleset
from scorekeeper.engine.standin import stand_in_deal

__all__ = [
    "JOKER",
    "CalledPoint",
    "Card",
    "Choice",
    "ContractWords",
    "CorrectionConflict",
    "DealKind",
    "DealResult",
    "DecidedBy",
    "Entry",
    "EntryField",
    "FieldKind",
    "FrozenMap",
    "GameConfig",
    "GameOver",
    "GameState",
    "HouseRule",
    "Message",
    "NameProblem",
    "Outcome",
    "Rank",
    "Role",
    "RuleViolation",
    "Ruleset",
    "SideKind",
    "Statistic",
    "Status",
    "Suit",
    "WinFact",
    "WrongType",
    "apply_deal",
    "can_deal",
    "check_deal",
    "configure",
    "correct_deal",
    "english_and",
    "explain_deal",
    "freeze",
    "get_ruleset",
    "msg",
    "name_problem",
    "new_game",
    "parse_entry",
    "render",
    "replay",
    "resume",
    "rulesets",
    "stand_in_deal",
    "thaw",
]
