"""The game pages through plain form posts (no JavaScript), and their htmx fragments."""

import re

import pytest

from scorekeeper.http.security import HTMX_CDN_URL, HTMX_FILE, HTMX_INTEGRITY
from tests.test_assets import static_url

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Ed"]
ANN, BOB, CY, DI, ED = range(5)

# Deal 1 as first entered, with Jack wrongly given to Cy: the bidders are set.
DEAL_1_WRONG = {
    "bidder": BOB, "bid": 4, "trump": "H", "called_card_rank": "K", "called_card_suit": "H",
    "partner": DI, "high": DI, "low": ANN, "jack": CY, "off_jack": CY, "joker": BOB,
    "game": "bidders",
}  # fmt: skip
DEAL_2 = {
    "bidder": CY, "bid": 3, "trump": "S", "called_card_rank": "A", "called_card_suit": "S",
    "partner": ED, "high": ED, "low": CY, "jack": ANN, "off_jack": CY, "joker": ED,
    "game": "bidders",
}  # fmt: skip
# Di and Bob both reach 10; Di bid, so Di wins the tie.
DEAL_4 = {
    "bidder": DI, "bid": 3, "trump": "C", "called_card_rank": "Q", "called_card_suit": "C",
    "partner": BOB, "high": BOB, "low": DI, "jack": DI, "off_jack": BOB, "joker": DI,
    "game_points-0": 25, "game_points-1": 30,
}  # fmt: skip


def csrf(response):
    """Return the CSRF token a page carries (on <body> for htmx, in every form too)."""
    return re.search(r'"X-CSRFToken": "([^"]+)"', response.text).group(1)


def start_game(client, target=10, first_dealer=ANN, joker_callable=False):
    """Create a game through the new-game form; return its page URL."""
    page = client.get("/games/new")
    data = {
        "csrf_token": csrf(page),
        "ruleset": "five-handed-schmier",
        "first_dealer": str(first_dealer),
        "target": str(target),
        "hr_partner_breaks_ties": "true",
        "hr_unresolved_tie": "play_on",
        "hr_joker_callable": "true" if joker_callable else "false",
    }
    data.update({f"players-{seat}": name for seat, name in enumerate(PLAYERS)})
    response = client.post("/games/new", data=data)
    assert response.status_code == 303
    return response.headers["Location"]


def post_deal(client, url, deal, number, token=None, **headers):
    """Post the deal form as a browser would (with the game page's CSRF token unless given)."""
    data = {key: str(value) for key, value in deal.items() if value is not None}
    data.update(csrf_token=token or csrf(client.get(url)), number=str(number))
    return client.post(f"{url}/deals", data=data, headers=headers)


def group(html, field_id):
    """Return the HTML of one fieldset of the deal form, with the fieldsets inside it (the
    card counter's, inside Game's)."""
    start = html.index(f'id="{field_id}-group"')
    depth, at = 1, start
    while depth:
        opening, closing = html.find("<fieldset", at), html.index("</fieldset>", at)
        if opening != -1 and opening < closing:
            depth, at = depth + 1, opening + 1
        else:
            depth, at = depth - 1, closing + 1
    return html[start : at - 1]


def scores(html):
    """Return the scoreboard's (name, score) pairs."""
    board = html[
        html.index('id="scoreboard"') : html.index("</section>", html.index('id="scoreboard"'))
    ]
    names = re.findall(r'<span class="name">([^<]+)</span>', board)
    values = re.findall(r'<span class="score">(-?\d+)</span>', board)
    return list(zip(names, map(int, values), strict=True))


def test_home_offers_a_new_game_and_lists_games_this_device_opened(client):
    home = client.get("/")
    assert home.status_code == 200
    assert 'href="/games/new"' in home.text
    assert "None yet" in home.text

    url = start_game(client)

    home = client.get("/")
    assert url in home.text
    assert "Ann, Bob, Cy, Di, Ed" in home.text


def test_new_game_refuses_names_and_target_next_to_their_fields_with_422(client):
    page = client.get("/games/new")
    data = {"csrf_token": csrf(page), "ruleset": "five-handed-schmier", "first_dealer": "random"}
    data.update(
        {f"players-{seat}": name for seat, name in enumerate(["Ann", "ann", "", "Di", "Ed"])}
    )
    data["target"] = "0"
    response = client.post("/games/new", data=data)
    assert response.status_code == 422
    players = response.text[response.text.index('id="players-group"') :]
    assert 'id="players-errors"' in players[: players.index("</fieldset>")]
    target = response.text[response.text.index('for="target"') :]
    assert 'id="target-errors"' in target[: target.index("</div>")]
    assert 'value="Di"' in response.text  # entries kept


