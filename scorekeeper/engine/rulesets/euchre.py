"""Five-Handed Euchre, as docs/rules.md#five-handed-euchre states it."""

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from scorekeeper.engine.cards import Card, Rank, Suit
from scorekeeper.engine.describe import (
    Choice,
    ContractWords,
    EntryField,
    FieldKind,
    Statistic,
    WinFact,
)
from scorekeeper.engine.errors import RuleViolation
from scorekeeper.engine.frozen import FrozenMap
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
        tricks = self._tricks(raw, problems)
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

    @staticmethod
    def _tricks(raw: Mapping[str, Any], problems: Problems) -> int | None:
        """Return the makers' tricks, noting a missing count or one outside 0 to 5."""
        tricks = raw.get("tricks")
        if tricks is None:
            problems.add("tricks", msg("Enter how many of the five tricks the makers took."))
            return None
        if not 0 <= tricks <= TRICKS:
            problems.add(
                "tricks",
                msg(
                    "There are five tricks: the makers took 0 to 5, not %(tricks)s.", tricks=tricks
                ),
            )
            return None
        return int(tricks)

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
        # 3. Several reached it in one hand: the lowest score at the start of that hand wins.
        start = last.starting_scores if last is not None else tuple(scores)
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
