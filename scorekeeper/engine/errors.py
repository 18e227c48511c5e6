"""The engine's one error type and the situations the API tells apart."""

from collections.abc import Iterable, Mapping


class RuleViolation(ValueError):
    """An entry breaks the rules; carries every problem, keyed by field name (None: the whole)."""

    def __init__(self, problems: Mapping[str | None, Iterable[str]]):
        self.problems: dict[str | None, tuple[str, ...]] = {
            field: tuple(messages) for field, messages in problems.items() if messages
        }
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """Return one sentence for a person: the first problem found."""
        for messages in self.problems.values():
            return messages[0]
        return "The entry breaks the rules."

    @property
    def fields(self) -> dict[str, list[str]]:
        """Return the problems of specific fields, for the API's `fields`."""
        return {f: list(m) for f, m in self.problems.items() if f is not None}


class WrongType(RuleViolation):
    """A value has the wrong JSON type, or the body is not a JSON object."""


class GameOver(RuleViolation):
    """A deal was entered after the game ended."""


class CorrectionConflict(RuleViolation):
    """A correction that a later deal cannot survive; `number` names that deal."""

    def __init__(self, number: int, problems: Mapping[str | None, Iterable[str]]):
        self.number = number
        super().__init__(problems)
