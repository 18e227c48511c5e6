"""The deal form's fields read into an entry, written once: run by the server and the phone.

Flask-free and WTForms-free (the engine only), so that the pages' deal form
(scorekeeper/web/forms.py `DealForm`) and the engine's bridge on the phone
(scorekeeper/phone.py, in Pyodide: scorekeeper/web/offline.py bundles this module) read a
deal the same way. Both give it the form's fields as name → values ("taps"): the phone as
the page would post them, the server as its form's controls hold them after WTForms coerced
the post (and after the server filled counts from the card counter, or a correction's
stored entry). It answers the API entry they make, what is wrong with their shape (engine
messages, translated where they are shown) and which fields hold something; the rules are
the engine's to check.

The controls are named as the deal form names them: one per entry field the ruleset
describes, named like it; a card's rank and suit (`<name>_rank`, `<name>_suit`); a counts
field's boxes and an auction's rows (`<name>-<index>`); the card counter's radios
(`<name>_took_<card>`); an auction's "everyone passed" box (`<name>_passed`); a flag's
button (its name), and the deal number the page was showing (`number`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scorekeeper import engine
from scorekeeper.engine import FieldKind, Message, Suit, msg, scoring_sides

NONE = "none"
"""The form value of a blank choice (no partner, not in play, a pass, a tie)."""
SUITS = tuple(str(suit) for suit in Suit)
LARGEST_NUMBER = 2**31 - 1
"""The largest deal number the form reads (the largest the database's columns hold, as
scorekeeper/http/params.py's `MAX_ID`); a longer one is not a number the page sent."""
Taps = Mapping[str, Sequence[str]]
"""A form's fields as posted: each name with its values, in order."""

NOT_A_NUMBER = Message("Not a valid integer value.")
"""A count box's refusal when it holds no whole number: WTForms' own message (its
IntegerField's), which the pages get from WTForms and the phone from this reading. Made
without `msg`, so it is not extracted into the app's catalogs: WTForms' catalog of the
page's language translates it (the phone's catalog falls back to it)."""
NUMBER_UNREADABLE = msg("The page sent a deal number that is not a number: reload the page.")
NOT_OFFERED = msg("This form holds a value it does not offer. Reload the page and enter it again.")
COUNTS_MISSING = msg("Enter every count, or leave them all empty.")
PASSED_WITH_A_BID = msg("You marked that everyone passed, but the auction has a bid: clear one.")


def counts_contradicted(counted: Sequence[int]) -> Message:
    """Return the refusal of counts typed that differ from the cards tapped in the counter."""
    return msg(
        "The cards tapped add up to %(counted)s, not the counts typed: "
        "change the cards or clear the counts.",
        counted=", ".join(str(count) for count in counted),
    )


@dataclass
class Reading:
    """The deal form's fields as read: the entry they make and what is wrong with them."""

    entry: dict[str, Any] = field(default_factory=dict)
    """The API entry: each field entered (the deal number as `number`, a flag as True)."""
    problems: dict[str | None, list[Message]] = field(default_factory=dict)
    """The shape problems by field, in the form's order: None for the form's own (the deal
    number), a count box's name (`<name>-<index>`) for a box that holds no number
    (`NOT_A_NUMBER`, just before its field's own), else the entry field's name."""
    opened: set[str] = field(default_factory=set)
    """The fields with something in them, or something wrong (a folded one shows open)."""


class Unreadable(ValueError):
    """A field the form sent in a shape the engine cannot be asked about (its message)."""

    def __init__(self, message: Message) -> None:
        super().__init__(message)
        self.message = message


@dataclass
class DealControls:
    """How a game's deal form names its controls and what each value sent stands for, made
    from the ruleset's description of its entry (`Ruleset.entry_fields`)."""

    config: engine.GameConfig
    described: tuple[engine.EntryField, ...]
    """The ruleset's entry fields, in the order the form shows them."""
    values: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Per choice field (seat, bid, number, toggle, side, suit, auction), the entry value
    of each form value it offers (a blank choice, `NONE`, is none of them)."""
    special_cards: dict[str, set[str]] = field(default_factory=dict)
    """Per card field, the choices that stand for no card of a suit (a joker, "not in play")."""
    count_keys: dict[str, list[Any] | None] = field(default_factory=dict)
    """Per counts field, the keys its counts are sent by, or None when they are a list."""
    rows: dict[str, int] = field(default_factory=dict)
    """Per counts field its boxes (one per side or choice), per auction field its rows."""

    @classmethod
    def of(cls, config: engine.GameConfig) -> DealControls:
        """Return the controls of this game's deal form."""
        form = cls(config, tuple(config.ruleset.entry_fields(config)))
        sides = scoring_sides(config)
        for described in form.described:
            kind, name = described.kind, described.name
            choices = [c.value for c in described.choices]
            if kind == FieldKind.SEAT:
                form.values[name] = {str(seat): seat for seat in range(len(config.players))}
            elif kind in (FieldKind.BID, FieldKind.NUMBER, FieldKind.TOGGLE, FieldKind.AUCTION):
                form.values[name] = {str(value): value for value in choices}
            elif kind == FieldKind.SIDE:
                if len(choices) < 2 and not any(isinstance(v, int) for v in choices):
                    choices = list(range(len(sides))) + choices  # the sides, then a tie
                form.values[name] = {str(value): value for value in choices}
            elif kind == FieldKind.SUIT:
                form.values[name] = {suit: suit for suit in SUITS}
            elif kind == FieldKind.CARD:
                form.special_cards[name] = {str(value) for value in choices}
            elif kind == FieldKind.COUNTS:
                named = bool(choices) and all(isinstance(v, str) for v in choices)
                form.count_keys[name] = choices if named else None
                form.rows[name] = len(choices) if choices else len(sides)
            if kind == FieldKind.AUCTION:
                form.rows[name] = config.seats
        return form

    def flag_posted(self, taps: Taps) -> str | None:
        """Return the flag whose button was pressed (thrown in, forfeit), if any."""
        flags = [f.name for f in self.described if f.kind == FieldKind.FLAG]
        return next((name for name in flags if first(taps, name)), None)

    def read(self, taps: Taps, flag: str | None = None) -> Reading:
        """Return the entry the fields make (unchosen ones left out) and the shape problems.

        With a flag, the entry is the deal number and the flag: the fields are not read.
        """
        read = Reading()
        number = first(taps, "number") or ""
        if whole_number(number) is not None:
            read.entry["number"] = int(number)
        elif number:
            read.problems[None] = [NUMBER_UNREADABLE]
        if flag is not None:
            read.entry[flag] = True
            return read
        for described in self.described:
            if described.kind == FieldKind.COUNTS:
                for box in _not_integers(described, self.rows[described.name], taps):
                    read.problems[box] = [NOT_A_NUMBER]
            try:
                value = self.value_of(described, taps)
            except Unreadable as problem:
                read.problems[described.name] = [problem.message]
                read.opened.add(described.name)
                continue
            if value is not None:
                read.entry[described.name] = value
                read.opened.add(described.name)
        return read

    def value_of(self, described: engine.EntryField, taps: Taps) -> Any:
        """Return the entry value of one field (None: not entered); Unreadable on bad shape."""
        kind, name = described.kind, described.name
        if kind == FieldKind.FLAG:
            return None
        if kind == FieldKind.CARD:
            rank = first(taps, f"{name}_rank")
            if rank in (None, "", NONE):
                return None
            if rank in self.special_cards[name]:
                return rank
            return rank + (first(taps, f"{name}_suit") or "")
        if kind == FieldKind.COUNTS:
            return self._counts(described, taps)
        if kind == FieldKind.AUCTION:
            return self._auction(described, taps)
        data = first(taps, name)
        # A blank choice ("No partner") is not among the values, so it enters nothing.
        return None if data in (None, "") else self.values[name].get(data)

    def _counts(self, described: engine.EntryField, taps: Taps) -> Any:
        """Return a counts field's counts (by key, or a list), from the boxes or else from
        the cards tapped in its counter; None when neither holds anything."""
        name = described.name
        counts = [_integer(first(taps, f"{name}-{i}")) for i in range(self.rows[name])]
        counted = self.counted(described, taps)
        if counted is not None and all(c is None for c in counts):
            counts = list(counted)
        if all(c is None for c in counts):
            return None
        if any(c is None for c in counts):
            raise Unreadable(COUNTS_MISSING)
        if counted is not None and tuple(counts) != counted:
            raise Unreadable(counts_contradicted(counted))
        keys = self.count_keys[name]
        return dict(zip(keys, counts, strict=True)) if keys else counts

    def counted(self, described: engine.EntryField, taps: Taps) -> tuple[int, ...] | None:
        """Return each side's count from the card counter's taps, None if no card was tapped.

        The engine adds up the values its ruleset gives the cards; a side that is not one
        of the counter's raises Unreadable.
        """
        sides = self.rows.get(described.name, 0)
        taken: dict[engine.Card, int] = {}
        for value in described.card_values:
            side = first(taps, f"{described.name}_took_{value.card}")
            if side in (None, "", NONE):
                continue
            index = whole_number(side)
            if index is None or index >= sides:
                raise Unreadable(NOT_OFFERED)
            taken[value.card] = index
        return engine.add_up(described.card_values, taken, sides) if taken else None

    def _auction(self, described: engine.EntryField, taps: Taps) -> list[Any] | None:
        """Return the auction as the API wants it, or None when nobody's call was entered.

        Calls not entered after the last one entered count as passes, except after the
        highest bid, which ends the auction in most games (where it does not, the engine
        asks for the missing passes).
        """
        name = described.name
        values = self.values[name]
        posted = [first(taps, f"{name}-{i}") for i in range(self.rows[name])]
        posted = [None if data == "" else data for data in posted]
        calls = [None if data in (None, NONE) else values.get(data) for data in posted]
        entered = [i for i, data in enumerate(posted) if data is not None]
        if described.blank is not None and _checked(first(taps, f"{name}_passed")):
            if any(call is not None for call in calls):
                raise Unreadable(PASSED_WITH_A_BID)
            return [None] * len(posted)
        if not entered:
            return None
        result = calls[: entered[-1] + 1]
        top = described.choices[-1].value if described.choices else None
        if result[-1] != top:
            result += [None] * (len(posted) - len(result))
        return result


def first(taps: Taps, name: str) -> str | None:
    """Return the first value sent under that name, None when none was."""
    values = taps.get(name)
    return values[0] if values else None


def whole_number(text: str) -> int | None:
    """Return the text as a whole number of ASCII digits up to `LARGEST_NUMBER`, else None
    (its length checked before `int` reads it)."""
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(LARGEST_NUMBER)):
        return None
    number = int(text)
    return number if number <= LARGEST_NUMBER else None


def _integer(text: str | None) -> int | None:
    """Return a count box's number, None when empty or not a number (WTForms' IntegerField,
    Optional: a box that is not a number is refused on its own, see `_not_integers`)."""
    if text is None or not text.strip():
        return None
    try:
        return int(text)
    except ValueError:
        return None


def _not_integers(described: engine.EntryField, rows: int, taps: Taps) -> list[str]:
    """Return the names of a counts field's boxes sent with something not a number."""
    names = [f"{described.name}-{i}" for i in range(rows)]
    return [n for n in names if (first(taps, n) or "").strip() and _integer(first(taps, n)) is None]


def _checked(text: str | None) -> bool:
    """Return whether a check box was sent ticked (WTForms' BooleanField)."""
    return text not in (None, "", "false")
