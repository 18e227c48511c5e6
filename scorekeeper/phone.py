"""The engine on the scorekeeper's phone: what the page's Pyodide worker calls.

Standard library and `scorekeeper.engine` only: static/phone-worker.js loads this module,
with the engine package and the compiled catalogs, into Pyodide (the bundle is made from
these very files by scorekeeper/web/offline.py), so the phone scores a deal with the
server's own rules. It takes a game as its JSON export holds it (ruleset, players, first
dealer, target, house rules, each deal's entry) and the deal form's fields as the page
would post them, and answers what the server's preview and game page would say: the
preview line and its "why this score", or the refusals, and the scores, dealer and outcome
after the deals kept on the phone.

The form's fields are read as scorekeeper/web/forms.py's deal form reads them (one control
per entry field the ruleset describes, named like it); the sides and their labels come from
the engine for both (`engine.scoring_sides`).
"""

from __future__ import annotations

import gettext
import io
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scorekeeper import engine
from scorekeeper.engine import (
    FieldKind,
    Message,
    Suit,
    house_rule_text,
    scoring_sides,
)

NONE = "none"
"""The form value of a blank choice (no partner, not in play, a pass, a tie)."""
SUITS = tuple(str(suit) for suit in Suit)
Taps = Mapping[str, Sequence[str]]
"""A form's fields as posted: each name with its values, in order."""


# --- the page's language -------------------------------------------------------------------


class Language:
    """The page's language: a compiled catalog (or none, for English) and engine messages."""

    def __init__(self, catalog: bytes | None = None) -> None:
        self.catalog: gettext.NullTranslations = (
            gettext.GNUTranslations(io.BytesIO(catalog)) if catalog else gettext.NullTranslations()
        )

    def __call__(self, template: str, **values: Any) -> str:
        """Return a page text in this language, filled in as the templates fill it."""
        text = self.catalog.gettext(template)
        return text % values if values else text

    def plural(self, singular: str, plural: str, num: int) -> str:
        """Return the singular or plural text for `num`, with `num` filled in."""
        return self.catalog.ngettext(singular, plural, num) % {"num": num}

    def message(self, value: Message | str | None) -> str:
        """Return an engine message in this language (scorekeeper/web/i18n.py's `translate`)."""
        if isinstance(value, Message):
            return engine.render(value, self._lookup, self.join)
        return "" if value is None else str(value)

    def _lookup(self, template: str) -> str:
        return self.catalog.gettext(template) if template else template

    def join(self, words: Sequence[str]) -> str:
        """Join words for a sentence in this language: "Ann, Bob and Cy"."""
        words = list(words)
        if len(words) <= 1:
            return "".join(words)
        return self("%(list)s and %(last)s", list=", ".join(words[:-1]), last=words[-1])


# --- the deal form's fields, read as the server reads them ---------------------------------


class Unreadable(ValueError):
    """A field the form sent in a shape the engine cannot be asked about (its message)."""