def test_new_game_explains_the_names_even_when_the_target_is_not_a_number(client):
    page = client.get("/games/new")
    data = {"csrf_token": csrf(page), "ruleset": "five-handed-schmier", "first_dealer": "2"}
    data.update(
        {f"players-{seat}": name for seat, name in enumerate(["Ann", "ann", "C", "D", "E"])}
    )
    data["target"] = "many"
    response = client.post("/games/new", data=data)
    assert response.status_code == 422
    players = response.text[response.text.index('id="players-group"') :]
    assert 'id="players-errors"' in players[: players.index("</fieldset>")]
    assert 'id="target-errors"' in response.text


def test_new_game_explains_every_house_rule_and_its_default(client):
    page = client.get("/games/new").text
    for legend in ("Partner breaks ties", "Unresolved tie", "Joker callable"):
        assert f"<legend>{legend}</legend>" in page
    assert page.count("Default:") == 3
    assert "Draw at random" in page


def test_a_whole_game_through_plain_form_posts(client):
    url = start_game(client, target=10)

    saved = post_deal(client, url, DEAL_1_WRONG, 1)
    assert saved.status_code == 303
    page = client.get(url).text
    assert scores(page) == [("Ann", 3), ("Bob", -4), ("Cy", 3), ("Di", -4), ("Ed", 3)]
    assert "Deal 1 saved." in page

    # Refused: the ace of trump was called, High went elsewhere, nobody took the joker.
    refused = post_deal(client, url, {**DEAL_2, "high": ANN, "joker": None}, 2)
    assert refused.status_code == 422
    html = refused.text
    assert "its holder is the partner and takes High" in group(html, "high")
    assert "Every deal awards Joker" in group(html, "joker")
    assert 'value="0" checked' in group(html, "high")  # the entries are kept
    assert 'value="4" checked' in group(html, "partner")
    assert scores(html) == [("Ann", 3), ("Bob", -4), ("Cy", 3), ("Di", -4), ("Ed", 3)]

    assert post_deal(client, url, DEAL_2, 2).status_code == 303
    assert scores(client.get(url).text) == [
        ("Ann", 4),
        ("Bob", -3),
        ("Cy", 8),
        ("Di", -3),
        ("Ed", 8),
    ]

    # Correct deal 1: Bob took the Jack, so the bidders made it; deal 2 follows.
    edit = client.get(f"{url}/deals/1/edit")
    assert edit.status_code == 200
    assert 'value="2" checked' in group(edit.text, "jack")
    data = {k: str(v) for k, v in {**DEAL_1_WRONG, "jack": BOB}.items()}
    corrected = client.post(f"{url}/deals/1/edit", data={**data, "csrf_token": csrf(edit)})
    assert corrected.status_code == 303
    page = client.get(url).text
    assert scores(page) == [("Ann", 3), ("Bob", 5), ("Cy", 7), ("Di", 5), ("Ed", 7)]

    # Everyone passed, then undo it, then enter it again.
    thrown = client.post(
        f"{url}/deals", data={"csrf_token": csrf(client.get(url)), "number": "3", "thrown_in": "1"}
    )
    assert thrown.status_code == 303
    page = client.get(url).text
    assert "Everyone passed: thrown in." in page
    assert f'href="{url}/deals/3/undo"' in page
    question = client.get(f"{url}/deals/3/undo")
    assert "Take deal 3 back?" in question.text and "Yes, undo deal 3" in question.text
    undone = client.post(f"{url}/deals/3/undo", data={"csrf_token": csrf(question)})
    assert undone.status_code == 303
    assert "Deal 3 undone." in client.get(url).text
    client.post(
        f"{url}/deals", data={"csrf_token": csrf(client.get(url)), "number": "3", "thrown_in": "1"}
    )

    assert post_deal(client, url, DEAL_4, 4).status_code == 303
    page = client.get(url).text
    assert scores(page) == [("Ann", 4), ("Bob", 10), ("Cy", 8), ("Di", 10), ("Ed", 8)]
    banner = page[page.index('class="banner"') :]
    assert "Di wins!" in banner
    assert "bid" in banner[: banner.index("</section>")].lower()
    assert 'id="deal-form"' not in page

    over = post_deal(client, url, DEAL_2, 5)
    assert over.status_code == 409


def test_why_this_score_explains_each_deal_in_words(client):
    url = start_game(client)
    post_deal(client, url, {**DEAL_1_WRONG, "jack": BOB}, 1)
    page = client.get(url).text
    why = page[page.index("Why this score") :]
    assert "Bidders Bob and Di took High, Jack, Joker and Game: 4, bid 4, made" in why


