"""Load what an address names, or raise `Missing`: one lookup for the pages and the API.

The store knows nothing of HTTP: each side maps `Missing` to its own 404 (the API sends
the error's text as its message, scorekeeper/api/errors.py; the pages show their own
words, scorekeeper/web/errors.py).
"""

from scorekeeper.store import games, tables
from scorekeeper.store.models import CardTable, Deal, Game


class Missing(LookupError):
    """Nothing is stored under the id (or number) asked for; the text says what."""


class GameNotFound(Missing):
    """There is no game with this id."""


class DealNotFound(Missing):
    """The game has no deal with this number."""


class TableNotFound(Missing):
    """There is no table with this id."""


def require_game(game_id: str, *, deals: bool = True) -> Game:
    """Return the game (with its deals unless told not to), or raise GameNotFound."""
    game = games.get_game(game_id, deals=deals)
    if game is None:
        raise GameNotFound("There is no game with this id.")
    return game


def require_stamp(game_id: str) -> tuple[int, str]:
    """Return the game's version and edit token hash (one read by key), or raise GameNotFound."""
    stamp = games.get_stamp(game_id)
    if stamp is None:
        raise GameNotFound("There is no game with this id.")
    return stamp


def require_deal(game: Game, number: int) -> Deal:
    """Return deal `number` of the game, or raise DealNotFound."""
    deal = games.get_deal(game, number)
    if deal is None:
        raise DealNotFound(f"This game has no deal {number}.")
    return deal


def require_table(table_id: str) -> CardTable:
    """Return the table with its regulars, or raise TableNotFound."""
    table = tables.get_table(table_id)
    if table is None:
        raise TableNotFound("There is no table with this id.")
    return table
