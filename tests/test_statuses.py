"""A game's status is the engine's `Status` everywhere: no page or module spells it out.

The store hands back `Status` members (tests/test_models.py) and the templates have the enum
as ``Status``; a comparison with the bare word (``status == "won"``) would keep working
only as long as nobody misspelt it, so none may come back.
"""

import re
from pathlib import Path

from scorekeeper.engine import Status

ROOT = Path(__file__).resolve().parents[1]
WORDS = "|".join(re.escape(str(status)) for status in Status)
LITERAL_COMPARISON = re.compile(
    rf"""status\W{{0,3}}\s*(?:==|!=)\s*["'](?:{WORDS})["']"""
    rf"""|["'](?:{WORDS})["']\s*(?:==|!=)\s*[\w.\[\]"']*status"""
)
"""``status == "won"``, ``doc["status"] != 'in_progress'``, ``"drawn" == game.status``."""


def sources() -> list[Path]:
    engine = ROOT / "scorekeeper" / "engine"
    python = [p for p in (ROOT / "scorekeeper").rglob("*.py") if engine not in p.parents]
    return sorted(python) + sorted((ROOT / "templates").rglob("*.html"))


def test_the_pattern_finds_a_literal_status_comparison() -> None:
    for line in (
        'if game.status == "in_progress":',
        "{%- if g.status == 'won' %}",
        'finished = doc["status"] != "in_progress"',
        '"drawn" == game.status',
    ):
        assert LITERAL_COMPARISON.search(line), line
    for line in ("if game.status == Status.WON:", "{'games': 0, 'won': 0}"):
        assert not LITERAL_COMPARISON.search(line), line


def test_no_module_or_template_compares_a_status_with_its_bare_word() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in sources()
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if LITERAL_COMPARISON.search(line)
    ]
    assert found == []
