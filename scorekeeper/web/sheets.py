"""What a game's score sheet shows: its columns (a team or a player each) and each contract.

Built from the ruleset's description, so the sheet of any game reads the same way: the
contract's fields in the ruleset's words (bidder or maker, bid, trump, called card,
tricks …), then made or set; a deal where nothing was played says so.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper import engine
from scorekeeper.web.charts import side_names

SHOWN = frozenset(
    {
        engine.FieldKind.SEAT,
        engine.FieldKind.BID,
        engine.FieldKind.SUIT,
        engine.FieldKind.CARD,
        engine.FieldKind.NUMBER,
    }
)
"""The kinds of entry field a contract line shows (the points and counts have columns)."""


@dataclass(frozen=True, slots=True)
class Column:
    """One column of the sheet: a team where teams score together, else a player."""

    name: str
    """The player's name, or the team's members joined ("Ann & Di")."""
    seats: tuple[int, ...]
    """The seats it stands for; the first one's score is the column's."""


@dataclass(frozen=True, slots=True)
class Part:
    """One field of a contract, as the sheet shows it."""

    label: engine.Message
    """The field's name in the ruleset's words."""
    kind: str
    """The field's kind (`seat`, `suit`, `card` …), which says how to show the value."""
    value: Any
    """The value as stored (a seat, a suit letter, a card in notation …), or None."""
    text: engine.Message | str | None
    """The value in words where it is not a seat, a suit or a card (a choice's label)."""


@dataclass(frozen=True, slots=True)
class Contract:
    """What a deal was played for, and how it went."""

    kind: engine.DealKind
    """Played, thrown in or forfeited."""
    dealer: int
    """The seat that dealt."""
    parts: tuple[Part, ...]
    """The contract's fields in the ruleset's order; empty when nothing was played."""
    made: bool | None
    """Whether the contract was made; None when nothing was played."""


def columns(config: engine.GameConfig) -> list[Column]:
    """Return the sheet's columns: one per team in team games, else one per player."""
    teams = config.ruleset.teams(config)
    sides = [tuple(team) for team in teams] if teams else [(s,) for s in range(config.seats)]
    return [
        Column(name, side)
        for name, side in zip(side_names(config.players, teams), sides, strict=True)
    ]


def contracts(config: engine.GameConfig, deals: Sequence[Mapping[str, Any]]) -> list[Contract]:
    """Return each deal document's contract, summarised from the ruleset's entry fields."""
    fields = [
        f
        for f in config.ruleset.entry_fields(config)
        if f.kind in SHOWN and not f.point and not f.advanced
    ]
    summaries = []
    for document in deals:
        result = engine.DealResult.from_document(document)
        parts = []
        if result.played:
            for field in fields:
                value = result.get(field.name)
                if value is None and field.blank is None:
                    continue
                parts.append(Part(field.label, str(field.kind), value, _words(field, value)))
        summaries.append(Contract(result.kind, result.dealer, tuple(parts), result.made))
    return summaries


def _words(field: engine.EntryField, value: Any) -> engine.Message | str | None:
    """Return a value in words: the blank's label, a choice's label, or the value as text."""
    if value is None:
        return field.blank
    for choice in field.choices:
        if choice.value == value:
            return choice.label
    return str(value)
