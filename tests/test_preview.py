"""The deal form's preview: the engine's score for what is tapped so far, never stored."""

import re

import pytest

from scorekeeper import engine
from tests.test_pages import csrf
from tests.test_pages_rulesets import GAMES, api_game, form_fields, post_deal, start


def first_per_ruleset():
    """Return, per ruleset, its first worked game and the first deal in it that was played."""
    chosen = {}
    for game in GAMES:
        if game["ruleset"] in chosen:
            continue
        number, entry = next(
            (i + 1, d)
            for i, d in enumerate(game["deals"])
            if not (d.get("thrown_in") or d.get("forfeit"))
        )
        chosen[game["ruleset"]] = (game, number, entry)
    return sorted(chosen.items())


def preview(client, url, data):
    """Ask for the preview as htmx does (the CSRF token in a header)."""
    token = csrf(client.get(url))
    return client.post(
        f"{url}/preview", data=data, headers={"HX-Request": "true", "X-CSRFToken": token}
    )


def changes(text):
    """Return the (side, change) pairs the preview line lists."""
    pairs = re.findall(r'<span class="preview-side[^"]*">([^<]+?) ([+-]\d+)<', text)
    return [(name, int(delta)) for name, delta in pairs]


@pytest.mark.parametrize(
    ("ruleset", "case"), first_per_ruleset(), ids=lambda v: v if isinstance(v, str) else ""
)
def test_preview_matches_what_saving_the_deal_stores(client, ruleset, case):
    game, number, entry = case
    url = start(
        client, ruleset, game["players"], game["first_dealer"], game["target"], game["house_rules"]
    )
    # Deals before it (thrown in, forfeits) are saved first, as the table played them.
    for earlier, deal in enumerate(game["deals"][: number - 1], start=1):
        assert post_deal(client, url, ruleset, deal, earlier).status_code == 303
    before = api_game(client, url)

    answer = preview(client, url, {**form_fields(ruleset, entry), "number": str(number)})
    assert answer.status_code == 200
    assert "If saved:" in answer.text
    shown = changes(answer.text)
    assert api_game(client, url) == before, "the preview stored something"

    assert post_deal(client, url, ruleset, entry, number).status_code == 303
    saved = api_game(client, url)["deals"][-1]
    teams = api_game(client, url)["teams"]
    sides = teams or [[seat] for seat in range(len(game["players"]))]
    assert [delta for _name, delta in shown] == [saved["deltas"][side[0]] for side in sides]
    said = engine.get_ruleset(ruleset).contract_words.said(saved["made"])
    assert f">{said}</span>" in answer.text


def test_preview_lists_what_the_engine_still_wants_quietly(client):
    url = start(client, "five-handed-schmier", ["Ann", "Bob", "Cy", "Di", "Ed"])
    answer = preview(client, url, {"bidder": "1", "bid": "4"})
    assert answer.status_code == 200
    assert '<ul class="preview-problems">' in answer.text
    assert "Choose the trump suit." in answer.text
    assert "more things to enter" in answer.text
    assert 'role="alert"' not in answer.text
    assert api_game(client, url)["deals"] == []


def test_preview_of_an_empty_form_says_nothing(client):
    url = start(client, "shmear", ["Ann", "Bob", "Cy", "Di"])
    answer = preview(client, url, {})
    assert answer.status_code == 200
    assert answer.text.strip() == ""


def test_preview_needs_the_edit_rights_and_the_csrf_token(client, app):
    url = start(client, "shmear", ["Ann", "Bob", "Cy", "Di"])
    token = csrf(client.get(url))
    assert client.post(f"{url}/preview", data={"bidder": "1"}).status_code == 400
    other = app.test_client()
    refused = other.post(f"{url}/preview", data={"bidder": "1"}, headers={"X-CSRFToken": token})
    assert refused.status_code in (400, 403)


def test_the_deal_form_asks_for_the_preview_as_its_choices_change(client):
    url = start(client, "five-handed-euchre", ["Ann", "Bob", "Cy", "Di", "Ed"])
    page = client.get(url).text
    preview_div = page[page.index('id="deal-preview"') :]
    preview_div = preview_div[: preview_div.index(">")]
    assert f'hx-post="{url}/preview"' in preview_div
    assert 'hx-trigger="change from:#deal-form' in preview_div
    assert 'hx-target="this"' in preview_div
