"""What a game page shows: the context its templates read, for the page and its live parts.

Used by the game pages and by the live poll, so neither blueprint imports the other. The
scoreboard rows, the history and the banner are built from the ruleset's description
(its sides, seat roles, entry fields and the engine's sentences), never from one game's
field names.
"""

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from flask import Flask
from flask_babel import gettext as _

from scorekeeper import engine, words
from scorekeeper.engine import DealKind, DecidedBy, FieldKind, Role, SideKind, Status
from scorekeeper.http import keyring
from scorekeeper.store import games
from scorekeeper.store.models import Game
from scorekeeper.web.forms import (
    HOUSE_RULE_VALUE_LABELS,
    SUIT_NAMES,
    ConfirmForm,
    DealForm,
    Words,
    deal_form,
    scoring_sides,
)
from scorekeeper.web.i18n import counted, translate, translations

OUTCOME_LABELS: dict[Status, Callable[[], str]] = {
    Status.IN_PROGRESS: lambda: _("In progress"),
    Status.WON: lambda: _("Won"),
    Status.SHARED: lambda: _("Shared win"),
    Status.DRAWN: lambda: _("Drawn"),
}
"""A game's status in words, for lists and filters."""
DECIDED_LABELS: dict[DecidedBy, Callable[[], str]] = {
    DecidedBy.HIGHEST: lambda: _("highest score"),
    DecidedBy.BIDDER: lambda: _("tie, bidder wins"),
    DecidedBy.PARTNER: lambda: _("tie, partner wins"),
    DecidedBy.SHARED: lambda: _("tie, shared"),
    DecidedBy.MOON: lambda: _("a moon made"),
    DecidedBy.LOWEST_AT_START: lambda: _("lowest before the last deal"),
    DecidedBy.DRAW: lambda: _("a draw"),
}
"""Which rule decided a game, in words."""
RECENT_DEALS = 10
"""How many of the last deals the live page shows; earlier ones load on demand."""
EARLIER_DEALS = 25
"""How many earlier deals one "earlier deals" request brings."""
RECENT_CHANGES = 20
"""How many of the last changes the live page's change log shows."""


def init_app(app: Flask) -> None:
    """Let the templates compare a game's status with the engine's: ``Status.WON``."""
    app.add_template_global(Status, "Status")


def game_context(game: Game) -> dict[str, Any]:
    """Return what the game templates need, read from the game document."""
    state = games.game_state(game)
    doc = games.game_document(game, state)
    config = state.config
    players = [p["name"] for p in doc["players"]]
    changes, changes_total = games.recent_changes(game, RECENT_CHANGES)
    # The live page shows the last deals; the score sheet and "earlier deals" the rest.
    shown = doc["deals"][-RECENT_DEALS:]
    last_result = engine.DealResult.from_document(shown[-1]) if shown else None
    last = doc["deals"][-1] if doc["deals"] else None
    sides = scoring_sides(config)
    winners = set(doc["winners"])
    winner_sides = [label for label, seats in sides if set(seats) & winners]
    in_progress = state.outcome.status == Status.IN_PROGRESS
    return {
        "game": doc,
        "config": config,
        "ruleset": config.ruleset,
        "suit_names": SUIT_NAMES,
        "outcome": state.outcome,
        "players": players,
        "why": Explanations(config, doc["deals"]),
        "last": last,
        "last_kind": None if last_result is None else str(last_result.kind),
        "board": scoreboard(config, doc, last_result),
        "night": night(config, doc["deals"]),
        "contract": None if last_result is None else contract(config, last_result),
        "turn": turn(config, doc["next_dealer"]) if in_progress else None,
        "history": history(config, shown),
        "recent_from": shown[0]["number"] if shown else 1,
        "bidder_names": [players[s] for s in (last["bidders"] or ())] if last else [],
        "winner_names": winner_sides,
        "open_tie": [label for label, seats in sides if set(seats) & set(state.outcome.open_tie)],
        "team_game": config.ruleset.side_kind == SideKind.TEAMS,
        "finished": not in_progress,
        "can_edit": keyring.can_edit(keyring.GAME_TOKENS, game),
        "undo_form": ConfirmForm(formdata=None),
        "version": game.version,
        "changes": changes,
        "changes_total": changes_total,
        "house_rules": house_rules_played(config),
    }


def house_rules_played(config: engine.GameConfig) -> list[str]:
    """Return the house rules the game plays that are not the ruleset's default, for people:
    "Play with the Jick", or "Unresolved tie: Share the win" where the rule has values."""
    played: list[str] = []
    for name, rule in config.ruleset.house_rules.items():
        value = config.house_rules.get(name, rule.default)
        if value == rule.default:
            continue
        label = translate(rule.label) if rule.label else name.replace("_", " ").capitalize()
        if value is True:
            played.append(label)
        else:
            words = HOUSE_RULE_VALUE_LABELS.get(value, str(value))
            played.append(_("%(rule)s: %(value)s", rule=label, value=words))
    return played


def next_deal_form(context: Mapping[str, Any], *, fresh: bool = True) -> DealForm | None:
    """Return the empty form for the game's next deal, or None when this browser enters none."""
    if not context["can_edit"] or context["finished"]:
        return None
    game = context["game"]
    number = len(game["deals"]) + 1
    return deal_form(context["config"], game["next_dealer"], number=number, fresh=fresh)


def turn(config: engine.GameConfig, dealer: int) -> dict[str, str]:
    """Return who deals the next deal and who speaks first in its auction, by name."""
    first = config.ruleset.first_speaker(config, dealer)
    return {"dealer": config.players[dealer], "first": config.players[first]}


