"""The Jick and scores below 0 on the pages: new game, game page, deal form, preview,
why this score, chart, rules page and the tie-break settler (plain form posts)."""

import html
import json
import re
from pathlib import Path

import pytest

from tests.test_pages import csrf
from tests.test_pages_rulesets import board, form_fields, post_deal, start
from tests.test_preview import changes, preview
from tests.test_rules import INDIVIDUAL_4, answer, settle

GAMES = json.loads(
    (Path(__file__).parent / "data" / "shmear-house-rules-games.json").read_text(encoding="utf-8")
)
FOUR = ["Ann", "Bob", "Cy", "Di"]
BOTH_RULES = {"jick": True, "negative_scores": True}
LABELS = {
    "en": ("Play with the Jick", "Scores can go below 0"),
    "fr": ("Jouer avec le Jick", "Les scores peuvent passer sous 0"),
    "de": ("Mit dem Jick spielen", "Stände können unter 0 fallen"),
    "id": ("Main dengan Jick", "Skor bisa di bawah 0"),
}


def text(page):
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def new_game_page(client, ruleset="shmear", language="en"):
    page = client.get("/games/new")
    return client.post(
        "/games/new",
        data={"csrf_token": csrf(page), "ruleset": ruleset, "switch": "1"},
        headers={"Accept-Language": language},
    ).text


@pytest.mark.parametrize("language", sorted(LABELS))
def test_the_new_game_page_offers_both_house_rules_each_in_one_line(client, language):
    page = new_game_page(client, language=language)
    jick, below = LABELS[language]
    assert jick in page and below in page
    assert 'name="hr_jick"' in page and 'name="hr_negative_scores"' in page
    if language == "en":
        words = text(page)
        assert (
            "Play with the Jick The jack of the other suit of trump's colour is a trump just "
            "below the jack and a fifth point; bids run 2 to 5. Default: Off."
        ) in words
        assert (
            "Scores can go below 0 A set bid or a forfeit takes its full amount, even below 0. "
            "Default: Off."
        ) in words


def test_a_game_started_with_both_shows_them_and_a_jick_row_after_the_jack(client):
    url = start(client, "shmear", FOUR, 0, 11, BOTH_RULES)
    page = client.get(url).text
    assert "House rules: Play with the Jick · Scores can go below 0" in text(page)
    form = page[page.index('id="deal-form"') :]
    rows = re.findall(r'<fieldset class="grid-row[^"]*" id="([a-z_]+)-group"', form)
    assert rows == ["high", "low", "jack", "jick"]
    assert re.findall(r'name="bid" id="bid-\d" value="([^"]+)"', form) == [
        "2",
        "3",
        "4",
        "5",
        "moon",
    ]
    # The hint names the card for each trump, folded under the grid like the other hints.
    hint = re.search(r'<details class="grid-hint">(.*?)</details>', form, re.S).group(1)
    assert text(hint) == (
        "Which card is the Jick? Who captured the Jick, the jack of the other suit of trump's "
        "colour: J♣ when "
        "spades are trump, J♦ when hearts are trump, J♥ when diamonds are trump and J♠ when "
        "clubs are trump."
    )
    assert "(even below 0)" in form


def test_without_the_house_rules_the_form_has_no_jick_and_no_bid_of_5(client):
    url = start(client, "shmear", FOUR, 0, 11)
    page = client.get(url).text
    form = page[page.index('id="deal-form"') :]
    assert 'name="jick"' not in form and "grid-hint" not in form
    assert 'value="5"' not in re.sub(r'game_points[^>]*value="[^"]*"', "", form)
    assert "House rules:" not in page


def test_a_deal_with_the_jick_is_saved_explained_and_scored_below_0(client):
    game = GAMES[0]
    url = start(client, "shmear", FOUR, game["first_dealer"], 11, game["house_rules"])
    for number, entry in enumerate(game["deals"][:2], start=1):
        assert post_deal(client, url, "shmear", entry, number).status_code == 303
    page = client.get(url).text
    assert board(page) == [("Ann", 0), ("Bob", -1), ("Cy", -2), ("Di", 6)]
    words = text(page)
    assert "High, Jick and Game to Di." in words
    assert "The Jick was not in play, so nobody scored it." in words
    assert "never drops below 0" not in words


def test_the_preview_counts_the_jick_and_goes_below_0(client):
    url = start(client, "shmear", FOUR, 1, 11, BOTH_RULES)
    entry = GAMES[0]["deals"][0]
    answer_ = preview(client, url, {**form_fields("shmear", entry), "number": "1"})
    assert answer_.status_code == 200
    assert changes(answer_.text) == [("Ann", 0), ("Bob", 1), ("Cy", -2), ("Di", 3)]


def test_counts_below_the_jack_and_jick_taken_are_refused_beside_the_counts(client):
    url = start(client, "shmear", FOUR, 0, 11, BOTH_RULES)
    entry = {
        "bidder": 1,
        "bid": 2,
        "trump": "S",
        "high": 1,
        "low": 1,
        "jack": 2,
        "jick": 2,
        "game_points": [0, 10, 1, 0],
    }
    refused = post_deal(client, url, "shmear", entry, 1)
    assert refused.status_code == 422
    words = text(refused.text)
    assert (
        "Cy took the jack of trump and the Jick, so counted at least 2 in Game; 1 was entered."
    ) in words
    assert re.search(r'name="jick" id="jick-2"[^>]*value="2"\s+checked', refused.text)


def test_the_score_chart_draws_below_0(client):
    game = GAMES[0]
    url = start(client, "shmear", FOUR, game["first_dealer"], 11, game["house_rules"])
    for number, entry in enumerate(game["deals"][:2], start=1):
        assert post_deal(client, url, "shmear", entry, number).status_code == 303
    chart = client.get(f"{url}/sheet").text
    ticks = re.findall(r'<text x="30" y="[\d.]+" text-anchor="end"[^>]*>(-?\d+)</text>', chart)
    assert ticks[0] == "-5" and "0" in ticks
    assert ">-2 Cy</text>" in chart


def test_the_rules_page_explains_both_house_rules(client):
    words = text(client.get("/rules/shmear").text)
    assert "The Jick and scores below 0" in words
    assert "J♣ when spades are trump" in words
    assert "Play with the Jick" in words and "Scores can go below 0" in words


def test_the_settler_takes_the_house_rules_and_scores_below_0(client):
    response = settle(
        client,
        "shmear",
        INDIVIDUAL_4,
        (11, -3, 11, -5),
        players=4,
        target=11,
        hr_low_to_taker="false",
        hr_jick="true",
        hr_negative_scores="true",
        hr_unresolved_tie="play_on",
        bidder=2,
    )
    headline, explanation, _step = answer(response)
    assert headline == "Player 3 wins."
    assert "Player 3 bid this deal" in explanation
    assert "The bidder shot the moon and took every point" in response.text


def test_the_settler_says_a_moon_with_the_jick_took_all_five(client):
    response = settle(
        client,
        "shmear",
        INDIVIDUAL_4,
        (3, 9, 0, 0),
        players=4,
        target=11,
        hr_low_to_taker="false",
        hr_jick="true",
        hr_negative_scores="false",
        hr_unresolved_tie="play_on",
        bidder=0,
        moon="y",
    )
    _headline, explanation, _step = answer(response)
    assert (
        explanation == "Player 1 shot the moon and took all five points, so Player 1 wins at once."
    )
