"""A stand-in for the deal just scored, so the win check can settle a position entered by hand.

At the table the question is "we are 21 and 21, Bob bid and Di partnered him: who wins?".
The win check (`Ruleset.outcome`) answers it from the scores and the last deal; the points
of that deal do not matter to it, only the facts each ruleset lists in `win_facts`. This
module builds a played deal carrying those facts, checked against the table, and nothing
else: the ruleset's own win check does the deciding.
"""

from collections.abc import Sequence

from scorekeeper.engine.describe import WinFact
from scorekeeper.engine.errors import RuleViolation
from scorekeeper.engine.frozen import freeze
from scorekeeper.engine.messages import Message, msg
from scorekeeper.engine.results import DealKind, DealResult
from scorekeeper.engine.ruleset import GameConfig
from scorekeeper.engine.rulesets.common import Problems, is_int


def unused(fact: WinFact, game: Message) -> Message:
    """Return what is said when a fact is given that the ruleset's win check does not read."""
    if fact is WinFact.BIDDER:
        return msg("In %(game)s the win check does not ask who bid.", game=game)
    if fact is WinFact.PARTNER:
        return msg("In %(game)s the win check does not ask who partnered the bidder.", game=game)
    if fact is WinFact.MOON:
        return msg("%(game)s has no moon.", game=game)
    return msg("In %(game)s the win check does not use the scores at the start.", game=game)


def one_deal(
    config: GameConfig, scores: Sequence[int], starting_scores: Sequence[int | None]
) -> tuple[int, ...]:
    """Return each seat's change in a deal that took the known starting scores to `scores`.

    A seat whose starting score is None takes the change of a deal of the game that fits
    the others (no change where the ruleset lists no changes). Raises RuleViolation, with
    the reason, when no deal of the game can take the table from those scores to these.
    """
    known = {
        seat: end - start
        for seat, (end, start) in enumerate(zip(scores, starting_scores, strict=True))
        if start is not None
    }
    rules = config.ruleset
    changes = rules.deal_changes(config)
    if changes is None:
        return tuple(known.get(seat, 0) for seat in range(config.seats))
    fitting = sorted(c for c in changes if all(c[seat] == d for seat, d in known.items()))
    if fitting:
        return fitting[0]
    rule = rules.deal_changes_words or msg("no deal of the game makes that change.")
    made = {change[seat] for change in changes for seat in range(config.seats)}
    for seat, change in known.items():
        if change not in made:
            raise RuleViolation(
                {
                    "starting_scores": [
                        msg(
                            "No deal of %(game)s takes %(name)s from %(start)s to %(end)s: "
                            "%(rule)s",
                            game=rules.label,
                            name=config.players[seat],
                            start=starting_scores[seat],
                            end=scores[seat],
                            rule=rule,
                        )
                    ]
                }
            )
    # Built apart: babel does not extract a msg() nested inside another's arguments.
    moves = tuple(
        msg(
            "%(name)s from %(start)s to %(end)s",
            name=config.players[seat],
            start=starting_scores[seat],
            end=scores[seat],
        )
        for seat in known
    )
    raise RuleViolation(
        {
            "starting_scores": [
                msg(
                    "No one deal of %(game)s takes %(moves)s: %(rule)s",
                    game=rules.label,
                    moves=moves,
                    rule=rule,
                )
            ]
        }
    )


