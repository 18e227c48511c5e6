"""Static files as phones get them: hashed names, precompressed bodies, kept for a year."""

import gzip
import re
import shutil
from pathlib import Path

import brotli
import pytest
from flask import url_for

from scorekeeper import create_app
from scorekeeper.http import assets
from scorekeeper.http.security import HTMX_FILE, HTMX_INTEGRITY

STATIC = Path(__file__).resolve().parents[1] / "static"
HASHED = re.compile(r"^/static/(?P<stem>.+)\.(?P<hash>[0-9a-f]{12})(?P<ext>\.[^./]+)$")
ALL = "gzip, deflate, br"


def static_url(app, name):
    with app.test_request_context():
        return url_for("static", filename=name)


def served(app, name):
    """Return the name a static file is served under (its hashed one)."""
    return assets.manifest_of(app).files[name].served


def built(name, folder=STATIC):
    """Return a static file as the build serves it: ours minified, with their imports' hashed
    names; a vendored one as it came."""
    data = assets.minified((folder / name).read_bytes(), name)
    if not assets.is_module_source(name):
        return data
    served = {n: assets.hashed_name(n, _sha(built(n, folder))) for n in assets.imports(data, name)}
    return assets.with_hashed_imports(data, name, served)


def page_assets(text):
    """Return the static addresses a page names (scripts, styles, icons, htmx's local copy)."""
    return re.findall(r'(?:src|href)="(/static/[^"]+)"', text)


def body(response):
    """Return a response's body, decompressed as its Content-Encoding says."""
    data = response.get_data()
    response.close()
    encoding = response.headers.get("Content-Encoding")
    if encoding == "br":
        return brotli.decompress(data)
    if encoding == "gzip":
        return gzip.decompress(data)
    assert encoding is None, encoding
    return data


@pytest.mark.parametrize("local_only", [False, True])
def test_every_page_names_its_static_files_by_their_content(app, client, local_only):
    app.config["HTMX_LOCAL_ONLY"] = local_only
    try:
        names = page_assets(client.get("/").text)
    finally:
        app.config["HTMX_LOCAL_ONLY"] = False
    assert len(names) >= 8
    for url in names:
        found = HASHED.match(url)
        assert found, url
        name = f"{found['stem']}{found['ext']}"
        assert assets.hashed_name(name, _sha(built(name))) == url[8:]
    assert f"/static/{HTMX_FILE}" not in names
    assert static_url(app, HTMX_FILE) in names


def _sha(data):
    import hashlib

    return hashlib.sha256(data).hexdigest()


def test_a_hashed_name_is_kept_a_year_and_its_compressed_bodies_are_the_file(app, client):
    for name in ("app.css", "outbox.js", HTMX_FILE):
        url = static_url(app, name)
        original = built(name)
        for accepted, encoding in (("br", "br"), ("gzip", "gzip"), (ALL, "br"), ("", None)):
            response = client.get(url, headers={"Accept-Encoding": accepted})
            assert response.status_code == 200, url
            assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
            assert response.headers.get("Content-Encoding") == encoding, (url, accepted)
            assert response.headers["Vary"] == "Accept-Encoding"
            assert response.headers["X-Content-Type-Options"] == "nosniff"
            assert "Content-Security-Policy" not in response.headers  # a document's, not a file's
            size = int(response.headers["Content-Length"])
            if encoding:
                assert size < len(original) / 2, (url, encoding, size)
            assert body(response) == original, (url, accepted)


def test_the_vendored_htmx_keeps_the_integrity_the_pages_check(app, client):
    import base64
    import hashlib

    served = body(client.get(static_url(app, HTMX_FILE), headers={"Accept-Encoding": ALL}))
    integrity = "sha384-" + base64.b64encode(hashlib.sha384(served).digest()).decode()
    assert integrity == HTMX_INTEGRITY


