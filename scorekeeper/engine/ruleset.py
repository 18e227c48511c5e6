"""The interface every ruleset implements, and the configuration a game is started with."""

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper.engine.cards import Card
from scorekeeper.engine.describe import (
    CalledPoint,
    ContractWords,
    EntryField,
    PlayerExtra,
    Role,
    SideKind,
    Statistic,
    WinFact,
)
from scorekeeper.engine.frozen import EMPTY, FrozenMap, thaw
from scorekeeper.engine.messages import Message, msg
from scorekeeper.engine.results import DealKind, DealResult, Entry, HouseRule, Outcome


@dataclass(frozen=True, slots=True)
class GameConfig:
    """Everything fixed when a game starts."""

    ruleset: "Ruleset"
    """The rules the game is played by."""
    players: tuple[str, ...]
    """Player names by seat, clockwise."""
    first_dealer: int
    """The seat that deals the first deal."""
    target: int
    """The score that wins."""
    house_rules: FrozenMap[str, Any] = EMPTY
    """Every house rule of the ruleset with its effective value."""

    @property
    def seats(self) -> int:
        """Return how many players sit at the table."""
        return len(self.players)

    def teams(self) -> tuple[tuple[int, ...], ...] | None:
        """Return the fixed teams as seat tuples, or None when scores are individual."""
        return self.ruleset.teams(self)

    def to_document(self) -> dict[str, Any]:
        """Return the configuration as plain JSON values."""
        return {
            "ruleset": self.ruleset.id,
            "players": list(self.players),
            "first_dealer": self.first_dealer,
            "target": self.target,
            "house_rules": thaw(self.house_rules),
        }


