"""The Euchre games: Five-Handed Euchre and the Euchre family, as docs/rules.md states them.

Euchre (four-handed), Two-, Three- and Six-Handed Euchre (docs/rules.md#the-euchre-family)
score the same tricks the same way as Five-Handed Euchre (docs/rules.md#five-handed-euchre);
the tricks check, the points of a made hand and the settling of a tie at the target are
written once, for all five.
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
from scorekeeper.engine.errors import RuleViolation
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

HIGH_JOKER = Card(Rank.TWO, Suit.SPADES)
"""The 2 of spades stands for the high joker, the top trump."""
LOW_JOKER = Card(Rank.TWO, Suit.HEARTS)
"""The 2 of hearts stands for the low joker, the second trump."""
SUIT_RANKS = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN, Rank.NINE)
"""The ranks every suit has in this pack; each suit has its 8 as well."""
DECK: tuple[Card, ...] = (
    *(Card(rank, suit) for suit in Suit for rank in (*SUIT_RANKS, Rank.EIGHT)),
    HIGH_JOKER,
    LOW_JOKER,
)
"""The 30 cards: 9 10 J Q K A and the 8 of each suit, and the two 2s (the jokers)."""

TRICKS = 5
"""Tricks in a hand: five cards each."""
TRICKS_TO_MAKE = 3
"""The makers need a majority of the tricks."""
MADE_POINTS = 1
"""Each maker's score for 3 or 4 tricks."""
MARCH_POINTS = 2
"""Each maker's score for all five tricks with a partner, or alone because the card was buried."""
ALONE_MARCH_POINTS = 4
"""The maker's score for all five tricks after declaring alone."""
EUCHRE_POINTS = 2
"""Each defender's score when the makers are euchred."""

BIDDERS = "bidders"
OPPONENTS = "opponents"
"""The keys of `points`: the tricks each side took, named as in Five-Handed Schmier."""

FIELDS = ("bidder", "trump", "called_card", "partner", "tricks")
"""The entry's fields, in the order the deal document lists them."""

TYPE_CHECKS: dict[str, TypeCheck] = {
    "bidder": (is_int, msg("The maker must be a seat number.")),
    "trump": (is_str, msg("Trump must be a suit letter: S, H, D or C.")),
    "called_card": (is_str, msg("The called card must be written like AS, 10H or 2S.")),
    "partner": (is_int, msg("The partner must be a seat number.")),
    "tricks": (is_int, msg("The tricks must be a whole number from 0 to 5.")),
}


def trump_order(trump: Suit) -> tuple[Card, ...]:
    """Return the ten trumps, high to low: both jokers, both bowers, then A K Q 10 9 8."""
    plain = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.TEN, Rank.NINE, Rank.EIGHT)
    return (
        HIGH_JOKER,
        LOW_JOKER,
        Card(Rank.JACK, trump),
        Card(Rank.JACK, trump.same_colour),
        *(Card(rank, trump) for rank in plain),
    )


TRUMP_ORDER: Mapping[Suit, tuple[Card, ...]] = FrozenMap({suit: trump_order(suit) for suit in Suit})
"""Each suit's trumps, high to low (for hints and the rules page; scoring needs no order)."""


def card_words(card: Card) -> Message:
    """Return the card in words, saying which 2 is which joker."""
    if card == HIGH_JOKER:
        return msg("2 of spades (the high joker)")
    if card == LOW_JOKER:
        return msg("2 of hearts (the low joker)")
    return card.words


def maker_points(tricks: int, declared_alone: bool) -> int:
    """Return what each maker scores for the tricks taken (0 when euchred)."""
    if tricks < TRICKS_TO_MAKE:
        return 0
    if tricks < TRICKS:
        return MADE_POINTS
    return ALONE_MARCH_POINTS if declared_alone else MARCH_POINTS


def check_tricks(raw: Mapping[str, Any], problems: Problems) -> int | None:
    """Return the makers' tricks, noting a missing count or one outside 0 to 5."""
    tricks = raw.get("tricks")
    if tricks is None:
        problems.add("tricks", msg("Enter how many of the five tricks the makers took."))
        return None
    if not 0 <= tricks <= TRICKS:
        problems.add(
            "tricks",
            msg("There are five tricks: the makers took 0 to 5, not %(tricks)s.", tricks=tricks),
        )
        return None
    return int(tricks)