@pytest.mark.parametrize("local_only", [False, True])
def test_a_page_asks_for_what_it_waits_for_with_its_headers(app, client, local_only):
    """The Link header preloads the page's style, its deferred script and its modules, as its
    head names them, then the modules they import: a slow phone asks for them all as the
    page's headers come, not once it is parsed (nor a module's imports once it came)."""
    app.config["HTMX_LOCAL_ONLY"] = local_only
    try:
        page = client.get("/rules")
        fragment = client.get("/rules", headers={"HX-Request": "true"})
    finally:
        app.config["HTMX_LOCAL_ONLY"] = False
    head = page.text.split("</head>", 1)[0]
    styles = re.findall(r'<link rel="stylesheet" href="([^"]+)"', head)
    scripts = re.findall(r'<script src="([^"]+)"[^>]* defer', head)
    first = head.split('<template id="later-scripts">', 1)[0]  # the rest come once it is parsed
    modules = re.findall(r'<script type="module" src="([^"]+)"', first)
    modules_imported = (
        "common.js", "progress.js", "deal-taps.js", "queue.js", "state.js", "store.js"
    )  # fmt: skip
    imported = ["/static/" + served(app, name) for name in modules_imported]
    links = re.findall(
        r"<([^>]+)>; rel=(preload; as=style|preload; as=script|modulepreload)(?:, |$)",
        page.headers["Link"],
    )
    assert [url for url, _ in links] == styles + scripts + modules + imported
    kinds = ["preload; as=style", "preload; as=script"] + ["modulepreload"] * (len(links) - 2)
    assert [kind for _, kind in links] == kinds
    assert ("htmx-loader" in page.headers["Link"]) is not local_only
    assert all(HASHED.match(url) for url, _ in links)
    assert "Link" not in fragment.headers  # htmx asked: the files are there already


def test_an_image_is_sent_as_it_is_and_says_no_vary(app, client):
    response = client.get(static_url(app, "icons/icon-192.png"), headers={"Accept-Encoding": ALL})
    assert response.status_code == 200
    assert response.mimetype == "image/png"
    assert "Content-Encoding" not in response.headers
    assert "Vary" not in response.headers
    assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert body(response) == (STATIC / "icons" / "icon-192.png").read_bytes()


def test_a_plain_name_is_asked_again_and_answered_304_while_unchanged(client):
    first = client.get("/static/app.js", headers={"Accept-Encoding": "gzip"})
    assert first.status_code == 200
    assert first.headers["Cache-Control"] == "no-cache"
    assert first.headers["Content-Encoding"] == "gzip"
    assert body(first) == built("app.js")
    etag = first.headers["ETag"]
    again = client.get("/static/app.js", headers={"If-None-Match": etag, "Accept-Encoding": "br"})
    assert again.status_code == 304
    assert again.get_data() == b""
    assert again.headers["ETag"] == etag
    assert again.headers["Vary"] == "Accept-Encoding"
    modified = first.headers["Last-Modified"]
    since = client.get("/static/app.js", headers={"If-Modified-Since": modified})
    assert since.status_code == 304


def test_over_https_a_static_file_says_so_too(app, client):
    app_https = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
            "PREFERRED_URL_SCHEME": "https",
        }
    )
    response = app_https.test_client().get(static_url(app_https, "app.js"))
    response.close()
    assert response.headers["Strict-Transport-Security"].startswith("max-age=")
    plain = client.get(static_url(app, "app.js"))
    plain.close()
    assert "Strict-Transport-Security" not in plain.headers


def test_the_etag_is_the_contents_so_every_server_gives_the_same(app, client):
    response = client.get(static_url(app, "app.css"))
    response.close()
    assert response.headers["ETag"] == f'"{_sha(built("app.css"))[:32]}"'


def test_an_unknown_or_wrongly_hashed_name_is_not_found(app, client):
    assert client.get("/static/app.000000000000.css").status_code == 404
    assert client.get("/static/nothing.js").status_code == 404
    assert client.get("/static/../scorekeeper/config.py").status_code == 404


