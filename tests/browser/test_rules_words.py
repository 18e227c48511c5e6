"""The rules pages and the tie-break settler speak to players, in every language.

No name of the code shows on them: not a house rule's id (`partner_breaks_ties`), nor its
values (`play_on`, `shared`), nor a game's id, nor the step of a win check as a game
document records it (`decided_by`, `lowest_at_start`). The names are gathered from the
engine, so a house rule added tomorrow is checked too.
"""

import re
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from scorekeeper import engine
from scorekeeper.engine import DecidedBy
from scorekeeper.http import languages
from tests.browser.conftest import check_axe
from tests.test_rules import settle_query
from tests.test_rules import test_settler_answers_the_rules_edge_cases as edge_cases

pytestmark = pytest.mark.browser

RULESETS = engine.rulesets()
SNAKE_CASE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")


def code_names():
    """Return every name of the code a player might be shown: ids, values and steps."""
    names = {"decided_by"} | {ruleset.id for ruleset in RULESETS}
    names |= {str(step) for step in DecidedBy}
    for ruleset in RULESETS:
        for name, rule in ruleset.house_rules.items():
            names.add(name)
            names.update(value for value in rule.values if isinstance(value, str))
    return names


CODE_NAMES = code_names()
# A name that is also an English word ("shared", "highest", "euchre") is a code name only
# where it is set as code; one with a "_" or "-" in it is one wherever it shows.
SPELLED_AS_CODE = sorted(name for name in CODE_NAMES if re.search(r"[_-]", name))


def settled(ruleset, shape, scores, fields):
    """Return the address of the settler's answer for one of tests/test_rules.py's cases."""
    return f"/rules/{ruleset}/settle?{urlencode(settle_query(shape, scores, fields))}"


PAGES = (
    ["/rules"]
    + [f"/rules/{ruleset.id}" for ruleset in RULESETS]
    + [settled(*case.values[:4]) for case in edge_cases.pytestmark[0].args[1]]
)

SHOWN = """() => {
  const main = document.querySelector('main');
  return {
    text: main.innerText,
    code: Array.from(main.querySelectorAll('code'), (c) => c.textContent.trim()),
  };
}"""


@pytest.mark.parametrize("language", list(languages.LANGUAGES))
def test_no_rules_page_nor_settler_answer_shows_a_name_of_the_code(page, live_server, language):
    page.goto(f"{live_server}/language/{language}?next=/rules")
    found = {}
    for path in PAGES:
        page.goto(live_server + path, wait_until="domcontentloaded")
        shown = page.evaluate(SHOWN)
        names = set(SNAKE_CASE.findall(shown["text"]))
        names |= {
            n for n in SPELLED_AS_CODE if re.search(rf"(?<![\w/#-]){n}(?![\w-])", shown["text"])
        }
        names |= {code for code in shown["code"] if code in CODE_NAMES}
        if names:
            found[path] = sorted(names)
    assert found == {}
    page.goto(f"{live_server}{PAGES[-1]}")
    expect(page.locator("#verdict-title")).to_be_visible()
    check_axe(page)


def test_the_indonesian_rules_say_penawar_as_the_settler_does(page, live_server):
    page.goto(f"{live_server}/language/id?next=/rules/shmear")
    # The settler's words (the app's catalogue): penawar, pasangan, pembagi, truf, bulan.
    english = ("bidder", "dealer", "trump", "bidding", "moon")
    text = page.locator(".rulebook").inner_text()
    assert [w for w in english if re.search(rf"\b{w}\b", text, re.IGNORECASE)] == []
    assert re.search(r"\bmenawar bulan\b", text)
    page.goto(f"{live_server}/rules/five-handed-schmier")
    book = page.locator(".rulebook")
    expect(book).to_have_attribute("lang", "id")
    text = book.inner_text()
    assert [w for w in english if re.search(rf"\b{w}\b", text, re.IGNORECASE)] == []
    for word in ("penawar", "pasangan", "pembagi", "truf"):
        assert re.search(rf"\b{word}\b", text), word
    expect(page.locator("#settler").get_by_text("penawar", exact=False).first).to_be_visible()
    check_axe(page)
