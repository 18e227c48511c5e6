"""Static files as phones get them: content-hashed names, precompressed, kept for a year.

`build` copies every file of the static folder into a gitignored folder (build/static/ beside
static/): under its own name and under a name carrying a hash of its content
(``app.css`` → ``app.3f2a9b1c04d5.css``), each with a brotli and a gzip copy beside it where
they are smaller (``….br``, ``….gz``), and writes a manifest of the names. Our own scripts
and styles go out minified (rJSmin, rCSSmin: comments and spaces out, licence comments kept);
a vendored file (``….min.js``, a versioned folder) goes out as it came. The hash is the built
file's. `make install-run` builds it (``flask assets``); the app builds again at start only
what changed since (a file's size and time tell, its hash confirms), so a fresh checkout
serves at once. The
previous build's hashed files are kept: a page made before a release may still ask them.

Our scripts are ES modules that import each other by relative names (``import { words }
from "./common.js"``). The build writes each import's hashed name into the importing script
(``"./common.5e0c…d2.js"``), so the importer's own hash changes with what it imports and a
page of one release never runs a module of another; a script is built after the scripts it
imports, and is read again at every build (its imports' names may have changed).

WhiteNoise serves that folder ahead of Flask. It sends the brotli or gzip copy the browser
accepts (``Vary: Accept-Encoding``), answers a condition with 304, a range with 206, and
closes its files through the server's file wrapper. A hashed name never changes:
``Cache-Control: public, max-age=31536000, immutable``; so is a file under a folder named
by a version (``pyodide/314.0.8/…``), which keeps its own name (a runtime finds its files
by name) and is never given a hashed one: a new version is a new folder. A plain name is
asked again each time (``no-cache``, the content's hash as ETag: 304 while unchanged).

``url_for('static', filename='app.css')`` gives the hashed address (a URL default of the app).
A whole page's answer names the files it waits for in a ``Link`` header (rel=preload), so
that a browser asks for them as soon as the page's headers come.
"""

import fcntl
import gzip
import hashlib
import json
import os
import posixpath
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import brotli
import rcssmin
import rjsmin
from flask import Flask, Response, current_app, request
from whitenoise import WhiteNoise

from scorekeeper.http.security import HTMX_FILE

IMMUTABLE = "public, max-age=31536000, immutable"
"""A year, never asked again: the name changes with the content."""
REVALIDATE = "no-cache"
"""A plain name: kept, but asked again (answered 304 while it is unchanged)."""
HASH_LENGTH = 12
"""Hex digits of the content's sha256 in a hashed name: 48 bits."""
HASHED = re.compile(rf"\.[0-9a-f]{{{HASH_LENGTH}}}(\.[^./]+)?$")
"""The hash in a hashed name, before its extension (if it has one)."""
VERSIONED = re.compile(r"(^|/)\d+(\.\d+)+/")
"""A folder named by a version: its files are immutable under their own names."""
NOT_COMPRESSED = frozenset(
    {".png", ".jpg", ".jpeg", ".gif", ".webp", ".avif", ".ico", ".zip", ".gz", ".br", ".woff2"}
)
"""Formats compressed already: a second compression gains nothing."""
WORTH_IT = 0.95
"""A compressed copy is kept only if it is smaller than this share of the file."""
BROTLI_LARGE = 4 * 1024 * 1024
"""Past this size brotli's densest level (11) costs a minute a file on a busy machine; level 9
takes a tenth of it for a copy some 12 % larger (Pyodide's 9.6 MB wasm: 3.1 MB, not 2.7)."""
FORMAT = 3
"""The manifest's layout (3: digests of the minified files, imports rewritten); another one is
built again whole."""
IMPORT = re.compile(rb"""(\bfrom\s*|\bimport\s*\(?\s*)(["'])\./([A-Za-z0-9_.-]+\.js)\2""")
"""A module's import of a script beside it: ``from "./x.js"``, ``import "./x.js"``,
``import("./x.js")``."""
PRELOADED = (
    ("app.css", "style"),
    (HTMX_FILE, "script"),
    ("htmx-loader.js", "module"),
    ("app.js", "module"),
    ("outbox.js", "module"),
)
"""What every page (templates/base.html) waits for before it is usable, in its order: its
style, htmx (a deferred script) and our modules (htmx-loader.js only where the CDN may be
asked); the modules these import follow them in the header."""


@dataclass
class Entry:
    """One static file: its content's hash, the name it is served under, what it was."""

    digest: str
    served: str
    size: int
    mtime_ns: int

    def names(self, plain: str) -> list[str]:
        """Return every file of this entry in the built folder, compressed copies included."""
        return [f"{name}{ending}" for name in {plain, self.served} for ending in ("", ".br", ".gz")]


