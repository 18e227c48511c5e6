"""What this browser holds in its signed session: edit tokens, the places it opened, its id.

Games and tables keep the same two things per browser: the edit tokens it was given
(newest kept when the list is full) and the ids it opened, newest first. Each lives under
its own session key. A token is worth something only while the store still accepts it,
so every question "may this browser edit?" asks the store again.
"""

import secrets
from collections.abc import Mapping
from typing import Any

from flask import request, session
from flask.sessions import SessionMixin

from scorekeeper.store import tokens
from scorekeeper.web import devices

LIMIT = 20
"""How many tokens, and how many recent ids, one browser keeps per kind."""

GAME_TOKENS = "edit"
RECENT_GAMES = "recent"
TABLE_TOKENS = "table_edit"
RECENT_TABLES = "recent_tables"


def token(key: str, item_id: str, held_in: Mapping[str, Any] | None = None) -> str | None:
    """Return the edit token this browser holds for the item, if any.

    `held_in` is the session's content when it was read outside a request (the live polls').
    """
    tokens_held = (session if held_in is None else held_in).get(key)
    return tokens_held.get(item_id) if isinstance(tokens_held, dict) else None


def held(key: str) -> dict[str, str]:
    """Return every edit token this browser holds under the key."""
    return session.get(key, {})


def grant(key: str, item_id: str, value: str) -> None:
    """Keep an item's edit token in this browser, dropping the oldest past the limit."""
    kept = {k: v for k, v in held(key).items() if k != item_id}
    kept[item_id] = value
    session[key] = dict(list(kept.items())[-LIMIT:])
    session.permanent = True


def remember(key: str, item_id: str, held_in: SessionMixin | None = None) -> None:
    """Put an item at the top of this browser's list of those it opened.

    `held_in` is a session read outside a request (a kept game page's, in ahead.py).
    """
    held = session if held_in is None else held_in
    recent = [item_id] + [i for i in held.get(key, []) if i != item_id]
    if recent != held.get(key):
        held[key] = recent[:LIMIT]
        held.permanent = True


def recent(key: str) -> list[str]:
    """Return the ids this browser opened under the key, newest first."""
    return session.get(key, [])


def can_edit(key: str, item) -> bool:
    """Return whether this browser holds the item's current edit token (a game or table)."""
    return holds(key, item.id, item.edit_token_hash)


def holds(
    key: str, item_id: str, token_hash: str, held_in: Mapping[str, Any] | None = None
) -> bool:
    """Return whether this browser holds the token of that hash for the item.

    For a caller that read the hash alone (the game's stamp), not the whole item; `held_in`
    as for `token`.
    """
    return tokens.check_token(token_hash, token(key, item_id, held_in))


def device() -> str:
    """Return the label of this browser recorded with each change, making its id if new."""
    if "device" not in session:
        session["device"] = secrets.token_urlsafe(8)
        session.permanent = True
    return devices.web_label(session["device"], request.user_agent.string)
