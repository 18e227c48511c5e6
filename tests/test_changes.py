"""The change log reads every ruleset's fields from its description, in the page's words."""

import html
import re


def _log(client, game):
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    section = page[page.index('id="change-log"') :]
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", section)))


def test_a_shmear_forfeit_and_a_moon_read_in_words(client, api):
    game = api.create(ruleset="shmear", players=["Ann", "Bob", "Cy", "Di"], first_dealer=3)
    api.add(game, {"forfeit": True})
    api.add(
        game,
        {
            "bidder": 1,
            "bid": 3,
            "trump": "S",
            "high": 1,
            "low": 1,
            "jack": 1,
            "game_points": [0, 40, 0, 0],
        },
    )
    log = _log(client, game)
    assert "Deal 1 entered" in log
    assert "forfeited yes" in log
    assert "Bidder Bob" in log
    assert "Trump spades" in log
    assert "Jack Bob" in log


def test_a_six_handed_correction_names_the_team_that_took_game(client, api):
    game = api.create(ruleset="six-handed-schmier", players=["Ann", "Bob", "Cy", "Di", "Ed", "Flo"])
    entry = {
        "bidder": 1,
        "bid": 3,
        "trump": "H",
        "high": 1,
        "low": 4,
        "jack": 1,
        "off_jack": 2,
        "joker": 1,
        "game": 1,
    }
    api.add(game, entry)
    response = api.put(game, 1, {**entry, "game": 2})
    assert response.status_code == 200, response.get_json()
    log = _log(client, game)
    assert "Deal 1 corrected" in log, log
    assert "Bob & Ed → Cy & Flo" in log, log


def test_a_euchre_called_card_reads_as_one_phrase_in_german(client, api):
    game = api.create(ruleset="five-handed-euchre")
    api.add(game, {"bidder": 0, "trump": "H", "called_card": "KS", "partner": 2, "tricks": 3})
    client.get("/language/de")
    log = _log(client, game)
    assert "Änderungsprotokoll" in log or "Protokoll" in log
    assert "Ann" in log and "Partner Cy" in log, log
