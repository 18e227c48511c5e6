"""The deal form's card counter, without JavaScript: tap who took each counting card.

The counter is built from the ruleset's description (its counts field's card values); the
server adds the cards up with the engine, fills the counts from them ("Use these counts"
saves nothing) and saves the counted counts as if they had been typed.
"""

import html
import re

import pytest

from scorekeeper import engine
from tests.test_pages import csrf
from tests.test_pages_rulesets import GAMES, api_game, form_fields, start, start_worked

COUNTED = {}
for _game in GAMES:
    if _game["ruleset"] not in COUNTED and any("game_points" in d for d in _game["deals"]):
        COUNTED[_game["ruleset"]] = _game
"""One worked game per ruleset whose deals enter Game counts (every game but Euchre)."""


def card_values(example):
    """Return the ruleset's counting cards and values, as its description gives them."""
    config = engine.configure(
        example["ruleset"],
        example["players"],
        example["first_dealer"],
        example["target"],
        example["house_rules"] or None,
    )
    field = next(f for f in config.ruleset.entry_fields(config) if f.kind == "counts")
    return field.card_values


def distribute(values, counts):
    """Return a card: side mapping whose cards add up to `counts`, or None if none does.

    A plain search, largest cards first: a table's real tricks would do as well.
    """
    cards = sorted(values, key=lambda v: -v.value)
    left = list(counts)

    def place(index):
        if not any(left):
            return {}
        if index == len(cards) or sum(v.value for v in cards[index:]) < sum(left):
            return None
        value = cards[index]
        for side in range(len(left)):
            if left[side] >= value.value:
                left[side] -= value.value
                rest = place(index + 1)
                left[side] += value.value
                if rest is not None:
                    return {value.card: side, **rest}
        return place(index + 1)

    return place(0)


def counter_fields(taken, name="game_points"):
    """Return the counter's taps as the form posts them: one radio per card tapped."""
    return {f"{name}_took_{card}": str(side) for card, side in taken.items()}


def counts_of(entry):
    value = entry["game_points"]
    return [value["bidders"], value["opponents"]] if isinstance(value, dict) else list(value)


def shown_counts(text, sides):
    """Return the values the page's count inputs hold."""
    found = []
    for index in range(sides):
        tag = re.search(rf'<input[^>]*id="game_points-{index}"[^>]*>', text).group(0)
        value = re.search(r'value="([^"]*)"', tag)
        found.append(value.group(1) if value else "")
    return found


@pytest.mark.parametrize("ruleset", sorted(COUNTED))
def test_a_worked_game_entered_by_counting_cards_scores_as_typed_counts(client, ruleset):
    example = COUNTED[ruleset]
    values = card_values(example)
    url = start_worked(client, example)
    after_each = example["expected"]["after_each_deal"]
    counted = 0
    for number, (entry, after) in enumerate(
        zip(example["deals"], after_each, strict=True), start=1
    ):
        data = form_fields(ruleset, entry)
        if "game_points" in entry:
            counts = counts_of(entry)
            taken = distribute(values, counts)
            assert taken is not None, f"deal {number}: no cards add up to {counts}"
            assert engine.add_up(values, taken, len(counts)) == tuple(counts)
            data = {k: v for k, v in data.items() if not k.startswith("game_points-")}
            data.update(counter_fields(taken))
            counted += 1
        token = csrf(client.get(url))
        flag = next((k for k in ("thrown_in", "forfeit") if entry.get(k)), None)
        if flag:
            data = {flag: "1"}
        saved = client.post(
            f"{url}/deals", data={**data, "csrf_token": token, "number": str(number)}
        )
        assert saved.status_code == 303, (number, re.findall(r"<li>([^<]+)</li>", saved.text))
        stored = client.get(f"/api/v1{url}/deals/{number}").get_json()
        if "game_points" in entry:
            assert stored["game_points"] == entry["game_points"], f"deal {number}"
        assert (stored["deltas"], stored["scores"]) == (after["deltas"], after["scores"])
    assert counted > 0
    final = api_game(client, url)
    assert [p["score"] for p in final["players"]] == example["expected"]["scores"]


def test_the_counter_lists_each_counting_card_with_its_value_from_the_ruleset(client):
    for ruleset, example in sorted(COUNTED.items()):
        url = start(client, ruleset, example["players"], example["first_dealer"])
        page = client.get(url).text
        counter = page[
            page.index('class="card-counter"') : page.index(
                "</details>", page.index('class="card-counter"')
            )
        ]
        rows = re.findall(r'class="grid-row counter-row" data-value="(\d+)"', counter)
        values = card_values({**example, "target": None, "house_rules": {}})
        assert [int(v) for v in rows] == [v.value for v in values], ruleset
        for value in values:
            words = html.escape(str(value.card.words), quote=True)
            assert f'name="game_points_took_{value.card}"' in counter
            assert f'aria-label="{words}: ' in counter
        # The totals start at nothing counted, the whole pack left.
        pack = sum(v.value for v in values)
        assert re.search(rf"<output data-left>{pack}</output>", counter), ruleset


