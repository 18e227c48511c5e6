"""Corrections (PUT) and undo (DELETE) through the API: later deals and the outcome follow."""

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.quick import examples

BACKENDS = ("sqlite", "postgresql")

GAMES = json.loads((Path(__file__).parent / "data" / "five-handed-games.json").read_text())
FIRST = GAMES[0]  # thrown-in deal 1, an auction at deal 3, won by Bob at deal 7
SETUP_KEYS = ("ruleset", "players", "first_dealer", "target", "house_rules")


def sweep(bidder, partner, bid=6):
    """Return an entry in which the bidders take all six points."""
    points = dict.fromkeys(("high", "low", "jack", "off_jack", "joker"), bidder)
    call = {"bidder": bidder, "bid": bid, "trump": "H", "called_card": "KH", "partner": partner}
    return call | points | {"game": "bidders"}


def set_back(bidder, partner, opponent):
    """Return a bid of 6 that fails: an opponent holds Low and the opponents take Game."""
    return sweep(bidder, partner) | {"low": opponent, "game": "opponents"}


def start(client, example, deals):
    """Create the example's game and post `deals`; return (url, headers)."""
    response = client.post("/api/v1/games", json={k: example[k] for k in SETUP_KEYS})
    assert response.status_code == 201
    url = response.headers["Location"]
    headers = {"Authorization": f"Bearer {response.get_json()['edit_token']}"}
    for number, entry in enumerate(deals, start=1):
        posted = client.post(f"{url}/deals", json={"number": number, **entry}, headers=headers)
        assert posted.status_code == 201, (number, posted.get_json())
    return url, headers


def without_id(document):
    return {k: v for k, v in document.items() if k != "id"}


def replayed(client, example, deals):
    """Return the game document of a fresh game fed `deals`, or None if one is refused."""
    response = client.post("/api/v1/games", json={k: example[k] for k in SETUP_KEYS})
    url = response.headers["Location"]
    headers = {"Authorization": f"Bearer {response.get_json()['edit_token']}"}
    for entry in deals:
        if client.post(f"{url}/deals", json=entry, headers=headers).status_code != 201:
            return None
    return client.get(url).get_json()


def test_correcting_an_early_deal_recomputes_every_later_deal_and_the_outcome(client):
    url, headers = start(client, FIRST, FIRST["deals"])
    assert client.get(url).get_json()["status"] == "won"
    # Deal 5: Bob bid 3 and his side took all six; corrected, they took High and Low only.
    taken = {"high": 1, "low": 1, "jack": 2, "off_jack": 2, "joker": 2}
    game_points = {"game_points": {"bidders": 10, "opponents": 31}}
    corrected = FIRST["deals"][4] | taken | game_points
    response = client.put(f"{url}/deals/5", json=corrected, headers=headers)
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["made"] is False

    after = client.get(url).get_json()
    deals = [*FIRST["deals"][:4], corrected, *FIRST["deals"][5:]]
    assert without_id(after) == without_id(replayed(client, FIRST, deals))
    # Bob is set at deal 5 and Cy overtakes him by deal 7.
    assert [p["score"] for p in after["players"]] == [-9, 15, 24, 16, 6]
    assert (after["status"], after["winners"], after["decided_by"]) == ("won", [2], "highest")
    assert [d["scores"] for d in after["deals"]] != [
        a["scores"] for a in FIRST["expected"]["after_each_deal"]
    ]


def test_turning_a_thrown_in_deal_into_a_played_one_moves_every_later_dealer(client):
    # Leave out deal 3, whose auction names its bidder relative to the dealer.
    deals = [FIRST["deals"][0], FIRST["deals"][1]]
    url, headers = start(client, FIRST, deals)
    assert [d["dealer"] for d in client.get(url).get_json()["deals"]] == [0, 0]
    response = client.put(f"{url}/deals/1", json=sweep(2, 3, bid=3), headers=headers)
    assert response.status_code == 200
    after = client.get(url).get_json()
    assert [d["dealer"] for d in after["deals"]] == [0, 1]
    assert after["next_dealer"] == 2
    assert without_id(after) == without_id(
        replayed(client, FIRST, [sweep(2, 3, bid=3), FIRST["deals"][1]])
    )