def stand_in_deal(
    config: GameConfig,
    scores: Sequence[int],
    *,
    bidder: int | None = None,
    partner: int | None = None,
    moon: bool = False,
    starting_scores: Sequence[int | None] | None = None,
) -> DealResult:
    """Return a played deal that left the table at `scores`, for `config.ruleset.outcome`.

    `bidder`, `partner`, `moon` and `starting_scores` are the facts of the deal a win check
    may read (the ruleset's `win_facts`); a fact the ruleset reads must be given, one it
    does not read must be left out. The bidding side is the bidder's team in team games,
    else the bidder with the partner if any. The contract counts as made; a moon is one
    that took every point. Each seat's change is its score less its starting score (no
    change when those are not given); a starting score may be None for a seat the win check
    does not need (`Ruleset.starting_scores_needed`), whose change then follows from the
    deal that fits the others. Raises RuleViolation naming every fact that does not fit the
    table, all at once, and when no deal of the game takes the starting scores to these.
    """
    seats = config.seats
    problems = Problems()
    _check_scores(config, scores, problems)
    _check_starting_scores(config, scores, starting_scores, problems)
    _check_facts(config, bidder, partner, moon, problems)
    problems.raise_if_any()

    teams = config.teams()
    if bidder is None:
        side: tuple[int, ...] = ()
    elif teams:
        team = next(team for team in teams if bidder in team)
        side = (bidder, *(seat for seat in team if seat != bidder))
    else:
        side = (bidder,) if partner is None else (bidder, partner)
    deltas = one_deal(config, scores, starting_scores or (None,) * seats)
    return DealResult(
        number=1,
        dealer=0 if bidder is None else (bidder - 1) % seats,
        kind=DealKind.PLAYED,
        bidders=side,
        made=True,
        deltas=deltas,
        scores=tuple(scores),
        detail=freeze(dict(config.ruleset.win_detail(bidder, partner, moon))),
    )


def _check_scores(config: GameConfig, scores: Sequence[int], problems: Problems) -> None:
    """Add a problem unless there is a whole-number score per seat, one per team."""
    seats = config.seats
    if len(scores) != seats or not all(is_int(s) for s in scores):
        problems.add(
            "scores", msg("Give a whole-number score for each of the %(n)s seats.", n=seats)
        )
    teams = config.teams()
    if teams and len(scores) == seats:
        for team in teams:
            if len({scores[seat] for seat in team}) > 1:
                problems.add(
                    "scores", msg("Team mates share one score; give each team a single one.")
                )
                break


def _check_starting_scores(
    config: GameConfig,
    scores: Sequence[int],
    starting_scores: Sequence[int | None] | None,
    problems: Problems,
) -> None:
    """Add a problem unless the starting scores the win check needs, and only those, are
    given."""
    seats = config.seats
    if WinFact.STARTING_SCORES not in config.ruleset.win_facts:
        if starting_scores is not None:
            problems.add("starting_scores", unused(WinFact.STARTING_SCORES, config.ruleset.label))
        return
    needed = config.ruleset.starting_scores_needed(config, scores) if not problems else ()
    if starting_scores is None:
        starting_scores = (None,) * seats
    if len(starting_scores) != seats or not all(s is None or is_int(s) for s in starting_scores):
        problems.add(
            "starting_scores",
            msg("Give a whole-number starting score for each of the %(n)s seats.", n=seats),
        )
    elif any(starting_scores[seat] is None for seat in needed):
        problems.add(
            "starting_scores",
            msg(
                "Give the score at the start of the deal of %(names)s: the win check uses it.",
                names=tuple(
                    config.players[seat] for seat in needed if starting_scores[seat] is None
                ),
            ),
        )


def _check_facts(
    config: GameConfig, bidder: int | None, partner: int | None, moon: bool, problems: Problems
) -> None:
    """Add a problem for each fact the win check needs but is missing, does not read but is
    given, or names a seat not at the table."""
    facts = config.ruleset.win_facts
    seats = config.seats
    for field, seat in (("bidder", bidder), ("partner", partner)):
        fact = WinFact(field)
        if seat is None:
            if fact is WinFact.BIDDER and fact in facts:
                problems.add("bidder", msg("Say who bid this deal: the win check needs it."))
            continue
        if fact not in facts:
            problems.add(field, unused(fact, config.ruleset.label))
        elif not is_int(seat) or not 0 <= seat < seats:
            problems.add(
                field,
                msg(
                    "Seat %(seat)s is not at this table: seats run from 0 to %(last)s.",
                    seat=seat,
                    last=seats - 1,
                ),
            )
    if partner is not None and partner == bidder:
        problems.add("partner", msg("The bidder cannot be their own partner."))
    if moon and WinFact.MOON not in facts:
        problems.add("moon", unused(WinFact.MOON, config.ruleset.label))