def test_the_app_is_mounted_under_its_prefix_with_its_static_files(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'db.sqlite'}",
            "APPLICATION_ROOT": "/score",
        }
    )
    client = app.test_client()
    url = static_url(app, "app.css")
    assert HASHED.match(url.removeprefix("/score")), url
    url = url.removeprefix("/score")
    response = client.get(url, environ_overrides={"SCRIPT_NAME": "/score"})
    response.close()
    assert response.status_code == 200
    # Another prefix is refused before the files are looked at.
    assert client.get(url, environ_overrides={"SCRIPT_NAME": "/other"}).status_code == 400


# --- the build ----------------------------------------------------------------------------


@pytest.fixture
def folders(tmp_path):
    source = tmp_path / "static"
    (source / "icons").mkdir(parents=True)
    shutil.copy(STATIC / "app.css", source / "app.css")
    for module in ("app.js", "common.js", "deal-taps.js", "progress.js"):  # app.js and its imports
        shutil.copy(STATIC / module, source / module)
    shutil.copy(STATIC / "icons" / "icon-180.png", source / "icons" / "icon-180.png")
    (source / "pyodide" / "1.2.3").mkdir(parents=True)
    (source / "pyodide" / "1.2.3" / "runtime.mjs").write_text("export const x = 1;\n" * 500)
    (source / "pyodide" / "1.2.3" / ".vendored").write_text("stamp")
    return source, tmp_path / "build" / "static"


def test_the_build_writes_both_names_and_compressed_copies_where_they_pay(folders):
    source, target = folders
    manifest = assets.build(source, target)
    css = manifest.files["app.css"]
    assert re.fullmatch(r"app\.[0-9a-f]{12}\.css", css.served)
    original = built("app.css", source)
    for name in ("app.css", css.served):
        assert (target / name).read_bytes() == original
        assert brotli.decompress((target / f"{name}.br").read_bytes()) == original
        assert gzip.decompress((target / f"{name}.gz").read_bytes()) == original
    icon = manifest.files["icons/icon-180.png"].served
    assert (target / icon).is_file() and not (target / f"{icon}.br").exists()
    # A versioned folder's files keep their names, compressed too; its dot files stay out.
    runtime = manifest.files["pyodide/1.2.3/runtime.mjs"]
    assert runtime.served == "pyodide/1.2.3/runtime.mjs"
    assert (target / "pyodide/1.2.3/runtime.mjs.br").is_file()
    assert "pyodide/1.2.3/.vendored" not in manifest.files
    assert assets.is_immutable("pyodide/1.2.3/runtime.mjs")
    assert not assets.is_immutable("app.css") and assets.is_immutable(css.served)
    # Nothing served is the manifest.
    assert assets.manifest_path(target).parent == target.parent


def test_the_build_does_again_only_what_changed_and_keeps_the_release_before(folders):
    source, target = folders
    first = assets.build(source, target)
    old_css = first.files["app.css"].served
    js = target / first.files["app.js"].served
    written = js.stat().st_mtime_ns
    assert assets.build(source, target) == first  # nothing changed: nothing written

    (source / "app.css").write_text("body { color: red; }\n" * 100)  # minified: body{color:red}
    second = assets.build(source, target)
    new_css = second.files["app.css"].served
    assert new_css != old_css
    assert (target / new_css).read_text().startswith("body{color:red}")
    # A page made before may still ask the old name: it is there, with its old content.
    assert (target / old_css).read_bytes() == built("app.css")
    assert (target / f"{old_css}.br").is_file()
    assert js.stat().st_mtime_ns == written  # unchanged, not written again

    # One release later the oldest name goes; a deleted file goes at once.
    (source / "app.css").write_text("body { color: blue; }\n" * 100)
    (source / "app.js").unlink()
    third = assets.build(source, target)
    assert not (target / old_css).exists()
    assert (target / new_css).is_file()
    assert "app.js" not in third.files and not (target / "app.js").exists()


def app_on(source, target, database):
    return create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}",
            "STATIC_FOLDER": str(source),
            "STATIC_BUILD_FOLDER": str(target),
        }
    )


