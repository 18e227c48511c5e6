"""Serve the app from a thread for Debian's Chromium, driven by Playwright at phone size."""

import json
import threading
import urllib.request
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from scorekeeper import create_app
from scorekeeper.extensions import db

AXE = Path(__file__).resolve().parents[1] / "vendor" / "axe.min.js"
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Launch Debian's Chromium; Playwright never downloads a browser here."""
    return {
        **browser_type_launch_args,
        "executable_path": "/usr/bin/chromium",
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """Open every page as a 390 x 844 phone."""
    return {**browser_context_args, "viewport": PHONE}


@pytest.fixture(scope="session")
def live_app(tmp_path_factory):
    """Return the app the browser tests talk to, on a fresh SQLite file (htmx served locally)."""
    yield from browser_app(tmp_path_factory.mktemp("live") / "scorekeeper.sqlite")


def browser_app(path, **config):
    """Yield an app for the browser tests on a new SQLite file at `path`, with `config` over
    the browser tests' settings; stopped and closed after."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "browser-test-secret",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}",
            "HTMX_LOCAL_ONLY": True,
            "RATELIMIT_ENABLED": False,
            # The engine's runtime is started only where a test asks (test_phone_engine.py):
            # elsewhere its 11 MB and its start would only slow every editor's page.
            "PHONE_ENGINE": False,
            **config,
        }
    )
    with app.app_context():
        db.create_all()
    yield app
    app.extensions["scorekeeper.versions"].stop()
    with app.app_context():
        db.engine.dispose()


def whole_bodies(app):
    """Hand the server each answer read whole, its body closed, event streams excepted.

    Werkzeug's server skips the body's ``close()`` when the browser hangs up mid-answer
    (its clean-up reads the dead socket and raises first), which left a static file open
    for the garbage collector to report as an unclosed file in some later test.
    """

    def serve(environ, start_response):
        kind = []

        def remember(status, headers, exc_info=None):
            kind.extend(value for name, value in headers if name.lower() == "content-type")
            return start_response(status, headers, exc_info)

        body = app(environ, remember)
        if kind and kind[0].startswith("text/event-stream"):
            return body
        try:
            return [b"".join(body)]
        finally:
            if hasattr(body, "close"):
                body.close()

    return serve


@pytest.fixture(scope="session")
def live_server(live_app):
    """Yield the base URL of the app served on a free local port."""
    yield from serve(whole_bodies(live_app))


def serve(application, root=""):
    """Yield the base URL (`root` after the port) of a WSGI application served on a free
    local port; shut down after."""
    server = make_server("127.0.0.1", 0, application, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}{root}"
    server.shutdown()
    thread.join(timeout=5)
    server.server_close()


WORDS_OF = """(node) => {
  const words = [];
  const pattern = /\\S+/g;
  let found;
  while ((found = pattern.exec(node.textContent)) !== null) {
    const range = document.createRange();
    range.setStart(node, found.index);
    range.setEnd(node, found.index + found[0].length);
    words.push([found[0], range]);
  }
  return words;
}"""
"""A script function: each word of a text node with its range, to ask where it is drawn."""


def check_axe(page):
    """Run axe-core in the page and fail with a readable list of any violations."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        # The page's CSP forbids inline scripts (so add_script_tag is refused); evaluating
        # through the DevTools protocol is not subject to it and leaves the CSP in force.
        page.evaluate(AXE.read_text(encoding="utf-8"))
    # target-size (WCAG 2.5.8, a target of 24 px clear of any other) is off in axe's
    # defaults; Lighthouse runs it, and a tap at the table must land where it is meant.
    result = page.evaluate(
        "async () => await axe.run(document, { rules: { 'target-size': { enabled: true } } })"
    )
    problems = [
        f"{v['id']} ({v['impact']}): {v['help']} -> "
        + "; ".join(" ".join(n["target"]) for n in v["nodes"][:5])
        for v in result["violations"]
    ]
    assert not problems, "\n".join(problems)
    return result


@pytest.fixture
def phone(browser):
    """One phone with its own cookies (and its own service worker); closed after the test."""
    context = browser.new_context(viewport=PHONE)
    yield context
    context.close()


def read(live_server, path):
    """Return the JSON the server answers at this path (the API), as another client reads it."""
    with urllib.request.urlopen(live_server + path, timeout=5) as answer:
        return json.load(answer)


def server_board(page):
    """Return the server's scoreboard on the page: (name, score) per side."""
    rows = page.locator("#scoreboard .score-row")
    names = rows.locator(".name").all_inner_texts()
    return list(zip(names, rows.locator(".score").all_inner_texts(), strict=True))
