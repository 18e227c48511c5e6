"""Games as immutable state: set up, apply a deal, resume, correct, explain."""

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper.engine.errors import CorrectionConflict, GameOver, RuleViolation, WrongType
from scorekeeper.engine.frozen import FrozenMap, thaw
from scorekeeper.engine.messages import Message, msg
from scorekeeper.engine.names import NameProblem, name_problem
from scorekeeper.engine.results import DealResult, Entry, Outcome
from scorekeeper.engine.ruleset import GameConfig, Ruleset
from scorekeeper.engine.rulesets import get_ruleset
from scorekeeper.engine.rulesets import rulesets as all_rulesets
from scorekeeper.engine.rulesets.common import Problems, is_int

NAME_MAX = 40
TARGET_RANGE = range(1, 1000)


def configure(
    ruleset: object,
    players: object,
    first_dealer: object,
    target: object = None,
    house_rules: object = None,
) -> GameConfig:
    """Return a checked configuration, or raise WrongType / RuleViolation naming fields."""
    _check_types(ruleset, players, first_dealer, target, house_rules)
    assert isinstance(players, list) and is_int(first_dealer)
    seat0 = int(first_dealer)  # type: ignore[call-overload]

    problems = Problems()
    rules = _ruleset_or_problems(ruleset, problems)
    names = tuple(name.strip() for name in players)
    count = len(names)
    if rules is not None:
        _check_player_count(rules, count, problems)
    _check_names(names, problems)
    if count and not 0 <= seat0 < count:
        problems.add(
            "first_dealer",
            msg("The first dealer must be a seat from 0 to %(last)s.", last=count - 1),
        )
    if target is not None and target not in TARGET_RANGE:
        problems.add("target", msg("The target must be from 1 to 999."))
    if rules is None:
        raise RuleViolation(problems.found)
    effective = _house_rules(rules, house_rules, problems)
    problems.raise_if_any()
    return GameConfig(
        rules,
        names,
        seat0,
        rules.target if target is None else int(target),  # type: ignore[call-overload]
        FrozenMap(effective),
    )


def _check_types(
    ruleset: object, players: object, first_dealer: object, target: object, house_rules: object
) -> None:
    """Raise WrongType for every setting of the wrong type, then RuleViolation for those
    missing."""
    wrong: dict[str | None, list[Message]] = {}
    if ruleset is not None and not isinstance(ruleset, str):
        wrong["ruleset"] = [
            msg("The ruleset must be a string such as %(id)r.", id=all_rulesets()[0].id)
        ]
    if players is not None and (
        not isinstance(players, list) or not all(isinstance(p, str) for p in players)
    ):
        wrong["players"] = [msg("Players must be a list of names.")]
    if not is_int(first_dealer):
        wrong["first_dealer"] = [msg("The first dealer must be a seat number.")]
    if target is not None and not is_int(target):
        wrong["target"] = [msg("The target must be a whole number.")]
    if house_rules is not None and not isinstance(house_rules, dict):
        wrong["house_rules"] = [msg("House rules must be an object of rule names and values.")]
    if wrong:
        raise WrongType(wrong)
    missing: dict[str | None, list[Message]] = {}
    if ruleset is None:
        missing["ruleset"] = [msg("Choose a ruleset, such as %(id)r.", id=all_rulesets()[0].id)]
    if players is None:
        missing["players"] = [msg("Give the players' names in seat order.")]
    if missing:
        raise RuleViolation(missing)


def _ruleset_or_problems(ruleset: object, problems: Problems) -> Ruleset | None:
    """Return the ruleset named, or None with its problems added.

    The checks that do not depend on the ruleset go on after it: every problem at once.
    """
    try:
        return get_ruleset(ruleset)
    except RuleViolation as violation:
        for field, messages in violation.problems.items():
            for message in messages:
                problems.add(field, message)
        return None


def _check_player_count(rules: Ruleset, count: int, problems: Problems) -> None:
    """Add a problem when the ruleset is not played by this many players."""
    if rules.min_players <= count <= rules.max_players:
        return
    if rules.min_players == rules.max_players:
        problems.add(
            "players",
            msg(
                "%(game)s is played by exactly %(min)s players; %(count)s were given.",
                game=rules.label,
                min=rules.min_players,
                count=count,
            ),
        )
    else:
        problems.add(
            "players",
            msg(
                "%(game)s is played by %(min)s to %(max)s players; %(count)s were given.",
                game=rules.label,
                min=rules.min_players,
                max=rules.max_players,
                count=count,
            ),
        )