@dataclass
class Manifest:
    """The built folder's names: each static file's entry, and what the build before kept."""

    files: dict[str, Entry] = field(default_factory=dict)
    previous: list[str] = field(default_factory=list)

    def served(self) -> dict[str, str]:
        """Return each static file's served name, for those that differ from it."""
        return {name: entry.served for name, entry in self.files.items() if entry.served != name}


def hashed_name(name: str, digest: str) -> str:
    """Return the name carrying the hash: before the extension, or at the end without one."""
    if VERSIONED.search(name):
        return name
    folder, _, base = name.rpartition("/")
    stem, dot, extension = base.rpartition(".")
    tag = digest[:HASH_LENGTH]
    tagged = f"{stem}.{tag}.{extension}" if dot and stem else f"{base}.{tag}"
    return f"{folder}/{tagged}" if folder else tagged


def is_immutable(url: str) -> bool:
    """Return whether an address under the static prefix names one content forever."""
    return bool(HASHED.search(url) or VERSIONED.search(url))


def sources(folder: Path) -> Iterator[tuple[str, os.stat_result]]:
    """Yield every file of the static folder (dot files left out), by its name under it."""
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder).as_posix()
        if any(part.startswith(".") for part in relative.split("/")) or not path.is_file():
            continue
        yield relative, path.stat()


def minified(data: bytes, name: str) -> bytes:
    """Return a script or style of ours without its comments and spaces (``/*! … */`` kept).

    A vendored file is left as it came: it is minified already (``….min.js``) or read by
    its own runtime under a versioned folder. The minifiers keep what a browser reads: a
    string, a template literal or a regular expression is copied whole.
    """
    suffix = Path(name).suffix.lower()
    if VERSIONED.search(name) or ".min." in Path(name).name or suffix not in {".js", ".css"}:
        return data
    if suffix == ".js":
        return rjsmin.jsmin(data, keep_bang_comments=True)
    return rcssmin.cssmin(data, keep_bang_comments=True)


def is_module_source(name: str) -> bool:
    """Return whether a static file is one of our scripts (not vendored): a module whose
    imports the build rewrites."""
    path = Path(name)
    return path.suffix == ".js" and ".min." not in path.name and not VERSIONED.search(name)


def imports(data: bytes, name: str) -> list[str]:
    """Return the static files a script imports by relative name, as names under static/."""
    folder = posixpath.dirname(name)
    return [posixpath.join(folder, found.group(3).decode()) for found in IMPORT.finditer(data)]


def with_hashed_imports(data: bytes, name: str, served: Mapping[str, str]) -> bytes:
    """Return a script whose relative imports name the files they import as served."""
    folder = posixpath.dirname(name)

    def hashed(found: re.Match[bytes]) -> bytes:
        imported = posixpath.join(folder, found.group(3).decode())
        if imported not in served:
            raise ValueError(f"{name} imports ./{found.group(3).decode()}, which static/ lacks")
        base = posixpath.basename(served[imported]).encode()
        return found.group(1) + found.group(2) + b"./" + base + found.group(2)

    return IMPORT.sub(hashed, data)


def in_import_order(source: Path, names: list[str]) -> list[str]:
    """Return the static files' names with every script after the scripts it imports."""
    ordered: list[str] = []
    placed: set[str] = set()

    def place(name: str, importers: tuple[str, ...]) -> None:
        if name in placed:
            return
        if name in importers:
            cycle = " -> ".join((*importers[importers.index(name) :], name))
            raise ValueError(f"Scripts import each other in a circle: {cycle}")
        if is_module_source(name) and name in known:
            for imported in imports((source / name).read_bytes(), name):
                if imported in known:
                    place(imported, (*importers, name))
        placed.add(name)
        ordered.append(name)

    known = set(names)
    for name in names:
        place(name, ())
    return ordered


def compressed(data: bytes, name: str) -> dict[str, bytes]:
    """Return the brotli and gzip copies of a file worth keeping (none for a PNG or a zip)."""
    if Path(name).suffix.lower() in NOT_COMPRESSED or not data:
        return {}
    quality = 11 if len(data) <= BROTLI_LARGE else 9
    copies = {
        ".br": brotli.compress(data, quality=quality),
        ".gz": gzip.compress(data, compresslevel=9, mtime=0),
    }
    return {ending: body for ending, body in copies.items() if len(body) < len(data) * WORTH_IT}