def tie_at_target(config: GameConfig, reached: tuple[int, ...], start: Sequence[int]) -> Outcome:
    """Settle players who reached the target in the same hand: the lowest at its start wins.

    `start` holds each seat's score when the hand began; still tied, the game is drawn.
    """
    target = config.target
    # 3. Several reached it in one hand: the lowest score at the start of that hand wins.
    lowest = min(start[seat] for seat in reached)
    first = tuple(seat for seat in reached if start[seat] == lowest)
    together = names(config.players, reached)
    if len(first) == 1:
        (winner,) = first
        name = config.players[winner]
        return Outcome(
            Status.WON,
            first,
            DecidedBy.LOWEST_AT_START,
            msg(
                "%(reached)s reached %(target)s in the same hand; %(name)s had the lowest "
                "score when it began, %(start)s, so %(name)s wins.",
                reached=together,
                target=target,
                name=name,
                start=lowest,
            ),
        )
    # 4. Still tied: the game is drawn.
    if first == reached:
        explanation = msg(
            "%(reached)s reached %(target)s in the same hand from the same score, "
            "%(start)s, so the game is drawn.",
            reached=together,
            target=target,
            start=lowest,
        )
    else:
        explanation = msg(
            "%(reached)s reached %(target)s in the same hand; %(tied)s had the lowest "
            "score when it began, %(start)s each, so the game is drawn.",
            reached=together,
            target=target,
            tied=names(config.players, first),
            start=lowest,
        )
    return Outcome(Status.DRAWN, (), DecidedBy.DRAW, explanation)