@dataclass
class DealControls:
    """How a game's deal form names its controls: built from the ruleset's entry fields."""

    config: engine.GameConfig
    described: tuple[engine.EntryField, ...]
    values: dict[str, dict[str, Any]] = field(default_factory=dict)
    special_cards: dict[str, set[str]] = field(default_factory=dict)
    count_keys: dict[str, list[Any] | None] = field(default_factory=dict)
    rows: dict[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, config: engine.GameConfig) -> DealControls:
        """Return the form of this game (scorekeeper/web/forms.py `_deal_form_class`)."""
        rules = config.ruleset
        form = cls(config, tuple(rules.entry_fields(config)))
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
        return next((name for name in flags if _first(taps, name)), None)

    def read(
        self, taps: Taps, flag: str | None = None
    ) -> tuple[dict[str, Any], list[tuple[str, dict[str, Any]]]]:
        """Return the entry the fields make (unchosen ones left out) and the shape problems.

        The problems are message templates with their values, in the form's order: the
        deal number first, then each field's.
        """
        entry: dict[str, Any] = {}
        problems: list[tuple[str, dict[str, Any]]] = []
        number = _first(taps, "number") or ""
        if number.isascii() and number.isdigit():
            entry["number"] = int(number)
        elif number:
            problems.append(
                ("The page sent a deal number that is not a number: reload the page.", {})
            )
        if flag is not None:
            entry[flag] = True
            return entry, problems
        for described in self.described:
            try:
                value = self._value_of(described, taps)
            except Unreadable as problem:
                problems.append((problem.args[0], problem.args[1]))
                continue
            if value is not None:
                entry[described.name] = value
        return entry, problems

    def _value_of(self, described: engine.EntryField, taps: Taps) -> Any:
        kind, name = described.kind, described.name
        if kind == FieldKind.FLAG:
            return None
        if kind == FieldKind.CARD:
            rank = _first(taps, f"{name}_rank")
            if rank in (None, "", NONE):
                return None
            if rank in self.special_cards[name]:
                return rank
            return rank + (_first(taps, f"{name}_suit") or "")
        if kind == FieldKind.COUNTS:
            counts = [_integer(_first(taps, f"{name}-{i}")) for i in range(self.rows[name])]
            counted = self._counted(described, taps)
            if counted is not None and all(c is None for c in counts):
                counts = list(counted)
            if all(c is None for c in counts):
                return None
            if any(c is None for c in counts):
                raise Unreadable("Enter every count, or leave them all empty.", {})
            if counted is not None and tuple(counts) != counted:
                raise Unreadable(
                    "The cards tapped add up to %(counted)s, not the counts typed: "
                    "change the cards or clear the counts.",
                    {"counted": ", ".join(str(c) for c in counted)},
                )
            keys = self.count_keys[name]
            return dict(zip(keys, counts, strict=True)) if keys else counts
        if kind == FieldKind.AUCTION:
            return self._auction(described, taps)
        data = _first(taps, name)
        return None if data in (None, "") else self.values[name].get(data)

    def _counted(self, described: engine.EntryField, taps: Taps) -> tuple[int, ...] | None:
        """Return each side's count from the card counter's taps, None if no card was tapped.

        As forms.py's `DealForm.counted`: the engine adds up the ruleset's card values.
        """
        sides = self.rows[described.name]
        taken: dict[engine.Card, int] = {}
        for value in described.card_values:
            side = _first(taps, f"{described.name}_took_{value.card}")
            if side in (None, "", NONE):
                continue
            if not (side.isascii() and side.isdigit()) or int(side) >= sides:
                raise Unreadable(
                    "This form holds a value it does not offer. "
                    "Reload the page and enter it again.",
                    {},
                )
            taken[value.card] = int(side)
        return engine.add_up(described.card_values, taken, sides) if taken else None

    def _auction(self, described: engine.EntryField, taps: Taps) -> list[Any] | None:
        name = described.name
        values = self.values[name]
        posted = [_first(taps, f"{name}-{i}") for i in range(self.rows[name])]
        posted = [None if data == "" else data for data in posted]
        calls = [None if data in (None, NONE) else values.get(data) for data in posted]
        entered = [i for i, data in enumerate(posted) if data is not None]
        if described.blank is not None and _checked(_first(taps, f"{name}_passed")):
            if any(call is not None for call in calls):
                raise Unreadable(
                    "You marked that everyone passed, but the auction has a bid: clear one.", {}
                )
            return [None] * len(posted)
        if not entered:
            return None
        result = calls[: entered[-1] + 1]
        top = described.choices[-1].value if described.choices else None
        if result[-1] != top:
            result += [None] * (len(posted) - len(result))
        return result


def _first(taps: Taps, name: str) -> str | None:
    values = taps.get(name)
    return values[0] if values else None


def _integer(text: str | None) -> int | None:
    """Return a count box's number, None when empty (WTForms' IntegerField, Optional)."""
    if text is None or not text.strip():
        return None
    try:
        return int(text)
    except ValueError:
        raise Unreadable("Not a valid integer value.", {}) from None


def _checked(text: str | None) -> bool:
    """Return whether a check box was sent ticked (WTForms' BooleanField)."""
    return text not in (None, "", "false")


# --- a game on the phone ------------------------------------------------------------------


