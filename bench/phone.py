"""Phone benchmark: the deal form on a throttled phone, its bytes on the wire and Lighthouse.

    .venv/bin/python -m bench.phone                  # everything (Lighthouse through npx)
    .venv/bin/python -m bench.phone --no-lighthouse  # the Playwright figures only

The app is served by gunicorn (gunicorn.conf.py, as `make serve`) on a temporary SQLite
file, with a game of five deals, each page asked a few times first (the workers warm).
The deal form is the game's address with the session cookie its edit link gives.
Debian's Chromium, driven by Playwright, opens it as a 390 x 844 phone slowed through
the DevTools protocol: 4x CPU (``Emulation.setCPUThrottlingRate``) and Lighthouse's
Slow 4G, 150 ms round trip, 1.6 Mbps down and 750 kbps up
(``Network.emulateNetworkConditions``). Each figure is the median of --runs runs, each
in a new browser profile:

- the deal form's first load: the bytes on the wire of every request the page makes until
  it is usable (``Network.loadingFinished``'s encoded length: headers and compressed body),
  and, apart, what the service worker then fetches in the background (the shell, home and
  the rules) once the page has loaded;
- the time to usable: the page's DOMContentLoaded, after which htmx (a deferred script)
  has set itself up on the form; also its first contentful paint;
- a repeat visit (a new page of the same profile, with the service worker and with none):
  the requests for static files that reach the server, and the bytes on the wire;
- with the CDN on and the CDN stalled (never answering), the time to usable again.

Lighthouse 12 (the npm registry's, through ``npx``; CHROME_PATH=/usr/bin/chromium, mobile,
its own simulated throttling) then scores home, new game, the deal form, the view page and
a rules page, with FLASK_HTMX_LOCAL_ONLY=true as best practices is judged.

The goals (issue 22): first load ≤ 60 KB, no static request on a repeat visit, usable ≤ 1.0 s
whatever the CDN does, Lighthouse 100 in the four categories on the five pages.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, sync_playwright
from playwright.sync_api import Error as PlaywrightError

from bench.deals import PLAYERS
from bench.throughput import Server, _dealt, _serve
from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.http.security import HTMX_CDN_URL

CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
SLOW_4G = {
    "offline": False,
    "latency": 150,
    "downloadThroughput": 1.6 * 1024 * 1024 / 8,
    "uploadThroughput": 750 * 1024 / 8,
}
CPU_SLOWDOWN = 4
LIGHTHOUSE = "lighthouse@12"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
GOAL_BYTES = 60 * 1024
GOAL_USABLE_MS = 1000
DEALS = 5
"""A game under way (the seventh deal of this sequence wins it): the form and a history."""


@dataclass
class Load:
    """One page load: its requests' bytes, what reached the server, and its times."""

    page_bytes: int = 0
    worker_bytes: int = 0
    static_asked: list[str] = field(default_factory=list)
    usable_ms: float = 0.0
    paint_ms: float = 0.0


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.phone", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (median kept)")
    parser.add_argument("--no-lighthouse", dest="lighthouse", action="store_false")
    args = parser.parse_args()

    failures: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'phone.sqlite'}"
        game = _build(url)
        for local_only in (True, False):
            os.environ["FLASK_HTMX_LOCAL_ONLY"] = "true" if local_only else "false"
            with _serve("scorekeeper:create_app()", url) as server:
                failures += _phone(server, game, args.runs, local_only)
                if local_only and args.lighthouse:
                    failures += _lighthouse(server, game)
        os.environ.pop("FLASK_HTMX_LOCAL_ONLY", None)
    if failures:
        print("FAILED: " + "; ".join(failures))
        raise SystemExit(1)
    print("OK: every goal is reached.")


