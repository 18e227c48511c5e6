"""Edit tokens, one way for games and tables: made at random, stored only as a SHA-256 hash."""

import hashlib
import hmac
import secrets

TOKEN_BYTES = 32
"""Randomness in a new edit token (its text is about 43 URL-safe characters)."""


def new_token() -> str:
    """Return a new, unguessable edit token."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    """Return the hex SHA-256 digest that is stored in place of the token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def check_token(stored_hash: str, token: str | None) -> bool:
    """Return whether the token hashes to the stored hash, compared in constant time."""
    if not token:
        return False
    return hmac.compare_digest(hash_token(token), stored_hash)


def is_hash(value: object) -> bool:
    """Return whether the value has the form of a stored hash: 64 lowercase hex digits."""
    return (
        isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)
    )