def _write(path: Path, data: bytes) -> None:
    """Write a file whole or not at all: aside, then renamed into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    aside = path.with_name(f".{path.name}.{os.getpid()}")
    aside.write_bytes(data)
    os.replace(aside, path)


def _link(source: Path, name: Path) -> None:
    """Give a built file its second name (the hashed one): a link, or a copy where none."""
    aside = name.with_name(f".{name.name}.{os.getpid()}")
    try:
        os.link(source, aside)
    except OSError:
        aside.write_bytes(source.read_bytes())
    os.replace(aside, name)


def manifest_path(target: Path) -> Path:
    """Return where the manifest of a built folder is kept: beside it, never served."""
    return target.with_name(f"{target.name}.json")


def _load(target: Path) -> Manifest:
    try:
        kept = json.loads(manifest_path(target).read_text())
    except (OSError, ValueError):
        return Manifest()
    if not isinstance(kept, dict) or kept.get("format") != FORMAT:
        return Manifest()
    files = {name: Entry(**entry) for name, entry in kept["files"].items()}
    return Manifest(files=files, previous=list(kept["previous"]))


def _save(target: Path, manifest: Manifest) -> None:
    document = {
        "format": FORMAT,
        "files": {name: vars(entry) for name, entry in sorted(manifest.files.items())},
        "previous": sorted(manifest.previous),
    }
    _write(manifest_path(target), json.dumps(document, indent=1).encode())


def _present(target: Path, name: str, entry: Entry) -> bool:
    return (target / name).is_file() and (target / entry.served).is_file()


def _built(source: Path, target: Path, name: str, data: bytes, digest: str) -> Entry:
    """Write one file into the built folder under both names, with its compressed copies."""
    entry = Entry(digest=digest, served=hashed_name(name, digest), size=0, mtime_ns=0)
    _write(target / name, data)
    for ending in (".br", ".gz"):
        (target / f"{name}{ending}").unlink(missing_ok=True)
    for ending, body in compressed(data, name).items():
        _write(target / f"{name}{ending}", body)
    if entry.served != name:
        for ending in ("", ".br", ".gz"):
            plain = target / f"{name}{ending}"
            if plain.is_file():
                _link(plain, target / f"{entry.served}{ending}")
    return entry


_BUILT: dict[tuple[Path, Path], tuple[tuple[object, ...], Manifest]] = {}
"""The last build this process made of each static folder: what it was made from (every
source's size and time, and the manifest's own), and its manifest."""


def build(source: Path, target: Path) -> Manifest:
    """Bring the built folder up to date with the static folder; return its manifest.

    Only files whose size or time changed are read again, and only those whose content
    changed are written and compressed again. Several processes starting at once build
    one after the other (a lock beside the folder): the later ones find it done. An app
    made again in the same process from the same files (the tests make one per test) is
    given the manifest it was given before, the folders only looked at.
    """
    made_from = _made_from(source, target)
    last = _BUILT.get((source, target))
    if last is not None and last[0] == made_from:
        return last[1]
    manifest = _build(source, target)
    _BUILT[(source, target)] = (_made_from(source, target), manifest)
    return manifest


def _made_from(source: Path, target: Path) -> tuple[object, ...]:
    """What a build depends on: each source's name, size and time, and the manifest's time
    (another process's build, or a removed folder, changes it)."""
    try:
        kept = manifest_path(target).stat().st_mtime_ns
    except OSError:
        kept = None
    return (kept, *((name, stat.st_size, stat.st_mtime_ns) for name, stat in sources(source)))


def _build(source: Path, target: Path) -> Manifest:
    target.mkdir(parents=True, exist_ok=True)
    with open(target.with_name(f".{target.name}.lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        old = _load(target)
        files: dict[str, Entry] = {}
        stats = dict(sources(source))
        served: dict[str, str] = {}
        for name in in_import_order(source, list(stats)):
            stat = stats[name]
            entry = old.files.get(name)
            unchanged = entry and (entry.size, entry.mtime_ns) == (stat.st_size, stat.st_mtime_ns)
            if entry and unchanged and not is_module_source(name) and _present(target, name, entry):
                files[name] = entry
                served[name] = entry.served
                continue
            data = minified((source / name).read_bytes(), name)
            if is_module_source(name):
                data = with_hashed_imports(data, name, served)
            digest = hashlib.sha256(data).hexdigest()
            if not (entry and entry.digest == digest and _present(target, name, entry)):
                entry = _built(source, target, name, data, digest)
            files[name] = Entry(entry.digest, entry.served, stat.st_size, stat.st_mtime_ns)
            served[name] = entry.served
        manifest = Manifest(files=files, previous=_previous(old, files))
        _prune(target, manifest)
        if manifest != old:
            _save(target, manifest)
    return manifest


def _previous(old: Manifest, files: Mapping[str, Entry]) -> list[str]:
    """Return the hashed files of the build before that this one no longer serves."""
    now = {entry.served for entry in files.values()}
    if {entry.served for entry in old.files.values()} == now:
        return old.previous  # nothing changed: the same ones as before are kept
    served = [entry.served for name, entry in old.files.items() if entry.served != name]
    return sorted(name for name in served if name not in now)


def _prune(target: Path, manifest: Manifest) -> None:
    """Remove what neither this build nor the one before serves (a file since deleted)."""
    wanted: set[str] = set()
    for name, entry in manifest.files.items():
        wanted.update(entry.names(name))
    wanted.update(f"{name}{ending}" for name in manifest.previous for ending in ("", ".br", ".gz"))
    for path in sorted(target.rglob("*"), reverse=True):
        relative = path.relative_to(target).as_posix()
        if path.is_file() and relative not in wanted and not path.name.startswith("."):
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()


def manifest_of(app: Flask) -> Manifest:
    """Return the manifest of the app's built static files (`init_app` built them)."""
    kept: Manifest = app.extensions["scorekeeper.assets"]
    return kept


def built_folder(app: Flask) -> Path:
    """Return where the app's static files are built: STATIC_BUILD_FOLDER, else build/static/
    beside the static folder."""
    chosen = app.config.get("STATIC_BUILD_FOLDER")
    if chosen:
        return Path(chosen)
    static = Path(app.static_folder or "static").resolve()
    return static.parent / "build" / static.name


def preload_links(app: Flask, script_root: str) -> str:
    """Return the ``Link`` header that has a browser ask for a page's files with its headers.

    A slow phone otherwise asks for them only once the page's body has come and been
    parsed: over Slow 4G that is a round trip and more later.
    """
    local_only = bool(app.config.get("HTMX_LOCAL_ONLY", False))
    kept: dict[tuple[str, bool], str] = app.extensions.setdefault("scorekeeper.preload", {})
    key = (script_root, local_only)
    if key not in kept:
        served = manifest_of(app).served()
        prefix = script_root + (app.static_url_path or "/static").rstrip("/") + "/"
        files = [(n, kind) for n, kind in PRELOADED if not (local_only and n == "htmx-loader.js")]
        modules = [name for name, kind in files if kind == "module"]
        files += [(name, "module") for name in imported_by(built_folder(app), modules)]
        kept[key] = ", ".join(
            f"<{prefix}{served.get(name, name)}>; "
            + ("rel=modulepreload" if kind == "module" else f"rel=preload; as={kind}")
            for name, kind in files
        )
    return kept[key]


def imported_by(target: Path, modules: list[str]) -> list[str]:
    """Return what these built modules import, and what that imports, each once, in the order
    found (a module preloaded in a ``Link`` header does not wait for its importer)."""
    found: list[str] = []
    waiting = list(modules)
    while waiting:
        for name in imports((target / waiting.pop(0)).read_bytes(), ""):
            plain = HASHED.sub(r"\1", name)
            if plain not in modules and plain not in found:
                found.append(plain)
                waiting.append(plain)
    return found


def _preload(response: Response) -> Response:
    """Name a whole page's files in its answer (not a fragment's: htmx asked for it)."""
    if (
        response.status_code == 200
        and response.mimetype == "text/html"
        and "HX-Request" not in request.headers
        and "Link" not in response.headers
    ):
        response.headers["Link"] = preload_links(current_app, request.script_root)
    return response


def init_app(app: Flask, headers: Iterable[tuple[str, str]] = ()) -> Manifest:
    """Build the static files, give ``url_for('static', …)`` their hashed names, and serve
    them through WhiteNoise ahead of the app with `headers` (the security headers) added."""
    source = Path(app.static_folder or "static").resolve()
    target = built_folder(app)
    manifest = build(source, target)
    app.extensions["scorekeeper.assets"] = manifest
    served = manifest.served()
    digests = {name: entry.digest for name, entry in manifest.files.items()}
    digests.update((entry.served, entry.digest) for entry in manifest.files.values())
    fixed = list(headers)

    def hashed(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and values.get("filename") in served:
            values["filename"] = served[values["filename"]]

    def add_headers(answer: Any, path: str, url: str) -> None:
        name = url.removeprefix(prefix)
        answer["Cache-Control"] = IMMUTABLE if is_immutable(name) else REVALIDATE
        if name in digests:  # else (the build before's) WhiteNoise's own, from time and size
            answer["ETag"] = f'"{digests[name][:32]}"'
        for header, value in fixed:
            answer[header] = value

    prefix = app.static_url_path.rstrip("/") + "/" if app.static_url_path else "/static/"
    app.url_defaults(hashed)
    app.after_request(_preload)
    app.wsgi_app = WhiteNoise(  # type: ignore[method-assign]
        app.wsgi_app,
        root=str(target),
        prefix=prefix,
        max_age=None,
        allow_all_origins=False,
        add_headers_function=add_headers,
    )
    return manifest
