"""Games as immutable state: set up, apply a deal, resume, correct, explain."""

import json
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.engine.errors import CorrectionConflict, GameOver, RuleViolation, WrongType
from scorekeeper.engine.five_handed import FiveHandedSchmier
from scorekeeper.engine.results import DealResult, Entry, Outcome
from scorekeeper.engine.ruleset import Ruleset

NAME_MAX = 40
TARGET_RANGE = range(1, 1000)

_RULESETS: tuple[Ruleset, ...] = (FiveHandedSchmier(),)


def rulesets() -> tuple[Ruleset, ...]:
    """Return every ruleset, in RULES.md order."""
    return _RULESETS


def get_ruleset(ruleset_id: str) -> Ruleset:
    """Return the ruleset with this id, or raise RuleViolation naming `ruleset`."""
    for ruleset in _RULESETS:
        if ruleset.id == ruleset_id:
            return ruleset
    known = ", ".join(r.id for r in _RULESETS)
    raise RuleViolation(
        {"ruleset": (f"There is no ruleset {ruleset_id!r}; choose one of {known}.",)}
    )


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class GameConfig:
    """Everything fixed when a game starts."""

    ruleset: Ruleset
    """The rules the game is played by."""
    players: tuple[str, ...]
    """Player names by seat, clockwise."""
    first_dealer: int
    """The seat that deals the first deal."""
    target: int
    """The score that wins."""
    house_rules: Mapping[str, Any] = field(default_factory=dict)
    """Every house rule of the ruleset with its effective value."""

    @classmethod
    def create(
        cls,
        ruleset: object,
        players: object,
        first_dealer: object,
        target: object = None,
        house_rules: object = None,
    ) -> "GameConfig":
        """Return a checked configuration, or raise WrongType / RuleViolation naming fields."""
        wrong = {}
        if ruleset is not None and not isinstance(ruleset, str):
            wrong["ruleset"] = ["The ruleset must be a string such as 'five-handed-schmier'."]
        if players is not None and (
            not isinstance(players, list) or not all(isinstance(p, str) for p in players)
        ):
            wrong["players"] = ["Players must be a list of names."]
        if not _is_int(first_dealer):
            wrong["first_dealer"] = ["The first dealer must be a seat number."]
        if target is not None and not _is_int(target):
            wrong["target"] = ["The target must be a whole number."]
        if house_rules is not None and not isinstance(house_rules, dict):
            wrong["house_rules"] = ["House rules must be an object of rule names and values."]
        if wrong:
            raise WrongType(wrong)
        missing = {}
        if ruleset is None:
            missing["ruleset"] = ["Choose a ruleset, such as 'five-handed-schmier'."]
        if players is None:
            missing["players"] = ["Give the players' names in seat order."]
        if missing:
            raise RuleViolation(missing)

        problems: dict[str, list[str]] = {}
        try:
            rules = get_ruleset(ruleset)
        except RuleViolation as violation:
            # Go on with the checks that do not depend on the ruleset: every problem at once.
            rules = None
            problems.update((f, list(m)) for f, m in violation.problems.items())
        names = tuple(name.strip() for name in players)
        count = len(names)
        if rules is not None and not rules.min_players <= count <= rules.max_players:
            span = (
                f"exactly {rules.min_players}"
                if rules.min_players == rules.max_players
                else f"{rules.min_players} to {rules.max_players}"
            )
            problems.setdefault("players", []).append(
                f"{rules.name} is played by {span} players; {count} were given."
            )
        for seat, name in enumerate(names):
            if not 1 <= len(name) <= NAME_MAX:
                problems.setdefault("players", []).append(
                    f"The name in seat {seat} must be 1 to {NAME_MAX} characters."
                )
            elif any(unicodedata.category(c) in ("Cc", "Cs") for c in name):
                problems.setdefault("players", []).append(
                    f"The name in seat {seat} must be plain text, without control characters."
                )
        folded = [name.casefold() for name in names]
        for key in sorted({f for f in folded if folded.count(f) > 1}):
            same = [n for n, f in zip(names, folded, strict=True) if f == key]
            problems.setdefault("players", []).append(
                "Each player needs a different name, whatever the case: "
                + " and ".join(same)
                + " are the same name."
            )
        if count and not 0 <= first_dealer < count:
            problems["first_dealer"] = [f"The first dealer must be a seat from 0 to {count - 1}."]
        if target is not None and target not in TARGET_RANGE:
            problems["target"] = ["The target must be from 1 to 999."]
        if rules is None:
            raise RuleViolation(problems)
        if target is None:
            target = rules.target
        effective = {name: rule.default for name, rule in rules.house_rules.items()}
        for name, value in (house_rules or {}).items():
            rule = rules.house_rules.get(name)
            if rule is None:
                problems.setdefault("house_rules", []).append(
                    f"{rules.name} has no house rule {name!r}."
                )
            elif not any(value == v and type(value) is type(v) for v in rule.values):
                allowed = " or ".join(json.dumps(v) for v in rule.values)
                problems.setdefault("house_rules", []).append(
                    f"The house rule {name} takes one of {allowed}."
                )
            else:
                effective[name] = value
        if problems:
            raise RuleViolation(problems)
        return cls(rules, names, first_dealer, target, effective)

    def to_document(self) -> dict[str, Any]:
        """Return the configuration as plain JSON values."""
        return {
            "ruleset": self.ruleset.id,
            "players": list(self.players),
            "first_dealer": self.first_dealer,
            "target": self.target,
            "house_rules": dict(self.house_rules),
        }


