"""Invariants of the engine over many generated games (Hypothesis).

`valid_entries(state)` builds entries the rules allow for the deal about to be
entered: a thrown-in deal, or a bidder and bid (or an auction from the dealer's
left) with a trump, a called card and partner that agree with each other, every
point given to a seat, and Game as a side or as counts that fit the points.
"""

import copy

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from scorekeeper.engine import (
    CorrectionConflict,
    DealResult,
    GameState,
    RuleViolation,
    WrongType,
    apply_deal,
    can_deal,
    correct_deal,
    new_game,
    parse_entry,
    replay,
    resume,
)
from tests.quick import examples

from .builders import config

SEATS = 5
SUITS = ("S", "H", "D", "C")
SAME_COLOUR = {"S": "C", "C": "S", "H": "D", "D": "H"}
RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4")
CALLABLE = tuple(f"{rank}{suit}" for rank in RANKS for suit in SUITS)
POINTS = ("high", "low", "jack", "off_jack", "joker")
PACK = 81

SETTINGS = settings(
    max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
GAME_SETTINGS = settings(SETTINGS, max_examples=examples(100))
"""Whole games cost more to draw: fewer of them."""


def always_in_play(trump: str, joker_callable: bool) -> set[str]:
    """Return the callable cards that are always in play with this trump."""
    cards = {f"A{trump}", f"J{trump}", f"J{SAME_COLOUR[trump]}", f"4{trump}"}
    return cards | {"JOKER"} if joker_callable else cards


def least_counts(points: dict, bidders: set[int]) -> dict[str, int]:
    """Return each side's least Game count: 4 for High, 1 each for Jack, Off-jack, Joker."""
    least = {"bidders": 0, "opponents": 0}
    for field, value in (("high", 4), ("jack", 1), ("off_jack", 1), ("joker", 1)):
        least["bidders" if points[field] in bidders else "opponents"] += value
    return least


@st.composite
def auctions(draw, dealer: int) -> tuple[list, int, int]:
    """Return an auction with at least one bid, and the bidder and bid it decides."""
    bids = sorted(draw(st.sets(st.sampled_from((3, 4, 5, 6)), min_size=1)))
    speakers = sorted(
        draw(st.sets(st.integers(0, SEATS - 1), min_size=len(bids), max_size=len(bids)))
    )
    auction = [None] * SEATS
    for speaker, bid in zip(speakers, bids, strict=True):
        auction[speaker] = bid
    last = speakers[-1]
    if bids[-1] == 6:
        auction = auction[: last + 1]
    return auction, (dealer + 1 + last) % SEATS, bids[-1]


@st.composite
def thrown_in_entries(draw) -> dict:
    """Return a thrown-in deal in one of the forms API.md allows."""
    return draw(
        st.sampled_from(
            [
                {"thrown_in": True},
                {"auction": [None] * SEATS},
                {"thrown_in": True, "auction": [None] * SEATS},
            ]
        )
    )


@st.composite
def played_entries(draw, state: GameState) -> dict:
    """Return a valid played deal for the deal about to be entered in `state`."""
    joker_callable = state.config.house_rules["joker_callable"]
    raw: dict = {}
    form = draw(st.sampled_from(("fields", "auction", "both")))
    if form == "fields":
        bidder, bid = draw(st.integers(0, SEATS - 1)), draw(st.integers(3, 6))
        raw.update(bidder=bidder, bid=bid)
    else:
        auction, bidder, bid = draw(auctions(state.next_dealer))
        raw["auction"] = auction
        if form == "both":
            raw.update(bidder=bidder, bid=bid)
    trump = draw(st.sampled_from(SUITS))
    raw["trump"] = trump
    always = always_in_play(trump, joker_callable)
    call = draw(st.sampled_from(("none", "held", "out")))
    partner = None
    if call == "held":
        cards = CALLABLE + (("JOKER",) if joker_callable else ())
        raw["called_card"] = draw(st.sampled_from(cards))
        partner = draw(st.sampled_from([s for s in range(SEATS) if s != bidder]))
        raw["partner"] = partner
    elif call == "out":
        raw["called_card"] = draw(st.sampled_from([c for c in CALLABLE if c not in always]))
    if partner is None and draw(st.booleans()):
        raw["partner"] = None  # null means left out
    points = {f: draw(st.integers(0, SEATS - 1)) for f in POINTS}
    if raw.get("called_card") == f"A{trump}" and partner is not None:
        points["high"] = partner
    if raw.get("called_card") == f"4{trump}" and partner is not None:
        points["low"] = partner
    raw.update(points)
    if draw(st.booleans()):
        raw["game"] = draw(st.sampled_from(("bidders", "opponents", "none")))
    else:
        least = least_counts(points, {bidder} if partner is None else {bidder, partner})
        ours = draw(st.integers(least["bidders"], PACK - least["opponents"]))
        theirs = draw(st.integers(least["opponents"], PACK - ours))
        raw["game_points"] = {"bidders": ours, "opponents": theirs}
    if draw(st.booleans()):
        raw["number"] = state.deal_count + 1
    return raw


def valid_entries(state: GameState) -> st.SearchStrategy[dict]:
    """Return a strategy for entries the rules allow as the next deal of `state`."""
    return st.one_of(thrown_in_entries(), played_entries(state), played_entries(state))


@st.composite
def tables(draw, targets=(21, 11, 31, 999)):
    """Return a table with drawn first dealer, target and house rules."""
    return config(
        first_dealer=draw(st.integers(0, SEATS - 1)),
        target=draw(st.sampled_from(targets)),
        partner_breaks_ties=draw(st.booleans()),
        unresolved_tie=draw(st.sampled_from(("play_on", "shared"))),
        joker_callable=draw(st.booleans()),
    )


@st.composite
def games(draw, min_deals=0, max_deals=10, targets=(21, 11, 31, 999)):
    """Return a table, the raw entries of a game played on it, and the state after each."""
    table = draw(tables(targets))
    state = new_game(table)
    raws, states = [], []
    for _ in range(draw(st.integers(min_deals, max_deals))):
        if state.outcome.finished:
            break
        raw = draw(valid_entries(state))
        state = apply_deal(state, parse_entry(table, raw))
        raws.append(raw)
        states.append(state)
    return table, raws, states


def bidder_change(result: DealResult) -> int:
    """Return what each bidder scores: all the bidders took if made, minus the bid if set."""
    return result.points["bidders"] if result.made else -result.bid


# -- every valid entry is accepted and scored consistently ----------------------------------


@SETTINGS
@given(st.data())
def test_any_valid_entry_is_accepted_and_its_points_add_to_6_or_5(data):
    table, _raws, states = data.draw(games(max_deals=6))
    state = states[-1] if states else new_game(table)
    if state.outcome.finished:
        return
    raw = data.draw(valid_entries(state))
    assert can_deal(state, parse_entry(state.config, raw))
    after = apply_deal(state, parse_entry(state.config, raw))
    done = after.last
    assert done.number == state.deal_count + 1
    assert done.dealer == state.next_dealer
    if done.thrown_in:
        assert done.deltas == (0,) * SEATS
        assert after.next_dealer == state.next_dealer
        return
    assert after.next_dealer == (state.next_dealer + 1) % SEATS
    total = done.points["bidders"] + done.points["opponents"]
    assert total == (5 if done.game == "none" else 6)
    assert done.made is (done.points["bidders"] >= done.bid)
    for seat in range(SEATS):
        expected = bidder_change(done) if seat in done.bidders else done.points["opponents"]
        assert done.deltas[seat] == expected
        assert done.scores[seat] == state.scores[seat] + expected


@GAME_SETTINGS
@given(games(min_deals=1))
def test_deltas_add_up_to_the_running_scores(game):
    _table, _raws, states = game
    totals = [0] * SEATS
    for state in states:
        done = state.last
        totals = [t + d for t, d in zip(totals, done.deltas, strict=True)]
        assert tuple(totals) == done.scores == state.scores
        if not done.thrown_in:
            opponents = SEATS - len(done.bidders)
            assert sum(done.deltas) == (
                len(done.bidders) * bidder_change(done) + opponents * done.points["opponents"]
            )


@GAME_SETTINGS
@given(games(min_deals=1))
def test_a_made_bid_never_lowers_a_bidders_score(game):
    _table, _raws, states = game
    before = (0,) * SEATS
    for state in states:
        done = state.last
        if done.made:
            for seat in done.bidders:
                assert state.scores[seat] >= before[seat] + done.bid
        before = state.scores


@GAME_SETTINGS
@given(games(min_deals=1))
def test_replay_is_deterministic_and_resume_matches_it(game):
    table, raws, states = game
    stored = [dict(parse_entry(table, raw).raw) for raw in raws]
    assert list(replay(table, raws)) == states
    assert list(replay(table, stored)) == states
    last = states[-1]
    assert resume(table, DealResult.from_document(last.last.to_document())) == last


# -- one wrong field is refused, naming that field --------------------------------------------

MUTATIONS = {
    "bid": (2, 7, 0),
    "bidder": (5, -1),
    "trump": ("X", "h", ""),
    "called_card": ("2S", "3H", "KX", "10"),
    "partner": (5, -1),
    "high": (5, -1),
    "low": (5, -1),
    "jack": (5,),
    "off_jack": (-2,),
    "joker": (7,),
    "game": ("everyone",),
    "game_points": ({"bidders": 50, "opponents": 40}, {"bidders": -1, "opponents": 3}),
    "auction": ([3, 3, None, None, None], [6, None], []),
    "dealer": (0,),
}


@SETTINGS
@given(st.data())
def test_one_illegal_field_in_a_valid_entry_is_refused_naming_that_field(data):
    table = data.draw(tables())
    state = new_game(table)
    raw = data.draw(played_entries(state))
    field = data.draw(st.sampled_from(sorted(MUTATIONS)))
    bad, named = copy.deepcopy(raw), field
    if field == "game" and "game" not in raw:
        bad["game"] = "bidders"  # both game and game_points
    elif field == "game_points" and "game_points" not in raw:
        bad["game_points"] = {"bidders": 20, "opponents": 20}
        named = "game"  # both game and game_points: API.md names `game`
    else:
        bad[field] = data.draw(st.sampled_from(MUTATIONS[field]))
    if field == "called_card" and not table.house_rules["joker_callable"]:
        bad[field] = data.draw(st.sampled_from((*MUTATIONS[field], "JOKER")))
    try:
        apply_deal(state, parse_entry(table, bad))
    except RuleViolation as violation:
        assert named in violation.problems
    else:
        raise AssertionError(f"{bad!r} was accepted")


WRONG_TYPES = {
    **dict.fromkeys(
        ("number", "bidder", "bid", "partner", *POINTS), ("3", 3.0, True, False, [3], {})
    ),
    **dict.fromkeys(("trump", "called_card", "game"), (3, True, ["H"], {"card": "KH"})),
    "auction": ("3", 3, [True], ["3"], [3.0], {"0": 3}),
    "game_points": ([27, 18], 45, {"bidders": "27", "opponents": 18}, {"bidders": True}),
    "thrown_in": (1, 0, "true", [True]),
}


@SETTINGS
@given(st.data())
def test_one_wrong_json_type_in_a_valid_entry_is_refused_as_wrong_type_naming_it(data):
    table = data.draw(tables())
    raw = data.draw(valid_entries(new_game(table)))
    field = data.draw(st.sampled_from(sorted(WRONG_TYPES)))
    bad = {**raw, field: data.draw(st.sampled_from(WRONG_TYPES[field]))}
    try:
        parse_entry(table, bad)
    except WrongType as wrong:
        assert set(wrong.problems) == {field}
    else:
        raise AssertionError(f"{bad!r} was accepted")


@SETTINGS
@given(st.data())
def test_partner_equal_to_bidder_or_missing_for_an_always_in_play_card_names_partner(data):
    table = data.draw(tables())
    state = new_game(table)
    raw = data.draw(played_entries(state))
    if "auction" in raw:
        return
    bad = dict(raw)
    if data.draw(st.booleans()):
        bad.update(called_card=raw.get("called_card", "KS"), partner=raw["bidder"])
    else:
        card = data.draw(
            st.sampled_from(
                sorted(always_in_play(raw["trump"], table.house_rules["joker_callable"]))
            )
        )
        bad.update(called_card=card, partner=None)
    try:
        apply_deal(state, parse_entry(table, bad))
    except RuleViolation as violation:
        assert "partner" in violation.problems
    else:
        raise AssertionError(f"{bad!r} was accepted")


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-10, 100)
    | st.floats(allow_nan=False)
    | st.text(max_size=6)
    | st.sampled_from(("S", "H", "JOKER", "AH", "4H", "JD", "bidders", "opponents", "none")),
    lambda inner: (
        st.lists(inner, max_size=7)
        | st.dictionaries(st.sampled_from(("bidders", "opponents", "x")), inner, max_size=3)
    ),
    max_leaves=10,
)
KEYS = st.sampled_from(
    (
        *POINTS,
        *("number", "bidder", "bid", "trump", "called_card", "partner", "auction"),
        *("game_points", "game", "thrown_in", "dealer", "scores"),
    )
)


