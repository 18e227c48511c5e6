"""Five-Handed Schmier, as RULES.md §1 states it."""

import copy
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from scorekeeper.engine.cards import JOKER, Card, Rank, Suit
from scorekeeper.engine.errors import RuleViolation, WrongType
from scorekeeper.engine.results import (
    IN_PROGRESS,
    SHARED,
    WON,
    DealResult,
    Entry,
    HouseRule,
    Outcome,
)
from scorekeeper.engine.ruleset import Ruleset

if TYPE_CHECKING:
    from scorekeeper.engine.game import GameConfig

NOT_DECK_RANKS = (Rank.TWO, Rank.THREE)
DECK: tuple[Card, ...] = (
    *(Card(rank, suit) for suit in Suit for rank in Rank if rank not in NOT_DECK_RANKS),
    JOKER,
)
"""The 45 cards: 52 without the 2s and 3s, plus one joker."""
GAME_VALUES = {Rank.ACE: 4, Rank.KING: 3, Rank.QUEEN: 2, Rank.JACK: 1, Rank.TEN: 10}
"""What each card counts towards Game; the joker counts 1, other ranks nothing."""
JOKER_GAME_VALUE = 1


def game_value(card: Card) -> int:
    """Return what the card counts towards Game."""
    return JOKER_GAME_VALUE if card.is_joker else GAME_VALUES.get(card.rank, 0)


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
TOP_BID = 6
PACK_GAME_COUNT = sum(game_value(card) for card in DECK)
"""81: every Game count of the pack added up."""
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
POINT_NAMES = {
    "high": "High",
    "low": "Low",
    "jack": "Jack",
    "off_jack": "Off-jack",
    "joker": "Joker",
    "game": "Game",
}
POINT_MISSING = {
    "high": "Every deal awards High: choose who held and played the ace of trump.",
    "low": "Every deal awards Low: choose who held and played the 4 of trump.",
    "jack": "Every deal awards Jack: choose who won the trick with the jack of trump.",
    "off_jack": "Every deal awards Off-jack: choose who won the trick with the other jack "
    "of trump's colour.",
    "joker": "Every deal awards Joker: choose who won the trick with the joker.",
}


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_auction(value: object) -> bool:
    return isinstance(value, list) and all(v is None or _is_int(v) for v in value)


def _is_counts(value: object) -> bool:
    return isinstance(value, dict) and all(v is None or _is_int(v) for v in value.values())


FIELD_TYPES: dict[str, tuple[Callable[[object], bool], str]] = {
    "number": (_is_int, "The deal number must be a whole number."),
    "bidder": (_is_int, "The bidder must be a seat number."),
    "bid": (_is_int, "The bid must be a whole number."),
    "trump": (lambda v: isinstance(v, str), "Trump must be a suit letter: S, H, D or C."),
    "called_card": (lambda v: isinstance(v, str), "The called card must be written like KH."),
    "partner": (_is_int, "The partner must be a seat number."),
    "auction": (
        _is_auction,
        "The auction must be a list of bids (whole numbers) and passes (null).",
    ),
    **{f: (_is_int, f"{POINT_NAMES[f]} must be given as a seat number.") for f in POINT_FIELDS},
    "game_points": (_is_counts, "Game counts must be an object with whole-number counts."),
    "game": (lambda v: isinstance(v, str), "Game must be 'bidders', 'opponents' or 'none'."),
    "thrown_in": (lambda v: isinstance(v, bool), "thrown_in must be true or false."),
}


