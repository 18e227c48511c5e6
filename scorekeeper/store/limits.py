"""How much one table, one game and one import file may hold.

Each limit keeps a page, an export and an import well inside a worker's time and memory;
each is refused with a message naming it, and nothing is stored then. README.md and
docs/api.md list them; keep the three in step.
"""

REGULARS_PER_TABLE = 200
"""Names a table keeps as its regulars (merge spellings to make room)."""
DEALS_PER_GAME = 500
"""Deals in one game: real games end long before (a 15-point game lasts about 20 deals)."""
CHANGES_PER_GAME = 2000
"""Entries in one game's change log (adds, corrections and undos)."""
IMPORT_BYTES = 2 * 1024 * 1024
"""The largest export file the import page accepts (the command line has no limit)."""
IMPORT_GAMES = 200
"""Games in one import file (a bundle counts all of its documents)."""
IMPORT_DEALS = 2000
"""Deals in one import file, all games together."""
IMPORT_CHANGES = 4000
"""Change-log entries in one import file, all games together."""
