"""The pages in French, German and Indonesian: choosing the language, and complete catalogs."""

import os
import re
import tempfile
from pathlib import Path
from urllib.parse import quote

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from scorekeeper.web import i18n

ROOT = Path(__file__).resolve().parent.parent
TRANSLATED = sorted(code for code in i18n.LANGUAGES if code != i18n.DEFAULT)
PLACEHOLDER = re.compile(r"%(?:\((\w+)\))?[-#0 +]*\d*(?:\.\d+)?([diouxXeEfFgGcrs%])")


def catalog(code):
    """Return the parsed catalog of one language."""
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
    assert i18n.best_match(parse_accept_header(header, LanguageAccept)) == expected


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
    keywords = {**DEFAULT_KEYWORDS, "_l": None}
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
