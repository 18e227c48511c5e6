"""Names people type (players, tables, regulars): one check, so every name obeys the same rules.

A name is plain text someone at the table can read: no control or format characters
(they reorder text, hide it, or break logs and files), no surrogates, no line separators,
and at least one character that shows.
"""

import unicodedata
from enum import StrEnum

# Joiners are format characters that emoji sequences and some scripts need; they do not
# reorder or hide text, so they are allowed (a name still needs a visible character).
JOINERS = frozenset("\u200c\u200d")
# Letters and symbols that draw nothing (Hangul fillers, the blank braille pattern …).
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e\u2060")
REFUSED = frozenset(("Cc", "Cf", "Cs", "Zl", "Zp"))
INVISIBLE = frozenset(("Zs", "Zl", "Zp", "Mn", "Me", "Cf", "Cc"))


class NameProblem(StrEnum):
    """Why a name cannot be used."""

    LENGTH = "length"
    """Empty, or longer than the limit."""
    CONTROL = "control"
    """It holds a control, format or surrogate character (a right-to-left override …)."""
    INVISIBLE = "invisible"
    """Nothing of it shows: only spaces, marks or blank letters."""


def name_problem(name: str, max_length: int) -> NameProblem | None:
    """Return what is wrong with a name (already stripped), or None when it can be used."""
    if not 1 <= len(name) <= max_length:
        return NameProblem.LENGTH
    categories = [unicodedata.category(c) for c in name]
    if any(cat in REFUSED and c not in JOINERS for c, cat in zip(name, categories, strict=True)):
        return NameProblem.CONTROL
    if all(cat in INVISIBLE or c in BLANK_LETTERS for c, cat in zip(name, categories, strict=True)):
        return NameProblem.INVISIBLE
    return None
