"""The Euchre family at two, three, four and six players, as RULES.md §5 states it.

Five-Handed Euchre (§4, `euchre.py`) scores the same tricks the same way; what the two
modules share (the tricks, the points of a made hand, the settling of a tie at the target)
is written there once and imported here.
"""

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from scorekeeper.engine.cards import Card, Rank, Suit
from scorekeeper.engine.describe import (
    Choice,
    ContractWords,
    EntryField,
    FieldKind,
    SideKind,
    Statistic,
    WinFact,
)
from scorekeeper.engine.frozen import FrozenMap, freeze
from scorekeeper.engine.messages import Message, msg
from scorekeeper.engine.results import (
    DealKind,
    DealResult,
    DecidedBy,
    Entry,
    HouseRule,
    Outcome,
    Status,
)
from scorekeeper.engine.ruleset import GameConfig, Ruleset
from scorekeeper.engine.rulesets.common import (
    Problems,
    TypeCheck,
    apply_deltas,
    is_bool,
    is_int,
    is_str,
    names,
    parse_typed,
    refuse_unknown,
    seat_of,
    suit_of,
)
from scorekeeper.engine.rulesets.euchre import (
    ALONE_MARCH_POINTS,
    EUCHRE_POINTS,
    MADE_POINTS,
    TRICKS,
    TRICKS_TO_MAKE,
    check_tricks,
    tie_at_target,
)

LONE_DEFENDER_EUCHRE_POINTS = 4
"""The defending team's score for euchring a lone maker with a lone defender (§5.5)."""

STICK_THE_DEALER = "stick_the_dealer"
DEFENDING_ALONE = "defending_alone"
BENNY = "benny"

HOUSE_RULES: Mapping[str, HouseRule] = FrozenMap(
    {
        STICK_THE_DEALER: HouseRule(
            (True, False),
            False,
            msg("When everyone passes twice the dealer must name trump, so no hand is thrown in."),
            msg("Stick the dealer"),
        ),
        DEFENDING_ALONE: HouseRule(
            (True, False),
            False,
            msg(
                "Against a maker who went alone, one defender may go alone too; euchring "
                "the lone maker then scores 4."
            ),
            msg("Defending alone"),
        ),
        BENNY: HouseRule(
            (True, False),
            False,
            msg(
                "The joker is added to the pack as the best bower, the highest trump; the "
                "scoring is unchanged."
            ),
            msg("Benny (the joker as best bower)"),
        ),
    }
)
"""The family's house rules (§5.5); each ruleset keeps those it has."""

FIELDS = ("thrown_in", "bidder", "trump", "alone", "defender_alone", "tricks")
"""Every field an entry of the family may have, in the order the deal document lists them."""

TYPE_CHECKS: dict[str, TypeCheck] = {
    "thrown_in": (is_bool, msg("thrown_in must be true or false.")),
    "bidder": (is_int, msg("The maker must be a seat number.")),
    "trump": (is_str, msg("Trump must be a suit letter: S, H, D or C.")),
    "alone": (is_bool, msg("alone must be true or false.")),
    "defender_alone": (is_int, msg("The lone defender must be a seat number.")),
    "tricks": (is_int, msg("The tricks must be a whole number from 0 to 5.")),
}


def pack(ranks: Sequence[Rank]) -> tuple[Card, ...]:
    """Return the cards of these ranks in every suit (the benny's joker is not entered)."""
    return tuple(Card(rank, suit) for suit in Suit for rank in ranks)


NINE_UP = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN, Rank.NINE)
"""The ranks of the 24-card pack."""
SEVEN_UP = (*NINE_UP, Rank.EIGHT, Rank.SEVEN)
"""The ranks of the six-handed 32-card pack."""