class KeptGame:
    """A game as the server stored it, and the deals kept on this phone after it."""

    def __init__(self, document: Mapping[str, Any], words: Language) -> None:
        self.words = words
        self.config = engine.configure(
            ruleset=document["ruleset"],
            players=list(document["players"]),
            first_dealer=document["first_dealer"],
            target=document.get("target"),
            house_rules=dict(document.get("house_rules") or {}),
        )
        self.form = DealControls.of(self.config)
        self.sides = scoring_sides(self.config)
        self.stored = engine.new_game(self.config)
        for deal in document.get("deals", ()):
            self.stored = engine.apply_deal(
                self.stored, engine.parse_entry(self.config, deal["entry"])
            )

    def entry(self, taps: Taps, *, flags: bool) -> tuple[engine.Entry | None, list[str]]:
        """Return the entry a save of these fields sends, or (None and) the problems."""
        flag = self.form.flag_posted(taps) if flags else None
        raw, problems = self.form.read(taps, flag)
        if problems:
            return None, [self.words(template, **values) for template, values in problems]
        raw.pop("number", None)
        try:
            return engine.parse_entry(self.config, raw), []
        except engine.RuleViolation as exc:
            return None, self._messages(exc)

    def _messages(self, exc: engine.RuleViolation) -> list[str]:
        return [self.words.message(m) for ms in exc.problems.values() for m in ms]

    def fields_at_fault(self, exc: engine.RuleViolation) -> dict[str, list[str]]:
        """Return the refusals by the form field they belong beside ("" for the top)."""
        names = {f.name for f in self.form.described}
        found: dict[str, list[str]] = {}
        for name, messages in exc.problems.items():
            key = name if name in names else ""
            found.setdefault(key, []).extend(self.words.message(m) for m in messages)
        return found

    def preview(self, state: engine.GameState, taps: Taps) -> dict[str, Any]:
        """Return what the server's preview says for these fields after `state`."""
        raw, problems = self.form.read(taps)
        if problems:
            shown = [self.words(template, **values) for template, values in problems]
            return self._problems(shown)
        raw.pop("number", None)
        if not raw:
            return {"kind": "none"}
        try:
            after = engine.apply_deal(state, engine.parse_entry(self.config, raw))
        except engine.RuleViolation as exc:
            return self._problems(self._messages(exc))
        assert after.last is not None
        return self.result(after.last)

    def _problems(self, problems: list[str]) -> dict[str, Any]:
        # templates/games/_preview.html shows the first problem and counts the rest.
        more = None
        if len(problems) > 1:
            more = self.words.plural(
                "and %(num)s more thing to enter",
                "and %(num)s more things to enter",
                len(problems) - 1,
            )
        return {"kind": "problems", "problems": problems[:1], "more": more}

    def result(self, result: engine.DealResult) -> dict[str, Any]:
        """Return the preview of a deal scored (the template games/_preview.html's words)."""
        words = self.words
        thrown_in = str(result.kind) == "thrown_in"
        bidders = set(result.bidders or ())
        return {
            "kind": "result",
            "if_saved": words("If saved:"),
            "thrown_in": words("Everyone passed: thrown in.") if thrown_in else None,
            "made": bool(result.made),
            "said": words.message(self.config.ruleset.contract_words.said(result.made)),
            "sides": [
                {
                    "label": label,
                    "delta": f"{result.deltas[seats[0]]:+d}",
                    "to": words("to %(n)s", n=result.scores[seats[0]]),
                    "on_bid": bool(set(seats) & bidders),
                }
                for label, seats in self.sides
            ],
            "why_title": words("Why this score"),
            "why": [words.message(m) for m in engine.explain_deal(self.config, result)],
            "dealt_by": words("dealt by %(name)s", name=self.config.players[result.dealer]),
        }

    def play(self, kept: Sequence[Taps]) -> dict[str, Any]:
        """Return the game after the deals kept on the phone, as far as the rules take them.

        Each kept deal's score, or the refusals of the first one the rules refuse (the
        deals after it are not scored: the server would hold them back too).
        """
        state = self.stored
        deals: list[dict[str, Any]] = []
        for taps in kept:
            entry, problems = self.entry(taps, flags=True)
            number = state.deal_count + 1
            if entry is None:
                deals.append({"number": number, "refused": problems})
                break
            try:
                state = engine.apply_deal(state, entry)
            except engine.RuleViolation as exc:
                deals.append({"number": number, "refused": self._messages(exc)})
                break
            assert state.last is not None
            deals.append({"number": number, "result": self.result(state.last)})
        return {"deals": deals, **self.board(state)}

    def board(self, state: engine.GameState) -> dict[str, Any]:
        """Return the scores, the next dealer and the outcome after `state`."""
        words = self.words
        last = state.last
        outcome = state.outcome
        dealer = state.next_dealer
        players = self.config.players
        first = self.config.ruleset.first_speaker(self.config, dealer)
        seats = self.config.seats
        return {
            "number": state.deal_count + 1,
            "dealer": players[dealer],
            "dealer_line": words("%(name)s deals next", name=players[dealer]),
            # The deal form's whose-turn line and its auction's rows, in speaking order
            # (templates/games/_turn.html, scorekeeper/web/forms.py `speakers`).
            "turn": words(
                "%(dealer)s deals · %(first)s bids first",
                dealer=players[dealer],
                first=players[first],
            ),
            "speakers": [players[(first + i) % seats] for i in range(seats)],
            "sides": [
                {
                    "label": label,
                    "score": state.scores[seats[0]],
                    "delta": None if last is None else f"{last.deltas[seats[0]]:+d}",
                    "dealer": dealer in seats,
                    "winner": bool(set(seats) & set(outcome.winners)),
                }
                for label, seats in self.sides
            ],
            "finished": outcome.finished,
            "outcome": words.message(outcome.explanation),
        }


