"""The engine imports nothing but the standard library (STYLE.md, The engine, 1)."""

import ast
import sys
from pathlib import Path

import pytest

ENGINE = Path(__file__).parents[2] / "scorekeeper" / "engine"
SOURCES = sorted(ENGINE.rglob("*.py"))


def foreign_imports(source: str) -> list[str]:
    """Return the modules `source` imports that are neither stdlib nor scorekeeper.engine."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            modules = [node.module]
        else:
            continue
        for module in modules:
            inside = module == "scorekeeper.engine" or module.startswith("scorekeeper.engine.")
            if not inside and module.split(".")[0] not in sys.stdlib_module_names:
                found.append(module)
    return found


def test_the_engine_has_sources_to_check():
    assert {p.name for p in SOURCES} >= {
        "__init__.py",
        "cards.py",
        "five_handed.py",
        "game.py",
        "common.py",
    }


@pytest.mark.parametrize("path", [pytest.param(p, id=p.name) for p in SOURCES])
def test_engine_module_imports_only_the_standard_library(path):
    assert foreign_imports(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    ("source", "found"),
    [
        pytest.param("import flask", ["flask"], id="third-party"),
        pytest.param("from sqlalchemy.orm import Mapped", ["sqlalchemy.orm"], id="from-import"),
        pytest.param("from scorekeeper import models", ["scorekeeper"], id="rest-of-the-app"),
        pytest.param("from scorekeeper.models import Game", ["scorekeeper.models"], id="models"),
        pytest.param("def f():\n    import hypothesis", ["hypothesis"], id="inside-function"),
        pytest.param("import json, dataclasses", [], id="stdlib"),
        pytest.param("from scorekeeper.engine.cards import Card", [], id="engine"),
        pytest.param("from .cards import Card", [], id="relative"),
    ],
)
def test_foreign_imports_spots_what_it_should(source, found):
    assert foreign_imports(source) == found
