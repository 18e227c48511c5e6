"""The project's rule book, docs/rules.md, cut into the sections the rules pages show.

The book is the one text of the rules: the pages render it rather than repeat it, so the
pages, the API and the tests keep following the same words. It is written in English and
translated beside it (docs/rules.fr.md, …): a page reads the book of its language, else
the English one. A translation keeps the English book's anchors (`<a id>`), sections and
win-check steps, so links and the win banner's step work in every language
(tests/test_rulebook_languages.py checks it).
"""

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import markdown
from flask import current_app, url_for
from markupsafe import Markup

from scorekeeper.http import languages

GENERAL = ("conventions", "what-every-entry-must-not-do", "corrections")
"""The sections about every game, shown on the rules index rather than on a game's page."""

ANCHOR = re.compile(r'^<a id="([^"]+)"></a>\s*$')
STEP_ANCHOR = re.compile(r'<a id="([^"]+)"></a>')
LINK = re.compile(r"\]\(#([^)]+)\)")
STEP = re.compile(r"^(\d+)\.\s+(.*)$")
CODE = re.compile(r"`([^`\n]+)`")
STEP_NAME = re.compile(r'(<a id="[^"]+-win-([a-z_]+)"></a>)\*\*`\2`\*\*')


@dataclass(frozen=True, slots=True)
class Section:
    """One `##` section of the book: its anchor, its heading and its Markdown body."""

    key: str
    """The anchor the book gives it (`five-handed-schmier`), else its heading as a slug."""
    title: str
    """The heading's text."""
    body: str
    """The Markdown below the heading, up to the next section or rule."""


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a game's win check, as its "Who wins" list gives it."""

    number: int
    """Its place in the list, from 1: the steps are tried in this order."""
    anchor: str | None
    """The id the book gives it (`shmear-win-bidder`); None for "nobody is at the target"."""
    decided_by: str | None
    """The `decided_by` the step records, read from its anchor; None for the first step."""
    html: Markup
    """The step's text (inline HTML, its anchor left out so it can be shown twice)."""


def book_path(language: str | None = None) -> Path:
    """Return the rule book in this language (the page's unless given), else the English one.

    The English book is docs/rules.md beside the package; a translation is
    docs/rules.<code>.md.
    """
    docs = Path(current_app.root_path).parent / "docs"
    code = language or languages.select_locale()
    translated = docs / f"rules.{code}.md"
    if code != languages.DEFAULT and translated.is_file():
        return translated
    return docs / "rules.md"


def sections(language: str | None = None) -> dict[str, Section]:
    """Return the book's sections by key, in the book's order (see `book_path`)."""
    path = book_path(language)
    return _parse(str(path), path.stat().st_mtime_ns)


@lru_cache(maxsize=16)
def _parse(path: str, mtime: int) -> dict[str, Section]:
    """Return the sections of the book at `path` (`mtime` makes an edited book read again)."""
    found: dict[str, Section] = {}
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    anchor: str | None = None
    heading: tuple[str, str] | None = None
    """The open section's key and title."""
    body: list[str] = []

    def close() -> None:
        if heading is not None:
            key, title = heading
            found[key] = Section(key, title, "\n".join(body).strip("\n"))

    for line in lines:
        match = ANCHOR.match(line)
        if match:
            close()
            heading = None
            anchor = match.group(1)
            continue
        if line.startswith("## "):
            close()
            title = line[3:].strip()
            heading = (anchor or _slug(title), title)
            anchor, body = None, []
            continue
        if line.strip() == "---":
            close()
            heading = None
            continue
        anchor = None
        if heading is not None:
            body.append(line)
    close()
    return found


def _slug(title: str) -> str:
    """Return a heading as its anchor, the way the book's own links spell them."""
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def ruleset_sections(ruleset_id: str, ruleset_ids: Collection[str]) -> list[Section]:
    """Return the sections a game's page shows: its own, then those it builds on.

    A game's section may send the reader to a section it shares with its family ("as in
    the Shmear family"); those come after it, so the page holds every rule it refers to.
    """
    book = sections()
    own = book[ruleset_id]
    shown = [own]
    for key in LINK.findall(own.body):
        wanted = key in book and key not in ruleset_ids and key not in GENERAL
        if wanted and book[key] not in shown:
            shown.append(book[key])
    return shown


@dataclass(frozen=True, slots=True)
class PlayerWords:
    """What the pages call the things the book names as the code spells them."""

    names: Mapping[str, str]
    """A house rule or one of its values by its id (`partner_breaks_ties`, `play_on`): the
    name the game's settings give it ("Partner breaks ties", "Play on")."""
    steps: Mapping[str, str]
    """A step of the win check by the `decided_by` it records (`highest`): its name."""