def test_htmx_post_answers_with_the_fragment_and_varies_on_hx_request(client):
    url = start_game(client)
    saved = post_deal(client, url, DEAL_1_WRONG, 1, **{"HX-Request": "true"})
    assert saved.status_code == 200
    assert saved.text.lstrip().startswith('<div id="game"')
    assert "HX-Request" in saved.headers["Vary"]
    assert 'name="number" value="2"' in saved.text  # a cleared form for the next deal
    assert "Deal 1 saved." in saved.text

    refused = post_deal(client, url, {"bidder": BOB}, 2, **{"HX-Request": "true"})
    assert refused.status_code == 422
    assert "<html" not in refused.text

    restore = client.get(url, headers={"HX-Request": "true", "HX-History-Restore-Request": "true"})
    assert "<html" in restore.text


def test_two_phones_saving_the_same_deal_conflict_cleanly(client):
    url = start_game(client)
    assert post_deal(client, url, DEAL_1_WRONG, 1).status_code == 303
    again = post_deal(client, url, {**DEAL_1_WRONG, "bid": 5}, 1)
    assert again.status_code == 409
    assert "Deal 1 was just saved by another phone:" in again.text
    assert 'value="5" checked' in group(again.text, "bid")
    assert 'name="number" type="hidden" value="1"' in again.text  # still the deal it was for
    assert 'name="save_as" value="2"' in again.text


def test_the_same_deal_sent_twice_is_saved_once_and_answered_as_saved(client):
    """A save whose answer was lost is sent again by the phone: it is no conflict."""
    url = start_game(client)
    assert post_deal(client, url, DEAL_1_WRONG, 1).status_code == 303
    again = post_deal(client, url, DEAL_1_WRONG, 1, **{"HX-Request": "true"})
    assert again.status_code == 200
    assert "Deal 1 saved." in again.text
    assert 'name="number" value="2"' in again.text
    assert len(client.get(f"/api/v1{url}").get_json()["deals"]) == 1
    assert post_deal(client, url, DEAL_1_WRONG, 1).status_code == 303  # without htmx too


def test_a_browser_without_the_edit_token_sees_the_game_read_only(client, app):
    url = start_game(client)
    post_deal(client, url, DEAL_1_WRONG, 1)
    stranger = app.test_client()
    page = stranger.get(url)
    assert page.status_code == 200
    assert 'id="deal-form"' not in page.text
    assert "Correct deal 1" not in page.text
    assert ("Bob", -4) in scores(page.text)
    assert "X-CSRFToken" not in page.text  # it posts nothing, so it carries no token
    token = csrf(stranger.get("/games/new"))  # the stranger's own, from a page with a form
    refused = post_deal(stranger, url, DEAL_2, 2, token=token)
    assert refused.status_code == 403


def test_unknown_game_and_deal_answer_404(client):
    assert client.get("/games/nope").status_code == 404
    url = start_game(client)
    assert client.get(f"{url}/deals/7/edit").status_code == 404


def test_security_headers_allow_only_our_origin_and_the_pinned_htmx(client, app):
    response = client.get("/")
    csp = response.headers["Content-Security-Policy"]
    assert f"script-src 'self' {HTMX_CDN_URL}" in csp
    assert "frame-ancestors 'none'" in csp
    assert "unsafe-inline" not in csp
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert f'data-cdn="{HTMX_CDN_URL}" data-integrity="{HTMX_INTEGRITY}"' in response.text
    local = static_url(app, HTMX_FILE)
    assert f'<script src="{local}" defer></script>' in response.text  # this server's copy first

    app.config["HTMX_LOCAL_ONLY"] = True
    local = client.get("/")
    assert HTMX_CDN_URL not in local.text
    assert HTMX_CDN_URL not in local.headers["Content-Security-Policy"]
    assert f'<script src="{static_url(app, HTMX_FILE)}" defer></script>' in local.text


@pytest.mark.parametrize("path", ["/", "/games/new"])
def test_pages_have_no_inline_script_or_style(client, path):
    html = client.get(path).text
    assert "<style" not in html
    assert " style=" not in html
    assert re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html) is None


def test_the_auction_seat_by_seat_names_the_bidder_and_bid(client):
    url = start_game(client)  # Ann deals: Bob speaks first, Ann last
    deal = {k: v for k, v in DEAL_1_WRONG.items() if k not in ("bidder", "bid")}
    calls = {"auction-0": "none", "auction-1": "3", "auction-2": "none", "auction-3": "4"}
    deal.update(calls, partner=DI, high=DI, joker=ED)
    saved = post_deal(client, url, deal, 1)
    assert saved.status_code == 303
    assert "Ed bid 4" in client.get(url).text