class FiveHandedEuchre(Ruleset):
    """Five players, individual scores, a called partner or none, five tricks, 10 to win."""

    id = "five-handed-euchre"
    label = msg("Five-Handed Euchre")
    min_players = 5
    max_players = 5
    target = 10
    deck = DECK
    house_rules: Mapping[str, HouseRule] = FrozenMap()
    win_facts = (WinFact.STARTING_SCORES,)
    contract_words = ContractWords(msg("made"), msg("euchred"), msg("Made"), msg("Euchred"))
    """docs/rules.md#five-handed-euchre: makers short of three tricks are euchred."""
    statistics = (
        Statistic("bid", msg("Named trump")),
        Statistic("made", msg("Made")),
        Statistic("euchred", msg("Euchred")),
        Statistic("called", msg("Called as partner")),
        Statistic("alone", msg("Played alone")),
        Statistic("march", msg("Marches")),
    )
    summary = msg(
        "Five players, each for themselves, with a 30-card pack; the maker calls a card "
        "whose holder is the partner, or goes alone, and needs 3 of the 5 tricks. 10 wins."
    )
    deal_setup = (
        msg(
            "30 cards: the 9, 10, jack, queen, king and ace of every suit, the four 8s, and "
            "the 2 of spades and 2 of hearts (or a high and a low joker in their place)."
        ),
        msg("Deal five cards to each player; the other five form the kitty."),
    )

    # -- the entry ---------------------------------------------------------------

    def entry_fields(self, config: GameConfig) -> tuple[EntryField, ...]:
        """Return the maker, trump, called card, partner and tricks, as the form shows them."""
        return (
            EntryField(
                "bidder",
                FieldKind.SEAT,
                msg("Maker"),
                msg("Who named trump."),
            ),
            EntryField("trump", FieldKind.SUIT, msg("Trump")),
            EntryField(
                "called_card",
                FieldKind.CARD,
                msg("Called card"),
                msg("The card whose holder is the maker's partner; 2S and 2H are the jokers."),
                choices=tuple(
                    Choice(str(card), card_words(card)) for card in (HIGH_JOKER, LOW_JOKER)
                ),
                blank=msg("No card called (alone)"),
                holder="partner",
            ),
            EntryField(
                "partner",
                FieldKind.SEAT,
                msg("Partner"),
                msg("Who held the called card; leave it out if it was in the kitty or discard."),
                blank=msg("No partner"),
                differs_from="bidder",
            ),
            EntryField(
                "tricks",
                FieldKind.NUMBER,
                msg("Tricks"),
                msg("How many of the five tricks the maker's side took."),
                choices=tuple(Choice(n, msg(str(n))) for n in range(TRICKS + 1)),
            ),
        )

    def parse_entry(self, config: GameConfig, raw: object) -> Entry:
        """Return the entry with its JSON types checked, or raise WrongType."""
        return parse_typed(raw, TYPE_CHECKS)

    # -- scoring -----------------------------------------------------------------

    def score_deal(
        self, config: GameConfig, number: int, dealer: int, scores: Sequence[int], entry: Entry
    ) -> DealResult:
        """Check the entry against every rule of docs/rules.md#five-handed-euchre and score it,
        or raise RuleViolation."""
        raw = entry.raw
        problems = Problems()
        refuse_unknown(raw, FIELDS, self.label, problems)
        maker = seat_of(raw, "bidder", config.seats, problems, msg("Choose who named trump."))
        trump = suit_of(raw, problems)
        called = self._called_card(raw, problems)
        partner = self._partner(raw, maker, config.seats, problems)
        tricks = check_tricks(raw, problems)
        problems.raise_if_any()
        assert maker is not None and trump is not None and tricks is not None

        makers = (maker,) if partner is None else (maker, partner)
        made = tricks >= TRICKS_TO_MAKE
        declared_alone = called is None
        each = maker_points(tricks, declared_alone) if made else EUCHRE_POINTS
        deltas = tuple(each if (seat in makers) == made else 0 for seat in range(config.seats))
        detail: dict[str, Any] = {
            "bidder": maker,
            "trump": str(trump),
            "called_card": None if called is None else str(called),
            "partner": partner,
            "tricks": tricks,
            "points": FrozenMap({BIDDERS: tricks, OPPONENTS: TRICKS - tricks}),
        }
        return DealResult(
            number=number,
            dealer=dealer,
            kind=DealKind.PLAYED,
            bidders=makers,
            made=made,
            deltas=deltas,
            scores=apply_deltas(scores, deltas),
            detail=FrozenMap(detail),
        )

    def _called_card(self, raw: Mapping[str, Any], problems: Problems) -> Card | None:
        """Return the called card, noting a card that is not in this pack."""
        text = raw.get("called_card")
        if text is None:
            return None
        try:
            card = Card.parse(text)
        except RuleViolation:
            card = None
        if card is None or card not in self.deck:
            problems.add(
                "called_card",
                msg(
                    "%(text)r is not a card of the %(game)s pack: 9, 10, J, Q, K and A of each "
                    "suit, the four 8s, 2S (the high joker) and 2H (the low joker).",
                    text=text,
                    game=self.label,
                ),
            )
            return None
        return card

    @staticmethod
    def _partner(
        raw: Mapping[str, Any], maker: int | None, seats: int, problems: Problems
    ) -> int | None:
        """Return the partner, noting a partner who is the maker or has no called card."""
        partner = seat_of(raw, "partner", seats, problems)
        if partner is None:
            return None
        if partner == maker:
            problems.add("partner", msg("The maker cannot be their own partner."))
        if "called_card" not in raw:
            problems.add(
                "partner",
                msg(
                    "Only a called card makes a partner: enter the called card, or leave the "
                    "partner out if the maker went alone."
                ),
            )
        return None if "partner" in problems else partner

    # -- winning -----------------------------------------------------------------

    def starting_scores_needed(self, config: GameConfig, scores: Sequence[int]) -> tuple[int, ...]:
        """Return the seats that reached the target together: only their start decides."""
        reached = tuple(seat for seat, score in enumerate(scores) if score >= config.target)
        return reached if len(reached) > 1 else ()

    def deal_changes(self, config: GameConfig) -> frozenset[tuple[int, ...]] | None:
        """Return every change one deal makes: each entry this game accepts, scored."""
        return _deal_changes(self, config.seats)

    deal_changes_words = msg(
        "in one deal the maker and the partner each score 1 or 2 (a maker alone 1, 2 or 4), "
        "or, when the makers are euchred, each defender scores 2; nobody else scores, and no "
        "score goes down."
    )

    def outcome(
        self, config: GameConfig, scores: Sequence[int], last: DealResult | None
    ) -> Outcome:
        """Run docs/rules.md#five-handed-euchre's win check after a scored deal."""
        target = config.target
        reached = tuple(seat for seat, score in enumerate(scores) if score >= target)
        # 1. Nobody at the target: play on.
        if not reached:
            return Outcome(
                Status.IN_PROGRESS,
                (),
                None,
                msg("Nobody has reached %(target)s yet.", target=target),
            )
        # 2. One player alone reached it: that player wins.
        if len(reached) == 1:
            (winner,) = reached
            name = config.players[winner]
            return Outcome(
                Status.WON,
                reached,
                DecidedBy.HIGHEST,
                msg(
                    "%(name)s reached %(score)s, so %(name)s wins.",
                    name=name,
                    score=scores[winner],
                ),
            )
        # 3. Several reached it in one hand: the lowest score at the start of that hand
        # wins; 4. still tied: the game is drawn.
        return tie_at_target(config, reached, last.starting_scores if last else tuple(scores))

    # -- words and records -------------------------------------------------------

    def explain(self, config: GameConfig, result: DealResult) -> tuple[Message, ...]:
        """Return who made trump with whom, and what the tricks scored, in sentences."""
        assert result.bidders is not None
        maker = config.players[result.bidders[0]]
        trump = Suit(result.get("trump")).words
        called_text = result.get("called_card")
        partner = result.get("partner")
        tricks: int = result.get("tricks")
        if called_text is None:
            contract = msg(
                "%(maker)s named %(trump)s trump and went alone.", maker=maker, trump=trump
            )
        elif partner is None:
            contract = msg(
                "%(maker)s named %(trump)s trump and called the %(card)s, which was in the kitty "
                "or the dealer's discard, so %(maker)s played alone.",
                maker=maker,
                trump=trump,
                card=card_words(Card.parse(called_text)),
            )
        else:
            contract = msg(
                "%(maker)s named %(trump)s trump and called the %(card)s; %(partner)s held it "
                "and was the partner.",
                maker=maker,
                trump=trump,
                card=card_words(Card.parse(called_text)),
                partner=config.players[partner],
            )
        return (contract, self._scored(config, result, tricks))

    @staticmethod
    def _scored(config: GameConfig, result: DealResult, tricks: int) -> Message:
        """Return the sentence saying what the makers' tricks scored, and to whom."""
        assert result.bidders is not None
        makers = names(config.players, result.bidders)
        maker = makers[0]
        alone = len(result.bidders) == 1
        if not result.made:
            defenders = names(
                config.players, (s for s in range(config.seats) if s not in result.bidders)
            )
            # Literal msg() calls, so the catalogs' extraction finds each sentence.
            said = {"makers": makers, "tricks": tricks, "defenders": defenders}
            if alone:
                return msg(
                    "%(makers)s took %(tricks)s of the five tricks and was euchred, so each "
                    "defender (%(defenders)s) scores %(points)s.",
                    points=EUCHRE_POINTS,
                    **said,
                )
            return msg(
                "%(makers)s took %(tricks)s of the five tricks and were euchred, so each "
                "defender (%(defenders)s) scores %(points)s.",
                points=EUCHRE_POINTS,
                **said,
            )
        if tricks < TRICKS:
            if alone:
                return msg(
                    "%(makers)s took %(tricks)s of the five tricks, so %(makers)s scores "
                    "%(points)s.",
                    makers=makers,
                    tricks=tricks,
                    points=MADE_POINTS,
                )
            return msg(
                "%(makers)s took %(tricks)s of the five tricks, so each scores %(points)s.",
                makers=makers,
                tricks=tricks,
                points=MADE_POINTS,
            )
        if result.get("called_card") is None:
            return msg(
                "%(maker)s went alone and took all five tricks, so %(maker)s scores %(points)s.",
                maker=maker,
                points=ALONE_MARCH_POINTS,
            )
        if alone:
            return msg(
                "%(maker)s took all five tricks alone only because the called card was buried, "
                "so %(maker)s scores %(points)s, as for a march with a partner.",
                maker=maker,
                points=MARCH_POINTS,
            )
        return msg(
            "%(makers)s took all five tricks (a march), so each scores %(points)s.",
            makers=makers,
            points=MARCH_POINTS,
        )

    def seat_tags(self, config: GameConfig, result: DealResult) -> tuple[frozenset[str], ...]:
        """Tag the maker (bid, made or euchred, alone, march) and the called partner."""
        tags: list[frozenset[str]] = []
        for seat in range(config.seats):
            mine: set[str] = set()
            if result.played and seat == result.bidder:
                mine |= {"bid", "made" if result.made else "euchred"}
                if result.get("partner") is None:
                    mine.add("alone")
                if result.get("tricks") == TRICKS:
                    mine.add("march")
            elif result.played and seat == result.get("partner"):
                mine.add("called")
            tags.append(frozenset(mine))
        return tuple(tags)


