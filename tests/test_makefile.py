"""The Makefile's first steps: which Python makes .venv, and when .venv is made again.

Run in an empty folder with fake Pythons (scripts that print a version), so nothing is
installed: a Python 3.10 used to get as far as pip's "No matching distribution found for
flask-caching", leaving a broken .venv that a later `make run PYTHON=python3.12` reused.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def fake_python(folder: Path, version: str) -> Path:
    """Write a script that answers every call as a Python of this version would be asked."""
    path = folder / f"python{version}"
    path.write_text(f"#!/bin/sh\necho {version}\n")
    path.chmod(0o755)
    return path


def make(folder: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    """Run the project's Makefile in `folder` (its .venv and requirements are looked for there)."""
    command = ["make", "--no-print-directory", "-f", str(ROOT / "Makefile"), *arguments]
    return subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=60)


def locks(folder: Path) -> None:
    """Lay out the files an install reads (empty: nothing is installed from them)."""
    (folder / "requirements").mkdir()
    for name in ("requirements/run.txt", "requirements/test.txt", "pyproject.toml"):
        (folder / name).write_text("")
        os.utime(folder / name, (1_000_000_000, 1_000_000_000))


def installed_with(folder: Path, version: str) -> None:
    """Lay out a .venv made and filled by a Python of this version, newer than the locks."""
    locks(folder)
    venv = folder / ".venv"
    venv.mkdir()
    (venv / "pyvenv.cfg").write_text(f"home = /usr/bin\nversion = {version}\n")
    os.utime(venv / "pyvenv.cfg", (1_100_000_000, 1_100_000_000))
    for stamp in (".installed-run", ".installed-test"):
        (venv / stamp).touch()


def test_a_python_older_than_3_11_is_refused_before_any_venv_is_made(tmp_path):
    locks(tmp_path)
    old = fake_python(tmp_path, "3.10.13")
    result = make(tmp_path, "install-run", f"PYTHON={old}")
    assert result.returncode != 0
    assert f"Scorekeeper needs Python 3.11 or newer; {old} is 3.10.13" in result.stderr
    assert not (tmp_path / ".venv").exists()


def test_a_venv_made_by_another_python_is_made_again_and_filled_anew(tmp_path):
    installed_with(tmp_path, "3.11.7")
    newer = fake_python(tmp_path, "3.12.1")
    planned = make(tmp_path, "--dry-run", "install-test", f"PYTHON={newer}").stdout.splitlines()
    assert "rm -rf .venv" in planned
    assert f"{newer} -m venv .venv" in planned
    assert ".venv/bin/python -m pip install --quiet -r requirements/run.txt" in planned
    assert ".venv/bin/python -m pip install --quiet -r requirements/test.txt" in planned
    assert planned.index("rm -rf .venv") < planned.index(f"{newer} -m venv .venv")


def test_a_venv_made_by_the_same_python_is_kept(tmp_path):
    installed_with(tmp_path, "3.11.7")
    same = fake_python(tmp_path, "3.11.7")
    planned = make(tmp_path, "--dry-run", "install-test", f"PYTHON={same}").stdout.splitlines()
    assert "rm -rf .venv" not in planned
    assert not [line for line in planned if "-m venv" in line or "pip install" in line]


def test_the_machines_default_python_passes_the_check():
    assert make(ROOT, "python-version").returncode == 0