class Ruleset(ABC):
    """A game of the family: its table, its entry, its scoring, its win check, its words."""

    id: str
    """Identifier used by the API, in lower-case words joined by hyphens."""
    label: Message
    """The game's name for people, a message the pages translate ("Shmear with a Kitty")."""
    min_players: int
    """Fewest players at the table."""
    max_players: int
    """Most players at the table."""
    target: int
    """Score that wins unless the game sets another."""
    deck: tuple[Card, ...]
    """Every card of the pack this game is played with."""
    house_rules: Mapping[str, HouseRule]
    """Settings where the written rules are silent, with their defaults."""
    side_kind: SideKind = SideKind.INDIVIDUAL
    """How players are grouped for scoring."""
    called_points: tuple[CalledPoint, ...] = ()
    """Called cards of trump whose holder, the partner, takes a point."""
    statistics: tuple[Statistic, ...] = ()
    """The counts a player's record shows for this game, in order."""
    extras: tuple[PlayerExtra, ...] = ()
    """The counts `player_extras` gives each player beside the score, in order."""
    summary: Message | None = None
    """One line for the new-game page: who plays and how."""
    deal_setup: tuple[Message, ...] = ()
    """What the dealer prepares, in sentences: the cards taken out of the pack or added to
    it (the joker), the cards each player gets, and a stock or kitty, if any."""
    win_facts: tuple[WinFact, ...] = (WinFact.BIDDER,)
    """What `outcome` reads of the deal just scored besides the scores (see `stand_in_deal`)."""
    contract_words: ContractWords = ContractWords(msg("made"), msg("set"), msg("Made"), msg("Set"))
    """How the game says a contract was made or lost, as its rules word it."""

    @property
    def name(self) -> str:
        """Return the game's name in English, as the API gives it."""
        return str(self.label)

    # -- the table ---------------------------------------------------------------

    def teams(self, config: GameConfig) -> tuple[tuple[int, ...], ...] | None:
        """Return the fixed teams as seat tuples, or None when scores are individual."""
        return None

    def default_teams(self) -> tuple[tuple[int, ...], ...] | None:
        """Return the teams under the default house rules at the most players, for listings."""
        return None

    def describe(self) -> dict[str, Any]:
        """Return the ruleset as `GET /api/v1/rulesets` lists it."""
        teams = self.default_teams()
        return {
            "id": self.id,
            "name": self.name,
            "players": {"min": self.min_players, "max": self.max_players},
            "target": self.target,
            "teams": None if teams is None else [list(team) for team in teams],
            "house_rules": {
                name: {"values": list(rule.values), "default": rule.default}
                for name, rule in self.house_rules.items()
            },
        }

    # -- the entry ---------------------------------------------------------------

    @abstractmethod
    def entry_fields(self, config: GameConfig) -> tuple[EntryField, ...]:
        """Return the fields of a deal entry in this game, in the order a form shows them."""

    @abstractmethod
    def parse_entry(self, config: GameConfig, raw: object) -> Entry:
        """Return the entry with its JSON types checked, or raise WrongType."""

    # -- scoring -----------------------------------------------------------------

    @abstractmethod
    def score_deal(
        self, config: GameConfig, number: int, dealer: int, scores: Sequence[int], entry: Entry
    ) -> DealResult:
        """Check the entry against every rule and score it, or raise RuleViolation."""

    @abstractmethod
    def outcome(
        self, config: GameConfig, scores: Sequence[int], last: DealResult | None
    ) -> Outcome:
        """Run the win check after a deal (`last` is None before the first)."""

    def next_dealer(self, config: GameConfig, result: DealResult) -> int:
        """Return who deals after this deal: the same dealer after a throw-in, else the left."""
        if result.kind == DealKind.THROWN_IN:
            return result.dealer
        return (result.dealer + 1) % config.seats

    def first_speaker(self, config: GameConfig, dealer: int) -> int:
        """Return who speaks first in the auction of a deal this seat deals: the dealer's left."""
        return (dealer + 1) % config.seats

    # -- words and records -------------------------------------------------------

    @abstractmethod
    def explain(self, config: GameConfig, result: DealResult) -> tuple[Message, ...]:
        """Return the deal's scoring in sentences for players ("why this score")."""

    def roles(self, config: GameConfig, result: DealResult) -> tuple[Role | None, ...]:
        """Return each seat's part in the deal; None for every seat when nothing was played."""
        if not result.played or result.bidders is None:
            return (None,) * config.seats
        bidder = result.bidder
        return tuple(
            Role.BIDDER
            if seat == bidder
            else Role.PARTNER
            if seat in result.bidders
            else Role.OPPONENT
            for seat in range(config.seats)
        )

    def starting_scores_needed(self, config: GameConfig, scores: Sequence[int]) -> tuple[int, ...]:
        """Return the seats whose score at the start of the deal the win check reads.

        `scores` are the scores at the end of the deal; by default every seat is needed
        where the win check reads starting scores at all (see `win_facts`).
        """
        if WinFact.STARTING_SCORES in self.win_facts:
            return tuple(range(config.seats))
        return ()

    def deal_changes(self, config: GameConfig) -> frozenset[tuple[int, ...]] | None:
        """Return every change of the scores (a delta per seat) one deal of this game can make.

        None where the game does not list them (the changes then go unchecked).
        """
        return None

    deal_changes_words: Message | None = None
    """What one deal can do to the scores, for a refusal of a change no deal makes."""

    def win_detail(self, bidder: int | None, partner: int | None, moon: bool) -> Mapping[str, Any]:
        """Return the detail of a stand-in deal that this win check reads (the settler's)."""
        return FrozenMap(bidder=bidder, partner=partner)

    def player_extras(
        self, config: GameConfig, results: Sequence[DealResult]
    ) -> tuple[Mapping[str, Any], ...]:
        """Return what the game document adds to each player besides the score: a count
        for each of the ruleset's `extras`, by its key."""
        return (EMPTY,) * config.seats

    def seat_tags(self, config: GameConfig, result: DealResult) -> tuple[frozenset[str], ...]:
        """Return each seat's statistics tags for the deal (see `statistics`)."""
        return tuple(frozenset() for _ in range(config.seats))


def team_label(names: Iterable[str]) -> str:
    """Return a team for people by its players: "Ann & Di", "Ann, Cy & Ed"."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " & " + names[-1]


def scoring_sides(config: GameConfig) -> list[tuple[str, tuple[int, ...]]]:
    """Return the sides that keep a score as (label, seats): teams, else each player.

    The deal form, the game page and the phone's worker all label the sides by this.
    """
    teams = config.ruleset.teams(config)
    if teams is None:
        return [(name, (seat,)) for seat, name in enumerate(config.players)]
    return [(team_label(config.players[s] for s in team), tuple(team)) for team in teams]
