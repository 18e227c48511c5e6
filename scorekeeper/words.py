"""The words of the deal form, written once: run by the pages and by the phone's worker alike.

Flask-free (the engine, Jinja2 and MarkupSafe only), so that scorekeeper/web/ and the
engine's bridge on the phone (scorekeeper/phone.py, in Pyodide) use the same code: an engine
message in a catalog's language (the templates' `t` filter), a list joined for a sentence,
and what templates/games/_preview.html is given to say what a deal would score. The phone
renders that very template (and the macros it imports) with `templates`; the server with
Flask's environment, whose `t` filter and gettext are these same functions over its
request's catalog.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

import jinja2

from scorekeeper import engine

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
"""The app's templates: beside the package in the repository and in the phone's bundle."""
PHONE_TEMPLATES = (
    "games/_preview.html",
    "games/_deal.html",
    "games/_phone_board.html",
    "macros/forms.html",
    "macros/game.html",
)
"""The templates the phone renders as the server does: the preview, a deal of the history
and the macros they import (the field refusal lists, suits and cards); and its own, the
game after the deals kept on it. The phone's bundle
holds these (scorekeeper/web/offline.py)."""


class Catalog(Protocol):
    """A language's catalog: Python's gettext translations, or Babel's (the same methods)."""

    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...


def translate(catalog: Catalog, value: object) -> str:
    """Return an engine message in the catalog's language; other values as text."""
    if isinstance(value, engine.Message):
        return engine.render(
            value,
            lambda template: catalog.gettext(template) if template else template,
            lambda given: join_words(catalog, given),
        )
    return "" if value is None else str(value)


def join_words(catalog: Catalog, given: Iterable[str]) -> str:
    """Join words for a sentence in the catalog's language: "Ann, Bob and Cy"."""
    words = list(given)
    if len(words) <= 1:
        return "".join(words)
    return catalog.gettext("%(list)s and %(last)s") % {
        "list": ", ".join(words[:-1]),
        "last": words[-1],
    }


def counted(catalog: Catalog, phrase: engine.Plural, num: int) -> str:
    """Return an engine phrase that says a count, in the catalog's language ("2 bids")."""
    return catalog.ngettext(phrase.one, phrase.other, num) % {"num": num}


def templates(catalog: Catalog) -> jinja2.Environment:
    """Return the app's templates as the phone renders them, in the catalog's language.

    As Flask's environment renders them for the pages: HTML escaped, Jinja's i18n extension
    with new-style gettext (`_('to %(n)s', n=…)`), and the `t` filter.
    """
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,
        extensions=["jinja2.ext.i18n"],
        auto_reload=False,
    )
    # Added by the i18n extension at run time: Jinja's types do not declare it.
    environment.install_gettext_translations(catalog, newstyle=True)  # type: ignore[attr-defined]
    environment.filters["t"] = functools.partial(translate, catalog)
    return environment


# --- what would a deal score: templates/games/_preview.html's context ----------------------


def preview_context(
    state: engine.GameState,
    described: Sequence[engine.EntryField],
    entry: Mapping[str, Any],
    found: Mapping[str | None, Sequence[str]] | None,
    opened: Collection[str],
    catalog: Catalog,
) -> dict[str, Any]:
    """Return what templates/games/_preview.html needs to say what the form's deal scores.

    `entry` is the deal the form's fields make (its number left out); `found` the form's
    own problems with them by field (None: the form's), in the form's order, or None when
    the fields are well formed; `opened` the folded sections (the auction) with something
    in them. The engine refuses or scores the entry after `state`.

    A folded section's refusals show beside it (swapped in there), every other one in the
    line above Save; a folded section left alone is left alone, and an empty form's
    preview says nothing.
    """
    beside: dict[str | None, list[str]] = {
        f.name: [] for f in described if f.kind == engine.FieldKind.AUCTION
    }
    context: dict[str, Any] = {
        "result": None,
        "problems": [],
        "beside": beside,
        "sides": [],
        "why": (),
        "ruleset": state.config.ruleset,
    }
    problems: dict[str | None, list[str]] = {}
    if found is not None:
        problems = {name: list(said) for name, said in found.items()}
    elif entry:
        try:
            after = engine.apply_deal(state, engine.parse_entry(state.config, dict(entry)))
        except engine.RuleViolation as exc:
            for key, refusals in exc.problems.items():
                problems[key] = [translate(catalog, m) for m in refusals]
        else:
            result = after.last
            assert result is not None  # a deal was just applied
            context.update(scored_context(state.config, result))
    for name, said in problems.items():
        if name in beside:
            beside[name].extend(said)
        else:
            context["problems"].extend(said)
    for field in described:
        if field.name in beside and not beside[field.name] and field.name not in opened:
            del beside[field.name]
    return context


