"""Opening the app with no connection: the service worker and the page it shows instead.

The worker (`/sw.js`, from templates/offline/sw.js) is served from the app's root so that
its scope covers every page. It is named after the release: a hash of the static files as
served and of the templates, or the `RELEASE` setting. A new release is a new worker, which
fetches the new shell, takes over at once and drops the old shell; the pages this phone
opened, and the deals kept on it (static/outbox.js, in IndexedDB), stay.
"""

import difflib
import functools
import hashlib
import importlib.util
import io
import itertools
import json
import zipfile
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, abort, current_app, render_template, request, url_for
from flask_babel import get_locale
from flask_wtf.csrf import generate_csrf as csrf_token
from markupsafe import Markup
from wtforms.i18n import messages_path

from scorekeeper import engine, words
from scorekeeper.engine import house_rule_text
from scorekeeper.http import assets, languages
from scorekeeper.http.security import HTMX_CDN_URL
from scorekeeper.web import sharing
from scorekeeper.web.forms import deal_form
from scorekeeper.web.game_page import turn

bp = Blueprint("offline", __name__)

SHELL_FILES = ("*.js", "*.css", "icons/*.png")
"""The static files every page may need: scripts (the vendored htmx too), styles, icons."""
ROOT = Path(__file__).resolve().parents[2]


RUNTIME = "pyodide"
"""The folder of static/ the engine's runtime is vendored into (tools/vendor_pyodide.py): left
out of the release's hash, since its files are named by its version."""


