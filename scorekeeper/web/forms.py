"""FlaskForm classes for the pages; they check shape only, the engine checks the rules.

The deal form is not written for one game: `deal_form` builds its class from the ruleset's
own description of a deal (`Ruleset.entry_fields`), one control per entry field, named like
the engine's field, so the engine's messages land beside the control that caused them.
WTForms renders its controls, checks the CSRF token and coerces what was posted; what the
controls then hold is read into an entry (with its shape problems) by
scorekeeper/deal_entry.py, the very reading the phone's worker runs offline.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Self, TypeAlias

from flask_babel import LazyString
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from markupsafe import escape
from werkzeug.datastructures import MultiDict
from wtforms import (
    BooleanField,
    FieldList,
    HiddenField,
    IntegerField,
    RadioField,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.utils import unset_value
from wtforms.validators import InputRequired, Length, Optional

from scorekeeper import engine
from scorekeeper.deal_entry import NONE, SUITS, DealControls, Reading, Taps
from scorekeeper.engine import FieldKind, Suit, full_ranks, scoring_sides
from scorekeeper.web.i18n import translate

SUIT_SYMBOLS = {str(suit): suit.symbol for suit in Suit}
RANDOM = "random"
HOUSE_RULE_VALUE_LABELS = {
    True: _l("On"),
    False: _l("Off"),
    "play_on": _l("Play on"),
    "shared": _l("Share the win"),
    "3x2": _l("Three teams of two"),
    "2x3": _l("Two teams of three"),
}

Label: TypeAlias = "str | Words | LazyString"
"""What a control's label or a choice's text may be: plain text, engine words, a lazy
translation."""
Problems: TypeAlias = Mapping[str | None, Iterable[object]]
"""Messages by the field they concern (None: the whole form), as a RuleViolation holds them."""


def options(pairs: Iterable[tuple[str, Label]]) -> list[SelectChoice]:
    """Return (value, label) pairs as WTForms choices."""
    return [SelectChoice(value, label) for value, label in pairs]


class Words:
    """An engine message shown in the page's language when rendered, escaped in HTML."""

    __slots__ = ("message",)

    def __init__(self, message: engine.Message) -> None:
        self.message = message

    def __str__(self) -> str:
        return translate(self.message)

    def __html__(self) -> str:
        return str(escape(str(self)))


SUIT_NAMES = {str(suit): Words(suit.words) for suit in Suit}
"""Each suit's name in the page's language, by letter."""


def words(message: engine.Message | None) -> Words | None:
    """Return the message as page text (None stays None)."""
    return None if message is None else Words(message)


@dataclass(frozen=True)
class Counter:
    """A counts field's card counter, as the deal form keeps it (see `_counter`)."""

    heads: list[Label]
    """A short name per side the counts are for, in the counts' order."""
    cards: list[tuple[str, engine.CardValue]]
    """Per counting card, the name of its radio group and its value, in the pack's order."""
    values: tuple[engine.CardValue, ...]
    """The ruleset's counting cards (what the pack counts in all); scorekeeper/deal_entry.py
    adds up the cards tapped."""


class _Rows(FieldList):
    """A list with exactly `min_entries` entries at indexes 0 to n-1, whatever the post holds.

    One entry per seat (or speaker, or side): a post that leaves some out, or adds others,
    cannot shift a name or a count to another seat.
    """

    def process(
        self,
        formdata: MultiDict[str, Any] | None,
        data: Any = unset_value,
        extra_filters: Any = None,
    ) -> None:
        if extra_filters:
            raise TypeError("A list of rows takes no filters; give them to its field.")
        self.last_index = -1
        self.entries: list[Any] = []
        self.object_data = data
        values = [] if data is unset_value or not data else list(data)
        for index in range(self.min_entries):
            value = values[index] if index < len(values) else unset_value
            # Entry `index` (its name ends in -<index>), then filled from the post as well.
            self.append_entry(value).process(formdata, value)


class _Radio(RadioField):
    """A radio group that may be left empty: the engine says what is missing."""

    def __init__(
        self, label: Label | None = None, choices: Iterable[tuple[str, Label]] = (), **kwargs: Any
    ) -> None:
        super().__init__(label, validators=[Optional()], choices=options(choices), **kwargs)


