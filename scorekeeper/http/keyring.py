"""What this browser holds in its signed session: edit tokens, the places it opened, its id.

Games and tables keep the same two things per browser: the edit tokens it was given
(newest kept when the list is full) and the ids it opened, newest first. Each lives under
its own session key. A token is worth something only while the store still accepts it,
so every question "may this browser edit?" asks the store again.
"""

import secrets

from flask import request, session

from scorekeeper.http import devices
from scorekeeper.store import tokens
from scorekeeper.store.models import CardTable, Game

LIMIT = 20
"""How many tokens, and how many recent ids, one browser keeps per kind."""

GAME_TOKENS = "edit"
RECENT_GAMES = "recent"
TABLE_TOKENS = "table_edit"
RECENT_TABLES = "recent_tables"
REFILL = "refill"
"""Session key: the entry of a deal just undone, for the next page of its game to show
(to this browser alone: such a page is never kept for others)."""


def token(key: str, item_id: str) -> str | None:
    """Return the edit token this browser holds for the item, if any."""
    tokens_of_kind = session.get(key)
    return tokens_of_kind.get(item_id) if isinstance(tokens_of_kind, dict) else None


def edit_tokens(key: str) -> dict[str, str]:
    """Return every edit token this browser holds under the key."""
    return session.get(key, {})


def grant(key: str, item_id: str, value: str) -> None:
    """Keep an item's edit token in this browser, dropping the oldest past the limit."""
    kept = {k: v for k, v in edit_tokens(key).items() if k != item_id}
    kept[item_id] = value
    session[key] = dict(list(kept.items())[-LIMIT:])
    session.permanent = True


def remember(key: str, item_id: str) -> None:
    """Put an item at the top of this browser's list of those it opened."""
    recent = [item_id] + [i for i in session.get(key, []) if i != item_id]
    if recent != session.get(key):
        session[key] = recent[:LIMIT]
        session.permanent = True


def recent(key: str) -> list[str]:
    """Return the ids this browser opened under the key, newest first."""
    return session.get(key, [])


def can_edit(key: str, item: Game | CardTable) -> bool:
    """Return whether this browser holds the item's current edit token (a game or table)."""
    return holds(key, item.id, item.edit_token_hash)


def holds(key: str, item_id: str, token_hash: str) -> bool:
    """Return whether this browser holds the token of that hash for the item.

    For a caller that read the hash alone (the game's stamp), not the whole item.
    """
    return tokens.check_token(token_hash, token(key, item_id))


def device() -> str:
    """Return the label of this browser recorded with each change, making its id if new."""
    if "device" not in session:
        session["device"] = secrets.token_urlsafe(8)
        session.permanent = True
    return devices.web_label(session["device"], request.user_agent.string)
