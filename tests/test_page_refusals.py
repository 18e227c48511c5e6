"""A save the store refuses is answered on the correction page as on the deal form.

Both pages map a busy database, a full game and the rules through one function
(``web/errors.py``): the same status, the same message above the form in the page's
language, the same ``Retry-After``, what was entered kept, and nothing stored.
"""

from __future__ import annotations

import html
import re

from scorekeeper.store import limits
from tests.conftest import BOTH, DEAL_FORM, EXAMPLE_DEAL, FIVE
from tests.tables_support import csrf_token
from tests.test_hardening import counts, impatient, write_locked  # noqa: F401 (a fixture)
from tests.test_pages import BOB, CY, DEAL_1_WRONG, DEAL_2, DEAL_4, csrf, post_deal, start_game

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


def test_a_correction_a_later_deal_cannot_survive_is_refused_in_the_pages_language(client):
    url = start_game(client, target=10)
    for number, deal in enumerate([{**DEAL_1_WRONG, "jack": BOB}, DEAL_2], start=1):
        assert post_deal(client, url, deal, number).status_code == 303
    client.post(
        f"{url}/deals", data={"csrf_token": csrf(client.get(url)), "number": "3", "thrown_in": "1"}
    )
    assert post_deal(client, url, DEAL_4, 4).status_code == 303
    # Had Cy been Bob's partner taking all six, Cy would have won after deal 2.
    french = {"Accept-Language": "fr"}
    edit = client.get(f"{url}/deals/1/edit", headers=french)
    everything = {"partner": CY, "high": CY, "low": BOB, "jack": BOB, "off_jack": CY, "joker": BOB}
    data = {k: str(v) for k, v in {**DEAL_1_WRONG, **everything}.items()}
    refused = client.post(
        f"{url}/deals/1/edit", data={**data, "csrf_token": csrf(edit)}, headers=french
    )
    assert refused.status_code == 409
    text = html.unescape(refused.text)
    assert "Après cette correction, la partie se termine à la donne 2" in text
    assert "La donne 3 n'aurait pas pu être jouée." in text
    assert "After this correction" not in text
