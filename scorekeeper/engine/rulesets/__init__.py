"""Every ruleset the app plays, in the rule book's order: the one place they are listed."""

from scorekeeper.engine.errors import RuleViolation
from scorekeeper.engine.messages import msg
from scorekeeper.engine.ruleset import Ruleset
from scorekeeper.engine.rulesets.euchre import (
    Euchre,
    FiveHandedEuchre,
    SixHandedEuchre,
    ThreeHandedEuchre,
    TwoHandedEuchre,
)
from scorekeeper.engine.rulesets.five_handed import FiveHandedSchmier
from scorekeeper.engine.rulesets.shmear import Shmear, ShmearHighLow, ShmearKitty, ShmearPartners
from scorekeeper.engine.rulesets.six_handed import SixHandedSchmier

RULESETS: tuple[Ruleset, ...] = (
    FiveHandedSchmier(),
    SixHandedSchmier(),
    Shmear(),
    ShmearHighLow(),
    ShmearPartners(),
    ShmearKitty(),
    FiveHandedEuchre(),
    Euchre(),
    TwoHandedEuchre(),
    ThreeHandedEuchre(),
    SixHandedEuchre(),
)
"""The rulesets, in the order `GET /api/v1/rulesets` lists them."""


def rulesets() -> tuple[Ruleset, ...]:
    """Return every ruleset, in the rule book's order."""
    return RULESETS


def get_ruleset(ruleset_id: object) -> Ruleset:
    """Return the ruleset with this id, or raise RuleViolation naming `ruleset`."""
    for ruleset in RULESETS:
        if ruleset.id == ruleset_id:
            return ruleset
    raise RuleViolation(
        {
            "ruleset": (
                msg(
                    "There is no ruleset %(id)r; choose one of %(known)s.",
                    id=ruleset_id,
                    known=", ".join(r.id for r in RULESETS),
                ),
            )
        }
    )
