"""scorekeeper/phone.py, the engine's bridge on the phone, run here on CPython.

Every worked game of tests/data/ through the deal form: for each deal, the bridge's
preview of the form's fields equals the server's preview, byte for byte (the same template
rendered from the same context), and the bridge's
game after the deals kept equals the game the server stores once they are saved. The same
module runs in Pyodide in tests/browser/test_phone_engine.py.
"""

import html
import json
import re
from pathlib import Path

import pytest
from markupsafe import escape
from werkzeug.datastructures import MultiDict
from wtforms.i18n import messages_path

from scorekeeper import engine, phone
from scorekeeper.http.languages import LANGUAGES
from scorekeeper.web.i18n import TRANSLATIONS
from tests import quick
from tests.quick import sample
from tests.test_pages import csrf
from tests.test_pages_rulesets import GAMES, api_game, form_fields, post_deal, start, start_worked


def taps_of(example, entry, number):
    """Return the form's fields as the page posts them: a flag's button, else the deal form."""
    flag = next((k for k in ("thrown_in", "forfeit") if entry.get(k)), None)
    data = {flag: "1"} if flag else form_fields(example["ruleset"], entry)
    return [["number", str(number)], *([k, v] for k, v in data.items())]


def text_of(fragment):
    """Return an answer's text, its tags dropped and its spaces made single."""
    without = re.sub(r"<[^>]+>", " ", fragment)
    return re.sub(r"\s+", " ", html.unescape(without)).replace(" ,", ",").strip()


def server_preview(client, url, taps):
    token = csrf(client.get(url))
    data = MultiDict([(k, v) for k, v in taps] + [("csrf_token", token)])
    answer = client.post(f"{url}/preview", data=data, headers={"HX-Request": "true"})
    assert answer.status_code == 200
    return answer.text


@pytest.mark.parametrize(
    "example", sample(GAMES), ids=[f"{game['ruleset']}: {game['about']}" for game in sample(GAMES)]
)
def test_every_worked_game_scores_on_the_bridge_as_on_the_server(client, example):
    url = start_worked(client, example)
    game_id = url.rsplit("/", 1)[1]
    bridge = phone.start()
    bridge.load(client.get(f"{url}/export.json").text)
    kept = []
    for number, entry in enumerate(example["deals"], start=1):
        taps = taps_of(example, entry, number)
        offline = bridge.preview(game_id, json.dumps(kept), json.dumps(taps))
        if not any(entry.get(k) for k in ("thrown_in", "forfeit")):
            assert offline == server_preview(client, url, taps), number
        kept.append(taps)
        played = json.loads(bridge.play(game_id, json.dumps(kept)))
        assert post_deal(client, url, example["ruleset"], entry, number).status_code in (200, 303)
        stored = api_game(client, url)
        assert "refused" not in played["deals"][-1], played["deals"][-1]
        if not any(entry.get(k) for k in ("thrown_in", "forfeit")):
            # Kept, the deal says what it scored as the preview said it would, and why.
            # (The preview's empty refusal boxes for the folded sections are not a score's.)
            score = offline.replace("\n  <strong>If saved:</strong>", "", 1)
            assert played["deals"][-1]["score"] == score.split('\n<div id="', 1)[0], number
        assert played["outcome"] == stored["explanation"]
        assert played["finished"] == (stored["status"] != "in_progress")
        assert played["dealer"] == stored["players"][stored["next_dealer"]]["name"]
        scores = {p["name"]: p["score"] for p in stored["players"]}
        for side in played["sides"]:
            seat_names = [n for n in scores if n in side["label"].split(" & ")[0].split(", ")]
            assert side["score"] == scores[seat_names[0]]


LONG = [game for game in GAMES if len(game["deals"]) > phone.RECENT + 1]
"""Worked games longer than the deals `load` scores, one of each ruleset."""
LONG = list({game["ruleset"]: game for game in LONG}.values())


