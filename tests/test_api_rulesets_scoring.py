"""Random games of the six newer rulesets through the API, checked against a scorer of our own.

tests/rulesets_scorer.py reads docs/rules.md and docs/api.md afresh, independent of
scorekeeper.engine. Every deal's dealer, deltas, scores, bidder, bid, made, bidders,
points and game, and each game's end (status, winners, decided_by, next dealer, teams,
smucks) must agree, after plain entries, corrections and undo alike; the engine alone
plays many more games against it. Then docs/api.md's refusals, field by field, and literal
games for the win-check branches random play rarely reaches.
"""

import random

import pytest

from scorekeeper import engine
from tests.conftest import BOTH
from tests.quick import examples
from tests.rulesets_scorer import (
    NAMES,
    RULESETS,
    SHMEAR_FAMILY,
    State,
    Table,
    play,
    random_entry,
    random_table,
    replay,
)

BACKENDS = BOTH
GAMES = examples(6)
CORRECTED_GAMES = 8  # with these seeds every ruleset meets a 409 conflict
ENGINE_GAMES = examples(100)
"""Games per ruleset (and per database, through the API); the engine alone plays many more."""
MOST_DEALS = 60


def create(api, table):
    """Create the table's game through the API; return its document with the edit token."""
    return api.create(
        ruleset=table.ruleset,
        players=NAMES[: table.players],
        first_dealer=table.first_dealer,
        target=table.target,
        house_rules=table.house_rules,
    )


def deal_fields(document, row):
    """Return the deal document's fields the scorer computes for this row."""
    return {key: document.get(key, "(missing)") for key in row.compared()}


def assert_game(table, document, state):
    """Check the game document against the scorer's state: scores, dealer, end, smucks."""
    assert [p["score"] for p in document["players"]] == list(state.scores)
    assert document["next_dealer"] == state.dealer
    status, winners, decided_by = state.outcome
    assert (document["status"], document["winners"], document["decided_by"]) == (
        status,
        winners,
        decided_by,
    )
    assert document["teams"] == table.teams
    if table.ruleset in SHMEAR_FAMILY:
        assert [p["smucks"] for p in document["players"]] == list(state.smucks)
    else:
        assert all("smucks" not in p for p in document["players"])


def play_game(api, rng, table):
    """Play random deals until the game ends (or MOST_DEALS); return (game, entries, state)."""
    game = create(api, table)
    state, entries = State.start(table), []
    while state.outcome[0] == "in_progress" and len(entries) < MOST_DEALS:
        entry = random_entry(rng, table, state)
        row, state = play(table, state, entry)
        body = {"number": len(entries) + 1, **entry} if rng.random() < 0.3 else entry
        response = api.post(game, body)
        assert response.status_code == 201, (len(entries) + 1, entry, response.get_json())
        entries.append(entry)
        assert deal_fields(response.get_json(), row) == row.compared(), (len(entries), entry)
    # A game the engine ended too early refused the next deal above; one it failed to end
    # shows here, with every score, smuck and the next dealer.
    assert_game(table, api.game(game), state)
    return game, entries, state


@pytest.mark.parametrize("seed", range(GAMES))
@pytest.mark.parametrize("ruleset", RULESETS)
def test_random_game_matches_an_independent_scorer(api, ruleset, seed):
    rng = random.Random(f"{ruleset}/{seed}")
    table = random_table(rng, ruleset)
    game, entries, state = play_game(api, rng, table)
    if state.outcome[0] != "in_progress":
        refused = api.post(game, random_entry(rng, table, State.start(table)))
        assert refused.status_code == 409, refused.get_json()
        assert refused.get_json()["error"]["code"] == "game_over"
        assert len(api.game(game)["deals"]) == len(entries)
    # Undoing the last deal re-opens a finished game and restores the state before it.
    assert api.delete(game, len(entries)).status_code == 204
    _, state = replay(table, entries[:-1])
    assert_game(table, api.game(game), state)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_many_random_games_in_the_engine_match_the_scorer(ruleset):
    """The same check without a database, on many more games (the engine is fast alone)."""
    for seed in range(ENGINE_GAMES):
        rng = random.Random(f"engine/{ruleset}/{seed}")
        table = random_table(rng, ruleset)
        config = engine.configure(
            ruleset,
            NAMES[: table.players],
            table.first_dealer,
            table.target,
            dict(table.house_rules),
        )
        game, state = engine.new_game(config), State.start(table)
        while state.outcome[0] == "in_progress" and game.deal_count < MOST_DEALS:
            entry = random_entry(rng, table, state)
            row, state = play(table, state, entry)
            game = engine.apply_deal(game, engine.parse_entry(config, entry))
            document = game.last.to_document()
            outcome = game.outcome
            assert deal_fields(document, row) == row.compared(), (seed, entry)
            assert (
                str(outcome.status),
                list(outcome.winners),
                None if outcome.decided_by is None else str(outcome.decided_by),
                game.next_dealer,
            ) == (*state.outcome, state.dealer), (seed, entry)


