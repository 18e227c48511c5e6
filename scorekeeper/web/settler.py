"""The tie-break settler: a position entered by hand, judged by the ruleset's own win check.

The form asks only what the game's win check reads (the ruleset's `win_facts`): the scores
at the end of a deal, one per player or per team, the bidder, the partner, a moon, the
scores at the start. The engine builds a stand-in for that deal and its `outcome` decides;
nothing here knows a rule. The form is a GET form: it changes nothing, and its address can
be sent round the table.
"""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField, RadioField, StringField
from wtforms.fields.choices import SelectChoice

from scorekeeper import engine
from scorekeeper.http import params
from scorekeeper.web.forms import HOUSE_RULE_VALUE_LABELS, NONE, _RuleErrors
from scorekeeper.web.i18n import join_words, translate
from scorekeeper.web.rulebook import Step, win_steps

DEFAULT_PLAYERS = 4
"""How many sit at the table when a game allows several counts and none was chosen."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the settler says: the engine's outcome and the step of the win check that decided."""

    outcome: engine.Outcome
    """The ruleset's own answer."""
    headline: str
    """Who wins, in one sentence of the page's language."""
    steps: tuple[tuple[Step, str], ...]
    """The win check's steps as (step, state), state one of "passed", "decided", "not-reached"."""
    step: Step | None
    """The step that decided (or that leaves the game going on)."""


class SettlerForm(_RuleErrors, FlaskForm):
    """The table, the house rules and the end of one deal; fields are added per ruleset."""

    class Meta:
        csrf = False  # a GET form that changes nothing: there is nothing to forge

    shape = HiddenField()
    starts_asked: str | None = None
    """The sides whose starting scores the form has just begun to ask, in words."""

    def side_fields(self, prefix: str) -> list[Any]:
        """Return the per-side score fields with this prefix (`score`, `start`), in seat order."""
        return [field for name, field in self._fields.items() if name.startswith(prefix + "_")]

    def house_rule_fields(self) -> list[Any]:
        """Return the house-rule radio groups, in the ruleset's order."""
        return [field for name, field in self._fields.items() if name.startswith("hr_")]


def _choices(pairs: Iterable[tuple[str, object]]) -> list[SelectChoice]:
    return [SelectChoice(value, label) for value, label in pairs]


def _encode(value: object) -> str:
    """Return the form text of a house-rule value (booleans as true/false)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def player_names(count: int) -> list[str]:
    """Return the names the settler gives the seats: Player 1, Player 2 …"""
    return [_("Player %(n)s", n=seat + 1) for seat in range(count)]


def _int(given: str | None) -> int | None:
    """Return the whole number in `given` (a sign allowed, as large as a stored number), or None."""
    text = (given or "").strip().replace("\u2212", "-")
    sign, body = (text[0], text[1:]) if text[:1] in ("+", "-") else ("", text)
    number = params.whole_number(body)
    return None if number is None else -number if sign == "-" else number


class Table:
    """The shape of the settler's table: how many players, the house rules, the sides."""

    def __init__(self, ruleset: engine.Ruleset, args: Mapping[str, str]) -> None:
        self.ruleset = ruleset
        fixed = ruleset.min_players == ruleset.max_players
        wanted = _int(args.get("players"))
        if fixed:
            self.players = ruleset.min_players
        elif wanted is not None and ruleset.min_players <= wanted <= ruleset.max_players:
            self.players = wanted
        else:
            self.players = min(max(DEFAULT_PLAYERS, ruleset.min_players), ruleset.max_players)
        self.variable = not fixed
        self.house_rules: dict[str, Any] = {}
        for name, rule in ruleset.house_rules.items():
            by_text = {_encode(v): v for v in rule.values}
            self.house_rules[name] = by_text.get(args.get("hr_" + name, ""), rule.default)
        self.names = player_names(self.players)
        config = self.configure(self.house_rules)
        self.sides = config.teams() or tuple((seat,) for seat in range(self.players))
        self.teams = config.teams() is not None
        self.shaping = {
            name
            for name, rule in ruleset.house_rules.items()
            if len({self.configure({**self.house_rules, name: v}).teams() for v in rule.values}) > 1
        }
        """The house rules that change the table's sides (the teams), so redraw the form."""

    def configure(self, house_rules: Mapping[str, Any]) -> engine.GameConfig:
        """Return the engine's configuration of this table with these house rules."""
        return engine.configure(self.ruleset.id, self.names, 0, None, dict(house_rules))

    def end_scores(self, args: Mapping[str, str]) -> list[int] | None:
        """Return each seat's score at the end of the deal as the query gives it, or None."""
        values: list[int] = []
        for index in range(len(self.sides)):
            value = _int(args.get(f"score_{index}"))
            if value is None:
                return None
            values.append(value)
        seat_scores = [0] * self.players
        for side, value in zip(self.sides, values, strict=True):
            for seat in side:
                seat_scores[seat] = value
        return seat_scores

    def starts_needed(self, args: Mapping[str, str]) -> list[int]:
        """Return the sides whose score at the start of the deal the win check needs.

        The game's ruleset says which, from the scores at the end of the deal: none until
        those are entered.
        """
        end = self.end_scores(args) if args.get("shape") == self.key else None
        target = _int(args.get("target"))
        if end is None or target is None:
            return []
        try:
            config = engine.configure(
                self.ruleset.id, self.names, 0, target, dict(self.house_rules)
            )
        except engine.RuleViolation:
            return []  # the target is refused with its reason when the position is judged
        seats = set(self.ruleset.starting_scores_needed(config, end))
        return [index for index, side in enumerate(self.sides) if seats & set(side)]

    @property
    def key(self) -> str:
        """Return the shape as text, to tell when the form was drawn for another table."""
        return "-".join(".".join(str(seat) for seat in side) for side in self.sides)

    def side_name(self, side: Iterable[int]) -> str:
        """Return a side for people: a player's name, or the team's names joined."""
        return join_words([self.names[seat] for seat in side])


