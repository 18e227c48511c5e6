"""The engine on the scorekeeper's phone: what the page's Pyodide worker calls.

The standard library, `scorekeeper.engine`, `scorekeeper.deal_entry` and `scorekeeper.words`
(with Jinja2 and MarkupSafe) only: templates/offline/phone-worker.js loads this module, with
the engine package, the deal form's reading, the compiled catalogs, the templates it renders
and Jinja2's and MarkupSafe's pure-Python sources, into Pyodide (the bundle is made from
these very files by scorekeeper/web/offline.py), so the phone scores a deal with the
server's own rules. It takes a game as its JSON export holds it (ruleset, players, first
dealer, target, house rules, each deal's entry) and the deal form's fields as the page would
post them, and answers what the server's preview and game page would say: the preview,
rendered from the server's own template (templates/games/_preview.html) with the context the
server's preview builds (`words.preview_context`), the refusals of a Save as the server's
macros list them, the scores, dealer and outcome after the deals kept on the phone, and
each deal kept (or stored but missing from a page kept before it) as the game's history
shows it (templates/games/_deal.html, with `words.deal_view`).

The form's fields are read by the very code the server's deal form reads them with
(scorekeeper/deal_entry.py: the entry they make, their shape problems, which fields hold
something); the sides and their labels come from the engine for both
(`engine.scoring_sides`).
"""

from __future__ import annotations

import functools
import gettext
import io
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from scorekeeper import engine, words
from scorekeeper.deal_entry import DealControls, Reading, Taps, first
from scorekeeper.engine import Message, house_rule_text, scoring_sides

RECENT = 10
"""How many of a game's last deals `load` scores for the history of a page kept before them."""


# --- the page's language -------------------------------------------------------------------


