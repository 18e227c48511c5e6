"""scorekeeper/phone.py, the engine's bridge on the phone, run here on CPython.

Every worked game of tests/data/ through the deal form: for each deal, the bridge's
preview of the form's fields equals the server's preview, word for word, and the bridge's
game after the deals kept equals the game the server stores once they are saved. The same
module runs in Pyodide in tests/browser/test_phone_engine.py.
"""

import html
import json
import re

import pytest
from werkzeug.datastructures import MultiDict

from scorekeeper import phone
from scorekeeper.web.i18n import TRANSLATIONS
from tests.test_pages import csrf
from tests.test_pages_rulesets import GAMES, api_game, form_fields, post_deal, start


def taps_of(example, entry, number):
    """Return the form's fields as the page posts them: a flag's button, else the deal form."""
    flag = next((k for k in ("thrown_in", "forfeit") if entry.get(k)), None)
    data = {flag: "1"} if flag else form_fields(example["ruleset"], entry)
    return [["number", str(number)], *([k, v] for k, v in data.items())]


def rendered(preview):
    """Return the bridge's preview as templates/games/_preview.html writes it (text only)."""
    if preview["kind"] == "result":
        if preview["thrown_in"]:
            line = f"{preview['if_saved']} {preview['thrown_in']}"
        else:
            sides = ", ".join(f"{s['label']} {s['delta']} {s['to']}" for s in preview["sides"])
            line = f"{preview['if_saved']} {preview['said']} — {sides}"
        return " ".join([line, preview["why_title"], *preview["why"]])
    if preview["kind"] == "problems":
        return " ".join([*preview["problems"], *([preview["more"]] if preview["more"] else [])])
    return ""


def text_of(fragment):
    """Return an answer's text, its tags dropped and its spaces made single."""
    without = re.sub(r"<[^>]+>", " ", fragment)
    return re.sub(r"\s+", " ", html.unescape(without)).replace(" ,", ",").strip()


def server_preview(client, url, taps):
    token = csrf(client.get(url))
    data = MultiDict([(k, v) for k, v in taps] + [("csrf_token", token)])
    answer = client.post(f"{url}/preview", data=data, headers={"HX-Request": "true"})
    assert answer.status_code == 200
    return text_of(answer.text)


@pytest.mark.parametrize(
    "example", GAMES, ids=[f"{game['ruleset']}: {game['about']}" for game in GAMES]
)
def test_every_worked_game_scores_on_the_bridge_as_on_the_server(client, example):
    url = start(
        client,
        example["ruleset"],
        example["players"],
        example["first_dealer"],
        example["target"],
        example["house_rules"],
    )
    game_id = url.rsplit("/", 1)[1]
    bridge = phone.start()
    bridge.load(client.get(f"{url}/export.json").text)
    kept = []
    for number, entry in enumerate(example["deals"], start=1):
        taps = taps_of(example, entry, number)
        offline = json.loads(bridge.preview(game_id, json.dumps(kept), json.dumps(taps)))
        if not any(entry.get(k) for k in ("thrown_in", "forfeit")):
            assert rendered(offline) == server_preview(client, url, taps), number
        kept.append(taps)
        played = json.loads(bridge.play(game_id, json.dumps(kept)))
        assert post_deal(client, url, example["ruleset"], entry, number).status_code in (200, 303)
        stored = api_game(client, url)
        assert "refused" not in played["deals"][-1], played["deals"][-1]
        assert played["outcome"] == stored["explanation"]
        assert played["finished"] == (stored["status"] != "in_progress")
        assert played["dealer"] == stored["players"][stored["next_dealer"]]["name"]
        scores = {p["name"]: p["score"] for p in stored["players"]}
        for side in played["sides"]:
            seat_names = [n for n in scores if n in side["label"].split(" & ")[0].split(", ")]
            assert side["score"] == scores[seat_names[0]]


def test_a_refused_deal_is_refused_with_the_servers_words(client):
    example = GAMES[0]
    url = start(client, example["ruleset"], example["players"], 0, example["target"])
    game_id = url.rsplit("/", 1)[1]
    bridge = phone.start()
    bridge.load(client.get(f"{url}/export.json").text)
    entry = {**example["deals"][1], "partner": example["deals"][1]["bidder"]}
    taps = taps_of(example, entry, 1)
    offline = json.loads(bridge.preview(game_id, "[]", json.dumps(taps)))
    assert offline["kind"] == "problems"
    assert rendered(offline) == server_preview(client, url, taps)
    checked = json.loads(bridge.check(game_id, "[]", json.dumps(taps)))
    assert checked["ok"] is False
    assert "partner" in checked["fields"]
    half = [t for t in taps if not t[0].startswith("game_points-1")]
    assert rendered(json.loads(bridge.preview(game_id, "[]", json.dumps(half)))) == (
        server_preview(client, url, half)
    )


def test_the_card_counter_scores_on_the_phone_as_on_the_server(client):
    example = next(g for g in GAMES if g["ruleset"] == "five-handed-schmier")
    url = start(client, example["ruleset"], example["players"], 0, example["target"])
    game_id = url.rsplit("/", 1)[1]
    bridge = phone.start()
    bridge.load(client.get(f"{url}/export.json").text)
    entry = {k: v for k, v in example["deals"][1].items() if k not in ("game", "game_points")}
    # The bidders took 10♥ A♥ and the joker (15); the opponents 10♠ K♣ (13).
    cards = {"10H": "0", "AH": "0", "JOKER": "0", "10S": "1", "KC": "1"}
    taps = taps_of(example, entry, 1) + [[f"game_points_took_{c}", s] for c, s in cards.items()]
    offline = json.loads(bridge.preview(game_id, "[]", json.dumps(taps)))
    assert rendered(offline) == server_preview(client, url, taps)
    assert "Game counted 15 for the bidders to 13 for the opponents." in rendered(offline)
    typed = [*taps, ["game_points-0", "20"], ["game_points-1", "13"]]
    refused = json.loads(bridge.preview(game_id, "[]", json.dumps(typed)))
    assert rendered(refused) == server_preview(client, url, typed)
    assert "The cards tapped add up to 15, 13, not the counts typed" in rendered(refused)


FIRST_OF_EACH = list({game["ruleset"]: game for game in reversed(GAMES)}.values())


@pytest.mark.parametrize("language", ["en", "de", "fr", "id"])
@pytest.mark.parametrize("example", FIRST_OF_EACH, ids=[g["ruleset"] for g in FIRST_OF_EACH])
def test_the_phone_words_none_one_and_many_problems_as_the_server(client, example, language):
    """The first deal tapped whole, without its last field, and with its first field only."""
    url = start(client, example["ruleset"], example["players"], 0, example["target"])
    game_id = url.rsplit("/", 1)[1]
    catalog = None
    if language != "en":
        catalog = (TRANSLATIONS / language / "LC_MESSAGES" / "messages.mo").read_bytes()
    bridge = phone.start(catalog)
    bridge.load(client.get(f"{url}/export.json").text)
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    deal = next(d for d in example["deals"] if not any(d.get(k) for k in ("thrown_in", "forfeit")))
    whole = taps_of(example, deal, 1)
    kinds = []
    for taps in (whole, whole[:-1], whole[:2]):
        offline = json.loads(bridge.preview(game_id, "[]", json.dumps(taps)))
        assert rendered(offline) == server_preview(client, url, taps), taps
        kinds.append((offline["kind"], bool(offline.get("more"))))
    assert kinds[0] == ("result", False)
    assert kinds[2] == ("problems", True)  # several things still to enter: one shown, a count