@pytest.mark.parametrize("example", LONG, ids=[game["ruleset"] for game in LONG])
def test_the_game_loaded_from_its_document_is_the_servers_page_of_it(client, example):
    """What a page kept before the last deals shows from the phone's record: the
    scoreboard's line, and the last deals stored scored as the kept ones are."""
    url = start_worked(client, example)
    bridge = phone.start()
    deals = example["deals"][: phone.RECENT + 2]
    all_taps = [taps_of(example, entry, n) for n, entry in enumerate(deals, start=1)]
    for number, entry in enumerate(deals, start=1):
        assert post_deal(client, url, example["ruleset"], entry, number).status_code in (200, 303)
        board = json.loads(bridge.load(client.get(f"{url}/export.json").text))
        page = client.get(url).text
        meta = re.search(r'class="scoreboard-head">.*?<p class="meta">(.*?)</p>', page, re.S)
        assert meta is not None
        assert board["meta"] == meta.group(1).strip(), number
        assert board["number"] == number + 1
        numbers = [deal["number"] for deal in board["recent"]]
        assert numbers == list(range(max(number - phone.RECENT, 0) + 1, number + 1))
    # Each deal stored, scored as it was when the same deals were kept on the phone.
    empty = json.loads(client.get(f"{url}/export.json").text)
    empty["games"][0].update(id="empty", deals=[])
    bridge.load(json.dumps(empty))
    kept = json.loads(bridge.play("empty", json.dumps(all_taps)))["deals"]
    recent, mine = board["recent"], kept[-len(board["recent"]) :]
    assert [deal["number"] for deal in recent] == [deal["number"] for deal in mine]
    for stored, deal in zip(recent, mine, strict=True):
        assert as_kept(stored["html"]) == deal["html"], deal["number"]


def as_kept(item):
    """Return a deal of the phone's history, stored, as it shows it kept (in English)."""
    return (
        item.replace('id="learnt-', 'id="kept-')
        .replace('class="deal ', 'class="deal is-kept ', 1)
        .replace("</span></h3>", " · kept on this phone, not sent yet</span></h3>", 1)
    )


def test_a_refused_deal_is_refused_with_the_servers_words(client):
    example = GAMES[0]
    url = start(client, example["ruleset"], example["players"], 0, example["target"])
    game_id = url.rsplit("/", 1)[1]
    bridge = phone.start()
    bridge.load(client.get(f"{url}/export.json").text)
    entry = {**example["deals"][1], "partner": example["deals"][1]["bidder"]}
    taps = taps_of(example, entry, 1)
    offline = bridge.preview(game_id, "[]", json.dumps(taps))
    assert 'class="preview-problems"' in offline
    assert offline == server_preview(client, url, taps)
    checked = json.loads(bridge.check(game_id, "[]", json.dumps(taps)))
    assert checked["ok"] is False
    assert "partner" in checked["fields"]
    half = [t for t in taps if not t[0].startswith("game_points-1")]
    assert bridge.preview(game_id, "[]", json.dumps(half)) == server_preview(client, url, half)


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
    offline = bridge.preview(game_id, "[]", json.dumps(taps))
    assert offline == server_preview(client, url, taps)
    assert "Game counted 15 for the bidders to 13 for the opponents." in text_of(offline)
    typed = [*taps, ["game_points-0", "20"], ["game_points-1", "13"]]
    refused = bridge.preview(game_id, "[]", json.dumps(typed))
    assert refused == server_preview(client, url, typed)
    assert "The cards tapped add up to 15, 13, not the counts typed" in text_of(refused)


def phone_in(language):
    """Return the bridge in a language, with the catalogs the phone's bundle holds."""
    if language == "en":
        return phone.start()
    folder = TRANSLATIONS / language / "LC_MESSAGES"
    forms = Path(messages_path()) / language / "LC_MESSAGES" / "wtforms.mo"
    return phone.start(
        (folder / "messages.mo").read_bytes(), forms.read_bytes() if forms.is_file() else None
    )


def test_the_bridge_takes_its_catalogs_as_the_worker_hands_them():
    """The worker hands each catalog as Pyodide makes a Uint8Array, a memoryview of a
    writable buffer: the phone speaks its language, made once for every phone started in it."""
    folder = TRANSLATIONS / "de" / "LC_MESSAGES"
    forms = Path(messages_path()) / "de" / "LC_MESSAGES" / "wtforms.mo"
    handed = [memoryview(bytearray(f.read_bytes())) for f in (folder / "messages.mo", forms)]
    first, second = phone.start(*handed), phone.start(*handed)
    assert first.words.catalog.gettext("Save deal") == "Spiel speichern"
    assert first.words is second.words is phone_in("de").words


FIRST_OF_EACH = list({game["ruleset"]: game for game in reversed(GAMES)}.values())


def test_every_ruleset_has_a_worked_game():
    assert {g["ruleset"] for g in FIRST_OF_EACH} == {r.id for r in engine.rulesets()}


def problems_in(fragment):
    """Return how many things a preview says are wrong: its list's items, "and N more" read."""
    items = re.findall(r"<li>(.*?)</li>", fragment.split('class="preview-problems"', 1)[-1])
    if 'class="preview-problems"' not in fragment:
        return 0
    return len(items) if len(items) < 2 else 1 + int(re.search(r"\d+", items[1]).group())


