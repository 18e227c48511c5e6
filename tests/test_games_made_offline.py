"""A game started on a phone with no connection, posted by the phone once it is back: stored
once, checked as an import is, under the id and edit token the phone made, on either
database."""

import secrets
from datetime import UTC, datetime, timedelta

from tests.conftest import BOTH
from tests.test_pages import PLAYERS, csrf

BACKENDS = BOTH

MADE_AT = "2026-11-30T18:00:00+00:00"


def kept_game(client, **changes):
    """Return the new-game form's post as the phone kept it, with its id, token and time."""
    data = {
        "csrf_token": csrf(client.get("/games/new")),
        "ruleset": "five-handed-schmier",
        "first_dealer": "2",
        "target": "15",
        "hr_partner_breaks_ties": "true",
        "hr_unresolved_tie": "play_on",
        "hr_joker_callable": "false",
        "offline_id": secrets.token_urlsafe(16),
        "offline_token": secrets.token_urlsafe(32),
        "made_at": MADE_AT,
    }
    data.update({f"players-{seat}": name for seat, name in enumerate(PLAYERS)})
    data.update(changes)
    return data


def stored(client, game_id):
    answer = client.get(f"/api/v1/games/{game_id}")
    return answer.get_json() if answer.status_code == 200 else None


def test_a_game_made_offline_is_stored_under_its_id_with_its_edit_link_once(client, app):
    data = kept_game(client)
    game_id, token = data["offline_id"], data["offline_token"]
    made = client.post("/games/new", data=data)
    assert made.status_code == 303
    assert made.headers["Location"] == f"/games/{game_id}"
    page = client.get(made.headers["Location"]).text
    assert "Game started. Cy deals first." in page
    assert 'id="deal-form"' in page  # this browser may edit it
    game = stored(client, game_id)
    assert game["players"][2]["name"] == "Cy"
    assert (game["ruleset"], game["target"], game["first_dealer"]) == ("five-handed-schmier", 15, 2)
    assert game["house_rules"]["partner_breaks_ties"] is True
    export = client.get(f"/games/{game_id}/export.json").get_json()["games"][0]
    assert export["created_at"] == MADE_AT

    # Sent again (the first answer was lost): the same game, not a second one.
    again = client.post("/games/new", data={**data, "csrf_token": csrf(client.get("/games/new"))})
    assert again.status_code == 303
    assert again.headers["Location"] == f"/games/{game_id}"
    assert stored(client, game_id)["deals"] == []

    # The token the phone made is the game's edit link, for any other phone.
    other = app.test_client()
    joined = other.get(f"/games/{game_id}/edit/{token}")
    assert joined.status_code == 303
    assert 'id="deal-form"' in other.get(f"/games/{game_id}").text
    refused = app.test_client().get(f"/games/{game_id}/edit/{secrets.token_urlsafe(32)}")
    assert refused.status_code == 403


def test_a_game_made_offline_is_refused_as_an_import_would_be_and_nothing_is_stored(client):
    taken = kept_game(client)
    assert client.post("/games/new", data=taken).status_code == 303
    tomorrow = (datetime.now(UTC) + timedelta(days=3)).isoformat()
    cases = {
        "is already stored": {"offline_id": taken["offline_id"]},  # another phone's token
        "a time from 2000 until today": {"made_at": tomorrow},
        "16 to 32 letters": {"offline_id": "short"},
        "32 to 64 URL-safe characters": {"offline_token": "guessable"},
    }
    for message, change in cases.items():
        data = kept_game(client, **change)
        answer = client.post("/games/new", data=data)
        assert answer.status_code == 422, message
        assert message in answer.text, message
        if change.get("offline_id") != taken["offline_id"]:
            assert stored(client, data["offline_id"]) is None, message

    # A setup the engine refuses says so at its field, as for any new game.
    data = kept_game(client, **{"players-1": "", "players-2": "", "players-3": ""})
    answer = client.post("/games/new", data=data)
    assert answer.status_code == 422
    assert 'id="players-errors"' in answer.text
    assert stored(client, data["offline_id"]) is None