@SETTINGS
@given(tables(), st.dictionaries(KEYS, JSON | st.integers(-1, 6), max_size=12))
def test_any_json_body_is_accepted_or_refused_with_a_rule_violation(table, raw):
    try:
        apply_deal(new_game(table), parse_entry(table, raw))
    except RuleViolation as violation:
        assert violation.problems
        assert all(messages for messages in violation.problems.values())


# -- corrections -------------------------------------------------------------------------------


@GAME_SETTINGS
@given(st.data())
def test_a_correction_then_its_inverse_restores_every_score(data):
    table, raws, states = data.draw(games(min_deals=1, targets=(21, 999)))
    stored = [dict(parse_entry(table, raw).raw) for raw in raws]
    number = data.draw(st.integers(1, len(stored)))
    before = states[number - 2] if number > 1 else new_game(table)
    replacement = data.draw(valid_entries(before))
    try:
        corrected = correct_deal(table, stored, number, parse_entry(table, replacement))
    except CorrectionConflict as conflict:
        event("correction conflicts with a later deal")
        assert number < conflict.number <= len(stored)
        return
    assert len(corrected) == len(stored)
    assert corrected[: number - 1] == tuple(s.last for s in states[: number - 1])
    changed = list(stored)
    changed[number - 1] = dict(parse_entry(table, replacement).raw)
    restored = correct_deal(table, changed, number, parse_entry(table, raws[number - 1]))
    assert restored == tuple(s.last for s in states)
    assert [r.scores for r in restored] == [s.scores for s in states]