@cache
def _deal_changes(rules: FiveHandedEuchre, seats: int) -> frozenset[tuple[int, ...]]:
    """Return the changes of every entry at a table of `seats`: each maker, partner and tricks."""
    config = GameConfig(rules, tuple(f"{seat}" for seat in range(seats)), 0, rules.target)
    held = Card(Rank.KING, Suit.HEARTS)
    changes = set()
    for maker in range(seats):
        # Alone by choice (no card called), alone with the card buried, or with a partner.
        calls: list[tuple[str | None, int | None]] = [(None, None), (str(held), None)]
        calls += [(str(held), seat) for seat in range(seats) if seat != maker]
        for card, partner in calls:
            for tricks in range(TRICKS + 1):
                raw = {"bidder": maker, "trump": "H", "called_card": card, "tricks": tricks}
                if partner is not None:
                    raw["partner"] = partner
                entry = rules.parse_entry(config, {k: v for k, v in raw.items() if v is not None})
                result = rules.score_deal(config, 1, 0, (0,) * seats, entry)
                changes.add(result.deltas)
    return frozenset(changes)


# -- the Euchre family (docs/rules.md#the-euchre-family) ---------------------------------

LONE_DEFENDER_EUCHRE_POINTS = 4
"""The defending team's score for euchring a lone maker with a lone defender (house rule)."""

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
"""The family's house rules (docs/rules.md#the-euchre-family); each ruleset keeps those it has."""

