"""The Shmear family, as docs/rules.md#the-shmear-family states it: Shmear, High-Low,
Partner and Kitty Shmear.

The four share one auction, one entry and one way of scoring; they differ in who plays
together (each for themselves, fixed partners, or the deal's High and Low pair), in the
target and in whether the moon may be bid. Those differences are data and a few
overridden methods of `ShmearFamily`.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper.engine.cards import GAME_VALUES, Card, Rank, Suit, game_value
from scorekeeper.engine.describe import (
    Choice,
    DealerPlays,
    EntryField,
    FieldKind,
    PlayerExtra,
    SideKind,
    Statistic,
    WinFact,
)
from scorekeeper.engine.frozen import FrozenMap, freeze
from scorekeeper.engine.messages import Message, msg, plural
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
    game_cards,
    is_bool,
    is_int,
    is_int_list,
    is_str,
    names,
    parse_typed,
    refuse_unknown,
    seat_of,
    signed,
    suit_of,
)

DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in Rank)
"""The standard 52 cards, no joker."""
PACK_GAME_COUNT = sum(game_value(card) for card in DECK)
"""80: every Game count of the pack added up."""
GAME_CARDS = game_cards(DECK)
"""The 20 cards that count towards Game, with their values, for the form's counter."""
JACK_GAME_COUNT = GAME_VALUES[Rank.JACK]
"""The side that captured the jack of trump counted at least its 1."""

MOON = "moon"
"""The bid above every number bid: take every point or lose everything."""
Bid = int | str
NUMBER_BIDS: tuple[int, ...] = (2, 3, 4)
JICK_BIDS: tuple[int, ...] = (*NUMBER_BIDS, 5)
"""The number bids with the Jick, the fifth point (house rule `jick`)."""
FORCED_BID = 2
"""What the dealer plays at when everyone passed (unless the dealer forfeits)."""
FORFEIT_LOSS = 2
"""What a dealer who forfeits loses (never below 0)."""
POINT_COUNT = 4
"""High, Low, Jack and Game: a moon needs all of them."""
JICK_POINT_COUNT = POINT_COUNT + 1
"""With the Jick, five points a hand: a moon needs all five."""
NOBODY = "none"
SMUCKS = "smucks"
"""Each player's count of lost contracts, in the game document beside the score."""

POINT_FIELDS = ("high", "low", "jack")
"""The card points, each entered as a seat; Game is entered apart."""
POINT_NAMES: Mapping[str, Message] = FrozenMap(
    high=msg("High"), low=msg("Low"), jack=msg("Jack"), jick=msg("Jick"), game=msg("Game")
)
"""Each point's name for people."""

ENTRY_KEYS = (
    "forfeit",
    "bidder",
    "bid",
    "trump",
    "auction",
    "high",
    "low",
    "jack",
    "game_points",
    "game",
)
"""The fields of a Shmear-family entry."""
DETAIL_FIELDS = (*ENTRY_KEYS, "points")
"""The deal document's fields besides the common core, in the document's order."""
JICK = "jick"
"""The entry field of the Jick, in the entry only under the house rule `jick`."""
JICK_GAME_COUNT = GAME_VALUES[Rank.JACK]
"""The side that captured the Jick counted at least its 1, as any jack."""
CARD_GAME_COUNTS: Mapping[str, int] = FrozenMap(jack=JACK_GAME_COUNT, jick=JICK_GAME_COUNT)
"""What each captured point card entered as a seat counts at least in Game."""
CARD_WORDS: Mapping[str, Message] = FrozenMap(jack=msg("the jack of trump"), jick=msg("the Jick"))
"""Those cards for people."""


def _is_bid(value: object) -> bool:
    return is_int(value) or is_str(value)


def _is_auction(value: object) -> bool:
    return isinstance(value, list) and all(v is None or _is_bid(v) for v in value)


FIELD_TYPES: Mapping[str, TypeCheck] = FrozenMap(
    forfeit=(is_bool, msg("forfeit must be true or false.")),
    bidder=(is_int, msg("The bidder must be a seat number.")),
    bid=(_is_bid, msg('The bid must be 2, 3, 4 or "moon".')),
    trump=(is_str, msg("Trump must be a suit letter: S, H, D or C.")),
    auction=(
        _is_auction,
        msg('The auction must be a list of passes (null) and bids (2, 3, 4 or "moon").'),
    ),
    high=(is_int, msg("High must be given as a seat number.")),
    low=(is_int, msg("Low must be given as a seat number.")),
    jack=(is_int, msg("Jack must be given as a seat number.")),
    game_points=(is_int_list, msg("Game counts must be a list of whole numbers.")),
    game=(_is_bid, msg('Game must be a seat or team number, or "none".')),
)

JICK_FIELD_TYPES: Mapping[str, TypeCheck] = FrozenMap(
    {
        **FIELD_TYPES,
        "bid": (_is_bid, msg('The bid must be 2, 3, 4, 5 or "moon".')),
        "auction": (
            _is_auction,
            msg('The auction must be a list of passes (null) and bids (2, 3, 4, 5 or "moon").'),
        ),
        JICK: (is_int, msg("The Jick must be given as a seat number.")),
    }
)
"""The entry's JSON types with the Jick (house rule `jick`)."""


def bid_rank(bid: Bid) -> int:
    """Return the bid's place in the order 2 < 3 < 4 (< 5) < moon."""
    return JICK_POINT_COUNT + 1 if bid == MOON else int(bid)


def jick_card(trump: Suit) -> Card:
    """Return the Jick: the jack of the other suit of trump's colour."""
    return Card(Rank.JACK, trump.same_colour)


def jick_cards() -> tuple[Message, ...]:
    """Return which card is the Jick for each trump ("J♣ when spades are trump", …)."""
    cards = []
    for suit in Suit:
        words = msg("%(card)s when %(suit)s are trump", card=jick_card(suit).label, suit=suit.words)
        cards.append(words)
    return tuple(cards)


