"""Checks and words that several rulesets share: seats, suits, types, auctions, signs."""

import copy
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from scorekeeper.engine.cards import Suit
from scorekeeper.engine.errors import RuleViolation, WrongType
from scorekeeper.engine.frozen import freeze
from scorekeeper.engine.messages import Message, msg
from scorekeeper.engine.results import Entry

TypeCheck = tuple[Callable[[object], bool], Message]


def is_int(value: object) -> bool:
    """Return whether the value is a JSON integer (booleans are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_str(value: object) -> bool:
    """Return whether the value is a JSON string."""
    return isinstance(value, str)


def is_bool(value: object) -> bool:
    """Return whether the value is a JSON boolean."""
    return isinstance(value, bool)


def is_int_list(value: object) -> bool:
    """Return whether the value is a list of integers."""
    return isinstance(value, list) and all(is_int(v) for v in value)


NUMBER_CHECK: TypeCheck = (is_int, msg("The deal number must be a whole number."))


class Problems:
    """Every problem found with an entry, keyed by field (None: the entry as a whole)."""

    def __init__(self) -> None:
        self.found: dict[str | None, list[Message]] = {}

    def add(self, field: str | None, message: Message) -> None:
        """Note a problem with the field."""
        self.found.setdefault(field, []).append(message)

    def __contains__(self, field: object) -> bool:
        return field in self.found

    def __bool__(self) -> bool:
        return bool(self.found)

    def raise_if_any(self) -> None:
        """Raise RuleViolation with every problem noted, if any."""
        if self.found:
            raise RuleViolation(self.found)


def parse_typed(raw: object, checks: Mapping[str, TypeCheck]) -> Entry:
    """Check the JSON types of a deal entry and return it, or raise WrongType.

    Keys without a check pass through here; the ruleset refuses unknown keys when scoring.
    """
    if not isinstance(raw, dict):
        raise WrongType({None: (msg("A deal must be a JSON object."),)})
    wrong = {}
    for key, value in raw.items():
        check = checks.get(key)
        if key == "number":
            check = NUMBER_CHECK
        if value is not None and check is not None and not check[0](value):
            wrong[key] = (check[1],)
    if wrong:
        raise WrongType(wrong)
    kept = {k: copy.deepcopy(v) for k, v in raw.items() if v is not None and k != "number"}
    return Entry(freeze(kept), raw.get("number"))


def refuse_unknown(raw: Mapping[str, Any], known: Iterable[str], name: str, problems: Problems):
    """Note every key that is not a field of this ruleset's entry."""
    allowed = set(known)
    for key in raw:
        if key not in allowed:
            problems.add(key, msg("%(key)r is not part of a %(game)s deal.", key=key, game=name))


def seat_of(
    raw: Mapping[str, Any],
    field: str,
    seats: int,
    problems: Problems,
    missing: Message | None = None,
) -> int | None:
    """Return the seat entered for the field, noting a missing or unknown seat."""
    value = raw.get(field)
    if value is None:
        if missing is not None:
            problems.add(field, missing)
        return None
    if not 0 <= value < seats:
        problems.add(
            field,
            msg(
                "Seat %(seat)s is not at this table; seats are 0 to %(last)s.",
                seat=value,
                last=seats - 1,
            ),
        )
        return None
    return int(value)


def suit_of(raw: Mapping[str, Any], problems: Problems, field: str = "trump") -> Suit | None:
    """Return the trump suit entered, noting a missing or unknown suit."""
    if field not in raw:
        problems.add(field, msg("Choose the trump suit."))
        return None
    try:
        return Suit(raw[field])
    except ValueError:
        problems.add(
            field, msg("%(value)r is not a suit; trump is S, H, D or C.", value=raw[field])
        )
        return None


def signed(value: int) -> str:
    """Return a score change with its sign: +3, or -2 written with a real minus sign."""
    return f"+{value}" if value >= 0 else f"\N{MINUS SIGN}{-value}"


def names(players: Sequence[str], seats: Iterable[int]) -> tuple[str, ...]:
    """Return the names at these seats, for a message parameter that lists people."""
    return tuple(players[s] for s in seats)


def apply_deltas(scores: Sequence[int], deltas: Sequence[int]) -> tuple[int, ...]:
    """Return the totals after adding each seat's change."""
    return tuple(a + d for a, d in zip(scores, deltas, strict=True))