def build_form(ruleset: engine.Ruleset, args: Mapping[str, str]) -> tuple[SettlerForm, Table]:
    """Return the settler's form for the table the query asks for, and that table."""
    table = Table(ruleset, args)
    facts = ruleset.win_facts
    target_label = _l("Target score")

    class Form(SettlerForm):
        pass

    if table.variable:
        Form.players = RadioField(
            _l("Players at the table"),
            choices=_choices(
                (str(n), str(n)) for n in range(ruleset.min_players, ruleset.max_players + 1)
            ),
            validate_choice=False,
        )
    Form.target = StringField(target_label)
    for name, rule in ruleset.house_rules.items():
        field = RadioField(
            translate(rule.label) if rule.label else name.replace("_", " ").capitalize(),
            choices=_choices(
                (_encode(v), HOUSE_RULE_VALUE_LABELS.get(v, str(v))) for v in rule.values
            ),
            validate_choice=False,
            description=translate(rule.summary),
        )
        setattr(Form, "hr_" + name, field)
    for index, side in enumerate(table.sides):
        setattr(Form, f"score_{index}", StringField(table.side_name(side)))
    for index in table.starts_needed(args):
        setattr(Form, f"start_{index}", StringField(table.side_name(table.sides[index])))
    seats = [(str(seat), name) for seat, name in enumerate(table.names)]
    if engine.WinFact.BIDDER in facts:
        Form.bidder = RadioField(_l("Who bid"), choices=_choices(seats), validate_choice=False)
    if engine.WinFact.PARTNER in facts:
        Form.partner = RadioField(
            _l("Who partnered the bidder"),
            choices=_choices([*seats, (NONE, _("No partner"))]),
            validate_choice=False,
        )
    if engine.WinFact.MOON in facts:
        Form.moon = BooleanField(_l("The bidder shot the moon and took every point"))

    submitted = "shape" in args
    form = Form(formdata=args if submitted else None)
    if not submitted:
        form.target.data = str(ruleset.target)
        for name, value in table.house_rules.items():
            form["hr_" + name].data = _encode(value)
        if table.variable:
            form.players.data = str(table.players)
    form.shape.data = table.key
    return form, table


def settle(
    ruleset: engine.Ruleset, args: Mapping[str, str]
) -> tuple[SettlerForm, Table, Verdict | None, int]:
    """Judge the position in the query: return the form, the table, a Verdict or None, status.

    Nothing is judged when the form comes fresh or was drawn for another table (the number
    of players or the teams changed): the form is shown again in its new shape.
    """
    form, table = build_form(ruleset, args)
    if "shape" not in args or args.get("shape") != table.key:
        return form, table, None, 200
    reading = _Reading(form, table)
    target = reading.setup(ruleset, args)
    end = reading.by_seat(table.sides, reading.values("score"))
    asked = [int(field.short_name.split("_")[1]) for field in form.side_fields("start")]
    if asked and not any(f"start_{index}" in args for index in asked):
        # The win check needs the start of some sides: the form now asks for them.
        form.starts_asked = join_words([table.side_name(table.sides[i]) for i in asked])
        return form, table, None, 200
    start = None
    if asked:
        start = reading.by_seat([table.sides[index] for index in asked], reading.values("start"))
    facts = reading.facts()
    if start is not None:
        facts["starting_scores"] = start
    if reading.problems:
        form.add_rule_errors(reading.problems)
        return form, table, None, 422
    # Every seat has a side, and a side left without a score was a problem above.
    scores = [score for score in end if score is not None]
    try:
        config = engine.configure(ruleset.id, table.names, 0, target, dict(table.house_rules))
        last = engine.stand_in_deal(config, scores, **facts)
    except engine.RuleViolation as exc:
        # The starting scores are judged together (no deal makes them): said above the form.
        renamed = {
            ("score_0" if name == "scores" else None if name == "starting_scores" else name): m
            for name, m in exc.problems.items()
        }
        form.add_rule_errors(renamed)
        return form, table, None, 422
    outcome = config.ruleset.outcome(config, tuple(scores), last)
    return form, table, verdict(config, outcome), 200


