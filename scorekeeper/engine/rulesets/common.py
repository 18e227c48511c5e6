"""Checks and words that several rulesets share: seats, suits, types, auctions, signs.

The engine's own checks of a setup (`game.configure`) and of a stand-in deal use its type
checks and its collector of problems too, so each is written once.
"""

import copy
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper.engine.cards import Card, Suit, game_value
from scorekeeper.engine.describe import CardValue
from scorekeeper.engine.errors import RuleViolation, WrongType
from scorekeeper.engine.frozen import freeze
from scorekeeper.engine.messages import Message, msg
from scorekeeper.engine.results import DecidedBy, Entry, Outcome, Status

TypeCheck = tuple[Callable[[object], bool], Message]


def is_int(value: object) -> bool:
    """Return whether the value is a JSON integer (booleans are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_str(value: object) -> bool:
    """Return whether the value is a JSON string."""
    return isinstance(value, str)


def is_bool(value: object) -> bool:
    """Return whether the value is a JSON boolean."""
    return isinstance(value, bool)


def is_int_list(value: object) -> bool:
    """Return whether the value is a list of integers."""
    return isinstance(value, list) and all(is_int(v) for v in value)


NUMBER_CHECK: TypeCheck = (is_int, msg("The deal number must be a whole number."))


class Problems:
    """Every problem found with an entry, keyed by field (None: the entry as a whole)."""

    def __init__(self) -> None:
        self.found: dict[str | None, list[Message]] = {}

    def add(self, field: str | None, message: Message) -> None:
        """Note a problem with the field."""
        self.found.setdefault(field, []).append(message)

    def __contains__(self, field: object) -> bool:
        return field in self.found

    def __bool__(self) -> bool:
        return bool(self.found)

    def raise_if_any(self) -> None:
        """Raise RuleViolation with every problem noted, if any."""
        if self.found:
            raise RuleViolation(self.found)


def parse_typed(raw: object, checks: Mapping[str, TypeCheck]) -> Entry:
    """Check the JSON types of a deal entry and return it, or raise WrongType.

    Keys without a check pass through here; the ruleset refuses unknown keys when scoring.
    """
    if not isinstance(raw, dict):
        raise WrongType({None: (msg("A deal must be a JSON object."),)})
    wrong = {}
    for key, value in raw.items():
        check = checks.get(key)
        if key == "number":
            check = NUMBER_CHECK
        if value is not None and check is not None and not check[0](value):
            wrong[key] = (check[1],)
    if wrong:
        raise WrongType(wrong)
    kept = {k: copy.deepcopy(v) for k, v in raw.items() if v is not None and k != "number"}
    return Entry(freeze(kept), raw.get("number"))


def refuse_unknown(
    raw: Mapping[str, Any], known: Iterable[str], name: Message, problems: Problems
) -> None:
    """Note every key that is not a field of this ruleset's entry."""
    allowed = set(known)
    for key in raw:
        if key not in allowed:
            problems.add(key, msg("%(key)r is not part of a %(game)s deal.", key=key, game=name))


def seat_of(
    raw: Mapping[str, Any],
    field: str,
    seats: int,
    problems: Problems,
    missing: Message | None = None,
) -> int | None:
    """Return the seat entered for the field, noting a missing or unknown seat."""
    value = raw.get(field)
    if value is None:
        if missing is not None:
            problems.add(field, missing)
        return None
    if not 0 <= value < seats:
        problems.add(
            field,
            msg(
                "Seat %(seat)s is not at this table; seats are 0 to %(last)s.",
                seat=value,
                last=seats - 1,
            ),
        )
        return None
    return int(value)


def suit_of(raw: Mapping[str, Any], problems: Problems, field: str = "trump") -> Suit | None:
    """Return the trump suit entered, noting a missing or unknown suit."""
    if field not in raw:
        problems.add(field, msg("Choose the trump suit."))
        return None
    try:
        return Suit(raw[field])
    except ValueError:
        problems.add(
            field, msg("%(value)r is not a suit; trump is S, H, D or C.", value=raw[field])
        )
        return None


