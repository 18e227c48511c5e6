"""Pages, live parts and documents rendered once per version: never stale, never shared wrongly.

Also the long game's page: the recent deals, the earlier ones on demand, the change log's
last entries with a page for all of them.
"""

import gzip
import json
import re
import threading
import time

from sqlalchemy import event

from bench.deals import entry
from scorekeeper.extensions import db
from scorekeeper.web import links
from scorekeeper.web.game_page import EARLIER_DEALS, RECENT_CHANGES, RECENT_DEALS
from tests.conftest import FIVE

HX = {"HX-Request": "true"}


def csrf(response):
    return re.search(r'"X-CSRFToken": "([^"]+)"', response.text).group(1)


def play(api, deals, **settings):
    """Create a game (target 999) and store `deals` deals; return its document."""
    game = api.create(target=999, **settings)
    for number in range(1, deals + 1):
        api.add(game, entry(number))
    return game


def edit(app, game):
    """Return a client that opened the game's edit link (so it may edit)."""
    phone = app.test_client()
    assert phone.get(f"/games/{game['id']}/edit/{game['edit_token']}").status_code == 303
    phone.get(f"/games/{game['id']}")  # reads the one-time "can now enter deals" message
    return phone


def shown_deals(html):
    return [int(n) for n in re.findall(r'<li id="deal-(\d+)"', html)]


# --- public reads ---------------------------------------------------------------------