@functools.cache
def _hash_of(static: tuple[tuple[str, str], ...], *folders: Path) -> str:
    """Return a short hash of the static files as served (name and digest of each) and of
    every file under these folders (names and contents)."""
    digest = hashlib.sha256()
    for name, served in static:
        digest.update(f"{name} {served}\n".encode())
    for folder in folders:
        files = (p for p in folder.rglob("*") if p.is_file())
        for path in sorted(files):
            digest.update(str(path.relative_to(folder)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def release() -> str:
    """Return the name of this release: the setting, else what the browser gets, hashed: the
    static files as the build serves them (minified, so a new minifier is a new release too)
    and the templates."""
    chosen = current_app.config.get("RELEASE")
    if chosen:
        return str(chosen)
    if current_app.debug:  # templates edited while the server runs are a new release at once
        _hash_of.cache_clear()
    files = assets.manifest_of(current_app).files
    served = ((name, entry.digest) for name, entry in files.items())
    static = tuple(sorted(pair for pair in served if pair[0].split("/")[0] != RUNTIME))
    return _hash_of(static, ROOT / "templates")


@functools.cache
def _shell_files(folder: Path) -> tuple[str, ...]:
    return tuple(
        sorted(str(p.relative_to(folder)) for pattern in SHELL_FILES for p in folder.glob(pattern))
    )


# --- the engine on the phone: its runtime, its bundle, its worker --------------------------

PACKAGE = ROOT / "scorekeeper"
BUNDLED = (
    "engine/**/*.py",
    "deal_entry.py",
    "words.py",
    "phone.py",
    "translations/*/LC_MESSAGES/messages.mo",
)
"""What the phone's worker runs, from the very files the server runs: the engine package,
the deal form's reading (scorekeeper/deal_entry.py) and words (scorekeeper/words.py), its
bridge (scorekeeper/phone.py) and the compiled catalogs (`make install` builds them)."""
LIBRARIES = ("jinja2", "markupsafe")
"""The pure-Python packages the phone renders them with, their sources taken from the
server's own installation when the bundle is made: the very versions the server renders
with (requirements/ pins them), and no copy of them in git. MarkupSafe's C speedups are
left out: it runs its pure-Python fallback."""
STAMP = ".vendored"


def runtime_folder() -> Path | None:
    """Return the vendored runtime's folder, static/pyodide/<version>/, if it was made."""
    return _runtime_in(Path(current_app.static_folder or ROOT / "static"))


@functools.cache
def _runtime_in(static: Path) -> Path | None:
    found = sorted((static / RUNTIME).glob(f"*/{STAMP}"))
    return found[-1].parent if found else None


@bp.app_template_global()
def phone_engine() -> str | None:
    """Return the address of the phone's engine worker, or None where it is not installed."""
    if not current_app.config.get("PHONE_ENGINE", True) or runtime_folder() is None:
        return None
    return url_for("offline.phone_worker")


@functools.cache
def _bundle(digest: str) -> bytes:
    """Return the engine's bundle, a zip of `BUNDLED` under scorekeeper/ (one per digest)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, path in _bundled():
            info = zipfile.ZipInfo(name)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
    return out.getvalue()


def _bundled() -> list[tuple[str, Path]]:
    """Return each file of the bundle: its name in the zip, and where it is read from."""
    found = sorted({p for pattern in BUNDLED for p in PACKAGE.glob(pattern) if p.is_file()})
    files = [(f"scorekeeper/{p.relative_to(PACKAGE).as_posix()}", p) for p in found]
    files += [(f"templates/{name}", ROOT / "templates" / name) for name in words.PHONE_TEMPLATES]
    for library in LIBRARIES:
        folder = Path(importlib.util.find_spec(library).origin or "").parent  # type: ignore[union-attr]
        files += [(f"{library}/{p.name}", p) for p in sorted(folder.glob("*.py"))]
    # WTForms' own messages ("Not a valid integer value."), as Flask-WTF translates them
    # for the pages: beside each language's catalog, for the languages WTForms has.
    for code in languages.LANGUAGES:
        forms = Path(messages_path()) / code / "LC_MESSAGES" / "wtforms.mo"
        if forms.is_file():
            files.append((f"scorekeeper/translations/{code}/LC_MESSAGES/wtforms.mo", forms))
    return files


@functools.cache
def _bundle_digest() -> str:
    digest = hashlib.sha256()
    for name, path in _bundled():
        digest.update(name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def bundle_digest() -> str:
    """Return the hash naming the engine's bundle (worked out again when debugging)."""
    if current_app.debug:
        _bundle_digest.cache_clear()
    return _bundle_digest()


def phone_files() -> list[str] | None:
    """Return the addresses the phone's worker fetches, the worker first; None without runtime."""
    folder = runtime_folder()
    if folder is None:
        return None
    runtime = [
        url_for("static", filename=f"{RUNTIME}/{folder.name}/{name}")
        for name in (
            "pyodide.mjs",
            "pyodide.asm.mjs",
            "pyodide.asm.wasm",
            "pyodide-lock.json",
            "stdlib.zip",
        )
    ]
    bundle = url_for("offline.bundle", digest=bundle_digest())
    return [url_for("offline.phone_worker"), bundle, *runtime]


@bp.get("/phone/worker.js")
def phone_worker() -> Response:
    """Serve the module worker that runs the engine on the phone (static/phone.js starts it)."""
    files = phone_files()
    if files is None:
        abort(404)
    _worker, bundle, *runtime = files
    source = render_template(
        "offline/phone-worker.js",
        runtime=runtime[0].rsplit("/", 1)[0] + "/",
        bundle=bundle,
    )
    response = current_app.response_class(source, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    # Pyodide compiles its WebAssembly: allowed here, in the worker, and nowhere else.
    response.headers["Content-Security-Policy"] = (
        "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'"
    )
    return response


@bp.get("/phone/engine-<digest>.zip")
def bundle(digest: str) -> Response:
    """Serve the engine's bundle under its hash: it never changes, so it is kept for a year."""
    if digest != bundle_digest():
        abort(404)
    response = current_app.response_class(_bundle(digest), mimetype="application/zip")
    response.headers["Cache-Control"] = "public, max-age=31536000, immutable"
    return response


# --- a game started on this phone: its page, before the server knows it ------------------

MADE_HERE_ID = "made-on-this-phone"
"""Where a page for a game made on the phone names its id (static/made-here.js puts the
game's own in its place)."""


def seat_mark(seat: int) -> str:
    """Return what stands for the name in this seat on that page (the phone writes it in)."""
    return f"\u27e6{seat}\u27e7"


def setups(ruleset: engine.Ruleset) -> list[tuple[int, dict[str, Any]]]:
    """Return every table a game of this ruleset can be set up with: seats and house rules."""
    rules = list(ruleset.house_rules.items())
    found = []
    for seats in range(ruleset.min_players, ruleset.max_players + 1):
        for values in itertools.product(*(rule.values for _name, rule in rules)):
            found.append((seats, {name: v for (name, _rule), v in zip(rules, values, strict=True)}))
    return found


CSRF_MARK = "made-here-csrf-token"
"""Where the deal entries of that page, kept for every phone (`deal_entries`), hold the
CSRF token; each page gets its browser's own."""


def deal_entries(ruleset: engine.Ruleset) -> str:
    """Return, as JSON, the deal entry of a game's first deal for every setup of this
    ruleset: the seats, then each house rule's value as the form sends it ("5 true false").

    The names are marks (`seat_mark`), the first dealer seat 0: the phone writes in the
    names, and its engine the turn and the auction's speakers. One entry per seat count is
    given whole (`bases`); every setup names its base and the lines that differ from it
    (`patch`: [first line, end line, lines instead]), so a house rule that changes a hint
    costs a line, not a form. Worked out once per app, ruleset, language, release and the
    app's root: its addresses (the form's action) are under the root the page was asked at.
    """
    entries: dict[tuple[str, str, str, str], str] = current_app.extensions.setdefault(
        "scorekeeper.made_here_entries", {}
    )
    key = (ruleset.id, str(get_locale()), release(), request.script_root)
    if key not in entries:
        # Inside a <script> block: no "<" may close it.
        entries[key] = json.dumps(_deal_entries(ruleset)).replace("<", "\\u003c")
    return entries[key]


def _deal_entries(ruleset: engine.Ruleset) -> dict[str, Any]:
    bases: list[str] = []
    base_of: dict[int, int] = {}
    variants: list[dict[str, Any]] = []
    for seats, house_rules in setups(ruleset):
        config = engine.configure(
            ruleset=ruleset.id,
            players=[seat_mark(seat) for seat in range(seats)],
            first_dealer=0,
            house_rules=house_rules,
        )
        html = render_template(
            "games/_deal_entry.html",
            form=deal_form(config, 0, number=1, fresh=True),
            game={"id": MADE_HERE_ID, "deals": [], "ruleset": ruleset.id},
            config=config,
            ruleset=ruleset,
            turn=turn(config, 0),
            history=[],
            finished=False,
            oob=False,
        ).replace(csrf_token(), CSRF_MARK)
        setup = " ".join([str(seats), *(house_rule_text(v) for v in house_rules.values())])
        if seats not in base_of:
            base_of[seats] = len(bases)
            bases.append(html)
        base = bases[base_of[seats]].split("\n")
        lines = html.split("\n")
        patch = [
            [i1, i2, lines[j1:j2]]
            for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(
                None, base, lines, autojunk=False
            ).get_opcodes()
            if tag != "equal"
        ]
        same = next(
            (v for v in variants if v["base"] == base_of[seats] and v["patch"] == patch), None
        )
        if same is not None:
            same["setups"].append(setup)
        else:
            variants.append({"setups": [setup], "base": base_of[seats], "patch": patch})
    return {"bases": bases, "variants": variants}


@bp.get("/offline/games/<ruleset_id>")
def made_here(ruleset_id: str) -> str:
    """Show the page of a game started on this phone with no connection, for this ruleset.

    Kept by the service worker from the start; static/made-here.js fills it from the game
    kept on the phone (its address ends with `#<the game's id>`), and the outbox and the
    phone's engine then work on it as on a game page the server made.
    """
    ruleset = next((r for r in engine.rulesets() if r.id == ruleset_id), None)
    if ruleset is None:
        abort(404)
    return render_template(
        "offline/game.html",
        ruleset=ruleset,
        game={"id": MADE_HERE_ID, "ruleset": ruleset.id},
        entries=Markup(deal_entries(ruleset).replace(CSRF_MARK, csrf_token())),
        house_rules=list(ruleset.house_rules),
        defaults=[house_rule_text(rule.default) for rule in ruleset.house_rules.values()],
    )


def shell() -> list[str]:
    """Return the addresses every page needs, kept by the worker before it takes over."""
    files = _shell_files(Path(current_app.static_folder or ROOT / "static"))
    return [url_for("static", filename=name) for name in files] + [url_for("install.manifest")]


def pages() -> list[str]:
    """Return the pages kept from the start: home, the rules, the new-game page for each
    game (a game can be started offline: static/kept-games.js) and the page of a game
    started so (static/made-here.js), and the page for any other."""
    rulesets = engine.rulesets()
    rules = [url_for("rules.show", ruleset_id=ruleset.id) for ruleset in rulesets]
    new = [url_for("games.new", ruleset=ruleset.id) for ruleset in rulesets]
    made_here_pages = [url_for("offline.made_here", ruleset_id=ruleset.id) for ruleset in rulesets]
    return [
        url_for("games.home"),
        url_for("rules.index"),
        *rules,
        url_for("games.new"),
        *new,
        *made_here_pages,
        url_for("offline.page"),
    ]


def page_limits() -> dict[str, int]:
    """Return how many pages the worker keeps besides those kept from the start, and for
    how long (seconds): the settings `OFFLINE_PAGES_MAX` and `OFFLINE_PAGES_DAYS`."""
    config = current_app.config
    return {
        "maxEntries": int(config["OFFLINE_PAGES_MAX"]),
        "maxAgeSeconds": int(config["OFFLINE_PAGES_DAYS"]) * 24 * 60 * 60,
    }


@bp.get("/sw.js")
def worker() -> Response:
    """Serve the service worker, always asked afresh so that a new release is seen at once."""
    local_only = current_app.config.get("HTMX_LOCAL_ONLY", False)
    source = render_template(
        "offline/sw.js",
        release=release(),
        shell=shell(),
        pages=pages(),
        fallback=url_for("offline.page"),
        cdn=None if local_only else HTMX_CDN_URL,
        phone=phone_files() or [],
        runtime=(runtime_folder() or Path("none")).name,
        limits=page_limits(),
        copy_header=sharing.COPY_HEADER,
    )
    response = current_app.response_class(source, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    # The worker itself fetches: the app, and the one pinned htmx file from the CDN.
    connect = "'self'" if local_only else f"'self' {HTMX_CDN_URL}"
    response.headers["Content-Security-Policy"] = (
        f"default-src 'none'; connect-src {connect}; script-src 'self'"
    )
    return response


@bp.get("/offline")
def page() -> str:
    """Say, offline, that the page asked for was never opened on this phone."""
    return render_template("offline/page.html")
