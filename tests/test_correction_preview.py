"""The correction page's preview: the engine's answer to a correction, nothing stored."""

import re

from tests.test_pages import (
    BOB,
    CY,
    DEAL_1_WRONG,
    DEAL_2,
    DEAL_4,
    DI,
    csrf,
    post_deal,
    scores,
    start_game,
)

HTMX = {"HX-Request": "true"}


def four_deals(client):
    """Play the game of tests/test_pages.py to Di's win at 10; return its page URL."""
    url = start_game(client, target=10)
    for number, deal in enumerate([DEAL_1_WRONG, DEAL_2], start=1):
        assert post_deal(client, url, deal, number).status_code == 303
    client.post(
        f"{url}/deals", data={"csrf_token": csrf(client.get(url)), "number": "3", "thrown_in": "1"}
    )
    assert post_deal(client, url, DEAL_4, 4).status_code == 303
    return url


def preview(client, url, number, deal, **headers):
    edit = client.get(f"{url}/deals/{number}/edit")
    data = {key: str(value) for key, value in deal.items()}
    data.update(csrf_token=csrf(edit), number=str(number))
    return client.post(f"{url}/deals/{number}/preview", data=data, headers=headers)


def totals(html):
    """Return the preview table's rows: (deal, [cell text, …]) with "old→new" where moved."""
    body = html[html.index("<tbody>") : html.index("</tbody>")]
    rows = []
    for number, cells in re.findall(r'<th scope="row">(\d+)</th>(.*?)</tr>', body, re.S):
        shown = []
        for cell in re.findall(r"<td>(.*?)</td>", cells, re.S):
            moved = re.findall(r"</span>(-?\d+)</(?:del|ins)>", cell)
            shown.append("→".join(moved) if moved else cell.strip())
        rows.append((int(number), shown))
    return rows


def test_the_preview_shows_every_later_total_and_the_outcome_and_stores_nothing(client):
    url = four_deals(client)
    before = client.get(url).text

    # Jack was Bob's, not Cy's: the bidders take one more point in deal 1.
    fragment = preview(client, url, 1, {**DEAL_1_WRONG, "jack": BOB}, **HTMX)
    assert fragment.status_code == 200
    assert fragment.headers["Cache-Control"] == "no-store"
    assert "<html" not in fragment.text
    assert "If saved:" in fragment.text
    rows = totals(fragment.text)
    assert [number for number, _cells in rows] == [1, 2, 3, 4]
    # Bob and Di (the bidders) gain, Cy loses the point; every later total moves with them.
    assert all("→" in cells[BOB] and "→" in cells[DI] and "→" in cells[CY] for _n, cells in rows)
    assert rows[-1][1] == ["5→4", "2→10", "9→8", "2→10", "9→8"]
    assert scores(client.get(url).text) == scores(before)  # nothing stored


def test_a_correction_that_changes_the_winner_says_so(client):
    url = four_deals(client)
    # With Jack given to Bob, Bob and Di reach 10 in deal 4, and Di (who bid) wins.
    fragment = preview(client, url, 1, {**DEAL_1_WRONG, "jack": BOB}, **HTMX)
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", fragment.text))
    assert "The outcome changes: Bob and Di both reached 10; Di bid this deal, so Di wins." in text
    assert "Until now: Nobody has reached 10 yet." in text
    # The same choices again: the outcome stays.
    same = preview(client, url, 1, DEAL_1_WRONG, **HTMX)
    assert "The outcome stays: Nobody has reached 10 yet." in re.sub(r"\s+", " ", same.text)
    assert "<del>" not in same.text


def test_a_correction_the_later_deals_cannot_survive_is_said_in_the_preview(client):
    url = four_deals(client)
    before = scores(client.get(url).text)
    everything = {"partner": CY, "high": CY, "low": BOB, "jack": BOB, "off_jack": CY, "joker": BOB}
    fragment = preview(client, url, 1, {**DEAL_1_WRONG, **everything}, **HTMX)
    assert fragment.status_code == 200
    assert 'class="preview-conflict"' in fragment.text
    assert "After this correction the game ends at deal 2: Cy reached 11" in fragment.text
    assert scores(client.get(url).text) == before


def test_an_unfinished_correction_lists_what_is_missing_quietly(client):
    url = four_deals(client)
    deal = {k: v for k, v in DEAL_1_WRONG.items() if k not in ("high", "low")}
    fragment = preview(client, url, 1, deal, **HTMX)
    assert fragment.status_code == 200
    assert 'class="preview-problems"' in fragment.text
    assert "<table" not in fragment.text


def test_without_javascript_the_preview_button_brings_the_page_with_the_preview(client):
    url = four_deals(client)
    edit = client.get(f"{url}/deals/1/edit").text
    assert f'formaction="{url}/deals/1/preview"' in edit
    page = preview(client, url, 1, {**DEAL_1_WRONG, "jack": BOB})
    assert page.status_code == 200
    assert "<h1>Correct deal 1" in page.text
    box = page.text[page.text.index('id="correction-preview"') :]
    box = box[: box.index('class="correction-buttons"')]
    assert "If saved:" in box and "The outcome" in box
    # Every later total below the form, out of the bar that stays in view.
    below = page.text[page.text.index("</form>") :]
    assert below.index('id="correction-totals"') < below.index("<table") < below.index("</table>")
    # The choices are kept, ready to save.
    jack = page.text[page.text.index('id="jack-group"') :]
    assert f'value="{BOB}" checked' in jack[: jack.index("</fieldset>")]


def test_only_an_editor_may_preview_a_correction(client, app):
    url = four_deals(client)
    token = csrf(client.get(f"{url}/deals/1/edit"))
    other = app.test_client()
    data = {key: str(value) for key, value in DEAL_1_WRONG.items()}
    response = other.post(f"{url}/deals/1/preview", data={**data, "csrf_token": token})
    assert response.status_code in (400, 403)