def test_correction_that_breaks_a_later_auction_is_a_conflict_naming_that_deal(client):
    url, headers = start(client, FIRST, FIRST["deals"])
    before = client.get(url).get_json()
    # Deal 3's auction says the second speaker bid 3, and names that seat as bidder;
    # with deal 1 played instead of thrown in, the dealer moves and the seats disagree.
    response = client.put(f"{url}/deals/1", json=sweep(2, 3, bid=3), headers=headers)
    assert response.status_code == 409
    error = response.get_json()["error"]
    assert error["code"] == "conflict"
    assert "deal 3" in error["message"].lower()
    assert client.get(url).get_json() == before


def test_correction_that_would_end_the_game_before_its_last_deal_is_refused(client):
    deals = [sweep(0, 1), sweep(0, 1), sweep(0, 1), set_back(0, 1, 2), sweep(2, 3)]
    url, headers = start(client, FIRST, deals)
    before = client.get(url).get_json()
    assert before["status"] == "in_progress"
    response = client.put(f"{url}/deals/4", json=sweep(0, 1), headers=headers)
    assert response.status_code == 409
    assert response.get_json()["error"]["code"] == "conflict"
    assert client.get(url).get_json() == before
    # The same correction of the last deal is fine: the game simply ends there.
    client.delete(f"{url}/deals/5", headers=headers)
    assert client.put(f"{url}/deals/4", json=sweep(0, 1), headers=headers).status_code == 200
    assert client.get(url).get_json()["status"] == "won"


def test_undo_of_the_last_deal_restores_the_previous_state_and_dealer(client):
    url, headers = start(client, FIRST, FIRST["deals"][:3])
    before = client.get(url).get_json()
    number = len(before["deals"]) + 1
    posted = client.post(f"{url}/deals", json=FIRST["deals"][3], headers=headers)
    assert posted.status_code == 201
    assert client.get(url).get_json() != before
    assert client.delete(f"{url}/deals/{number}", headers=headers).status_code == 204
    assert client.get(url).get_json() == before
    # Undoing the thrown-in deal 1 of an otherwise empty game gives the first dealer back.
    for n in (3, 2, 1):
        assert client.delete(f"{url}/deals/{n}", headers=headers).status_code == 204
    empty = client.get(url).get_json()
    assert empty["deals"] == []
    assert empty["next_dealer"] == FIRST["first_dealer"]
    assert [p["score"] for p in empty["players"]] == [0] * 5


def test_undo_reopens_a_finished_game(client):
    url, headers = start(client, FIRST, FIRST["deals"])
    last = len(FIRST["deals"])
    assert client.get(url).get_json()["status"] == "won"
    assert client.delete(f"{url}/deals/{last}", headers=headers).status_code == 204
    reopened = client.get(url).get_json()
    assert reopened["status"] == "in_progress"
    assert reopened["winners"] == []
    assert reopened["decided_by"] is None
    posted = client.post(f"{url}/deals", json=FIRST["deals"][-1], headers=headers)
    assert posted.status_code == 201
    assert client.get(url).get_json()["status"] == "won"


ALL_DEALS = [deal for game in GAMES for deal in game["deals"]]


@settings(
    max_examples=examples(8),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    example=st.sampled_from(GAMES),
    position=st.integers(min_value=0, max_value=30),
    replacement=st.sampled_from(ALL_DEALS),
)
def test_correction_then_its_inverse_restores_every_score(client, example, position, replacement):
    url, headers = start(client, example, example["deals"])
    before = client.get(url).get_json()
    number = position % len(example["deals"]) + 1
    original = example["deals"][number - 1]

    response = client.put(f"{url}/deals/{number}", json=replacement, headers=headers)
    if response.status_code == 200:
        deals = [*example["deals"][: number - 1], replacement, *example["deals"][number:]]
        assert without_id(client.get(url).get_json()) == without_id(
            replayed(client, example, deals)
        )
        undo = client.put(f"{url}/deals/{number}", json=original, headers=headers)
        assert undo.status_code == 200, undo.get_json()
    else:
        assert response.status_code in (409, 422), response.get_json()
    assert client.get(url).get_json() == before