FAMILY_FIELDS = ("thrown_in", "bidder", "trump", "alone", "defender_alone", "tricks")
"""Every field an entry of the family may have, in the order the deal document lists them."""

FAMILY_TYPE_CHECKS: dict[str, TypeCheck] = {
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
    """Tell whether the makers fell short of three tricks: they are euchred."""
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
        Statistic("euchring", msg("Euchres as defenders")),
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
        return tuple(name for name in FAMILY_FIELDS if name in used)

    def parse_entry(self, config: GameConfig, raw: object) -> Entry:
        """Return the entry with its JSON types checked, or raise WrongType."""
        entry = parse_typed(raw, FAMILY_TYPE_CHECKS)
        # `false` counts as left out (docs/rules.md#what-every-entry-must-not-do), so storage
        # keeps what decides the score only.
        kept = {k: v for k, v in entry.raw.items() if v is not False}
        return Entry(freeze(kept), entry.number)

    # -- scoring -----------------------------------------------------------------

    def score_deal(
        self, config: GameConfig, number: int, dealer: int, scores: Sequence[int], entry: Entry
    ) -> DealResult:
        """Check the entry against every rule of the family and score it, or raise RuleViolation."""
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
            if key in FAMILY_FIELDS:  # any other key is already refused as unknown
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
        """Run the family's win check after a scored deal."""
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
                mine |= set() if result.made else {"euchring"}
            tags.append(frozenset(mine))
        return tuple(tags)

    def deal_changes(self, config: GameConfig) -> frozenset[tuple[int, ...]] | None:
        """Return every change one deal makes: each entry this game accepts, scored."""
        return _family_deal_changes(self, config.seats, config.house_rules)


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
    """Four players, partners opposite, team scores, 24 cards; 10 wins (docs/rules.md#euchre)."""

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
    """Six players, two alternating teams of three, 32 cards; 10 wins.

    See docs/rules.md#six-handed-euchre.
    """

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
    """Two players, 24 cards, no going alone: a march 2, a euchre 2; 10 wins.

    See docs/rules.md#two-handed-euchre.
    """

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
    """Three players, the maker alone against two: a march 3, each opponent 2.

    See docs/rules.md#three-handed-euchre.
    """

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
def _family_deal_changes(
    rules: EuchreFamily, seats: int, house_rules: FrozenMap[str, Any]
) -> frozenset[tuple[int, ...]]:
    """Return the changes of every family entry at a table: each maker, alone and tricks."""
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