class _Reading:
    """What the settler's form says, read field by field, with every problem found."""

    def __init__(self, form: SettlerForm, table: Table) -> None:
        self.form = form
        self.table = table
        self.problems: dict[str | None, list[str]] = {}

    def problem(self, name: str, message: str) -> None:
        """Note a problem with the field `name`."""
        self.problems.setdefault(name, []).append(message)

    def setup(self, ruleset: engine.Ruleset, args: Mapping[str, str]) -> int | None:
        """Check the table's size, the target and the house rules; return the target."""
        form = self.form
        if self.table.variable and _int(args.get("players")) != self.table.players:
            self.problem(
                "players",
                _(
                    "Choose how many sit at the table: %(min)s to %(max)s.",
                    min=ruleset.min_players,
                    max=ruleset.max_players,
                ),
            )
        target = _int(form.target.data)
        if target is None:
            self.problem(
                "target", _("Enter the target as a whole number, such as %(n)s.", n=ruleset.target)
            )
        for field in form.house_rule_fields():
            if field.data not in {c.value for c in field.choices}:
                self.problem(field.short_name, _("Choose one of the values offered."))
        return target

    def values(self, prefix: str) -> list[int | None]:
        """Return the whole number in each field with this prefix, noting those without."""
        found: list[int | None] = []
        for field in self.form.side_fields(prefix):
            value = _int(field.data)
            if not (field.data or "").strip():
                self.problem(
                    field.short_name, _("Enter the score of %(side)s.", side=field.label.text)
                )
            elif value is None:
                self.problem(
                    field.short_name,
                    _(
                        "Enter the score of %(side)s as a whole number, such as 21.",
                        side=field.label.text,
                    ),
                )
            found.append(value)
        return found

    def by_seat(
        self, sides: Sequence[tuple[int, ...]], found: Sequence[int | None]
    ) -> list[int | None]:
        """Return a score per seat from a score per side (None for a seat of no side given)."""
        seat_scores: list[int | None] = [None] * self.table.players
        for side, value in zip(sides, found, strict=True):
            for seat in side:
                seat_scores[seat] = value
        return seat_scores

    def facts(self) -> dict[str, Any]:
        """Return the bidder, partner and moon chosen, as the engine's stand-in deal takes them."""
        form = self.form
        facts: dict[str, Any] = {}
        for role in ("bidder", "partner"):
            if role not in form:
                continue
            text = form[role].data
            if role == "partner" and text in (None, NONE):
                continue
            seat = _int(text)
            if seat is None or not 0 <= seat < self.table.players:
                if text is None:
                    continue  # the engine says the bidder is needed
                message = (
                    _("Choose the bidder from the players at the table.")
                    if role == "bidder"
                    else _("Choose the partner from the players at the table, or No partner.")
                )
                self.problem(role, message)
            else:
                facts[role] = seat
        if "moon" in form:
            facts["moon"] = bool(form.moon.data)
        return facts


def verdict(config: engine.GameConfig, outcome: engine.Outcome) -> Verdict:
    """Return the settler's answer: who wins, and the step of the win check that decided."""
    names = [config.players[seat] for seat in outcome.winners]
    status = outcome.status
    if status == engine.Status.WON:
        headline = (
            _("%(name)s wins.", name=names[0])
            if len(names) == 1
            else _("%(names)s win.", names=join_words(names))
        )
    elif status == engine.Status.SHARED:
        headline = _("%(names)s share the win.", names=join_words(names))
    elif status == engine.Status.DRAWN:
        headline = _("The game is drawn.")
    elif outcome.open_tie:
        headline = _("Nobody has won yet: another deal is played.")
    else:
        headline = _("Nobody has won yet.")
    key = (
        outcome.decided_by.value
        if outcome.decided_by is not None
        else "shared"
        if outcome.open_tie
        else None
    )
    steps = win_steps(config.ruleset.id)
    decided = next((step for step in steps if step.decided_by == key), None)
    states: list[tuple[Step, str]] = []
    for step in steps:
        if decided is None:
            state = "not-reached"
        elif step.number < decided.number:
            state = "passed"
        elif step is decided:
            state = "decided"
        else:
            state = "not-reached"
        states.append((step, state))
    return Verdict(outcome, headline, tuple(states), decided)