class EuchreFamily(Ruleset):
    """What the four games share: the entry, thrown-in hands, scoring by sides, the win check.

    A game of the family is its table (seats and teams), whether the maker may go alone,
    and what a march is worth; everything else is here.
    """

    target = 10
    house_rules: Mapping[str, HouseRule] = FrozenMap(
        {name: HOUSE_RULES[name] for name in (STICK_THE_DEALER, BENNY)}
    )
    contract_words = ContractWords(msg("made"), msg("euchred"), msg("Made"), msg("Euchred"))
    """§5: makers short of three tricks are euchred."""
    win_facts: tuple[WinFact, ...] = (WinFact.STARTING_SCORES,)
    """Sides that reach the target in the same hand are settled by their scores at its
    start; only three-handed play, where both opponents of a euchred maker score, gets there."""
    fixed_teams: tuple[tuple[int, ...], ...] | None = None
    """The partnerships, or None when every player keeps their own score."""
    goes_alone: bool = False
    """Whether the maker may declare alone (a maker with partners to lay down)."""
    march_points: int = 2
    """What a march (all five tricks, not declared alone) scores."""
    statistics: tuple[Statistic, ...] = (
        Statistic("bid", msg("Named trump")),
        Statistic("made", msg("Made")),
        Statistic("euchred", msg("Euchred")),
        Statistic("march", msg("Marches")),
        Statistic("euchre", msg("Euchres as defenders")),
    )

    # -- the table ---------------------------------------------------------------

    def teams(self, config: GameConfig) -> tuple[tuple[int, ...], ...] | None:
        """Return the partnerships, or None when scores are individual."""
        return self.fixed_teams

    def default_teams(self) -> tuple[tuple[int, ...], ...] | None:
        """Return the partnerships, or None when scores are individual."""
        return self.fixed_teams

    def sides(self, config: GameConfig) -> tuple[tuple[int, ...], ...]:
        """Return the sides that keep a score: the teams, else each seat alone."""
        return self.fixed_teams or tuple((seat,) for seat in range(config.seats))

    def side_of(self, config: GameConfig, seat: int) -> int:
        """Return the index of the side the seat belongs to."""
        return next(i for i, side in enumerate(self.sides(config)) if seat in side)

    def side_words(self, config: GameConfig, side: Sequence[int]) -> Message:
        """Return a side for people: the player's name, or "the team of Ann and Cy"."""
        if self.fixed_teams is None:
            return msg("%(names)s", names=names(config.players, side))
        return msg("the team of %(names)s", names=names(config.players, side))

    # -- the entry ---------------------------------------------------------------

    def entry_fields(self, config: GameConfig) -> tuple[EntryField, ...]:
        """Return maker, trump, alone (and the lone defender), tricks, and "everyone passed"."""
        fields = [
            EntryField("bidder", FieldKind.SEAT, msg("Maker"), msg("Who named trump.")),
            EntryField("trump", FieldKind.SUIT, msg("Trump")),
        ]
        if self.goes_alone:
            fields.append(
                EntryField(
                    "alone",
                    FieldKind.TOGGLE,
                    msg("Alone"),
                    msg("Whether the maker went alone, their partners laying their cards down."),
                    choices=(
                        Choice(False, msg("With partners")),
                        Choice(True, msg("Went alone")),
                    ),
                )
            )
        if self.defends_alone(config):
            fields.append(
                EntryField(
                    "defender_alone",
                    FieldKind.SEAT,
                    msg("Lone defender"),
                    msg("The defender who went alone against the lone maker, if one did."),
                    blank=msg("Nobody"),
                    differs_from="bidder",
                )
            )
        fields.append(
            EntryField(
                "tricks",
                FieldKind.NUMBER,
                msg("Tricks"),
                msg("How many of the five tricks the maker's side took."),
                choices=tuple(Choice(n, msg(str(n))) for n in range(TRICKS + 1)),
            )
        )
        if not config.house_rules.get(STICK_THE_DEALER):
            fields.append(
                EntryField(
                    "thrown_in",
                    FieldKind.FLAG,
                    msg("Everyone passed"),
                    msg("Everyone passed twice: the hand is thrown in and the deal passes left."),
                )
            )
        return tuple(fields)

    def defends_alone(self, config: GameConfig) -> bool:
        """Return whether a defender may go alone (house rule `defending_alone`)."""
        return bool(config.house_rules.get(DEFENDING_ALONE))

    def entry_keys(self, config: GameConfig) -> tuple[str, ...]:
        """Return the fields an entry of this game may have, in the document's order."""
        used = {f.name for f in self.entry_fields(config)} | {"thrown_in"}
        return tuple(name for name in FIELDS if name in used)

    def parse_entry(self, config: GameConfig, raw: object) -> Entry:
        """Return the entry with its JSON types checked, or raise WrongType."""
        entry = parse_typed(raw, TYPE_CHECKS)
        # `false` counts as left out (§5.6), so storage keeps what decides the score only.
        kept = {k: v for k, v in entry.raw.items() if v is not False}
        return Entry(freeze(kept), entry.number)

    # -- scoring -----------------------------------------------------------------

    def score_deal(
        self, config: GameConfig, number: int, dealer: int, scores: Sequence[int], entry: Entry
    ) -> DealResult:
        """Check the entry against every rule of §5 and score it, or raise RuleViolation."""
        raw = entry.raw
        problems = Problems()
        refuse_unknown(raw, self.entry_keys(config), self.label, problems)
        if raw.get("thrown_in") is True:
            return self._thrown_in(config, number, dealer, scores, raw, problems)
        maker = seat_of(raw, "bidder", config.seats, problems, msg("Choose who named trump."))
        trump = suit_of(raw, problems)
        alone = raw.get("alone") is True
        defender = self._lone_defender(config, raw, maker, alone, problems)
        tricks = check_tricks(raw, problems)
        problems.raise_if_any()
        assert maker is not None and trump is not None and tricks is not None

        sides = self.sides(config)
        makers_side = self.side_of(config, maker)
        made = tricks >= TRICKS_TO_MAKE
        points = [0] * len(sides)
        if made:
            points[makers_side] = self.maker_points(tricks, alone)
        else:
            euchre = LONE_DEFENDER_EUCHRE_POINTS if defender is not None else EUCHRE_POINTS
            for index in range(len(sides)):
                if index != makers_side:
                    points[index] = euchre
        deltas = tuple(points[self.side_of(config, seat)] for seat in range(config.seats))
        team = sides[makers_side]
        detail: dict[str, Any] = {
            "thrown_in": False,
            "bidder": maker,
            "trump": str(trump),
            **({"alone": alone} if self.goes_alone else {}),
            **({"defender_alone": defender} if self.defends_alone(config) else {}),
            "tricks": tricks,
            "points": tuple(points),
        }
        return DealResult(
            number=number,
            dealer=dealer,
            kind=DealKind.PLAYED,
            bidders=(maker, *(seat for seat in team if seat != maker)),
            made=made,
            deltas=deltas,
            scores=apply_deltas(scores, deltas),
            detail=FrozenMap(detail),
        )

    def maker_points(self, tricks: int, alone: bool) -> int:
        """Return what the makers' side scores for 3 to 5 tricks."""
        if tricks < TRICKS:
            return MADE_POINTS
        return ALONE_MARCH_POINTS if alone else self.march_points

    def _thrown_in(
        self,
        config: GameConfig,
        number: int,
        dealer: int,
        scores: Sequence[int],
        raw: Mapping[str, Any],
        problems: Problems,
    ) -> DealResult:
        """Return a thrown-in hand, or raise: it records nothing; stick the dealer forbids it."""
        if config.house_rules.get(STICK_THE_DEALER):
            problems.add(
                "thrown_in",
                msg(
                    "This game sticks the dealer (house rule): when everyone passes twice the "
                    "dealer must name trump, so no hand is thrown in."
                ),
            )
        others = [key for key in raw if key != "thrown_in"]
        for key in others:
            if key in FIELDS:  # any other key is already refused as unknown
                problems.add(
                    key, msg("A thrown-in deal has no bidder, trump or points: leave this out.")
                )
        if others:
            problems.add(
                "thrown_in",
                msg("A thrown-in hand records nothing else: leave the rest out."),
            )
        problems.raise_if_any()
        detail: dict[str, Any] = dict.fromkeys(self.entry_keys(config))
        detail.update(thrown_in=True, points=None)
        if self.goes_alone:
            detail["alone"] = False
        return DealResult(
            number=number,
            dealer=dealer,
            kind=DealKind.THROWN_IN,
            bidders=None,
            made=None,
            deltas=(0,) * config.seats,
            scores=tuple(scores),
            detail=freeze(detail),
        )

    def _lone_defender(
        self,
        config: GameConfig,
        raw: Mapping[str, Any],
        maker: int | None,
        alone: bool,
        problems: Problems,
    ) -> int | None:
        """Return the lone defender, noting one the house rules or the table do not allow."""
        if "alone" in raw and not self.goes_alone:
            problems.add(
                "alone",
                msg(
                    "In %(game)s the maker always plays without a partner, so nobody goes "
                    "alone: leave this out.",
                    game=self.label,
                ),
            )
        if "defender_alone" not in raw or not self.defends_alone(config):
            return None  # refused as unknown without the house rule
        defender = seat_of(raw, "defender_alone", config.seats, problems)
        if not alone:
            problems.add(
                "defender_alone",
                msg("A defender may go alone only against a maker who went alone."),
            )
            return None
        if defender is None or maker is None:
            return defender
        if self.side_of(config, defender) == self.side_of(config, maker):
            problems.add(
                "defender_alone",
                msg(
                    "%(name)s is on the maker's team; the lone defender is one of the other team.",
                    name=config.players[defender],
                ),
            )
            return None
        return defender

    # -- winning -----------------------------------------------------------------

    def next_dealer(self, config: GameConfig, result: DealResult) -> int:
        """Return who deals next: always the seat to the left, after a thrown-in hand too."""
        return (result.dealer + 1) % config.seats

    def starting_scores_needed(self, config: GameConfig, scores: Sequence[int]) -> tuple[int, ...]:
        """Return a seat of each side that reached the target, when several did together."""
        reached = tuple(side[0] for side in self.sides(config) if scores[side[0]] >= config.target)
        return reached if len(reached) > 1 else ()

    def outcome(
        self, config: GameConfig, scores: Sequence[int], last: DealResult | None
    ) -> Outcome:
        """Run §5's win check after a scored deal."""
        target = config.target
        sides = self.sides(config)
        reached = tuple(side for side in sides if scores[side[0]] >= target)
        # 1. Nobody at the target: play on.
        if not reached:
            return Outcome(
                Status.IN_PROGRESS,
                (),
                None,
                msg("Nobody has reached %(target)s yet.", target=target),
            )
        # 2. One side at the target or more: it wins.
        if len(reached) == 1:
            (winner,) = reached
            return Outcome(
                Status.WON,
                winner,
                DecidedBy.HIGHEST,
                msg(
                    "With %(score)s, %(side)s is the only one at %(target)s or more and wins.",
                    score=scores[winner[0]],
                    side=self.side_words(config, winner),
                    target=target,
                ),
            )
        # 3. Several in the same hand (three-handed only): the lowest at its start wins;
        # 4. still tied: drawn.
        seats = tuple(side[0] for side in reached)
        return tie_at_target(config, seats, last.starting_scores if last else tuple(scores))

    # -- words and records -------------------------------------------------------

    def explain(self, config: GameConfig, result: DealResult) -> tuple[Message, ...]:
        """Return who made trump, alone or not, and what the tricks scored, in sentences."""
        if not result.played:
            return (
                msg(
                    "Everyone passed twice, so the hand was thrown in and %(name)s, on the "
                    "dealer's left, deals next.",
                    name=config.players[(result.dealer + 1) % config.seats],
                ),
            )
        maker = config.players[result.bidder or 0]
        trump = Suit(result.get("trump")).words
        said: list[Message] = []
        if result.get("alone"):
            said.append(
                msg("%(maker)s named %(trump)s trump and went alone.", maker=maker, trump=trump)
            )
        else:
            said.append(msg("%(maker)s named %(trump)s trump.", maker=maker, trump=trump))
        defender = result.get("defender_alone")
        if defender is not None:
            said.append(msg("%(name)s defended alone against them.", name=config.players[defender]))
        said.append(self._scored(config, result))
        return tuple(said)

    def _scored(self, config: GameConfig, result: DealResult) -> Message:
        """Return the sentence saying what the makers' tricks scored, and to whom."""
        tricks: int = result.get("tricks")
        points: Sequence[int] = result.get("points")
        sides = self.sides(config)
        scoring = [side for side, got in zip(sides, points, strict=True) if got]
        words = tuple(self.side_words(config, side) for side in scoring)
        got = max(points)
        if not result.made:
            if len(scoring) > 1:
                return msg(
                    "Euchred: the makers took %(tricks)s of the five tricks, so %(sides)s "
                    "score %(points)s each.",
                    tricks=tricks,
                    sides=words,
                    points=got,
                )
            return msg(
                "Euchred: the makers took %(tricks)s of the five tricks, so %(side)s scores "
                "%(points)s.",
                tricks=tricks,
                side=words[0],
                points=got,
            )
        if tricks < TRICKS:
            return msg(
                "The makers took %(tricks)s of the five tricks, so %(side)s scores %(points)s.",
                tricks=tricks,
                side=words[0],
                points=got,
            )
        if result.get("alone"):
            return msg(
                "A lone march: the maker went alone and took all five tricks, so %(side)s "
                "scores %(points)s.",
                side=words[0],
                points=got,
            )
        return msg(
            "A march: the makers took all five tricks, so %(side)s scores %(points)s.",
            side=words[0],
            points=got,
        )

    def seat_tags(self, config: GameConfig, result: DealResult) -> tuple[frozenset[str], ...]:
        """Tag the maker (bid, made or euchred, march, alone) and each defender who euchred."""
        tags: list[frozenset[str]] = []
        for seat in range(config.seats):
            mine: set[str] = set()
            if result.played and seat == result.bidder:
                mine |= {"bid", "made" if result.made else "euchred"}
                alone = bool(result.get("alone"))
                march = result.get("tricks") == TRICKS
                mine |= {"march"} if march else set()
                mine |= {"alone"} if alone else set()
                mine |= {"lone_march"} if alone and march else set()
            elif result.played and result.bidders and seat not in result.bidders:
                mine |= set() if result.made else {"euchre"}
            tags.append(frozenset(mine))
        return tuple(tags)

    def deal_changes(self, config: GameConfig) -> frozenset[tuple[int, ...]] | None:
        """Return every change one deal makes: each entry this game accepts, scored."""
        return _deal_changes(self, config.seats, config.house_rules)


