"""Six-Handed Schmier, as docs/rules.md#six-handed-schmier states it: fixed teams, a
53-card pack, 21 to win."""

from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper.engine.cards import JOKER, Card, Rank, Suit, game_value
from scorekeeper.engine.describe import (
    Choice,
    EntryField,
    FieldKind,
    SideKind,
    Statistic,
)
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
    check_thrown_in,
    contract_of,
    game_cards,
    game_from_counts,
    is_auction,
    is_bool,
    is_int,
    is_int_list,
    is_str,
    names,
    parse_typed,
    refuse_unknown,
    resolve_auction,
    schmier_count_floor,
    seat_of,
    signed,
    suit_of,
    unresolved_tie,
)

DECK: tuple[Card, ...] = (*(Card(rank, suit) for suit in Suit for rank in Rank), JOKER)
"""The 53 cards: the full pack plus one joker."""


PACK_GAME_COUNT = sum(game_value(card) for card in DECK)
"""81: every Game count of the pack added up."""
GAME_CARDS = game_cards(DECK)
"""The 21 cards that count towards Game (the joker too), with their values, for the counter."""


def trump_order(trump: Suit) -> tuple[Card, ...]:
    """Return the 15 trumps, high to low: A K Q, both bauers, 10 down to 2, the joker."""
    plain = (Rank.ACE, Rank.KING, Rank.QUEEN)
    low = (Rank.TEN, Rank.NINE, Rank.EIGHT, Rank.SEVEN, Rank.SIX, Rank.FIVE, Rank.FOUR)
    return (
        *(Card(rank, trump) for rank in plain),
        Card(Rank.JACK, trump),
        Card(Rank.JACK, trump.same_colour),
        *(Card(rank, trump) for rank in (*low, Rank.THREE, Rank.TWO)),
        JOKER,
    )


BIDS = (3, 4, 5, 6)
BID_WORDS = msg("3, 4, 5 or 6")
NOBODY = "none"

TEAM_LAYOUTS: Mapping[str, tuple[tuple[int, ...], ...]] = FrozenMap(
    {"3x2": ((0, 3), (1, 4), (2, 5)), "2x3": ((0, 2, 4), (1, 3, 5))}
)
"""House rule `teams`: three pairs sitting opposite, or two teams of three sitting apart."""
DEFAULT_LAYOUT = "3x2"

POINT_FIELDS = ("high", "low", "jack", "off_jack", "joker")
"""The five card points, each entered as a seat; all five are always in play."""
POINT_WORDS = {
    "high": msg("High"),
    "low": msg("Low"),
    "jack": msg("Jack"),
    "off_jack": msg("Off-jack"),
    "joker": msg("Joker"),
    "game": msg("Game"),
}
POINT_HINTS = {
    "high": msg("Who held and played the ace of trump."),
    "low": msg("Who held and played the 2 of trump."),
    "jack": msg("Who won the trick with the jack of trump."),
    "off_jack": msg("Who won the trick with the other jack of trump's colour."),
    "joker": msg("Who won the trick with the joker."),
}
POINT_MISSING = {
    "high": msg("Every deal awards High: choose who held and played the ace of trump."),
    "low": msg("Every deal awards Low: choose who held and played the 2 of trump."),
    "jack": msg("Every deal awards Jack: choose who won the trick with the jack of trump."),
    "off_jack": msg(
        "Every deal awards Off-jack: choose who won the trick with the other jack of "
        "trump's colour."
    ),
    "joker": msg("Every deal awards Joker: choose who won the trick with the joker."),
}

FIELDS = (
    "thrown_in",
    "bidder",
    "bid",
    "trump",
    "auction",
    *POINT_FIELDS,
    "game_points",
    "game",
)
"""The entry's fields, in the deal document's order."""

