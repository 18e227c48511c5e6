"""No input reaches a 500: every route, pages and API, driven with arbitrary input.

Hypothesis fills each route's path with real ids and junk, and sends arbitrary query
strings, form fields, JSON bodies and headers (a real edit token or CSRF token often
enough to get past the checks that come first). Whatever it sends, the answer is never a
server error. The examples per route are few, so the whole run stays quick; a failure
prints the request that caused it.
"""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import BOTH, EXAMPLE_DEAL, make_app
from tests.tables_support import create_table, csrf_token, play, start_game

BACKENDS = BOTH
EXAMPLES = 25
"""Examples per route and method, drawn in four groups (API or pages, read or write)."""

QUERY_NAMES = ["page", "per_page", "player", "players_page", "ruleset", "outcome", "format",
               "next", "number"]  # fmt: skip
FORM_NAMES = [
    "number", "bidder", "bid", "trump", "called_rank", "called_suit", "partner", "high",
    "low", "jack", "off_jack", "joker", "game", "game_bidders", "game_opponents",
    "thrown_in", "auction-0", "auction-1", "name", "regulars", "ruleset", "first_dealer",
    "target", "players-0", "players-1", "players-2", "players-3", "players-4", "source",
    "target", "hr_joker_callable", "hr_unresolved_tie", "confirm", "file",
]  # fmt: skip
JSON_NAMES = [
    "ruleset", "players", "first_dealer", "target", "house_rules", "name", "from", "into",
    "number", "bidder", "bid", "trump", "called_card", "partner", "high", "low", "jack",
    "off_jack", "joker", "game", "game_points", "thrown_in", "auction",
]  # fmt: skip

texts = st.text(max_size=30)
header_texts = st.text(st.characters(min_codepoint=32, max_codepoint=255), max_size=40)
numbers_as_text = st.sampled_from(["0", "1", "2", "3", "-1", "²", "٣", "9" * 25, "1e9", " 1"])
junk = st.sampled_from(["\x00", "T\x7f", "\x1b[31m", "\u202eevil", "\u200b", "%", "../x"])
# A lone surrogate cannot be sent in a URL or a form (no UTF-8 for it), only in JSON.
json_texts = texts | st.just("T\ud800")
values = st.one_of(
    numbers_as_text,
    junk,
    texts,
    st.sampled_from(["H", "KH", "bidders", "true", "five-handed-schmier"]),
)
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | json_texts,
    lambda children: (
        st.lists(children, max_size=5)
        | st.dictionaries(st.sampled_from(JSON_NAMES) | texts, children, max_size=5)
    ),
    max_leaves=15,
)


@pytest.fixture
def world(app, client):
    """A table with regulars, a game at it with deals, edit rights held by the client."""
    table = create_table(client, "Club", ["Ann", "Bob", "Cy", "Di", "Ed"])
    game = start_game(client, table)
    play(client, game, [EXAMPLE_DEAL, EXAMPLE_DEAL | {"bidder": 2, "partner": 4}])
    client.get(f"/games/{game['id']}/edit/{game['edit_token']}")
    client.get(f"/tables/{table['id']}/edit/{table['edit_token']}")
    player_id = table["players"][0]["id"]
    return {
        "game_id": [game["id"]],
        "table_id": [table["id"]],
        "number": ["1", "2", "3"],
        "player_id": [str(player_id)],
        "token": [game["edit_token"], table["edit_token"]],
        "code": ["en", "de", "fr"],
        "filename": ["site.css", "htmx-2.0.11.min.js"],
        "csrf": csrf_token(client.get("/games/new").text),
        "tokens": [game["edit_token"], table["edit_token"]],
    }


def routes() -> dict[str, list[tuple[str, str]]]:
    """Return every route of the app but the static files, as (rule, method), by group."""
    app = make_app()
    groups: dict[str, list[tuple[str, str]]] = {}
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            area = "api" if rule.rule.startswith("/api/") else "pages"
            kind = "read" if method == "GET" else "write"
            groups.setdefault(f"{area}-{kind}", []).append((rule.rule, method))
    return groups


ROUTES = routes()


def fill(rule: str, draw, world) -> str:
    """Return the rule's path with each parameter a real value or junk."""

    def value(match):
        name = match.group("name")
        real = world.get(name, [])
        if real and draw(st.integers(0, 3)):  # mostly real ids, so the views run
            choice = draw(st.sampled_from(real))
        else:
            choice = draw(st.one_of(numbers_as_text, junk, texts))
        return quote(choice, safe="") or "x"

    return re.sub(r"<(?:[a-z]+:)?(?P<name>[a-z_]+)>", value, rule)


@pytest.mark.parametrize("group", sorted(ROUTES))
def test_no_input_answers_500(world, client, group):
    chosen = ROUTES[group]

    @settings(
        max_examples=EXAMPLES * len(chosen),
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(data=st.data())
    def run(data):
        draw = data.draw
        rule, method = draw(st.sampled_from(chosen))
        path = fill(rule, draw, world)
        query = draw(st.dictionaries(st.sampled_from(QUERY_NAMES), values, max_size=3))
        headers = {}
        if draw(st.booleans()):
            token = draw(st.sampled_from(world["tokens"]) | header_texts)
            headers["Authorization"] = f"Bearer {token}"
        if draw(st.booleans()):
            headers["HX-Request"] = "true"
        if draw(st.booleans()):
            headers["X-Device"] = draw(header_texts)
        kwargs = {"query_string": query, "headers": headers}
        if method != "GET":
            if path.startswith("/api/"):
                kind = draw(st.sampled_from(["json", "raw"]))
                if kind == "json":
                    kwargs["json"] = draw(json_values)
                else:
                    kwargs["data"] = draw(st.binary(max_size=200))
            else:
                form = draw(
                    st.dictionaries(st.sampled_from(FORM_NAMES) | texts, values, max_size=8)
                )
                if draw(st.integers(0, 3)):
                    form["csrf_token"] = world["csrf"]
                kwargs["data"] = form
        response = client.open(path, method=method, **kwargs)
        assert response.status_code < 500, (method, path, kwargs, response.text[:500])

    run()
