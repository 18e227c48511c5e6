"""The engine's one error type and the situations the API tells apart."""

from collections.abc import Iterable, Mapping

from scorekeeper.engine.messages import Message, msg


class RuleViolation(ValueError):
    """An entry breaks the rules; carries every problem, keyed by field name (None: the whole)."""

    def __init__(self, problems: Mapping[str | None, Iterable[Message | str]]):
        self.problems: dict[str | None, tuple[Message, ...]] = {
            field: tuple(m if isinstance(m, Message) else msg(m) for m in messages)
            for field, messages in problems.items()
            if messages
        }
        super().__init__(self.message)

    @property
    def first(self) -> Message:
        """Return the first problem found, as a message."""
        for messages in self.problems.values():
            return messages[0]
        return msg("The entry breaks the rules.")

    @property
    def message(self) -> str:
        """Return one sentence for a person (English): the first problem found."""
        return str(self.first)

    @property
    def fields(self) -> dict[str, list[str]]:
        """Return the problems of specific fields in English, for the API's `fields`."""
        return {f: [str(m) for m in ms] for f, ms in self.problems.items() if f is not None}


class WrongType(RuleViolation):
    """A value has the wrong JSON type, or the body is not a JSON object."""


class GameOver(RuleViolation):
    """A deal was entered after the game ended."""


class CorrectionConflict(RuleViolation):
    """A correction that a later deal cannot survive; `number` names that deal."""

    def __init__(self, number: int, problems: Mapping[str | None, Iterable[Message | str]]):
        self.number = number
        super().__init__(problems)
