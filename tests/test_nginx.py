"""deploy/nginx.conf in front of two app instances on one PostgreSQL: what it keeps and not.

Debian's nginx runs the deployed file (bench/nginx.py puts in a free port, the instances
and the folders), in front of two gunicorn instances as the Procfile starts them, with
FLASK_BEHIND_PROXY set. A viewer's page is served from nginx's cache, revalidated with
the app on every use; an edit page and every answer carrying a token go past the cache;
a page's live parts go to the app at once; a stream stays live; the static files go out
compressed, kept a year.
"""

import gzip
import http.client
import json
import os
import re
import sys
import tempfile
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest

from bench import nginx
from bench.deals import entry
from tests.conftest import BOTH, FIVE
from tests.test_concurrency import free_port, run_gunicorn
from tests.test_instances import Stream

pytestmark = [
    pytest.mark.server,
    pytest.mark.skipif(not Path(nginx.NGINX).exists(), reason="nginx is not installed"),
]
BACKENDS = BOTH[1:]  # two instances share one PostgreSQL


@pytest.fixture(scope="module")
def proxied(database):
    """Start two app instances and nginx in front of them; yield nginx's address."""
    env = {
        **os.environ,
        "DATABASE_URL": database,
        "FLASK_SECRET_KEY": "nginx",
        "FLASK_BEHIND_PROXY": "true",
    }
    with tempfile.TemporaryDirectory(prefix="sk_test_nginx_") as folder, ExitStack() as stack:
        upstreams = []
        for number in range(2):
            port = free_port()
            command = [sys.executable, "-m", "gunicorn", "--config", "gunicorn.conf.py"]
            command += ["--bind", f"127.0.0.1:{port}", "scorekeeper:create_app()"]
            log = Path(folder) / f"gunicorn-{number}.log"
            stack.enter_context(contextmanager(run_gunicorn)(command, env, log))
            upstreams.append(f"127.0.0.1:{port}")
        yield stack.enter_context(nginx.running(Path(folder), free_port(), upstreams))


def fetch(base, path, method="GET", body=None, headers=None):
    """Return (status, headers, body bytes) of one request on a new connection."""
    host, port = base.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=20)
    sent = dict(headers or {})
    if body is not None:
        sent["Content-Type"] = "application/json"
    try:
        connection.request(method, path, json.dumps(body) if body is not None else None, sent)
        response = connection.getresponse()
        return response.status, response.headers, response.read()
    finally:
        connection.close()


def start_game(base):
    body = {"ruleset": "five-handed-schmier", "players": FIVE, "first_dealer": 0, "target": 999}
    status, headers, text = fetch(base, "/api/v1/games", "POST", body)
    assert status == 201
    assert headers["X-Cache-Status"] != "HIT"
    return json.loads(text)


def add_deal(base, game, number):
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    status, headers, _ = fetch(
        base, f"/api/v1/games/{game['id']}/deals", "POST", entry(number), auth
    )
    assert status == 201
    return headers


def test_a_viewers_page_comes_from_nginxs_cache_and_shows_a_new_deal_at_once(proxied):
    game = start_game(proxied)
    add_deal(proxied, game, 1)
    page = f"/games/{game['id']}"
    status, headers, first = fetch(proxied, page)
    assert status == 200 and b'id="deal-1"' in first
    assert headers["X-Cache-Status"] == "MISS"
    assert headers["Cache-Control"] == "public, no-cache"
    assert "X-Accel-Expires" not in headers and "Set-Cookie" not in headers
    for _ in range(3):  # from the cache, the app asked only whether it changed (304)
        status, headers, again = fetch(proxied, page)
        assert (status, headers["X-Cache-Status"], again) == (200, "REVALIDATED", first)
    add_deal(proxied, game, 2)
    status, headers, changed = fetch(proxied, page)
    assert b'id="deal-2"' in changed  # at once, whichever instance saved it
    assert headers["X-Cache-Status"] == "EXPIRED"
    # A browser revalidating its own copy gets 304 from nginx.
    status, _, _ = fetch(proxied, page, headers={"If-None-Match": headers["ETag"]})
    assert status == 304
    # The API's game document and the big screen likewise.
    for address in (f"/api/v1/games/{game['id']}", f"/games/{game['id']}/screen"):
        fetch(proxied, address)
        status, headers, _ = fetch(proxied, address)
        assert (status, headers["X-Cache-Status"]) == (200, "REVALIDATED"), address


def test_an_edit_page_or_any_answer_carrying_a_token_is_never_cached(proxied):
    game = start_game(proxied)
    join = f"/games/{game['id']}/edit/{game['edit_token']}"
    for _ in range(2):
        status, headers, _ = fetch(proxied, join)
        assert status == 303 and headers["X-Cache-Status"] == "MISS"
        assert "no-store" in headers["Cache-Control"]
    cookie = headers["Set-Cookie"].split(";", 1)[0]
    for _ in range(2):
        status, headers, page = fetch(proxied, f"/games/{game['id']}", headers={"Cookie": cookie})
        assert status == 200 and b'id="deal-form"' in page and game["edit_token"].encode() in page
        assert headers["X-Cache-Status"] == "BYPASS"
        assert "public" not in headers["Cache-Control"]
    # A viewer, after the editor: the viewer's own page, without the edit link.
    status, headers, page = fetch(proxied, f"/games/{game['id']}")
    assert b'id="deal-form"' not in page and game["edit_token"].encode() not in page
    # A client sending its bearer token is answered by the app.
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    for _ in range(2):
        _, headers, _ = fetch(proxied, f"/api/v1/games/{game['id']}", headers=auth)
        assert headers["X-Cache-Status"] == "BYPASS"


def test_a_pages_live_parts_are_asked_of_the_app_at_once(proxied):
    """The live parts are made for each browser: nginx passes them on without looking in
    its cache (whose lock would hold a table's phones asking together behind the first)."""
    game = start_game(proxied)
    for address in (f"/games/{game['id']}/live", f"/games/{game['id']}/screen/live"):
        status, headers, part = fetch(proxied, address, headers={"HX-Request": "true"})
        assert status == 200 and part, address
        assert "X-Cache-Status" not in headers, address
        asked = {"HX-Request": "true", "If-None-Match": headers["ETag"]}
        status, headers, _ = fetch(proxied, address, headers=asked)
        assert status == 304 and "X-Cache-Status" not in headers, address


def test_a_stream_stays_live_through_nginx(proxied):
    game = start_game(proxied)
    stream = Stream(proxied, game["id"])
    try:
        assert stream.next_version() == 1
        add_deal(proxied, game, 1)
        assert stream.next_version() == 2  # not held in a buffer
        add_deal(proxied, game, 2)
        assert stream.next_version() == 3
    finally:
        stream.close()


def test_static_files_go_out_compressed_with_a_years_cache_life(proxied):
    game = start_game(proxied)
    _, _, page = fetch(proxied, f"/games/{game['id']}")
    script = re.search(rb'src="(/static/app\.[0-9a-f]{12}\.js)"', page).group(1).decode()
    status, headers, body = fetch(proxied, script, headers={"Accept-Encoding": "gzip"})
    assert status == 200 and headers["Content-Encoding"] == "gzip"
    assert headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert "Accept-Encoding" in headers["Vary"]
    plain = fetch(proxied, script)[2]
    assert gzip.decompress(body) == plain
    # A name without its hash is asked again each time.
    status, headers, _ = fetch(proxied, "/static/app.js", headers={"Accept-Encoding": "gzip"})
    assert status == 200 and headers["Cache-Control"] == "no-cache"