# --- what the worker calls (JSON in, JSON out) ---------------------------------------------


class Phone:
    """The games this worker holds, by id, in the page's language."""

    def __init__(self, catalog: bytes | None = None) -> None:
        self.words = Language(catalog)
        self.games: dict[str, KeptGame] = {}

    def load(self, document: str) -> str:
        """Take a game's JSON export (`/games/<id>/export.json`); answer its state as stored."""
        data = json.loads(document)
        if "games" in data:  # the export file: one game in it
            data = data["games"][0]
        game = KeptGame(data, self.words)
        self.games[str(data["id"])] = game
        return json.dumps(game.board(game.stored))

    def preview(self, game_id: str, kept: str, taps: str) -> str:
        """Answer the preview of the form's fields, after the deals kept on the phone."""
        game = self.games[game_id]
        state = _after(game, _taps_list(kept))
        if state is None:
            return json.dumps({"kind": "none"})
        return json.dumps(game.preview(state, _taps(json.loads(taps))))

    def play(self, game_id: str, kept: str) -> str:
        """Answer the game after the deals kept on the phone (scores, dealer, outcome)."""
        return json.dumps(self.games[game_id].play(_taps_list(kept)))

    def check(self, game_id: str, kept: str, taps: str) -> str:
        """Answer whether the form's deal may be kept after the deals kept, else why not.

        The refusals are given by the form field they belong beside, as the server's
        form shows them after a refused save.
        """
        game = self.games[game_id]
        state = _after(game, _taps_list(kept))
        if state is None:
            return json.dumps({"ok": True, "fields": {}})
        posted = _taps(json.loads(taps))
        entry, problems = game.entry(posted, flags=True)
        if entry is None:
            return json.dumps({"ok": False, "fields": {"": problems}})
        try:
            engine.check_deal(state, entry)
        except engine.RuleViolation as exc:
            return json.dumps({"ok": False, "fields": game.fields_at_fault(exc)})
        return json.dumps({"ok": True, "fields": {}})

    def made_here(self, game_id: str, setup: str) -> str:
        """Take a game started on this phone, its new-game form's fields as kept (static/
        kept-games.js); answer its state, as `load` does for a game the server stores."""
        document = {"id": game_id, **setup_of(_taps(json.loads(setup))), "deals": []}
        game = KeptGame(document, self.words)
        self.games[game_id] = game
        return json.dumps(game.board(game.stored))


def setup_of(taps: Taps) -> dict[str, Any]:
    """Return a game's setup from the new-game form's fields, as scorekeeper/web/forms.py's
    NewGameForm reads them (names in seat order, empty optional seats at the end left out;
    a target left empty or as shown is the game's own; house rules sent as their JSON text).
    """
    rules = engine.get_ruleset(_first(taps, "ruleset") or "")
    names = [(_first(taps, f"players-{seat}") or "").strip() for seat in range(rules.max_players)]
    while len(names) > rules.min_players and not names[-1]:
        names.pop()
    dealer = _first(taps, "first_dealer") or ""
    typed = (_first(taps, "target") or "").strip()
    target = (
        int(typed)
        if typed.isascii() and typed.isdigit() and typed != (_first(taps, "target_shown") or "")
        else rules.target
    )
    house_rules: dict[str, Any] = {}
    for name, rule in rules.house_rules.items():
        sent = _first(taps, f"hr_{name}")
        house_rules[name] = next(
            (v for v in rule.values if house_rule_text(v) == sent), rule.default
        )
    return {
        "ruleset": rules.id,
        "players": names,
        "first_dealer": int(dealer) if dealer.isascii() and dealer.isdigit() else 0,
        "target": target,
        "house_rules": house_rules,
    }


def _after(game: KeptGame, kept: Sequence[Taps]) -> engine.GameState | None:
    """Return the state after every kept deal, or None if the rules refuse one of them."""
    state = game.stored
    for taps in kept:
        entry, _problems = game.entry(taps, flags=True)
        if entry is None or not engine.can_deal(state, entry):
            return None
        state = engine.apply_deal(state, entry)
    return state


def _taps(pairs: Iterable[Sequence[str]]) -> dict[str, list[str]]:
    """Return a form's fields from its [name, value] pairs, as the page's FormData gives."""
    taps: dict[str, list[str]] = {}
    for name, value in pairs:
        taps.setdefault(name, []).append(value)
    return taps


def _taps_list(kept: str) -> list[dict[str, list[str]]]:
    return [_taps(pairs) for pairs in json.loads(kept)]


def start(catalog: bytes | None = None) -> Phone:
    """Return the worker's phone, in the language of this compiled catalog."""
    return Phone(catalog)
