"""What this browser holds in its signed session: edit tokens and the places it opened.

Games and tables keep the same two things per browser: the edit tokens it was given
(newest kept when the list is full) and the ids it opened, newest first. Each lives under
its own session key.
"""

from flask import session

LIMIT = 20
"""How many tokens, and how many recent ids, one browser keeps per kind."""


def token(key: str, item_id: str) -> str | None:
    """Return the edit token this browser holds for the item, if any."""
    return session.get(key, {}).get(item_id)


def tokens(key: str) -> dict[str, str]:
    """Return every edit token this browser holds under the key."""
    return session.get(key, {})


def grant(key: str, item_id: str, value: str) -> None:
    """Keep an item's edit token in this browser, dropping the oldest past the limit."""
    held = {k: v for k, v in tokens(key).items() if k != item_id}
    held[item_id] = value
    session[key] = dict(list(held.items())[-LIMIT:])
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
