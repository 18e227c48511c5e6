"""The engine on the scorekeeper's phone: its size on the wire, its time to ready, its memory.

    .venv/bin/python -m bench.engine               # Debian's Chromium at 390x844, 3 rounds
    .venv/bin/python -m bench.engine --rounds 5

Serves the app (SQLite in a temporary folder, the vendored runtime of `make install-run`)
from a thread, opens a game's edit link in Chromium through Playwright, and measures:

- the files the phone's worker fetches: their sizes as stored, as brotli (quality 11) and
  gzip (level 9) would send them, and the bytes of the engine's files (runtime, bundle,
  worker) that went over the wire on a first visit, as served today;
- that nothing of it is asked for before the page's load event (it never delays the first
  paint);
- the time from the worker's start to the engine answering: on a first visit (from the
  network) and on a visit after it (the service worker's copies), as the worker itself
  measures it, and from the page's load event;
- the WebAssembly memory of the runtime once the game is loaded;
- a tap to the preview worked out on the phone shown under the form (the median of 10),
  with the network cut and the CPU 4x slowed (`Emulation.setCPUThrottlingRate`).

Timings depend on the machine: docs/performance.md says which one gave its figures.
"""

import argparse
import gzip
import json
import statistics
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import brotli
from playwright.sync_api import sync_playwright
from werkzeug.serving import make_server

from scorekeeper import create_app
from scorekeeper.extensions import db

CHROMIUM = "/usr/bin/chromium"
SLOWER = 4
"""How much slower than this machine the phone is for the taps (DevTools' CPU throttling)."""
PHONE = {"width": 390, "height": 844}
PLAYERS = ["Ann", "Bob", "Cy", "Di", "Ed"]
TAPS = [
    ("Bidder", "Bob"), ("Bid", "4"), ("Trump", "hearts"), ("Rank", "K"), ("Suit", "hearts"),
    ("Partner", "Di"), ("High", "Di"), ("Low", "Ann"), ("Jack", "Bob"), ("Off-jack", "Cy"),
    ("Joker", "Bob"), ("Game", "Bidders"),
]  # fmt: skip
READY = """async () => {
    const script = document.querySelector('script[type=module][src*="/phone."]');
    return Boolean(script) && (await import(script.src)).phone.ready();
}"""


def serve(folder: Path):
    app = create_app(
        {
            "SECRET_KEY": "bench-phone",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'bench.sqlite'}",
            "HTMX_LOCAL_ONLY": True,
            "RATELIMIT_ENABLED": False,
        }
    )
    with app.app_context():
        db.create_all()
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return app, server, f"http://127.0.0.1:{server.server_port}"