@pytest.mark.parametrize("seed", range(CORRECTED_GAMES))
@pytest.mark.parametrize("ruleset", RULESETS)
def test_random_corrections_match_an_independent_scorer(api, ruleset, seed):
    rng = random.Random(f"{ruleset}/corrections/{seed}")
    table = random_table(rng, ruleset)
    game, entries, _ = play_game(api, rng, table)
    for _ in range(6):
        number = rng.randrange(1, len(entries) + 1)
        _, state_before = replay(table, entries[: number - 1])
        replacement = random_entry(rng, table, state_before)
        candidate = [*entries[: number - 1], replacement, *entries[number:]]
        expected = replay(table, candidate)
        before = api.game(game)
        response = api.put(game, number, replacement)
        if expected is None:
            assert response.status_code == 409, (number, replacement, response.get_json())
            assert response.get_json()["error"]["code"] == "conflict"
            assert api.game(game) == before
            continue
        assert response.status_code == 200, (number, replacement, response.get_json())
        entries = candidate
        rows, state = expected
        row = rows[number - 1]
        assert deal_fields(response.get_json(), row) == row.compared()
        document = api.game(game)
        assert [
            deal_fields(deal, row) for deal, row in zip(document["deals"], rows, strict=True)
        ] == [row.compared() for row in rows], (number, replacement)
        assert_game(table, document, state)


SIX_HANDED = {
    "bidder": 1,
    "bid": 4,
    "trump": "H",
    "high": 3,
    "low": 0,
    "jack": 1,
    "off_jack": 2,
    "joker": 4,
    "game_points": [27, 18, 9],
}
"""API.md's six-handed entry (teams 0&3, 1&4, 2&5; dealer 0)."""
SHMEAR = {"bidder": 2, "bid": 3, "trump": "S", "high": 1, "low": 2, "jack": 0}
"""API.md's Shmear entry, without Game (four players, dealer 0, every score 0)."""
EUCHRE = {"bidder": 0, "trump": "H", "called_card": "AS", "partner": 3, "tricks": 4}
"""API.md's Euchre entry (dealer 0)."""
ALL_PASS = [None] * 4

