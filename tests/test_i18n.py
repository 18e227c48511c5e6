"""The pages in French, German and Indonesian: choosing the language, and complete catalogs."""

import ast
import dataclasses
import functools
import html
import json
import os
import re
import tempfile
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import quote

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from scorekeeper import engine
from scorekeeper.http import languages
from scorekeeper.web import i18n
from tests.test_pages import BOB, DEAL_1_WRONG, group, post_deal, start_game

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "scorekeeper" / "engine"
WORKED_GAMES = [
    game
    for name in ("five-handed-games.json", "other-rulesets-games.json")
    for game in json.loads((ROOT / "tests" / "data" / name).read_text("utf-8"))
]
TRANSLATED = sorted(code for code in languages.LANGUAGES if code != languages.DEFAULT)
PLACEHOLDER = re.compile(r"%(?:\((\w+)\))?[-#0 +]*\d*(?:\.\d+)?([diouxXeEfFgGcrs%])")


@functools.cache
def catalog(code):
    """Return the parsed catalog of one language (read once per test run)."""
    with open(i18n.TRANSLATIONS / code / "LC_MESSAGES" / "messages.po", "rb") as f:
        return read_po(f, locale=code)


def translated(code, msgid):
    """Return the translation of one message, as the pages should show it."""
    return catalog(code)[msgid].string


def placeholders(text):
    """Return the Python %-placeholders of a message, e.g. {("name", "s"), (None, "%")}."""
    return {match.groups() for match in PLACEHOLDER.finditer(text)}


@pytest.fixture(scope="session", autouse=True)
def compiled_catalogs():
    """Compile any catalog whose .mo is missing or stale, so a fresh clone's pytest works."""
    for po in i18n.TRANSLATIONS.glob("*/LC_MESSAGES/messages.po"):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with open(po, "rb") as f:
            compiled = read_po(f, locale=po.parent.parent.name)
        # Write aside, then move into place: a concurrent run never reads half a file.
        fd, tmp = tempfile.mkstemp(dir=po.parent, suffix=".mo.tmp")
        with os.fdopen(fd, "wb") as f:
            write_mo(f, compiled)
        os.replace(tmp, mo)


def html_lang(body):
    return re.search(r'<html lang="([^"]+)"', body).group(1)


def language_link(body, code):
    """Return the footer's link to a language, as a browser would follow it."""
    href = re.search(rf'<a href="(/language/{code}\?[^"]*)"', body).group(1)
    return href.replace("&amp;", "&")


# --- choosing the language -------------------------------------------------------------


def test_accept_language_fr_gives_french_home_page(client):
    body = client.get("/", headers={"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"}).text
    assert html_lang(body) == "fr"
    assert "Lancer une partie" in body
    assert translated("fr", "Start a game") == "Lancer une partie"
    assert "Start a game" not in body


def test_accept_language_fr_gives_french_new_game_page(client):
    response = client.get("/games/new", headers={"Accept-Language": "fr"})
    body = response.text
    assert html_lang(body) == "fr"
    for msgid in ("New game", "Players", "First dealer", "Start game", "Player %(n)s"):
        assert translated("fr", msgid).replace("%(n)s", "1") in body
    assert "Accept-Language" in response.vary


@pytest.mark.parametrize("code", TRANSLATED)
def test_each_language_is_served_with_its_lang_attribute(client, code):
    body = client.get("/games/new", headers={"Accept-Language": code}).text
    assert html_lang(body) == code
    assert translated(code, "House rules") in body


@pytest.mark.parametrize("header", ["xx-YY", "ja, zh;q=0.8", "", "*"], ids=repr)
def test_unknown_accept_language_falls_back_to_english(client, header):
    body = client.get("/", headers={"Accept-Language": header}).text
    assert html_lang(body) == "en"
    assert "Start a game" in body


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("fr-CA", "fr"),
        ("de-AT,de;q=0.9", "de"),
        ("id-ID", "id"),
        ("in", "id"),
        ("en-GB,de;q=0.5", "en"),
        ("es, de;q=0.3", "de"),
        ("fr;q=0, de;q=0.2", "de"),
        ("pt-BR", None),
    ],
)
def test_best_match_takes_the_most_preferred_offered_language(header, expected):
    assert languages.best_match(parse_accept_header(header, LanguageAccept)) == expected