def test_an_auction_that_does_not_rise_is_refused_next_to_the_auction(client):
    url = start_game(client)
    refused = post_deal(client, url, {**DEAL_1_WRONG, "auction-0": "4", "auction-1": "3"}, 1)
    assert refused.status_code == 422
    auction = refused.text[refused.text.index('<details class="auction" open ') :]
    auction = auction[: auction.index("</details>")]
    assert 'id="auction-errors"' in auction
    assert 'name="auction-1" id="auction-1-1" value="3" checked' in auction


def test_the_joker_is_offered_as_called_card_only_under_the_house_rule(client):
    plain = client.get(start_game(client)).text
    assert 'name="called_card_rank"' in plain
    assert 'value="JOKER"' not in group(plain, "called_card_rank")
    joker = client.get(start_game(client, joker_callable=True)).text
    assert 'value="JOKER"' in group(joker, "called_card_rank")


def test_home_lists_the_games_this_device_opened_newest_first(client):
    first = start_game(client)
    second = start_game(client)
    home = client.get("/").text
    assert home.index(second) < home.index(first)
    client.get(first)
    home = client.get("/").text
    assert home.index(first) < home.index(second)


def test_rule_problems_without_a_control_of_their_own_show_at_the_top(app):
    from scorekeeper import engine
    from scorekeeper.web.forms import deal_form

    config = engine.configure("five-handed-schmier", PLAYERS, 0)
    with app.test_request_context():
        form = deal_form(config, 0, fresh=True)
    form.add_rule_errors({"bidder": ["b"], "called_card": ["c"], "surprise": ["s"], None: ["n"]})
    assert form.errors_for("bidder") == ["b"]
    assert form.errors_for("called_card") == ["c"]
    assert form.errors_for(None) == ["s", "n"]


def test_a_post_without_the_csrf_token_is_explained(client):
    url = start_game(client)
    response = client.post(f"{url}/deals", data={"bidder": "1"})
    assert response.status_code == 400
    assert "Reload the page" in response.text


def test_a_correction_the_later_deals_cannot_survive_is_refused_with_409(client):
    url = start_game(client, target=10)
    for number, deal in enumerate([{**DEAL_1_WRONG, "jack": BOB}, DEAL_2], start=1):
        assert post_deal(client, url, deal, number).status_code == 303
    client.post(
        f"{url}/deals", data={"csrf_token": csrf(client.get(url)), "number": "3", "thrown_in": "1"}
    )
    assert post_deal(client, url, DEAL_4, 4).status_code == 303

    # Had Cy been Bob's partner taking all six, Cy would have won after deal 2.
    edit = client.get(f"{url}/deals/1/edit")
    everything = {"partner": CY, "high": CY, "low": BOB, "jack": BOB, "off_jack": CY, "joker": BOB}
    data = {k: str(v) for k, v in {**DEAL_1_WRONG, **everything}.items()}
    refused = client.post(f"{url}/deals/1/edit", data={**data, "csrf_token": csrf(edit)})
    assert refused.status_code == 409
    assert 'class="form-errors"' in refused.text
    assert 'value="2" checked' in group(refused.text, "partner")  # the entries are kept
    assert "Di wins!" in client.get(url).text  # nothing changed


def test_game_page_links_to_its_score_sheet_and_downloads(client):
    created = client.post(
        "/api/v1/games",
        json={"ruleset": "five-handed-schmier", "players": PLAYERS, "first_dealer": 0},
    ).get_json()
    page = client.get(f"/games/{created['id']}").text
    for address in ("sheet", "export.json", "export.csv"):
        assert f'href="/games/{created["id"]}/{address}"' in page
    assert client.get(f"/games/{created['id']}/sheet").status_code == 200


def description(page):
    """Return a page's meta description, unescaped."""
    import html

    found = re.findall(r'<meta name="description" content="([^"]*)">', page.text)
    assert len(found) == 1, found
    return html.unescape(found[0])


@pytest.mark.parametrize("language", ["en", "fr", "de", "id"])
def test_every_page_describes_itself_in_its_language(client, app, language):
    url = start_game(client)
    viewer = app.test_client()
    paths = ["/", "/games/new", "/rules", "/rules/shmear", "/tables"]
    said = {}
    for browser, path in [(client, p) for p in paths] + [(client, url), (viewer, url)]:
        page = browser.get(path, headers={"Accept-Language": language})
        assert page.status_code == 200, path
        text = description(page)
        assert 50 <= len(text) <= 160, (path, text)  # what a search result shows
        assert "%(" not in text and "\n" not in text and text == text.strip(), text
        said[(browser is viewer, path)] = text
    assert len(set(said.values())) == len(said)  # each page its own, editor and viewer too
    assert ", ".join(PLAYERS) in said[(True, url)]
    if language != "en":
        english = {
            path: description(client.get(path, headers={"Accept-Language": "en"})) for path in paths
        }
        assert all(said[(False, path)] != english[path] for path in paths)
