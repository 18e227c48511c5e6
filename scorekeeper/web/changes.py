"""Show the change log: who changed a deal, from which device, and what changed."""

from flask import Flask
from flask_babel import gettext as _

from scorekeeper.web import devices
from scorekeeper.web.forms import SUIT_NAMES, card_words

ENTRY_FIELDS = (
    "thrown_in",
    "bidder",
    "bid",
    "trump",
    "called_card",
    "partner",
    "high",
    "low",
    "jack",
    "off_jack",
    "joker",
    "game",
    "game_points",
    "auction",
)
GAME_WINNERS = {
    "bidders": lambda: _("bidders"),
    "opponents": lambda: _("opponents"),
    "none": lambda: _("nobody (tie)"),
}
SEAT_FIELDS = {"bidder", "partner", "high", "low", "jack", "off_jack", "joker"}
FIELD_LABELS = {
    "thrown_in": lambda: _("Thrown in"),
    "bidder": lambda: _("Bidder"),
    "bid": lambda: _("Bid"),
    "trump": lambda: _("Trump"),
    "called_card": lambda: _("Called card"),
    "partner": lambda: _("Partner"),
    "high": lambda: _("High"),
    "low": lambda: _("Low"),
    "jack": lambda: _("Jack"),
    "off_jack": lambda: _("Off-jack"),
    "joker": lambda: _("Joker"),
    "game": lambda: _("Game"),
    "game_points": lambda: _("Game counts"),
    "auction": lambda: _("Auction"),
}


def init_app(app: Flask) -> None:
    """Give the templates the change log's helpers."""
    app.add_template_filter(device_name, "device_name")
    app.add_template_global(describe_change, "describe_change")


def device_name(label):
    """Return the short name of the device behind a change."""
    parsed = devices.parse(label)
    if parsed is None:
        return _("unknown device")
    if parsed[0] == "web":
        _kind, family, short_id = parsed
        return _("%(family)s #%(id)s", family=family or _("Browser"), id=short_id)
    name = parsed[1]
    return _("API: %(name)s", name=name) if name else _("API client")


def describe_change(change, players):
    """Return what a change did as (label, before, after) rows for the correction history."""
    before, after = change.before or {}, change.after or {}
    rows = []
    for field in ENTRY_FIELDS:
        old, new = before.get(field), after.get(field)
        if change.action == "correct" and old == new:
            continue
        if change.action != "correct" and (old if change.action == "undo" else new) is None:
            continue
        rows.append(
            (FIELD_LABELS[field](), _value(field, old, players), _value(field, new, players))
        )
    old_scores, new_scores = before.get("scores"), after.get("scores")
    if change.action == "correct" and old_scores != new_scores and old_scores and new_scores:
        for seat, name in enumerate(players):
            if old_scores[seat] != new_scores[seat]:
                rows.append(
                    (_("%(name)s after this deal", name=name), old_scores[seat], new_scores[seat])
                )
    return rows


def _value(field, value, players):
    """Return a stored entry value as people read it (seats as names)."""
    if value is None:
        return "\u2013"
    if field in SEAT_FIELDS and isinstance(value, int) and 0 <= value < len(players):
        return players[value]
    if field == "thrown_in":
        return _("yes") if value else _("no")
    if field == "trump" and value in SUIT_NAMES:
        return str(SUIT_NAMES[value])
    if field == "called_card" and isinstance(value, str):
        return card_words(value)
    if field == "game":
        return GAME_WINNERS.get(value, lambda: str(value))()
    if field == "game_points" and isinstance(value, dict):
        return f"{value.get('bidders')}\u2013{value.get('opponents')}"
    if field == "auction" and isinstance(value, list):
        return ", ".join(_("pass") if call is None else str(call) for call in value)
    return str(value)