TYPE_CHECKS: Mapping[str, TypeCheck] = FrozenMap(
    {
        "bidder": (is_int, msg("The bidder must be a seat number.")),
        "bid": (is_int, msg("The bid must be a whole number.")),
        "trump": (is_str, msg("Trump must be a suit letter: S, H, D or C.")),
        "auction": (
            is_auction,
            msg("The auction must be a list of bids (whole numbers) and passes (null)."),
        ),
        **{
            field: (
                is_int,
                msg("%(point)s must be given as a seat number.", point=POINT_WORDS[field]),
            )
            for field in POINT_FIELDS
        },
        "game_points": (
            is_int_list,
            msg("Game counts must be a list of whole numbers, one per team."),
        ),
        "game": (
            lambda value: is_int(value) or is_str(value),
            msg("Game must be a team number or 'none'."),
        ),
        "thrown_in": (is_bool, msg("thrown_in must be true or false.")),
    }
)


def team_words(config: GameConfig, team: Sequence[int]) -> Message:
    """Return a team for people, by its players: "Ann & Di", "Ann, Cy & Ed"."""
    players = names(config.players, team)
    if len(players) == 2:
        return msg("%(first)s & %(second)s", first=players[0], second=players[1])
    return msg(
        "%(first)s, %(second)s & %(third)s",
        first=players[0],
        second=players[1],
        third=players[2],
    )


