"""What a game page shows: the context its templates read, for the page and its live parts.

Used by the game pages and by the live poll, so neither blueprint imports the other.
"""

from collections.abc import Iterator, Mapping

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

RECENT_DEALS = 10
"""How many of the last deals the live page shows; earlier ones load on demand."""
EARLIER_DEALS = 25
"""How many earlier deals one "earlier deals" request brings."""
RECENT_CHANGES = 20
"""How many of the last changes the live page's change log shows."""


def game_context(game):
    """Return what the game templates need, read from the game document."""
    state = games.game_state(game)
    doc = games.game_document(game, state)
    config = state.config
    players = [p["name"] for p in doc["players"]]
    changes, changes_total = games.recent_changes(game, RECENT_CHANGES)
    last = doc["deals"][-1] if doc["deals"] else None
    return {
        "game": doc,
        "outcome": state.outcome,
        "players": players,
        "why": Explanations(config, doc["deals"]),
        # The live page shows the last deals; the score sheet and "earlier deals" the rest.
        "shown_deals": doc["deals"][-RECENT_DEALS:],
        "last": last,
        "bidders": set(last["bidders"] or ()) if last else set(),
        "bidder_names": [players[s] for s in (last["bidders"] or ())] if last else [],
        "winner_names": [players[s] for s in doc["winners"]],
        "finished": doc["status"] != "in_progress",
        "can_edit": keyring.can_edit(keyring.GAME_TOKENS, game),
        "undo_form": ConfirmForm(formdata=None),
        "version": game.version,
        "changes": changes,
        "changes_total": changes_total,
    }


class Explanations(Mapping):
    """Each deal's "why this score" sentences by deal number, worked out when first read.

    A page shows a few deals of a long game, so only those are explained.
    """

    def __init__(self, config, deals):
        self._config = config
        self._deals = {deal["number"]: deal for deal in deals}
        self._done = {}

    def __getitem__(self, number):
        if number not in self._done:
            result = engine.DealResult.from_document(self._deals[number])
            self._done[number] = engine.explain_deal(self._config, result)
        return self._done[number]

    def __iter__(self) -> Iterator[int]:
        return iter(self._deals)

    def __len__(self) -> int:
        return len(self._deals)
