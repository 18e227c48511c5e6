"""A deal kept on a phone and sent later, whose number another phone took first: the
server describes both deals, and the ways out of the conflict store what they say, on
either database."""

import re

from tests.conftest import BOTH
from tests.test_pages import DEAL_1_WRONG, DEAL_2, csrf, post_deal, start_game

BACKENDS = BOTH


def document(client, url):
    return client.get(f"/api/v1{url}").get_json()


def conflict(page):
    """Return the text of the conflict box's paragraphs by class, tags dropped."""
    box = page[page.index('id="deal-conflict"') :]
    box = box[: box.index("conflict-actions")]
    return {
        name: re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", text)).strip()
        for name, text in re.findall(r'<p class="(conflict-[a-z]+)">(.*?)</p>', box, re.S)
    }


def changes(client, url):
    record = client.get(f"{url}/export.json").get_json()["games"][0]
    return [(c["action"], c["number"]) for c in record["changes"]]


def test_a_kept_deal_refused_409_is_described_beside_the_deal_saved_first(client):
    url = start_game(client)
    token = csrf(client.get(url))
    assert post_deal(client, url, DEAL_1_WRONG, 1).status_code == 303  # the other phone
    mine = {key: str(value) for key, value in DEAL_2.items()}

    kept = client.post(
        f"{url}/deals",
        data={**mine, "csrf_token": token, "number": "1", "kept": "1"},
        headers={"HX-Request": "true"},
    )
    assert kept.status_code == 409
    shown = conflict(kept.text)
    assert shown["conflict-saved"].startswith("Bob bid 4: Set")
    # Cy's hand as deal 1 in place of Bob's: what a correction of deal 1 would make of it.
    assert shown["conflict-mine"].startswith("Cy bid 3: Made · Trump ♠ spades")
    assert len(document(client, url)["deals"]) == 1

    # The page's own form is not told it: its taps are in view above the choice.
    plain = client.post(f"{url}/deals", data={**mine, "csrf_token": token, "number": "1"})
    assert plain.status_code == 409
    assert "conflict-mine" not in plain.text
    assert changes(client, url) == [("add", 1)]


def test_a_kept_deal_past_the_game_is_described_as_the_next_deal(client):
    """The other phone undid deal 1: this phone's deal 2 is described as deal 1 would be."""
    url = start_game(client)
    token = csrf(client.get(url))
    assert post_deal(client, url, DEAL_1_WRONG, 1).status_code == 303
    undo = client.post(f"{url}/deals/1/undo", data={"csrf_token": token})
    assert undo.status_code == 303
    mine = {key: str(value) for key, value in DEAL_2.items()}
    kept = client.post(
        f"{url}/deals",
        data={**mine, "csrf_token": token, "number": "2", "kept": "1"},
        headers={"HX-Request": "true"},
    )
    assert kept.status_code == 409
    shown = conflict(kept.text)
    assert "conflict-saved" not in shown
    assert shown["conflict-mine"].startswith("Cy bid 3: Made")
    assert document(client, url)["deals"] == []


def test_correcting_theirs_to_mine_twice_stores_and_logs_one_correction(client):
    """The phone sends its correction again when the first answer was lost."""
    url = start_game(client)
    token = csrf(client.get(url))
    assert post_deal(client, url, DEAL_1_WRONG, 1).status_code == 303
    mine = {key: str(value) for key, value in DEAL_2.items()}
    data = {**mine, "csrf_token": token, "number": "1"}

    first = client.post(f"{url}/deals/1/edit", data=data)
    assert first.status_code == 303
    again = client.post(f"{url}/deals/1/edit", data=data)
    assert again.status_code == 303
    assert "Deal 1 already holds this entry; nothing was changed." in client.get(url).text
    stored = document(client, url)["deals"]
    assert [(d["number"], d["bidder"], d["bid"]) for d in stored] == [(1, 2, 3)]
    assert changes(client, url) == [("add", 1), ("correct", 1)]