def _names(config: "GameConfig", seats: Sequence[int]) -> str:
    """Return seat names joined for a sentence: "Ann", "Ann and Bob", "Ann, Bob and Cy"."""
    names = [config.players[s] for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _list(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _signed(value: int) -> str:
    return f"+{value}" if value >= 0 else f"\N{MINUS SIGN}{-value}"


class FiveHandedSchmier(Ruleset):
    """Five players, individual scores, a called partner, six points a deal, 21 to win."""

    id = "five-handed-schmier"
    name = "Five-Handed Schmier"
    min_players = 5
    max_players = 5
    target = 21
    deck = DECK
    house_rules = {
        "partner_breaks_ties": HouseRule(
            (True, False),
            True,
            "When players tie at the top and the bidder is not among them, the bidder's "
            "partner wins.",
        ),
        "unresolved_tie": HouseRule(
            ("play_on", "shared"),
            "play_on",
            "A tie the rules cannot settle: play another deal, or the tied players share the win.",
        ),
        "joker_callable": HouseRule(
            (True, False),
            False,
            "The bidder may call the joker; it is always in play, so its holder is the partner.",
        ),
    }
    entry_fields = (
        "number",
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

    # -- entry shape ---------------------------------------------------------------

    def parse_entry(self, raw: object) -> Entry:
        """Return the entry with its JSON types checked, or raise WrongType."""
        if not isinstance(raw, dict):
            raise WrongType({None: ("A deal must be a JSON object.",)})
        wrong = {}
        for key, value in raw.items():
            check = FIELD_TYPES.get(key)
            if value is not None and check is not None and not check[0](value):
                wrong[key] = (check[1],)
        if wrong:
            raise WrongType(wrong)
        kept = {k: copy.deepcopy(v) for k, v in raw.items() if v is not None and k != "number"}
        return Entry(kept, raw.get("number"))

    # -- checking and scoring ----------------------------------------------------------

    def score_deal(
        self, config: "GameConfig", number: int, dealer: int, scores: Sequence[int], entry: Entry
    ) -> DealResult:
        """Check the entry against every rule and score it, or raise RuleViolation."""
        raw = entry.raw
        seats = len(config.players)
        problems: dict[str | None, list[str]] = {}

        def problem(field: str | None, message: str) -> None:
            problems.setdefault(field, []).append(message)

        for key in raw:
            if key not in self.entry_fields or key == "number":
                problem(key, f"{key!r} is not part of a {self.name} deal.")

        auction = raw.get("auction")
        resolved = None  # (bidder, bid) from a valid auction, or () when everyone passed
        if auction is not None:
            for message in self._auction_problems(auction, seats):
                problem("auction", message)
            if "auction" not in problems:
                bids = [(i, v) for i, v in enumerate(auction) if v is not None]
                if bids:
                    speaker, top = bids[-1]
                    resolved = ((dealer + 1 + speaker) % seats, top)
                else:
                    resolved = ()

        if raw.get("thrown_in") is True or resolved == ():
            self._check_thrown_in(raw, resolved, problem)
            if problems:
                raise RuleViolation(problems)
            return DealResult(
                number,
                dealer,
                True,
                auction=tuple(auction) if auction is not None else None,
                deltas=(0,) * seats,
                scores=tuple(scores),
            )

        def seat(field: str, missing: str | None) -> int | None:
            value = raw.get(field)
            if value is None:
                if missing:
                    problem(field, missing)
                return None
            if not 0 <= value < seats:
                problem(field, f"Seat {value} is not at this table; seats are 0 to {seats - 1}.")
                return None
            return value

        # With an auction, the bidder and bid follow from it (or the auction is at fault).
        bidder = seat("bidder", None if auction is not None else "Choose who won the auction.")
        bid = raw.get("bid")
        if resolved:
            a_bidder, a_bid = resolved
            if "bidder" in raw and raw["bidder"] != a_bidder:
                problem("bidder", f"The auction makes {config.players[a_bidder]} the bidder.")
                problem("auction", "The auction and the bidder entered disagree.")
            if bid is not None and bid != a_bid:
                problem("bid", f"The auction's highest bid is {a_bid}.")
                problem("auction", "The auction and the bid entered disagree.")
            bidder, bid = a_bidder, a_bid
        elif bid is None:
            if auction is None:
                problem("bid", "Choose the bid: 3, 4, 5 or 6.")
        elif bid not in BIDS:
            problem("bid", f"Bids are 3, 4, 5 or 6; {bid} is not a bid.")
            bid = None

        trump = None
        if "trump" not in raw:
            problem("trump", "Choose the trump suit.")
        else:
            try:
                trump = Suit(raw["trump"])
            except ValueError:
                problem("trump", f"{raw['trump']!r} is not a suit; trump is S, H, D or C.")

        called = self._called_card(config, raw.get("called_card"), problem)
        always = self._always_in_play(config, trump) if trump else ()

        partner = seat("partner", None)
        if partner is not None:
            if partner == bidder:
                problem("partner", "The bidder cannot be their own partner.")
                partner = None
            elif "called_card" not in raw:
                problem("partner", "Only a called card makes a partner: enter the called card.")
                partner = None
        elif "partner" not in raw and called in always:
            problem(
                "partner",
                f"The {called.label} is always in play, so whoever held it is the partner.",
            )

        points = {f: seat(f, POINT_MISSING[f]) for f in POINT_FIELDS}
        if partner is not None and trump is not None:
            if called == Card(Rank.ACE, trump) and points["high"] not in (None, partner):
                problem(
                    "high",
                    "The ace of trump was called, so its holder is the partner and takes High.",
                )
            if called == Card(Rank.FOUR, trump) and points["low"] not in (None, partner):
                problem(
                    "low", "The 4 of trump was called, so its holder is the partner and takes Low."
                )

        side_of = None
        if bidder is not None and "partner" not in problems and "bidder" not in problems:
            bidding_side = {bidder} if partner is None else {bidder, partner}
            side_of = lambda s: BIDDERS if s in bidding_side else OPPONENTS  # noqa: E731
        game = self._game(raw, points, side_of, problem)

        if problems:
            raise RuleViolation(problems)

        taken = {BIDDERS: [], OPPONENTS: []}
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
        return DealResult(
            number,
            dealer,
            False,
            bidder=bidder,
            bid=bid,
            trump=str(trump),
            called_card=raw.get("called_card"),
            partner=partner,
            auction=tuple(auction) if auction is not None else None,
            **points,
            game_points=dict(raw["game_points"]) if "game_points" in raw else None,
            game=game,
            bidders=bidders,
            points=won,
            made=made,
            deltas=deltas,
            scores=tuple(a + d for a, d in zip(scores, deltas, strict=True)),
        )

    @staticmethod
    def _auction_problems(auction: list, seats: int) -> list[str]:
        """Return what is wrong with an auction list (empty when it is valid)."""
        found = []
        if not 1 <= len(auction) <= seats:
            found.append(f"The auction has one entry per speaker: 1 to {seats} entries.")
        highest = None
        for i, value in enumerate(auction):
            if value is None:
                continue
            if value not in BIDS:
                found.append(f"Bids are 3, 4, 5 or 6; {value} is not a bid.")
            elif highest is not None and value <= highest:
                found.append(
                    f"Each bid must beat every earlier bid; {value} does not beat {highest}."
                )
            else:
                highest = value
            if value == TOP_BID and i != len(auction) - 1:
                found.append("A bid of 6 ends the auction, so nobody speaks after it.")
        if auction and len(auction) <= seats and auction[-1] != TOP_BID and len(auction) != seats:
            found.append(
                f"Everyone speaks once: unless someone bids 6, the auction has {seats} entries."
            )
        return found

    def _check_thrown_in(self, raw: dict, resolved, problem) -> None:
        """Collect what is wrong with a thrown-in deal (everyone passed)."""
        if raw.get("thrown_in") is False:
            problem("thrown_in", "Everyone passed in the auction, so the deal was thrown in.")
            problem("auction", "An auction where everyone passed is a thrown-in deal.")
        if resolved:
            problem("thrown_in", "Someone bid in the auction, so the deal was not thrown in.")
            problem("auction", "A thrown-in deal's auction has only passes.")
        others = [k for k in raw if k in self.entry_fields and k not in ("thrown_in", "auction")]
        for key in others:
            problem(key, "A thrown-in deal has no bidder, trump or points: leave this out.")
        if others:
            problem("thrown_in", "A thrown-in deal records nothing but the auction.")
            if resolved == () and ("bidder" in raw or "bid" in raw):
                problem("auction", "Everyone passed in the auction, so nobody bid.")

    def _called_card(self, config: "GameConfig", text: str | None, problem) -> Card | None:
        """Return the called card if it can be called in this game, else note why not."""
        if text is None:
            return None
        try:
            card = Card.parse(text)
        except RuleViolation as violation:
            problem("called_card", violation.message)
            return None
        if card.is_joker:
            if not config.house_rules["joker_callable"]:
                problem(
                    "called_card",
                    "The joker has no rank or suit and cannot be called "
                    "(house rule: the joker is not callable).",
                )
                return None
        elif card not in self.deck:
            problem("called_card", f"There are no 2s or 3s in the {self.name} deck.")
            return None
        return card

    @staticmethod
    def _always_in_play(config: "GameConfig", trump: Suit) -> tuple[Card, ...]:
        """Return the callable cards that are always in play: calling one makes a partner."""
        cards = (
            Card(Rank.ACE, trump),
            Card(Rank.JACK, trump),
            Card(Rank.JACK, trump.same_colour),
            Card(Rank.FOUR, trump),
        )
        return (*cards, JOKER) if config.house_rules["joker_callable"] else cards

    @staticmethod
    def _game(raw: dict, points: dict, side_of, problem) -> str | None:
        """Return who took Game from `game` or the counts, noting every problem."""
        game, counts = raw.get("game"), raw.get("game_points")
        if (game is None) == (counts is None):
            problem(
                "game",
                "Say who took Game, or enter both sides' Game counts, not both."
                if game is not None
                else "Say who took Game, or enter both sides' Game counts.",
            )
        if game is not None:
            if game not in (*SIDES, NOBODY):
                problem("game", "Game goes to the bidders, the opponents, or nobody (a tie).")
                return None
            return game if counts is None else None
        if counts is None:
            return None
        if set(counts) != set(SIDES):
            problem("game_points", "Game counts are two numbers: bidders and opponents.")
            return None
        if any(counts[s] is None for s in SIDES):
            problem("game_points", "Enter both sides' Game counts.")
            return None
        if any(counts[s] < 0 for s in SIDES):
            problem("game_points", "Game counts are whole numbers from 0.")
            return None
        total = counts[BIDDERS] + counts[OPPONENTS]
        if total > PACK_GAME_COUNT:
            problem(
                "game_points",
                f"The Game counts add up to {total}, but the pack counts only {PACK_GAME_COUNT}.",
            )
        if side_of is not None and None not in points.values():
            for side in SIDES:
                took = [f for f in POINT_FIELDS if f != "low" and side_of(points[f]) == side]
                least = sum(HIGH_GAME_COUNT if f == "high" else ONE_GAME_COUNT for f in took)
                if counts[side] < least:
                    named = _list([POINT_NAMES[f] for f in took])
                    problem(
                        "game_points",
                        f"The {side} took {named}, so they captured at least {least} in Game "
                        f"counts; {counts[side]} was entered.",
                    )
        if counts[BIDDERS] == counts[OPPONENTS]:
            return NOBODY
        return BIDDERS if counts[BIDDERS] > counts[OPPONENTS] else OPPONENTS

    # -- winning ---------------------------------------------------------------------

    def outcome(
        self, config: "GameConfig", scores: Sequence[int], last: DealResult | None
    ) -> Outcome:
        """Run RULES.md §1's win check after a scored deal."""
        target = config.target
        reached = [s for s in range(len(scores)) if scores[s] >= target]
        # 1. Nobody at the target or more: play on.
        if not reached:
            return Outcome(IN_PROGRESS, (), None, f"Nobody has reached {target} yet.")
        top = max(scores[s] for s in reached)
        leaders = [s for s in reached if scores[s] == top]
        # 2. Of the players at the target or more, the highest score wins.
        if len(leaders) == 1:
            (winner,) = leaders
            name = config.players[winner]
            if len(reached) == 1:
                text = f"{name} reached {top}, so {name} wins."
            else:
                others = [s for s in reached if s != winner]
                text = (
                    f"{_names(config, reached)} reached {target}; {name} has the highest "
                    f"score, {top}, ahead of {_names(config, others)}, so {name} wins."
                )
            return Outcome(WON, (winner,), "highest", text)
        tied = f"{_names(config, leaders)} {'both' if len(leaders) == 2 else 'all'} reached {top}"
        bidder = last.bidder if last is not None else None
        partner = last.partner if last is not None else None
        # 3. Tied for highest and the bidder among them: the bidder wins.
        if bidder in leaders:
            name = config.players[bidder]
            return Outcome(
                WON, (bidder,), "bidder", f"{tied}; {name} bid this deal, so {name} wins."
            )
        # 4. Still tied and the partner among them: the partner wins (house rule).
        if config.house_rules["partner_breaks_ties"] and partner in leaders:
            name = config.players[partner]
            return Outcome(
                WON,
                (partner,),
                "partner",
                f"{tied} and {'neither' if len(leaders) == 2 else 'none'} of them bid this "
                f"deal; {name} was the bidder's partner, "
                f"so {name} wins (house rule: the partner breaks ties).",
            )
        # 5. The written rules do not settle it: the house rule decides.
        if config.house_rules["unresolved_tie"] == "shared":
            return Outcome(
                SHARED,
                tuple(leaders),
                "shared",
                f"{tied} and the written rules do not settle the tie, so they share the win "
                "(house rule: a tie is shared).",
            )
        return Outcome(
            IN_PROGRESS,
            (),
            None,
            f"{tied} and the written rules do not settle the tie, so another deal is played "
            "(house rule: play on).",
        )

    # -- words -----------------------------------------------------------------------

    def explain(self, config: "GameConfig", result: DealResult) -> tuple[str, ...]:
        """Return the deal's scoring in sentences for players."""
        dealer = config.players[result.dealer]
        if result.thrown_in:
            return (f"Everyone passed, so the deal was thrown in and {dealer} deals again.",)
        bidder = config.players[result.bidder]
        trump = Suit(result.trump)
        lines = []
        contract = f"{bidder} bid {result.bid} with {trump.noun} trump"
        if result.called_card is None:
            lines.append(f"{contract}, called no card and played alone.")
        else:
            card = Card.parse(result.called_card).label
            if result.partner is None:
                lines.append(
                    f"{contract} and called the {card}, which was out of play, so "
                    f"{bidder} played alone."
                )
            else:
                partner = config.players[result.partner]
                lines.append(
                    f"{contract} and called the {card}; {partner} held it and was the partner."
                )
        side_of = {
            s: BIDDERS if s in result.bidders else OPPONENTS for s in range(len(config.players))
        }
        taken = {BIDDERS: [], OPPONENTS: []}
        for field in POINT_FIELDS:
            taken[side_of[getattr(result, field)]].append(POINT_NAMES[field])
        if result.game != NOBODY:
            taken[result.game].append("Game")
        each = "each " if len(result.bidders) > 1 else ""
        who = (
            f"Bidders {_names(config, result.bidders)}"
            if len(result.bidders) > 1
            else f"{bidder}, alone,"
        )
        got = result.points[BIDDERS]
        change = got if result.made else -result.bid
        lines.append(
            f"{who} took {_list(taken[BIDDERS]) if taken[BIDDERS] else 'nothing'}: {got}, "
            f"bid {result.bid}, {'made' if result.made else 'set'} — {each}{_signed(change)}."
        )
        opp = result.points[OPPONENTS]
        lines.append(
            f"Opponents took {_list(taken[OPPONENTS]) if taken[OPPONENTS] else 'nothing'}: "
            f"each {_signed(opp)}."
        )
        counts = result.game_points
        if counts is not None:
            if result.game == NOBODY:
                lines.append(f"Game was tied at {counts[BIDDERS]} each, so nobody scored it.")
            else:
                lines.append(
                    f"Game counted {counts[BIDDERS]} for the bidders to "
                    f"{counts[OPPONENTS]} for the opponents."
                )
        elif result.game == NOBODY:
            lines.append("Game was tied, so nobody scored it.")
        return tuple(lines)