def test_chooser_switches_language_without_javascript_and_keeps_it(client):
    french = {"Accept-Language": "fr"}
    page = client.get("/games/new?from=test", headers=french).text
    assert "<form" not in page.split('<footer class="footer">')[1]  # links, not a script

    response = client.get(language_link(page, "de"), headers=french)
    assert response.status_code == 303
    assert response.headers["Location"] == "/games/new?from=test"

    # The choice outlasts the browser's Accept-Language, on every page.
    for path in ("/games/new", "/"):
        body = client.get(path, headers=french).text
        assert html_lang(body) == "de"
        assert re.search(r'<a [^>]*lang="de"[^>]*aria-current="true"', body)
    assert translated("de", "Start a game") in client.get("/", headers=french).text

    body = client.get(language_link(body, "en"), follow_redirects=True, headers=french).text
    assert html_lang(body) == "en"
    assert "Start a game" in body


def test_a_page_varies_by_accept_language_only_when_its_language_came_from_it(client, api):
    game = api.create()
    for path in ("/", f"/games/{game['id']}", f"/games/{game['id']}"):  # the last from cache
        vary = client.get(path, headers={"Accept-Language": "fr"}).headers["Vary"]
        names = [name.strip() for name in vary.split(",")]
        assert names.count("Accept-Language") == 1 and "Cookie" in names, vary
    client.get("/language/de?next=/")
    chosen = client.get("/", headers={"Accept-Language": "fr"})
    assert "Accept-Language" not in chosen.headers["Vary"]


@pytest.mark.parametrize(
    "target",
    ["https://example.com/", "//example.com/", "/\\example.com", "games/new", "/no/such/page"],
)
def test_chooser_returns_only_to_pages_of_this_site(client, target):
    response = client.get(f"/language/fr?next={quote(target)}")
    assert response.status_code == 303
    assert response.headers["Location"] == "/"


def test_chooser_refuses_an_unknown_language(client):
    assert client.get("/language/xx?next=/").status_code == 404
    assert html_lang(client.get("/").text) == "en"


def test_score_chart_speaks_the_pages_language(client, api):
    game = api.create()
    api.add(game, {"number": 1, "bidder": 1, "bid": 4, "trump": "H", "called_card": "KH",
                   "partner": 3, "high": 3, "low": 0, "jack": 1, "off_jack": 2, "joker": 1,
                   "game": "bidders"})  # fmt: skip
    body = client.get(f"/games/{game['id']}/sheet", headers={"Accept-Language": "fr"}).text
    title = translated("fr", "Running scores, deal by deal")
    assert re.search(rf'<title id="[^"]+-title">{title}</title>', body)
    assert translated("fr", "%(target)s to win") % {"target": 21} in body
    assert "to win" not in body


# --- the catalogs ----------------------------------------------------------------------


@pytest.mark.parametrize("code", TRANSLATED)
def test_catalog_has_no_untranslated_or_fuzzy_entry(code):
    messages = catalog(code)
    assert not messages.fuzzy, "the catalog's header is still marked fuzzy"
    problems = []
    for message in messages:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy:
            problems.append(f"fuzzy: {message.id!r}")
        if not all(strings) or len(strings) != (
            messages.num_plurals if message.pluralizable else 1
        ):
            problems.append(f"untranslated: {message.id!r}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("code", TRANSLATED)
def test_catalog_placeholders_match_the_english(code):
    messages = catalog(code)
    problems = []
    for message in messages:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        expected = placeholders(ids[-1])
        for text in strings:
            if placeholders(text) != expected:
                problems.append(f"{message.id!r}: {text!r}")
        problems.extend(f"{message.id!r}: {error}" for error in message.check(messages))
    assert not problems, "\n".join(problems)


def test_every_marked_message_is_in_every_catalog():
    """A message marked in the code or pages but missing from a catalog shows in English."""
    with open(ROOT / "babel.cfg") as f:
        method_map, options_map = parse_mapping_cfg(f)
    keywords = {**DEFAULT_KEYWORDS, "_l": None, "msg": None, "plural": (1, 2)}
    marked = {
        message if isinstance(message, str) else message[0]
        for _, _, message, _, _ in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=keywords
        )
    }
    for code in TRANSLATED:
        known = {m.id if isinstance(m.id, str) else m.id[0] for m in catalog(code) if m.id}
        missing = sorted(marked - known)
        assert not missing, (
            f"{code}: run `make translations` and translate these messages: {missing}"
        )


# --- the engine's sentences --------------------------------------------------------------


