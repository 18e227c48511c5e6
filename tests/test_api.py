"""The JSON API contract of API.md, end to end through the test client, on both databases."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.store.models import Change, Deal, Game, Player
from tests.conftest import EXAMPLE_DEAL
from tests.quick import examples

BACKENDS = ("sqlite", "postgresql")


def sqlite_only(test):
    """Run a long validation table on SQLite alone: refusals come before any write, and
    every kind of refusal still runs on both databases in the order-of-checks tests."""
    test.BACKENDS = ("sqlite",)
    return test


FIVE = ["Ann", "Bob", "Cy", "Di", "Ed"]


def sweep(bidder, partner, bid=6):
    """Return an entry in which the bidders take all six points."""
    return {
        "bidder": bidder,
        "bid": bid,
        "trump": "H",
        "called_card": "KH",
        "partner": partner,
        "high": bidder,
        "low": bidder,
        "jack": bidder,
        "off_jack": bidder,
        "joker": bidder,
        "game": "bidders",
    }


def row_counts(app):
    """Count every stored row, to show a refused request stored nothing."""
    with app.app_context():
        return tuple(
            db.session.scalar(select(func.count()).select_from(model))
            for model in (Game, Player, Deal, Change)
        )


def assert_error(response, status, code, *fields):
    """Check the status and the one error shape, and that `fields` are named."""
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/json"
    body = response.get_json()
    assert set(body) == {"error"}
    error = body["error"]
    assert error["code"] == code
    assert isinstance(error["message"], str) and error["message"]
    assert set(error) <= {"code", "message", "fields"}
    for name in fields:
        assert name in error.get("fields", {}), error
        assert all(isinstance(m, str) and m for m in error["fields"][name])
    return error


# ---------------------------------------------------------------- rulesets


UNRESOLVED_TIE = {"values": ["play_on", "shared"], "default": "play_on"}
LOW_TO_TAKER = {"values": [True, False], "default": False}


FLAG = {"values": [True, False], "default": False}


def test_rulesets_lists_the_eleven_in_rule_book_order(client):
    response = client.get("/api/v1/rulesets")
    assert response.status_code == 200
    assert response.get_json() == [
        {
            "id": "five-handed-schmier",
            "name": "Five-Handed Schmier",
            "players": {"min": 5, "max": 5},
            "target": 21,
            "teams": None,
            "house_rules": {
                "partner_breaks_ties": {"values": [True, False], "default": True},
                "unresolved_tie": UNRESOLVED_TIE,
                "joker_callable": {"values": [True, False], "default": False},
            },
        },
        {
            "id": "six-handed-schmier",
            "name": "Six-Handed Schmier",
            "players": {"min": 6, "max": 6},
            "target": 21,
            "teams": [[0, 3], [1, 4], [2, 5]],
            "house_rules": {
                "teams": {"values": ["3x2", "2x3"], "default": "3x2"},
                "unresolved_tie": UNRESOLVED_TIE,
            },
        },
        {
            "id": "shmear",
            "name": "Shmear",
            "players": {"min": 3, "max": 6},
            "target": 11,
            "teams": None,
            "house_rules": {
                "low_to_taker": LOW_TO_TAKER,
                "jick": LOW_TO_TAKER,
                "negative_scores": LOW_TO_TAKER,
                "unresolved_tie": UNRESOLVED_TIE,
            },
        },
        {
            "id": "shmear-high-low",
            "name": "High-Low Shmear",
            "players": {"min": 4, "max": 4},
            "target": 15,
            "teams": None,
            "house_rules": {
                "low_to_taker": LOW_TO_TAKER,
                "jick": LOW_TO_TAKER,
                "negative_scores": LOW_TO_TAKER,
                "unresolved_tie": UNRESOLVED_TIE,
            },
        },
        {
            "id": "shmear-partners",
            "name": "Partner Shmear",
            "players": {"min": 4, "max": 4},
            "target": 15,
            "teams": [[0, 2], [1, 3]],
            "house_rules": {
                "low_to_taker": LOW_TO_TAKER,
                "jick": LOW_TO_TAKER,
                "negative_scores": LOW_TO_TAKER,
            },
        },
        {
            "id": "shmear-kitty",
            "name": "Shmear with a Kitty",
            "players": {"min": 3, "max": 6},
            "target": 15,
            "teams": None,
            "house_rules": {
                "low_to_taker": LOW_TO_TAKER,
                "jick": LOW_TO_TAKER,
                "negative_scores": LOW_TO_TAKER,
                "unresolved_tie": UNRESOLVED_TIE,
            },
        },
        {
            "id": "five-handed-euchre",
            "name": "Five-Handed Euchre",
            "players": {"min": 5, "max": 5},
            "target": 10,
            "teams": None,
            "house_rules": {},
        },
        {
            "id": "euchre",
            "name": "Euchre",
            "players": {"min": 4, "max": 4},
            "target": 10,
            "teams": [[0, 2], [1, 3]],
            "house_rules": {
                "stick_the_dealer": FLAG,
                "defending_alone": FLAG,
                "benny": FLAG,
            },
        },
        *(
            {
                "id": ruleset,
                "name": name,
                "players": {"min": seats, "max": seats},
                "target": 10,
                "teams": teams,
                "house_rules": {"stick_the_dealer": FLAG, "benny": FLAG},
            }
            for ruleset, name, seats, teams in (
                ("two-handed-euchre", "Two-Handed Euchre", 2, None),
                ("three-handed-euchre", "Three-Handed Euchre", 3, None),
                ("six-handed-euchre", "Six-Handed Euchre", 6, [[0, 2, 4], [1, 3, 5]]),
            )
        ),
    ]


# ---------------------------------------------------------------- games


def test_create_game_answers_201_with_location_document_and_token(client):
    response = client.post(
        "/api/v1/games",
        json={
            "ruleset": "five-handed-schmier",
            "players": ["  Ann ", "Bob", "Cy", "Di", "Ed"],
            "first_dealer": 2,
            "target": 25,
            "house_rules": {"unresolved_tie": "shared"},
        },
    )
    assert response.status_code == 201
    game = response.get_json()
    assert response.headers["Location"] == f"/api/v1/games/{game['id']}"
    assert len(game["id"]) >= 22  # 128 bits in URL-safe base64
    assert isinstance(game["edit_token"], str) and len(game["edit_token"]) >= 22
    assert game["ruleset"] == "five-handed-schmier"
    assert game["target"] == 25
    assert game["house_rules"] == {
        "partner_breaks_ties": True,
        "unresolved_tie": "shared",
        "joker_callable": False,
    }
    assert game["players"] == [
        {"seat": seat, "name": name, "score": 0} for seat, name in enumerate(FIVE)
    ]
    assert game["teams"] is None
    assert game["next_dealer"] == 2
    assert game["status"] == "in_progress"
    assert game["winners"] == []
    assert game["decided_by"] is None
    assert game["explanation"]
    assert game["deals"] == []

    read = client.get(response.headers["Location"])
    assert read.status_code == 200
    assert read.get_json() == {k: v for k, v in game.items() if k != "edit_token"}


def test_create_game_defaults_target_and_house_rules_and_draws_the_dealer(client):
    dealers = set()
    for _ in range(40):
        response = client.post(
            "/api/v1/games", json={"ruleset": "five-handed-schmier", "players": FIVE}
        )
        assert response.status_code == 201
        game = response.get_json()
        assert game["target"] == 21
        assert game["house_rules"] == {
            "partner_breaks_ties": True,
            "unresolved_tie": "play_on",
            "joker_callable": False,
        }
        dealers.add(game["next_dealer"])
    assert dealers <= set(range(5))
    assert len(dealers) > 1  # drawn, not fixed (40 draws: all alike has odds 5 * 5**-40)


def test_create_game_treats_null_as_left_out(client):
    response = client.post(
        "/api/v1/games",
        json={
            "ruleset": "five-handed-schmier",
            "players": FIVE,
            "first_dealer": None,
            "target": None,
            "house_rules": None,
        },
    )
    assert response.status_code == 201
    assert response.get_json()["target"] == 21


@sqlite_only
@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "application/x-www-form-urlencoded", "application/octet-stream", None],
)
def test_body_is_json_whatever_the_content_type(client, content_type):
    body = json.dumps({"ruleset": "five-handed-schmier", "players": FIVE})
    headers = {"Content-Type": content_type} if content_type else {}
    response = client.post("/api/v1/games", data=body, headers=headers)
    assert response.status_code == 201


@sqlite_only
@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"players": "Ann, Bob, Cy, Di, Ed"}, "players"),
        ({"players": ["Ann", "Bob", "Cy", "Di", 5]}, "players"),
        ({"first_dealer": True}, "first_dealer"),
        ({"first_dealer": "0"}, "first_dealer"),
        ({"first_dealer": 0.0}, "first_dealer"),
        ({"target": "21"}, "target"),
        ({"target": 21.0}, "target"),
        ({"target": False}, "target"),
        ({"house_rules": ["shared"]}, "house_rules"),
        ({"ruleset": 5}, "ruleset"),
    ],
    ids=lambda value: json.dumps(value) if isinstance(value, dict) else value,
)
def test_create_game_refuses_wrong_json_types_with_400(app, client, change, field):
    body = {"ruleset": "five-handed-schmier", "players": FIVE, "first_dealer": 0, **change}
    assert_error(client.post("/api/v1/games", json=body), 400, "bad_request", field)
    assert row_counts(app) == (0, 0, 0, 0)


@sqlite_only
@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"ruleset": "six-handed-bridge"}, "ruleset"),
        ({"players": FIVE[:4]}, "players"),
        ({"players": [*FIVE, "Flo"]}, "players"),
        ({"players": ["Ann", "bob", "Cy", "Di", "BOB "]}, "players"),
        ({"players": ["Ann", "   ", "Cy", "Di", "Ed"]}, "players"),
        ({"players": ["Ann", "B" * 41, "Cy", "Di", "Ed"]}, "players"),
        ({"first_dealer": 5}, "first_dealer"),
        ({"first_dealer": -1}, "first_dealer"),
        ({"target": 0}, "target"),
        ({"target": 1000}, "target"),
        ({"house_rules": {"bonus_for_moon": True}}, "house_rules"),
        ({"house_rules": {"unresolved_tie": "coin_toss"}}, "house_rules"),
        ({"house_rules": {"partner_breaks_ties": "yes"}}, "house_rules"),
        ({"house_rules": {"partner_breaks_ties": 1}}, "house_rules"),
        ({"colour": "blue"}, "colour"),
    ],
    ids=lambda value: json.dumps(value)[:40] if isinstance(value, dict) else value,
)
def test_create_game_refuses_broken_settings_with_422(app, client, change, field):
    body = {"ruleset": "five-handed-schmier", "players": FIVE, "first_dealer": 0, **change}
    assert_error(client.post("/api/v1/games", json=body), 422, "invalid", field)
    assert row_counts(app) == (0, 0, 0, 0)


def test_create_game_wrong_type_comes_before_a_missing_ruleset(client):
    response = client.post("/api/v1/games", json={"players": 5})
    assert_error(response, 400, "bad_request", "players")


def test_create_game_keeps_names_of_forty_characters(client):
    players = ["A" * 40, "Bob", "Cy", "Di", "Ed"]
    response = client.post(
        "/api/v1/games", json={"ruleset": "five-handed-schmier", "players": players}
    )
    assert response.status_code == 201
    assert response.get_json()["players"][0]["name"] == "A" * 40


@sqlite_only
@pytest.mark.parametrize(
    "body",
    [b"", b"not json", b"{", b"[]", b'"game"', b"null", b"5", b"{NaN: 1}", b"\xff\xfe"],
    ids=repr,
)
def test_create_game_refuses_a_body_that_is_not_a_json_object(app, client, body):
    assert_error(client.post("/api/v1/games", data=body), 400, "bad_request")
    assert row_counts(app) == (0, 0, 0, 0)


def test_unknown_game_is_404(client):
    assert_error(client.get("/api/v1/games/nope"), 404, "not_found")
    assert_error(client.get("/api/v1/games/nope/deals/1"), 404, "not_found")


def test_unknown_api_address_and_method_answer_in_the_error_shape(client):
    assert_error(client.get("/api/v1/nothing/here"), 404, "not_found")
    assert_error(client.get("/api/v1"), 404, "not_found")
    response = client.patch("/api/v1/games")
    assert_error(response, 405, "method_not_allowed")
    assert "POST" in response.headers["Allow"]


# ---------------------------------------------------------------- posting deals


def test_post_deal_answers_201_with_location_and_document(api):
    game = api.create(first_dealer=2)
    response = api.post(game, {"number": 1, **EXAMPLE_DEAL})
    assert response.status_code == 201
    assert response.headers["Location"] == f"/api/v1/games/{game['id']}/deals/1"
    deal = response.get_json()
    assert deal == {
        "number": 1,
        "dealer": 2,
        "thrown_in": False,
        "bidder": 1,
        "bid": 4,
        "trump": "H",
        "called_card": "KH",
        "partner": 3,
        "auction": None,
        "high": 3,
        "low": 0,
        "jack": 1,
        "off_jack": 2,
        "joker": 1,
        "game_points": {"bidders": 27, "opponents": 18},
        "game": "bidders",
        "bidders": [1, 3],
        "points": {"bidders": 4, "opponents": 2},
        "made": True,
        "deltas": [2, 4, 2, 4, 2],
        "scores": [2, 4, 2, 4, 2],
    }
    assert api.client.get(response.headers["Location"]).get_json() == deal
    after = api.game(game)
    assert after["deals"] == [deal]
    assert [p["score"] for p in after["players"]] == [2, 4, 2, 4, 2]
    assert after["next_dealer"] == 3


def test_post_deal_without_number_appends(api):
    game = api.create()
    assert api.add(game, EXAMPLE_DEAL)["number"] == 1
    assert api.add(game, {"thrown_in": True})["number"] == 2
    assert api.add(game, {"thrown_in": None, **EXAMPLE_DEAL})["number"] == 3


def test_thrown_in_deal_keeps_the_dealer_and_the_scores(api):
    game = api.create(first_dealer=4)
    deal = api.add(game, {"thrown_in": True, "number": 1})
    assert deal["dealer"] == 4
    assert deal["thrown_in"] is True
    assert deal["deltas"] == [0] * 5
    assert deal["scores"] == [0] * 5
    assert api.game(game)["next_dealer"] == 4


@sqlite_only
@pytest.mark.parametrize(
    ("headers", "status", "code"),
    [
        ({}, 401, "unauthorized"),
        ({"Authorization": ""}, 401, "unauthorized"),
        ({"Authorization": "Bearer"}, 401, "unauthorized"),
        ({"Authorization": "Bearer   "}, 401, "unauthorized"),
        ({"Authorization": "Basic dXNlcjpwYXNz"}, 401, "unauthorized"),
        ({"Authorization": "Bearer not-the-token"}, 403, "forbidden"),
    ],
    ids=["none", "empty", "no-token", "blank-token", "basic", "wrong"],
)
def test_changes_need_the_edit_token(app, api, headers, status, code):
    game = api.create()
    api.add(game, EXAMPLE_DEAL)
    before = row_counts(app)
    assert_error(api.post(game, EXAMPLE_DEAL, headers=headers), status, code)
    assert_error(api.put(game, 1, EXAMPLE_DEAL, headers=headers), status, code)
    assert_error(api.delete(game, 1, headers=headers), status, code)
    assert row_counts(app) == before


def test_missing_token_is_answered_with_www_authenticate(api):
    game = api.create()
    response = api.post(game, EXAMPLE_DEAL, headers={})
    assert response.headers["WWW-Authenticate"].startswith("Bearer")


def test_token_scheme_is_case_insensitive(api):
    game = api.create()
    response = api.post(
        game, EXAMPLE_DEAL, headers={"Authorization": f"bearer {game['edit_token']}"}
    )
    assert response.status_code == 201


def test_another_games_token_is_forbidden(api):
    mine, theirs = api.create(), api.create()
    response = api.post(mine, EXAMPLE_DEAL, headers=api.headers(theirs))
    assert_error(response, 403, "forbidden")


@sqlite_only
@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"number": "1"}, "number"),
        ({"number": True}, "number"),
        ({"number": 1.0}, "number"),
        ({"bid": 4.0}, "bid"),
        ({"bid": "4"}, "bid"),
        ({"bidder": True}, "bidder"),
        ({"partner": "3"}, "partner"),
        ({"high": [3]}, "high"),
        ({"trump": 1}, "trump"),
        ({"game_points": [27, 18]}, "game_points"),
    ],
    ids=lambda value: json.dumps(value) if isinstance(value, dict) else value,
)
def test_post_deal_refuses_wrong_json_types_with_400(app, api, change, field):
    game = api.create()
    before = row_counts(app)
    assert_error(api.post(game, {**EXAMPLE_DEAL, **change}), 400, "bad_request", field)
    assert row_counts(app) == before


@sqlite_only
@pytest.mark.parametrize("body", [b"", b"[1]", b"{", b"true", b'{"a": Infinity}'], ids=repr)
def test_post_deal_refuses_a_body_that_is_not_a_json_object(app, api, body):
    game = api.create()
    before = row_counts(app)
    response = api.client.post(
        f"/api/v1/games/{game['id']}/deals", data=body, headers=api.headers(game)
    )
    assert_error(response, 400, "bad_request")
    assert row_counts(app) == before


@sqlite_only
@pytest.mark.parametrize("number", [0, 2, 3, -1, 10**12])
def test_post_deal_with_the_wrong_number_is_a_conflict(app, api, number):
    game = api.create()
    before = row_counts(app)
    error = assert_error(api.post(game, {**EXAMPLE_DEAL, "number": number}), 409, "conflict")
    assert "number" in error["fields"]
    assert row_counts(app) == before


def test_second_post_of_the_same_number_is_a_conflict(app, api):
    game = api.create()
    first = api.add(game, {"number": 1, **EXAMPLE_DEAL})
    before = row_counts(app)
    assert_error(api.post(game, {"number": 1, **EXAMPLE_DEAL}), 409, "conflict", "number")
    assert row_counts(app) == before
    assert api.game(game)["deals"] == [first]


@sqlite_only
@pytest.mark.parametrize(
    ("change", "fields"),
    [
        ({"partner": 1}, ["partner"]),
        ({"called_card": "2H"}, ["called_card"]),
        ({"called_card": "KX"}, ["called_card"]),
        ({"bid": 7}, ["bid"]),
        ({"dealer": 0}, ["dealer"]),
        ({"scores": [0, 0, 0, 0, 0]}, ["scores"]),
        ({"colour": "blue"}, ["colour"]),
        ({"game": "bidders"}, ["game"]),
        ({"game_points": {"bidders": 70, "opponents": 18}}, ["game_points"]),
        ({"thrown_in": True}, ["thrown_in"]),
    ],
    ids=lambda value: json.dumps(value)[:40] if isinstance(value, dict) else None,
)
def test_post_deal_refuses_a_rule_breach_with_422_naming_fields(app, api, change, fields):
    game = api.create()
    before = row_counts(app)
    assert_error(api.post(game, {**EXAMPLE_DEAL, **change}), 422, "invalid", *fields)
    assert row_counts(app) == before


def test_post_deal_null_means_left_out(api):
    game = api.create()
    deal = api.add(game, {**EXAMPLE_DEAL, "auction": None, "game": None, "number": None})
    assert deal["number"] == 1
    assert deal["auction"] is None


def win(api, game):
    """Play the game to a win by seat 0 in four deals."""
    for number in range(1, 5):
        api.add(game, {"number": number, **sweep(0, 1)})
    finished = api.game(game)
    assert finished["status"] == "won"
    return finished


def test_finished_game_refuses_further_deals_with_game_over(app, api):
    game = api.create()
    finished = win(api, game)
    assert finished["winners"] == [0]
    assert finished["decided_by"] == "bidder"
    assert finished["next_dealer"] == 4
    before = row_counts(app)
    assert_error(api.post(game, {"number": 5, **sweep(2, 3)}), 409, "game_over")
    assert_error(api.post(game, sweep(2, 3)), 409, "game_over")
    assert_error(api.post(game, {"thrown_in": True}), 409, "game_over")
    assert row_counts(app) == before


# ---------------------------------------------------------------- the order of checks


def test_too_large_comes_before_everything(app, client):
    big = b'{"x": "' + b"a" * (64 * 1024) + b'"}'
    assert_error(client.post("/api/v1/games", data=big), 413, "too_large")
    assert_error(client.post("/api/v1/games/nope/deals", data=big), 413, "too_large")
    assert_error(client.put("/api/v1/games/nope/deals/1", data=big), 413, "too_large")
    assert_error(client.post("/api/v1/nowhere", data=big), 413, "too_large")
    assert row_counts(app) == (0, 0, 0, 0)


def test_body_of_exactly_64_kib_is_accepted(client):
    body = json.dumps({"ruleset": "five-handed-schmier", "players": FIVE})
    body += " " * (64 * 1024 - len(body))
    assert len(body) == 64 * 1024
    assert client.post("/api/v1/games", data=body).status_code == 201
    assert_error(client.post("/api/v1/games", data=body + " "), 413, "too_large")


def test_too_large_without_content_length_is_413(app, client):
    import io

    big = b'{"x": "' + b"a" * (100 * 1024) + b'"}'
    response = client.post(
        "/api/v1/games",
        input_stream=io.BytesIO(big),
        environ_overrides={"wsgi.input_terminated": True},
    )
    assert_error(response, 413, "too_large")
    assert row_counts(app) == (0, 0, 0, 0)


def test_a_read_sent_with_a_body_too_large_is_413_too(client, api):
    game = api.create()
    url = f"/api/v1/games/{game['id']}"
    assert_error(client.get(url, data=b"a" * (100 * 1024)), 413, "too_large")
    assert client.get(url, data=b"{}").status_code == 200
    assert client.get(url).status_code == 200


def test_no_such_game_comes_before_the_token_and_the_body(client):
    for method in ("post",):
        response = getattr(client, method)("/api/v1/games/nope/deals", data=b"[")
        assert_error(response, 404, "not_found")
    assert_error(client.put("/api/v1/games/nope/deals/1", data=b"["), 404, "not_found")
    assert_error(client.delete("/api/v1/games/nope/deals/1"), 404, "not_found")


def test_token_comes_before_no_such_deal_and_the_body(api):
    game = api.create()
    wrong = {"Authorization": "Bearer wrong"}
    assert_error(api.put(game, 7, EXAMPLE_DEAL, headers={}), 401, "unauthorized")
    assert_error(api.put(game, 7, EXAMPLE_DEAL, headers=wrong), 403, "forbidden")
    assert_error(api.delete(game, 7, headers=wrong), 403, "forbidden")
    response = api.client.post(f"/api/v1/games/{game['id']}/deals", data=b"[", headers=wrong)
    assert_error(response, 403, "forbidden")


def test_no_such_deal_comes_before_the_body(api):
    game = api.create()
    response = api.client.put(
        f"/api/v1/games/{game['id']}/deals/1", data=b"[", headers=api.headers(game)
    )
    assert_error(response, 404, "not_found")
    for number in ("0", "2", "abc", "-1", "1.0"):
        response = api.client.put(
            f"/api/v1/games/{game['id']}/deals/{number}",
            json=EXAMPLE_DEAL,
            headers=api.headers(game),
        )
        assert_error(response, 404, "not_found")
        assert_error(api.client.get(f"/api/v1/games/{game['id']}/deals/{number}"), 404, "not_found")


def test_wrong_type_comes_before_the_number_conflict(api):
    game = api.create()
    assert_error(api.post(game, {**EXAMPLE_DEAL, "number": 3, "bid": "4"}), 400, "bad_request")


def test_number_conflict_comes_before_game_over_and_rule_breaches(api):
    game = api.create()
    assert_error(api.post(game, {**EXAMPLE_DEAL, "number": 3, "partner": 1}), 409, "conflict")
    win(api, game)
    assert_error(api.post(game, {**EXAMPLE_DEAL, "number": 9}), 409, "conflict")


def test_game_over_comes_before_rule_breaches(api):
    game = api.create()
    win(api, game)
    assert_error(api.post(game, {**EXAMPLE_DEAL, "partner": 1}), 409, "game_over")


# ---------------------------------------------------------------- correcting and undoing


def test_put_answers_the_new_document(api):
    game = api.create()
    api.add(game, EXAMPLE_DEAL)
    response = api.put(
        game, 1, {**EXAMPLE_DEAL, "number": 1, "game": "opponents", "game_points": None}
    )
    assert response.status_code == 200
    deal = response.get_json()
    assert deal["game"] == "opponents"
    assert deal["game_points"] is None
    assert deal["points"] == {"bidders": 3, "opponents": 3}
    assert deal["made"] is False
    assert deal["deltas"] == [3, -4, 3, -4, 3]
    assert api.client.get(f"/api/v1/games/{game['id']}/deals/1").get_json() == deal


def test_put_with_another_number_is_a_conflict(app, api):
    game = api.create()
    api.add(game, EXAMPLE_DEAL)
    api.add(game, EXAMPLE_DEAL)
    before = row_counts(app)
    assert_error(api.put(game, 1, {**EXAMPLE_DEAL, "number": 2}), 409, "conflict", "number")
    assert row_counts(app) == before


@sqlite_only
@pytest.mark.parametrize(
    ("change", "status", "code", "field"),
    [
        ({"bid": "4"}, 400, "bad_request", "bid"),
        ({"partner": 1}, 422, "invalid", "partner"),
        ({"dealer": 2}, 422, "invalid", "dealer"),
        ({"deltas": [0, 0, 0, 0, 0]}, 422, "invalid", "deltas"),
        ({"made": True}, 422, "invalid", "made"),
        ({"bidders": [1, 3]}, 422, "invalid", "bidders"),
    ],
)
def test_put_refuses_wrong_types_rule_breaches_and_computed_fields(
    app, api, change, status, code, field
):
    game = api.create()
    original = api.add(game, EXAMPLE_DEAL)
    before = row_counts(app)
    assert_error(api.put(game, 1, {**EXAMPLE_DEAL, **change}), status, code, field)
    assert row_counts(app) == before
    assert api.game(game)["deals"] == [original]


def test_put_body_must_be_a_json_object(api):
    game = api.create()
    api.add(game, EXAMPLE_DEAL)
    response = api.client.put(
        f"/api/v1/games/{game['id']}/deals/1", data=b"[]", headers=api.headers(game)
    )
    assert_error(response, 400, "bad_request")


def test_delete_undoes_only_the_last_deal(app, api):
    game = api.create()
    api.add(game, EXAMPLE_DEAL)
    api.add(game, EXAMPLE_DEAL)
    before = row_counts(app)
    assert_error(api.delete(game, 1), 409, "conflict")
    assert_error(api.delete(game, 3), 404, "not_found")
    assert row_counts(app) == before
    response = api.delete(game, 2)
    assert response.status_code == 204
    assert response.data == b""
    assert [d["number"] for d in api.game(game)["deals"]] == [1]
    assert api.delete(game, 1).status_code == 204
    assert_error(api.delete(game, 1), 404, "not_found")


def test_finished_game_can_be_corrected_and_undone(api):
    game = api.create()
    win(api, game)
    reopened = api.put(game, 4, sweep(0, 1) | {"low": 2, "game": "opponents"})
    assert reopened.status_code == 200
    assert api.game(game)["status"] == "in_progress"
    api.add(game, sweep(0, 1))
    api.add(game, sweep(0, 1))
    assert api.game(game)["status"] == "won"
    assert api.delete(game, 6).status_code == 204
    assert api.game(game)["status"] == "in_progress"


# ---------------------------------------------------------------- any body at all

ENTRY_KEYS = [*EXAMPLE_DEAL, "number", "game", "auction", "thrown_in", "dealer", "zz"]
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-2, max_value=8),
    st.integers(),
    st.floats(allow_nan=False),
    st.sampled_from(["S", "H", "KH", "AS", "4H", "JD", "JOKER", "bidders", "none", ""]),
)
VALUES = st.one_of(
    SCALARS,
    st.lists(st.one_of(st.none(), st.integers(min_value=2, max_value=7)), max_size=6),
    st.dictionaries(st.sampled_from(["bidders", "opponents", "x"]), SCALARS, max_size=3),
)


@sqlite_only
@settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    changes=st.dictionaries(st.sampled_from(ENTRY_KEYS), VALUES, max_size=4),
    start_from_a_valid_deal=st.booleans(),
    method=st.sampled_from(["post", "put"]),
)
def test_any_entry_gets_a_contract_answer_and_a_refusal_stores_nothing(
    app, api, changes, start_from_a_valid_deal, method
):
    game = api.create()
    api.add(game, EXAMPLE_DEAL)
    before = api.game(game)
    body = {**EXAMPLE_DEAL, **changes} if start_from_a_valid_deal else changes
    response = api.post(game, body) if method == "post" else api.put(game, 1, body)
    if response.status_code in (200, 201):
        return
    assert_error(response, response.status_code, response.get_json()["error"]["code"])
    assert (response.status_code, response.get_json()["error"]["code"]) in {
        (400, "bad_request"),
        (409, "conflict"),
        (422, "invalid"),
    }
    assert api.game(game) == before


def test_the_device_label_goes_into_the_change_log(app, api):
    game = api.create()
    response = api.post(
        game, EXAMPLE_DEAL, headers={**api.headers(game), "X-Device": "Ann's phone"}
    )
    assert response.status_code == 201
    with app.app_context():
        change = db.session.scalars(select(Change)).one()
        assert (change.action, change.number, change.device) == ("add", 1, "api:Ann's phone")


def test_text_no_database_can_store_is_refused_not_a_server_error(app, client):
    assert_error(client.get("/api/v1/games/abc%00def"), 404, "not_found")
    assert_error(client.get("/api/v1/games/" + "x" * 5000), 404, "not_found")
    for name in (b'"A\\u0000"', b'"\\ud800"'):
        body = b'{"ruleset": "five-handed-schmier", "players": [' + name + b', "B", "C", "D", "E"]}'
        assert_error(client.post("/api/v1/games", data=body), 422, "invalid", "players")
    assert row_counts(app) == (0, 0, 0, 0)


def test_a_lone_surrogate_in_an_unknown_key_is_named_in_valid_json(api):
    game = api.create()
    response = api.client.post(
        f"/api/v1/games/{game['id']}/deals",
        data=b'{"thrown_in": true, "\\ud800": 1}',
        headers=api.headers(game),
    )
    assert_error(response, 422, "invalid")
