"""htmx never holds the page: this server's copy first, the CDN only when that one fails."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scorekeeper.http.security import HTMX_CDN_URL, HTMX_FILE, HTMX_VERSION
from tests.browser.conftest import check_axe
from tests.test_assets import static_url

pytestmark = pytest.mark.browser

VENDORED = (Path(__file__).resolve().parents[2] / "static" / HTMX_FILE).read_bytes()
# A guard against a page held by a script, not a speed limit: how soon the page paints with
# the CDN stalled is measured by bench.live (`make bench`, docs/performance.md).
WAIT = 20_000  # ms


@pytest.fixture
def cdn_on(live_app):
    """Serve pages that load htmx through the CDN, as in production."""
    live_app.config["HTMX_LOCAL_ONLY"] = False
    yield
    live_app.config["HTMX_LOCAL_ONLY"] = True


def serve_htmx(route):
    route.fulfill(
        status=200,
        body=VENDORED,
        content_type="application/javascript",
        headers={"Access-Control-Allow-Origin": "*"},
    )


def local_htmx(live_app):
    return static_url(live_app, HTMX_FILE)


def settle_a_tie(page):
    """Use the settler through htmx: it answers in place, without a reload."""
    page.evaluate("window.__samePage = true")
    page.get_by_role("spinbutton", name="Player 1").fill("21")
    page.get_by_role("spinbutton", name="Player 2").fill("21")
    for seat in (3, 4, 5):
        page.get_by_role("spinbutton", name=f"Player {seat}").fill("2")
    page.get_by_role("group", name="Who bid").get_by_role("radio", name="Player 2").click()
    page.get_by_role("button", name="Who wins?").click()
    expect(page.locator("#verdict-title")).to_have_text("Player 2 wins.")
    assert page.evaluate("window.__samePage === true")


def test_htmx_is_this_servers_copy_and_a_stalled_cdn_is_never_waited_on(
    page, live_app, live_server, cdn_on
):
    asked = []
    page.route(HTMX_CDN_URL, lambda route: asked.append(route))  # would stall
    # With the CDN's answer held for as long as the test runs, the page is parsed and
    # painted all the same: a script that waited for the CDN would hold both for ever.
    page.goto(
        live_server + "/rules/five-handed-schmier", wait_until="domcontentloaded", timeout=WAIT
    )
    page.wait_for_function(
        "() => performance.getEntriesByName('first-contentful-paint').length > 0", timeout=WAIT
    )
    expect(page.get_by_role("button", name="Who wins?")).to_be_visible()
    page.wait_for_function("() => window.htmx && htmx.version", timeout=WAIT)
    assert page.evaluate("htmx.version") == HTMX_VERSION
    local = local_htmx(live_app)
    assert page.evaluate(f"!!document.querySelector('script[src=\"{local}\"]')")
    settle_a_tie(page)
    page.wait_for_timeout(300)
    assert asked == [], "the CDN was asked though this server's copy came"


def test_htmx_comes_from_the_cdn_when_this_servers_copy_does_not(
    page, live_app, live_server, cdn_on
):
    requested = []

    def cdn(route):
        requested.append(route.request.url)
        serve_htmx(route)

    page.route(HTMX_CDN_URL, cdn)
    page.route(f"**{local_htmx(live_app)}", lambda route: route.fulfill(status=503, body="Busy"))
    page.goto(live_server + "/rules/five-handed-schmier")
    page.wait_for_function("() => window.htmx && htmx.version", timeout=WAIT)
    assert requested == [HTMX_CDN_URL]
    assert page.evaluate("htmx.version") == HTMX_VERSION
    settle_a_tie(page)


def test_with_neither_copy_the_page_still_works_without_htmx(page, live_app, live_server, cdn_on):
    page.route(HTMX_CDN_URL, lambda route: route.abort())
    page.route(f"**{local_htmx(live_app)}", lambda route: route.abort())
    page.goto(live_server + "/rules/five-handed-schmier")
    page.wait_for_timeout(500)
    assert page.evaluate("window.htmx === undefined")
    page.get_by_role("spinbutton", name="Player 1").fill("21")
    page.get_by_role("spinbutton", name="Player 2").fill("21")
    for seat in (3, 4, 5):
        page.get_by_role("spinbutton", name=f"Player {seat}").fill("2")
    page.get_by_role("group", name="Who bid").get_by_role("radio", name="Player 2").click()
    page.get_by_role("button", name="Who wins?").click()
    expect(page.locator("#verdict-title")).to_have_text("Player 2 wins.")  # a whole page
    assert "/settle?" in page.url


def test_the_rules_page_is_accessible_with_a_verdict(page, live_server):
    page.goto(live_server + "/rules/shmear")
    page.wait_for_function("() => window.htmx && htmx.version")
    for seat, score in enumerate((11, 13, 5, 2), start=1):
        page.get_by_role("spinbutton", name=f"Player {seat}").fill(str(score))
    page.get_by_role("group", name="Who bid").get_by_role("radio", name="Player 1").click()
    page.get_by_role("button", name="Who wins?").click()
    expect(page.locator("#verdict-title")).to_have_text("Player 1 wins.")
    expect(page).to_have_url(re.compile(r"/rules/shmear/settle\?"))
    step = page.get_by_role("link", name="The bidder")
    step.click()
    expect(page).to_have_url(re.compile(r"#shmear-win-bidder$"))
    check_axe(page)


def test_the_euchre_settler_asks_the_starts_it_needs_and_refuses_an_impossible_hand(
    page, live_server
):
    page.goto(live_server + "/rules/five-handed-euchre")
    page.wait_for_function("() => window.htmx && htmx.version")
    starts = page.get_by_role("group", name="Scores at the start of the deal")
    expect(starts).to_have_count(0)
    ends = page.get_by_role("group", name="Scores at the end of the deal")
    for seat, score in enumerate((11, 10, 0, 0, 0), start=1):
        ends.get_by_role("spinbutton", name=f"Player {seat}").fill(str(score))
    page.get_by_role("button", name="Who wins?").click()
    expect(starts.get_by_role("spinbutton")).to_have_count(2)
    expect(page.locator("#settler")).to_contain_text(
        "The win check needs the scores at the start of the deal of Player 1 and Player 2"
    )
    starts.get_by_role("spinbutton", name="Player 1").fill("9")
    starts.get_by_role("spinbutton", name="Player 2").fill("7")
    page.get_by_role("button", name="Who wins?").click()
    expect(page.locator("#settler")).to_contain_text(
        "No deal of Five-Handed Euchre takes Player 2 from 7 to 10"
    )
    expect(page.locator("#verdict-title")).to_have_count(0)
    check_axe(page)
    starts.get_by_role("spinbutton", name="Player 2").fill("8")
    page.get_by_role("button", name="Who wins?").click()
    expect(page.locator("#verdict-title")).to_have_text("Player 2 wins.")
    shown = page.locator("#settler").inner_text()
    assert re.findall(r"\b[a-z]+(?:_[a-z]+)+\b", shown) == []
    check_axe(page)