def signed(value: int) -> str:
    """Return a score change with its sign: +3, or -2 written with a real minus sign."""
    return f"+{value}" if value >= 0 else f"\N{MINUS SIGN}{-value}"


def names(players: Sequence[str], seats: Iterable[int]) -> tuple[str, ...]:
    """Return the names at these seats, for a message parameter that lists people."""
    return tuple(players[s] for s in seats)


def apply_deltas(scores: Sequence[int], deltas: Sequence[int]) -> tuple[int, ...]:
    """Return the totals after adding each seat's change."""
    return tuple(a + d for a, d in zip(scores, deltas, strict=True))


# -- auctions where each player speaks once ------------------------------------------


def is_auction(value: object) -> bool:
    """Return whether the value is a list of passes (null) and whole-number bids."""
    return isinstance(value, list) and all(v is None or is_int(v) for v in value)


@dataclass(frozen=True, slots=True)
class Auctioned:
    """What a valid auction decided: the bidder and the bid, or that everyone passed."""

    bidder: int | None
    """The seat that bid highest; None when everyone passed."""
    bid: int | None
    """The highest bid; None when everyone passed."""

    @property
    def all_passed(self) -> bool:
        """Return whether nobody bid."""
        return self.bidder is None


def resolve_auction(
    auction: Sequence[Any],
    dealer: int,
    seats: int,
    bids: Sequence[int],
    bid_words: Message,
    problems: Problems,
) -> Auctioned | None:
    """Check an auction in which each player speaks once, from the dealer's left.

    Entry i is what the (i+1)-th speaker said: None for a pass, else a bid from `bids`
    beating every earlier bid. The top bid ends it at once; otherwise everyone speaks.
    Return what it decided, or None after noting every problem under `auction`.
    """
    found: list[Message] = []
    top = max(bids)
    if not 1 <= len(auction) <= seats:
        found.append(
            msg("The auction has one entry per speaker: 1 to %(seats)s entries.", seats=seats)
        )
    highest: int | None = None
    for index, value in enumerate(auction):
        if value is None:
            continue
        if value not in bids:
            found.append(
                msg("Bids are %(bids)s; %(value)s is not a bid.", bids=bid_words, value=value)
            )
        elif highest is not None and value <= highest:
            found.append(
                msg(
                    "Each bid must beat every earlier bid; %(value)s does not beat %(highest)s.",
                    value=value,
                    highest=highest,
                )
            )
        else:
            highest = value
        if value == top and index != len(auction) - 1:
            found.append(
                msg("A bid of %(top)s ends the auction, so nobody speaks after it.", top=top)
            )
    # A short auction is wrong only without the top bid: with it, speaking after the top
    # bid is the fault, already said above.
    if auction and len(auction) < seats and top not in auction:
        found.append(
            msg(
                "Everyone speaks once: unless someone bids %(top)s, the auction has "
                "%(seats)s entries.",
                top=top,
                seats=seats,
            )
        )
    for message in found:
        problems.add("auction", message)
    if found:
        return None
    spoken = [(index, value) for index, value in enumerate(auction) if value is not None]
    if not spoken:
        return Auctioned(None, None)
    speaker, bid = spoken[-1]
    return Auctioned((dealer + 1 + speaker) % seats, bid)