def first_deal_both_ways(client, example, language):
    """Start the worked game's ruleset on the server and on the bridge, both in the
    language; return the game's URL and id, the bridge, and its first played deal's taps."""
    url = start(client, example["ruleset"], example["players"], 0, example["target"])
    bridge = phone_in(language)
    bridge.load(client.get(f"{url}/export.json").text)
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    deal = next(d for d in example["deals"] if not any(d.get(k) for k in ("thrown_in", "forfeit")))
    return url, url.rsplit("/", 1)[1], bridge, taps_of(example, deal, 1)


@pytest.mark.parametrize("language", list(LANGUAGES))
@pytest.mark.parametrize("example", FIRST_OF_EACH, ids=[g["ruleset"] for g in FIRST_OF_EACH])
def test_the_phone_renders_the_servers_preview_with_none_one_and_many_problems(
    client, example, language
):
    """The first deal tapped whole (no problem), then with fields left out, one at a time
    from the end, until one thing is wrong and then many: each preview, the phone's and
    the server's, the same HTML."""
    url, game_id, bridge, whole = first_deal_both_ways(client, example, language)
    counts = set()
    for end in range(len(whole), 1, -1):
        taps = whole[:end]
        offline = bridge.preview(game_id, "[]", json.dumps(taps))
        assert offline == server_preview(client, url, taps), taps
        counts.add(min(problems_in(offline), 2))
    assert 'class="preview-line"' in bridge.preview(game_id, "[]", json.dumps(whole))
    assert counts >= {1, 2}, counts  # one thing wrong, and many ("and N more")
    if language != "en":  # in the page's language, not the words as written
        assert "If saved:" not in bridge.preview(game_id, "[]", json.dumps(whole))


def refusal_lists(page):
    """Return a page's refusal lists: each field's by its id, and the form's own ("")."""
    found = {
        m.group(1): m.group(0)
        for m in re.finditer(r'<ul class="field-errors" id="([^"]+)-errors">.*?</ul>', page, re.S)
    }
    top = re.search(r'<div class="form-errors" role="alert">.*?</div>', page, re.S)
    if top:
        found[""] = top.group(0)
    return found


@pytest.mark.parametrize("language", list(LANGUAGES))
@pytest.mark.parametrize("example", FIRST_OF_EACH, ids=[g["ruleset"] for g in FIRST_OF_EACH])
def test_a_save_the_phone_refuses_is_refused_with_the_servers_lists(client, example, language):
    """A Save offline that the rules refuse (a deal half entered: many refusals; a count
    that is not a number: one) is said as the server's refused form says it, field by
    field: the same lists, from the same macros, in the page's language."""
    url, game_id, bridge, whole = first_deal_both_ways(client, example, language)
    counts = next((n for n, _ in whole if re.fullmatch(r"\w+-0", n) and "points" in n), None)
    cases = [whole[:2], whole[:-1]]
    if counts is not None:
        cases.append([[n, "x" if n == counts else v] for n, v in whole])
    shown = set()
    for taps in cases:
        checked = json.loads(bridge.check(game_id, "[]", json.dumps(taps)))
        assert checked["ok"] is False, taps
        token = csrf(client.get(url))
        data = MultiDict([*taps, ("csrf_token", token)])
        answer = client.post(f"{url}/deals", data=data, headers={"HX-Request": "true"})
        assert answer.status_code == 422
        server = refusal_lists(answer.text)
        phone_lists = {name: html.strip() for name, html in checked["fields"].items()}
        if checked["top"]:
            phone_lists[""] = checked["top"].strip()
        assert phone_lists == {name: server[name] for name in phone_lists}, taps
        assert set(server) <= set(phone_lists) | {f"{n}-{i}" for n in phone_lists for i in range(9)}
        shown.add(len(phone_lists))
    assert max(shown) > 1  # a deal half entered is refused beside several fields


def page_line(page, pattern):
    """Return the HTML inside the first element a pattern finds in a page."""
    found = re.search(pattern, page, re.S)
    assert found is not None, pattern
    return found.group(1).strip()


# Every ruleset in every language; in the quick loop, each ruleset in one of them, in turn.
SPOKEN = [
    pytest.param(example, language, id=f"{example['ruleset']}-{language}")
    for index, example in enumerate(FIRST_OF_EACH)
    for language in ([list(LANGUAGES)[index % len(LANGUAGES)]] if quick.QUICK else list(LANGUAGES))
]


