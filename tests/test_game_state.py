"""How the game stands on every phone: the banner, an open tie, and forms that went stale."""

import json

from tests.test_pages import DEAL_1_WRONG as DEAL_1
from tests.test_pages import DEAL_2, DEAL_4, csrf, group, post_deal, start_game
from tests.test_pages_rulesets import GAMES, start
from tests.test_pages_rulesets import post_deal as post_entry

WON_1 = {**DEAL_1, "jack": 1}
"""Deal 1 as corrected in tests/test_pages.py: with deals 2 to 4 after it, Di wins at 10."""
OPEN_TIE = next(g for g in GAMES if g["about"] == "an open tie among opponents, then play on")


def play_to_open_tie(client):
    """Play the worked five-handed game up to its open tie; return (url, deals played)."""
    game = OPEN_TIE
    url = start(client, game["ruleset"], game["players"], game["first_dealer"], game["target"])
    for number, deal in enumerate(game["deals"], start=1):
        assert post_entry(client, url, game["ruleset"], deal, number).status_code == 303
        document = client.get(f"/api/v1{url}").get_json()
        if "play on" in document["explanation"]:
            return url, number, document
    raise AssertionError("the worked game has no open tie")


def live(client, url, etag=None):
    """Poll the game's live part as the page does."""
    headers = {"HX-Request": "true"}
    if etag:
        headers["If-None-Match"] = etag
    return client.get(f"{url}/live", headers=headers)


def test_an_open_tie_is_said_in_words_with_the_house_rule_on_the_page_and_live(client, app):
    url, _number, document = play_to_open_tie(client)
    assert document["status"] == "in_progress"
    page = client.get(url).text
    state = page[
        page.index('id="game-state"') : page.index("</section>", page.index('id="game-state"'))
    ]
    assert "Tied at the top:" in state
    assert "(house rule: play on)" in state
    assert "/rules/five-handed-schmier#five-handed-schmier-win-shared" in state
    assert 'id="deal-form"' in page  # the game goes on

    viewer = app.test_client()
    viewer.get(url)
    answer = live(viewer, url).text
    assert 'id="game-state" class="game-state" hx-swap-oob="true"' in answer
    assert "(house rule: play on)" in answer
    assert 'id="deal-entry"' not in answer  # a viewer is sent no form


def test_the_win_and_its_reason_reach_a_viewer_and_withdraw_an_editors_form(client, app):
    url = start_game(client)
    viewer = app.test_client()
    viewer.get(url)
    for number, deal in enumerate((WON_1, DEAL_2, None, DEAL_4), start=1):
        if deal is None:
            data = {"csrf_token": csrf(client.get(url)), "number": "3", "thrown_in": "1"}
            assert client.post(f"{url}/deals", data=data).status_code == 303
        else:
            post_deal(client, url, deal, number)
    seen = live(viewer, url).text
    assert "Di wins!" in seen and 'class="banner"' in seen
    assert "The rule that decided" in seen

    editor = live(client, url).text
    entry = editor[editor.index('id="deal-entry"') - 60 :]
    assert 'hx-swap-oob="true"' in entry[:200]
    assert "No more deals can be entered" in entry
    assert 'id="deal-form"' not in editor


def test_an_editors_live_answer_brings_the_form_for_the_next_deal(client):
    url = start_game(client)
    post_deal(client, url, DEAL_1, 1)
    answer = live(client, url).text
    entry = answer[answer.index('<section id="deal-entry"') :]
    assert 'data-number="2"' in entry[:300]
    assert 'name="number" value="2"' in entry
    # What the page holds beside the taps if its reader had tapped on the form for deal 1.
    held = entry[entry.index("<template data-conflict>") : entry.index("</template>")]
    assert "Deal 1 was just saved by another phone:" in held
    assert 'name="discard"' in held and 'name="save_as" value="2"' in held