REFUSALS = [
    # six-handed: what the ruleset does not use, values outside its deck and bids
    ("six-handed-schmier", {**SIX_HANDED, "called_card": "KH"}, 422, {"called_card"}),
    ("six-handed-schmier", {**SIX_HANDED, "partner": 3}, 422, {"partner"}),
    ("six-handed-schmier", {**SIX_HANDED, "forfeit": True}, 422, {"forfeit"}),
    ("six-handed-schmier", {**SIX_HANDED, "tricks": 3}, 422, {"tricks"}),
    ("six-handed-schmier", {**SIX_HANDED, "bid": 2}, 422, {"bid"}),
    ("six-handed-schmier", {**SIX_HANDED, "bid": 7}, 422, {"bid"}),
    ("six-handed-schmier", {**SIX_HANDED, "bid": "moon"}, 400, {"bid"}),
    ("six-handed-schmier", {**SIX_HANDED, "bid": "4"}, 400, {"bid"}),
    ("six-handed-schmier", {**SIX_HANDED, "bidder": 6}, 422, {"bidder"}),
    ("six-handed-schmier", {**SIX_HANDED, "joker": 6}, 422, {"joker"}),
    ("six-handed-schmier", {**SIX_HANDED, "trump": "X"}, 422, {"trump"}),
    ("six-handed-schmier", {**SIX_HANDED, "off_jack": None}, 422, {"off_jack"}),
    # six-handed: Game
    ("six-handed-schmier", {**SIX_HANDED, "game_points": {"0": 27}}, 400, {"game_points"}),
    ("six-handed-schmier", {**SIX_HANDED, "game_points": [27, 18]}, 422, {"game_points"}),
    ("six-handed-schmier", {**SIX_HANDED, "game_points": [3, 18, 9]}, 422, {"game_points"}),
    ("six-handed-schmier", {**SIX_HANDED, "game_points": [27, 1, 9]}, 422, {"game_points"}),
    ("six-handed-schmier", {**SIX_HANDED, "game_points": [40, 30, 12]}, 422, {"game_points"}),
    # team 1 took Jack, Off-jack and Joker: it counts at least 3
    (
        "six-handed-schmier",
        {**SIX_HANDED, "off_jack": 4, "game_points": [27, 2, 9]},
        422,
        {"game_points"},
    ),
    # team 0 took High and the three others: it counts at least 7
    (
        "six-handed-schmier",
        {**SIX_HANDED, "jack": 0, "off_jack": 3, "joker": 0, "game_points": [6, 30, 30]},
        422,
        {"game_points"},
    ),
    ("six-handed-schmier", {**SIX_HANDED, "game_points": [27, -1, 9]}, 422, {"game_points"}),
    ("six-handed-schmier", {**SIX_HANDED, "game": 0}, 422, {"game"}),
    ("six-handed-schmier", {**SIX_HANDED, "game_points": None}, 422, {"game"}),
    ("six-handed-schmier", {**SIX_HANDED, "game_points": None, "game": 3}, 422, {"game"}),
    (
        "six-handed-schmier",
        {**SIX_HANDED, "game_points": None, "game": "bidders"},
        422,
        {"game"},
    ),
    # six-handed: the auction and the thrown-in deal
    ("six-handed-schmier", {**SIX_HANDED, "auction": [3, 4]}, 422, {"auction"}),
    ("six-handed-schmier", {**SIX_HANDED, "auction": [6, None]}, 422, {"auction"}),
    ("six-handed-schmier", {**SIX_HANDED, "auction": [4, 3, *[None] * 4]}, 422, {"auction"}),
    ("six-handed-schmier", {**SIX_HANDED, "auction": [None] * 6 + [4]}, 422, {"auction"}),
    ("six-handed-schmier", {**SIX_HANDED, "auction": [None] * 5 + [4]}, 422, {"auction", "bidder"}),
    (
        "six-handed-schmier",
        {**SIX_HANDED, "auction": [4] + [None] * 5, "bid": 5},
        422,
        {"auction", "bid"},
    ),
    ("six-handed-schmier", {**SIX_HANDED, "auction": [None, 2, *[None] * 4]}, 422, {"auction"}),
    ("six-handed-schmier", {"thrown_in": True, "bid": 4}, 422, {"thrown_in", "bid"}),
    ("six-handed-schmier", {"thrown_in": True, "auction": [None] * 5}, 422, {"auction"}),
    (
        "six-handed-schmier",
        {"thrown_in": True, "auction": [3, *[None] * 5]},
        422,
        {"thrown_in", "auction"},
    ),
    ("six-handed-schmier", {"thrown_in": "yes"}, 400, {"thrown_in"}),
    (
        "six-handed-schmier",
        {"thrown_in": False, "auction": [None] * 6},
        422,
        {"thrown_in", "auction"},
    ),
    (
        "six-handed-schmier",
        {"auction": [None] * 6, "bid": 3},
        422,
        {"thrown_in", "auction", "bid"},
    ),
    # Shmear: fields it does not use, bids, points
    ("shmear", {**SHMEAR, "game": 1, "off_jack": 1}, 422, {"off_jack"}),
    ("shmear", {**SHMEAR, "game": 1, "joker": 1}, 422, {"joker"}),
    ("shmear", {**SHMEAR, "game": 1, "called_card": "KH"}, 422, {"called_card"}),
    ("shmear", {**SHMEAR, "game": 1, "partner": 1}, 422, {"partner"}),
    ("shmear", {**SHMEAR, "game": 1, "thrown_in": True}, 422, {"thrown_in"}),
    ("shmear", {**SHMEAR, "game": 1, "bid": 5}, 422, {"bid"}),
    ("shmear", {**SHMEAR, "game": 1, "bid": 1}, 422, {"bid"}),
    ("shmear", {**SHMEAR, "game": 1, "bid": "Moon"}, 422, {"bid"}),
    ("shmear", {**SHMEAR, "game": 1, "bid": 3.0}, 400, {"bid"}),
    ("shmear", {**SHMEAR, "game": 1, "bid": "moon"}, 422, {"bid"}),
    ("shmear", {**SHMEAR, "game": 1, "high": None}, 422, {"high"}),
    ("shmear", {**SHMEAR, "game": 1, "low": None}, 422, {"low"}),
    ("shmear", {**SHMEAR, "game": 1, "jack": 4}, 422, {"jack"}),
    ("shmear", {**SHMEAR, "game": 4}, 422, {"game"}),
    ("shmear", {**SHMEAR, "game": "bidders"}, 422, {"game"}),
    ("shmear", {**SHMEAR, "game": 1, "game_points": [1, 20, 0, 0]}, 422, {"game"}),
    ("shmear", SHMEAR, 422, {"game"}),
    # Shmear: counts
    ("shmear", {**SHMEAR, "game_points": [12, 30, 8]}, 422, {"game_points"}),
    ("shmear", {**SHMEAR, "game_points": [0, 30, 8, 19]}, 422, {"game_points"}),
    ("shmear", {**SHMEAR, "game_points": [40, 30, 8, 3]}, 422, {"game_points"}),
    ("shmear", {**SHMEAR, "game_points": [12, -1, 8, 19]}, 422, {"game_points"}),
    ("shmear", {**SHMEAR, "game_points": ["12", 30, 8, 19]}, 400, {"game_points"}),
    ("shmear", {**SHMEAR, "game_points": {"0": 12}}, 400, {"game_points"}),
    # Shmear: the auction, playing at 2 and the forfeit
    ("shmear", {**SHMEAR, "game": 1, "auction": [2, 3]}, 422, {"auction"}),
    ("shmear", {**SHMEAR, "game": 1, "auction": [2, 4, None, 3]}, 422, {"auction"}),
    ("shmear", {**SHMEAR, "game": 1, "auction": [None, 4, None, None, None]}, 422, {"auction"}),
    ("shmear", {**SHMEAR, "game": 1, "auction": [None, 5, None, None]}, 422, {"auction"}),
    ("shmear", {**SHMEAR, "game": 1, "auction": [None, 2, None, None]}, 422, {"auction", "bid"}),
    ("shmear", {**SHMEAR, "game": 1, "auction": [3, None, None, None]}, 422, {"auction", "bidder"}),
    (
        "shmear",
        {**SHMEAR, "game": 1, "bid": None, "auction": [None, "moon"]},
        422,
        {"auction", "bid"},
    ),
    # API.md names the missing trump, high and low; Game is missing too, and 422 names
    # every field at fault.
    ("shmear", {"auction": ALL_PASS}, 422, {"trump", "high", "low"}),
    ("shmear", {**SHMEAR, "game": 1, "bid": None, "auction": ALL_PASS}, 422, {"auction", "bidder"}),
    ("shmear", {**SHMEAR, "bidder": 0, "game": 1, "auction": ALL_PASS}, 422, {"auction", "bid"}),
    ("shmear", {"forfeit": True, "trump": "S"}, 422, {"forfeit", "trump"}),
    ("shmear", {"forfeit": True, "bidder": 0, "bid": 2}, 422, {"forfeit", "bidder", "bid"}),
    ("shmear", {"forfeit": True, "auction": [None, 2, None, None]}, 422, {"forfeit", "auction"}),
    ("shmear", {"forfeit": 1}, 400, {"forfeit"}),
    ("shmear", {"forfeit": True, "auction": [None] * 5}, 422, {"auction"}),
    ("shmear-partners", {"forfeit": True, "auction": [None] * 3}, 422, {"auction"}),
    # the other Shmears
    ("shmear-high-low", {**SHMEAR, "game": 1, "bid": "moon"}, 422, {"bid"}),
    (
        "shmear-high-low",
        {**SHMEAR, "game": 1, "bid": None, "auction": [None, "moon"]},
        422,
        {"auction", "bid"},
    ),
    ("shmear-high-low", {**SHMEAR, "game_points": [12, 30, 8]}, 422, {"game_points"}),
    ("shmear-high-low", {**SHMEAR, "game_points": [0, 30, 8, 19]}, 422, {"game_points"}),
    # the pair (1 and 2) pools its counts only to decide Game: 2 took the Jack and counts 0
    (
        "shmear-high-low",
        {**SHMEAR, "jack": 2, "game_points": [12, 30, 0, 19]},
        422,
        {"game_points"},
    ),
    ("shmear-partners", {**SHMEAR, "game_points": [12, 30, 8, 19]}, 422, {"game_points"}),
    ("shmear-partners", {**SHMEAR, "game_points": [0, 30]}, 422, {"game_points"}),
    ("shmear-partners", {**SHMEAR, "game_points": [50, 31]}, 422, {"game_points"}),
    ("shmear-partners", {**SHMEAR, "game": 2}, 422, {"game"}),
    ("shmear-partners", {**SHMEAR, "game": 1, "bid": "moon"}, 422, {"bid"}),
    ("shmear-kitty", {**SHMEAR, "game": 1, "bid": "moon"}, 422, {"bid"}),
    ("shmear-kitty", {**SHMEAR, "game": 1, "joker": 0}, 422, {"joker"}),
    # five-handed Euchre
    ("five-handed-euchre", {**EUCHRE, "partner": 0}, 422, {"partner"}),
    ("five-handed-euchre", {**EUCHRE, "called_card": None}, 422, {"partner"}),
    ("five-handed-euchre", {**EUCHRE, "called_card": "7S"}, 422, {"called_card"}),
    ("five-handed-euchre", {**EUCHRE, "called_card": "2D"}, 422, {"called_card"}),
    ("five-handed-euchre", {**EUCHRE, "called_card": "JOKER"}, 422, {"called_card"}),
    ("five-handed-euchre", {**EUCHRE, "called_card": "as"}, 422, {"called_card"}),
    ("five-handed-euchre", {**EUCHRE, "tricks": 6}, 422, {"tricks"}),
    ("five-handed-euchre", {**EUCHRE, "tricks": -1}, 422, {"tricks"}),
    ("five-handed-euchre", {**EUCHRE, "tricks": None}, 422, {"tricks"}),
    ("five-handed-euchre", {**EUCHRE, "tricks": "4"}, 400, {"tricks"}),
    ("five-handed-euchre", {**EUCHRE, "tricks": True}, 400, {"tricks"}),
    ("five-handed-euchre", {**EUCHRE, "bidder": 5}, 422, {"bidder"}),
    ("five-handed-euchre", {**EUCHRE, "trump": "N"}, 422, {"trump"}),
    ("five-handed-euchre", {**EUCHRE, "bid": 3}, 422, {"bid"}),
    ("five-handed-euchre", {**EUCHRE, "auction": [None] * 5}, 422, {"auction"}),
    ("five-handed-euchre", {**EUCHRE, "thrown_in": True}, 422, {"thrown_in"}),
    ("five-handed-euchre", {**EUCHRE, "high": 0}, 422, {"high"}),
    ("five-handed-euchre", {**EUCHRE, "game_points": [1, 2, 3, 4, 5]}, 422, {"game_points"}),
]


