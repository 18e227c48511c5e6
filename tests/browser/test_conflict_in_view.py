"""Two phones on one deal: when the other phone saved first, its notice and the taps it
asks about are both whole on a 390 x 844 screen, neither hiding the other."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, check_axe
from tests.browser.test_live import api as post
from tests.browser.test_round_three import FIVE, HAND, HAND_API
from tests.browser.test_table import choice, tap

pytestmark = pytest.mark.browser

# The notice's box, and every group of the form that lies under it: a chip row the notice
# is drawn over.
UNDER_THE_NOTICE = """() => {
  const notice = document.getElementById('deal-conflict').getBoundingClientRect();
  const under = Array.from(document.querySelectorAll('#deal-form .group'))
    .filter((g) => g.getClientRects().length > 0)
    .filter((g) => {
      const box = g.getBoundingClientRect();
      return box.bottom > notice.top + 0.5 && box.top < notice.bottom - 0.5;
    })
    .map((g) => g.dataset.field || g.id || g.className);
  return {top: notice.top, bottom: notice.bottom, under: under};
}"""

# Whether the chip is whole on the screen and nothing is drawn over its middle.
SEEN = """(chip) => {
  const box = chip.getBoundingClientRect();
  const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return box.top >= 0 && box.bottom <= window.innerHeight + 1 && chip.contains(top);
}"""


def test_the_notice_and_the_taps_it_keeps_are_both_whole_in_view(page, live_server):
    phone_c = page
    game = post(live_server, "/api/v1/games", {"ruleset": "five-handed-schmier",
                                               "players": FIVE, "first_dealer": 0})  # fmt: skip
    phone_c.goto(f"{live_server}/games/{game['id']}/edit/{game['edit_token']}")
    expect(phone_c.get_by_role("heading", name=re.compile("^Deal 1"))).to_be_visible()

    # C taps the first six choices of deal 1; another phone saves deal 1 meanwhile.
    tap(phone_c, HAND[:6])
    post(live_server, f"/api/v1/games/{game['id']}/deals", HAND_API, game["edit_token"])
    notice = phone_c.locator("#deal-conflict")
    expect(notice).to_contain_text("Deal 1 was just saved by another phone:", timeout=5000)
    expect(notice).to_contain_text("Your taps are kept above.")
    expect(phone_c.get_by_role("heading", name=re.compile("^Deal 2"))).to_be_visible()
    phone_c.wait_for_function(
        "() => { const b = document.getElementById('deal-conflict').getBoundingClientRect();"
        " return b.top >= 0 && b.bottom <= window.innerHeight + 1; }"
    )

    # The notice is whole on the screen, over no chip row; the last tap kept sits above it,
    # whole and uncovered, still chosen.
    shown = phone_c.evaluate(UNDER_THE_NOTICE)
    assert shown["top"] >= 0 and shown["bottom"] <= PHONE["height"] + 1, shown
    assert shown["under"] == [], shown
    last = choice(phone_c, *HAND[5])
    expect(last).to_be_checked()
    label = last.locator("xpath=ancestor::label[1]")
    assert label.evaluate(SEEN)
    check_axe(phone_c)
