"""Sentences for people as message templates with parameters.

The engine speaks English; the web layer looks each template up in the page's language
and fills in the parameters (translating those that are messages themselves). The API
uses the English text, `str(message)`.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper.engine.frozen import EMPTY, FrozenMap


@dataclass(frozen=True, slots=True)
class Message:
    """A sentence or phrase: an English template and the values it names."""

    template: str
    """Text with `%(name)s` placeholders; also the key the catalogs translate."""
    params: FrozenMap[str, Any] = EMPTY
    """Values for the placeholders: text, numbers, messages, or sequences of names."""

    def __str__(self) -> str:
        """Return the English text."""
        return render(self, lambda template: template, english_and)

    def __add__(self, other: object) -> str:
        if isinstance(other, str):
            return str(self) + other
        return NotImplemented

    def __radd__(self, other: object) -> str:
        if isinstance(other, str):
            return other + str(self)
        return NotImplemented


def msg(template: str, /, **params: Any) -> Message:
    """Return a message; babel extracts calls of this function as translatable text."""
    return Message(template, FrozenMap(params) if params else EMPTY)


@dataclass(frozen=True, slots=True)
class Plural:
    """A phrase that says a count, worded for one and for more ("1 bid", "2 bids").

    Both templates name the count `%(num)s`; the web layer asks the catalog for the form
    the page's language uses for that count.
    """

    one: str
    """The English template for a count of one; also the catalog's key."""
    other: str
    """The English template for any other count."""


def plural(one: str, other: str, /) -> Plural:
    """Return a counted phrase; babel extracts calls of this function as plural text."""
    return Plural(one, other)


def english_and(words: Sequence[str]) -> str:
    """Join words for an English sentence: "Ann", "Ann and Bob", "Ann, Bob and Cy"."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def render(
    message: Message, lookup: Callable[[str], str], join: Callable[[Sequence[str]], str]
) -> str:
    """Return the message's text with `lookup` translating templates and `join` lists."""
    template = lookup(message.template)
    if not message.params:
        return template
    values: dict[str, Any] = {}
    for name, value in message.params.items():
        if isinstance(value, Message):
            values[name] = render(value, lookup, join)
        elif isinstance(value, tuple | list):
            values[name] = join(
                [render(v, lookup, join) if isinstance(v, Message) else str(v) for v in value]
            )
        else:
            values[name] = value
    return template % values


def text(value: "Message | str") -> str:
    """Return the English text of a message or a plain string."""
    return str(value)