def refusal_id(case):
    ruleset, _, status, fields = case
    return f"{ruleset}:{'+'.join(sorted(fields))}:{status}"


@pytest.mark.parametrize(
    ("ruleset", "entry", "status", "fields"), REFUSALS, ids=map(refusal_id, REFUSALS)
)
def test_refusal_names_the_fields_at_fault(api, ruleset, entry, status, fields):
    """The refusals of API.md, field by field (the database plays no part: SQLite only)."""
    players = {"six-handed-schmier": 6, "five-handed-euchre": 5}.get(ruleset, 4)
    game = api.create(ruleset=ruleset, players=NAMES[:players])
    before = api.game(game)
    response = api.post(game, entry)
    assert response.status_code == status, response.get_json()
    error = response.get_json()["error"]
    assert error["code"] == ("invalid" if status == 422 else "bad_request")
    assert set(error["fields"]) == fields, error
    assert api.game(game) == before


test_refusal_names_the_fields_at_fault.BACKENDS = ("sqlite",)


GAME_REFUSALS = [
    ("six-handed-schmier", 5, {"teams": "3x2"}, {"players"}),
    ("six-handed-schmier", 6, {"teams": "4x1"}, {"house_rules"}),
    ("six-handed-schmier", 6, {"partner_breaks_ties": True}, {"house_rules"}),
    ("six-handed-schmier", 6, {"low_to_taker": True}, {"house_rules"}),
    ("shmear", 2, {}, {"players"}),
    ("shmear", 7, {}, {"players"}),
    ("shmear", 4, {"joker_callable": True}, {"house_rules"}),
    ("shmear-high-low", 5, {}, {"players"}),
    ("shmear-partners", 4, {"unresolved_tie": "shared"}, {"house_rules"}),
    ("shmear-partners", 6, {}, {"players"}),
    ("shmear-kitty", 4, {"low_to_taker": "yes"}, {"house_rules"}),
    ("five-handed-euchre", 4, {}, {"players"}),
    ("five-handed-euchre", 5, {"unresolved_tie": "play_on"}, {"house_rules"}),
]