def test_euchre_counts_tricks_so_its_form_has_no_card_counter(client):
    url = start(client, "five-handed-euchre", ["Ann", "Bob", "Cy", "Di", "Ed"])
    assert "card-counter" not in client.get(url).text


FIVE = ["Ann", "Bob", "Cy", "Di", "Ed"]
DEAL = {"bidder": "1", "bid": "4", "trump": "H", "called_card_rank": "K",
        "called_card_suit": "H", "partner": "3", "high": "3", "low": "0", "jack": "1",
        "off_jack": "2", "joker": "1"}  # fmt: skip
"""Bob bids 4 in hearts, calls the KH held by Di: Game is left to the counts."""
TAKEN = {"10H": 0, "10S": 0, "AH": 0, "JH": 0, "JOKER": 0, "10D": 1, "JD": 1, "KC": 1}
"""The bidders took 10 + 10 + 4 + 1 + 1 = 26; the opponents 10 + 1 + 3 = 14."""


def five_handed(client):
    url = start(client, "five-handed-schmier", FIVE)
    return url, csrf(client.get(url))


def taps(**extra):
    fields = {**DEAL, "number": "1", **extra}
    fields.update(counter_fields({engine.Card.parse(c): s for c, s in TAKEN.items()}))
    return fields


def test_use_these_counts_fills_the_counts_and_saves_nothing(client):
    url, token = five_handed(client)
    answer = client.post(
        f"{url}/deals",
        data={**taps(game="bidders"), "csrf_token": token, "count_cards": "game_points"},
    )
    assert answer.status_code == 200
    assert api_game(client, url)["deals"] == []
    text = answer.text
    assert shown_counts(text, 2) == ["26", "14"]
    # The counts now decide Game: the side chosen by hand is cleared, the taps are kept.
    assert not re.search(r'name="game" [^>]*value="bidders"[^>]*checked', text)
    assert re.search(r'name="game_points_took_10H"[^>]*value="0"\s*checked', text)
    assert re.search(r'<output data-total="0">26</output>', text)
    assert re.search(r"<output data-left>41</output>", text)
    # Without JavaScript the page opens on the counter, its counts open.
    assert re.search(r"<summary autofocus>", text)
    assert '<details class="counts" open>' in text
    # Saving that form stores the counted counts; Game goes to the side that counted more.
    saved = client.post(
        f"{url}/deals",
        data={**taps(), "csrf_token": token, "game_points-0": "26", "game_points-1": "14"},
    )
    assert saved.status_code == 303
    stored = client.get(f"/api/v1{url}/deals/1").get_json()
    assert stored["game_points"] == {"bidders": 26, "opponents": 14}
    # Bob and Di made 4 (High, Jack, Joker, Game); the others took Low and Off-jack.
    assert stored["scores"] == [2, 4, 2, 4, 2]


def test_saving_with_only_the_cards_tapped_stores_what_they_add_up_to(client):
    url, token = five_handed(client)
    saved = client.post(f"{url}/deals", data={**taps(), "csrf_token": token})
    assert saved.status_code == 303
    stored = client.get(f"/api/v1{url}/deals/1").get_json()
    assert stored["game_points"] == {"bidders": 26, "opponents": 14}


def test_counts_typed_that_the_cards_tapped_contradict_are_refused(client):
    url, token = five_handed(client)
    refused = client.post(
        f"{url}/deals",
        data={**taps(), "csrf_token": token, "game_points-0": "30", "game_points-1": "14"},
    )
    assert refused.status_code == 422
    assert "The cards tapped add up to 26, 14, not the counts typed" in html.unescape(refused.text)
    assert api_game(client, url)["deals"] == []


def test_a_side_the_counter_does_not_offer_is_refused(client):
    url, token = five_handed(client)
    refused = client.post(
        f"{url}/deals", data={**taps(), "csrf_token": token, "game_points_took_AS": "2"}
    )
    assert refused.status_code == 422
    assert api_game(client, url)["deals"] == []


def test_the_preview_scores_the_cards_tapped(client):
    url, token = five_handed(client)
    answer = client.post(
        f"{url}/preview", data=taps(), headers={"HX-Request": "true", "X-CSRFToken": token}
    )
    assert answer.status_code == 200
    text = html.unescape(answer.text)
    assert "Bob +4" in text and "Ann +2" in text
    assert "Game counted 26 for the bidders to 14 for the opponents." in text


def test_a_correction_counts_the_cards_too(client):
    url, token = five_handed(client)
    first = {**DEAL, "number": "1", "game": "opponents", "csrf_token": token}
    assert client.post(f"{url}/deals", data=first).status_code == 303
    edit = f"{url}/deals/1/edit"
    token = csrf(client.get(edit))
    answer = client.post(
        edit, data={**taps(game="opponents"), "csrf_token": token, "count_cards": "game_points"}
    )
    assert answer.status_code == 200
    assert shown_counts(answer.text, 2) == ["26", "14"]
    assert client.get(f"/api/v1{url}/deals/1").get_json()["game"] == "opponents"
    saved = client.post(edit, data={**taps(), "csrf_token": token})
    assert saved.status_code == 303
    stored = client.get(f"/api/v1{url}/deals/1").get_json()
    assert stored["game_points"] == {"bidders": 26, "opponents": 14}