def bid_words(bid: Bid) -> Message:
    """Return the bid for people ("3", "the moon")."""
    return msg("the moon") if bid == MOON else msg("%(bid)s", bid=bid)


def point_count(count: int) -> Message:
    """Return a number of points for people ("1 point", "3 points")."""
    return msg("1 point") if count == 1 else msg("%(count)s points", count=count)


@dataclass(frozen=True, slots=True)
class Hand:
    """Who played together in one deal: the side that played the contract and the others."""

    contract: tuple[int, ...]
    """The seats that played the contract, in the order of the document's `bidders`."""
    others: tuple[tuple[int, ...], ...]
    """Every other side's seats; each side scores what it took."""

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """Return every side of the deal, the contract's first."""
        return (self.contract, *self.others)


@dataclass(frozen=True, slots=True)
class Auction:
    """What a valid auction decided."""

    bidder: int | None
    """The seat that bid highest; None when everyone passed."""
    bid: Bid | None
    """The highest bid; None when everyone passed."""


class ShmearFamily(Ruleset):
    """What the four Shmear games share: deck, points, auction, moon, smucks and win check.

    By default every player keeps their own score and the bidder plays the contract alone.
    """

    min_players = 3
    max_players = 6
    deck = DECK
    side_kind = SideKind.INDIVIDUAL
    bids: tuple[Bid, ...] = (*NUMBER_BIDS, MOON)
    """The bids of this game, lowest first."""
    win_facts: tuple[WinFact, ...] = (WinFact.BIDDER, WinFact.MOON)
    deal_setup: tuple[Message, ...] = (
        msg("A standard 52-card pack, without a joker."),
        msg("Deal six cards to each player."),
    )
    house_rules: Mapping[str, HouseRule] = FrozenMap(
        low_to_taker=HouseRule(
            (True, False),
            False,
            msg(
                "Low goes to whoever captured the lowest trump, instead of whoever held and "
                "played it."
            ),
            msg("Low to the taker"),
        ),
        jick=HouseRule(
            (True, False),
            False,
            msg(
                "The jack of the other suit of trump's colour is a trump just below the jack "
                "and a fifth point; bids run 2 to 5."
            ),
            msg("Play with the Jick"),
        ),
        negative_scores=HouseRule(
            (True, False),
            False,
            msg("A set bid or a forfeit takes its full amount, even below 0."),
            msg("Scores can go below 0"),
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
    )
    statistics = (
        Statistic("bid", msg("Bids won")),
        Statistic("made", msg("Bids made")),
        Statistic("set", msg("Bids set")),
        Statistic("smuck", msg("Smucks")),
        Statistic("moon", msg("Moons shot")),
        Statistic("moon_made", msg("Moons made")),
        Statistic("forfeit", msg("Forfeits")),
    )
    extras = (PlayerExtra(SMUCKS, plural("%(num)s smuck", "%(num)s smucks")),)

    def win_detail(self, bidder: int | None, partner: int | None, moon: bool) -> Mapping[str, Any]:
        """Return a stand-in deal's detail: a moon is the bid the win check looks for."""
        return FrozenMap(bidder=bidder, partner=partner, bid=MOON if moon else None)

    # -- sides -------------------------------------------------------------------------

    def score_sides(self, config: GameConfig) -> tuple[tuple[int, ...], ...]:
        """Return the sides that keep a score, in the order `game_points` and `points` use."""
        return self.teams(config) or tuple((seat,) for seat in range(config.seats))

    def side_index(self, config: GameConfig, seat: int) -> int:
        """Return the index of the scoring side the seat belongs to."""
        return next(i for i, side in enumerate(self.score_sides(config)) if seat in side)

    def hand(self, config: GameConfig, bidder: int, high: int, low: int) -> Hand:
        """Return who played together this deal: the bidder's side plays the contract."""
        sides = self.score_sides(config)
        mine = sides[self.side_index(config, bidder)]
        return Hand(
            (bidder, *(s for s in mine if s != bidder)),
            tuple(side for side in sides if side != mine),
        )

    def side_words(self, config: GameConfig, side: Sequence[int]) -> Message:
        """Return a side for people: the player's name, or the players' names."""
        return msg("%(names)s", names=names(config.players, side))

    def score_words(self, config: GameConfig) -> Message:
        """Return who may shoot the moon, for the refusal: a player with a score of 1 or more."""
        return msg("a player")

    @property
    def has_moon(self) -> bool:
        """Return whether the moon is a bid in this game."""
        return MOON in self.bids

    # -- the house rules that change the hand: the Jick, scores below 0 ----------------

    def plays_jick(self, config: GameConfig) -> bool:
        """Return whether the Jick is a trump and a fifth point (house rule `jick`)."""
        return bool(config.house_rules.get(JICK))

    def floors_at_zero(self, config: GameConfig) -> bool:
        """Return whether scores stop at 0 (not under the house rule `negative_scores`)."""
        return not config.house_rules.get("negative_scores")

    def game_bids(self, config: GameConfig) -> tuple[Bid, ...]:
        """Return the bids of this game, lowest first: 2 to 5 with the Jick."""
        if not self.plays_jick(config):
            return self.bids
        return (*JICK_BIDS, *((MOON,) if self.has_moon else ()))

    def hand_points(self, config: GameConfig) -> int:
        """Return how many points a hand has: four, five with the Jick (a moon needs all)."""
        return JICK_POINT_COUNT if self.plays_jick(config) else POINT_COUNT

    def point_fields(self, config: GameConfig) -> tuple[str, ...]:
        """Return the card points entered as a seat: High, Low, Jack (and the Jick)."""
        return (*POINT_FIELDS, JICK) if self.plays_jick(config) else POINT_FIELDS

    def entry_keys(self, config: GameConfig) -> tuple[str, ...]:
        """Return the entry's fields in the document's order (the Jick after the Jack)."""
        if not self.plays_jick(config):
            return ENTRY_KEYS
        at = ENTRY_KEYS.index("jack") + 1
        return (*ENTRY_KEYS[:at], JICK, *ENTRY_KEYS[at:])

    def changed_score(self, config: GameConfig, score: int, change: int) -> int:
        """Return the score after the change: never below 0 unless the house rule says so."""
        if self.floors_at_zero(config):
            return max(0, score + change)
        return score + change

    def jick_field(self) -> EntryField:
        """Return the Jick's entry field: who captured it, like the Jack."""
        return EntryField(
            JICK,
            FieldKind.SEAT,
            POINT_NAMES[JICK],
            msg(
                "Who captured the Jick, the jack of the other suit of trump's colour: %(cards)s.",
                cards=jick_cards(),
            ),
            blank=msg("Not in play"),
            point=True,
            hint_shown=True,
        )

    def not_a_bid(self, config: GameConfig, value: object) -> Message:
        """Return the refusal of a value that is not a bid of this game (5 needs the Jick)."""
        if value in JICK_BIDS and not self.plays_jick(config):
            return msg(
                "A bid of %(bid)s needs the Jick, a fifth point, and this game is played "
                "without it (house rule off); bids are %(bids)s.",
                bid=value,
                bids=self._bid_list(config),
            )
        return msg(
            "%(bid)r is not a bid; bids are %(bids)s.", bid=value, bids=self._bid_list(config)
        )

    # -- the entry ---------------------------------------------------------------------

    def entry_fields(self, config: GameConfig) -> tuple[EntryField, ...]:
        """Return the entry's fields: auction, contract, the four points, forfeit."""
        bids = tuple(
            Choice(b, msg("Moon") if b == MOON else msg(str(b))) for b in self.game_bids(config)
        )
        low_hint = (
            msg("Who captured the lowest trump in play (house rule: Low to the taker).")
            if config.house_rules.get("low_to_taker")
            else msg("Who held and played the lowest trump in play.")
        )
        fields = (
            EntryField(
                "auction",
                FieldKind.AUCTION,
                msg("Auction, seat by seat (optional)"),
                msg(
                    "Each player speaks once, starting left of the dealer. Leave it closed "
                    "to enter just the bidder and bid."
                ),
                choices=bids,
                blank=msg("Everyone passed: the dealer plays at %(bid)s", bid=FORCED_BID),
                advanced=True,
                names="bidder",
                dealer_plays=DealerPlays("bidder", "bid", FORCED_BID),
            ),
            EntryField(
                "bidder",
                FieldKind.SEAT,
                msg("Bidder"),
                msg("When everyone passed and the dealer played at 2, the dealer."),
            ),
            EntryField("bid", FieldKind.BID, msg("Bid"), choices=bids),
            EntryField("trump", FieldKind.SUIT, msg("Trump")),
            EntryField(
                "high",
                FieldKind.SEAT,
                POINT_NAMES["high"],
                msg("Who played the highest trump in play."),
                point=True,
            ),
            EntryField("low", FieldKind.SEAT, POINT_NAMES["low"], low_hint, point=True),
            EntryField(
                "jack",
                FieldKind.SEAT,
                POINT_NAMES["jack"],
                msg("Who captured the jack of trump."),
                blank=msg("Not in play"),
                point=True,
            ),
            EntryField(
                "game",
                FieldKind.SIDE,
                POINT_NAMES["game"],
                self.game_hint(),
                choices=(Choice(NOBODY, msg("Tie")),),
                point=True,
            ),
            EntryField(
                "game_points",
                FieldKind.COUNTS,
                msg("Enter counts"),
                msg("Card points captured: A 4, K 3, Q 2, J 1, 10 counts 10."),
                advanced=True,
                card_values=GAME_CARDS,
            ),
            EntryField(
                "forfeit",
                FieldKind.FLAG,
                msg("Everyone passed and the dealer forfeited"),
                msg("The dealer loses 2 (never below 0) and the deal passes to the left.")
                if self.floors_at_zero(config)
                else msg("The dealer loses 2 (even below 0) and the deal passes to the left."),
            ),
        )
        if not self.plays_jick(config):
            return fields
        at = next(i for i, f in enumerate(fields) if f.name == "jack") + 1
        return (*fields[:at], self.jick_field(), *fields[at:])

    def game_hint(self) -> Message:
        """Return the Game field's hint: who counted most in captured cards."""
        return msg("Who counted most in captured cards (A 4, K 3, Q 2, J 1, 10 counts 10).")

    def parse_entry(self, config: GameConfig, raw: object) -> Entry:
        """Return the entry with its JSON types checked, or raise WrongType."""
        return parse_typed(raw, JICK_FIELD_TYPES if self.plays_jick(config) else FIELD_TYPES)

    # -- checking and scoring ----------------------------------------------------------

    def score_deal(
        self, config: GameConfig, number: int, dealer: int, scores: Sequence[int], entry: Entry
    ) -> DealResult:
        """Check the entry against every rule and score it, or raise RuleViolation."""
        raw = entry.raw
        problems = Problems()
        keys = self.entry_keys(config)
        refuse_unknown({k: v for k, v in raw.items() if k != JICK}, keys, self.label, problems)
        if JICK in raw and JICK not in keys:
            problems.add(
                JICK,
                msg(
                    "This game is played without the Jick (house rule off), so nobody takes "
                    "it: leave it out."
                ),
            )
        auction = raw.get("auction")
        resolved = (
            None if auction is None else self._read_auction(config, dealer, auction, problems)
        )
        if raw.get("forfeit") is True:
            return self._forfeit(config, number, dealer, scores, raw, resolved, problems)

        bidder, bid = self._contract(config, dealer, raw, resolved, problems)
        if bid == MOON and bidder is not None and scores[bidder] < 1:
            # The score before the hand decides who may shoot the moon.
            self._refuse_moon(config, bidder, scores[bidder], resolved, problems)
        trump = suit_of(raw, problems)
        seats = config.seats
        high = seat_of(
            raw, "high", seats, problems, msg("Every deal awards High: choose who played it.")
        )
        low = seat_of(
            raw, "low", seats, problems, msg("Every deal awards Low: choose who took it.")
        )
        jack = seat_of(raw, "jack", seats, problems)
        jick = seat_of(raw, JICK, seats, problems) if JICK in keys else None
        hand = (
            None
            if bidder is None or high is None or low is None
            else self.hand(config, bidder, high, low)
        )
        game = self._game(config, raw, hand, {"jack": jack, JICK: jick}, problems)
        problems.raise_if_any()
        assert bidder is not None and bid is not None and trump is not None
        assert high is not None and low is not None and hand is not None

        # Each point goes to the scoring side of the seat that took it; Game to the side
        # (its first seat's scoring side) that counted most.
        points = [0] * len(self.score_sides(config))
        for seat in (high, low, jack, jick):
            if seat is not None:
                points[self.side_index(config, seat)] += 1
        game_side = None if game is None else self.side_index(config, hand.sides[game][0])
        if game_side is not None:
            points[game_side] += 1
        taken = [sum(points[i] for i in self._indexes(config, side)) for side in hand.sides]
        need = self.hand_points(config) if bid == MOON else int(bid)
        made = taken[0] >= need
        changes = [
            taken[0] if made else -scores[bidder] if bid == MOON else -int(bid),
            *taken[1:],
        ]
        deltas = [0] * seats
        for side, change in zip(hand.sides, changes, strict=True):
            for seat in side:
                # Scores never drop below 0 (unless the house rule lets them): the delta is
                # the change actually made.
                deltas[seat] = self.changed_score(config, scores[seat], change) - scores[seat]
        detail = {
            "forfeit": False,
            "bidder": bidder,
            "bid": bid,
            "trump": str(trump),
            "auction": auction,
            "high": high,
            "low": low,
            "jack": jack,
            **({JICK: jick} if JICK in keys else {}),
            "game_points": raw.get("game_points"),
            "game": NOBODY if game_side is None else game_side,
            "points": points,
        }
        return DealResult(
            number,
            dealer,
            DealKind.PLAYED,
            hand.contract,
            made,
            tuple(deltas),
            apply_deltas(scores, deltas),
            freeze(detail),
        )

    def _refuse_moon(
        self,
        config: GameConfig,
        bidder: int,
        score: int,
        resolved: Auction | None,
        problems: Problems,
    ) -> None:
        """Note that a side with a score below 1 may not bid the moon, saying the score it has
        (below 0 where the house rule lets scores go there)."""
        side = self.score_sides(config)[self.side_index(config, bidder)]
        refusal = msg(
            "Only %(who)s with a score of at least 1 may bid the moon, and %(side)s has %(score)s.",
            who=self.score_words(config),
            side=self.side_words(config, side),
            score=score,
        )
        problems.add("bid", refusal)
        if resolved is not None and resolved.bid == MOON:
            problems.add("auction", refusal)

    def _indexes(self, config: GameConfig, side: Sequence[int]) -> tuple[int, ...]:
        """Return the scoring sides a deal's side is made of."""
        return tuple(
            i for i, group in enumerate(self.score_sides(config)) if set(group) <= set(side)
        )

    def _read_auction(
        self, config: GameConfig, dealer: int, auction: Sequence[Any], problems: Problems
    ) -> Auction | None:
        """Return what the auction decided, or None after noting what is wrong with it."""
        seats = config.seats
        found: list[Message] = []
        if not 1 <= len(auction) <= seats:
            found.append(
                msg("The auction has one entry per player: 1 to %(seats)s entries.", seats=seats)
            )
        highest: Bid | None = None
        for i, value in enumerate(auction):
            if value is None:
                continue
            if value == MOON and not self.has_moon:
                found.append(msg("There is no moon bid in %(game)s.", game=self.label))
                problems.add("bid", msg("There is no moon bid in %(game)s.", game=self.label))
            elif value not in self.game_bids(config):
                found.append(self.not_a_bid(config, value))
            elif highest is not None and bid_rank(value) <= bid_rank(highest):
                found.append(
                    msg(
                        "Each bid must beat every earlier bid; %(value)s does not beat "
                        "%(highest)s.",
                        value=bid_words(value),
                        highest=bid_words(highest),
                    )
                )
            else:
                highest = value
            if value == MOON and i != len(auction) - 1:
                found.append(msg("A moon ends the auction, so nobody speaks after it."))
        # With a moon in it, the fault of a short auction is speaking after the moon (above).
        if auction and len(auction) < seats and not (self.has_moon and MOON in auction):
            found.append(
                msg(
                    "Everyone speaks once: unless someone bids the moon, the auction has "
                    "%(seats)s entries.",
                    seats=seats,
                )
                if self.has_moon
                else msg("Everyone speaks once, so the auction has %(seats)s entries.", seats=seats)
            )
        for message in found:
            problems.add("auction", message)
        if found:
            return None
        spoken = [(i, v) for i, v in enumerate(auction) if v is not None]
        if not spoken:
            return Auction(None, None)
        speaker, top = spoken[-1]
        return Auction((dealer + 1 + speaker) % seats, top)

    def _bid_list(self, config: GameConfig) -> tuple[Message, ...]:
        return tuple(msg('"moon"') if b == MOON else msg(str(b)) for b in self.game_bids(config))

    def _contract(
        self,
        config: GameConfig,
        dealer: int,
        raw: Mapping[str, Any],
        resolved: Auction | None,
        problems: Problems,
    ) -> tuple[int | None, Bid | None]:
        """Return the bidder and bid, from the auction when it decided them."""
        if resolved is None:
            # Without a valid auction the entry names them (an invalid auction is at fault).
            asked = "auction" not in raw
            bidder = seat_of(
                raw,
                "bidder",
                config.seats,
                problems,
                msg("Choose who won the auction.") if asked else None,
            )
            return bidder, self._bid_of(config, raw, problems, asked)
        a_bidder: int
        a_bid: Bid
        if resolved.bidder is None or resolved.bid is None:
            # Everyone passed and the dealer did not forfeit: the dealer plays at 2.
            a_bidder, a_bid = dealer, FORCED_BID
            bidder_refusal = msg(
                "Everyone passed, so the dealer, %(name)s, is the bidder.",
                name=config.players[dealer],
            )
            bid_refusal = msg("Everyone passed, so the dealer plays at %(bid)s.", bid=FORCED_BID)
        else:
            a_bidder, a_bid = resolved.bidder, resolved.bid
            bidder_refusal = msg(
                "The auction makes %(name)s the bidder.", name=config.players[a_bidder]
            )
            bid_refusal = msg("The auction's highest bid is %(bid)s.", bid=bid_words(a_bid))
        if "bidder" in raw and raw["bidder"] != a_bidder:
            problems.add("bidder", bidder_refusal)
            problems.add("auction", msg("The auction and the bidder entered disagree."))
        if "bid" in raw and raw["bid"] != a_bid:
            problems.add("bid", bid_refusal)
            problems.add("auction", msg("The auction and the bid entered disagree."))
        return a_bidder, a_bid

    def _bid_of(
        self, config: GameConfig, raw: Mapping[str, Any], problems: Problems, asked: bool
    ) -> Bid | None:
        """Return the bid entered, noting a missing or impossible one."""
        bid = raw.get("bid")
        if bid is None:
            if asked:
                problems.add("bid", msg("Choose the bid: %(bids)s.", bids=self._bid_list(config)))
            return None
        if bid == MOON and not self.has_moon:
            problems.add(
                "bid",
                msg(
                    "There is no moon bid in %(game)s: the sides are known only once the hand "
                    "is over.",
                    game=self.label,
                ),
            )
            return None
        if bid not in self.game_bids(config):
            problems.add("bid", self.not_a_bid(config, bid))
            return None
        return bid  # type: ignore[no-any-return]

    def _game(
        self,
        config: GameConfig,
        raw: Mapping[str, Any],
        hand: Hand | None,
        counted: Mapping[str, int | None],
        problems: Problems,
    ) -> int | None:
        """Return the index in `hand.sides` of the side that took Game (None: nobody).

        Notes every problem with `game` and `game_points`; the value returned only counts
        when no problem was noted.
        """
        game, counts = raw.get("game"), raw.get("game_points")
        sides = self.score_sides(config)
        if game is not None and counts is not None:
            problems.add("game", msg("Say who took Game, or enter the Game counts, not both."))
            return None
        if game is None and counts is None:
            # An all-pass auction alone is a dealer's play at 2 missing its hand: the
            # refusal names the trump, High and Low it needs first.
            if set(raw) != {"auction"}:
                problems.add("game", msg("Say who took Game, or enter the Game counts."))
            return None
        if game is not None:
            if game == NOBODY:
                return None
            if not is_int(game) or not 0 <= game < len(sides):
                problems.add("game", self._game_values(config))
                return None
            if hand is None:
                return None
            seat = sides[game][0]
            return next(i for i, side in enumerate(hand.sides) if seat in side)
        assert counts is not None
        if len(counts) != len(sides):
            problems.add(
                "game_points",
                msg(
                    "Enter %(count)s Game counts, one for each %(side)s.",
                    count=len(sides),
                    side=self.count_words(),
                ),
            )
            return None
        if any(c < 0 for c in counts):
            problems.add("game_points", msg("Game counts are whole numbers from 0."))
            return None
        total = sum(counts)
        if total > PACK_GAME_COUNT:
            problems.add(
                "game_points",
                msg(
                    "The Game counts add up to %(total)s, but the pack counts only %(pack)s.",
                    total=total,
                    pack=PACK_GAME_COUNT,
                ),
            )
        self._check_card_counts(config, counts, counted, problems)
        if hand is None:
            return None
        pooled = [sum(counts[i] for i in self._indexes(config, side)) for side in hand.sides]
        best = max(pooled)
        if pooled.count(best) > 1:
            return None
        return pooled.index(best)

    def _check_card_counts(
        self,
        config: GameConfig,
        counts: Sequence[int],
        counted: Mapping[str, int | None],
        problems: Problems,
    ) -> None:
        """Note a side whose Game count is below the jacks it captured (Jack, Jick: 1 each)."""
        sides = self.score_sides(config)
        taken: list[list[str]] = [[] for _ in sides]
        for field, seat in counted.items():
            if seat is not None:
                taken[self.side_index(config, seat)].append(field)
        for side, fields in enumerate(taken):
            least = sum(CARD_GAME_COUNTS[f] for f in fields)
            if counts[side] >= least:
                continue
            who = self.side_words(config, sides[side])
            problems.add(
                "game_points",
                msg(
                    "%(who)s took the jack of trump, so counted at least %(least)s in Game; "
                    "%(count)s was entered.",
                    who=who,
                    least=least,
                    count=counts[side],
                )
                if fields == ["jack"]
                else msg(
                    "%(who)s took %(cards)s, so counted at least %(least)s in Game; "
                    "%(count)s was entered.",
                    who=who,
                    cards=tuple(CARD_WORDS[f] for f in fields),
                    least=least,
                    count=counts[side],
                ),
            )

    def count_words(self) -> Message:
        """Return what one Game count is for: a player."""
        return msg("player, by seat")

    def _game_values(self, config: GameConfig) -> Message:
        return msg(
            'Game goes to a seat from 0 to %(last)s, or "none" when the counts tied.',
            last=config.seats - 1,
        )

    def _forfeit(
        self,
        config: GameConfig,
        number: int,
        dealer: int,
        scores: Sequence[int],
        raw: Mapping[str, Any],
        resolved: Auction | None,
        problems: Problems,
    ) -> DealResult:
        """Check and score a forfeit: everyone passed and the dealer (team) loses 2."""
        # Only a bid contradicts the forfeit; an all-pass auction of the wrong length is
        # already refused on its own, naming the auction alone.
        if any(call is not None for call in raw.get("auction") or ()):
            problems.add("auction", msg("A forfeited deal's auction has only passes."))
            problems.add("forfeit", msg("Someone bid in the auction, so nobody forfeited."))
        others = [k for k in raw if k not in ("forfeit", "auction")]
        for key in others:
            problems.add(
                key, msg("A forfeited deal has no bidder, trump or points: leave this out.")
            )
        if others:
            problems.add("forfeit", msg("A forfeited deal records nothing but the auction."))
        problems.raise_if_any()
        losers = self.score_sides(config)[self.side_index(config, dealer)]
        deltas = tuple(
            self.changed_score(config, scores[s], -FORFEIT_LOSS) - scores[s] if s in losers else 0
            for s in range(config.seats)
        )
        detail: dict[str, Any] = dict.fromkeys((*self.entry_keys(config), "points"))
        detail["forfeit"] = True
        detail["auction"] = raw.get("auction")
        return DealResult(
            number,
            dealer,
            DealKind.FORFEIT,
            None,
            None,
            deltas,
            apply_deltas(scores, deltas),
            freeze(detail),
        )

    # -- winning -----------------------------------------------------------------------

    def outcome(
        self, config: GameConfig, scores: Sequence[int], last: DealResult | None
    ) -> Outcome:
        """Run the win check (docs/rules.md#the-shmear-family) after a deal."""
        target = config.target
        sides = self.score_sides(config)
        score = {side: scores[side[0]] for side in sides}
        reached = [side for side in sides if score[side] >= target]
        # A successful moon wins at once, whatever the other scores.
        if last is not None and last.played and last.get("bid") == MOON and last.made:
            assert last.bidders is not None and last.bidder is not None
            return Outcome(
                Status.WON,
                tuple(sorted(last.bidders)),
                DecidedBy.MOON,
                self._moon_won(config, last),
            )
        # Nobody at the target or more: play on.
        if not reached:
            return Outcome(
                Status.IN_PROGRESS,
                (),
                None,
                msg("Nobody has reached %(target)s yet.", target=target),
            )
        # A forfeit never ends a game (sides left at the target by an open tie play on).
        if last is not None and not last.played:
            return Outcome(
                Status.IN_PROGRESS,
                (),
                None,
                msg("A forfeited deal never ends the game, so another deal is played."),
            )
        top = max(score[side] for side in reached)
        # One side alone at the target or more wins.
        if len(reached) == 1:
            (winner,) = reached
            return Outcome(
                Status.WON,
                winner,
                DecidedBy.HIGHEST,
                msg(
                    "With %(score)s, %(side)s is the only one at %(target)s or more and wins.",
                    score=top,
                    side=self.side_words(config, winner),
                    target=target,
                ),
            )
        listed = tuple(self.side_words(config, side) for side in reached)
        bidder = last.bidder if last is not None else None
        # Several: the bidder's side wins if among them, whatever the totals.
        for side in reached:
            if bidder in side:
                assert bidder is not None
                return Outcome(
                    Status.WON,
                    side,
                    DecidedBy.BIDDER,
                    msg(
                        "At %(target)s or more: %(sides)s. %(bidder)s bid this deal, so "
                        "%(side)s wins, whatever the totals.",
                        sides=listed,
                        target=target,
                        bidder=config.players[bidder],
                        side=self.side_words(config, side),
                    ),
                )
        leaders = [side for side in reached if score[side] == top]
        # Otherwise the highest of them wins.
        if len(leaders) == 1:
            (winner,) = leaders
            return Outcome(
                Status.WON,
                winner,
                DecidedBy.HIGHEST,
                msg(
                    "At %(target)s or more: %(sides)s. The bidder is not among them, so the "
                    "highest wins: %(side)s with %(score)s.",
                    sides=listed,
                    target=target,
                    side=self.side_words(config, winner),
                    score=top,
                ),
            )
        tied = tuple(self.side_words(config, side) for side in leaders)
        seats = tuple(sorted(s for side in leaders for s in side))
        # Still tied: the house rule decides (play on, or share the win).
        if config.house_rules.get("unresolved_tie") == "shared":
            return Outcome(
                Status.SHARED,
                seats,
                DecidedBy.SHARED,
                msg(
                    "Tied at the top with %(score)s: %(tied)s. The bidder is not among them, "
                    "so they share the win (house rule: a tie is shared).",
                    tied=tied,
                    score=top,
                ),
            )
        return Outcome(
            Status.IN_PROGRESS,
            (),
            None,
            msg(
                "Tied at the top with %(score)s: %(tied)s. The bidder is not among them, so "
                "another deal is played (house rule: play on).",
                tied=tied,
                score=top,
            ),
            open_tie=seats,
        )

    def _moon_won(self, config: GameConfig, last: DealResult) -> Message:
        """Say that the moon was made and won at once."""
        assert last.bidders is not None and last.bidder is not None
        bidder = config.players[last.bidder]
        side = self.side_words(config, sorted(last.bidders))
        if self.plays_jick(config):
            return msg(
                "%(bidder)s shot the moon and took all five points, so %(side)s wins at once.",
                bidder=bidder,
                side=side,
            )
        return msg(
            "%(bidder)s shot the moon and took all four points, so %(side)s wins at once.",
            bidder=bidder,
            side=side,
        )

    # -- words and records -------------------------------------------------------------

    def explain(self, config: GameConfig, result: DealResult) -> tuple[Message, ...]:
        """Return the deal's scoring in sentences for players."""
        players = config.players
        dealer = players[result.dealer]
        if not result.played:
            losers = self.score_sides(config)[self.side_index(config, result.dealer)]
            words = dict(
                dealer=dealer,
                side=self.side_words(config, losers),
                loss=FORFEIT_LOSS,
                change=signed(result.deltas[result.dealer]),
            )
            if not self.floors_at_zero(config):
                return (
                    msg(
                        "Everyone passed and %(dealer)s, the dealer, forfeited: %(side)s loses "
                        "%(loss)s (house rule: scores can go below 0), %(change)s, and the deal "
                        "passes to the left.",
                        **words,
                    ),
                )
            return (
                msg(
                    "Everyone passed and %(dealer)s, the dealer, forfeited: %(side)s loses "
                    "%(loss)s (never below 0), %(change)s, and the deal passes to the left.",
                    **words,
                ),
            )
        assert result.bidders is not None and result.bidder is not None
        bidder = players[result.bidder]
        bid = result.get("bid")
        trump = Suit(result.get("trump")).words
        lines: list[Message] = []
        auction = result.get("auction")
        if auction is not None and all(v is None for v in auction):
            lines.append(
                msg(
                    "Everyone passed, so %(bidder)s, the dealer, played at %(bid)s with "
                    "%(trump)s trump.",
                    bidder=bidder,
                    bid=bid,
                    trump=trump,
                )
            )
        elif bid == MOON:
            lines.append(
                msg("%(bidder)s shot the moon with %(trump)s trump.", bidder=bidder, trump=trump)
            )
        else:
            lines.append(
                msg(
                    "%(bidder)s bid %(bid)s with %(trump)s trump.",
                    bidder=bidder,
                    bid=bid,
                    trump=trump,
                )
            )
        lines.extend(self.explain_sides(config, result))
        lines.extend(self._explain_points(config, result))
        lines.extend(self._explain_scores(config, result))
        return tuple(lines)

    def explain_sides(self, config: GameConfig, result: DealResult) -> tuple[Message, ...]:
        """Return who played together, where the deal decided it (nothing by default)."""
        return ()

    def _explain_points(self, config: GameConfig, result: DealResult) -> list[Message]:
        """Say who took which point, and how Game was decided."""
        sides = self.score_sides(config)
        took: dict[int, list[Message]] = {}
        for field in self.point_fields(config):
            seat = result.get(field)
            if seat is not None:
                took.setdefault(self.side_index(config, seat), []).append(POINT_NAMES[field])
        game = result.get("game")
        if game != NOBODY:
            took.setdefault(game, []).append(POINT_NAMES["game"])
        lines = [
            msg(
                "%(points)s to %(who)s.",
                points=tuple(took[i]),
                who=self.side_words(config, sides[i]),
            )
            for i in sorted(took)
        ]
        if result.get("jack") is None:
            lines.append(msg("The jack of trump was not in play, so nobody scored Jack."))
        if self.plays_jick(config) and result.get(JICK) is None:
            lines.append(msg("The Jick was not in play, so nobody scored it."))
        if result.get("game_points") is not None:
            lines.extend(self._explain_counts(config, result))
        elif game == NOBODY:
            lines.append(msg("Game was tied, so nobody scored it."))
        return lines

    def _explain_counts(self, config: GameConfig, result: DealResult) -> list[Message]:
        """Say the Game counts entered, what the contract's side pooled, and who took Game."""
        assert result.bidders is not None
        counts: Sequence[int] = result.get("game_points")
        sides = self.score_sides(config)
        # Built apart: babel does not extract a msg() nested inside another's arguments.
        each = tuple(
            msg("%(count)s for %(side)s", count=count, side=self.side_words(config, side))
            for count, side in zip(counts, sides, strict=True)
        )
        lines = [msg("Game counts: %(counts)s.", counts=each)]
        contract = tuple(result.bidders)
        played = [contract, *(side for side in sides if not set(side) & set(contract))]
        pooled = [sum(counts[i] for i in self._indexes(config, side)) for side in played]
        joined = self._indexes(config, contract)
        if len(joined) > 1:
            lines.append(
                msg(
                    "%(pair)s pooled their counts: %(sum)s = %(total)s.",
                    pair=self.side_words(config, contract),
                    sum=" + ".join(str(counts[i]) for i in joined),
                    total=pooled[0],
                )
            )
        best = max(pooled)
        top = [side for side, total in zip(played, pooled, strict=True) if total == best]
        if len(top) > 1:
            lines.append(
                msg(
                    "Game was tied at %(count)s between %(sides)s, so nobody scored it.",
                    count=best,
                    sides=tuple(self.side_words(config, side) for side in sorted(top, key=min)),
                )
            )
        else:
            lines.append(
                msg(
                    "Game went to %(side)s with the most, %(count)s.",
                    side=self.side_words(config, top[0]),
                    count=best,
                )
            )
        return lines

    def _explain_scores(self, config: GameConfig, result: DealResult) -> list[Message]:
        """Say how the contract went, then each side's change."""
        assert result.bidders is not None
        bid = result.get("bid")
        contract = result.bidders
        taken = sum(result.get("points")[i] for i in self._indexes(config, contract))
        smuck = self.side_words(config, contract)
        if bid == MOON:
            line = self._moon_words(config, result.made is True, taken, smuck)
        elif result.made:
            line = msg(
                "The bid of %(bid)s was made with %(points)s, and every point taken counts.",
                bid=bid,
                points=point_count(taken),
            )
        else:
            line = msg(
                "The bid of %(bid)s was set with %(points)s: the bid is taken off and a smuck "
                "is marked for %(side)s.",
                bid=bid,
                points=point_count(taken),
                side=smuck,
            )
        lines = [line]
        start = result.starting_scores
        unchanged: list[Message] = []
        for group in self.score_sides(config):
            change = result.deltas[group[0]]
            floored = (
                group[0] in contract and bid != MOON and not result.made and change > -bid
            ) and self.floors_at_zero(config)
            if floored:
                lines.append(
                    msg(
                        "%(change)s for %(side)s (it was %(start)s, and a score never drops "
                        "below 0).",
                        change=signed(change),
                        side=self.side_words(config, group),
                        start=start[group[0]],
                    )
                )
            elif change == 0:
                unchanged.append(self.side_words(config, group))
            else:
                lines.append(
                    msg(
                        "%(change)s for %(side)s.",
                        change=signed(change),
                        side=self.side_words(config, group),
                    )
                )
        if unchanged:
            lines.append(msg("No change for %(sides)s.", sides=tuple(unchanged)))
        return lines

    def _moon_words(self, config: GameConfig, made: bool, taken: int, side: Message) -> Message:
        """Say how the moon went: all the hand's points, or the score back to 0."""
        if not self.plays_jick(config):
            return (
                msg("The moon was made with all four points.")
                if made
                else msg(
                    "The moon failed with %(points)s of four: the score goes back to 0 and a "
                    "smuck is marked for %(side)s.",
                    points=taken,
                    side=side,
                )
            )
        return (
            msg("The moon was made with all five points.")
            if made
            else msg(
                "The moon failed with %(points)s of five: the score goes back to 0 and a "
                "smuck is marked for %(side)s.",
                points=taken,
                side=side,
            )
        )

    def seat_tags(self, config: GameConfig, result: DealResult) -> tuple[frozenset[str], ...]:
        """Tag the bidder (bid, made or set, moon), the seats that earned a smuck, a forfeit."""
        tags: list[frozenset[str]] = []
        for seat in range(config.seats):
            mine: set[str] = set()
            if result.kind == DealKind.FORFEIT and seat == result.dealer:
                mine.add("forfeit")
            if result.played and result.bidders is not None:
                if seat == result.bidder:
                    mine |= {"bid", "made" if result.made else "set"}
                    if result.get("bid") == MOON:
                        mine.add("moon")
                        if result.made:
                            mine.add("moon_made")
                if seat in result.bidders and not result.made:
                    mine.add("smuck")
            tags.append(frozenset(mine))
        return tuple(tags)

    def smucks(self, config: GameConfig, results: Sequence[DealResult]) -> tuple[int, ...]:
        """Return each seat's smucks: the contracts that player (or their team) lost."""
        counts = [0] * config.seats
        for result in results:
            for seat, tags in enumerate(self.seat_tags(config, result)):
                counts[seat] += "smuck" in tags
        return tuple(counts)

    def player_extras(
        self, config: GameConfig, results: Sequence[DealResult]
    ) -> tuple[Mapping[str, Any], ...]:
        """Return what the game document adds to each player: their smucks."""
        return tuple(FrozenMap({SMUCKS: n}) for n in self.smucks(config, results))


class Shmear(ShmearFamily):
    """Three to six players, each for themselves; 11 wins."""

    id = "shmear"
    label = msg("Shmear")
    target = 11
    summary = msg(
        "Three to six players, each for themselves: High, Low, Jack and Game, bids 2 to 4 "
        "or the moon. 11 wins."
    )


class ShmearKitty(ShmearFamily):
    """Shmear with a three-card kitty for the bidder; 15 wins."""

    id = "shmear-kitty"
    label = msg("Shmear with a Kitty")
    target = 15
    summary = msg(
        "As Shmear, three to six players each for themselves, plus a three-card kitty the "
        "bidder takes and discards back from. 15 wins."
    )
    deal_setup = (
        msg("A standard 52-card pack, without a joker."),
        msg(
            "Deal six cards to each player and three to the kitty; the bidder takes the "
            "kitty and discards three cards."
        ),
    )


class ShmearPartners(ShmearFamily):
    """Four players in fixed partnerships sitting opposite; team scores; 15 wins."""

    id = "shmear-partners"
    label = msg("Partner Shmear")
    min_players = 4
    max_players = 4
    target = 15
    side_kind = SideKind.TEAMS
    house_rules = FrozenMap(
        {name: rule for name, rule in ShmearFamily.house_rules.items() if name != "unresolved_tie"}
    )
    """Two sides only: a tie at the target always includes the bidding team."""
    summary = msg(
        "Four players, partners sitting opposite, team scores: High, Low, Jack and Game, "
        "bids 2 to 4 or the moon. 15 wins."
    )
    TEAMS = ((0, 2), (1, 3))

    def teams(self, config: GameConfig) -> tuple[tuple[int, ...], ...] | None:
        """Return the partnerships: seats 0 and 2 against 1 and 3."""
        return self.TEAMS

    def default_teams(self) -> tuple[tuple[int, ...], ...] | None:
        """Return the partnerships: seats 0 and 2 against 1 and 3."""
        return self.TEAMS

    def side_words(self, config: GameConfig, side: Sequence[int]) -> Message:
        """Return a team for people: "the team of Ann and Cy"."""
        members = self.score_sides(config)[self.side_index(config, side[0])]
        return msg("the team of %(names)s", names=names(config.players, members))

    def score_words(self, config: GameConfig) -> Message:
        """Return who may shoot the moon: a team with a score of 1 or more."""
        return msg("a team")

    def game_hint(self) -> Message:
        """Return the Game field's hint: which team counted most."""
        return msg("Which team counted most in captured cards (A 4, K 3, Q 2, J 1, 10 counts 10).")

    def count_words(self) -> Message:
        """Return what one Game count is for: a team."""
        return msg("team")

    def _game_values(self, config: GameConfig) -> Message:
        return msg('Game goes to team 0 or team 1, or "none" when the counts tied.')


class ShmearHighLow(ShmearFamily):
    """Four players; whoever played High and Low are partners for the deal; 15 wins."""

    id = "shmear-high-low"
    label = msg("High-Low Shmear")
    min_players = 4
    max_players = 4
    target = 15
    side_kind = SideKind.PAIR
    bids = NUMBER_BIDS
    win_facts = (WinFact.BIDDER,)
    summary = msg(
        "Four players, each keeping a score; whoever played High and whoever played Low are "
        "partners for the deal and play its contract. No moon. 15 wins."
    )

    def hand(self, config: GameConfig, bidder: int, high: int, low: int) -> Hand:
        """Return the deal's sides: the High and Low pair plays the contract, the rest alone."""
        pair = (high,) if high == low else (high, low)
        return Hand(pair, tuple((s,) for s in range(config.seats) if s not in pair))

    def explain_sides(self, config: GameConfig, result: DealResult) -> tuple[Message, ...]:
        """Say who made up the pair, and that it played the contract."""
        assert result.bidders is not None
        pair = result.bidders
        players = config.players
        if len(pair) == 1:
            return (
                msg(
                    "%(name)s played both High and Low, so played the contract alone.",
                    name=players[pair[0]],
                ),
            )
        return (
            msg(
                "%(high)s played High and %(low)s played Low, so they were partners for the "
                "deal, pooled their Game counts and played the contract.",
                high=players[pair[0]],
                low=players[pair[1]],
            ),
        )
