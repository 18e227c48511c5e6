"""A ruleset owns its game: what only one ruleset has is named in its module alone.

The pages, the store, the API and the engine's shared modules show a game's own counts
(Shmear's smucks, Euchre's marches) from the ruleset's description, never by name. A
ruleset's own names are the statistics tags and player extras it declares that no other
ruleset module declares and that are not a word of the engine's shared description (a
deal's kind, a decided-by, a win fact …). The catalogs and the docs, which describe
the games to people, are not searched.
"""

from __future__ import annotations

import re
import sys
from enum import StrEnum
from pathlib import Path

from scorekeeper import engine

ROOT = Path(__file__).parents[1]
SHARED_WORDS = frozenset(
    str(value)
    for kind in (
        engine.DealKind,
        engine.DecidedBy,
        engine.FieldKind,
        engine.Role,
        engine.SideKind,
        engine.Status,
        engine.WinFact,
    )
    if issubclass(kind, StrEnum)
    for value in kind
)
"""Words of the engine's shared description: any layer may name them."""


def own_names() -> dict[Path, frozenset[str]]:
    """Return each ruleset module's file with the names that are its own."""
    declared: dict[Path, set[str]] = {}
    for ruleset in engine.rulesets():
        path = Path(sys.modules[type(ruleset).__module__].__file__ or "")
        names = declared.setdefault(path, set())
        names.update(statistic.tag for statistic in ruleset.statistics)
        names.update(extra.key for extra in ruleset.extras)
    return {
        path: frozenset(
            name
            for name in names
            if name not in SHARED_WORDS
            and not any(name in others for other, others in declared.items() if other != path)
        )
        for path, names in declared.items()
    }


def searched_files() -> list[Path]:
    """Return the code a ruleset's name must stay out of: Python, templates, scripts, styles."""
    files = [*(ROOT / "scorekeeper").rglob("*.py"), *(ROOT / "templates").rglob("*.html")]
    files += [p for p in (ROOT / "static").glob("*.js") if not p.name.endswith(".min.js")]
    files += (ROOT / "static").glob("*.css")
    return sorted(files)


def pattern(name: str) -> re.Pattern[str]:
    """Match the name as a word or a word's start, in any case (`smuck`, `smucks`, `Smuck`)."""
    return re.compile(rf"\b{re.escape(name)}", re.IGNORECASE)


def test_every_ruleset_modules_own_names_are_found_in_it():
    owned = own_names()
    everything = frozenset().union(*owned.values())
    # The Shmear games' smucks and Euchre's marches are their own; Euchre's and Five-Handed
    # Schmier's "called" partner and Shmear's moon are shared words.
    assert {"smuck", "smucks", "march", "euchred"} <= everything
    assert not everything & {"bid", "made", "set", "called", "alone", "moon", "forfeit"}
    for path, names in owned.items():
        text = path.read_text("utf-8")
        for name in names:
            assert pattern(name).search(text), f"{name} is not in {path.name}"


def test_no_ruleset_name_is_written_outside_its_module():
    found = []
    for path, names in own_names().items():
        for other in searched_files():
            if other == path:
                continue
            text = other.read_text("utf-8")
            for name in sorted(names):
                for match in pattern(name).finditer(text):
                    line = text.count("\n", 0, match.start()) + 1
                    found.append(f"{other.relative_to(ROOT)}:{line}: {name} ({path.name})")
    assert not found, "a ruleset's own name outside its module:\n" + "\n".join(found)