class Language:
    """The page's language: a compiled catalog (or none, for English) and engine messages."""

    def __init__(self, catalog: bytes | None = None, forms: bytes | None = None) -> None:
        self.catalog: gettext.NullTranslations = (
            gettext.GNUTranslations(io.BytesIO(catalog)) if catalog else gettext.NullTranslations()
        )
        if forms:  # WTForms' own messages in this language, as Flask-WTF gives the pages
            self.catalog.add_fallback(gettext.GNUTranslations(io.BytesIO(forms)))
        self.templates = words.templates(self.catalog)

    def render(self, template: str, context: Mapping[str, Any]) -> str:
        """Return one of the app's templates rendered in this language (as the server would)."""
        return self.templates.get_template(template).render(context)

    def macro(self, name: str, *args: Any, template: str = "macros/forms.html") -> str:
        """Return one of a macros template's macros rendered (as the pages call it)."""
        return str(getattr(self.templates.get_template(template).module, name)(*args))

    def line(self, name: str, *args: Any) -> str:
        """Return one of templates/macros/game.html's lines, as HTML (as the pages have it)."""
        return self.macro(name, *args, template="macros/game.html")

    def __call__(self, template: str, **values: Any) -> str:
        """Return a page text in this language, filled in as the templates fill it."""
        text = self.catalog.gettext(template)
        return text % values if values else text

    def plural(self, singular: str, plural: str, num: int) -> str:
        """Return the singular or plural text for `num`, with `num` filled in."""
        return self.catalog.ngettext(singular, plural, num) % {"num": num}

    def message(self, value: Message | str | None) -> str:
        """Return an engine message in this language (the pages' `t` filter, one function)."""
        return words.translate(self.catalog, value)


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
        self.results: list[engine.DealResult] = []
        """Every deal stored, scored: the last ones are what `recent` shows."""
        for deal in document.get("deals", ()):
            self.stored = engine.apply_deal(
                self.stored, engine.parse_entry(self.config, deal["entry"])
            )
            assert self.stored.last is not None  # a deal was just applied
            self.results.append(self.stored.last)

    def entry(self, taps: Taps, *, flags: bool) -> tuple[engine.Entry | None, list[str]]:
        """Return the entry a save of these fields sends, or (None and) the problems."""
        flag = self.form.flag_posted(taps) if flags else None
        return self.entry_of(self.form.read(taps, flag))

    def entry_of(self, read: Reading) -> tuple[engine.Entry | None, list[str]]:
        """Return the entry of fields already read, or (None and) the problems."""
        if read.problems:
            return None, [m for ms in self._said(read).values() for m in ms]
        raw = {name: value for name, value in read.entry.items() if name != "number"}
        try:
            return engine.parse_entry(self.config, raw), []
        except engine.RuleViolation as exc:
            return None, self._messages(exc)

    def _said(self, read: Reading) -> dict[str | None, list[str]]:
        """Return the shape problems of the fields read, in this language."""
        return {
            name: [self.words.message(problem) for problem in problems]
            for name, problems in read.problems.items()
        }

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

    def preview(self, state: engine.GameState, taps: Taps) -> str:
        """Return the server's preview of these fields after `state`: its very template,
        given the context the server's preview view builds."""
        read = self.form.read(taps)
        read.entry.pop("number", None)
        said = self._said(read)
        # The server's preview lists the form's problems and each entry field's (not those
        # of a count's box on its own).
        names = (None, *(f.name for f in self.form.described))
        context = words.preview_context(
            state,
            self.form.described,
            read.entry,
            {name: said[name] for name in names if name in said} if read.problems else None,
            read.opened,
            self.words.catalog,
        )
        return self.words.render("games/_preview.html", context)

    def refusals(self, fields: Mapping[str, Sequence[str]]) -> dict[str, Any]:
        """Return refusals by field as the server's form lists them after a refused Save:
        each field's beside it (the `error_list` macro), the rest above the form
        (`form_errors`)."""
        return {
            "ok": False,
            "fields": {
                name: self.words.macro("error_list", list(said), f"{name}-errors")
                for name, said in fields.items()
                if name
            },
            "top": self.words.macro("form_errors", _Said(fields.get("", ()))),
        }

    def score(self, scored: Mapping[str, Any]) -> str:
        """Return what a deal kept on this phone scored, and why (`words.scored_context`):
        templates/games/_preview.html as the server's preview renders a deal's score, said
        as kept, not "if saved"."""
        context = {"ruleset": self.config.ruleset, "kept": True, **scored}
        return self.words.render("games/_preview.html", context)

    def history_item(self, result: engine.DealResult, why: Sequence[Message], *, kept: bool) -> str:
        """Return a deal as the game's history shows it, with why it scored so:
        templates/games/_deal.html with the server's own view of it (`words.deal_view`), as
        a browser without edit rights sees it; a deal `kept` on this phone says it is not
        sent yet."""
        context = {
            "d": words.deal_view(self.config, self.sides, result, self.words.catalog),
            "ruleset": self.config.ruleset,
            "why": {result.number: why},
            "can_edit": False,
            "kept": kept,
            "id_prefix": "kept-" if kept else "learnt-",
        }
        return self.words.render("games/_deal.html", context)

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
            scored = words.scored_context(self.config, state.last)
            deals.append(
                {
                    "number": number,
                    "score": self.score(scored),
                    "html": self.history_item(state.last, scored["why"], kept=True),
                }
            )
        board = self.board(state)
        return {
            "deals": deals,
            **board,
            "board_html": self.words.render("games/_phone_board.html", board),
        }

    def board(self, state: engine.GameState) -> dict[str, Any]:
        """Return the scores, the next dealer and the outcome after `state`."""
        words = self.words
        last = state.last
        outcome = state.outcome
        dealer = state.next_dealer
        players = self.config.players
        first = self.config.ruleset.first_speaker(self.config, dealer)
        seats = self.config.seats
        number = state.deal_count + 1
        return {
            "number": number,
            "dealer": players[dealer],
            "dealer_seat": dealer,
            "dealer_line": words("%(name)s deals next", name=players[dealer]),
            # The deal form's whose-turn line and its auction's rows, in speaking order
            # (templates/games/_turn.html, scorekeeper/web/forms.py `speakers`).
            "turn": words.line("turn_line", players[dealer], players[first]),
            "speakers": [players[(first + i) % seats] for i in range(seats)],
            "speaker_seats": [(first + i) % seats for i in range(seats)],
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
            # The scoreboard's line under its title (templates/games/_scoreboard.html).
            "meta": words.line("standing", self.config.target, number, outcome.finished),
        }

    def recent(self, count: int) -> list[dict[str, Any]]:
        """Return the last `count` deals stored, each as the game's history shows it (as
        `play` shows a kept one, but not said to be kept)."""
        first = max(len(self.results) - count, 0)
        return [
            {
                "number": first + index + 1,
                "html": self.history_item(
                    result, engine.explain_deal(self.config, result), kept=False
                ),
            }
            for index, result in enumerate(self.results[first:])
        ]