def contract_of(
    raw: Mapping[str, Any],
    auctioned: Auctioned | None,
    players: Sequence[str],
    bids: Sequence[int],
    bid_words: Message,
    problems: Problems,
) -> tuple[int | None, int | None]:
    """Return the bidder and bid, from the auction when it decided them, else as entered.

    Without an auction both are required; with one, any sent must agree with it (a
    disagreement names `auction` and the field).
    """
    has_auction = "auction" in raw
    bidder = seat_of(
        raw,
        "bidder",
        len(players),
        problems,
        None if has_auction else msg("Choose who won the auction."),
    )
    bid = raw.get("bid")
    if bid is not None and bid not in bids:
        problems.add(
            "bid", msg("Bids are %(bids)s; %(value)s is not a bid.", bids=bid_words, value=bid)
        )
        bid = None
    elif bid is None and not has_auction:
        problems.add("bid", msg("Choose the bid: %(bids)s.", bids=bid_words))
    if auctioned is None or auctioned.bidder is None:
        return bidder, bid
    if "bidder" in raw and raw["bidder"] != auctioned.bidder:
        problems.add(
            "bidder",
            msg("The auction makes %(name)s the bidder.", name=players[auctioned.bidder]),
        )
        problems.add("auction", msg("The auction and the bidder entered disagree."))
    if "bid" in raw and raw["bid"] != auctioned.bid:
        problems.add("bid", msg("The auction's highest bid is %(bid)s.", bid=auctioned.bid))
        problems.add("auction", msg("The auction and the bid entered disagree."))
    return auctioned.bidder, auctioned.bid


def check_thrown_in(
    raw: Mapping[str, Any], auctioned: Auctioned | None, problems: Problems
) -> None:
    """Note what is wrong with a thrown-in deal: it records nothing but its auction."""
    if raw.get("thrown_in") is False:
        problems.add("thrown_in", msg("Everyone passed in the auction, so the deal was thrown in."))
        problems.add("auction", msg("An auction where everyone passed is a thrown-in deal."))
    if auctioned is not None and not auctioned.all_passed:
        problems.add("thrown_in", msg("Someone bid in the auction, so the deal was not thrown in."))
        problems.add("auction", msg("A thrown-in deal's auction has only passes."))
    others = [key for key in raw if key not in ("thrown_in", "auction")]
    for key in others:
        problems.add(key, msg("A thrown-in deal has no bidder, trump or points: leave this out."))
    if others:
        problems.add("thrown_in", msg("A thrown-in deal records nothing but the auction."))
        if auctioned is not None and auctioned.all_passed and ("bidder" in raw or "bid" in raw):
            problems.add("auction", msg("Everyone passed in the auction, so nobody bid."))


# -- Game and the win check -------------------------------------------------------------


def game_from_counts(counts: Sequence[int]) -> int | None:
    """Return the index of the one highest Game count, or None when the highest is tied."""
    top = max(counts)
    leaders = [index for index, count in enumerate(counts) if count == top]
    return leaders[0] if len(leaders) == 1 else None


SCHMIER_COUNT_FLOORS = {"high": 4, "jack": 1, "off_jack": 1, "joker": 1}
"""Game count a Schmier side surely captured with each point: the ace of trump wins its
own trick (4), and the trick of either bauer or the joker holds that card (1)."""


def schmier_count_floor(points: Iterable[str]) -> int:
    """Return the least Game count of a side that scored these Schmier points."""
    return sum(SCHMIER_COUNT_FLOORS.get(point, 0) for point in points)


def unresolved_tie(rule: object, tied: tuple[int, ...], situation: Message) -> Outcome:
    """Settle a tie the written rules leave open by house rule `unresolved_tie`.

    `situation` says who is tied and why no earlier step settled it; `tied` are their seats.
    """
    if rule == "shared":
        return Outcome(
            Status.SHARED,
            tuple(sorted(tied)),
            DecidedBy.SHARED,
            msg(
                "%(situation)s, and the written rules do not settle the tie, so they share "
                "the win (house rule: a tie is shared).",
                situation=situation,
            ),
        )
    return Outcome(
        Status.IN_PROGRESS,
        (),
        None,
        msg(
            "%(situation)s, and the written rules do not settle the tie, so another deal "
            "is played (house rule: play on).",
            situation=situation,
        ),
        open_tie=tuple(sorted(tied)),
    )


def game_cards(deck: Iterable[Card]) -> tuple[CardValue, ...]:
    """Return the cards of the pack that count towards Game, with their values, in its order.

    What the deal form's card counter lists (a counts field's `card_values`).
    """
    return tuple(CardValue(card, game_value(card)) for card in deck if game_value(card))
