"""Five-Handed Schmier, as docs/rules.md#five-handed-schmier states it."""

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from scorekeeper.engine.cards import JOKER, Card, Rank, Suit, game_value
from scorekeeper.engine.describe import (
    CalledPoint,
    Choice,
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
    check_thrown_in,
    contract_of,
    game_cards,
    is_auction,
    is_bool,
    is_int,
    is_str,
    names,
    parse_typed,
    refuse_unknown,
    resolve_auction,
    seat_of,
    signed,
    suit_of,
    unresolved_tie,
)

NOT_DECK_RANKS = (Rank.TWO, Rank.THREE)
DECK: tuple[Card, ...] = (
    *(Card(rank, suit) for suit in Suit for rank in Rank if rank not in NOT_DECK_RANKS),
    JOKER,
)
"""The 45 cards: 52 without the 2s and 3s, plus one joker."""


def trump_order(trump: Suit) -> tuple[Card, ...]:
    """Return the 13 trumps, high to low: A K Q, both bauers, 10 down to 4, the joker."""
    right, left = Card(Rank.JACK, trump), Card(Rank.JACK, trump.same_colour)
    plain = [Rank.TEN, Rank.NINE, Rank.EIGHT, Rank.SEVEN, Rank.SIX, Rank.FIVE, Rank.FOUR]
    return (
        Card(Rank.ACE, trump),
        Card(Rank.KING, trump),
        Card(Rank.QUEEN, trump),
        right,
        left,
        *(Card(rank, trump) for rank in plain),
        JOKER,
    )


BIDS = range(3, 7)
BID_WORDS = msg("3, 4, 5 or 6")
"""The bids, for sentences."""
PACK_GAME_COUNT = sum(game_value(card) for card in DECK)
"""81: every Game count of the pack added up."""
GAME_CARDS = game_cards(DECK)
"""The 21 cards that count towards Game (the joker too), with their values, for the counter."""
HIGH_GAME_COUNT = 4
"""The ace of trump wins its own trick, so the side with High captured at least its 4."""
ONE_GAME_COUNT = 1
"""A jack or the joker counts 1, captured by whoever won its trick."""

BIDDERS = "bidders"
OPPONENTS = "opponents"
NOBODY = "none"
SIDES = (BIDDERS, OPPONENTS)

POINT_FIELDS = ("high", "low", "jack", "off_jack", "joker")
"""The five card points, each entered as a seat."""
POINT_NAMES: Mapping[str, Message] = FrozenMap(
    high=msg("High"),
    low=msg("Low"),
    jack=msg("Jack"),
    off_jack=msg("Off-jack"),
    joker=msg("Joker"),
    game=msg("Game"),
)
"""Each point's name for people."""
POINT_HINTS: Mapping[str, Message] = FrozenMap(
    high=msg("Held and played the ace of trump."),
    low=msg("Held and played the 4 of trump."),
    jack=msg("Won the trick with the jack of trump."),
    off_jack=msg("Won the trick with the other jack of the same colour."),
    joker=msg("Won the trick with the joker."),
)
POINT_MISSING: Mapping[str, Message] = FrozenMap(
    high=msg("Every deal awards High: choose who held and played the ace of trump."),
    low=msg("Every deal awards Low: choose who held and played the 4 of trump."),
    jack=msg("Every deal awards Jack: choose who won the trick with the jack of trump."),
    off_jack=msg(
        "Every deal awards Off-jack: choose who won the trick with the other jack "
        "of trump's colour."
    ),
    joker=msg("Every deal awards Joker: choose who won the trick with the joker."),
)
SIDE_NAMES: Mapping[str, Message] = FrozenMap(bidders=msg("bidders"), opponents=msg("opponents"))


def _is_counts(value: object) -> bool:
    return isinstance(value, dict) and all(v is None or is_int(v) for v in value.values())


