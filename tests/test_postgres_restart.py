"""A real PostgreSQL restart under the app: no request ever gets a bare 500, and after it
only the requests in flight fail.

Each test runs on a PostgreSQL server of its own (tests/own_postgres.py), restarted or
stopped with pg_ctl: never the shared server. A request whose connection the restart
ends after its answer was made is answered (before: its session's teardown raised on the
dead connection, and gunicorn sent its bare HTML 500); every pooled connection the
restart ended is replaced before it is used; while the server is down, requests answer
503 with Retry-After, the API in its own JSON shape.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from scorekeeper.extensions import db
from tests.conftest import DEAL_FORM, EXAMPLE_DEAL, FIVE, make_app, upgrade_schema
from tests.own_postgres import OwnPostgres, own_postgres
from tests.tables_support import bearer, csrf_token
from tests.test_api import assert_error

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def server() -> Iterator[OwnPostgres]:
    with own_postgres() as started:
        upgrade_schema(started.url)
        yield started


@pytest.fixture
def restarted(server):
    """Yield an app whose next request marked `restart_after` restarts the server once its
    answer is made, and a game with an editor's client."""
    app = make_app(server.url, PROPAGATE_EXCEPTIONS=True)
    marked: list[bool] = []

    @app.after_request
    def restart_after(response):
        if marked:
            marked.clear()
            server.restart()
        return response

    client = app.test_client()
    body = {"ruleset": "five-handed-schmier", "players": FIVE, "first_dealer": 0, "target": 999}
    game = client.post("/api/v1/games", json=body).get_json()
    client.get(f"/games/{game['id']}/edit/{game['edit_token']}")
    yield app, client, game, marked
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def test_a_request_whose_connection_a_restart_ends_after_its_answer_is_answered(restarted):
    _app, client, game, marked = restarted
    page = f"/games/{game['id']}"
    form = DEAL_FORM | {"csrf_token": csrf_token(client.get(page).text)}
    requests = {
        "page": (lambda: client.get(page), 200),
        "sheet": (lambda: client.get(f"{page}/sheet"), 200),
        "API read": (lambda: client.get(f"/api/v1{page}"), 200),
        "API deal": (
            lambda: client.post(
                f"/api/v1{page}/deals", json=EXAMPLE_DEAL, headers=bearer(game["edit_token"])
            ),
            201,
        ),
        "page deal": (lambda: client.post(f"{page}/deals", data=form | {"number": "2"}), 303),
    }
    for what, (send, status) in requests.items():
        marked.append(True)
        assert send().status_code == status, what  # made before the restart: it stands
        assert not marked
    deals = client.get(f"/api/v1{page}").get_json()["deals"]
    assert [deal["number"] for deal in deals] == [1, 2]  # each stored once


def test_after_a_restart_every_pooled_connection_is_replaced_before_use(restarted):
    app, client, game, marked = restarted
    with app.app_context():
        # Fill the pool with connections, as a burst of requests leaves it.
        held = [db.engine.connect() for _ in range(4)]
        for connection in held:
            connection.close()
        assert db.engine.pool.checkedin() >= 4
    marked.append(True)
    assert client.get("/api/v1/rulesets").status_code == 200  # restarts after answering
    page = f"/games/{game['id']}"
    answers = []
    for _ in range(3):
        answers += [client.get(page).status_code, client.get(f"/api/v1{page}").status_code]
        answers.append(
            client.post(
                f"/api/v1{page}/deals", json=EXAMPLE_DEAL, headers=bearer(game["edit_token"])
            ).status_code
        )
    assert answers == [200, 200, 201] * 3  # no request after the restart fails


def test_while_the_server_is_down_requests_answer_503_with_retry_after(restarted, server):
    _app, client, game, _marked = restarted
    page = f"/games/{game['id']}"
    assert client.get(page).status_code == 200
    server.stop()
    try:
        for response in (
            client.get(f"/api/v1{page}"),
            client.post(
                f"/api/v1{page}/deals", json=EXAMPLE_DEAL, headers=bearer(game["edit_token"])
            ),
        ):
            assert_error(response, 503, "busy")
            assert response.headers["Retry-After"] == "2"
        shown = client.get(page)
        assert shown.status_code == 503 and shown.headers["Retry-After"] == "2"
        assert "cannot be reached" in shown.text
    finally:
        server.start()
    assert client.get(page).status_code == 200
    assert client.get(f"/api/v1{page}").get_json()["deals"] == []