class _RuleErrors:
    """Keep the engine's messages beside WTForms' own, keyed like the engine's fields."""

    # Engine fields shown by a control of their own that is not a form field of that name.
    shown_elsewhere: frozenset[str] = frozenset()
    _fields: dict[str, Any]
    """The form's controls by name (WTForms' BaseForm keeps them)."""

    def add_rule_errors(self, problems: Problems) -> None:
        """Add a RuleViolation's problems; any field without a control goes to the top."""
        errors: dict[str | None, list[str]] = self.__dict__.setdefault("rule_errors", {})
        for name, messages in problems.items():
            if name is not None and name not in self._fields and name not in self.shown_elsewhere:
                name = None
            errors.setdefault(name, []).extend(translate(m) for m in messages)

    def errors_for(self, *names: str | None) -> list[str]:
        """Return the form's and the engine's messages for these fields, in order."""
        rule_errors: dict[str | None, list[str]] = self.__dict__.get("rule_errors", {})
        messages: list[str] = []
        for name in names:
            control = self._control(name) if name is not None else None
            if control is not None and not isinstance(control, FieldList):
                messages.extend(control.errors)
            messages.extend(rule_errors.get(name, ()))
        return messages

    def _control(self, name: str) -> Any:
        """Return the field of that name, or the entry of a list field (`auction-2`)."""
        if name in self._fields:
            return self._fields[name]
        for field in self._fields.values():
            if isinstance(field, FieldList):
                for entry in field.entries:
                    if entry.name == name:
                        return entry
        return None


# --- a new game --------------------------------------------------------------------------


class NewGameForm(_RuleErrors, FlaskForm):
    """Start a game: ruleset, players in seat order, first dealer, target, house rules."""

    shown_elsewhere = frozenset({"house_rules"})

    seats = RadioField(_l("How many are playing?"), validators=[Optional()])
    """Asked first: the games offered are those played by that many."""
    ruleset = RadioField(_l("Ruleset"), validators=[InputRequired()])
    players = _Rows(StringField(_l("Player")), min_entries=5)
    first_dealer = RadioField(_l("First dealer"), default=RANDOM, validators=[InputRequired()])
    target = IntegerField(_l("Target score"), validators=[Optional()])
    target_shown = HiddenField()
    """The target the form was filled with: the game's own, as its ruleset describes it."""

    def setup(self, ruleset: engine.Ruleset) -> Self:
        """Fill the choices that depend on the ruleset: one name input per seat it allows.

        The target follows the game chosen unless the player changed it: a target posted
        empty, or as the form was filled (`target_shown`), becomes the chosen game's own.
        """
        self.rules = ruleset
        for seat, entry in enumerate(self.players):
            entry.label.text = (
                _l("Player %(n)s", n=seat + 1)
                if seat < ruleset.min_players
                else _l("Player %(n)s (optional)", n=seat + 1)
            )
        self.first_dealer.choices = options(
            [(RANDOM, _l("Draw at random"))]
            + [(str(seat), _l("Player %(n)s", n=seat + 1)) for seat in range(len(self.players))]
        )
        if self._target_untouched():
            self.target.data = ruleset.target
            self.target.raw_data = []  # the box shows the game's target, not what was posted
        self.target_shown.data = str(ruleset.target)
        return self

    def _target_untouched(self) -> bool:
        """Return whether the target holds what the form was filled with (or nothing)."""
        if not self.is_submitted():
            return self.target.data is None
        typed = (self.target.raw_data or [""])[0].strip()
        return typed in ("", (self.target_shown.data or "").strip())

    def house_rule_fields(self) -> list[_HouseRuleField]:
        """Return the house-rule radio groups, in the ruleset's order."""
        return [field for name, field in self._fields.items() if name.startswith("hr_")]

    def chosen_house_rules(self) -> dict[str, Any]:
        """Return the house rules whose submitted value is one the rule takes."""
        return {
            field.short_name.removeprefix("hr_"): field.value_of(field.data)
            for field in self.house_rule_fields()
            if field.data is not None and not field.errors and field.knows(field.data)
        }

    def player_names(self) -> list[str]:
        """Return the names in seat order; empty optional seats at the end are left out."""
        names = [(entry.data or "").strip() for entry in self.players]
        while len(names) > self.rules.min_players and not names[-1]:
            names.pop()
        return names

    def teams(self) -> list[tuple[int, tuple[int, ...]]] | None:
        """Return the teams as (number, seats) the chosen house rules make, or None."""
        rules = self.rules
        settings = {name: rule.default for name, rule in rules.house_rules.items()}
        settings.update(self.chosen_house_rules())
        config = engine.GameConfig(
            rules,
            tuple(f"{seat}" for seat in range(rules.max_players)),
            0,
            rules.target,
            engine.FrozenMap(settings),
        )
        teams = rules.teams(config)
        return None if teams is None else list(enumerate(teams, start=1))

    def to_request(self) -> dict[str, Any]:
        """Return the create_game keyword arguments (no first dealer: the store draws one)."""
        dealer = self.first_dealer
        first_dealer = None if dealer.errors or dealer.data == RANDOM else int(dealer.data)
        return {
            "ruleset": self.ruleset.data,
            "players": self.player_names(),
            "first_dealer": first_dealer,
            "target": None if self.target.errors else self.target.data,
            "house_rules": self.chosen_house_rules(),
        }


