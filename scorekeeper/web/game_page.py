"""What a game page shows: the context its templates read, for the page and its live parts.

Used by the game pages and by the live poll, so neither blueprint imports the other.
"""

from flask_babel import gettext as _

from scorekeeper import engine
from scorekeeper.store import games
from scorekeeper.web import keyring
from scorekeeper.web.forms import ConfirmForm

OUTCOME_LABELS = {
    "in_progress": lambda: _("In progress"),
    "won": lambda: _("Won"),
    "shared": lambda: _("Shared win"),
    "drawn": lambda: _("Drawn"),
}
"""A game's status in words, for lists and filters."""
DECIDED_LABELS = {
    "highest": lambda: _("highest score"),
    "bidder": lambda: _("tie, bidder wins"),
    "partner": lambda: _("tie, partner wins"),
    "shared": lambda: _("tie, shared"),
}
"""Which rule decided a game, in words."""


def game_context(game):
    """Return what the game templates need, read from the game document."""
    state = games.game_state(game)
    doc = games.game_document(game, state)
    config = state.config
    players = [p["name"] for p in doc["players"]]
    why = {}
    for deal in doc["deals"]:
        result = engine.DealResult.from_document(deal)
        why[deal["number"]] = engine.explain_deal(config, result)
    last = doc["deals"][-1] if doc["deals"] else None
    return {
        "game": doc,
        "outcome": state.outcome,
        "players": players,
        "why": why,
        "last": last,
        "bidders": set(last["bidders"] or ()) if last else set(),
        "bidder_names": [players[s] for s in (last["bidders"] or ())] if last else [],
        "winner_names": [players[s] for s in doc["winners"]],
        "finished": doc["status"] != "in_progress",
        "can_edit": keyring.can_edit(keyring.GAME_TOKENS, game),
        "undo_form": ConfirmForm(formdata=None),
        "version": game.version,
        "changes": list(game.changes),
    }
