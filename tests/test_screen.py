"""The big screen: a game's scores for a screen at the table, read-only and live."""

import html
import json
import re

import pytest

from scorekeeper.web import screen as big_screen
from tests.conftest import DEAL


def screen(client, game_id, **kwargs):
    response = client.get(f"/games/{game_id}/screen", **kwargs)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def poll_etag(page_html):
    """Return the If-None-Match value the big screen sends when it polls."""
    tag = re.search(r'<section id="screen"[^>]*>', page_html).group(0)
    headers = re.search(r'hx-headers="([^"]+)"', tag).group(1)
    return json.loads(html.unescape(headers))["If-None-Match"]


def text(page_html):
    """Return the page's words, tags dropped and spaces folded."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page_html)).split())


def test_the_big_screen_shows_scores_target_turn_and_the_last_hand(client, api):
    game = api.create()
    before = text(screen(client, game["id"]))
    assert "Target 21 · Deal 1 next" in before
    assert "Ann deals · Bob bids first" in before
    api.add(game, DEAL)
    shown = screen(client, game["id"])
    words = text(shown)
    scores = re.findall(r'<span class="screen-score"><span>(-?\d+)</span>', shown)
    assert scores == ["2", "4", "2", "4", "2"]
    assert "needs 17" in words and "needs 19" in words
    assert "Bob deals · Cy bids first" in words
    assert "Deal 1: Bob 4" in words and "made" in words  # the last hand in one line


def test_the_big_screen_is_read_only_even_in_an_editors_browser(client, api):
    game = api.create()
    client.get(f"/games/{game['id']}/edit/{game['edit_token']}")  # this browser may edit
    shown = screen(client, game["id"])
    assert "<form" not in shown and "<button" not in shown
    assert game["edit_token"] not in shown
    assert "csrf" not in shown.lower()
    assert "/edit/" not in shown
    # The page follows the game on the same stream as the game page, with its own part.
    assert f'data-events="/games/{game["id"]}/events"' in shown
    assert f'hx-get="/games/{game["id"]}/screen/live"' in shown


def test_without_javascript_the_big_screen_reloads_itself(client, api):
    game = api.create()
    head = screen(client, game["id"]).split("</head>")[0]
    assert re.search(r'<noscript><meta http-equiv="refresh" content="\d+"></noscript>', head)


def test_its_poll_says_304_until_a_deal_is_saved_then_brings_the_new_part(client, api):
    game = api.create()
    etag = poll_etag(screen(client, game["id"]))
    url = f"/games/{game['id']}/screen/live"
    unchanged = client.get(url, headers={"HX-Request": "true", "If-None-Match": etag})
    assert unchanged.status_code == 304
    api.add(game, DEAL)
    changed = client.get(url, headers={"HX-Request": "true", "If-None-Match": etag})
    assert changed.status_code == 200
    part = changed.get_data(as_text=True)
    assert part.lstrip().startswith('<section id="screen"')
    assert "<html" not in part and "Deal 1: Bob 4" in text(part)
    assert changed.headers["ETag"] != etag
    # Asked for without htmx, the poll's address sends the browser to the page.
    plain = client.get(url)
    assert plain.status_code == 303
    assert plain.headers["Location"].endswith(f"/games/{game['id']}/screen")


def test_the_win_and_its_reason_are_on_the_big_screen(client, api):
    game = api.create(target=4)
    api.add(game, DEAL)  # Bob and Di reach 4; Bob bid
    words = text(screen(client, game["id"]))
    assert "Bob wins!" in words
    assert "Bob and Di both reached 4; Bob bid this deal, so Bob wins." in words  # why
    assert "bids first" not in words and "Deal 2 next" not in words


def test_the_big_screen_speaks_the_page_language(client, api):
    game = api.create()
    words = text(screen(client, game["id"], headers={"Accept-Language": "fr"}))
    assert "Objectif 21" in words
    assert "Ann donne · Bob parle en premier" in words


def test_an_unknown_game_has_no_big_screen(client):
    assert client.get("/games/no-such-game-here-at-all/screen").status_code == 404
    live = client.get("/games/no-such-game-here-at-all/screen/live", headers={"HX-Request": "true"})
    assert live.status_code == 404


def test_the_share_section_links_the_big_screen_with_its_qr_code(client, api):
    game = api.create()
    shown = client.get(f"/games/{game['id']}").get_data(as_text=True)
    share = shown[shown.index('id="share"') :]
    figures = re.findall(r'<figure class="share-link">.*?</figure>', share, re.S)
    figure = next((f for f in figures if "Big screen" in f), None)
    assert figure, "no big screen link in the share section"
    assert re.search(rf'href="http[^"]+/games/{game["id"]}/screen"', figure)
    assert "<svg" in figure and "QR code of the big screen" in figure


@pytest.mark.parametrize(
    ("names", "em"),
    [
        (["Ann", "Bob"], 4),
        (["Ann", "Bartholomew"], 9),
        (["Bartholomew & Konstantine", "Ann & Di"], 9),  # a team breaks between its words
        (["W" * 40], 32),
        ([], 4),
    ],
)
def test_the_names_type_is_sized_to_the_longest_word(names, em):
    assert big_screen.name_em(names) == em


@pytest.mark.parametrize(("scores", "chars"), [([0, 4], 2), ([21, -3], 2), ([-12, 5], 3)])
def test_the_scores_type_is_sized_to_the_longest_score(scores, chars):
    assert big_screen.score_chars(scores) == chars
