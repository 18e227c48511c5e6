"""The service worker that lets the app open with no connection, as the server serves it."""

import re

from scorekeeper.http.security import HTMX_CDN_URL
from tests.test_assets import static_url


def worker_values(source):
    """Return the values the worker is made with (release, shell, pages, fallback, CDN)."""
    return dict(re.findall(r"^var (RELEASE|SHELL|PAGES|FALLBACK|CDN) = (.*);$", source, re.M))


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