def test_an_app_started_on_a_changed_static_folder_serves_the_change(folders, tmp_path):
    source, target = folders
    database = tmp_path / "db.sqlite"
    app = app_on(source, target, database)
    assert assets.built_folder(app) == target
    before = static_url(app, "app.css")
    assert body(app.test_client().get(before)) == built("app.css")

    (source / "app.css").write_text("main { margin: 0; }\n")
    started = app_on(source, target, database)
    after = static_url(started, "app.css")
    assert after != before
    client = started.test_client()
    assert body(client.get(after)) == b"main{margin:0}"
    assert body(client.get(before)) == built("app.css")  # the release before


def test_our_scripts_and_styles_go_out_minified_and_vendored_files_as_they_came(folders):
    """Comments and spaces are a phone's bytes for nothing: the build drops them from our
    files, keeps a licence comment, and leaves a vendored file byte for byte."""
    source, target = folders
    (source / "app.js").write_text(
        "/*! kept: a licence */\n// a note for us\nconst greeting = `a ${'b'}  c`;\n"
        "const pattern = /\\/\\*  not a comment/;\n"
    )
    (source / "lib.min.js").write_text("/* vendored */ var  x = 1;\n")
    manifest = assets.build(source, target)
    script = (target / manifest.files["app.js"].served).read_text()
    assert script.startswith("/*! kept: a licence */")
    assert "a note for us" not in script
    assert "`a ${'b'}  c`" in script and "/\\/\\*  not a comment/" in script
    style = (target / "app.css").read_bytes()
    assert len(style) < (source / "app.css").stat().st_size * 0.8
    assert b"/*" not in style.replace(b"/*!", b"")
    assert (target / "lib.min.js").read_text() == "/* vendored */ var  x = 1;\n"
    runtime = target / "pyodide/1.2.3/runtime.mjs"
    assert runtime.read_bytes() == (source / "pyodide/1.2.3/runtime.mjs").read_bytes()
    # The name's hash is the served file's: the build before (its hash of the source) is
    # not taken for this one.
    assert manifest.files["app.js"].digest == _sha((target / "app.js").read_bytes())


def test_a_module_imports_the_hashed_names_and_its_own_hash_follows_them(folders):
    """Our modules import each other by plain relative names; the build writes in the names
    served, so a changed import is a new importer too (no page runs two releases' modules)."""
    source, target = folders
    (source / "words.js").write_text('export const hello = "hello";\n')
    (source / "page.js").write_text(
        'import { hello } from "./words.js";\nimport "./common.js";\n'
        'const later = () => import("./words.js");\nexport { hello, later };\n'
    )
    first = assets.build(source, target)
    words = first.files["words.js"].served
    page = (target / first.files["page.js"].served).read_text()
    assert f'from"./{words}"' in page and f'import("./{words}")' in page
    assert f'import"./{first.files["common.js"].served}"' in page
    assert (target / "page.js").read_text() == page  # the plain name is the same file

    (source / "words.js").write_text('export const hello = "hallo";\n')
    second = assets.build(source, target)
    assert second.files["words.js"].served != words
    assert second.files["page.js"].served != first.files["page.js"].served
    assert second.files["page.js"].size == first.files["page.js"].size  # its source unchanged
    assert second.files["app.css"] == first.files["app.css"]


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({"a.js": 'import "./b.js";', "b.js": 'import "./a.js";'}, "a.js -> b.js -> a.js"),
        ({"a.js": 'import { x } from "./nowhere.js";'}, "a.js imports ./nowhere.js"),
    ],
)
def test_a_circle_of_imports_or_a_missing_one_is_said_and_no_build_is_recorded(
    folders, files, message
):
    source, target = folders
    for name, text in files.items():
        (source / name).write_text(text)
    with pytest.raises(ValueError, match=re.escape(message)):
        assets.build(source, target)
    assert not assets.manifest_path(target).exists()
