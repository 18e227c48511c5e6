"""The game page's "Keep the screen on" switch, whether or not the phone grants the lock."""

import json
import urllib.request

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import check_axe

pytestmark = pytest.mark.browser

FAKE_GRANTED = """() => {
  window.__released = 0;
  Object.defineProperty(navigator, "wakeLock", {configurable: true, value: {
    request: () => Promise.resolve({
      release() { window.__released++; return Promise.resolve(); },
      addEventListener() {},
    }),
  }});
}"""
FAKE_REFUSED = """() => {
  Object.defineProperty(navigator, "wakeLock", {configurable: true, value: {
    request: () => Promise.reject(new DOMException("Not allowed", "NotAllowedError")),
  }});
}"""
NO_API = """() => { delete Navigator.prototype.wakeLock; }"""


def new_game(live_server):
    body = {"ruleset": "five-handed-schmier", "players": ["Ann", "Bob", "Cy", "Di", "Ed"],
            "first_dealer": 0}  # fmt: skip
    request = urllib.request.Request(
        live_server + "/api/v1/games",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.load(response)["id"]


def open_game(page, live_server, script):
    page.add_init_script(f"({script})()")
    page.goto(f"{live_server}/games/{new_game(live_server)}")
    return page.get_by_role("switch", name="Keep the screen on")


def test_switch_keeps_the_screen_on_and_lets_it_go(page, live_server):
    switch = open_game(page, live_server, FAKE_GRANTED)
    expect(switch).to_be_visible()
    switch.check()
    expect(page.locator("#wake-lock-status")).to_have_text(
        "The screen stays on while this page is open."
    )
    switch.uncheck()
    expect(page.locator("#wake-lock-status")).to_have_text("The screen turns off as usual.")
    assert page.evaluate("window.__released") == 1
    check_axe(page)


def test_switch_says_so_and_turns_off_when_the_phone_refuses(page, live_server):
    switch = open_game(page, live_server, FAKE_REFUSED)
    switch.click()  # the refusal turns it straight back off
    expect(page.locator("#wake-lock-status")).to_have_text(
        "This phone did not allow keeping the screen on."
    )
    expect(switch).not_to_be_checked()


def test_switch_is_hidden_without_the_wake_lock_api(page, live_server):
    switch = open_game(page, live_server, NO_API)
    page.wait_for_load_state("load")
    expect(switch).to_be_hidden()


def test_real_chromium_answers_the_switch_either_way(page, live_server):
    page.goto(f"{live_server}/games/{new_game(live_server)}")
    switch = page.get_by_role("switch", name="Keep the screen on")
    if not page.evaluate("() => 'wakeLock' in navigator"):
        expect(switch).to_be_hidden()
        return
    switch.click()
    status = page.locator("#wake-lock-status")
    expect(status).not_to_be_empty()
    granted = status.inner_text() == "The screen stays on while this page is open."
    print(f"headless Chromium {'granted' if granted else 'refused'} the wake lock")
    expect(switch).to_be_checked(checked=granted)
