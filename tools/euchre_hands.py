"""Play Euchre hands card by card with OpenSpiel and write what a scorekeeper would enter
(a developer's tool: the independent check of tests/test_euchre_independent.py).

OpenSpiel is not a dependency of the app nor of `make test`; it only made the committed file
tests/data/openspiel-euchre-hands.json. To make it again, in a throwaway venv:

    python3.11 -m venv /tmp/osv && /tmp/osv/bin/pip install open_spiel==2.0.2  # or its wheel
    /tmp/osv/bin/python tools/euchre_hands.py --seed 34 --games 24

(it writes tests/data/openspiel-euchre-hands.json unless given --out; the same seed and
version give the same file).

Each game is a chain of OpenSpiel `euchre` hands (one OpenSpiel episode is one hand), dealt by
the seat our game's order says (the deal passes to the left, seat + 1, after every hand, a
thrown-in one too) until a team reaches 10 by OpenSpiel's own returns. Seats are OpenSpiel's
players (North 0, East 1, South 2, West 3: partners opposite, 0 & 2 against 1 & 3, as ours).
Every choice is a seeded random one: bidding passes more often than not so that some hands
are thrown in, the maker goes alone now and then, and the cards are played at random among
the legal ones. OpenSpiel's returns are zero-sum (makers +n, defenders -n); a scorekeeper
writes the positive side only, so a hand's change of score is its positive return to each
player of the side that earned it.

Two kinds of game are written: "classic" (stick_the_dealer and allow_lone_defender off, our
house rules all off) and "defending_alone" (allow_lone_defender on, our house rule
`defending_alone` on). OpenSpiel lets a defender go alone against a maker who kept the
partner; the rule book allows it only against a lone maker, so such hands are not chained
into a game but written apart under "not_in_the_rule_book".
"""

import argparse
import json
import random
import sys
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pyspiel

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "openspiel-euchre-hands.json"
TRUMP = {"Clubs": "C", "Diamonds": "D", "Hearts": "H", "Spades": "S"}
SEATS = 4
TARGET = 10
PASS_FIRST_ROUND = 0.75
PASS_SECOND_ROUND = 0.6
GO_ALONE = 0.2
DEFEND_ALONE = 0.35


def choose(state: Any, rng: random.Random, maker: int | None) -> int:
    """Return a seeded random choice for the player to act, passing more often than not."""
    legal = state.legal_actions()
    names = {a: state.action_to_string(state.current_player(), a) for a in legal}
    if "Pass" in names.values():
        passes = sum(1 for n in names.values() if n == "Pass")
        bids = [a for a in legal if names[a] in TRUMP]
        first_round = len(bids) == 1
        if passes and bids:
            keep = PASS_FIRST_ROUND if first_round else PASS_SECOND_ROUND
            if rng.random() < keep:
                return next(a for a in legal if names[a] == "Pass")
            return rng.choice(bids)
    if set(names.values()) == {"Alone", "Partner"}:
        alone = GO_ALONE if state.current_player() == maker else DEFEND_ALONE
        wanted = "Alone" if rng.random() < alone else "Partner"
        return next(a for a in legal if names[a] == wanted)
    return rng.choice(legal)


def play_hand(game: Any, dealer: int, rng: random.Random) -> dict[str, Any]:
    """Play one hand dealt by `dealer`; return the entry and OpenSpiel's returns."""
    state = game.new_initial_state()
    state.apply_action(dealer)  # the dealer is OpenSpiel's first chance outcome
    maker = trump = None
    alone = False
    lone_defender = None
    tricks = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = [a for a, _p in state.chance_outcomes()]
            state.apply_action(rng.choice(outcomes))
            continue
        player = state.current_player()
        action = choose(state, rng, maker)
        name = state.action_to_string(player, action)
        if name in TRUMP:
            maker, trump = player, TRUMP[name]
        elif name == "Alone":
            if player == maker:
                alone = True
            else:
                lone_defender = player
        state.apply_action(action)
    returns = [int(r) for r in state.returns()]
    if maker is None:
        return {"dealer": dealer, "entry": {"thrown_in": True}, "returns": returns}
    tricks = sum(1 for t in state.tricks() if t.winner() in (maker, (maker + 2) % SEATS))
    entry: dict[str, Any] = {"bidder": maker, "trump": trump, "alone": alone, "tricks": tricks}
    if lone_defender is not None:
        entry["defender_alone"] = lone_defender
    return {"dealer": dealer, "entry": entry, "returns": returns}


def deltas(returns: list[int]) -> list[int]:
    """Return each seat's change of score: the positive side of OpenSpiel's zero-sum returns."""
    return [max(r, 0) for r in returns]


def play_game(kind: str, rng: random.Random, apart: list[dict[str, Any]]) -> dict[str, Any]:
    """Chain hands of one game until a team reaches the target."""
    defending_alone = kind == "defending_alone"
    parameters = {"stick_the_dealer": False, "allow_lone_defender": defending_alone}
    game = pyspiel.load_game("euchre", parameters)
    first_dealer = rng.randrange(SEATS)
    dealer, scores, hands = first_dealer, [0] * SEATS, []
    while max(scores) < TARGET:
        hand = play_hand(game, dealer, rng)
        entry = hand["entry"]
        if "defender_alone" in entry and not entry["alone"]:
            apart.append({**hand, "deltas": deltas(hand["returns"])})
            continue  # the same dealer deals the hand again, as if it had not been entered
        hand["deltas"] = deltas(hand["returns"])
        scores = [s + d for s, d in zip(scores, hand["deltas"], strict=True)]
        hands.append(hand)
        dealer = (dealer + 1) % SEATS
    house_rules = {"defending_alone": True} if defending_alone else {}
    return {"kind": kind, "openspiel_parameters": parameters, "first_dealer": first_dealer,
            "house_rules": house_rules, "hands": hands, "final": scores}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=34)
    parser.add_argument("--games", type=int, default=24, help="games of each kind")
    parser.add_argument("--out", type=Path, default=OUT, help="where to write (- for stdout)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    apart: list[dict[str, Any]] = []
    games = [play_game(kind, rng, apart)
             for kind in ("classic", "defending_alone") for _ in range(args.games)]  # fmt: skip
    document = {
        "about": "Euchre hands played card by card by OpenSpiel's `euchre` game with seeded "
        "random choices, made by tools/euchre_hands.py",
        "open_spiel": version("open_spiel"),
        "seed": args.seed,
        "games": games,
        "not_in_the_rule_book": apart,
    }
    text = json.dumps(document, separators=(",", ":")) + "\n"
    if str(args.out) == "-":
        sys.stdout.write(text)
    else:
        args.out.write_text(text)


if __name__ == "__main__":
    main()
