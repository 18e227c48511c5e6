"""How hard the property tests try: every example in `make test`, a tenth of them in the
quick loop (`make test-quick` sets ``SCOREKEEPER_QUICK=1``), so that a change is checked in
a couple of minutes and then in full before it lands."""

from __future__ import annotations

import os
from typing import Any

QUICK = os.environ.get("SCOREKEEPER_QUICK") == "1"
"""Whether this run is the quick loop."""


def examples(count: int) -> int:
    """Return how many examples a property test tries (or random games a test plays):
    ``count``, or a tenth of it (at least two) in the quick loop."""
    return max(2, count // 10) if QUICK else count


def sample(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return the worked games a test plays: every one, or the first of each ruleset in the
    quick loop."""
    if not QUICK:
        return games
    return list({game["ruleset"]: game for game in reversed(games)}.values())[::-1]