class _HouseRuleField(RadioField):
    """A house rule's values as radios; values are sent as their JSON text."""

    def __init__(self, label: Label, rule: engine.HouseRule, **kwargs: Any) -> None:
        choices = options((_encode(v), HOUSE_RULE_VALUE_LABELS.get(v, str(v))) for v in rule.values)
        super().__init__(label, choices=choices, default=_encode(rule.default), **kwargs)
        default = HOUSE_RULE_VALUE_LABELS.get(rule.default, str(rule.default))
        self.description = _l(
            "%(summary)s Default: %(default)s.",
            summary=LazyString(translate, rule.summary),
            default=default,
        )
        self._values = {_encode(v): v for v in rule.values}

    def knows(self, data: str) -> bool:
        """Return whether the submitted text is one of the rule's values."""
        return data in self._values

    def value_of(self, data: str) -> Any:
        """Return the house rule's value for the submitted text."""
        return self._values[data]


def _encode(value: object) -> str:
    """Return the form text for a house-rule value (booleans as true/false)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def new_game_form(
    rulesets: Sequence[engine.Ruleset],
    ruleset: engine.Ruleset,
    seats: int | None = None,
    **kwargs: Any,
) -> NewGameForm:
    """Return the new-game form: how many play, the games for that many, the house rules.

    `seats` is how many play (see `chosen_setup`); by default the fewest `ruleset` takes.
    """

    class Form(NewGameForm):
        players = _Rows(StringField(_l("Player")), min_entries=ruleset.max_players)

    for name, rule in ruleset.house_rules.items():
        label = (
            Words(rule.label) if rule.label is not None else _l(name.replace("_", " ").capitalize())
        )
        setattr(Form, f"hr_{name}", _HouseRuleField(label, rule, validators=[Optional()]))
    form = Form(**kwargs)
    count = ruleset.min_players if seats is None else seats
    form.seats.choices = options((str(n), str(n)) for n in player_counts(rulesets))
    form.seats.data = str(count)
    form.ruleset.choices = options((r.id, Words(r.label)) for r in rulesets if plays(r, count))
    form.ruleset.data = ruleset.id
    return form.setup(ruleset)


def chosen_ruleset(rulesets: Sequence[engine.Ruleset], chosen: str | None) -> engine.Ruleset:
    """Return the ruleset of that id, else the first (the rule book's first game)."""
    return next((r for r in rulesets if r.id == chosen), rulesets[0])


def plays(ruleset: engine.Ruleset, seats: int) -> bool:
    """Return whether the game is played by this many players."""
    return ruleset.min_players <= seats <= ruleset.max_players


def player_counts(rulesets: Sequence[engine.Ruleset]) -> list[int]:
    """Return every number of players some game is played by, fewest first."""
    return sorted({n for r in rulesets for n in range(r.min_players, r.max_players + 1)})


def chosen_setup(
    rulesets: Sequence[engine.Ruleset], chosen: str | None, seats: str | None
) -> tuple[int, engine.Ruleset]:
    """Return how many play and the game chosen for them, from what the page sent.

    A count the page did not send (or not one some game takes) follows the game chosen:
    the fewest it is played by. A game chosen that is not played by the count sent (the
    count just changed) gives way to the first game, in the rule book's order, that is.
    """
    ruleset = chosen_ruleset(rulesets, chosen)
    counts = player_counts(rulesets)
    count = int(seats) if seats and seats.isdigit() and int(seats) in counts else None
    if count is None:
        return ruleset.min_players, ruleset
    if plays(ruleset, count):
        return count, ruleset
    return count, next(r for r in rulesets if plays(r, count))


# --- a deal ------------------------------------------------------------------------------


class DealForm(_RuleErrors, FlaskForm):
    """One deal of the game: every entry field of the ruleset as a control of the same name.

    The class is made per game by `deal_form`; `described` holds the ruleset's entry fields.
    What the controls hold is read by `controls` (scorekeeper/deal_entry.py, the phone's
    reading too): the entry, the shape problems, which fields hold something.
    """

    number = HiddenField()
    conflict: int | None = None
    """The deal number now next, when the one this form was for was saved meanwhile."""
    mine: dict[str, Any] | None = None
    """In conflict, for a deal kept on the phone: what its entry would be as the deal it
    was for (the history's view), shown beside what the other phone saved."""
    described: tuple[engine.EntryField, ...] = ()
    """The ruleset's entry fields, in the order the form shows them."""
    controls: DealControls
    """How the controls are named and what each value stands for: the shared reading."""

    @property
    def special_cards(self) -> dict[str, set[str]]:
        """Return, per card field, the choices that stand for no card of a suit."""
        return self.controls.special_cards

    @property
    def flags(self) -> list[engine.EntryField]:
        """Return the entry fields that mark a deal of their own kind (a separate button)."""
        return [f for f in self.described if f.kind == FieldKind.FLAG]

    def layout(
        self,
    ) -> list[tuple[str, list[tuple[engine.EntryField, engine.EntryField | None]]]]:
        """Return the fields as the form shows them: (kind of block, field, counts field).

        Point fields sit together where the first of them is; counts sit inside the side
        field they decide; flags get buttons of their own, outside the form.
        """
        fields = [f for f in self.described if f.kind != FieldKind.FLAG]
        points = [f for f in fields if f.point]
        counts = self._counts_in()
        inside = set(counts.values())
        blocks: list[tuple[str, list[tuple[engine.EntryField, engine.EntryField | None]]]] = []
        for field in fields:
            if field.name in inside:
                continue
            if field.point:
                if field is points[0]:
                    blocks.append(
                        ("points", [(f, self._by_name(counts.get(f.name))) for f in points])
                    )
                continue
            blocks.append(("field", [(field, self._by_name(counts.get(field.name)))]))
        return blocks

    def _counts_in(self) -> dict[str, str]:
        """Return, per side field, the counts field that decides it (the next one after it)."""
        fields = [f for f in self.described if f.kind != FieldKind.FLAG]
        counts: dict[str, str] = {}
        for index, field in enumerate(fields):
            if field.kind == FieldKind.SIDE:
                later = [f for f in fields[index + 1 :] if f.kind == FieldKind.COUNTS]
                if later and later[0].name not in counts.values():
                    counts[field.name] = later[0].name
        return counts

    def grid_fields(self) -> list[engine.EntryField]:
        """Return the point fields that name a player: the rows of the points grid."""
        return [f for f in self.described if f.point and f.kind == FieldKind.SEAT]

    def _by_name(self, name: str | None) -> engine.EntryField | None:
        return next((f for f in self.described if f.name == name), None)

    def control(self, field: engine.EntryField) -> Any:
        """Return the form field that enters this entry field."""
        return self[field.name]

    def card_controls(self, field: engine.EntryField) -> tuple[Any, Any]:
        """Return the rank and suit radios of a card field."""
        return self[f"{field.name}_rank"], self[f"{field.name}_suit"]

    def passed_control(self, field: engine.EntryField) -> Any:
        """Return the "everyone passed" box of an auction field, if it has one."""
        name = f"{field.name}_passed"
        return self[name] if name in self._fields else None

    def is_open(self, field: engine.EntryField) -> bool:
        """Return whether an advanced field's section starts open (entered or refused)."""
        if self.errors_for(field.name, *self._sub_names(field)):
            return True
        return field.name in self.reading().opened

    def _sub_names(self, field: engine.EntryField) -> list[str]:
        control = self._fields.get(field.name)
        if isinstance(control, FieldList):
            return [entry.name for entry in control.entries]
        return []

    counters: dict[str, Counter] = {}
    """Per counts field that has one, its card counter (see `_counter`)."""
    counted_into: str | None = None
    """The counts field just filled from its counter ("Use these counts"), to show first."""

    def counter(self, field: engine.EntryField) -> dict[str, Any] | None:
        """Return the card counter of a counts field for the page, or None where it has none.

        Its heads, one row per counting card (control, card, value), each side's total of
        the cards tapped so far, what the pack counts in all and the field's controls.
        """
        kept = self.counters.get(field.name)
        if kept is None:
            return None
        rows = [(self[name], value.card, value.value) for name, value in kept.cards]
        try:
            counted = self.counted(field)
        except ValueError:
            counted = None
        return {
            "heads": kept.heads,
            "rows": rows,
            "totals": counted or (0,) * len(kept.heads),
            "pack": sum(value.value for value in kept.values),
            "inputs": [entry.id for entry in self[field.name]],
        }

    def counted(self, field: engine.EntryField | None) -> tuple[int, ...] | None:
        """Return each side's count from the cards tapped in the counter, or None if none was.

        The engine adds up the values its ruleset gives the cards; a side that is not one
        of the counter's raises ValueError.
        """
        if field is None or field.name not in self.counters:
            return None
        return self.controls.counted(field, self.posted())

    def fill_counted(self) -> None:
        """Fill counts left empty from the cards tapped in their counter, as the page shows.

        Counts typed that differ from the cards tapped are kept, for the reading to refuse.
        """
        for name in self.counters:
            field = self._by_name(name)
            try:
                counted = self.counted(field)
            except ValueError:
                continue
            entries = self[name].entries
            if counted is None or any(entry.data is not None for entry in entries):
                continue
            for entry, count in zip(entries, counted, strict=True):
                entry.data = count
                entry.raw_data = [str(count)]

    def use_counted(self, name: str) -> None:
        """Put the counter's counts into the counts field `name`, over any typed, and clear
        the choice of the side field they decide (the counts now say who took the point)."""
        field = self._by_name(name)
        if field is None or name not in self.counters:
            return
        try:
            counted = self.counted(field)
        except ValueError:
            return
        self.counted_into = name
        for entry, count in zip(self[name].entries, counted or (), strict=False):
            entry.data = count
            entry.raw_data = [str(count)]
        decided = next((f for f, counts in self._counts_in().items() if counts == name), None)
        if counted is not None and decided is not None:
            self[decided].data = None
            self[decided].raw_data = []

    def posted(self) -> dict[str, list[str]]:
        """Return what the controls hold as the page would post it, for the shared reading.

        Each control's value as WTForms coerced it from the post, or as the server then set
        it (a correction's stored entry, counts filled from the card counter); a box left
        empty or unticked is left out. A count box sent with no number holds none: WTForms
        refuses it beside the box.
        """
        taps: dict[str, list[str]] = {}
        for control in self:
            for one in control.entries if isinstance(control, FieldList) else (control,):
                data = one.data
                if data is None or data is False:
                    continue
                taps[one.name] = ["y" if data is True else str(data)]
        return taps

    def reading(self, flag: str | None = None) -> Reading:
        """Return what the controls hold, read: the entry, its shape problems, what is open."""
        return self.controls.read(self.posted(), flag)

    def validate(self, extra_validators: Mapping[str, Sequence[Any]] | None = None) -> bool:
        """Check the shape of what was sent (numbers, complete counts); rules are the engine's."""
        valid = super().validate(extra_validators)
        fields = {field.name for field in self.described}
        problems = {
            name: messages
            for name, messages in self.reading().problems.items()
            # Not a count box's own (not a number): WTForms' IntegerField says so beside it.
            if name is None or name in fields
        }
        if problems:
            self.add_rule_errors(problems)
            valid = False
        return valid

    def flag_posted(self, formdata: Mapping[str, str]) -> str | None:
        """Return the name of the flag whose button was pressed (thrown in, forfeit), if any."""
        taps: Taps = {name: [value] for name, value in formdata.items()}
        return self.controls.flag_posted(taps)

    def to_entry(self, flag: str | None = None) -> dict[str, Any]:
        """Return the API entry for what was chosen; fields left unchosen (or refused) are
        left out, and the deal number the page was showing is `number` when well formed."""
        return self.reading(flag).entry

    def fill_from(self, entry: Mapping[str, Any]) -> None:
        """Preset the controls from a stored entry (for a correction)."""
        if any(entry.get(flag.name) for flag in self.flags):
            return
        for field in self.described:
            value = entry.get(field.name)
            kind = field.kind
            if kind == FieldKind.FLAG:
                continue
            if kind == FieldKind.CARD:
                self._fill_card(field, value)
            elif kind == FieldKind.COUNTS:
                if value is None:
                    continue
                keys = self.controls.count_keys[field.name] or []
                counts = [value.get(k) for k in keys] if isinstance(value, dict) else list(value)
                for control, count in zip(self[field.name], counts, strict=False):
                    control.data = count
            elif kind == FieldKind.AUCTION:
                if value is not None:
                    self._fill_auction(field, value)
            elif value is not None:
                self[field.name].data = str(value)
            elif field.blank is not None and kind == FieldKind.SEAT:
                self[field.name].data = NONE

    def _fill_card(self, field: engine.EntryField, value: Any) -> None:
        """Preset a card's rank and suit (or its special choice, or its blank)."""
        rank, suit = self.card_controls(field)
        if value is None:
            rank.data = NONE if field.blank is not None else None
        elif value in self.special_cards[field.name]:
            rank.data = value
        else:
            rank.data, suit.data = value[:-1], value[-1]

    def _fill_auction(self, field: engine.EntryField, value: Sequence[Any]) -> None:
        """Preset each seat's call, or "everyone passed"."""
        passed = self.passed_control(field)
        if passed is not None and all(call is None for call in value):
            passed.data = True
            return
        for control, call in zip(self[field.name], value, strict=False):
            control.data = NONE if call is None else str(call)


def deal_form(
    config: engine.GameConfig,
    dealer: int,
    *,
    number: int | None = None,
    formdata: MultiDict[str, Any] | None = None,
    fresh: bool = False,
) -> DealForm:
    """Return the deal form of this game for a deal dealt by `dealer`.

    Bound to the request's form unless `fresh` (a cleared form for the next deal) or
    `formdata` is given.
    """
    form_class, setup = _deal_form_class(config, dealer)
    kwargs: dict[str, MultiDict[str, Any] | None] = {"formdata": None} if fresh else {}
    if formdata is not None:
        kwargs["formdata"] = formdata
    form = form_class(**kwargs)
    for name, value in setup.items():
        setattr(form, name, value)
    for name, labels in setup["row_labels"].items():
        for control, label in zip(form[name], labels, strict=True):
            control.label.text = label
    if number is not None and (fresh or not form.number.data):
        form.number.data = str(number)
    form.fill_counted()
    return form


def _deal_form_class(
    config: engine.GameConfig, dealer: int
) -> tuple[type[DealForm], dict[str, Any]]:
    """Return a DealForm class with one control per entry field, and what the form needs."""
    parts = _DealFormParts(config, dealer)
    for field in parts.described:
        parts.add(field)
    return parts.form_class(), parts.setup()


class _DealFormParts:
    """The controls of a game's deal form class, and what the form needs beside them, made
    field by field from the ruleset's description of its entry."""

    def __init__(self, config: engine.GameConfig, dealer: int) -> None:
        self.config = config
        self.rules = config.ruleset
        self.described = self.rules.entry_fields(config)
        self.seats = [(str(seat), name) for seat, name in enumerate(config.players)]
        self.sides = scoring_sides(config)
        n = config.seats
        first = self.rules.first_speaker(config, dealer)
        self.speakers = [(first + i) % n for i in range(n)]  # the auction's rows, in order
        self.dealer = dealer
        self.attrs: dict[str, Any] = {
            "described": tuple(self.described),
            "__doc__": DealForm.__doc__,
        }
        self.row_labels: dict[str, list[Label]] = {}
        self.counters: dict[str, Counter] = {}

    def radio(
        self,
        field: engine.EntryField,
        choices: Sequence[tuple[Any, Label]],
        label: Label | None = None,
    ) -> _Radio:
        """Return one radio group of these choices (and the field's blank)."""
        pairs = [(str(value), text) for value, text in choices]
        if field.blank is not None:
            pairs.append((NONE, Words(field.blank)))
        return _Radio(label or Words(field.label), choices=pairs)

    def add(self, field: engine.EntryField) -> None:
        """Add the controls of one entry field (a flag has none of its own)."""
        kind = field.kind
        name = field.name
        if kind == FieldKind.SEAT:
            self.attrs[name] = self.radio(field, [(int(v), label) for v, label in self.seats])
        elif kind in (FieldKind.BID, FieldKind.NUMBER, FieldKind.TOGGLE):
            self.attrs[name] = self.radio(field, [(c.value, Words(c.label)) for c in field.choices])
        elif kind == FieldKind.SIDE:
            self._add_side(field)
        elif kind == FieldKind.SUIT:
            self.attrs[name] = self.radio(field, [(s, SUIT_NAMES[s]) for s in SUITS])
        elif kind == FieldKind.CARD:
            self._add_card(field)
        elif kind == FieldKind.COUNTS:
            self._add_counts(field)
        elif kind == FieldKind.AUCTION:
            self._add_auction(field)

    def _add_side(self, field: engine.EntryField) -> None:
        named: list[tuple[Any, Label]] = [(c.value, Words(c.label)) for c in field.choices]
        if len(named) < 2 and not any(isinstance(c.value, int) for c in field.choices):
            # The choices are only the extra one (a tie): the sides come first.
            named = [(i, label) for i, (label, _seats) in enumerate(self.sides)] + named
        self.attrs[field.name] = self.radio(field, named)

    def _add_card(self, field: engine.EntryField) -> None:
        name = field.name
        ranks = full_ranks(self.rules.deck)
        specials = [(c.value, Words(c.label)) for c in field.choices]
        cards: list[tuple[Any, Label]] = [*((r, r) for r in ranks), *specials]
        self.attrs[f"{name}_rank"] = self.radio(field, cards, _l("Rank"))
        self.attrs[f"{name}_suit"] = _Radio(_l("Suit"), choices=[(s, SUIT_NAMES[s]) for s in SUITS])

    def _add_counts(self, field: engine.EntryField) -> None:
        name = field.name
        labels: list[Label]
        if field.choices:
            labels = [Words(c.label) for c in field.choices]
        else:
            labels = [label for label, _seats in self.sides]
        self.attrs[name] = _Rows(
            IntegerField(validators=[Optional()]),
            label=Words(field.label),
            min_entries=len(labels),
        )
        self.row_labels[name] = labels
        if field.card_values:
            heads = _counter_heads(self.described, field, labels)
            self.counters[name] = _counter(self.attrs, field, heads)

    def _add_auction(self, field: engine.EntryField) -> None:
        name = field.name
        choices = [(c.value, Words(c.label)) for c in field.choices]
        pairs = [(NONE, _l("Pass")), *((str(v), label) for v, label in choices)]
        self.attrs[name] = _Rows(
            _Radio(choices=pairs), label=Words(field.label), min_entries=self.config.seats
        )
        self.row_labels[name] = [self.config.players[seat] for seat in self.speakers]
        if field.blank is not None:
            self.attrs[f"{name}_passed"] = BooleanField(Words(field.blank))

    def form_class(self) -> type[DealForm]:
        """Return the form class with every control added."""
        self.attrs["shown_elsewhere"] = frozenset(
            f.name for f in self.described if f.kind in (FieldKind.CARD, FieldKind.FLAG)
        )
        return type("RulesetDealForm", (DealForm,), self.attrs)

    def setup(self) -> dict[str, Any]:
        """Return what each form of the class is given besides its controls."""
        described, sides = self.described, self.sides
        return {
            "controls": DealControls.of(self.config),
            "row_labels": self.row_labels,
            "counters": self.counters,
            "players": list(self.config.players),
            "speakers": self.speakers,
            "dealer": self.dealer,
            "sides": sides,
            "called_points": {str(p.rank): p.point for p in self.rules.called_points},
            # The page marks the bidding side as soon as it is chosen: the seats these
            # fields name, with their whole team where the ruleset plays in teams.
            "bidding_side": {
                "fields": [f.name for f in described if f.kind == FieldKind.SEAT and not f.point],
                "teams": (
                    [list(seats) for _label, seats in sides]
                    if len(sides) < self.config.seats
                    else None
                ),
            },
        }


def _counter_heads(
    described: Sequence[engine.EntryField], field: engine.EntryField, labels: Sequence[Label]
) -> list[Label]:
    """Return a short name for each side a counts field counts for, for the counter's heads.

    The side field the counts decide names the same sides shorter ("Bidders" beside
    "Bidding side's count"); where it names them only by index, the counts' labels serve.
    """
    keys = [c.value for c in field.choices] if field.choices else list(range(len(labels)))
    for other in described:
        if other.kind != FieldKind.SIDE:
            continue
        named = {c.value: c.label for c in other.choices}
        if all(key in named for key in keys):
            return [Words(named[key]) for key in keys]
    return list(labels)


def _counter(attrs: dict[str, Any], field: engine.EntryField, heads: Sequence[Label]) -> Counter:
    """Add one radio group per counting card of a counts field: which side took it.

    Return the counter as the form keeps it: the sides' heads and, per card, the name of
    its control and its value, both from the ruleset's description.
    """
    choices: list[tuple[str, Label]] = [(str(index), head) for index, head in enumerate(heads)]
    choices.append((NONE, _l("Not counted")))
    cards: list[tuple[str, engine.CardValue]] = []
    for value in field.card_values:
        name = f"{field.name}_took_{value.card}"
        attrs[name] = _Radio(Words(value.card.words), choices=choices)
        cards.append((name, value))
    return Counter(list(heads), cards, field.card_values)


class ConfirmForm(_RuleErrors, FlaskForm):
    """A button-only action (undo) that still carries the CSRF token without JavaScript."""


class TableForm(_RuleErrors, FlaskForm):
    """Name a new table and, if wished, its regulars."""

    name = StringField(_l("Table name"), validators=[InputRequired(), Length(max=80)])
    regulars = TextAreaField(_l("Regular players (optional, one per line)"))


class PutAtTableForm(_RuleErrors, FlaskForm):
    """Choose a table to put a game at: one this browser may edit, by its edit link, or a
    new one named here."""

    table = RadioField(_l("Your tables"), validators=[Optional()])
    edit_link = StringField(
        _l("Or paste the table's edit link"), validators=[Optional(), Length(max=300)]
    )
    new_table = StringField(
        _l("Or start a new table: its name"), validators=[Optional(), Length(max=80)]
    )


class ImportForm(_RuleErrors, FlaskForm):
    """Upload an export file; a name for the new table when the file holds none."""

    file = FileField(_l("Export file (.json)"), validators=[FileRequired()])
    name = StringField(
        _l("Table name, if the file has none"), validators=[Optional(), Length(max=80)]
    )


class MergeForm(FlaskForm):
    """Choose two spellings of one person: the first is folded into the second."""

    source = SelectField(_l("Merge this name"), coerce=int)
    target = SelectField(_l("into this name"), coerce=int)
