"""FlaskForm classes for the pages; they check shape only, the engine checks the rules."""

from flask_babel import LazyString
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import (
    FieldList,
    HiddenField,
    IntegerField,
    RadioField,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Length, Optional

from scorekeeper.web.i18n import translate

RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4")
BIDS = ("3", "4", "5", "6")
SUITS = ("S", "H", "D", "C")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {"S": _l("spades"), "H": _l("hearts"), "D": _l("diamonds"), "C": _l("clubs")}
RANK_NAMES = {"A": _l("ace"), "K": _l("king"), "Q": _l("queen"), "J": _l("jack")}
NONE = "none"
POINT_FIELDS = ("high", "low", "jack", "off_jack", "joker")
POINT_LABELS = {
    "high": _l("High"),
    "low": _l("Low"),
    "jack": _l("Jack"),
    "off_jack": _l("Off-jack"),
    "joker": _l("Joker"),
}
RANDOM = "random"
HOUSE_RULE_VALUE_LABELS = {
    True: _l("On"),
    False: _l("Off"),
    "play_on": _l("Play on"),
    "shared": _l("Share the win"),
}


def options(pairs):
    """Return (value, label) pairs as WTForms choices."""
    return [SelectChoice(value, label) for value, label in pairs]


def card_words(card):
    """Return a card in words, e.g. "king of hearts", for text alternatives."""
    if card == "JOKER":
        return str(_l("the joker"))
    rank, suit = card[:-1], card[-1]
    return f"{RANK_NAMES.get(rank, rank)} {_l('of')} {SUIT_NAMES[suit]}"


class _Radio(RadioField):
    """A radio group that may be left empty: the engine says what is missing."""

    def __init__(self, label=None, choices=(), **kwargs):
        super().__init__(label, validators=[Optional()], choices=options(choices), **kwargs)


class _RuleErrors:
    """Keep the engine's messages beside WTForms' own, keyed like the engine's fields."""

    # Engine fields shown by a control of their own that is not a form field of that name.
    shown_elsewhere = frozenset()

    def add_rule_errors(self, problems):
        """Add a RuleViolation's problems; any field without a control goes to the top."""
        errors = self.__dict__.setdefault("rule_errors", {})
        for name, messages in problems.items():
            if name is not None and name not in self._fields and name not in self.shown_elsewhere:
                name = None
            errors.setdefault(name, []).extend(translate(m) for m in messages)

    def errors_for(self, *names):
        """Return the form's and the engine's messages for these fields, in order."""
        rule_errors = self.__dict__.get("rule_errors", {})
        messages = []
        for name in names:
            if name is not None and name in self._fields:
                messages.extend(self[name].errors)
            messages.extend(rule_errors.get(name, ()))
        return messages


class NewGameForm(_RuleErrors, FlaskForm):
    """Start a game: ruleset, players in seat order, first dealer, target, house rules."""

    shown_elsewhere = frozenset({"house_rules"})

    ruleset = RadioField(_l("Ruleset"), validators=[InputRequired()])
    players = FieldList(StringField(_l("Player")), min_entries=5, max_entries=5)
    first_dealer = RadioField(_l("First dealer"), default=RANDOM, validators=[InputRequired()])
    target = IntegerField(_l("Target score"), validators=[Optional()])

    def setup(self, ruleset):
        """Fill the choices that depend on the ruleset."""
        for seat, entry in enumerate(self.players):
            entry.label.text = _l("Player %(n)s", n=seat + 1)
        self.first_dealer.choices = options(
            [(RANDOM, _l("Draw at random"))]
            + [(str(seat), _l("Player %(n)s", n=seat + 1)) for seat in range(len(self.players))]
        )
        if self.target.data is None and not self.is_submitted():
            self.target.data = ruleset.target
        return self

    def house_rule_fields(self):
        """Return the house-rule radio groups, in the ruleset's order."""
        return [field for name, field in self._fields.items() if name.startswith("hr_")]

    def to_request(self):
        """Return the create_game keyword arguments (no first dealer: the store draws one)."""
        players = [(entry.data or "").strip() for entry in self.players]
        dealer = self.first_dealer
        first_dealer = None if dealer.errors or dealer.data == RANDOM else int(dealer.data)
        house_rules = {
            field.short_name.removeprefix("hr_"): field.value_of(field.data)
            for field in self.house_rule_fields()
            if field.data is not None and not field.errors
        }
        return {
            "ruleset": self.ruleset.data,
            "players": players,
            "first_dealer": first_dealer,
            "target": None if self.target.errors else self.target.data,
            "house_rules": house_rules,
        }


class _HouseRuleField(RadioField):
    """A house rule's values as radios; values are sent as their JSON text."""

    def __init__(self, label, rule, **kwargs):
        choices = options((_encode(v), HOUSE_RULE_VALUE_LABELS.get(v, str(v))) for v in rule.values)
        super().__init__(label, choices=choices, default=_encode(rule.default), **kwargs)
        default = HOUSE_RULE_VALUE_LABELS.get(rule.default, str(rule.default))
        self.description = _l(
            "%(summary)s Default: %(default)s.",
            summary=LazyString(translate, rule.summary),
            default=default,
        )
        self._values = {_encode(v): v for v in rule.values}

    def value_of(self, data):
        """Return the house rule's value for the submitted text."""
        return self._values[data]


def _encode(value):
    """Return the form text for a house-rule value (booleans as true/false)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def new_game_form(rulesets, ruleset, **kwargs):
    """Return the new-game form with the ruleset choices and the ruleset's house rules."""

    class Form(NewGameForm):
        pass

    for name, rule in ruleset.house_rules.items():
        label = _l(name.replace("_", " ").capitalize())
        setattr(Form, f"hr_{name}", _HouseRuleField(label, rule, validators=[Optional()]))
    form = Form(**kwargs)
    form.ruleset.choices = options((r.id, r.name) for r in rulesets)
    if form.ruleset.data is None:
        form.ruleset.data = ruleset.id
    return form.setup(ruleset)


class DealForm(_RuleErrors, FlaskForm):
    """One deal of Five-Handed Schmier, every choice a radio group named like the engine's field."""

    shown_elsewhere = frozenset({"called_card", "game_points"})

    number = HiddenField()
    bidder = _Radio(_l("Bidder"))
    bid = _Radio(_l("Bid"), choices=[(b, b) for b in BIDS])
    trump = _Radio(_l("Trump"), choices=[(s, SUIT_NAMES[s]) for s in SUITS])
    called_rank = _Radio(_l("Rank"))
    called_suit = _Radio(_l("Suit"), choices=[(s, SUIT_NAMES[s]) for s in SUITS])
    partner = _Radio(_l("Partner"))
    high = _Radio(_l("High"))
    low = _Radio(_l("Low"))
    jack = _Radio(_l("Jack"))
    off_jack = _Radio(_l("Off-jack"))
    joker = _Radio(_l("Joker"))
    game = _Radio(
        _l("Game"),
        choices=[("bidders", _l("Bidders")), ("opponents", _l("Opponents")), ("none", _l("Tie"))],
    )
    game_bidders = IntegerField(_l("Bidding side's count"), validators=[Optional()])
    game_opponents = IntegerField(_l("Other side's count"), validators=[Optional()])
    auction = FieldList(_Radio(choices=[(NONE, _l("Pass"))] + [(b, b) for b in BIDS]))

    def setup(self, players, dealer, *, joker_callable=False, number=None):
        """Fill the choices from the players, and the auction in speaking order."""
        seats = [(str(seat), name) for seat, name in enumerate(players)]
        self.players = list(players)
        self.bidder.choices = options(seats)
        self.partner.choices = options([*seats, (NONE, _l("No partner"))])
        for name in POINT_FIELDS:
            self[name].choices = options(seats)
        ranks = [(r, r) for r in RANKS]
        if joker_callable:
            ranks.append(("JOKER", _l("Joker")))
        self.called_rank.choices = options([*ranks, (NONE, _l("No card called (alone)"))])
        while len(self.auction) < len(players):
            self.auction.append_entry()
        n = len(players)
        self.speakers = [(dealer + 1 + i) % n for i in range(n)]
        for entry, seat in zip(self.auction, self.speakers, strict=True):
            entry.label.text = players[seat]
        if number is not None and not self.number.data:
            self.number.data = str(number)
        return self

    def to_entry(self):
        """Return the API entry dict for what was chosen; unchosen fields are left out."""
        entry = {}
        if self.number.data and self.number.data.isdigit():
            entry["number"] = int(self.number.data)
        for name in ("bidder", *POINT_FIELDS):
            if self[name].data is not None:
                entry[name] = int(self[name].data)
        if self.bid.data is not None:
            entry["bid"] = int(self.bid.data)
        if self.trump.data is not None:
            entry["trump"] = self.trump.data
        rank, suit = self.called_rank.data, self.called_suit.data
        if rank == "JOKER":
            entry["called_card"] = "JOKER"
        elif rank not in (None, NONE):
            entry["called_card"] = rank + (suit or "")
        if self.partner.data not in (None, NONE):
            entry["partner"] = int(self.partner.data)
        if self.game.data is not None:
            entry["game"] = self.game.data
        counts = (self.game_bidders.data, self.game_opponents.data)
        if counts != (None, None):
            entry["game_points"] = {"bidders": counts[0], "opponents": counts[1]}
        auction = self.auction_list()
        if auction is not None:
            entry["auction"] = auction
        return entry

    def auction_list(self):
        """Return the auction as the API wants it, or None when nobody's call was entered.

        Calls not entered before the last one entered count as passes; after the last one
        the list runs to every player unless it ended on a 6.
        """
        calls = [entry.data for entry in self.auction]
        given = [i for i, call in enumerate(calls) if call is not None]
        if not given:
            return None
        last = given[-1]
        result = [None if c in (None, NONE) else int(c) for c in calls[: last + 1]]
        if result[-1] != 6:
            result += [None] * (len(calls) - len(result))
        return result

    def fill_from(self, entry):
        """Preset the radios from a stored entry (for a correction)."""
        for name in ("bidder", "bid", "trump", "game", *POINT_FIELDS):
            if entry.get(name) is not None:
                self[name].data = str(entry[name])
        card = entry.get("called_card")
        if card == "JOKER":
            self.called_rank.data = "JOKER"
        elif card:
            self.called_rank.data, self.called_suit.data = card[:-1], card[-1]
        else:
            self.called_rank.data = NONE
        self.partner.data = NONE if entry.get("partner") is None else str(entry["partner"])
        counts = entry.get("game_points")
        if counts:
            self.game_bidders.data = counts.get("bidders")
            self.game_opponents.data = counts.get("opponents")
        for field, call in zip(self.auction, entry.get("auction") or (), strict=False):
            field.data = NONE if call is None else str(call)


class ThrownInForm(_RuleErrors, FlaskForm):
    """Everyone passed: the deal is thrown in and the same dealer deals again."""

    number = HiddenField()


class ConfirmForm(_RuleErrors, FlaskForm):
    """A button-only action (undo) that still carries the CSRF token without JavaScript."""


class TableForm(_RuleErrors, FlaskForm):
    """Name a new table and, if wished, its regulars."""

    name = StringField(_l("Table name"), validators=[InputRequired(), Length(max=80)])
    regulars = TextAreaField(_l("Regular players (optional, one per line)"))


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