@pytest.mark.parametrize(
    ("ruleset", "players", "house_rules", "fields"),
    GAME_REFUSALS,
    ids=[f"{case[0]}:{'+'.join(case[3])}:{case[1]}" for case in GAME_REFUSALS],
)
def test_game_refusal_names_players_or_house_rules(client, ruleset, players, house_rules, fields):
    body = {"ruleset": ruleset, "players": NAMES[:players] + ["Gus"] * (players > 6)}
    response = client.post("/api/v1/games", json={**body, "house_rules": house_rules})
    assert response.status_code == 422, response.get_json()
    assert set(response.get_json()["error"]["fields"]) == fields


def shmear_deal(bidder, bid, high, low, jack, game):
    return {
        "bidder": bidder,
        "bid": bid,
        "trump": "S",
        "high": high,
        "low": low,
        "jack": jack,
        "game": game,
    }


def six_deal(bidder, bid, high, low, jack, off_jack, joker, game):
    return {
        "bidder": bidder,
        "bid": bid,
        "trump": "H",
        "high": high,
        "low": low,
        "jack": jack,
        "off_jack": off_jack,
        "joker": joker,
        "game": game,
    }


SCENARIOS = [
    pytest.param(
        Table("shmear", 3, 2, {"unresolved_tie": "play_on"}, 0),
        [
            shmear_deal(0, 2, 1, 1, 2, 2),  # 1 and 2 tie at 2 without the (set) bidder
            {"forfeit": True},  # 1 forfeits to 0: a forfeit never ends the game
            shmear_deal(0, 2, 0, 0, None, "none"),  # 0 and 2 at 2: the bidder wins
        ],
        ("won", [0], "bidder"),
        id="shmear-open-tie-survives-a-forfeit-then-the-bidder-wins",
    ),
    pytest.param(
        Table("shmear", 4, 2, {"unresolved_tie": "play_on"}, 0),
        [
            shmear_deal(0, 2, 1, 2, 3, "none"),
            shmear_deal(0, 2, 1, 2, None, "none"),  # 1 and 2 tie at 2: play on
            shmear_deal(3, "moon", 3, 3, 3, 3),  # 3 (at 1) shoots the moon
        ],
        ("won", [3], "moon"),
        id="shmear-moon-wins-over-sides-already-at-the-target",
    ),
    pytest.param(
        Table("shmear-kitty", 3, 2, {"unresolved_tie": "shared"}, 0),
        [shmear_deal(0, 2, 1, 1, 2, 2)],
        ("shared", [1, 2], "shared"),
        id="shmear-kitty-tie-without-the-bidder-is-shared",
    ),
    pytest.param(
        Table("shmear", 3, 3, {"unresolved_tie": "play_on"}, 0),
        [
            shmear_deal(0, 2, 0, 0, 1, 1),  # 0 makes 2, 1 takes 2
            shmear_deal(0, 3, 1, 0, 1, 0),  # 0 set from 2 to 0, not -1; 1 reaches 4
        ],
        ("won", [1], "highest"),
        id="shmear-set-bidder-stops-at-zero",
    ),
    pytest.param(
        Table("shmear-high-low", 4, 1, {"unresolved_tie": "play_on"}, 0),
        [shmear_deal(3, 2, 0, 1, 3, "none")],
        ("won", [3], "bidder"),
        id="high-low-bidder-outside-the-pair-wins-the-tie",
    ),
    pytest.param(
        Table("shmear-partners", 4, 4, {}, 0),
        [
            shmear_deal(0, 2, 0, 1, 2, 0),  # team 0 makes 3, team 1 takes 1
            shmear_deal(1, 3, 1, 0, 3, 1),  # team 1 makes 3, team 0 takes 1: both at 4
        ],
        ("won", [1, 3], "bidder"),
        id="partners-both-teams-at-the-target-the-bidding-team-wins",
    ),
    pytest.param(
        Table("six-handed-schmier", 6, 3, {"teams": "3x2"}, 0),
        [six_deal(0, 3, 0, 3, 0, 1, 1, 1)],
        ("won", [0, 3], "bidder"),
        id="six-handed-tie-with-the-bidding-team-the-bidding-team-wins",
    ),
    pytest.param(
        Table("six-handed-schmier", 6, 2, {"teams": "3x2", "unresolved_tie": "shared"}, 0),
        [six_deal(0, 3, 1, 1, 2, 2, 0, "none")],
        ("shared", [1, 2, 4, 5], "shared"),
        id="six-handed-tie-without-the-bidding-team-is-shared",
    ),
    pytest.param(
        Table("six-handed-schmier", 6, 2, {"teams": "3x2", "unresolved_tie": "play_on"}, 0),
        [six_deal(0, 3, 1, 1, 2, 2, 0, "none"), {"thrown_in": True}],
        ("in_progress", [], None),
        id="six-handed-open-tie-plays-on-through-a-thrown-in-deal",
    ),
    pytest.param(
        Table("five-handed-euchre", 5, 3, {}, 0),
        [
            {"bidder": 0, "trump": "S", "called_card": "AS", "partner": 3, "tricks": 3},
            {"bidder": 0, "trump": "S", "tricks": 4},  # alone, 4 tricks: 1 point
            # 1 and 2 euchred: 0 (from 2) and 3 (from 1) reach the target; 3 wins on 3
            {"bidder": 1, "trump": "S", "called_card": "AS", "partner": 2, "tricks": 1},
        ],
        ("won", [3], "lowest_at_start"),
        id="euchre-defenders-reach-the-target-together-the-lowest-at-start-wins",
    ),
    pytest.param(
        Table("five-handed-euchre", 5, 2, {}, 0),
        [{"bidder": 1, "trump": "S", "called_card": "AS", "partner": 2, "tricks": 2}],
        ("drawn", [], "draw"),
        id="euchre-defenders-tied-from-the-start-draw",
    ),
]


@pytest.mark.parametrize(("table", "entries", "outcome"), SCENARIOS)
def test_scenario_matches_the_scorer_and_the_rule_book(api, table, entries, outcome):
    rows, state = replay(table, entries)
    assert state.outcome == outcome
    game = create(api, table)
    for entry, row in zip(entries, rows, strict=True):
        assert deal_fields(api.add(game, entry), row) == row.compared(), entry
    assert_game(table, api.game(game), state)