@pytest.mark.parametrize(("example", "language"), SPOKEN)
def test_the_phone_says_whose_turn_and_how_the_game_stands_as_the_server(client, example, language):
    """Whose turn and the scoreboard's line (templates/macros/game.html), in each language,
    before the first deal and after each of the next two: the phone's words are the server's."""
    url = start_worked(client, example)
    bridge = phone_in(language)
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    for number, entry in enumerate([None, *example["deals"][:2]]):
        if entry is not None:
            assert post_deal(client, url, example["ruleset"], entry, number).status_code in (
                200,
                303,
            )
        board = json.loads(bridge.load(client.get(f"{url}/export.json").text))
        page = client.get(url).text
        assert board["meta"] == page_line(
            page, r'class="scoreboard-head">.*?<p class="meta">(.*?)</p>'
        )
        if not board["finished"]:
            assert board["turn"] == page_line(page, r"<p class=\"turn-line\" data-turn>(.*?)</p>")


def history_item(page, number):
    """Return deal `number` of a game page's history: its whole `<li>`, nested lists and all."""
    start = page.index(f'<li id="deal-{number}"')
    depth, at = 0, start
    for tag in re.finditer(r"<(/?)li\b", page[start:]):
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            at = start + tag.start()
            break
    return page[start : page.index(">", at) + 1]


@pytest.mark.parametrize(("example", "language"), SPOKEN)
def test_the_phone_shows_a_deal_in_the_history_as_the_servers_page(client, app, example, language):
    """The first three deals of a worked game, kept on the phone and stored on the server:
    each deal of the phone's history (a deal kept; a deal stored that a page kept before it
    lacks) is the server's own item of the game page's history, as a viewer sees it, but
    for its id and, kept, its "not sent yet"."""
    url = start_worked(client, example)
    bridge = phone_in(language)
    viewer = app.test_client()
    viewer.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    deals = example["deals"][:3]
    taps = [taps_of(example, entry, n) for n, entry in enumerate(deals, start=1)]
    for number, entry in enumerate(deals, start=1):
        assert post_deal(client, url, example["ruleset"], entry, number).status_code in (200, 303)
    export = client.get(f"{url}/export.json").text
    stored = json.loads(bridge.load(export))["recent"]
    empty = json.loads(export)
    empty["games"][0].update(id="empty", deals=[])
    bridge.load(json.dumps(empty))
    kept = json.loads(bridge.play("empty", json.dumps(taps)))["deals"]
    page = viewer.get(url).text
    not_sent = escape(" · " + bridge.words("kept on this phone, not sent yet"))
    for number in range(1, len(deals) + 1):
        server = history_item(page, number)
        assert "deal-actions" not in server
        learnt = stored[number - 1]["html"]
        assert learnt == server.replace('id="deal-', 'id="learnt-deal-').replace(
            'id="why-', 'id="learnt-why-'
        ), number
        assert kept[number - 1]["html"] == (
            server.replace('id="deal-', 'id="kept-deal-')
            .replace('id="why-', 'id="kept-why-')
            .replace('class="deal ', 'class="deal is-kept ')
            .replace("</span></h3>", f"{not_sent}</span></h3>", 1)
        ), number


def board_rows(fragment):
    """Return a scoreboard's rows: name, score, and whether its side deals next."""
    rows = re.findall(r'<li class="score-row([^"]*)">(.*?)</li>', fragment, re.S)
    return [
        (
            re.search(r'<span class="name">(.*?)</span>', row).group(1),
            re.search(r'<span class="score">(.*?)</span>', row).group(1),
            "is-dealer" in classes,
        )
        for classes, row in rows
    ]


@pytest.mark.parametrize(("example", "language"), SPOKEN)
def test_the_phones_board_after_the_deals_kept_is_the_servers_scoreboard_after_them(
    client, app, example, language
):
    """The first three deals of a worked game kept on the phone: its board says, in the
    page's language, every side's score and who deals next as the server's scoreboard
    says them once the same deals are stored."""
    url = start_worked(client, example)
    bridge = phone_in(language)
    bridge.load(client.get(f"{url}/export.json").text)
    deals = example["deals"][:3]
    taps = [taps_of(example, entry, n) for n, entry in enumerate(deals, start=1)]
    played = json.loads(bridge.play(url.rsplit("/", 1)[1], json.dumps(taps)))
    for number, entry in enumerate(deals, start=1):
        assert post_deal(client, url, example["ruleset"], entry, number).status_code in (200, 303)
    viewer = app.test_client()
    viewer.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    page = viewer.get(url).text
    scoreboard = page.split('id="scoreboard"', 1)[1].split("</section>", 1)[0]
    board = played["board_html"]
    assert board_rows(board) == board_rows(scoreboard)
    assert f"<h3>{escape(bridge.words('On this phone, with the deals not sent yet'))}</h3>" in board
    assert escape(played["outcome"]) in board
