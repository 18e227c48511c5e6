"""A save the store refuses is answered on the correction page as on the deal form.

Both pages map a busy database, a full game and the rules through one function
(``web/errors.py``): the same status, the same message above the form, the same
``Retry-After``, what was entered kept, and nothing stored.
"""

from __future__ import annotations

import re

from scorekeeper.store import limits
from tests.conftest import BOTH, DEAL_FORM, EXAMPLE_DEAL, FIVE
from tests.tables_support import csrf_token
from tests.test_hardening import counts, impatient, write_locked  # noqa: F401 (a fixture)

BACKENDS = BOTH


def editing(client, game) -> None:
    """Give this browser the game's edit rights, as its edit link does."""
    client.get(f"/games/{game['id']}/edit/{game['edit_token']}")


def correction(client, game, **changes: str) -> dict[str, str]:
    """Return the correction form of deal 1 as the page posts it, with `changes`."""
    page = client.get(f"/games/{game['id']}/deals/1/edit")
    assert page.status_code == 200
    return DEAL_FORM | {"csrf_token": csrf_token(page.text), "number": "1"} | changes


def test_a_correction_refused_by_a_held_lock_keeps_the_entry_and_asks_to_resend(
    impatient,  # noqa: F811
    database,
):
    client = impatient.test_client()
    game = client.post(
        "/api/v1/games", json={"ruleset": "five-handed-schmier", "players": FIVE, "first_dealer": 0}
    ).get_json()
    client.post(
        f"/api/v1/games/{game['id']}/deals",
        json=EXAMPLE_DEAL,
        headers={"Authorization": f"Bearer {game['edit_token']}"},
    )
    editing(client, game)
    form = correction(client, game, bid="5")
    before = counts(impatient)
    with write_locked(database, game["id"]):
        response = client.post(f"/games/{game['id']}/deals/1/edit", data=form)
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "2"
    assert "so this deal was not saved. Your entry is kept: save it again." in response.text
    assert re.search(r'name="bid"[^>]*value="5"[^>]*checked', response.text)
    assert counts(impatient) == before
    stored = client.get(f"/api/v1/games/{game['id']}").get_json()["deals"][0]
    assert stored["bid"] == 4


def test_a_correction_past_the_changes_per_game_limit_is_refused_on_the_page(
    api, client, monkeypatch
):
    monkeypatch.setattr(limits, "CHANGES_PER_GAME", 2)
    game = api.create(target=999)
    api.add(game, EXAMPLE_DEAL)
    editing(client, game)
    first = client.post(f"/games/{game['id']}/deals/1/edit", data=correction(client, game))
    assert first.status_code == 303
    response = client.post(
        f"/games/{game['id']}/deals/1/edit", data=correction(client, game, bid="5")
    )
    assert response.status_code == 409
    assert "holds as many deals and corrections as a game may" in response.text
    assert "Start a new game to go on." in response.text
    assert "Retry-After" not in response.headers
    assert re.search(r'name="bid"[^>]*value="5"[^>]*checked', response.text)
    assert api.game(game)["deals"][0]["bid"] == 4