def _build(url: str) -> dict:
    """Make a game of a dozen deals through the API; return its document (edit token too)."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench", "TESTING": True})
    with app.app_context():
        from flask_migrate import upgrade

        upgrade()
        client = app.test_client()
        created = client.post(
            "/api/v1/games", json={"ruleset": "five-handed-schmier", "players": PLAYERS}
        ).get_json()
        auth = {"Authorization": f"Bearer {created['edit_token']}"}
        for number in range(1, DEALS + 1):
            answer = client.post(
                f"/api/v1/games/{created['id']}/deals",
                json=_dealt(number, created["first_dealer"]),
                headers=auth,
            )
            assert answer.status_code == 201, answer.get_json()
        db.session.remove()
        db.engine.dispose()
    return created


# ------------------------------------------------------------------ Playwright on a slow phone


def _phone(server: Server, game: dict, runs: int, local_only: bool) -> list[str]:
    form = f"{server.base}/games/{game['id']}"
    for path in ("/", "/games/new", f"/games/{game['id']}", "/rules", "/sw.js"):
        for _ in range(3):
            with urllib.request.urlopen(server.base + path, timeout=120) as answer:
                answer.read()
    cookie = _session_cookie(f"{server.base}/games/{game['id']}/edit/{game['edit_token']}")
    failures = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            if local_only:
                first = [_visit(browser, form, cookie, repeat=None) for _ in range(runs)]
                with_worker = [_visit(browser, form, cookie, repeat="allow") for _ in range(runs)]
                without = [_visit(browser, form, cookie, repeat="block") for _ in range(runs)]
                page_kb = statistics.median(x.page_bytes for x in first) / 1024
                worker_kb = statistics.median(x.worker_bytes for x in first) / 1024
                usable = statistics.median(x.usable_ms for x in first)
                paint = statistics.median(x.paint_ms for x in first)
                print("The deal form on a phone: 4x CPU, Slow 4G (150 ms, 1.6 Mbps), median")
                print(f"  of {runs} runs, htmx served locally (FLASK_HTMX_LOCAL_ONLY=true)")
                print(f"  first load on the wire        {page_kb:7.1f} KB  (goal <= 60 KB)")
                print(f"  then the worker's background  {worker_kb:7.1f} KB  (shell, home, rules)")
                print(f"  first contentful paint        {paint:7.0f} ms")
                print(f"  usable (htmx set up)          {usable:7.0f} ms  (goal <= 1000 ms)")
                for label, loads in (("with the worker", with_worker), ("no worker", without)):
                    asked = max(len(x.static_asked) for x in loads)
                    kb = statistics.median(x.page_bytes for x in loads) / 1024
                    ms = statistics.median(x.usable_ms for x in loads)
                    # Through the worker the page itself is its fetch, not the page's.
                    shown = (
                        "the page via the worker" if label == "with the worker" else f"{kb:.1f} KB"
                    )
                    print(
                        f"  repeat visit, {label:15s} {asked} static requests ({shown}),"
                        f" usable {ms:.0f} ms"
                    )
                    if asked:
                        failures.append(f"a repeat visit ({label}) asked {asked} static files")
                if page_kb * 1024 > GOAL_BYTES:
                    failures.append(f"first load {page_kb:.1f} KB")
                if usable > GOAL_USABLE_MS:
                    failures.append(f"usable after {usable:.0f} ms")
            else:
                stalled = [
                    _visit(browser, form, cookie, repeat=None, cdn="stall") for _ in range(runs)
                ]
                usable = statistics.median(x.usable_ms for x in stalled)
                kb = statistics.median(x.page_bytes for x in stalled) / 1024
                print(f"  with the CDN on, the CDN stalled: usable {usable:.0f} ms, {kb:.1f} KB")
                if usable > GOAL_USABLE_MS:
                    failures.append(f"usable after {usable:.0f} ms with the CDN stalled")
        finally:
            browser.close()
    return failures


def _visit(
    browser: Browser, address: str, cookie: str, repeat: str | None, cdn: str | None = None
) -> Load:
    """Load the deal form in a new profile: the first load, or (repeat) the second one."""
    # The pages' CSP forbids the evaluated strings Playwright waits with: bypassed here.
    context = browser.new_context(
        viewport=PHONE,
        service_workers="block" if repeat == "block" else "allow",
        bypass_csp=True,
    )
    name, value = cookie.split("=", 1)
    context.add_cookies([{"name": name, "value": value, "url": address}])
    try:
        if cdn == "stall":
            context.route(HTMX_CDN_URL, lambda route: None)  # never answered
        if repeat:
            page = context.new_page()
            page.goto(address)
            _settle(page, worker=repeat == "allow")
            page.close()
        page = context.new_page()
        load = _measured(page, address, first=repeat is None)
        return load
    finally:
        context.close()


def _settle(page: Page, worker: bool) -> None:
    """Wait until the first visit is over: htmx up, and the worker holding its shell."""
    page.wait_for_function("() => window.htmx !== undefined", timeout=30_000)
    if worker:
        page.wait_for_function(
            "async () => navigator.serviceWorker.controller !== null"
            " && (await caches.keys()).some(n => n.startsWith('shell-'))",
            timeout=60_000,
            polling=200,
        )
        page.wait_for_timeout(1000)  # the pages kept from the start


def _measured(page: Page, address: str, first: bool) -> Load:
    """Open the address throttled; return its bytes, the static files asked and its times."""
    session = page.context.new_cdp_session(page)
    session.send("Network.enable")
    session.send("Network.emulateNetworkConditions", SLOW_4G)
    session.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    load = Load()
    urls: dict[str, str] = {}
    from_elsewhere: set[str] = set()
    loaded = [False]

    def sent(event: dict) -> None:
        urls[event["requestId"]] = event["request"]["url"]

    def received(event: dict) -> None:
        response = event["response"]
        if response.get("fromServiceWorker") or response.get("fromDiskCache"):
            from_elsewhere.add(event["requestId"])
        elif "/static/" in response["url"]:
            load.static_asked.append(response["url"])

    def finished(event: dict) -> None:
        if event["requestId"] not in from_elsewhere and not loaded[0]:
            load.page_bytes += int(event["encodedDataLength"])

    session.on("Network.requestWillBeSent", sent)
    session.on("Network.responseReceived", received)
    session.on("Network.loadingFinished", finished)
    page.goto(address, wait_until="load")
    page.wait_for_function("() => window.htmx !== undefined", timeout=30_000)
    if not page.locator("#deal-form").count():
        raise SystemExit("the page has no deal form: the session cookie gave no edit rights")
    loaded[0] = True  # what comes later (live polls) is not the first load
    timings = page.evaluate(
        """() => {
          const nav = performance.getEntriesByType("navigation")[0];
          const paint = performance.getEntriesByName("first-contentful-paint")[0];
          return {usable: nav.domContentLoadedEventEnd, paint: paint ? paint.startTime : 0};
        }"""
    )
    load.usable_ms = timings["usable"]
    load.paint_ms = timings["paint"]
    # The service worker's own fetches are its target's, not the page's: what it kept and
    # the page had not loaded (from the browser's cache) is asked again to be weighed. On a
    # first visit only, whether or not the worker (unthrottled) controls the page already.
    if first:
        try:
            page.wait_for_function(
                "async () => (await caches.keys()).some(n => n.startsWith('shell-'))",
                timeout=60_000,
                polling=200,
            )
        except PlaywrightError:  # no worker (blocked): nothing fetched in the background
            session.detach()
            return load
        page.wait_for_timeout(1500)
        load.worker_bytes = _worker_bytes(page, set(urls.values()))
    session.detach()
    return load


def _worker_bytes(page: Page, loaded: set[str]) -> int:
    """Return the size on the wire of what the worker kept that the page had not loaded."""
    kept = page.evaluate(
        """async () => {
          const urls = [];
          for (const name of await caches.keys()) {
            for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
          }
          return urls;
        }"""
    )
    total = 0
    for url in set(kept) - loaded:
        request = urllib.request.Request(url, headers={"Accept-Encoding": "br, gzip"})
        with urllib.request.urlopen(request, timeout=10) as answer:
            total += len(answer.read()) + sum(
                len(k) + len(v) + 4 for k, v in answer.headers.items()
            )
    return total


# ------------------------------------------------------------------ Lighthouse


def _lighthouse(server: Server, game: dict) -> list[str]:
    npx = shutil.which("npx")
    if not npx:
        print("Lighthouse: npx is not installed (apt-get install npm); skipped")
        return []
    cookie = _session_cookie(f"{server.base}/games/{game['id']}/edit/{game['edit_token']}")
    pages = [
        ("home", f"{server.base}/", None),
        ("new game", f"{server.base}/games/new", None),
        ("the deal form", f"{server.base}/games/{game['id']}", cookie),
        ("the view page", f"{server.base}/games/{game['id']}", None),
        ("a rules page", f"{server.base}/rules/five-handed-schmier", None),
    ]
    failures = []
    print(f"Lighthouse ({LIGHTHOUSE}, mobile), FLASK_HTMX_LOCAL_ONLY=true")
    print(f"  {'page':16s}" + "".join(f"{c:>16s}" for c in CATEGORIES))
    for label, url, cookie_header in pages:
        scores, missed = _lighthouse_scores(npx, url, cookie_header)
        print(f"  {label:16s}" + "".join(f"{scores[c]:16d}" for c in CATEGORIES))
        for audit in missed:
            print(f"    missed: {audit}")
        failures += [
            f"Lighthouse {c} {scores[c]} on {label}" for c in CATEGORIES if scores[c] < 100
        ]
    return failures


def _session_cookie(edit_link: str) -> str:
    """Return the session cookie the edit link gives a browser (the deal form's rights)."""

    class Stay(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: object, **kwargs: object) -> None:
            return None

    opener = urllib.request.build_opener(Stay)
    try:
        opener.open(edit_link, timeout=120)
    except urllib.error.HTTPError as answer:
        cookie = answer.headers["Set-Cookie"]
        return cookie.split(";", 1)[0]
    raise SystemExit("the edit link gave no session cookie")


def _lighthouse_scores(npx: str, url: str, cookie: str | None) -> tuple[dict[str, int], list[str]]:
    """Return each category's score, and the audits that cost a category points."""
    with _report_file() as report:
        command = [
            npx, "--yes", LIGHTHOUSE, url,
            "--quiet", "--output=json", f"--output-path={report}",
            "--only-categories=" + ",".join(CATEGORIES),
            '--chrome-flags=--headless --no-sandbox',
        ]  # fmt: skip
        if cookie:
            command.append("--extra-headers=" + json.dumps({"Cookie": cookie}))
        env = {**os.environ, "CHROME_PATH": CHROMIUM}
        subprocess.run(command, check=True, env=env, timeout=300, stdout=subprocess.DEVNULL)
        result = json.loads(report.read_text())
    scores = {c: round(100 * (result["categories"][c]["score"] or 0)) for c in CATEGORIES}
    audits = result["audits"]
    missed = [
        f"{c}: {ref['id']} ({audits[ref['id']].get('title', '')}){_where(audits[ref['id']])}"
        for c in CATEGORIES
        for ref in result["categories"][c]["auditRefs"]
        if ref.get("weight")
        and (audits[ref["id"]].get("score") is not None)
        and audits[ref["id"]]["score"] < 1
    ]
    return scores, missed


def _where(audit: dict[str, Any]) -> str:
    """Return the page's elements an audit names, the first three, for the reader."""
    items = (audit.get("details") or {}).get("items") or []
    nodes = [item["node"] for item in items if isinstance(item.get("node"), dict)]
    return "".join(f"\n      {node.get('selector', '')}" for node in nodes[:3])


@contextmanager
def _report_file() -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as folder:
        yield Path(folder) / "report.json"


if __name__ == "__main__":
    main()