class SixHandedSchmier(Ruleset):
    """Six players in fixed teams, six points a deal, no called partner, 21 to win."""

    id = "six-handed-schmier"
    label = msg("Six-Handed Schmier")
    min_players = 6
    max_players = 6
    target = 21
    deck = DECK
    house_rules = FrozenMap(
        {
            "teams": HouseRule(
                ("3x2", "2x3"),
                DEFAULT_LAYOUT,
                msg(
                    "Three teams of two sitting opposite (seats 0 & 3, 1 & 4, 2 & 5), or two "
                    "teams of three sitting apart (seats 0, 2 & 4 and 1, 3 & 5)."
                ),
                msg("Teams"),
            ),
            "unresolved_tie": HouseRule(
                ("play_on", "shared"),
                "play_on",
                msg(
                    "Teams tied at the top without the bidding team among them: play another "
                    "deal, or the tied teams share the win."
                ),
                msg("Unresolved tie"),
            ),
        }
    )
    side_kind = SideKind.TEAMS
    statistics = (
        Statistic("bid", msg("Bids won")),
        Statistic("made", msg("Bids made")),
        Statistic("set", msg("Bids set")),
    )
    summary = msg(
        "Six players in fixed teams, a 53-card pack with the joker, six points a deal, 21 to win."
    )
    deal_setup = (
        msg("The whole 52-card pack and one joker: 53 cards."),
        msg("Deal six cards to each player; the dealer keeps the other 17 as a stock."),
    )

    # -- the table ---------------------------------------------------------------

    def teams(self, config: GameConfig) -> tuple[tuple[int, ...], ...]:
        """Return the teams the house rule `teams` sets."""
        return TEAM_LAYOUTS[self._rule(config, "teams")]

    def default_teams(self) -> tuple[tuple[int, ...], ...]:
        """Return the teams under the default house rule: three pairs sitting opposite."""
        return TEAM_LAYOUTS[DEFAULT_LAYOUT]

    def _rule(self, config: GameConfig, name: str) -> Any:
        """Return a house rule's effective value (its default when the game left it out)."""
        return config.house_rules.get(name, self.house_rules[name].default)

    def _team_of(self, config: GameConfig, seat: int) -> int:
        """Return the index of the seat's team."""
        return next(i for i, team in enumerate(self.teams(config)) if seat in team)

    # -- the entry ---------------------------------------------------------------

    def entry_fields(self, config: GameConfig) -> tuple[EntryField, ...]:
        """Return the entry's fields, in the order a form shows them."""
        teams = self.teams(config)
        team_choices = tuple(
            Choice(index, team_words(config, team)) for index, team in enumerate(teams)
        )
        bid_choices = tuple(Choice(bid, msg("%(bid)s", bid=bid)) for bid in BIDS)
        return (
            EntryField(
                "bidder",
                FieldKind.SEAT,
                msg("Bidder"),
                msg("Who won the auction and named trump."),
            ),
            EntryField("bid", FieldKind.BID, msg("Bid"), msg("3 to 6."), choices=bid_choices),
            EntryField("trump", FieldKind.SUIT, msg("Trump"), msg("The suit the bidder named.")),
            *(
                EntryField(
                    field, FieldKind.SEAT, POINT_WORDS[field], POINT_HINTS[field], point=True
                )
                for field in POINT_FIELDS
            ),
            EntryField(
                "game",
                FieldKind.SIDE,
                POINT_WORDS["game"],
                msg("The team whose captured cards counted most; a tie at the top scores nobody."),
                choices=(*team_choices, Choice(NOBODY, msg("Nobody (a tie)"))),
                point=True,
            ),
            EntryField(
                "game_points",
                FieldKind.COUNTS,
                msg("Game counts"),
                msg("Each team's count: A 4, K 3, Q 2, J 1, 10 counts 10, the joker 1."),
                choices=team_choices,
                advanced=True,
                card_values=GAME_CARDS,
            ),
            EntryField(
                "auction",
                FieldKind.AUCTION,
                msg("Auction"),
                msg("What each player said, from the dealer's left: a bid of 3 to 6, or pass."),
                choices=bid_choices,
                advanced=True,
                names="bidder",
            ),
            EntryField(
                "thrown_in",
                FieldKind.FLAG,
                msg("Thrown in"),
                msg("Everyone passed: the same dealer deals again."),
            ),
        )

    def parse_entry(self, config: GameConfig, raw: object) -> Entry:
        """Return the entry with its JSON types checked, or raise WrongType."""
        return parse_typed(raw, TYPE_CHECKS)

    # -- scoring -----------------------------------------------------------------

    def score_deal(
        self, config: GameConfig, number: int, dealer: int, scores: Sequence[int], entry: Entry
    ) -> DealResult:
        """Check the entry against every rule of docs/rules.md#six-handed-schmier and score it,
        or raise RuleViolation."""
        raw = entry.raw
        problems = Problems()
        refuse_unknown(raw, FIELDS, self.label, problems)
        auction = raw.get("auction")
        auctioned = (
            None
            if auction is None
            else resolve_auction(auction, dealer, config.seats, BIDS, BID_WORDS, problems)
        )
        if raw.get("thrown_in") is True or (auctioned is not None and auctioned.all_passed):
            check_thrown_in({k: v for k, v in raw.items() if k in FIELDS}, auctioned, problems)
            problems.raise_if_any()
            return self._thrown_in(config, number, dealer, scores, auction)

        bidder, bid = contract_of(raw, auctioned, config.players, BIDS, BID_WORDS, problems)
        trump = suit_of(raw, problems)
        points = {
            field: seat_of(raw, field, config.seats, problems, POINT_MISSING[field])
            for field in POINT_FIELDS
        }
        game = self._game(config, raw, points, problems)
        problems.raise_if_any()
        assert bidder is not None and bid is not None and trump is not None and game is not None

        teams = self.teams(config)
        taken = [0] * len(teams)
        for seat in points.values():
            assert seat is not None
            taken[self._team_of(config, seat)] += 1
        if game != NOBODY:
            taken[int(game)] += 1
        bidding = self._team_of(config, bidder)
        made = taken[bidding] >= bid
        change = [
            (count if made else -bid) if index == bidding else count
            for index, count in enumerate(taken)
        ]
        deltas = tuple(change[self._team_of(config, seat)] for seat in range(config.seats))
        detail: dict[str, Any] = {
            "thrown_in": False,
            "bidder": bidder,
            "bid": bid,
            "trump": str(trump),
            "auction": auction,
            **points,
            "game_points": raw.get("game_points"),
            "game": game,
            "points": tuple(taken),
        }
        return DealResult(
            number=number,
            dealer=dealer,
            kind=DealKind.PLAYED,
            bidders=(bidder, *(s for s in teams[bidding] if s != bidder)),
            made=made,
            deltas=deltas,
            scores=apply_deltas(scores, deltas),
            detail=FrozenMap(detail),
        )

    def _thrown_in(
        self,
        config: GameConfig,
        number: int,
        dealer: int,
        scores: Sequence[int],
        auction: tuple[int | None, ...] | None,
    ) -> DealResult:
        """Return a thrown-in deal: nothing scored, every field but the auction null."""
        detail: dict[str, Any] = dict.fromkeys(FIELDS)
        detail.update(thrown_in=True, auction=auction, points=None)
        return DealResult(
            number=number,
            dealer=dealer,
            kind=DealKind.THROWN_IN,
            bidders=None,
            made=None,
            deltas=(0,) * config.seats,
            scores=tuple(scores),
            detail=FrozenMap(detail),
        )

    def _game(
        self,
        config: GameConfig,
        raw: Mapping[str, Any],
        points: Mapping[str, int | None],
        problems: Problems,
    ) -> int | str | None:
        """Return who took Game (a team index or "none") from `game` or the counts."""
        teams = self.teams(config)
        game, counts = raw.get("game"), raw.get("game_points")
        if game is None and counts is None:
            problems.add("game", msg("Say which team took Game, or enter each team's Game count."))
        elif game is not None and counts is not None:
            problems.add(
                "game",
                msg("Say which team took Game, or enter each team's Game count, not both."),
            )
        if game is not None and game != NOBODY and not (is_int(game) and 0 <= game < len(teams)):
            problems.add(
                "game",
                msg(
                    "Game goes to a team, 0 to %(last)s, or to nobody ('none') after a tie; "
                    "%(value)r is neither.",
                    last=len(teams) - 1,
                    value=game,
                ),
            )
            game = None
        if counts is None:
            return game
        found = len(problems.found.get("game_points", ()))
        self._check_counts(config, counts, points, problems)
        if len(problems.found.get("game_points", ())) > found or game is not None:
            return None
        winner = game_from_counts(counts)
        return NOBODY if winner is None else winner

    def _check_counts(
        self,
        config: GameConfig,
        counts: Sequence[int],
        points: Mapping[str, int | None],
        problems: Problems,
    ) -> None:
        """Note every way the Game counts break the count rules of
        docs/rules.md#five-handed-schmier, applied per team."""
        teams = self.teams(config)
        if len(counts) != len(teams):
            problems.add(
                "game_points",
                msg(
                    "Enter one Game count per team, in team order: %(teams)s counts, "
                    "not %(given)s.",
                    teams=len(teams),
                    given=len(counts),
                ),
            )
            return
        if any(count < 0 for count in counts):
            problems.add("game_points", msg("Game counts are whole numbers from 0."))
            return
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
        for index, team in enumerate(teams):
            took = [field for field, seat in points.items() if seat is not None and seat in team]
            least = schmier_count_floor(took)
            if counts[index] < least:
                problems.add(
                    "game_points",
                    msg(
                        "%(team)s took %(points)s, so they captured at least %(least)s in "
                        "Game counts; %(count)s was entered.",
                        team=team_words(config, team),
                        points=tuple(POINT_WORDS[f] for f in took if f != "low"),
                        least=least,
                        count=counts[index],
                    ),
                )

    # -- winning -----------------------------------------------------------------

    def outcome(
        self, config: GameConfig, scores: Sequence[int], last: DealResult | None
    ) -> Outcome:
        """Run docs/rules.md#six-handed-schmier's win check on the team scores after a deal."""
        target = config.target
        teams = self.teams(config)
        score = [scores[team[0]] for team in teams]
        reached = [index for index, value in enumerate(score) if value >= target]
        # 1. No team at the target or more: play on.
        if not reached:
            return Outcome(
                Status.IN_PROGRESS,
                (),
                None,
                msg("No team has reached %(target)s yet.", target=target),
            )
        top = max(score[index] for index in reached)
        leaders = [index for index in reached if score[index] == top]
        # 2. One team at the target, or the highest of several: it wins.
        if len(leaders) == 1:
            (winner,) = leaders
            team = team_words(config, teams[winner])
            if len(reached) == 1:
                text = msg("%(team)s reached %(score)s, so %(team)s win.", team=team, score=top)
            else:
                text = msg(
                    "%(teams)s reached %(target)s; %(team)s have the highest score, %(score)s, "
                    "so %(team)s win.",
                    teams=tuple(team_words(config, teams[index]) for index in reached),
                    target=target,
                    team=team,
                    score=top,
                )
            return Outcome(Status.WON, teams[winner], DecidedBy.HIGHEST, text)
        tied = msg(
            "%(teams)s are tied at %(score)s",
            teams=tuple(team_words(config, teams[index]) for index in leaders),
            score=top,
        )
        bidder = last.bidder if last is not None and last.played else None
        bidding = None if bidder is None else self._team_of(config, bidder)
        # 3. Tied for highest with the bidding team among them: the bidding team wins.
        if bidding in leaders:
            assert bidder is not None and bidding is not None
            team = team_words(config, teams[bidding])
            return Outcome(
                Status.WON,
                teams[bidding],
                DecidedBy.BIDDER,
                msg(
                    "%(tied)s; %(bidder)s bid this deal, so the bidding team, %(team)s, win.",
                    tied=tied,
                    bidder=config.players[bidder],
                    team=team,
                ),
            )
        # 4. The written rules do not settle it: house rule `unresolved_tie`.
        seats = tuple(sorted(seat for index in leaders for seat in teams[index]))
        situation = msg("%(tied)s and the bidding team is not among them", tied=tied)
        return unresolved_tie(self._rule(config, "unresolved_tie"), seats, situation)

    # -- words and records -------------------------------------------------------

    def explain(self, config: GameConfig, result: DealResult) -> tuple[Message, ...]:
        """Return the deal's scoring in sentences for players."""
        if not result.played or result.bidders is None:
            return (
                msg(
                    "Everyone passed, so the deal was thrown in and %(dealer)s deals again.",
                    dealer=config.players[result.dealer],
                ),
            )
        teams = self.teams(config)
        bidder, bid = result.get("bidder"), result.get("bid")
        bidding = self._team_of(config, bidder)
        taken: list[list[Message]] = [[] for _ in teams]
        for field in POINT_FIELDS:
            taken[self._team_of(config, result.get(field))].append(POINT_WORDS[field])
        game = result.get("game")
        if game != NOBODY:
            taken[game].append(POINT_WORDS["game"])
        points = result.get("points")
        lines = [
            msg(
                "%(bidder)s bid %(bid)s with %(suit)s trump for the team %(team)s.",
                bidder=config.players[bidder],
                bid=bid,
                suit=Suit(result.get("trump")).words,
                team=team_words(config, teams[bidding]),
            )
        ]
        order = [bidding, *(index for index in range(len(teams)) if index != bidding)]
        empty = [team_words(config, teams[i]) for i in order if i != bidding and not taken[i]]
        for index in order:
            took = tuple(taken[index]) or (msg("nothing"),)
            words = team_words(config, teams[index])
            if index != bidding and not taken[index]:
                continue  # said once below, with every other team that took nothing
            if index != bidding:
                lines.append(
                    msg(
                        "%(team)s took %(points)s: each %(change)s.",
                        team=words,
                        points=took,
                        change=signed(points[index]),
                    )
                )
            elif result.made:
                lines.append(
                    msg(
                        "%(team)s took %(points)s: %(count)s for a bid of %(bid)s, made, so "
                        "each %(change)s.",
                        team=words,
                        points=took,
                        count=points[index],
                        bid=bid,
                        change=signed(points[index]),
                    )
                )
            else:
                lines.append(
                    msg(
                        "%(team)s took %(points)s: %(count)s for a bid of %(bid)s, set, so "
                        "each %(change)s.",
                        team=words,
                        points=took,
                        count=points[index],
                        bid=bid,
                        change=signed(-bid),
                    )
                )
        if empty:
            lines.append(msg("%(teams)s took nothing.", teams=tuple(empty)))
        counts = result.get("game_points")
        if counts is not None:
            # Built apart: babel does not extract a msg() nested inside another's arguments.
            each = tuple(
                msg("%(count)s for %(team)s", count=count, team=team_words(config, team))
                for count, team in zip(counts, teams, strict=True)
            )
            lines.append(msg("Game counted %(counts)s.", counts=each))
        if game == NOBODY:
            lines.append(msg("Game was tied at the top, so nobody scored it."))
        return tuple(lines)

    def seat_tags(self, config: GameConfig, result: DealResult) -> tuple[frozenset[str], ...]:
        """Tag the bidder's seat with `bid` and `made` or `set`."""
        bidder = result.bidder
        tags = frozenset({"bid", "made" if result.made else "set"})
        return tuple(
            tags if result.played and seat == bidder else frozenset()
            for seat in range(config.seats)
        )
