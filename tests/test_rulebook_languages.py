"""The rule book in the page's language: every translation keeps the English book's shape."""

import re
from pathlib import Path

import pytest

from scorekeeper import engine
from scorekeeper.http import languages
from scorekeeper.web import rulebook

DOCS = Path(__file__).resolve().parents[1] / "docs"
TRANSLATED = sorted(p.name.split(".")[1] for p in DOCS.glob("rules.*.md"))
SUBHEADING = re.compile(r"^### ", re.MULTILINE)


@pytest.fixture
def within(app):
    with app.test_request_context():
        yield


def shape(language):
    """Return what a book's reader relies on: per section its key, subsections, anchors, links."""
    return [
        (
            key,
            len(SUBHEADING.findall(section.body)),
            rulebook.STEP_ANCHOR.findall(section.body),
            sorted(set(rulebook.LINK.findall(section.body))),
        )
        for key, section in rulebook.sections(language).items()
    ]


def test_every_language_of_the_pages_has_its_rule_book():
    assert sorted(code for code in languages.LANGUAGES if code != languages.DEFAULT) == TRANSLATED


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_translation_has_every_section_anchor_and_link_of_the_english_book(within, language):
    assert rulebook.book_path(language).name == f"rules.{language}.md"
    english, translated = shape(languages.DEFAULT), shape(language)
    assert [s[0] for s in translated] == [s[0] for s in english], "sections differ"
    for mine, theirs in zip(translated, english, strict=True):
        assert mine == theirs, f"section {theirs[0]}: {mine} is not {theirs}"
    assert rulebook.anchors(language) == rulebook.anchors(languages.DEFAULT)


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("ruleset", engine.rulesets(), ids=lambda r: r.id)
def test_each_win_check_has_the_same_steps_in_every_language(within, language, ruleset):
    english = rulebook.win_steps(ruleset.id, languages.DEFAULT)
    translated = rulebook.win_steps(ruleset.id, language)
    assert english, "the English win check lost its steps"
    assert [(s.number, s.anchor, s.decided_by) for s in translated] == [
        (s.number, s.anchor, s.decided_by) for s in english
    ]
    assert all(s.html.strip() for s in translated)
    assert [s.html for s in translated] != [s.html for s in english]  # translated, not copied


def test_a_language_without_a_book_reads_the_english_one(within):
    assert rulebook.book_path("nl") == rulebook.book_path(languages.DEFAULT) == DOCS / "rules.md"


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_rules_page_shows_the_book_in_its_language_and_its_steps_link(client, language):
    page = client.get("/rules/five-handed-schmier", headers={"Accept-Language": language})
    text = page.get_data(as_text=True)
    assert page.status_code == 200
    assert "The main game of the app." not in text
    assert "The rule book is written in English" not in text
    for anchor in rulebook_anchors_of("five-handed-schmier"):
        assert f'id="{anchor}"' in text
    index = client.get("/rules", headers={"Accept-Language": language}).get_data(as_text=True)
    assert 'id="conventions"' in index and 'id="corrections"' in index


def rulebook_anchors_of(ruleset_id):
    return [f"{ruleset_id}-win-{step}" for step in ("highest", "bidder", "partner", "shared")]