class PartnershipEuchre(EuchreFamily):
    """A family game in fixed teams, where the maker may go alone and a lone march scores 4."""

    side_kind = SideKind.TEAMS
    goes_alone = True
    statistics = (
        *EuchreFamily.statistics,
        Statistic("alone", msg("Played alone")),
        Statistic("lone_march", msg("Lone marches")),
    )


class Euchre(PartnershipEuchre):
    """Four players, partners sitting opposite, team scores, 24 cards; 10 wins (§5.1)."""

    id = "euchre"
    label = msg("Euchre")
    min_players = 4
    max_players = 4
    deck = pack(NINE_UP)
    fixed_teams = ((0, 2), (1, 3))
    house_rules: Mapping[str, HouseRule] = HOUSE_RULES
    summary = msg(
        "Four players, partners sitting opposite, team scores; the makers need 3 of the 5 "
        "tricks, a march scores 2, a lone march 4, a euchre 2. 10 wins."
    )
    deal_setup = (
        msg(
            "24 cards: the 9, 10, jack, queen, king and ace of every suit (and the joker "
            "with the benny house rule)."
        ),
        msg("Deal five cards to each player; turn up the top card of the four left."),
    )


class SixHandedEuchre(PartnershipEuchre):
    """Six players in two teams of three sitting alternately, 32 cards; 10 wins (§5.4)."""

    id = "six-handed-euchre"
    label = msg("Six-Handed Euchre")
    min_players = 6
    max_players = 6
    deck = pack(SEVEN_UP)
    fixed_teams = ((0, 2, 4), (1, 3, 5))
    summary = msg(
        "Six players in two teams of three sitting alternately, team scores; scored as "
        "four-handed Euchre. 10 wins."
    )
    deal_setup = (
        msg(
            "32 cards: the 7, 8, 9, 10, jack, queen, king and ace of every suit (and the "
            "joker with the benny house rule)."
        ),
        msg("Deal five cards to each player; turn up the top card of the two left."),
    )


