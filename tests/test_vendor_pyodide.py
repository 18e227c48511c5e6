"""tools/vendor_pyodide.py: the pinned Pyodide release, checked, trimmed and written once.

Run on a small tarball made here (served from a file: address), so nothing is downloaded.
The runtime itself, as vendored by `make install`, is run by tests/browser/test_phone_engine.py.
"""

from __future__ import annotations

import importlib.util
import io
import json
import tarfile
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def load_tool() -> ModuleType:
    path = ROOT / "tools" / "vendor_pyodide.py"
    spec = importlib.util.spec_from_file_location("vendor_pyodide", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fake_release(folder: Path) -> Path:
    """Write a tarball laid out like npm's pyodide package, with a small standard library."""
    stdlib = io.BytesIO()
    with zipfile.ZipFile(stdlib, "w") as archive:
        for name in ("json/", "json/__init__.py", "json/decoder.py", "email/", "email/x.py"):
            archive.writestr(name, "" if name.endswith("/") else f"# {name}\n")
        archive.writestr("typing.py", "# typing\n")
        archive.writestr("pyodide/__init__.py", "# pyodide\n")
        archive.writestr("pyodide/ffi.py", "# ffi\n")
    files = {
        "pyodide.mjs": b"export const loadPyodide = 1;",
        "pyodide.asm.mjs": b"// asm",
        "pyodide.asm.wasm": b"\0asm",
        "pyodide-lock.json": json.dumps(
            {"info": {"python": "3.14"}, "packages": {"a": {}}}
        ).encode(),
        "python_stdlib.zip": stdlib.getvalue(),
        "console.html": b"<html>",
    }
    path = folder / "pyodide-1.2.3.tgz"
    with tarfile.open(path, "w:gz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(f"package/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


@pytest.fixture
def tool(tmp_path: Path) -> ModuleType:
    module = load_tool()
    release = fake_release(tmp_path)
    module.ROOT = tmp_path
    module.PIN = tmp_path / "pyodide.json"
    module.STDLIB_LIST = tmp_path / "stdlib.txt"
    module.DOWNLOADS = tmp_path / "build"
    module.VENDORED = tmp_path / "static" / "pyodide"
    module.PIN.write_text(
        json.dumps(
            {
                "version": "1.2.3",
                "tarball": release.as_uri(),
                "integrity": module.integrity_of(release.read_bytes(), "sha512"),
            }
        )
    )
    module.STDLIB_LIST.write_text("# kept\npyodide/\njson/__init__.py\ntyping.py\n")
    (module.VENDORED / "1.0.0").mkdir(parents=True)  # an older release, to be removed
    return module


def test_the_release_is_checked_trimmed_and_written_into_its_folder(tool):
    folder = tool.vendor()
    assert folder == tool.VENDORED / "1.2.3"
    assert sorted(p.name for p in folder.iterdir()) == [
        ".vendored",
        "pyodide-lock.json",
        "pyodide.asm.mjs",
        "pyodide.asm.wasm",
        "pyodide.mjs",
        "stdlib.zip",
    ]
    assert (folder / "pyodide.asm.wasm").read_bytes() == b"\0asm"
    assert json.loads((folder / "pyodide-lock.json").read_text()) == {
        "info": {"python": "3.14"},
        "packages": {},
    }
    with zipfile.ZipFile(folder / "stdlib.zip") as archive:
        assert sorted(archive.namelist()) == [
            "json/",
            "json/__init__.py",
            "pyodide/",
            "pyodide/__init__.py",
            "pyodide/ffi.py",
            "typing.py",
        ]
        assert archive.read("json/__init__.py") == b"# json/__init__.py\n"
    assert not (tool.VENDORED / "1.0.0").exists()


def test_a_second_run_changes_nothing_and_downloads_nothing(tool):
    folder = tool.vendor()
    written = {p.name: p.stat().st_mtime_ns for p in folder.iterdir()}
    Path(json.loads(tool.PIN.read_text())["tarball"][len("file://") :]).unlink()
    assert tool.vendor() == folder
    assert {p.name: p.stat().st_mtime_ns for p in folder.iterdir()} == written


def test_a_new_list_of_files_kept_writes_the_folder_again(tool):
    folder = tool.vendor()
    tool.STDLIB_LIST.write_text("pyodide/\ntyping.py\n")
    tool.vendor()
    with zipfile.ZipFile(folder / "stdlib.zip") as archive:
        assert "json/__init__.py" not in archive.namelist()


def test_a_tarball_that_is_not_the_pinned_release_is_refused(tool):
    pin = json.loads(tool.PIN.read_text())
    pin["integrity"] = tool.integrity_of(b"another release", "sha512")
    tool.PIN.write_text(json.dumps(pin))
    with pytest.raises(SystemExit, match="is not the release pinned"):
        tool.vendor()
    assert not (tool.VENDORED / "1.2.3").exists()
    assert not (tool.DOWNLOADS / "pyodide-1.2.3.tgz").exists()


def test_a_file_kept_that_the_release_lacks_is_named(tool):
    tool.STDLIB_LIST.write_text("typing.py\nmissing.py\n")
    with pytest.raises(SystemExit, match=r"missing\.py"):
        tool.vendor()


def test_the_pin_is_npms_record_of_the_release():
    pin = json.loads((ROOT / "tools/pyodide.json").read_text())
    assert pin["tarball"] == (f"https://registry.npmjs.org/pyodide/-/pyodide-{pin['version']}.tgz")
    assert pin["integrity"].startswith("sha512-")
