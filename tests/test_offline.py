"""The service worker that lets the app open with no connection, as the server serves it."""

import json
import re

from scorekeeper.http.security import HTMX_CDN_URL
from tests.test_assets import static_url


def worker_values(source):
    """Return the values the worker is made with (release, shell, pages, fallback, CDN)."""
    return dict(
        re.findall(
            r"^var (RELEASE|SHELL|PAGES|FALLBACK|CDN|LIMITS|COPY) = (.*?);(?: /\*.*)?$",
            source,
            re.M,
        )
    )


def test_the_worker_is_served_from_the_root_never_from_a_cache_with_its_own_policy(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    policy = response.headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy
    assert f"connect-src 'self' {HTMX_CDN_URL}" in policy  # it keeps the CDN's htmx too
    assert "nosniff" in response.headers["X-Content-Type-Options"]
    # Pages may start it.
    assert "worker-src 'self'" in client.get("/").headers["Content-Security-Policy"]


def test_the_worker_keeps_files_that_exist_and_the_pages_it_names(app, client):
    values = worker_values(client.get("/sw.js").text)
    shell = re.findall(r'"([^"]+)"', values["SHELL"])
    # By their hashed names, as the pages name them.
    for name in ("outbox.js", "htmx-2.0.11.min.js", "app.css", "icons/icon-maskable-512.png"):
        assert static_url(app, name) in shell, name
        assert re.search(r"\.[0-9a-f]{12}\.", static_url(app, name))
    assert "/static/app.css" not in shell
    assert "/manifest.webmanifest" in shell
    for url in shell + re.findall(r'"([^"]+)"', values["PAGES"]):
        answer = client.get(url)
        assert answer.status_code == 200, url
        answer.close()
    assert values["FALLBACK"] == '"/offline"'
    assert values["CDN"] == f'"{HTMX_CDN_URL}"'


def test_the_worker_is_a_module_importing_the_release_handover_by_its_hashed_name(app, client):
    """The worker decides a release's handover with static/releases.js (unit-tested under
    Node), imported by the name the build serves it under; the page registers it as a
    module worker."""
    source = client.get("/sw.js").text
    imported = re.findall(r'^import \{[^}]+\} from "([^"]+)";$', source, re.M)
    assert imported == [static_url(app, "releases.js")]
    assert re.search(r"\.[0-9a-f]{12}\.js$", imported[0])
    handover = client.get(imported[0])
    assert handover.status_code == 200
    handover.close()
    offline = client.get(static_url(app, "offline.js"))
    assert 'type:"module"' in offline.text
    offline.close()


def test_the_release_names_the_worker_and_changes_with_the_setting(app, client):
    release = worker_values(client.get("/sw.js").text)["RELEASE"]
    assert re.fullmatch(r'"[0-9a-f]{16}"', release)  # what the browser gets, hashed
    app.config["RELEASE"] = "2026.12.1"
    try:
        assert worker_values(client.get("/sw.js").text)["RELEASE"] == '"2026.12.1"'
    finally:
        app.config["RELEASE"] = None


def test_local_only_the_worker_asks_no_cdn(app, client):
    app.config["HTMX_LOCAL_ONLY"] = True
    try:
        response = client.get("/sw.js")
    finally:
        app.config["HTMX_LOCAL_ONLY"] = False
    assert worker_values(response.text)["CDN"] == "null"
    assert "cdn.jsdelivr.net" not in response.headers["Content-Security-Policy"]


def test_the_page_for_a_page_never_opened_says_so_in_the_pages_language(client):
    page = client.get("/offline", headers={"Accept-Language": "fr"})
    assert page.status_code == 200
    assert "<h1>Hors ligne</h1>" in page.text


def test_under_a_prefix_the_worker_matches_every_address_under_it(database):
    """Every address the worker keeps or matches comes from the app's root: the pages,
    the shell and the phone's files by url_for, the games' exports by the root it is given
    (static/releases.js `exportPattern`, unit-tested under Node)."""
    from tests.test_forwarded import make_app

    app = make_app(database, APPLICATION_ROOT="/scores")
    source = app.test_client().get("/sw.js").text
    assert 'var ROOT = "/scores";' in source
    assert "var EXPORT = exportPattern(ROOT);" in source
    values = worker_values(source)
    for url in re.findall(r'"([^"]+)"', values["SHELL"] + values["PAGES"] + values["FALLBACK"]):
        assert url.startswith("/scores/"), url
    # No address written in the worker itself: the old export pattern was one.
    assert "\\/games" not in source and '"/games' not in source


def test_the_pages_kept_are_bounded_by_the_settings(app, client):
    """How many pages the worker keeps, and how long (static/releases.js `expired`)."""
    values = worker_values(client.get("/sw.js").text)
    assert json.loads(values["LIMITS"]) == {"maxEntries": 60, "maxAgeSeconds": 30 * 24 * 60 * 60}
    assert json.loads(values["COPY"]) == "X-Offline-Copy"
    app.config.update(OFFLINE_PAGES_MAX=5, OFFLINE_PAGES_DAYS=2)
    try:
        values = worker_values(client.get("/sw.js").text)
    finally:
        app.config.update(OFFLINE_PAGES_MAX=60, OFFLINE_PAGES_DAYS=30)
    assert json.loads(values["LIMITS"]) == {"maxEntries": 5, "maxAgeSeconds": 2 * 24 * 60 * 60}