def _check_names(names: Sequence[str], problems: Problems) -> None:
    """Add a problem for each name that is not a plain, visible, short name, then for each
    name given twice (whatever the case)."""
    for seat, name in enumerate(names):
        wrong_name = name_problem(name, NAME_MAX)
        if wrong_name is NameProblem.LENGTH:
            problems.add(
                "players",
                msg(
                    "The name in seat %(seat)s must be 1 to %(max)s characters.",
                    seat=seat,
                    max=NAME_MAX,
                ),
            )
        elif wrong_name is NameProblem.CONTROL:
            problems.add(
                "players",
                msg(
                    "The name in seat %(seat)s must be plain text, without control characters.",
                    seat=seat,
                ),
            )
        elif wrong_name is NameProblem.INVISIBLE:
            problems.add(
                "players",
                msg("The name in seat %(seat)s must have a character that shows.", seat=seat),
            )
    folded = [name.casefold() for name in names]
    for key in sorted({f for f in folded if folded.count(f) > 1}):
        same = tuple(n for n, f in zip(names, folded, strict=True) if f == key)
        problems.add(
            "players",
            msg(
                "Each player needs a different name, whatever the case: %(names)s are the "
                "same name.",
                names=same,
            ),
        )


def _house_rules(rules: Ruleset, chosen: object, problems: Problems) -> dict[str, object]:
    """Return every house rule's value, the chosen ones over the defaults; add a problem
    for each rule the ruleset does not have or value it does not take."""
    effective = {name: rule.default for name, rule in rules.house_rules.items()}
    for name, value in (chosen or {}).items():  # type: ignore[attr-defined]
        rule = rules.house_rules.get(name)
        if rule is None:
            problems.add(
                "house_rules",
                msg("%(game)s has no house rule %(name)r.", game=rules.label, name=name),
            )
        elif not any(value == v and type(value) is type(v) for v in rule.values):
            allowed = " or ".join(json.dumps(v) for v in rule.values)
            problems.add(
                "house_rules",
                msg(
                    "The house rule %(name)s takes one of %(allowed)s.", name=name, allowed=allowed
                ),
            )
        else:
            effective[name] = value
    return effective


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
    return config.ruleset.parse_entry(config, raw)


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
        raise GameOver({None: (msg("The game is over: %(why)s", why=state.outcome.explanation),)})
    return state.config.ruleset.score_deal(
        state.config, state.deal_count + 1, state.next_dealer, state.scores, entry
    )


def replay(
    config: GameConfig, entries: Sequence[Entry | Mapping[str, Any]]
) -> tuple[GameState, ...]:
    """Return the state after each deal, replaying stored entries from the start."""
    states = []
    state = new_game(config)
    for entry in entries:
        state = apply_deal(state, _as_entry(config, entry))
        states.append(state)
    return tuple(states)


def correct_deal(
    config: GameConfig,
    entries: Sequence[Entry | Mapping[str, Any]],
    number: int,
    new_entry: Entry,
) -> tuple[DealResult, ...]:
    """Replay the game with deal `number` replaced; return every deal's new result.

    Raises RuleViolation when the new entry itself breaks a rule, and CorrectionConflict
    naming the first later deal that the correction leaves impossible.
    """
    if not 1 <= number <= len(entries):
        raise RuleViolation({None: (msg("There is no deal %(n)s to correct.", n=number),)})
    state = new_game(config)
    results: list[DealResult] = []
    for n, stored in enumerate(entries, start=1):
        if state.outcome.finished:
            raise CorrectionConflict(
                n,
                {
                    None: (
                        msg(
                            "After this correction the game ends at deal %(end)s: %(why)s "
                            "Deal %(n)s could not have been played.",
                            end=n - 1,
                            why=state.outcome.explanation,
                            n=n,
                        ),
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
                problems: dict[str | None, tuple[Message, ...]] = {
                    None: (
                        msg(
                            "After this correction deal %(n)s no longer fits the rules: %(why)s",
                            n=n,
                            why=violation.first,
                        ),
                        *violation.problems.get(None, ()),
                    ),
                    **{f: m for f, m in violation.problems.items() if f is not None},
                }
                raise CorrectionConflict(n, problems) from violation
        assert state.last is not None
        results.append(state.last)
    return tuple(results)


def explain_deal(config: GameConfig, result: DealResult) -> tuple[Message, ...]:
    """Return the deal's scoring in sentences for players."""
    return config.ruleset.explain(config, result)


def _as_entry(config: GameConfig, entry: Entry | Mapping[str, Any]) -> Entry:
    if isinstance(entry, Entry):
        return entry
    return config.ruleset.parse_entry(config, thaw(entry))


def rulesets() -> tuple[Ruleset, ...]:
    """Return every ruleset, in the rule book's order."""
    return all_rulesets()