def test_a_viewers_page_is_public_revalidated_and_sets_no_cookie(app, api):
    game = play(api, 2)
    viewer = app.test_client()
    page = viewer.get(f"/games/{game['id']}")
    assert page.status_code == 200
    assert page.headers["Cache-Control"] == "public, no-cache"
    assert "Set-Cookie" not in page.headers
    assert "X-CSRFToken" not in page.text and "csrf_token" not in page.text
    assert {"Cookie", "HX-Request"} <= set(page.headers["Vary"].replace(" ", "").split(","))
    etag = page.headers["ETag"]
    again = viewer.get(f"/games/{game['id']}", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    api.add(game, entry(3))
    changed = viewer.get(f"/games/{game['id']}", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    assert shown_deals(changed.text) == [3, 2, 1]


def test_the_big_screen_and_the_api_document_are_public_and_revalidated(app, api, client):
    game = play(api, 1)
    for address in (f"/games/{game['id']}/screen", f"/api/v1/games/{game['id']}"):
        first = client.get(address)
        assert first.headers["Cache-Control"] == "public, no-cache", address
        assert "Set-Cookie" not in first.headers
        unchanged = client.get(address, headers={"If-None-Match": first.headers["ETag"]})
        assert unchanged.status_code == 304, address


def test_a_public_read_without_a_cookie_opens_no_session(app, api, monkeypatch):
    """The viewer's page, its poll and the API document: no cookie sent, none read or set."""
    game = play(api, 1)
    viewer = app.test_client()
    page = viewer.get(f"/games/{game['id']}")
    etag = re.search(r"If-None-Match&#34;: &#34;\\&#34;([^\\]+)\\&#34;", page.text).group(1)
    opened = []
    interface = app.session_interface
    signing = interface.get_signing_serializer
    monkeypatch.setattr(
        interface, "get_signing_serializer", lambda a: opened.append(1) or signing(a)
    )
    answers = [
        viewer.get(f"/games/{game['id']}"),
        viewer.get(f"/games/{game['id']}/live", headers={**HX, "If-None-Match": f'"{etag}"'}),
        viewer.get(f"/games/{game['id']}/screen"),
        viewer.get(f"/api/v1/games/{game['id']}"),
    ]
    assert [a.status_code for a in answers] == [200, 304, 200, 200]
    assert not any("Set-Cookie" in a.headers for a in answers)
    assert opened == []  # no signing serializer made: nothing read, nothing written
    # A browser with a session still has it read, and one the view writes to is sent.
    editor = edit(app, game)
    assert "Save" in editor.get(f"/games/{game['id']}").text and opened


def test_an_editors_page_is_never_public(app, api):
    game = play(api, 1)
    page = edit(app, game).get(f"/games/{game['id']}")
    assert "public" not in page.headers.get("Cache-Control", "")
    assert "no-store" in page.headers["Cache-Control"]  # it holds the edit link


# --- never stale ---------------------------------------------------------------------


def test_a_cached_game_page_shows_a_new_deal_at_once(app, api):
    game = play(api, 2)
    viewer = app.test_client()
    before = viewer.get(f"/games/{game['id']}")
    assert shown_deals(before.text) == [2, 1]
    assert viewer.get(f"/games/{game['id']}").text == before.text  # the stored page
    api.add(game, entry(3))
    after = viewer.get(f"/games/{game['id']}")
    assert shown_deals(after.text) == [3, 2, 1]


def test_a_corrected_or_undone_deal_shows_at_once_on_page_poll_and_api(app, api, client):
    game = play(api, 3)
    viewer = app.test_client()
    page = viewer.get(f"/games/{game['id']}").text
    document = api.game(game)
    etag = re.search(r"If-None-Match&#34;: &#34;\\&#34;([^\\]+)\\&#34;", page).group(1)
    poll = {**HX, "If-None-Match": f'"{etag}"'}
    assert viewer.get(f"/games/{game['id']}/live", headers=poll).status_code == 304

    corrected = {**entry(2), "bid": 4}
    assert api.put(game, 2, corrected).status_code == 200
    assert api.game(game)["deals"][1]["bid"] == 4 != document["deals"][1]["bid"]
    live = viewer.get(f"/games/{game['id']}/live", headers=poll)
    assert live.status_code == 200
    assert "Correct" not in live.text  # a viewer's rows
    assert viewer.get(f"/games/{game['id']}").text != page

    assert api.delete(game, 3).status_code == 204
    assert len(api.game(game)["deals"]) == 2
    assert shown_deals(viewer.get(f"/games/{game['id']}").text) == [2, 1]
    assert shown_deals(viewer.get(f"/games/{game['id']}/live", headers=poll).text) == [2, 1]


def test_a_new_edit_link_is_seen_at_once_by_the_phone_it_revokes(app, api):
    game = play(api, 1)
    phone = edit(app, game)
    assert 'id="deal-entry"' in phone.get(f"/games/{game['id']}").text
    other = edit(app, game)
    page = other.get(f"/games/{game['id']}")
    rotated = other.post(f"/games/{game['id']}/edit-link", data={"csrf_token": csrf(page)})
    assert rotated.status_code == 303
    again = phone.get(f"/games/{game['id']}").text
    assert 'id="deal-entry"' not in again
    assert "You are viewing this game" in again


# --- never shared wrongly -------------------------------------------------------------


def test_editors_and_viewers_get_their_own_page_of_the_same_version(app, api):
    game = play(api, 1)
    editor = edit(app, game)
    viewer = app.test_client()
    editing = editor.get(f"/games/{game['id']}").text
    viewing = viewer.get(f"/games/{game['id']}").text
    assert 'id="deal-entry"' in editing and "Undo deal 1" in editing
    assert game["edit_token"] in editing  # the edit link, for the editor only
    assert 'id="deal-entry"' not in viewing and "Undo deal 1" not in viewing
    assert game["edit_token"] not in viewing
    assert "You are viewing this game" in viewing
    # And the other way round, the viewer first.
    api.add(game, entry(2))
    assert game["edit_token"] not in viewer.get(f"/games/{game['id']}").text
    assert game["edit_token"] in editor.get(f"/games/{game['id']}").text


def test_each_language_gets_its_own_page(app, api):
    game = play(api, 1)
    english = app.test_client().get(f"/games/{game['id']}")
    german = app.test_client().get(f"/games/{game['id']}", headers={"Accept-Language": "de"})
    french = app.test_client()
    french.get("/language/fr?next=/")
    assert '<html lang="en">' in english.text
    assert '<html lang="de">' in german.text and "Accept-Language" in german.headers["Vary"]
    assert '<html lang="fr">' in french.get(f"/games/{game['id']}").text
    assert '<html lang="en">' in app.test_client().get(f"/games/{game['id']}").text
    # From the cache, the language is still told apart, and still said to vary.
    again = app.test_client().get(f"/games/{game['id']}", headers={"Accept-Language": "de-AT"})
    assert again.text == german.text and "Accept-Language" in again.headers["Vary"]


def test_every_browser_gets_its_own_csrf_token_and_can_post_with_it(app, api):
    game = play(api, 1)
    first, second = edit(app, game), edit(app, game)
    one = first.get(f"/games/{game['id']}")
    two = second.get(f"/games/{game['id']}")
    assert csrf(one) != csrf(two)
    for page in (one, two):
        tokens = set(re.findall(r'name="csrf_token" type="hidden" value="([^"]+)"', page.text))
        tokens |= set(re.findall(r'name="csrf_token" value="([^"]+)"', page.text))
        assert tokens == {csrf(page)}
    undo = second.post(f"/games/{game['id']}/deals/1/undo", data={"csrf_token": csrf(two)})
    assert undo.status_code == 303
    assert shown_deals(first.get(f"/games/{game['id']}").text) == []


def test_a_one_time_message_shows_once_and_never_to_another_browser(app, api):
    game = play(api, 1)
    phone = app.test_client()
    joined = phone.get(f"/games/{game['id']}/edit/{game['edit_token']}", follow_redirects=True)
    assert "This device can now enter and correct deals." in joined.text
    assert "This device can now" not in phone.get(f"/games/{game['id']}").text
    other = app.test_client()
    other.get(f"/games/{game['id']}/edit/{game['edit_token']}")
    assert "This device can now" not in edit(app, game).get(f"/games/{game['id']}").text


def test_the_api_document_follows_every_change(api):
    game = play(api, 2)
    assert len(api.game(game)["deals"]) == 2
    api.add(game, entry(3))
    assert [d["number"] for d in api.game(game)["deals"]] == [1, 2, 3]
    assert api.client.get("/api/v1/games/nosuchgame").status_code == 404


def test_a_cached_answer_has_the_headers_of_the_first(app, api):
    game = play(api, 2)
    for path in (f"/api/v1/games/{game['id']}", f"/games/{game['id']}"):
        first, cached = app.test_client().get(path), app.test_client().get(path)
        assert first.data == cached.data
        # Every header but the cookie and the time it was answered (a second may pass).
        one, two = (
            [h for h in r.headers.items() if h[0] not in ("Set-Cookie", "Date")]
            for r in (first, cached)
        )
        assert sorted(one) == sorted(two)
        assert cached.headers["Content-Length"] == str(len(cached.data))
        assert cached.headers.getlist("Content-Type") == [first.headers["Content-Type"]]


# --- cheap when nothing changed -------------------------------------------------------


def test_an_unchanged_poll_reads_only_the_games_version(app, api):
    game = play(api, 3)
    viewer = app.test_client()
    viewer.get(f"/games/{game['id']}")
    statements = []
    with app.app_context():
        engine = db.engine
    # Traced in the driver itself: the version is read straight through it, not SQLAlchemy.
    event.listen(engine, "checkout", lambda dbapi, *_: dbapi.set_trace_callback(statements.append))
    event.listen(engine, "checkin", lambda dbapi, *_: dbapi.set_trace_callback(None))
    headers = {**HX, "If-None-Match": '"4-v"'}
    response = viewer.get(f"/games/{game['id']}/live", headers=headers)
    assert response.status_code == 304
    assert len(statements) == 1 and "version" in statements[0]


def test_pages_are_compressed_for_browsers_that_accept_it(client, api):
    game = play(api, 2)
    response = client.get(f"/games/{game['id']}", headers={"Accept-Encoding": "gzip"})
    assert response.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in response.headers["Vary"]
    assert b"Deal 2" in gzip.decompress(response.data)
    assert "Content-Encoding" not in client.get(f"/games/{game['id']}").headers


def test_a_qr_code_is_drawn_once_per_link(client, api):
    game = play(api, 0)
    links.qr_svg.cache_clear()
    client.get(f"/games/{game['id']}")
    client.get(f"/games/{game['id']}?again")
    info = links.qr_svg.cache_info()
    assert info.misses == 2 and info.hits >= 2  # the view link's and the big screen's


# --- a long game ----------------------------------------------------------------------


def test_the_live_page_shows_the_recent_deals_and_loads_earlier_ones_on_demand(app, api):
    total = RECENT_DEALS + EARLIER_DEALS + 5
    game = play(api, total)
    viewer = app.test_client()
    page = viewer.get(f"/games/{game['id']}").text
    assert shown_deals(page) == list(range(total, total - RECENT_DEALS, -1))
    first_shown = total - RECENT_DEALS + 1
    link = f"/games/{game['id']}/earlier?before={first_shown}"
    assert f'href="{link}"' in page and f'hx-get="{link}"' in page
    assert f"Show the {first_shown - 1} earlier deals" in page

    # htmx puts the next batch in place of the link, with a link to the rest.
    batch = viewer.get(link, headers=HX)
    assert batch.status_code == 200 and "<html" not in batch.text
    assert shown_deals(batch.text) == list(range(first_shown - 1, 5, -1))
    rest = f"/games/{game['id']}/earlier?before=6"
    assert f'hx-get="{rest}"' in batch.text
    last = viewer.get(rest, headers=HX)
    assert shown_deals(last.text) == [5, 4, 3, 2, 1]
    assert "earlier" not in last.text

    # Without JavaScript the same link is a page of its own.
    whole = viewer.get(link)
    assert "<html" in whole.text and "Deals 6 to 30" in whole.text
    assert shown_deals(whole.text) == list(range(30, 5, -1))


def test_the_live_parts_keep_the_earlier_deals_a_page_loaded(app, api):
    total = RECENT_DEALS + 5
    game = play(api, total)
    viewer = app.test_client()
    recent_from = total - RECENT_DEALS + 1
    page = viewer.get(f"/games/{game['id']}").text
    assert f'data-recent-from="{recent_from}"' in page
    api.add(game, entry(total + 1))
    live = f"/games/{game['id']}/live"

    # The page loaded deals 3 onwards: the new history starts there, and its link
    # brings the two before.
    kept = viewer.get(live, headers={**HX, "X-History-From": "3"})
    assert shown_deals(kept.text) == list(range(total + 1, 2, -1))
    assert f'hx-get="/games/{game["id"]}/earlier?before=3"' in kept.text
    assert f'data-recent-from="{recent_from + 1}"' in kept.text
    assert "X-History-From" in kept.headers["Vary"]

    # A page showing only the recent deals, or a header that is not a deal number, gets
    # the last ones.
    for sent in (str(recent_from + 1), "0", "-3", "x", "99999999999"):
        plain = viewer.get(live, headers={**HX, "X-History-From": sent})
        assert shown_deals(plain.text) == list(range(total + 1, recent_from, -1)), sent
    assert shown_deals(viewer.get(live, headers=HX).text)[-1] == recent_from + 1


def test_a_short_game_shows_every_deal_without_an_earlier_link(client, api):
    game = play(api, RECENT_DEALS)
    page = client.get(f"/games/{game['id']}").text
    assert shown_deals(page) == list(range(RECENT_DEALS, 0, -1))
    assert "earlier deals" not in page
    nothing = client.get(f"/games/{game['id']}/earlier")
    assert nothing.status_code == 200 and "The game page shows every deal" in nothing.text


def test_the_score_sheet_still_shows_every_deal(client, api):
    game = play(api, RECENT_DEALS + 3)
    sheet = client.get(f"/games/{game['id']}/sheet").text
    for number in range(1, RECENT_DEALS + 4):
        assert f">{number}<" in sheet


def test_the_change_log_shows_the_last_changes_and_links_to_all(client, api):
    game = play(api, RECENT_CHANGES + 2)
    page = client.get(f"/games/{game['id']}").text
    log = page[page.index('id="change-log"') :]
    assert log.count('class="change change-') == RECENT_CHANGES
    assert f"{RECENT_CHANGES + 2} changes" in log
    assert f"Deal {RECENT_CHANGES + 2} entered" in log and "Deal 2 entered" not in log
    everything = client.get(f"/games/{game['id']}/changes").text
    assert everything.count('class="change change-') == RECENT_CHANGES + 2
    assert "Deal 1 entered" in everything


def test_players_names_stay_escaped_in_earlier_deals(client, api):
    names = ["<b>Ann</b>", *FIVE[1:]]
    game = play(api, RECENT_DEALS + 2, players=names)
    batch = client.get(f"/games/{game['id']}/earlier", headers=HX).text
    assert "<b>Ann</b>" not in batch and "&lt;b&gt;Ann&lt;/b&gt;" in batch


def test_phones_asking_at_once_for_a_new_version_have_it_made_once(app):
    """When a deal is saved every phone asks at once: one request makes it, the rest wait."""
    from scorekeeper.http import cache

    made = []
    barrier = threading.Barrier(6)

    def make():
        made.append(1)
        time.sleep(0.3)  # rendering takes a while: the others arrive meanwhile
        return {"body": b"live parts", "status": 200, "headers": [], "carries_token": False}

    def ask(results):
        with app.app_context():
            barrier.wait(timeout=5)
            results.append(cache._kept("live|game|2", make)["body"])

    results: list[bytes] = []
    threads = [threading.Thread(target=ask, args=(results,)) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert results == [b"live parts"] * 6
    assert made == [1]
    assert cache._making == {}


def test_an_answer_that_is_not_kept_is_made_again(app):
    from scorekeeper.http import cache

    made = []

    def missing():
        made.append(1)
        return {"body": b"", "status": 404, "headers": [], "carries_token": False}

    with app.app_context():
        cache._kept("live|gone|1", missing)
        cache._kept("live|gone|1", missing)
    assert made == [1, 1]


def deal_item(html, number):
    """Return deal `number`'s item of the history, up to the next deal or the list's end."""
    start = html.index(f'<li id="deal-{number}"')
    ends = [html.find(mark, start + 1) for mark in ('<li id="deal-', "</ol>")]
    return html[start : min(end for end in ends if end > 0)]


def test_every_process_with_the_same_secret_marks_the_csrf_token_alike(app):
    """A page stored in a shared cache by one process is sent by another: same marker."""
    from scorekeeper import create_app
    from scorekeeper.http import cache

    other = create_app({**app.config, "SECRET_KEY": app.config["SECRET_KEY"]})
    stranger = create_app({**app.config, "SECRET_KEY": "another secret"})
    markers = []
    for each in (app, other, stranger):
        with each.app_context():
            markers.append(cache.csrf_marker())
    assert markers[0] == markers[1] != markers[2]
    assert markers[0].isalnum() and app.config["SECRET_KEY"] not in markers[0]


def test_a_page_the_same_for_every_browser_is_compressed_once(app, client, api):
    """Every phone accepts compression: a viewer's page is compressed once per version and
    the copy kept with the page (Flask-Compress's cache)."""
    import brotli

    from scorekeeper.extensions import cache
    from scorekeeper.http import cache as pages

    game = play(api, 2)
    plain = app.test_client().get(f"/games/{game['id']}").data
    for _ in range(3):
        response = app.test_client().get(f"/games/{game['id']}", headers={"Accept-Encoding": "br"})
        assert response.headers["Content-Encoding"] == "br"
        assert "Accept-Encoding" in response.headers["Vary"]
        assert brotli.decompress(response.data) == plain
    with app.test_request_context(f"/games/{game['id']}"):
        version, can_edit = pages.version_and_rights(game["id"])
        key = pages.key("game", game["id"], version, can_edit)
        assert cache.get(f"compressed|br;{key}") == response.data
    zipped = app.test_client().get(f"/games/{game['id']}", headers={"Accept-Encoding": "gzip"})
    assert gzip.decompress(zipped.data) == plain

    # The API document too, and its JSON keeps its type.
    document = client.get(f"/api/v1/games/{game['id']}", headers={"Accept-Encoding": "gzip"})
    assert document.headers["Content-Encoding"] == "gzip"
    assert document.mimetype == "application/json"
    assert json.loads(gzip.decompress(document.data))["id"] == game["id"]


def test_a_public_answer_is_compared_once_and_its_compressed_copy_written_once(
    app, api, monkeypatch
):
    """One conditional pass per answer asked with a condition, after compression (the ETag
    sent is compared), and no write of a compressed copy that was just found."""
    from scorekeeper.extensions import cache

    game = play(api, 2)
    compared, written = [], []
    evaluate = app.response_class.make_conditional
    monkeypatch.setattr(
        app.response_class,
        "make_conditional",
        lambda self, *a, **k: compared.append(1) or evaluate(self, *a, **k),
    )
    keep = cache.set
    monkeypatch.setattr(
        cache, "set", lambda key, *a, **k: written.append(key) or keep(key, *a, **k)
    )
    for address in (f"/games/{game['id']}", f"/api/v1/games/{game['id']}"):
        compared.clear()
        written.clear()
        viewer = app.test_client()
        plain = viewer.get(address)
        zipped = [viewer.get(address, headers={"Accept-Encoding": "br"}) for _ in range(3)]
        assert [z.headers["ETag"] for z in zipped] == [plain.headers["ETag"][:-1] + ':br"'] * 3
        again = [
            viewer.get(address, headers={"If-None-Match": plain.headers["ETag"]}),
            viewer.get(
                address,
                headers={"If-None-Match": zipped[0].headers["ETag"], "Accept-Encoding": "br"},
            ),
        ]
        assert [a.status_code for a in again] == [304, 304], address
        # One pass for each answer asked with a condition, none for the four asked without.
        assert len(compared) == 2, address
        assert [key for key in written if key.startswith("compressed|")] == [
            f"compressed|br;{key}" for key in written if key.startswith(("game|", "api-game|"))
        ], address  # the copy written with the page, once


def test_an_editors_page_is_compressed_for_that_browser_with_its_own_token(app, api):
    game = play(api, 1)
    editor = edit(app, game)
    response = editor.get(f"/games/{game['id']}", headers={"Accept-Encoding": "gzip"})
    assert response.headers["Content-Encoding"] == "gzip"
    page = gzip.decompress(response.data).decode()
    token = re.search(r'"X-CSRFToken": "([^"]+)"', page).group(1)
    assert f'name="csrf_token" value="{token}"' in page
    other = edit(app, game).get(f"/games/{game['id']}", headers={"Accept-Encoding": "gzip"})
    assert token not in gzip.decompress(other.data).decode()


def test_a_plain_read_costs_no_rate_limit_work_unless_every_request_is_limited(app):
    from scorekeeper.http import ratelimits

    for method, exempt in (("GET", True), ("HEAD", True), ("POST", False), ("PUT", False)):
        with app.test_request_context("/games/x", method=method):
            assert ratelimits._plain_read() is exempt, method
    app.config.update(RATELIMIT_ENABLED=True, RATELIMIT_DEFAULT="100 per minute")
    with app.test_request_context("/games/x", method="GET"):
        assert ratelimits._plain_read() is False  # such a limit counts every request
