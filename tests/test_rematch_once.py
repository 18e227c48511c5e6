"""Rematch is made once: a second tap, a second phone, or two at the same moment reach the
same next game, which every phone following the finished game is offered; both databases."""

import threading

from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.store.models import Game
from tests.conftest import BOTH
from tests.test_next_game import api_game, finish, rematch
from tests.test_pages import csrf, start_game

BACKENDS = BOTH


def next_of(response):
    assert response.status_code == 303, response.text
    return response.headers["Location"]


def test_a_second_tap_and_a_second_phone_reach_the_same_next_game(client, app):
    url = start_game(client, target=10)
    finish(client, url)
    second = app.test_client()
    first_tap = next_of(rematch(client, url))
    assert next_of(rematch(client, url)) == first_tap  # the second tap
    page = client.get(first_tap).text
    assert "This rematch was started already: here it is." in page
    assert 'id="deal-form"' in page  # still this phone's to edit
    # The game document names its next game; the next game is a game of its own.
    assert api_game(client, url)["next_game"] == first_tap.rsplit("/", 1)[1]
    assert api_game(client, first_tap)["next_game"] is None
    assert api_game(client, first_tap)["deals"] == []

    # A second scorekeeper (the edit link) taps Rematch too: the same game, to edit.
    with client.session_transaction() as held:
        game_token = held["edit"][url.rsplit("/", 1)[1]]
    second.get(f"{url}/edit/{game_token}")
    assert next_of(rematch(second, url)) == first_tap
    assert 'id="deal-form"' in second.get(first_tap).text


def test_every_phone_following_the_finished_game_is_offered_the_next_one(client, app):
    url = start_game(client, target=10)
    finish(client, url)
    viewer = app.test_client()
    assert "Next game: tap to follow" not in viewer.get(url).text
    next_url = next_of(rematch(client, url))
    shown = viewer.get(url).text
    assert "Next game: tap to follow" in shown
    live = viewer.get(f"{url}/live", headers={"HX-Request": "true"}).text
    assert "Next game: tap to follow" in live and f'href="{url}/next"' in live
    # The viewer follows to the view link, with no edit rights; the editor to edit it.
    followed = viewer.get(f"{url}/next")
    assert next_of(followed) == next_url
    assert 'id="deal-form"' not in viewer.get(next_url).text
    assert 'id="deal-form"' in client.get(next_of(client.get(f"{url}/next"))).text
    # The finished game's banner offers the next game instead of another rematch.
    state = client.get(url).text.split('id="game-state"')[1].split("</div>")[0]
    assert "Next game: tap to follow" in state and "/rematch" not in state


def test_two_rematches_at_the_same_moment_make_one_game(client, app):
    url = start_game(client, target=10)
    finish(client, url)
    token = csrf(client.get(url))
    with client.session_transaction() as held:
        cookie_session = dict(held)
    phones = []
    for _ in range(4):
        phone = app.test_client()
        with phone.session_transaction() as held:
            held.update(cookie_session)
        phones.append(phone)
    before = game_count(app)
    answers, start = [], threading.Barrier(len(phones))

    def tap(phone):
        start.wait()
        answers.append(phone.post(f"{url}/rematch", data={"csrf_token": token}))

    threads = [threading.Thread(target=tap, args=(phone,)) for phone in phones]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert len(answers) == len(phones)
    assert len({next_of(answer) for answer in answers}) == 1
    assert game_count(app) == before + 1


def game_count(app):
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Game))


def test_the_api_rematch_answers_the_same_next_game_every_time(client):
    created = client.post(
        "/api/v1/games",
        json={"ruleset": "shmear", "players": ["Ann", "Bob", "Cy"], "first_dealer": 1},
    ).get_json()
    game_id, token = created["id"], created["edit_token"]
    bearer = {"Authorization": f"Bearer {token}"}
    assert client.post(f"/api/v1/games/{game_id}/rematch").status_code == 401
    wrong = {"Authorization": "Bearer not-the-token"}
    assert client.post(f"/api/v1/games/{game_id}/rematch", headers=wrong).status_code == 403
    assert client.get(f"/api/v1/games/{game_id}").get_json()["next_game"] is None

    first = client.post(f"/api/v1/games/{game_id}/rematch", headers=bearer)
    assert first.status_code == 201
    next_game = first.get_json()
    assert first.headers["Location"].endswith(f"/api/v1/games/{next_game['id']}")
    assert next_game["players"][2]["name"] == "Cy" and next_game["first_dealer"] == 1
    again = client.post(f"/api/v1/games/{game_id}/rematch", headers=bearer)
    assert again.status_code == 200 and again.get_json()["id"] == next_game["id"]
    assert client.get(f"/api/v1/games/{game_id}").get_json()["next_game"] == next_game["id"]
    # The next game takes the same edit token.
    deal = {"bidder": 1, "bid": 2, "trump": "H", "high": 1, "low": 1, "jack": None, "game": 1}
    saved = client.post(f"/api/v1/games/{next_game['id']}/deals", json=deal, headers=bearer)
    assert saved.status_code == 201, saved.get_json()