def engine_msg_calls():
    """Return every msg() call in the engine's source: (file, line, template or None).

    The template is None when the call's first argument is not a string literal, so that
    babel cannot extract it; `msg(str(number))` (a number, the same in every language) and
    errors.py's wrapping of a message it was given are the exceptions, left out here.
    """
    calls = []
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "msg"):
                continue
            if not node.args:
                continue
            first = node.args[0]
            where = (path.relative_to(ROOT).as_posix(), node.lineno)
            number = isinstance(first, ast.Call) and getattr(first.func, "id", None) == "str"
            wrapped = path.name == "errors.py" and isinstance(first, ast.Name)
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                calls.append((*where, first.value))
            elif not (number or wrapped):
                calls.append((*where, None))
    return calls


def templates_in(value):
    """Yield every message template inside a value: messages, their parameters, containers."""
    if isinstance(value, engine.Message):
        yield value.template
        yield from templates_in(tuple(value.params.values()))
    elif isinstance(value, Mapping):
        yield from templates_in(tuple(value.values()))
    elif isinstance(value, tuple | list):
        for item in value:
            yield from templates_in(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from templates_in(getattr(value, field.name))


@functools.cache
def worked_game_messages():
    """Return what the engine says about the worked games of every ruleset.

    Each ruleset's entry form, house rules, statistics and summary, then every deal's
    "why this score" lines and the outcome after it: sentences built at run time, which
    a reading of the source alone could miss.
    """
    said = []
    for game in WORKED_GAMES:
        config = engine.configure(
            game["ruleset"],
            game["players"],
            game["first_dealer"],
            game["target"],
            game["house_rules"],
        )
        rules = config.ruleset
        said += [rules.entry_fields(config), rules.house_rules, rules.statistics, rules.summary]
        for state in engine.replay(config, game["deals"]):
            said += [*engine.explain_deal(config, state.last), state.outcome.explanation]
    return tuple(said)


def render_in(code, message):
    """Return an engine message as the pages show it in one language, from the catalog."""
    messages = catalog(code)

    def lookup(template):
        found = messages.get(template)
        return found.string if found is not None and found.string else template

    def join(words):
        if len(words) <= 1:
            return "".join(words)
        return lookup("%(list)s and %(last)s") % {"list": ", ".join(words[:-1]), "last": words[-1]}

    return engine.render(message, lookup, join)


def test_every_engine_sentence_can_be_extracted_into_the_catalogs():
    """A template chosen through a variable, or nested in another msg()'s arguments, is
    never extracted: the pages would show it in English whatever the language."""
    method_map = [("**.py", "python")]
    extracted = {
        message
        for _, _, message, _, _ in extract_from_dir(str(ENGINE), method_map, keywords={"msg": None})
    }
    problems = [
        f"{path}:{line}: msg() needs the template as a string literal"
        if template is None
        else f"{path}:{line}: babel does not extract {template!r} (build it outside the call)"
        for path, line, template in engine_msg_calls()
        if template is None or template not in extracted
    ]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_engine_sentence_is_translated_with_the_same_placeholders(code):
    messages = catalog(code)
    in_source = {template for _, _, template in engine_msg_calls() if template}
    at_run_time = {t for t in templates_in(worked_game_messages()) if not t.isdigit()}
    assert at_run_time, "the worked games said nothing"
    problems = []
    for template in sorted(in_source | at_run_time):
        found = messages.get(template)
        if found is None or not found.string or found.fuzzy:
            problems.append(f"untranslated: {template!r}")
        elif placeholders(found.string) != placeholders(template):
            problems.append(f"placeholders differ: {template!r} -> {found.string!r}")
    assert not problems, "\n".join(problems)
    # Every sentence of the worked games renders in the language, parameters and all.
    for message in worked_game_messages():
        for said in message if isinstance(message, tuple) else (message,):
            if isinstance(said, engine.Message):
                assert "%(" not in render_in(code, said)


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_count_a_ruleset_gives_its_players_is_a_translated_plural(code):
    """The scoreboard says each count beside a player ("2 smucks") through the catalog's
    plural entry: the one-and-other pair must be in it, every form translated."""
    extras = {extra for rules in engine.rulesets() for extra in rules.extras}
    assert extras, "no ruleset gives its players a count"
    for extra in extras:
        entry = catalog(code)[extra.words.one]
        assert entry is not None and entry.pluralizable, (code, extra.key)
        assert entry.id == (extra.words.one, extra.words.other), (code, extra.key)
        assert all(entry.string) and not entry.fuzzy, (code, extra.key)
        for form in entry.string:
            assert placeholders(form) == {("num", "s")}, (code, form)


@pytest.mark.parametrize(
    ("code", "words"), [("fr", "roi de cœur"), ("de", "Herz-König"), ("id", "king hati")]
)
def test_a_card_reads_as_one_phrase_in_each_language(code, words):
    assert render_in(code, engine.Card.parse("KH").words) == words


def test_a_refused_deal_is_explained_in_german_next_to_its_field(client):
    url = start_game(client)
    german = {"Accept-Language": "de"}
    refused = post_deal(client, url, {**DEAL_1_WRONG, "partner": BOB}, 1, **german)
    assert refused.status_code == 422
    assert html_lang(refused.text) == "de"
    partner = html.unescape(group(refused.text, "partner"))
    refusal = (
        "The bidder cannot call a card from their own hand, so they cannot be their own "
        "partner: if the bidder held the called card, choose \u201cNo card called (alone)\u201d."
    )
    assert html.escape(translated("de", refusal), quote=False) in partner
    assert "cannot call a card" not in partner


def test_why_this_score_is_written_in_french_on_the_game_page(client):
    url = start_game(client)
    assert post_deal(client, url, {**DEAL_1_WRONG, "jack": BOB}, 1).status_code == 303
    page = html.unescape(client.get(url, headers={"Accept-Language": "fr"}).text)
    why = page[page.index(translated("fr", "Why this score")) :]
    why = why[: why.index("</details>")]

    french_and = translated("fr", "%(list)s and %(last)s")
    contract = translated(
        "fr",
        "%(bidder)s bid %(bid)s with %(trump)s trump and called the %(card)s; "
        "%(partner)s held it and was the partner.",
    ) % {
        "bidder": "Bob",
        "bid": 4,
        "trump": translated("fr", "hearts"),
        "card": "K\N{BLACK HEART SUIT}",
        "partner": "Di",
    }
    bidders = translated(
        "fr", "Bidders %(who)s took %(took)s: %(got)s, bid %(bid)s, made — each %(change)s."
    ) % {
        "who": french_and % {"list": "Bob", "last": "Di"},
        "took": french_and
        % {
            "list": ", ".join(translated("fr", point) for point in ("High", "Jack", "Joker")),
            "last": translated("fr", "Game"),
        },
        "got": 4,
        "bid": 4,
        "change": "+4",
    }
    assert contract in why
    assert bidders in why
    assert "took" not in why and " and " not in why


# --- the games' and the points' names ---------------------------------------------------

POINT_NAMES = ("High", "Low", "Jack", "Off-jack", "Game")
"""The point names the catalogs give words of their own (the Joker is a joker in each)."""


def point_labels():
    """Return every point label of every ruleset's entry, at each table it allows."""
    labels = set()
    for rules in engine.rulesets():
        for seats in range(rules.min_players, rules.max_players + 1):
            config = engine.configure(rules.id, [f"P{n}" for n in range(seats)], 0, None, {})
            labels |= {f.label.template for f in rules.entry_fields(config) if f.point}
    return labels


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_game_name_and_point_name_has_a_translation(code):
    names = {rules.label.template for rules in engine.rulesets()}
    points = point_labels()
    assert set(POINT_NAMES) <= points
    for msgid in names | points:
        entry = catalog(code)[msgid]
        assert entry is not None and entry.string and not entry.fuzzy, (code, msgid)
    for msgid in (names - {"Shmear"}) | set(POINT_NAMES):
        assert translated(code, msgid) != msgid, (code, msgid)


def page_text(body):
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


@pytest.mark.parametrize("code", TRANSLATED)
def test_translated_pages_name_the_games_and_the_points_in_their_language(client, code):
    words = {"Accept-Language": code}
    new_game = page_text(client.get("/games/new", headers=words).text)
    for rules in engine.rulesets():
        # Each game is offered once the table says how many play (its page asks its count).
        offered = client.get(f"/games/new?ruleset={rules.id}", headers=words).text
        assert translated(code, rules.label.template) in page_text(offered)
    for english in ("Shmear with a Kitty", "Five-Handed Euchre", "Five-Handed Schmier"):
        assert english not in new_game
    kitty = client.get("/games/new?ruleset=shmear-kitty", headers=words).text
    assert translated(code, "Shmear with a Kitty") in page_text(kitty)

    rules_page = page_text(client.get("/rules/five-handed-euchre", headers=words).text)
    title = translated(code, "Rules of %(game)s") % {"game": translated(code, "Five-Handed Euchre")}
    assert title in rules_page

    url = start_game(client)
    game = client.get(url, headers=words).text
    form = game[game.index('id="point-grid"') :]
    grid = page_text(form[: form.index("</form>")])
    for point in POINT_NAMES:
        assert translated(code, point) in grid, (code, point)
    for english in ("High", "Low", "Off-jack"):
        assert not re.search(rf"\b{english}\b", grid), (code, english)
