"""The page of a game started on a phone with no connection (`/offline/games/<ruleset>`).

It carries the deal entry of every setup of its ruleset, names left as marks; the phone
writes in the game's names and id (static/made-here.js). Written in as the phone does,
each is the very deal entry the server's own page shows for that game once it is started;
and the bridge (scorekeeper/phone.py) reads the new-game fields kept as the server does.
"""

import functools
import html
import itertools
import json
import re

import pytest

from scorekeeper import engine, phone
from scorekeeper.web.offline import MADE_HERE_ID, seat_mark
from tests.conftest import make_app
from tests.test_pages_rulesets import api_game, encode, start

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]
TOKEN = re.compile(r'name="csrf_token" value="[^"]+"')


def entries(client, ruleset_id):
    answer = client.get(f"/offline/games/{ruleset_id}")
    assert answer.status_code == 200
    found = re.search(
        r'<script type="application/json" id="made-here-entries">(.*?)</script>', answer.text, re.S
    )
    assert found, "the page carries its deal entries"
    return answer.text, json.loads(found.group(1))


@functools.cache
def made_here_entries(ruleset_id):
    """Return a ruleset's offline page's deal entries, asked once per test process (the
    page renders every setup of its ruleset: most of a second for the larger ones) of an app
    of its own; the tests compare them with their client's pages, CSRF tokens left out."""
    return entries(make_app().test_client(), ruleset_id)[1]


def written_in(data, setup, names, game_id):
    """Return the deal entry of this setup with the names and id written in, as
    static/made-here.js writes them."""
    variant = next(v for v in data["variants"] if setup in v["setups"])
    lines = data["bases"][variant["base"]].split("\n")
    for first, end, instead in reversed(variant["patch"]):
        lines[first:end] = instead
    text = "\n".join(lines).replace(f"/{MADE_HERE_ID}/", f"/{game_id}/")
    text = re.sub("\u27e6(\\d+)\u27e7", lambda found: html.escape(names[int(found.group(1))]), text)

    # A chip is wide for a long label, as the server makes it (the names are written in).
    def wide(found):
        value = re.search(r'value="([^"]*)"', found.group(2)).group(1)
        label = re.search(r'<span class="suit-name">(.*?)</span>', found.group(3))
        shown = html.unescape(re.sub(r"<[^>]+>", "", (label or found).group(1 if label else 3)))
        classes = "chip chip-wide" if value in ("none", "random") or len(shown) > 12 else "chip"
        return f'<label class="{classes}">{found.group(2)}{found.group(3)}</span>'

    return re.sub(
        r'<label class="chip( chip-wide)?">(\s*<input[^>]*>\s*<span>)(.*?)</span>', wide, text
    )


def deal_entry(page):
    """Return the deal entry section of a page, its CSRF token left out."""
    found = re.search(r'<section id="deal-entry".*?</section>', page, re.S)
    assert found
    return TOKEN.sub('name="csrf_token"', found.group(0))


def some_setups(ruleset):
    """Each seat count with the default house rules, and each house rule's other values."""
    defaults = {name: rule.default for name, rule in ruleset.house_rules.items()}
    for seats in range(ruleset.min_players, ruleset.max_players + 1):
        yield seats, defaults
    for name, rule in ruleset.house_rules.items():
        for value in rule.values:
            if value != rule.default:
                yield ruleset.max_players, {**defaults, name: value}


SETUPS = [
    (ruleset.id, seats, house_rules)
    for ruleset in engine.rulesets()
    for seats, house_rules in some_setups(ruleset)
]


@pytest.mark.parametrize(
    ("ruleset_id", "seats", "house_rules"),
    SETUPS,
    ids=[f"{r}-{s}-{'-'.join(map(str, h.values()))}" for r, s, h in SETUPS],
)
def test_the_phone_shows_the_deal_entry_the_server_shows_for_that_game(
    client, ruleset_id, seats, house_rules
):
    names = NAMES[:seats]
    data = made_here_entries(ruleset_id)
    url = start(client, ruleset_id, names, 0, None, house_rules)
    game_id = url.rsplit("/", 1)[1]
    server = deal_entry(client.get(url).text)
    setup = " ".join([str(seats), *(encode(v) for v in house_rules.values())])
    assert deal_entry(written_in(data, setup, names, game_id)) == server


def test_every_setup_of_every_ruleset_has_its_deal_entry():
    for ruleset in engine.rulesets():
        data = made_here_entries(ruleset.id)
        rules = list(ruleset.house_rules.values())
        for seats in range(ruleset.min_players, ruleset.max_players + 1):
            for values in itertools.product(*(rule.values for rule in rules)):
                setup = " ".join([str(seats), *(encode(v) for v in values)])
                assert sum(setup in v["setups"] for v in data["variants"]) == 1, setup


def test_the_page_carries_this_browsers_token_and_works_as_a_plain_page(client):
    page, data = entries(client, "shmear")
    token = re.search(r'"X-CSRFToken": "([^"]+)"', page).group(1)
    assert f'value="{token}"' in data["bases"][0]
    # No "<" inside the script block closes it before its end.
    assert page.count("</script>") == page.count("<script")
    assert "<noscript>" in page
    assert client.get("/offline/games/no-such-game").status_code == 404


@pytest.mark.parametrize("example", ["five-handed-schmier", "six-handed-schmier", "shmear-kitty"])
def test_the_bridge_reads_a_kept_new_game_as_the_server_does(client, example):
    ruleset = engine.get_ruleset(example)
    house_rules = {
        name: next(v for v in rule.values if v != rule.default)
        for name, rule in ruleset.house_rules.items()
    }
    names = NAMES[: ruleset.max_players]
    fields = {"ruleset": example, "first_dealer": "2", "target": "21"}
    fields.update({f"players-{seat}": f" {name} " for seat, name in enumerate(names)})
    fields.update({f"hr_{name}": encode(value) for name, value in house_rules.items()})
    url = start(client, example, names, 2, 21, house_rules)
    stored = api_game(client, url)
    read = phone.setup_of({name: [value] for name, value in fields.items()})
    assert read["players"] == [p["name"] for p in stored["players"]]
    assert (read["ruleset"], read["first_dealer"], read["target"]) == (
        stored["ruleset"],
        stored["first_dealer"],
        stored["target"],
    )
    assert read["house_rules"] == stored["house_rules"]

    # The target left as the form showed it is the game's own; an empty last seat is no seat.
    bridge = phone.start()
    fields.update({"target": str(ruleset.target), "target_shown": str(ruleset.target)})
    board = json.loads(bridge.made_here("x" * 16, json.dumps(list(fields.items()))))
    assert board["number"] == 1
    assert board["dealer"] == names[2]
    assert all(side["score"] == 0 for side in board["sides"])
    assert phone.setup_of({"ruleset": ["shmear"], "players-3": [""], "players-0": ["A"]})[
        "players"
    ] == ["A", "", ""]
    assert seat_mark(0) not in board["turn"]


def test_an_app_under_a_prefix_is_given_its_own_deal_entries(client):
    """The entries are kept once worked out, by each app: those of an app at the top of
    the site (worked out first, in the same process) are not given to an app mounted under
    a prefix, whose deals would then post outside it and be refused."""
    action = f"/games/{MADE_HERE_ID}/deals"
    top = client.get("/offline/games/shmear").text
    assert f'action=\\"{action}\\"' in top
    prefixed = make_app(APPLICATION_ROOT="/scores").test_client()
    page = prefixed.get("/offline/games/shmear", base_url="http://localhost/scores").text
    assert f'action=\\"/scores{action}\\"' in page
    assert f'action=\\"{action}\\"' not in page