def in_players_words(body: str, words: PlayerWords) -> str:
    """Return the book's Markdown with the code's names put in the words players read.

    The book names house rules, their values and the win check's steps as the API and the
    game documents spell them, for whoever reads it beside the code; on the rules pages a
    player reads the names the game's own settings and settler give them. A step's name
    heads its step; another name is set in italics, as the name of a setting.
    """
    body = STEP_NAME.sub(
        lambda m: f"{m.group(1)}**{words.steps.get(m.group(2), m.group(2))}**", body
    )
    return CODE.sub(
        lambda m: f"*{words.names[m.group(1)]}*" if m.group(1) in words.names else m.group(0),
        body,
    )


def render(
    section: Section,
    *,
    top_level: bool,
    page_keys: Collection[str],
    ruleset_ids: Collection[str],
    words: PlayerWords,
) -> Markup:
    """Return a section as HTML: `top_level` drops its heading and lifts its subheadings.

    Links to another game's section go to that game's page, links to a general section to
    the rules index, and links to a section on this page stay where they are. The code's
    names are put in players' words (`in_players_words`).
    """
    body = LINK.sub(lambda m: "](" + _href(m.group(1), page_keys, ruleset_ids) + ")", section.body)
    body = in_players_words(body, words)
    if top_level:
        body = re.sub(r"^###(?=\s)", "##", body, flags=re.MULTILINE)
    else:
        body = f"## {section.title} {{#{section.key}}}\n\n" + body
    return Markup(_scrolling_tables(_markdown(body)))


def _scrolling_tables(html: str) -> str:
    """Return the HTML with each table in a region that scrolls sideways on a narrow phone.

    The region takes the keyboard's focus, so whoever reads without a pointer can scroll
    it too; it is named after the heading above it ("House rules"), a second table under
    the same heading numbered.
    """
    region = Markup('<div class="table-scroll" role="region" tabindex="0" aria-label="{}">')
    parts: list[str] = []
    heading, seen = "", 0
    for piece in re.split(r"(<h[1-6][^>]*>.*?</h[1-6]>|<table>)", html, flags=re.DOTALL):
        if piece.startswith("<h"):
            heading, seen = re.sub(r"<[^>]+>", "", piece), 0
        elif piece == "<table>":
            seen += 1
            name = heading if seen == 1 else f"{heading} ({seen})"
            piece = region.format(Markup(name).unescape()) + piece
        parts.append(piece)
    return "".join(parts).replace("</table>", "</table></div>")


def _href(key: str, page_keys: Collection[str], ruleset_ids: Collection[str]) -> str:
    """Return where a link of the book to `#key` goes from a rules page."""
    if key in page_keys:
        return "#" + key
    if key in ruleset_ids:
        return url_for("rules.show", ruleset_id=key)
    return url_for("rules.index", _anchor=key)


def _markdown(text: str) -> str:
    """Return the book's Markdown as HTML (tables, heading ids, raw anchors kept)."""
    return markdown.markdown(text, extensions=["tables", "attr_list", "sane_lists"])


def anchors(language: str | None = None) -> set[str]:
    """Return every id the book gives with `<a id>`: the steps of the win checks among them."""
    found: set[str] = set()
    for section in sections(language).values():
        found.update(STEP_ANCHOR.findall(section.body))
    return found


def win_steps(ruleset_id: str, language: str | None = None) -> list[Step]:
    """Return the steps of a game's win check, in the order its "Who wins" list tries them.

    The list is the subsection whose steps carry the game's `<ruleset>-win-` anchors,
    whatever its heading says in the book's language.
    """
    prefix = f"{ruleset_id}-win-"
    body = sections(language)[ruleset_id].body
    parts = re.split(r"^### .*$", body, flags=re.MULTILINE)
    lines = next((part for part in parts if f'<a id="{prefix}' in part), "").splitlines()
    items: list[tuple[int, str]] = []
    for line in lines:
        if line.startswith("### "):
            break
        match = STEP.match(line)
        if match:
            items.append((int(match.group(1)), match.group(2)))
        elif items and line.startswith("   ") and line.strip():
            number, text = items[-1]
            items[-1] = (number, text + " " + line.strip())
        elif items and line.strip():
            break
    steps: list[Step] = []
    for number, text in items:
        found = STEP_ANCHOR.search(text)
        anchor = found.group(1) if found else None
        inline = _markdown(STEP_ANCHOR.sub("", text)).removeprefix("<p>").removesuffix("</p>")
        decided_by = anchor.removeprefix(prefix) if anchor and anchor.startswith(prefix) else None
        steps.append(Step(number, anchor, decided_by, Markup(inline)))
    return steps
