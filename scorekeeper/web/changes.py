"""Show the change log: who changed a deal, from which device, and what changed.

The fields, their labels and how their values read come from the ruleset's description
of its entry, so the log speaks every game's language without naming its fields.
"""

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from flask import Flask
from flask_babel import gettext as _

from scorekeeper import engine
from scorekeeper.engine import FieldKind
from scorekeeper.http import devices
from scorekeeper.store.models import Change
from scorekeeper.web.i18n import join_words, translate


def init_app(app: Flask) -> None:
    """Give the templates the change log's helpers."""
    app.add_template_filter(device_name, "device_name")
    app.add_template_global(describe_change, "describe_change")


def device_name(label: str | None) -> str:
    """Return the short name of the device behind a change."""
    parsed = devices.parse(label)
    if parsed is None:
        return _("unknown device")
    if parsed[0] == "web":
        _kind, family, short_id = parsed
        return _("%(family)s #%(id)s", family=family or _("Browser"), id=short_id)
    name = parsed[1]
    return _("API: %(name)s", name=name) if name else _("API client")


@lru_cache(maxsize=256)
def _fields(
    ruleset_id: str, players: tuple[str, ...], house_rules: tuple[tuple[str, Any], ...]
) -> tuple[engine.EntryField, ...]:
    """Return a ruleset's entry fields for this table and these house rules."""
    config = engine.configure(ruleset_id, list(players), 0, None, dict(house_rules))
    return config.ruleset.entry_fields(config)


def describe_change(
    change: Change, players: Sequence[str], game: Mapping[str, Any]
) -> list[tuple[str, str | int, str | int]]:
    """Return what a change did as (label, before, after) rows for the correction history.

    `game` is the API's game document (its ruleset and house rules say what a deal holds).
    """
    fields = _fields(game["ruleset"], tuple(players), tuple(sorted(game["house_rules"].items())))
    before, after = change.before or {}, change.after or {}
    rows: list[tuple[str, str | int, str | int]] = []
    for field in fields:
        old, new = before.get(field.name), after.get(field.name)
        if change.action == "correct" and old == new:
            continue
        shown = old if change.action == "undo" else new
        if change.action != "correct" and (shown is None or shown is False):
            continue
        rows.append(
            (
                translate(field.label),
                _value(field, old, players, game),
                _value(field, new, players, game),
            )
        )
    old_scores, new_scores = before.get("scores"), after.get("scores")
    if change.action == "correct" and old_scores != new_scores and old_scores and new_scores:
        for seat, name in enumerate(players):
            if old_scores[seat] != new_scores[seat]:
                rows.append(
                    (_("%(name)s after this deal", name=name), old_scores[seat], new_scores[seat])
                )
    return rows


def _side_name(index: int, players: Sequence[str], game: Mapping[str, Any]) -> str:
    """Return a side of the game by index: a team's members, or a player."""
    teams = game.get("teams")
    if teams is not None and 0 <= index < len(teams):
        return join_words([players[seat] for seat in teams[index]])
    if 0 <= index < len(players):
        return players[index]
    return str(index)


def _value(
    field: engine.EntryField, value: Any, players: Sequence[str], game: Mapping[str, Any]
) -> str:
    """Return a stored entry value as people read it (seats as names, cards in words)."""
    if value is None:
        return "\u2013"
    kind = field.kind
    labels = {choice.value: choice.label for choice in field.choices}
    if kind == FieldKind.SEAT and isinstance(value, int) and 0 <= value < len(players):
        return players[value]
    if kind == FieldKind.TOGGLE and value in labels:
        return translate(labels[value])
    if kind in (FieldKind.FLAG, FieldKind.TOGGLE):
        return _("yes") if value else _("no")
    if kind == FieldKind.SUIT:
        try:
            return translate(engine.Suit(value).words)
        except ValueError:
            return str(value)
    if kind == FieldKind.CARD and isinstance(value, str):
        try:
            return translate(engine.Card.parse(value).words)
        except engine.RuleViolation:
            return value
    if isinstance(value, int | str) and not isinstance(value, bool) and value in labels:
        return translate(labels[value])
    if kind == FieldKind.SIDE:
        if value == "none":
            return _("nobody (tie)")
        if isinstance(value, int):
            return _side_name(value, players, game)
    if kind == FieldKind.COUNTS:
        counts = value.values() if isinstance(value, dict) else value
        return "\u2013".join(str(count) for count in counts)
    if kind == FieldKind.AUCTION and isinstance(value, list):
        return ", ".join(_("pass") if call is None else str(call) for call in value)
    return str(value)