# --- what the worker calls (JSON in, JSON out) ---------------------------------------------


class Phone:
    """The games this worker holds, by id, in the page's language."""

    def __init__(
        self, catalog: bytes | memoryview | None = None, forms: bytes | memoryview | None = None
    ) -> None:
        # The worker hands each catalog as Pyodide makes a Uint8Array: a memoryview of a
        # writable buffer, which has no hash; as bytes, each language is made once.
        self.words = language(bytes(catalog) if catalog else None, bytes(forms) if forms else None)
        self.games: dict[str, KeptGame] = {}

    def load(self, document: str) -> str:
        """Take a game's JSON export (`/games/<id>/export.json`); answer its state as stored,
        with its last deals scored (`recent`: what a page kept before them lacks)."""
        data = json.loads(document)
        if "games" in data:  # the export file: one game in it
            data = data["games"][0]
        game = KeptGame(data, self.words)
        self.games[str(data["id"])] = game
        return json.dumps({**game.board(game.stored), "recent": game.recent(RECENT)})

    def preview(self, game_id: str, kept: str, taps: str) -> str:
        """Answer the preview of the form's fields, after the deals kept on the phone: the
        HTML of templates/games/_preview.html, as the server's preview answers it."""
        game = self.games[game_id]
        state = _after(game, _taps_list(kept))
        if state is None:
            return ""
        return game.preview(state, _taps(json.loads(taps)))

    def play(self, game_id: str, kept: str) -> str:
        """Answer the game after the deals kept on the phone (scores, dealer, outcome)."""
        return json.dumps(self.games[game_id].play(_taps_list(kept)))

    def check(self, game_id: str, kept: str, taps: str) -> str:
        """Answer whether the form's deal may be kept after the deals kept, else why not.

        The refusals are given as HTML by the form field they belong beside ("fields"), and
        those of no field ("top"), as the server's form shows them after a refused save.
        """
        game = self.games[game_id]
        state = _after(game, _taps_list(kept))
        if state is None:
            return json.dumps({"ok": True, "fields": {}, "top": ""})
        posted = _taps(json.loads(taps))
        read = game.form.read(posted, game.form.flag_posted(posted))
        if read.problems:  # each beside its field, as the server's form says them
            said = game._said(read)
            return json.dumps(game.refusals({name or "": said[name] for name in said}))
        entry, problems = game.entry_of(read)
        if entry is None:
            return json.dumps(game.refusals({"": problems}))
        try:
            engine.check_deal(state, entry)
        except engine.RuleViolation as exc:
            return json.dumps(game.refusals(game.fields_at_fault(exc)))
        return json.dumps({"ok": True, "fields": {}, "top": ""})

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
    rules = engine.get_ruleset(first(taps, "ruleset") or "")
    names = [(first(taps, f"players-{seat}") or "").strip() for seat in range(rules.max_players)]
    while len(names) > rules.min_players and not names[-1]:
        names.pop()
    dealer = first(taps, "first_dealer") or ""
    typed = (first(taps, "target") or "").strip()
    target = (
        int(typed)
        if typed.isascii() and typed.isdigit() and typed != (first(taps, "target_shown") or "")
        else rules.target
    )
    house_rules: dict[str, Any] = {}
    for name, rule in rules.house_rules.items():
        sent = first(taps, f"hr_{name}")
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


class _Said:
    """Messages of no field, as templates/macros/forms.html's `form_errors` asks a form."""

    def __init__(self, messages: Sequence[str]) -> None:
        self.messages = list(messages)

    def errors_for(self, *names: str | None) -> list[str]:
        return self.messages if None in names else []


@functools.cache
def language(catalog: bytes | None = None, forms: bytes | None = None) -> Language:
    """Return the language of these catalogs, its templates compiled: at the worker's start,
    in the background, rather than at the first tap, and once for every Phone of this process
    in that language (a Language is never changed once made)."""
    made = Language(catalog, forms)
    for template in words.PHONE_TEMPLATES:
        made.templates.get_template(template)
    return made


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


def start(
    catalog: bytes | memoryview | None = None, forms: bytes | memoryview | None = None
) -> Phone:
    """Return the worker's phone, in the language of this compiled catalog (and of WTForms'
    catalog of the same language, for the form's own messages)."""
    return Phone(catalog, forms)
