"""The layers only look down: engine, store, the shared HTTP layer, then the API and the pages.

The test reads every module of ``scorekeeper/`` (its syntax tree, imports inside functions
included) and fails on an import of a layer beside or above the module's own:

- ``engine`` imports nothing of the app outside the engine;
- ``deal_entry``, the deal form's fields read into an entry, written once (Flask-free and
  WTForms-free), imports the engine only; the pages and the phone both use it;
- ``words``, the deal form's words written once (Flask-free: the engine, Jinja2 and
  MarkupSafe), imports the engine only; the pages and the phone both use it;
- ``phone``, the engine's bridge that the phone's worker loads beside it, imports the engine,
  ``deal_entry`` and ``words`` only; the pages never import it: what both use is the
  engine's (the sides and their labels, the ranks found in every suit, a house rule's value
  as the form sends it), ``deal_entry``'s (the deal form's fields read) or ``words``' (the
  preview's context, engine messages in a language);
- ``store`` imports the engine (and the extension objects it binds to);
- ``http`` imports the store and the engine (and the extensions and settings);
- ``api`` and ``web`` import the layers below, never each other.

The package's ``__init__`` (the app factory) and ``cli`` put the layers together and may
import any of them.
"""

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "scorekeeper"
OURS = "scorekeeper"

BELOW = {
    "engine": {"engine"},
    "deal_entry": {"engine", "deal_entry"},
    "words": {"engine", "words"},
    "phone": {"engine", "deal_entry", "words", "phone"},
    "store": {"engine", "store", "extensions"},
    "http": {"engine", "store", "http", "extensions", "config"},
    "api": {"engine", "store", "http", "api", "extensions", "config"},
    "web": {"engine", "deal_entry", "words", "store", "http", "web", "extensions", "config"},
    "extensions": set(),
    "config": set(),
}
"""Which of the app's parts each part may import."""

ON_TOP = {"__init__", "cli"}
"""The parts that put the layers together."""


def layer(module: str) -> str:
    """Return the part of the app a module belongs to: ``scorekeeper.web.games`` → ``web``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def module_name(path: Path) -> str:
    relative = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(relative.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1] if len(parts) > 1 else [*parts[:-1], "__init__"]
    return ".".join(parts)


def imported(module: str, tree: ast.Module, is_package: bool) -> Iterator[tuple[int, str]]:
    """Yield (line, module) for every module of the app the tree imports."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                base = base[: len(base) - node.level + (1 if is_package else 0)]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            if source == OURS:  # from scorekeeper import engine, config
                for alias in node.names:
                    yield node.lineno, f"{OURS}.{alias.name}"
            else:
                yield node.lineno, source


def violations(module: str, source: str, is_package: bool = False) -> list[str]:
    """Return each import of the module's source that reaches beside or above its layer."""
    own = layer(module)
    if own in ON_TOP:
        return []
    allowed = BELOW[own]
    found = []
    for line, target in imported(module, ast.parse(source), is_package):
        if target.split(".")[0] != OURS:
            continue
        reached = layer(target)
        if reached == "__init__" or reached not in allowed:
            found.append(f"{module}:{line} imports {target}")
    return found


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_every_part_has_its_place():
    parts = {layer(module_name(path)) for path in modules()}
    assert parts - ON_TOP <= set(BELOW)


def test_no_module_imports_beside_or_above_its_layer():
    found = [
        hit
        for path in modules()
        for hit in violations(module_name(path), path.read_text(), path.name == "__init__.py")
    ]
    assert found == []


@pytest.mark.parametrize(
    ("module", "source", "expected"),
    [
        ("scorekeeper.api.games", "from scorekeeper.web import cache", ["imports scorekeeper.web"]),
        ("scorekeeper.web.tables", "import scorekeeper.api.errors", ["scorekeeper.api.errors"]),
        ("scorekeeper.http.cache", "from scorekeeper.web.games import X", ["web.games"]),
        ("scorekeeper.store.lookup", "from scorekeeper.http import cache", ["http"]),
        ("scorekeeper.store.games", "from scorekeeper import config", ["scorekeeper.config"]),
        ("scorekeeper.engine.game", "from scorekeeper.store import games", ["store"]),
        ("scorekeeper.engine.game", "from scorekeeper import create_app", ["create_app"]),
        ("scorekeeper.store.games", "def f():\n    from scorekeeper.web import i18n", ["web"]),
        ("scorekeeper.http.cache", "from ..web import i18n", ["scorekeeper.web"]),
        ("scorekeeper.web.games", "from scorekeeper.http import cache", []),
        ("scorekeeper.http.cache", "from scorekeeper.store import lookup", []),
        ("scorekeeper.engine.game", "from scorekeeper.engine.cards import Card", []),
        ("scorekeeper.cli", "from scorekeeper.web import games", []),
        ("scorekeeper.phone", "from scorekeeper.store import games", ["store"]),
        ("scorekeeper.phone", "from scorekeeper.engine import Suit", []),
        ("scorekeeper.api.games", "from scorekeeper.phone import Phone", ["phone"]),
        ("scorekeeper.web.forms", "from scorekeeper.phone import scoring_sides", ["phone"]),
        ("scorekeeper.deal_entry", "from scorekeeper.words import templates", ["words"]),
        ("scorekeeper.deal_entry", "from scorekeeper.web import forms", ["web"]),
        ("scorekeeper.phone", "from scorekeeper.deal_entry import DealControls", []),
        ("scorekeeper.web.forms", "from scorekeeper.deal_entry import Reading", []),
    ],
)
def test_an_import_beside_or_above_is_found(module, source, expected):
    found = violations(module, source)
    assert len(found) == len(expected)
    for hit, part in zip(found, expected, strict=True):
        assert part in hit
