"""Vendor the Pyodide runtime the phone runs the engine on, at the release tools/pyodide.json pins.

Run by `make install-run` (so `make run`, `make test` and CI have it): downloads the npm
registry's tarball of that release once (kept in build/), checks it against the sha512
integrity recorded in tools/pyodide.json (npm's `dist.integrity`), and writes into
static/pyodide/<version>/ (gitignored) only what the phone needs:

- pyodide.mjs, pyodide.asm.mjs and pyodide.asm.wasm, as released;
- pyodide-lock.json with no packages listed (the engine loads none; the released one lists
  357 packages, 119 KB, all fetched at every start);
- stdlib.zip: Pyodide's standard-library archive trimmed to the files tools/pyodide-stdlib.txt
  lists (given to `loadPyodide({stdLibURL})`).

Nothing is done when that folder was already written from the same pin, list and tool (a
stamp file records them), so a run costs a few milliseconds. Other releases' folders under
static/pyodide/ are removed. Standard library only: it runs before anything is installed.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import shutil
import sys
import tarfile
import urllib.request
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PIN = ROOT / "tools" / "pyodide.json"
STDLIB_LIST = ROOT / "tools" / "pyodide-stdlib.txt"
DOWNLOADS = ROOT / "build"
VENDORED = ROOT / "static" / "pyodide"
STAMP = ".vendored"
AS_RELEASED = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm")
"""The runtime's own files, copied unchanged from the tarball's package/ folder."""


def integrity_of(data: bytes, algorithm: str) -> str:
    """Return the Subresource-Integrity text of `data` (npm's `dist.integrity` form)."""
    return f"{algorithm}-" + base64.b64encode(hashlib.new(algorithm, data).digest()).decode()


def tarball(pin: dict[str, str]) -> bytes:
    """Return the release's tarball, downloaded once, after checking it against the pin."""
    algorithm = pin["integrity"].split("-", 1)[0]
    kept = DOWNLOADS / f"pyodide-{pin['version']}.tgz"
    if kept.is_file():
        data = kept.read_bytes()
        if integrity_of(data, algorithm) == pin["integrity"]:
            return data
    print(f"Downloading {pin['tarball']}", file=sys.stderr)
    with urllib.request.urlopen(pin["tarball"], timeout=120) as answer:
        data = answer.read()
    found = integrity_of(data, algorithm)
    if found != pin["integrity"]:
        raise SystemExit(
            f"{pin['tarball']} is not the release pinned in {PIN.relative_to(ROOT)}:"
            f" its integrity is {found}, the pin says {pin['integrity']}."
        )
    DOWNLOADS.mkdir(exist_ok=True)
    kept.write_bytes(data)
    return data


def kept_paths() -> list[str]:
    """Return the archive paths the trimmed standard library keeps ("x/" keeps a package)."""
    lines = STDLIB_LIST.read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def trimmed_stdlib(full: bytes, keep: list[str]) -> bytes:
    """Return the standard-library archive holding only the kept files (and their folders)."""
    whole = tuple(path for path in keep if path.endswith("/"))
    files = {path for path in keep if not path.endswith("/")}
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(full)) as source:
        names = set(source.namelist())
        missing = sorted(files - names)
        missing += [folder for folder in whole if not any(n.startswith(folder) for n in names)]
        if missing:
            raise SystemExit(f"Not in Pyodide's standard library: {', '.join(missing)}")
        wanted = files | {n for n in names if n.startswith(whole)}
        folders = {n[: i + 1] for n in wanted for i, c in enumerate(n) if c == "/"}
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as target:
            for info in source.infolist():
                if info.filename in wanted or info.filename in folders:
                    target.writestr(info, source.read(info), compresslevel=9)
                    folders.discard(info.filename)
            for folder in sorted(folders):  # a folder the archive did not list on its own
                target.writestr(zipfile.ZipInfo(folder, (1980, 1, 1, 0, 0, 0)), b"")
    return out.getvalue()


def stamp_text(pin_text: str) -> str:
    """Return what the stamp records: a hash of the pin, the list and this tool."""
    digest = hashlib.sha256()
    for part in (pin_text, STDLIB_LIST.read_text(), Path(__file__).read_text()):
        digest.update(part.encode())
    return digest.hexdigest() + "\n"


def vendor() -> Path:
    """Write the runtime's folder if it is not there already; return it."""
    pin_text = PIN.read_text()
    pin = json.loads(pin_text)
    folder = VENDORED / pin["version"]
    stamp = stamp_text(pin_text)
    if (folder / STAMP).is_file() and (folder / STAMP).read_text() == stamp:
        return folder
    data = tarball(pin)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:

        def member(name: str) -> bytes:
            extracted = tar.extractfile(f"package/{name}")
            if extracted is None:
                raise SystemExit(f"The tarball has no package/{name}.")
            return extracted.read()

        released = {name: member(name) for name in AS_RELEASED}
        lock = json.loads(member("pyodide-lock.json"))
        stdlib = member("python_stdlib.zip")
    written = {
        **released,
        "pyodide-lock.json": json.dumps({**lock, "packages": {}}, indent=1).encode(),
        "stdlib.zip": trimmed_stdlib(stdlib, kept_paths()),
    }
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    for name, content in written.items():
        (folder / name).write_bytes(content)
    for other in VENDORED.iterdir():
        if other.is_dir() and other != folder:
            shutil.rmtree(other)
    (folder / STAMP).write_text(stamp)
    sizes = ", ".join(f"{name} {len(content) / 1024:,.0f} KB" for name, content in written.items())
    print(f"Pyodide {pin['version']} in {folder.relative_to(ROOT)}: {sizes}", file=sys.stderr)
    return folder


if __name__ == "__main__":
    vendor()