def new_game(base: str) -> dict:
    body = json.dumps({"ruleset": "five-handed-schmier", "players": PLAYERS, "first_dealer": 0})
    request = urllib.request.Request(
        f"{base}/api/v1/games", body.encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


def wait_until(page, script: str, seconds: float = 120, argument: object = None) -> None:
    deadline = time.monotonic() + seconds
    while not page.evaluate(script, argument):
        if time.monotonic() > deadline:
            raise SystemExit(f"still false after {seconds} s: {script}")
        page.wait_for_timeout(50)


def phone_addresses(app) -> list[str]:
    """Return the address of every file the phone's worker fetches."""
    from scorekeeper.web import offline

    with app.test_request_context():
        return list(offline.phone_files() or [])


def file_sizes(addresses: list[str], base: str) -> list[tuple[str, int, int, int]]:
    """Return each file the worker fetches: (name, stored, brotli, gzip) in bytes."""
    rows = []
    for address in addresses:
        with urllib.request.urlopen(base + address, timeout=30) as answer:
            data = answer.read()
        rows.append(
            (
                address.rsplit("/", 1)[1],
                len(data),
                len(brotli.compress(data, quality=11)),
                len(gzip.compress(data, compresslevel=9)),
            )
        )
    return rows


def tap(page, legend: str, option: str) -> None:
    """Tap a choice's button: a chip named by its label, or a points-grid cell ("High: Di")."""
    group = page.get_by_role("group", name=legend, exact=True)
    chips = group.get_by_role("radio", name=option, exact=True)
    chips.or_(group.get_by_role("radio", name=f"{legend}: {option}", exact=True)).click()


KEPT = """async (addresses) => {
    const kept = new Set();
    for (const name of await caches.keys()) {
        if (!name.startsWith("runtime-") && !name.startsWith("shell-")) { continue; }
        const cache = await caches.open(name);
        for (const r of await cache.keys()) { kept.add(new URL(r.url).pathname); }
    }
    return addresses.every((address) => kept.has(address));
}"""
"""Whether the service worker keeps every file the phone's worker fetches (the network cut
sooner, the next start would miss one)."""


def measure(base: str, rounds: int, addresses: list[str]) -> dict:
    figures: dict = {"first": [], "again": [], "after_load": [], "wire": [], "early": []}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        for _ in range(rounds):
            context = browser.new_context(viewport=PHONE)
            game = new_game(base)
            page = context.new_page()
            wire = {"bytes": 0}
            loaded = {}
            fetched: list[float] = []

            def finished(request, wire=wire):
                if "/pyodide/" in request.url or "/phone/" in request.url:
                    sizes = request.sizes()
                    wire["bytes"] += sizes["responseBodySize"] + sizes["responseHeadersSize"]

            context.on("requestfinished", finished)

            def asked(request, fetched=fetched):
                if "/pyodide/" in request.url or "/phone/" in request.url:
                    fetched.append(time.monotonic())

            context.on("request", asked)
            page.on("load", lambda _page, loaded=loaded: loaded.setdefault("at", time.monotonic()))
            page.goto(f"{base}/games/{game['id']}/edit/{game['edit_token']}")
            wait_until(page, READY)
            ready_at = time.monotonic()
            figures["first"].append(
                int(page.evaluate("document.documentElement.dataset.phoneEngineMs"))
            )
            figures["after_load"].append((ready_at - loaded["at"]) * 1000)
            figures["early"].append(bool(fetched) and min(fetched) < loaded["at"])
            wire_before = wire["bytes"]
            figures["wire"].append(wire_before)
            figures["memory"] = page.evaluate(
                """async () => {
                    const script = document.querySelector('script[type=module][src*="/phone."]');
                    return (await (await import(script.src)).phone.call('stats', [])).memory;
                }"""
            )
            # Once the service worker keeps it all: the next visit starts from the phone.
            wait_until(page, "navigator.serviceWorker.controller !== null")
            wait_until(page, KEPT, argument=addresses)
            context.set_offline(True)
            page.reload()
            wait_until(page, READY)
            figures["again"].append(
                int(page.evaluate("document.documentElement.dataset.phoneEngineMs"))
            )
            # A tap, offline: the phone's preview under the form, on a phone 4x slower.
            for legend, option in TAPS[:-1]:
                tap(page, legend, option)
            wait_until(page, "document.querySelector('#deal-preview[data-from=phone]') !== null")
            slow = context.new_cdp_session(page)
            slow.send("Emulation.setCPUThrottlingRate", {"rate": SLOWER})
            taps = []
            for index in range(10):
                option = ("Opponents", "Bidders")[index % 2]
                page.evaluate(
                    """() => { window.__asked = performance.now();
                        const target = document.getElementById('deal-preview');
                        new MutationObserver((_, observer) => {
                          window.__shown = performance.now(); observer.disconnect();
                        }).observe(target, {childList: true}); }"""
                )
                tap(page, "Game", option)
                wait_until(page, "window.__shown > window.__asked")
                taps.append(page.evaluate("window.__shown - window.__asked"))
            figures.setdefault("tap", []).extend(taps)
            context.close()
        browser.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rounds", type=int, default=3)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        app, server, base = serve(Path(folder))
        try:
            addresses = phone_addresses(app)
            sizes = file_sizes(addresses, base)
            figures = measure(base, arguments.rounds, addresses)
        finally:
            server.shutdown()
    median = statistics.median
    print("The engine on the phone (bench/engine.py)")
    print(f"{'file':<28}{'stored':>12}{'brotli':>12}{'gzip':>12}")
    for name, stored, br, gz in sizes:
        print(f"{name:<28}{stored / 1024:>10,.0f}KB{br / 1024:>10,.0f}KB{gz / 1024:>10,.0f}KB")
    totals = [sum(row[i] for row in sizes) for i in (1, 2, 3)]
    print(f"{'total':<28}" + "".join(f"{t / 1024:>10,.0f}KB" for t in totals))
    lines = [
        (
            "first visit, the engine's files on the wire",
            f"{median(figures['wire']) / 1024:,.0f} KB",
        ),
        ("asked before the page's load event", "yes" if any(figures["early"]) else "never"),
        ("ready, first visit (worker's own measure)", f"{median(figures['first']):,.0f} ms"),
        ("ready, first visit, after the load event", f"{median(figures['after_load']):,.0f} ms"),
        ("ready, next visit offline (kept copies)", f"{median(figures['again']):,.0f} ms"),
        ("WebAssembly memory", f"{figures['memory'] / 1024 / 1024:,.0f} MiB"),
        (
            f"tap to the phone's preview, offline, CPU {SLOWER}x slowed",
            f"median {median(figures['tap']):.1f} ms, worst {max(figures['tap']):.1f} ms",
        ),
    ]
    for label, value in lines:
        print(f"{label}: {value}")


if __name__ == "__main__":
    main()