FIELD_TYPES: Mapping[str, TypeCheck] = FrozenMap(
    bidder=(is_int, msg("The bidder must be a seat number.")),
    bid=(is_int, msg("The bid must be a whole number.")),
    trump=(is_str, msg("Trump must be a suit letter: S, H, D or C.")),
    called_card=(is_str, msg("The called card must be written like KH.")),
    partner=(is_int, msg("The partner must be a seat number.")),
    auction=(
        is_auction,
        msg("The auction must be a list of bids (whole numbers) and passes (null)."),
    ),
    **{
        f: (is_int, msg("%(point)s must be given as a seat number.", point=POINT_NAMES[f]))
        for f in POINT_FIELDS
    },
    game_points=(_is_counts, msg("Game counts must be an object with whole-number counts.")),
    game=(is_str, msg("Game must be 'bidders', 'opponents' or 'none'.")),
    thrown_in=(is_bool, msg("thrown_in must be true or false.")),
)

DETAIL_FIELDS = (
    "thrown_in",
    "bidder",
    "bid",
    "trump",
    "called_card",
    "partner",
    "auction",
    *POINT_FIELDS,
    "game_points",
    "game",
    "points",
)
"""The deal document's fields besides the common core, in the document's order."""

Problem = Callable[[str | None, Message], None]