class TwoHandedEuchre(EuchreFamily):
    """Two players, 24 cards, no going alone: a march 2, a euchre 2; 10 wins (§5.2)."""

    id = "two-handed-euchre"
    label = msg("Two-Handed Euchre")
    min_players = 2
    max_players = 2
    deck = pack(NINE_UP)
    summary = msg(
        "Two players, each for themselves; the maker needs 3 of the 5 tricks, a march "
        "scores 2, a euchre gives the other player 2. 10 wins."
    )
    deal_setup = (
        msg(
            "24 cards: the 9, 10, jack, queen, king and ace of every suit (and the joker "
            "with the benny house rule)."
        ),
        msg("Deal five cards to each player; turn up the top card of the rest."),
    )


class ThreeHandedEuchre(EuchreFamily):
    """Three players, the maker alone against two: a march 3, each opponent 2 (§5.3)."""

    id = "three-handed-euchre"
    label = msg("Three-Handed Euchre")
    min_players = 3
    max_players = 3
    deck = pack(NINE_UP)
    march_points = 3
    summary = msg(
        "Three players, each for themselves, the maker alone against the other two; a "
        "march scores 3, a euchre gives each opponent 2. 10 wins."
    )
    deal_setup = (
        msg(
            "24 cards: the 9, 10, jack, queen, king and ace of every suit (and the joker "
            "with the benny house rule)."
        ),
        msg("Deal five cards to each player; turn up the top card of the nine left."),
    )
    deal_changes_words = msg(
        "in one hand the maker scores 1 or 3, or, when the maker is euchred, each of the "
        "other two scores 2; nobody else scores, and no score goes down."
    )


@cache
def _deal_changes(
    rules: EuchreFamily, seats: int, house_rules: FrozenMap[str, Any]
) -> frozenset[tuple[int, ...]]:
    """Return the changes of every entry at a table of `seats`: each maker, alone and tricks."""
    players = tuple(str(seat) for seat in range(seats))
    config = GameConfig(rules, players, 0, rules.target, house_rules)
    changes = set()
    for maker in range(seats):
        for alone in (False, True) if rules.goes_alone else (False,):
            for tricks in range(TRICKS + 1):
                raw = {"bidder": maker, "trump": "H", "alone": alone, "tricks": tricks}
                entry = rules.parse_entry(config, raw)
                changes.add(rules.score_deal(config, 1, 0, (0,) * seats, entry).deltas)
    return frozenset(changes)
