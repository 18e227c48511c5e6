"""Hardening, round three (issue 29): each finding of the red team, on both databases.

Odd bytes in ids (3) and numbers too long to convert (5) are refused before they reach
the database or ``int``; the same game made offline sent twice at once is stored once and
answered alike (2). Revoked links are tests/test_revoked_links.py (1), a database
restarted under the app tests/test_postgres_restart.py (4), the fuzzer tests/test_no_500.py
(6).
"""

from __future__ import annotations

import json
import threading
from urllib.parse import quote, urlencode

import pytest
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.store import exchange
from scorekeeper.store.models import CardTable, Change, Deal, Game, TablePlayer
from tests.conftest import BOTH, DEAL_FORM
from tests.tables_support import bearer, create_table, csrf_token, start_game
from tests.test_games_made_offline import kept_game, stored

BACKENDS = BOTH

ODD_IDS = [
    pytest.param("\x00", id="nul"),
    pytest.param("abcdefgh\x00ijklmnop", id="nul-inside-an-id-long-enough"),
    pytest.param("T\ud800", id="lone-surrogate"),
    pytest.param("abcdefgh\udfffijklmnop", id="lone-surrogate-in-an-id-long-enough"),
    pytest.param("a" * 10_000, id="ten-thousand-characters"),
]
LONG = "9" * 5_000
"""A number past the 4,300 digits ``int`` converts."""


def counts(app) -> tuple[int, ...]:
    """Count stored tables, regulars, games, deals and changes."""
    with app.app_context():
        return tuple(
            db.session.scalar(select(func.count()).select_from(model))
            for model in (CardTable, TablePlayer, Game, Deal, Change)
        )


def encoded(text: str) -> str:
    """Return the text percent-encoded as a client sends it, lone surrogates as their bytes."""
    return quote(text.encode("utf-8", "surrogatepass"), safe="")


def form_body(fields: dict[str, str]) -> bytes:
    """Return a urlencoded form body (lone surrogates sent as their bytes)."""
    return urlencode(
        {name: value.encode("utf-8", "surrogatepass") for name, value in fields.items()}
    ).encode()


def post_form(client, path: str, fields: dict[str, str]):
    return client.post(
        path, data=form_body(fields), content_type="application/x-www-form-urlencoded"
    )


@pytest.fixture
def world(app, client):
    """A table with two regulars and a game at it, both editable by the client."""
    table = create_table(client, "Club", ["Ann", "Bob", "Cy", "Di", "Ed"])
    game = start_game(client, table)
    client.get(f"/games/{game['id']}/edit/{game['edit_token']}")
    client.get(f"/tables/{table['id']}/edit/{table['edit_token']}")
    return {"table": table, "game": game}


# --- 3. an identifier's format is checked before it reaches the database ----------------


@pytest.mark.parametrize("odd", ODD_IDS)
@pytest.mark.parametrize("field", ["offline_id", "offline_token"])
def test_an_odd_id_of_a_game_made_offline_is_refused_with_422_storing_nothing(
    app, client, field, odd
):
    before = counts(app)
    response = post_form(client, "/games/new", kept_game(client) | {field: odd})
    assert response.status_code == 422
    assert "must be" in response.text  # the message names what is wrong
    assert counts(app) == before


@pytest.mark.parametrize("odd", ODD_IDS)
def test_an_odd_id_anywhere_in_an_address_names_nothing(app, client, world, odd):
    game, table = world["game"], world["table"]
    before = counts(app)
    bad = encoded(odd)
    for path in (
        f"/games/{bad}",
        f"/games/{bad}/sheet",
        f"/games/{bad}/edit/{game['edit_token']}",
        f"/games/{game['id']}/edit/{bad}",
        f"/tables/{bad}",
        f"/tables/{table['id']}/edit/{bad}",
        f"/tables/{bad}/edit/{table['edit_token']}",
        f"/api/v1/games/{bad}",
        f"/api/v1/tables/{bad}/games",
    ):
        assert client.get(path).status_code in (403, 404), path
    for path in (
        f"/?lineup={bad}",
        f"/games/new?lineup={bad}",
        f"/tables/{table['id']}?player={bad}",
    ):
        assert client.get(path).status_code == 200, path
    assert counts(app) == before