def scored_context(config: engine.GameConfig, result: engine.DealResult) -> dict[str, Any]:
    """Return what templates/games/_preview.html needs to say what a deal scored: the
    result, each side's change, total and part in the bid, and why."""
    return {
        "result": result,
        "why": engine.explain_deal(config, result),
        "sides": [
            (
                label,
                result.deltas[seats[0]],
                result.scores[seats[0]],
                bool(set(seats) & set(result.bidders or ())),
            )
            for label, seats in engine.scoring_sides(config)
        ],
    }


# --- one deal as the history shows it: templates/games/_deal.html's context ----------------

HIDDEN_IN_HISTORY = (engine.FieldKind.FLAG, engine.FieldKind.AUCTION, engine.FieldKind.COUNTS)
"""Fields the history does not list as rows: flags show as the deal's kind, counts beside
the side they decide, the auction only through the bidder."""

Side = tuple[str, tuple[int, ...]]
"""A side that keeps a score: its label and its seats (`engine.scoring_sides`)."""


def deal_view(
    config: engine.GameConfig,
    sides: Sequence[Side],
    result: engine.DealResult,
    catalog: Catalog,
) -> dict[str, Any]:
    """Return what the history shows of one deal (templates/games/_deal.html's `d`): its
    kind, contract and entry, in the catalog's language."""
    players = config.players
    described = config.ruleset.entry_fields(config)
    fields = [f for f in described if f.kind not in HIDDEN_IN_HISTORY]
    bid_field = next((f for f in fields if f.kind == engine.FieldKind.BID), None)
    view: dict[str, Any] = {
        "number": result.number,
        "dealer": players[result.dealer],
        "kind": str(result.kind),
        "made": result.made,
        "changes": [
            (label, result.deltas[seats[0]], bool(set(seats) & set(result.bidders or ())))
            for label, seats in sides
        ],
        "totals": [(label, result.scores[seats[0]]) for label, seats in sides],
        "contract": None,
        "rows": [],
        "points": [],
    }
    if not result.played:
        return view
    if bid_field is not None and result.bidder is not None:
        view["contract"] = catalog.gettext("%(name)s bid %(bid)s") % {
            "name": players[result.bidder],
            "bid": choice_label(bid_field, result.get(bid_field.name), catalog),
        }
    counts_field = next((f for f in described if f.kind == engine.FieldKind.COUNTS), None)
    for field in fields:
        if bid_field is not None and field.name in ("bidder", bid_field.name):
            continue
        row = _row(field, result.get(field.name), players, sides, catalog)
        if field.kind == engine.FieldKind.SIDE and counts_field is not None:
            row["counts"] = _counts(counts_field, result.get(counts_field.name))
        view["points" if field.point else "rows"].append(row)
    return view


def choice_label(field: engine.EntryField, value: Any, catalog: Catalog) -> str:
    """Return the label of the field's choice with this value (the value itself if none)."""
    choice = field.choice(value)
    return translate(catalog, choice.label) if choice is not None else str(value)


def _counts(field: engine.EntryField, counts: Any) -> str | None:
    """Return the counts entered, in the field's order ("27-18" with an en dash), or None."""
    if not counts:
        return None
    if isinstance(counts, Mapping):
        counts = [counts.get(c.value) for c in field.choices] if field.choices else counts.values()
    return "\u2013".join(str(c) for c in counts)


def _row(
    field: engine.EntryField,
    value: Any,
    players: Sequence[str],
    sides: Sequence[Side],
    catalog: Catalog,
) -> dict[str, Any]:
    """Return one entry field's value as the history shows it."""
    kind = engine.FieldKind
    row: dict[str, Any] = {
        "label": translate(catalog, field.label),
        "text": None,
        "suit": None,
        "card": None,
    }
    if value is None:
        row["text"] = translate(catalog, field.blank) if field.blank is not None else "\u2013"
    elif field.kind == kind.SEAT:
        row["text"] = players[value]
    elif field.kind == kind.SUIT:
        row["suit"] = value
        suit = next((s for s in engine.Suit if str(s) == value), None)
        row["text"] = translate(catalog, suit.words) if suit is not None else value
    elif field.kind == kind.CARD:
        special = field.choice(value)
        row["card"] = None if special else value
        row["text"] = translate(catalog, special.label) if special else None
    elif field.kind == kind.SIDE:
        named = field.choice(value)
        if named is not None:
            row["text"] = translate(catalog, named.label)
        elif isinstance(value, int) and 0 <= value < len(sides):
            row["text"] = sides[value][0]
        else:
            row["text"] = str(value)
    else:
        row["text"] = choice_label(field, value, catalog)
    return row