def scoreboard(
    config: engine.GameConfig, doc: Mapping[str, Any], last: engine.DealResult | None
) -> list[dict[str, Any]]:
    """Return one row per scoring side: a team with its members' names, or a player."""
    rules = config.ruleset
    players = doc["players"]
    teams = rules.side_kind == SideKind.TEAMS
    finished = doc["status"] != Status.IN_PROGRESS
    roles = rules.roles(config, last) if last is not None else (None,) * config.seats
    bidding = set(last.bidders or ()) if last is not None else set()
    rows: list[dict[str, Any]] = []
    for label, seats in scoring_sides(config):
        first = players[seats[0]]
        tags: list[str] = []
        for seat in seats:
            tag = _role_tag(rules, roles[seat], players[seat]["name"], team=teams)
            if tag:
                tags.append(tag)
        dealer = next(
            (players[s]["name"] for s in seats if s == doc["next_dealer"] and not finished), None
        )
        rows.append(
            {
                "label": label,
                "seats": seats,
                "team": teams,
                "score": first["score"],
                "delta": None
                if last is None or last.kind == DealKind.THROWN_IN
                else last.deltas[seats[0]],
                "dealer": dealer,
                "tags": tags,
                "bidding": bool(bidding & set(seats)),
                "winner": bool(set(seats) & set(doc["winners"])),
                "extras": [
                    counted(extra.words, first[extra.key])
                    for extra in rules.extras
                    if first.get(extra.key)
                ],
                "needs": None if finished else max(0, doc["target"] - first["score"]),
            }
        )
    return rows


def night(config: engine.GameConfig, deals: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Return the game at a glance: per scoring side, how many deals earned each of the
    ruleset's statistics, from the tags the table statistics count.

    A team counts a deal once, whichever of its players earned the tag.
    """
    rules = config.ruleset
    sides = scoring_sides(config)
    counts = [[0] * len(rules.statistics) for _side in sides]
    for deal in deals:
        tags = rules.seat_tags(config, engine.DealResult.from_document(deal))
        for row, (_label, seats) in zip(counts, sides, strict=True):
            earned = frozenset().union(*(tags[seat] for seat in seats))
            for index, statistic in enumerate(rules.statistics):
                row[index] += statistic.tag in earned
    return [
        {
            "label": label,
            "counts": [(s.label, n) for s, n in zip(rules.statistics, row, strict=True)],
        }
        for (label, _seats), row in zip(sides, counts, strict=True)
    ]


def contract(config: engine.GameConfig, result: engine.DealResult) -> dict[str, Any]:
    """Return the last deal's contract in parts, for one line ("Bob 4♥, called K♥ → Di: made").

    Read from the ruleset's entry fields: the bid, the trump suit, a called card and the
    seat that card names (its holder); a field the ruleset lacks is left out.
    """
    fields = config.ruleset.entry_fields(config)
    players = config.players
    if not result.played or result.bidder is None:
        return {"kind": str(result.kind), "number": result.number}
    line: dict[str, Any] = {
        "kind": str(result.kind),
        "number": result.number,
        "bidder": players[result.bidder],
        "made": result.made,
        "bid": None,
        "trump": None,
        "card": None,
        "card_label": None,
        "partner": None,
        "alone": False,
    }
    for field in fields:
        value = result.get(field.name)
        if field.kind == FieldKind.BID and value is not None:
            line["bid"] = words.choice_label(field, value, translations())
        elif field.kind == FieldKind.SUIT and value is not None:
            line["trump"] = value
        elif field.kind == FieldKind.CARD:
            special = field.choice(value)
            if special is not None:
                line["card_label"] = Words(special.label)
            else:
                line["card"] = value
            holder = result.get(field.holder) if field.holder else None
            if holder is not None:
                line["partner"] = players[holder]
            else:
                line["alone"] = True
    return line


def _role_tag(rules: engine.Ruleset, role: Role | None, name: str, *, team: bool) -> str | None:
    """Return the words for a seat's part in the last deal, if it had one."""
    if role == Role.BIDDER:
        return _("Bidder: %(name)s", name=name) if team else _("Bidder")
    if role == Role.PARTNER and not team:
        return _("Pair") if rules.side_kind == SideKind.PAIR else _("Partner")
    return None


def history(config: engine.GameConfig, deals: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Return the history's view of these deal documents, in their order (the phone's
    worker shows the deals kept on it with the same view: scorekeeper/phone.py)."""
    sides = scoring_sides(config)
    catalog = translations()
    return [
        words.deal_view(config, sides, engine.DealResult.from_document(deal), catalog)
        for deal in deals
    ]


class Explanations(Mapping[int, tuple[engine.Message, ...]]):
    """Each deal's "why this score" sentences by deal number, worked out when first read.

    A page shows a few deals of a long game, so only those are explained.
    """

    def __init__(self, config: engine.GameConfig, deals: Sequence[Mapping[str, Any]]) -> None:
        self._config = config
        self._deals = {deal["number"]: deal for deal in deals}
        self._done: dict[int, tuple[engine.Message, ...]] = {}

    def __getitem__(self, number: int) -> tuple[engine.Message, ...]:
        if number not in self._done:
            result = engine.DealResult.from_document(self._deals[number])
            self._done[number] = engine.explain_deal(self._config, result)
        return self._done[number]

    def __iter__(self) -> Iterator[int]:
        return iter(self._deals)

    def __len__(self) -> int:
        return len(self._deals)
