"""Load what an address names or answer 404: one helper for the pages and the API.

The 404 carries a description: the API sends it as its error message, the pages show
their own words.
"""

from flask import abort

from scorekeeper.store import games, tables
from scorekeeper.store.models import CardTable, Deal, Game


def game_or_404(game_id: str, *, deals: bool = True) -> Game:
    """Return the game (with its deals unless told not to), or answer 404."""
    game = games.get_game(game_id, deals=deals)
    if game is None:
        abort(404, "There is no game with this id.")
    return game


def stamp_or_404(game_id: str) -> tuple[int, str]:
    """Return the game's version and edit token hash (one read by key), or answer 404."""
    stamp = games.get_stamp(game_id)
    if stamp is None:
        abort(404, "There is no game with this id.")
    return stamp


def deal_or_404(game: Game, number: int) -> Deal:
    """Return deal `number` of the game, or answer 404."""
    deal = games.get_deal(game, number)
    if deal is None:
        abort(404, f"This game has no deal {number}.")
    return deal


def table_or_404(table_id: str) -> CardTable:
    """Return the table with its regulars, or answer 404."""
    table = tables.get_table(table_id)
    if table is None:
        abort(404, "There is no table with this id.")
    return table