@pytest.mark.parametrize("odd", ODD_IDS)
def test_an_odd_id_in_a_form_or_a_body_is_refused_storing_nothing(app, client, world, odd):
    game, table = world["game"], world["table"]
    before = counts(app)
    put = client.get(f"/games/{game['id']}/table")
    token = csrf_token(put.text)
    for fields in ({"table": odd}, {"edit_link": f"/tables/{odd}/edit/{table['edit_token']}"},
                   {"edit_link": f"/tables/{table['id']}/edit/{odd}"}):  # fmt: skip
        answer = post_form(client, f"/games/{game['id']}/table", {"csrf_token": token, **fields})
        assert answer.status_code in (409, 422), fields
    page = client.get(f"/tables/{table['id']}")
    merge = {"csrf_token": csrf_token(page.text), "source": odd, "target": odd}
    assert post_form(client, f"/tables/{table['id']}/merge", merge).status_code == 400
    for body in ({"from": odd, "into": odd}, {"from": 1, "into": odd}):
        answer = client.post(
            f"/api/v1/tables/{table['id']}/merge",
            data=json.dumps(body),
            content_type="application/json",
            headers=bearer(table["edit_token"]),
        )
        assert answer.status_code == 400, body
    for token_sent in (odd, f"{game['edit_token']}{odd}"):
        wire = token_sent.encode("utf-8", "surrogatepass").decode("latin-1")  # as sent
        answer = client.post(
            f"/api/v1/games/{game['id']}/deals",
            json={"bidder": 0},
            headers={"Authorization": f"Bearer {wire}"},
        )
        assert answer.status_code == 403
    assert counts(app) == before


# --- 5. a number too long for int() is refused before it is converted -------------------

DEAL_ROUTES = [
    pytest.param("deals", {"number": LONG}, id="add"),
    pytest.param("deals", {"number": "2", "save_as": LONG}, id="add-save-as"),
    pytest.param("deals", {"number": LONG, "kept": "1"}, id="add-kept"),
    pytest.param("deals/1/edit", {"number": LONG}, id="correct"),
    pytest.param("preview", {"number": LONG}, id="preview"),
    pytest.param("deals/1/preview", {"number": LONG}, id="correction-preview"),
]


@pytest.mark.parametrize(("route", "sent"), DEAL_ROUTES)
def test_a_deal_number_of_thousands_of_digits_is_refused_not_converted(
    app, client, world, route, sent
):
    game = world["game"]
    token = csrf_token(client.get(f"/games/{game['id']}").text)
    assert (
        client.post(
            f"/games/{game['id']}/deals", data=DEAL_FORM | {"csrf_token": token, "number": "1"}
        ).status_code
        == 303
    )
    before = counts(app)
    response = client.post(
        f"/games/{game['id']}/{route}", data=DEAL_FORM | {"csrf_token": token, **sent}
    )
    if "preview" in route:
        assert response.status_code == 200
        assert "deal number" in response.text  # listed among the problems, nothing scored
    else:
        assert response.status_code == 422
        assert "not a whole number" in response.text
    assert counts(app) == before


def test_a_count_of_thousands_of_digits_is_refused_not_converted(app, client, world):
    game = world["game"]
    token = csrf_token(client.get(f"/games/{game['id']}").text)
    response = client.post(
        f"/games/{game['id']}/deals", data=DEAL_FORM | {"csrf_token": token, "high": LONG}
    )
    assert response.status_code == 422
    assert counts(app)[3] == 0


def test_the_settler_and_earlier_deals_bound_their_numbers(client, world):
    game = world["game"]
    settle = f"/rules/five-handed-schmier/settle?players={LONG}&target={LONG}&score_0={LONG}"
    assert client.get(settle).status_code == 200
    assert client.get(f"/games/{game['id']}/earlier?before={LONG}").status_code == 200


# --- 2. the same game made offline sent twice at once is stored once --------------------


def test_a_game_made_offline_sent_twice_at_once_is_stored_once_and_both_see_it(app, monkeypatch):
    phones = [app.test_client(), app.test_client()]
    data = kept_game(phones[0])
    game_id = data["offline_id"]
    sends = [data, {**data, "csrf_token": kept_game(phones[1])["csrf_token"]}]
    # Both sends look for the game before either stores it, then both store it.
    both_looked = threading.Barrier(2, timeout=10)
    real_import = exchange.import_document

    def import_when_both_looked(*args, **kwargs):
        both_looked.wait()
        return real_import(*args, **kwargs)

    monkeypatch.setattr(exchange, "import_document", import_when_both_looked)
    answers: list[object] = [None, None]

    def send(index: int) -> None:
        answers[index] = phones[index].post("/games/new", data=sends[index])

    threads = [threading.Thread(target=send, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert [a.status_code for a in answers] == [303, 303]  # type: ignore[union-attr]
    assert {a.headers["Location"] for a in answers} == {f"/games/{game_id}"}  # type: ignore[union-attr]
    assert counts(app)[2] == 1
    for phone in phones:  # each phone has the game's edit rights, as after one send
        assert 'id="deal-form"' in phone.get(f"/games/{game_id}").text
    assert stored(phones[0], game_id)["deals"] == []
