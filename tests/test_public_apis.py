"""The app uses its libraries' public APIs only: no ``_private`` name of theirs anywhere.

A library's private names (``limiter._has_app_wide_limits()``, ``psycopg.errors._WaitTimeout``,
``from flask_compress.flask_compress import _compress_data``) change in any release without
notice. The test reads every module of ``scorekeeper/`` (its syntax tree, not its text) and
fails on an import of a private name or module from a library, and on an attribute whose
name starts with ``_`` that the app's own code does not define: one it takes from a
library's object.
"""

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "scorekeeper"
OURS = "scorekeeper"
NAMED_TUPLES = {"_replace", "_asdict", "_fields", "_field_defaults", "_make"}
"""Python's named tuples' methods (``urlsplit(...)._replace``): public, documented with
the underscore so as not to clash with the fields."""


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def trees() -> Iterator[tuple[Path, ast.Module]]:
    for path in modules():
        yield path, ast.parse(path.read_text(), filename=str(path))


def private(name: str) -> bool:
    """Return whether a name is private: a leading underscore, and not a dunder."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def library(module: str) -> bool:
    """Return whether a module is a library's: neither ours nor Python's own."""
    top = module.split(".")[0]
    return top != OURS and top not in sys.stdlib_module_names


def defined_here() -> set[str]:
    """Return every name the app's own code defines: functions, classes, attributes, ..."""
    names: set[str] = set()
    for _, tree in trees():
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
    return names


def library_private_names(path: Path, tree: ast.Module, ours: set[str]) -> Iterator[str]:
    where = path.relative_to(PACKAGE.parent)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if library(alias.name) and any(map(private, alias.name.split("."))):
                    yield f"{where}:{node.lineno}: import {alias.name}"
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if not library(node.module):
                continue
            if any(map(private, node.module.split("."))):
                yield f"{where}:{node.lineno}: from {node.module} import ..."
            for alias in node.names:
                if private(alias.name):
                    yield f"{where}:{node.lineno}: from {node.module} import {alias.name}"
        elif (
            isinstance(node, ast.Attribute)
            and private(node.attr)
            and node.attr not in ours | NAMED_TUPLES
        ):
            yield f"{where}:{node.lineno}: .{node.attr}"


def test_no_private_name_of_a_library_is_used():
    ours = defined_here()
    found = [hit for path, tree in trees() for hit in library_private_names(path, tree, ours)]
    assert found == []


SAMPLE = """
from flask_compress.flask_compress import _compress_data
from psycopg import errors
import flask_limiter._extension
from scorekeeper.web import _ours
from collections import _tuplegetter
from urllib.parse import urlsplit


class Ours:
    def __init__(self):
        self._kept = {}


def f(limiter, ours):
    limiter.limit_manager._default_limits
    raise errors._WaitTimeout("late")
    ours._kept.clear()
    urlsplit("http://x")._replace(netloc="y")
"""


@pytest.mark.parametrize(
    "expected",
    [
        "from flask_compress.flask_compress import _compress_data",
        "import flask_limiter._extension",
        "._default_limits",
        "._WaitTimeout",
    ],
)
def test_the_scan_finds_each_kind_of_use(expected):
    tree = ast.parse(SAMPLE)
    found = list(library_private_names(PACKAGE / "sample.py", tree, {"_kept", "Ours", "f"}))
    assert any(hit.endswith(expected) for hit in found), found
    assert len(found) == 4  # ours (_ours, _kept) and Python's own are fine
