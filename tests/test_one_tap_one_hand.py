"""One tap stores one hand: taps made for a deal another phone saved first are never
stored as the next deal by a single tap, on either database."""

from tests.conftest import BOTH
from tests.test_pages import DEAL_1_WRONG, DEAL_2, csrf, group, post_deal, start_game

BACKENDS = BOTH


def deals(client, url):
    return client.get(f"/api/v1{url}").get_json()["deals"]


def test_taps_for_a_deal_another_phone_saved_wait_beside_it_and_save_only_explicitly(client):
    url = start_game(client)
    stale = csrf(client.get(url))  # this phone's form for deal 1 …
    assert post_deal(client, url, DEAL_1_WRONG, 1).status_code == 303  # … a phone saves deal 1
    mine = {key: str(value) for key, value in DEAL_2.items()}

    refused = client.post(f"{url}/deals", data={**mine, "csrf_token": stale, "number": "1"})
    assert refused.status_code == 409
    page = refused.text
    held = page[page.index('id="deal-conflict"') :]
    held = held[: held.index("</div>\n</div>")]
    # What the other phone saved, beside the taps, where the Save button was.
    assert "Deal 1 was just saved by another phone:" in held
    assert "Bob bid 4" in held and "Set" in held
    assert held.index('name="discard"') < held.index('name="save_as" value="2"')
    assert ">Save deal</button>" not in page
    assert 'value="2" checked' in group(page, "bidder")  # the taps kept (Cy)
    assert len(deals(client, url)) == 1

    # The same tap again (the form still says deal 1) stores nothing.
    again = client.post(f"{url}/deals", data={**mine, "csrf_token": stale, "number": "1"})
    assert again.status_code == 409
    assert len(deals(client, url)) == 1
    # "Discard mine" stores nothing and brings an empty form for deal 2.
    discarded = client.post(
        f"{url}/deals", data={**mine, "csrf_token": stale, "number": "1", "discard": "1"}
    )
    assert discarded.status_code == 303
    assert len(deals(client, url)) == 1
    fresh = client.get(url).text
    assert "Your taps were discarded; nothing was saved." in fresh
    assert 'name="number" type="hidden" value="2"' in fresh
    assert "checked" not in group(fresh, "bidder")

    # "Save mine as deal 2", the explicit second step, stores them as deal 2.
    saved = client.post(
        f"{url}/deals", data={**mine, "csrf_token": stale, "number": "1", "save_as": "2"}
    )
    assert saved.status_code == 303
    assert [d["number"] for d in deals(client, url)] == [1, 2]
    assert deals(client, url)[1]["bidders"][0] == 2  # Cy's hand


def test_over_htmx_the_refusal_holds_the_taps_and_discard_brings_the_next_form(client):
    url = start_game(client)
    assert post_deal(client, url, DEAL_1_WRONG, 1).status_code == 303
    hx = {"HX-Request": "true"}
    refused = post_deal(client, url, DEAL_2, 1, **hx)
    assert refused.status_code == 409
    assert refused.text.lstrip().startswith('<div id="game"')
    assert 'id="deal-conflict"' in refused.text
    assert 'name="number" type="hidden" value="1"' in refused.text
    discarded = client.post(
        f"{url}/deals",
        data={"csrf_token": csrf(client.get(url)), "number": "1", "discard": "1"},
        headers=hx,
    )
    assert discarded.status_code == 200
    # The choice waits in the form's template only, for a later conflict.
    text = discarded.text
    assert text.count('id="deal-conflict"') == 1
    assert text.index("<template data-conflict>") < text.index('id="deal-conflict"')
    assert ">Save deal</button>" in text
    assert 'name="number" type="hidden" value="2"' in discarded.text
    assert len(deals(client, url)) == 1
    # A deal number posted as save_as is checked like the form's own.
    bad = client.post(
        f"{url}/deals",
        data={"csrf_token": csrf(client.get(url)), "number": "1", "save_as": "2x"},
        headers=hx,
    )
    assert bad.status_code == 422
    assert "not a whole number" in bad.text
    assert len(deals(client, url)) == 1