class FiveHandedSchmier(Ruleset):
    """Five players, individual scores, a called partner, six points a deal, 21 to win."""

    id = "five-handed-schmier"
    label = msg("Five-Handed Schmier")
    min_players = 5
    max_players = 5
    target = 21
    deck = DECK
    side_kind = SideKind.INDIVIDUAL
    win_facts = (WinFact.BIDDER, WinFact.PARTNER)
    summary = msg(
        "Five players, each for themselves; the bidder calls a card and its holder is the "
        "partner for the deal. Six points a deal; 21 wins."
    )
    deal_setup = (
        msg("Take every 2 and 3 out of a 52-card pack and add one joker: 45 cards."),
        msg("Deal six cards to each player; the dealer keeps the other 15 as a stock."),
    )
    house_rules = FrozenMap(
        partner_breaks_ties=HouseRule(
            (True, False),
            True,
            msg(
                "When players tie at the top and the bidder is not among them, the bidder's "
                "partner wins."
            ),
            msg("Partner breaks ties"),
        ),
        unresolved_tie=HouseRule(
            ("play_on", "shared"),
            "play_on",
            msg(
                "A tie the rules cannot settle: play another deal, or the tied players share "
                "the win."
            ),
            msg("Unresolved tie"),
        ),
        joker_callable=HouseRule(
            (True, False),
            False,
            msg(
                "The bidder may call the joker; it is always in play, so its holder is the partner."
            ),
            msg("Joker callable"),
        ),
    )
    called_points = (CalledPoint(Rank.ACE, "high"), CalledPoint(Rank.FOUR, "low"))
    statistics = (
        Statistic("bid", msg("Bids won")),
        Statistic("made", msg("Bids made")),
        Statistic("set", msg("Bids set")),
        Statistic("called", msg("Called as partner")),
        Statistic("alone", msg("Played alone")),
    )
    entry_keys = (
        "bidder",
        "bid",
        "trump",
        "called_card",
        "partner",
        "auction",
        *POINT_FIELDS,
        "game_points",
        "game",
        "thrown_in",
    )

    # -- the entry ---------------------------------------------------------------------

    def entry_fields(self, config: GameConfig) -> tuple[EntryField, ...]:
        """Return the entry's fields: auction, contract, called card, points, Game."""
        bids = tuple(Choice(b, msg(str(b))) for b in BIDS)
        return (
            EntryField(
                "auction",
                FieldKind.AUCTION,
                msg("Auction, seat by seat (optional)"),
                msg(
                    "Each player speaks once, starting left of the dealer. Leave it closed "
                    "to enter just the bidder and bid."
                ),
                choices=bids,
                advanced=True,
                names="bidder",
            ),
            EntryField("bidder", FieldKind.SEAT, msg("Bidder")),
            EntryField("bid", FieldKind.BID, msg("Bid"), choices=bids),
            EntryField("trump", FieldKind.SUIT, msg("Trump")),
            EntryField(
                "called_card",
                FieldKind.CARD,
                msg("Called card"),
                choices=(Choice(str(JOKER), msg("Joker")),)
                if config.house_rules["joker_callable"]
                else (),
                blank=msg("No card called (alone)"),
                holder="partner",
            ),
            EntryField(
                "partner",
                FieldKind.SEAT,
                msg("Partner"),
                msg("Who held the called card."),
                blank=msg("No partner"),
                differs_from="bidder",
            ),
            *(
                EntryField(f, FieldKind.SEAT, POINT_NAMES[f], POINT_HINTS[f], point=True)
                for f in POINT_FIELDS
            ),
            EntryField(
                "game",
                FieldKind.SIDE,
                POINT_NAMES["game"],
                msg(
                    "Which side counted more in captured cards (A 4, K 3, Q 2, J 1, "
                    "10 counts 10, joker 1)."
                ),
                choices=(
                    Choice(BIDDERS, msg("Bidders")),
                    Choice(OPPONENTS, msg("Opponents")),
                    Choice(NOBODY, msg("Tie")),
                ),
                point=True,
            ),
            EntryField(
                "game_points",
                FieldKind.COUNTS,
                msg("Enter counts"),
                choices=(
                    Choice(BIDDERS, msg("Bidding side's count")),
                    Choice(OPPONENTS, msg("Other side's count")),
                ),
                advanced=True,
                card_values=GAME_CARDS,
            ),
            EntryField(
                "thrown_in",
                FieldKind.FLAG,
                msg("Everyone passed"),
                msg("The deal is thrown in and the same dealer deals again."),
            ),
        )

    def parse_entry(self, config: GameConfig, raw: object) -> Entry:
        """Return the entry with its JSON types checked, or raise WrongType."""
        return parse_typed(raw, FIELD_TYPES)

    # -- checking and scoring ----------------------------------------------------------

    def score_deal(
        self, config: GameConfig, number: int, dealer: int, scores: Sequence[int], entry: Entry
    ) -> DealResult:
        """Check the entry against every rule and score it, or raise RuleViolation."""
        raw = entry.raw
        seats = config.seats
        problems = Problems()
        problem = problems.add
        refuse_unknown(raw, self.entry_keys, self.label, problems)

        auction = raw.get("auction")
        auctioned = (
            resolve_auction(auction, dealer, seats, BIDS, BID_WORDS, problems)
            if auction is not None
            else None
        )
        if raw.get("thrown_in") is True or (auctioned is not None and auctioned.all_passed):
            check_thrown_in(raw, auctioned, problems)
            problems.raise_if_any()
            detail = dict.fromkeys(DETAIL_FIELDS)
            detail["thrown_in"] = True
            detail["auction"] = auction
            return DealResult(
                number,
                dealer,
                DealKind.THROWN_IN,
                None,
                None,
                (0,) * seats,
                tuple(scores),
                freeze(detail),
            )
        bidder, bid = contract_of(raw, auctioned, config.players, BIDS, BID_WORDS, problems)

        trump = suit_of(raw, problems)
        called = self._called_card(config, raw.get("called_card"), problem)
        always = self._always_in_play(config, trump) if trump else ()

        partner = seat_of(raw, "partner", seats, problems)
        if partner is not None:
            if partner == bidder:
                problem(
                    "partner",
                    msg(
                        "The bidder cannot call a card from their own hand, so they cannot be "
                        "their own partner: if the bidder held the called card, choose "
                        "\u201cNo card called (alone)\u201d."
                    ),
                )
                partner = None
            elif "called_card" not in raw:
                problem(
                    "partner",
                    msg("Only a called card makes a partner: enter the called card."),
                )
                partner = None
        elif "partner" not in raw and called in always:
            assert called is not None
            problem(
                "partner",
                msg(
                    "The %(card)s is always in play, so whoever held it is the partner. The "
                    "bidder cannot call a card from their own hand: if the bidder held it, "
                    "choose \u201cNo card called (alone)\u201d.",
                    card=called.label,
                ),
            )

        points = {f: seat_of(raw, f, seats, problems, POINT_MISSING[f]) for f in POINT_FIELDS}
        if partner is not None and trump is not None:
            if called == Card(Rank.ACE, trump) and points["high"] not in (None, partner):
                problem(
                    "high",
                    msg(
                        "The ace of trump was called, so its holder is the partner and takes High."
                    ),
                )
            if called == Card(Rank.FOUR, trump) and points["low"] not in (None, partner):
                problem(
                    "low",
                    msg("The 4 of trump was called, so its holder is the partner and takes Low."),
                )

        side_of = None
        if bidder is not None and "partner" not in problems and "bidder" not in problems:
            bidding_side = {bidder} if partner is None else {bidder, partner}

            def side_of(s: int | None) -> str:
                return BIDDERS if s in bidding_side else OPPONENTS

        game = self._game(raw, points, side_of, problem)

        problems.raise_if_any()
        assert bidder is not None and bid is not None and side_of is not None and game

        taken: dict[str, list[str]] = {BIDDERS: [], OPPONENTS: []}
        for field in POINT_FIELDS:
            taken[side_of(points[field])].append(field)
        if game != NOBODY:
            taken[game].append("game")
        won = {side: len(fields) for side, fields in taken.items()}
        made = won[BIDDERS] >= bid
        bidders = (bidder,) if partner is None else (bidder, partner)
        deltas = tuple(
            (won[BIDDERS] if made else -bid) if s in bidders else won[OPPONENTS]
            for s in range(seats)
        )
        detail = {
            "thrown_in": False,
            "bidder": bidder,
            "bid": bid,
            "trump": str(trump),
            "called_card": raw.get("called_card"),
            "partner": partner,
            "auction": auction,
            **points,
            "game_points": raw.get("game_points"),
            "game": game,
            "points": won,
        }
        return DealResult(
            number,
            dealer,
            DealKind.PLAYED,
            bidders,
            made,
            deltas,
            apply_deltas(scores, deltas),
            freeze(detail),
        )

    def _called_card(self, config: GameConfig, text: str | None, problem: Problem) -> Card | None:
        """Return the called card if it can be called in this game, else note why not."""
        if text is None:
            return None
        try:
            card = Card.parse(text)
        except RuleViolation as violation:
            problem("called_card", violation.first)
            return None
        if card.is_joker:
            if not config.house_rules["joker_callable"]:
                problem(
                    "called_card",
                    msg(
                        "The joker has no rank or suit and cannot be called "
                        "(house rule: the joker is not callable)."
                    ),
                )
                return None
        elif card not in self.deck:
            problem(
                "called_card", msg("There are no 2s or 3s in the %(game)s deck.", game=self.label)
            )
            return None
        return card

    @staticmethod
    def _always_in_play(config: GameConfig, trump: Suit) -> tuple[Card, ...]:
        """Return the callable cards that are always in play: calling one makes a partner."""
        cards = (
            Card(Rank.ACE, trump),
            Card(Rank.JACK, trump),
            Card(Rank.JACK, trump.same_colour),
            Card(Rank.FOUR, trump),
        )
        return (*cards, JOKER) if config.house_rules["joker_callable"] else cards

    @staticmethod
    def _game(
        raw: Mapping[str, Any],
        points: Mapping[str, int | None],
        side_of: Callable[[int | None], str] | None,
        problem: Problem,
    ) -> str | None:
        """Return who took Game from `game` or the counts, noting every problem."""
        game, counts = raw.get("game"), raw.get("game_points")
        if (game is None) == (counts is None):
            problem(
                "game",
                msg("Say who took Game, or enter both sides' Game counts, not both.")
                if game is not None
                else msg("Say who took Game, or enter both sides' Game counts."),
            )
        if game is not None:
            if game not in (*SIDES, NOBODY):
                problem("game", msg("Game goes to the bidders, the opponents, or nobody (a tie)."))
                return None
            return str(game) if counts is None else None
        if counts is None:
            return None
        if set(counts) != set(SIDES):
            problem("game_points", msg("Game counts are two numbers: bidders and opponents."))
            return None
        if any(counts[s] is None for s in SIDES):
            problem("game_points", msg("Enter both sides' Game counts."))
            return None
        if any(counts[s] < 0 for s in SIDES):
            problem("game_points", msg("Game counts are whole numbers from 0."))
            return None
        total = counts[BIDDERS] + counts[OPPONENTS]
        if total > PACK_GAME_COUNT:
            problem(
                "game_points",
                msg(
                    "The Game counts add up to %(total)s, but the pack counts only %(pack)s.",
                    total=total,
                    pack=PACK_GAME_COUNT,
                ),
            )
        if side_of is not None and None not in points.values():
            for side in SIDES:
                took = [f for f in POINT_FIELDS if f != "low" and side_of(points[f]) == side]
                least = sum(HIGH_GAME_COUNT if f == "high" else ONE_GAME_COUNT for f in took)
                if counts[side] < least:
                    problem(
                        "game_points",
                        msg(
                            "The %(side)s took %(points)s, so they captured at least %(least)s "
                            "in Game counts; %(count)s was entered.",
                            side=SIDE_NAMES[side],
                            points=tuple(POINT_NAMES[f] for f in took),
                            least=least,
                            count=counts[side],
                        ),
                    )
        if counts[BIDDERS] == counts[OPPONENTS]:
            return NOBODY
        return BIDDERS if counts[BIDDERS] > counts[OPPONENTS] else OPPONENTS

    # -- winning ---------------------------------------------------------------------

    def outcome(
        self, config: GameConfig, scores: Sequence[int], last: DealResult | None
    ) -> Outcome:
        """Run the win check (docs/rules.md#five-handed-schmier) after a scored deal."""
        target = config.target
        reached = [s for s in range(len(scores)) if scores[s] >= target]
        # 1. Nobody at the target or more: play on.
        if not reached:
            return Outcome(
                Status.IN_PROGRESS,
                (),
                None,
                msg("Nobody has reached %(target)s yet.", target=target),
            )
        top = max(scores[s] for s in reached)
        leaders = [s for s in reached if scores[s] == top]
        # 2. Of the players at the target or more, the highest score wins.
        if len(leaders) == 1:
            (winner,) = leaders
            name = config.players[winner]
            if len(reached) == 1:
                text = msg("%(name)s reached %(top)s, so %(name)s wins.", name=name, top=top)
            else:
                text = msg(
                    "%(reached)s reached %(target)s; %(name)s has the highest score, %(top)s, "
                    "ahead of %(others)s, so %(name)s wins.",
                    reached=names(config.players, reached),
                    target=target,
                    name=name,
                    top=top,
                    others=names(config.players, [s for s in reached if s != winner]),
                )
            return Outcome(Status.WON, (winner,), DecidedBy.HIGHEST, text)
        tied = (
            msg("%(names)s both reached %(top)s", names=names(config.players, leaders), top=top)
            if len(leaders) == 2
            else msg("%(names)s all reached %(top)s", names=names(config.players, leaders), top=top)
        )
        bidder = last.bidder if last is not None else None
        partner = last.get("partner") if last is not None else None
        # 3. Tied for highest and the bidder among them: the bidder wins.
        if bidder in leaders:
            assert bidder is not None
            return Outcome(
                Status.WON,
                (bidder,),
                DecidedBy.BIDDER,
                msg(
                    "%(tied)s; %(name)s bid this deal, so %(name)s wins.",
                    tied=tied,
                    name=config.players[bidder],
                ),
            )
        # 4. Still tied and the partner among them: the partner wins (house rule).
        if config.house_rules["partner_breaks_ties"] and partner in leaders:
            return Outcome(
                Status.WON,
                (partner,),
                DecidedBy.PARTNER,
                msg(
                    "%(tied)s and neither of them bid this deal; %(name)s was the bidder's "
                    "partner, so %(name)s wins (house rule: the partner breaks ties).",
                    tied=tied,
                    name=config.players[partner],
                )
                if len(leaders) == 2
                else msg(
                    "%(tied)s and none of them bid this deal; %(name)s was the bidder's "
                    "partner, so %(name)s wins (house rule: the partner breaks ties).",
                    tied=tied,
                    name=config.players[partner],
                ),
            )
        # 5. The written rules do not settle it: the house rule decides.
        return unresolved_tie(config.house_rules["unresolved_tie"], tuple(leaders), tied)

    # -- words and records -------------------------------------------------------------

    def explain(self, config: GameConfig, result: DealResult) -> tuple[Message, ...]:
        """Return the deal's scoring in sentences for players."""
        dealer = config.players[result.dealer]
        if result.kind == DealKind.THROWN_IN:
            return (
                msg(
                    "Everyone passed, so the deal was thrown in and %(dealer)s deals again.",
                    dealer=dealer,
                ),
            )
        assert result.bidders is not None and result.bidder is not None
        bidder = config.players[result.bidder]
        trump = Suit(result.get("trump"))
        bid = result.get("bid")
        lines = []
        called_card = result.get("called_card")
        partner = result.get("partner")
        if called_card is None:
            lines.append(
                msg(
                    "%(bidder)s bid %(bid)s with %(trump)s trump, called no card and played alone.",
                    bidder=bidder,
                    bid=bid,
                    trump=trump.words,
                )
            )
        elif partner is None:
            lines.append(
                msg(
                    "%(bidder)s bid %(bid)s with %(trump)s trump and called the %(card)s, "
                    "which was out of play, so %(bidder)s played alone.",
                    bidder=bidder,
                    bid=bid,
                    trump=trump.words,
                    card=Card.parse(called_card).label,
                )
            )
        else:
            lines.append(
                msg(
                    "%(bidder)s bid %(bid)s with %(trump)s trump and called the %(card)s; "
                    "%(partner)s held it and was the partner.",
                    bidder=bidder,
                    bid=bid,
                    trump=trump.words,
                    card=Card.parse(called_card).label,
                    partner=config.players[partner],
                )
            )
        taken: dict[str, list[Message]] = {BIDDERS: [], OPPONENTS: []}
        for field in POINT_FIELDS:
            side = BIDDERS if result.get(field) in result.bidders else OPPONENTS
            taken[side].append(POINT_NAMES[field])
        game = result.get("game")
        if game != NOBODY:
            taken[game].append(POINT_NAMES["game"])
        points = result.get("points")
        got = points[BIDDERS]
        change = signed(got if result.made else -bid)
        took = tuple(taken[BIDDERS]) or msg("nothing")
        # Each sentence is a literal msg() call, so the catalogs' extraction finds it.
        said = {"took": took, "got": got, "bid": bid, "change": change}
        if len(result.bidders) > 1:
            who = names(config.players, result.bidders)
            lines.append(
                msg(
                    "Bidders %(who)s took %(took)s: %(got)s, bid %(bid)s, made — each %(change)s.",
                    who=who,
                    **said,
                )
                if result.made
                else msg(
                    "Bidders %(who)s took %(took)s: %(got)s, bid %(bid)s, set — each %(change)s.",
                    who=who,
                    **said,
                )
            )
        else:
            lines.append(
                msg(
                    "%(who)s, alone, took %(took)s: %(got)s, bid %(bid)s, made — %(change)s.",
                    who=bidder,
                    **said,
                )
                if result.made
                else msg(
                    "%(who)s, alone, took %(took)s: %(got)s, bid %(bid)s, set — %(change)s.",
                    who=bidder,
                    **said,
                )
            )
        lines.append(
            msg(
                "Opponents took %(took)s: each %(change)s.",
                took=tuple(taken[OPPONENTS]),
                change=signed(points[OPPONENTS]),
            )
            if taken[OPPONENTS]
            else msg("Opponents took nothing.")
        )
        counts = result.get("game_points")
        if counts is not None:
            if game == NOBODY:
                lines.append(
                    msg(
                        "Game was tied at %(count)s each, so nobody scored it.",
                        count=counts[BIDDERS],
                    )
                )
            else:
                lines.append(
                    msg(
                        "Game counted %(bidders)s for the bidders to %(opponents)s for the "
                        "opponents.",
                        bidders=counts[BIDDERS],
                        opponents=counts[OPPONENTS],
                    )
                )
        elif game == NOBODY:
            lines.append(msg("Game was tied, so nobody scored it."))
        return tuple(lines)

    def seat_tags(self, config: GameConfig, result: DealResult) -> tuple[frozenset[str], ...]:
        """Tag the bidder (bid, made or set, alone) and the called partner."""
        tags: list[frozenset[str]] = []
        for seat in range(config.seats):
            mine: set[str] = set()
            if result.played and seat == result.bidder:
                mine |= {"bid", "made" if result.made else "set"}
                if result.get("partner") is None:
                    mine.add("alone")
            elif result.played and seat == result.get("partner"):
                mine.add("called")
            tags.append(frozenset(mine))
        return tuple(tags)