@dataclass(frozen=True, slots=True)
class GameState:
    """A game after some deals: totals, who deals next, and where it stands."""

    config: GameConfig
    """The game's fixed settings."""
    deal_count: int
    """How many deals are recorded, thrown-in deals included."""
    scores: tuple[int, ...]
    """Each seat's total."""
    next_dealer: int
    """The seat that deals next."""
    outcome: Outcome
    """The win check's answer after the last deal."""
    last: DealResult | None = None
    """The last deal recorded, if any."""


def new_game(config: GameConfig) -> GameState:
    """Return the state before the first deal."""
    scores = (0,) * len(config.players)
    outcome = config.ruleset.outcome(config, scores, None)
    return GameState(config, 0, scores, config.first_dealer, outcome)


def resume(config: GameConfig, last: DealResult | None) -> GameState:
    """Return the state after the stored deal `last`, without replaying the game."""
    if last is None:
        return new_game(config)
    rules = config.ruleset
    return GameState(
        config,
        last.number,
        tuple(last.scores),
        rules.next_dealer(config, last),
        rules.outcome(config, last.scores, last),
        last,
    )


def parse_entry(config: GameConfig, raw: object) -> Entry:
    """Return the entry with its JSON types checked, or raise WrongType."""
    return config.ruleset.parse_entry(raw)


def check_deal(state: GameState, entry: Entry) -> None:
    """Raise GameOver or RuleViolation if the entry cannot be the next deal."""
    _score(state, entry)


def can_deal(state: GameState, entry: Entry) -> bool:
    """Return whether the entry can be the next deal."""
    try:
        _score(state, entry)
    except RuleViolation:
        return False
    return True


def apply_deal(state: GameState, entry: Entry) -> GameState:
    """Check the entry, then return the state after it."""
    result = _score(state, entry)
    config = state.config
    rules = config.ruleset
    return GameState(
        config,
        result.number,
        result.scores,
        rules.next_dealer(config, result),
        rules.outcome(config, result.scores, result),
        result,
    )


def _score(state: GameState, entry: Entry) -> DealResult:
    if state.outcome.finished:
        raise GameOver({None: (f"The game is over: {state.outcome.explanation}",)})
    return state.config.ruleset.score_deal(
        state.config, state.deal_count + 1, state.next_dealer, state.scores, entry
    )


def replay(config: GameConfig, entries: Sequence[Entry | Mapping]) -> tuple[GameState, ...]:
    """Return the state after each deal, replaying stored entries from the start."""
    states = []
    state = new_game(config)
    for entry in entries:
        state = apply_deal(state, _as_entry(config, entry))
        states.append(state)
    return tuple(states)


def correct_deal(
    config: GameConfig, entries: Sequence[Entry | Mapping], number: int, new_entry: Entry
) -> tuple[DealResult, ...]:
    """Replay the game with deal `number` replaced; return every deal's new result.

    Raises RuleViolation when the new entry itself breaks a rule, and CorrectionConflict
    naming the first later deal that the correction leaves impossible.
    """
    if not 1 <= number <= len(entries):
        raise RuleViolation({None: (f"There is no deal {number} to correct.",)})
    state = new_game(config)
    results = []
    for n, stored in enumerate(entries, start=1):
        if state.outcome.finished:
            raise CorrectionConflict(
                n,
                {
                    None: (
                        f"After this correction the game ends at deal {n - 1}: "
                        f"{state.outcome.explanation} Deal {n} could not have been played.",
                    )
                },
            )
        if n == number:
            state = apply_deal(state, new_entry)
        else:
            try:
                state = apply_deal(state, _as_entry(config, stored))
            except RuleViolation as violation:
                # The sentence naming the later deal comes first: it is the conflict's message.
                problems = {
                    None: (
                        f"After this correction deal {n} no longer fits the rules: "
                        f"{violation.message}",
                        *violation.problems.get(None, ()),
                    ),
                    **{f: m for f, m in violation.problems.items() if f is not None},
                }
                raise CorrectionConflict(n, problems) from violation
        results.append(state.last)
    return tuple(results)


def explain_deal(config: GameConfig, result: DealResult) -> tuple[str, ...]:
    """Return the deal's scoring in sentences for players."""
    return config.ruleset.explain(config, result)


def _as_entry(config: GameConfig, entry: Entry | Mapping) -> Entry:
    return entry if isinstance(entry, Entry) else config.ruleset.parse_entry(dict(entry))