def test_saving_after_another_phone_ended_the_game_says_why_and_keeps_the_taps(client):
    url = start_game(client)
    stale_page = None
    for number, deal in enumerate((WON_1, DEAL_2, None, DEAL_4), start=1):
        if number == 4:
            stale_page = client.get(url)  # this phone opened deal 4's form …
        if deal is None:
            data = {"csrf_token": csrf(client.get(url)), "number": "3", "thrown_in": "1"}
            client.post(f"{url}/deals", data=data)
        else:
            post_deal(client, url, deal, number)
    # … and saves a deal after another phone's deal 4 won the game.
    late = {k: str(v) for k, v in DEAL_2.items()}
    late.update(csrf_token=csrf(stale_page), number="5")
    refused = client.post(f"{url}/deals", data=late)
    assert refused.status_code == 409
    text = refused.text
    errors = text[text.index('class="form-errors"') :]
    assert "The game is over" in errors
    assert "Nothing was saved; your choices are kept below." in errors
    assert 'value="2" checked' in group(text, "bidder")  # Cy, as tapped
    assert "Di wins!" in text
    assert client.get(f"/api/v1{url}").get_json()["deals"][-1]["number"] == 4


def test_a_refused_save_over_htmx_keeps_the_taps_and_says_why(client):
    url = start_game(client)
    post_deal(client, url, DEAL_1, 1)
    again = post_deal(client, url, {**DEAL_1, "bid": 5}, 1, **{"HX-Request": "true"})
    assert again.status_code == 409
    assert "Deal 1 was just saved by another phone:" in again.text
    assert 'value="5" checked' in group(again.text, "bid")
    assert 'name="number" type="hidden" value="1"' in again.text


def test_the_scoreboard_says_how_far_each_player_is_and_the_last_contract(client):
    url = start_game(client)  # target 10
    post_deal(client, url, {**DEAL_1, "jack": 1}, 1)  # Bob and Di +4, the others +2
    page = client.get(url).text
    board = page[
        page.index('id="scoreboard"') : page.index("</section>", page.index('id="scoreboard"'))
    ]
    assert board.count("needs 6") == 2 and board.count("needs 8") == 3
    line = board[board.index('class="meta last-deal"') :]
    assert "<strong>Bob</strong> 4" in line
    assert 'class="suit suit-H"' in line  # hearts trump
    assert "called" in line and "K" in line and "Di" in line
    assert ">made</strong>" in line


def test_after_an_undo_the_form_holds_the_deal_taken_back(client):
    url = start_game(client)
    post_deal(client, url, DEAL_1, 1)
    undone = client.post(f"{url}/deals/1/undo", data={"csrf_token": csrf(client.get(url))})
    assert undone.status_code == 303
    page = client.get(url).text
    assert "Deal 1 undone." in page
    assert 'value="1" checked' in group(page, "bidder")
    assert 'value="4" checked' in group(page, "bid")
    assert 'value="2" checked' in group(page, "jack")  # Cy, as entered
    # Once only: the next visit shows the page everyone sees.
    assert "checked" not in group(client.get(url).text, "bidder")

    post_deal(client, url, DEAL_1, 1)
    over_htmx = client.post(
        f"{url}/deals/1/undo",
        data={"csrf_token": csrf(client.get(url))},
        headers={"HX-Request": "true"},
    )
    assert over_htmx.status_code == 200
    assert 'value="1" checked' in group(over_htmx.text, "bidder")


def test_after_a_correction_the_page_opens_at_the_new_scores(client):
    url = start_game(client)
    post_deal(client, url, DEAL_1, 1)
    edit = client.get(f"{url}/deals/1/edit")
    data = {k: str(v) for k, v in {**DEAL_1, "jack": 1}.items()}
    corrected = client.post(f"{url}/deals/1/edit", data={**data, "csrf_token": csrf(edit)})
    assert corrected.status_code == 303
    assert corrected.headers["Location"].endswith("#scoreboard")


def test_thrown_in_needs_a_second_confirming_tap(client):
    url = start_game(client)
    page = client.get(url).text
    flag = page[page.index('<details class="flag" id="flag-thrown_in">') :]
    flag = flag[: flag.index("</details>")]
    assert "<summary>Everyone passed…</summary>" in flag
    assert ">Yes, save deal 1 as: Everyone passed</button>" in flag
    # Below the form's Save button, away from Bidder.
    assert page.index('id="flag-thrown_in"') > page.index(">Save deal</button>")
    assert json.loads(
        page[page.index("data-side='") + 11 : page.index("'", page.index("data-side='") + 11)]
    ) == {
        "fields": ["bidder", "partner"],
        "teams": None,
    }
