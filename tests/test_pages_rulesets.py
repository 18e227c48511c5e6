"""Every ruleset through the pages with plain form posts: new game, deals, refusals, board."""

import html
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from scorekeeper import engine
from scorekeeper.web.game_page import RECENT_DEALS
from tests.quick import sample
from tests.test_pages import csrf, group

DATA = Path(__file__).parent / "data"
GAMES = [
    *json.loads((DATA / "five-handed-games.json").read_text()),
    *json.loads((DATA / "other-rulesets-games.json").read_text()),
    *json.loads((DATA / "shmear-house-rules-games.json").read_text()),
    *json.loads((DATA / "euchre-family-games.json").read_text()),
]
SHMEAR_FAMILY = ("shmear", "shmear-high-low", "shmear-partners", "shmear-kitty")
SPECIAL_CARDS = ("JOKER", "2S", "2H")
"""Cards the deal form offers whole, beside the rank chips (no suit to choose)."""


# --- helpers ---------------------------------------------------------------------------


def encode(value):
    """Return a house-rule value as the new-game form sends it."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def start(client, ruleset, players, first_dealer=0, target=None, house_rules=None):
    """Start a game through the new-game page as a browser without JavaScript; return its URL."""
    page = client.get("/games/new")
    switched = client.post(
        "/games/new", data={"csrf_token": csrf(page), "ruleset": ruleset, "switch": "1"}
    )
    assert switched.status_code == 200
    data = {"csrf_token": csrf(page), "ruleset": ruleset, "first_dealer": str(first_dealer)}
    data.update({f"players-{seat}": name for seat, name in enumerate(players)})
    if target is not None:
        data["target"] = str(target)
    for name, value in (house_rules or {}).items():
        data[f"hr_{name}"] = encode(value)
    response = client.post("/games/new", data=data)
    assert response.status_code == 303, response.text
    return response.headers["Location"]


def start_worked(client, example):
    """Start a worked game's game (its ruleset, players, first dealer, target and house
    rules) through the new-game page; return its URL."""
    return start(
        client,
        example["ruleset"],
        example["players"],
        example["first_dealer"],
        example["target"],
        example["house_rules"],
    )


def form_fields(ruleset, entry):
    """Return what a player taps on the deal form to enter this API entry."""
    data = {}
    for key, value in entry.items():
        if key in ("thrown_in", "forfeit"):
            continue
        if key == "called_card":
            if value is None:
                data["called_card_rank"] = "none"
            elif value in SPECIAL_CARDS:
                data["called_card_rank"] = value
            else:
                data["called_card_rank"], data["called_card_suit"] = value[:-1], value[-1]
        elif key == "game_points":
            counts = [value["bidders"], value["opponents"]] if isinstance(value, dict) else value
            data.update({f"game_points-{i}": str(count) for i, count in enumerate(counts)})
        elif key == "auction":
            played = any(k not in ("auction", "forfeit", "thrown_in") for k in entry)
            if ruleset in SHMEAR_FAMILY and played and all(call is None for call in value):
                data["auction_passed"] = "y"  # the dealer's "play at 2"
            else:
                data.update(
                    {f"auction-{i}": "none" if c is None else str(c) for i, c in enumerate(value)}
                )
        else:
            data[key] = "none" if value is None else str(value)
    return data


def post_deal(client, url, ruleset, entry, number, **headers):
    """Post one deal as the page would: a flag's own button, else the deal form."""
    token = csrf(client.get(url))
    flag = next((k for k in ("thrown_in", "forfeit") if entry.get(k)), None)
    data = {flag: "1"} if flag else form_fields(ruleset, entry)
    data.update(csrf_token=token, number=str(number))
    return client.post(f"{url}/deals", data=data, headers=headers)


def board(page):
    """Return the scoreboard's rows as (name, score), names unescaped."""
    start = page.index('id="scoreboard"')
    section = page[start : page.index("</section>", start)]
    names = [html.unescape(n) for n in re.findall(r'<span class="name">([^<]+)</span>', section)]
    scores = [int(s) for s in re.findall(r'<span class="score">(-?\d+)</span>', section)]
    return list(zip(names, scores, strict=True))


def api_game(client, url):
    return client.get("/api/v1" + url).get_json()


# --- every worked game, deal by deal through the form ----------------------------------


@pytest.mark.parametrize(
    "example", sample(GAMES), ids=[f"{game['ruleset']}: {game['about']}" for game in sample(GAMES)]
)
def test_worked_game_played_through_the_deal_form(client, example):
    ruleset = example["ruleset"]
    url = start_worked(client, example)
    expected = example["expected"]
    for number, (entry, after) in enumerate(
        zip(example["deals"], expected["after_each_deal"], strict=True), start=1
    ):
        saved = post_deal(client, url, ruleset, entry, number)
        assert saved.status_code == 303, (number, re.findall(r"<li>([^<]+)</li>", saved.text))
        stored = client.get(f"/api/v1{url}/deals/{number}").get_json()
        assert (stored["dealer"], stored["deltas"], stored["scores"]) == (
            after["dealer"],
            after["deltas"],
            after["scores"],
        ), f"deal {number}"

    final = api_game(client, url)
    assert [p["score"] for p in final["players"]] == expected["scores"]
    assert (final["status"], final["winners"], final["decided_by"]) == (
        expected["status"],
        expected["winners"],
        expected["decided_by"],
    )
    page = client.get(url).text
    teams = final["teams"]
    sides = teams or [[seat] for seat in range(len(example["players"]))]
    names = example["players"]
    rows = board(page)
    assert [score for _name, score in rows] == [expected["scores"][side[0]] for side in sides]
    # A team is one row, named by its members: "Ann & Di", "Ann, Cy & Ed".
    labels = [[names[seat] for seat in side] for side in sides]
    labels = [", ".join(m[:-1]) + " & " + m[-1] if len(m) > 1 else m[0] for m in labels]
    assert [name for name, _score in rows] == labels
    if final["status"] != "in_progress":
        banner = page[page.index('class="banner"') :]
        assert 'id="deal-form"' not in page
        assert html.escape(final["explanation"], quote=False)[:40] in banner
    # The page explains its recent deals; earlier ones load on demand.
    assert page.count('class="why"') == min(len(example["deals"]), RECENT_DEALS)


# --- the new-game page -----------------------------------------------------------------


def test_new_game_asks_how_many_play_and_offers_the_games_for_that_many(client):
    page = client.get("/games/new").text
    seats = group(page, "seats")
    assert "How many are playing?" in seats
    for count in range(2, 7):
        assert f"<span>{count}</span>" in seats
    assert 'value="5" checked' in seats
    assert page.index('name="seats"') < page.index('name="ruleset"')
    chips = group(page, "ruleset")
    for name in ("Five-Handed Schmier", "Shmear", "Shmear with a Kitty", "Five-Handed Euchre"):
        assert f"<span>{name}</span>" in chips
    for name in ("Six-Handed Schmier", "Partner Shmear", "Euchre", "Two-Handed Euchre"):
        assert f"<span>{name}</span>" not in chips
    assert 'value="five-handed-schmier" checked' in chips
    assert "the bidder calls a card" in page  # the ruleset's summary


@pytest.mark.parametrize(
    ("seats", "offered", "checked"),
    [
        ("2", ["Two-Handed Euchre"], "two-handed-euchre"),
        ("3", ["Shmear", "Shmear with a Kitty", "Three-Handed Euchre"], "shmear"),
        (
            "4",
            ["Shmear", "High-Low Shmear", "Partner Shmear", "Shmear with a Kitty", "Euchre"],
            "shmear",
        ),
        (
            "6",
            ["Six-Handed Schmier", "Shmear", "Shmear with a Kitty", "Six-Handed Euchre"],
            "six-handed-schmier",
        ),
    ],
)
def test_choosing_how_many_play_without_javascript_offers_only_their_games(
    client, seats, offered, checked
):
    page = client.get("/games/new")
    data = {"csrf_token": csrf(page), "seats": seats, "ruleset": "five-handed-schmier"}
    switched = client.post("/games/new", data=data | {"switch": "1"})
    assert switched.status_code == 200
    chips = group(switched.text, "ruleset")
    assert re.findall(r"<span>([^<]+)</span>", chips) == offered
    assert f'value="{checked}" checked' in chips
    assert f'value="{seats}" checked' in group(switched.text, "seats")


def test_a_game_chosen_for_the_count_is_kept_and_started(client):
    page = client.get("/games/new")
    data = {"csrf_token": csrf(page), "seats": "4", "ruleset": "euchre"}
    switched = client.post("/games/new", data=data | {"switch": "1"}).text
    assert 'value="euchre" checked' in group(switched, "ruleset")
    assert "Stick the dealer" in switched and "Defending alone" in switched
    data.update({f"players-{seat}": name for seat, name in enumerate("ABCD")})
    data["first_dealer"] = "0"
    started = client.post("/games/new", data=data)
    assert started.status_code == 303
    assert api_game(client, started.headers["Location"])["ruleset"] == "euchre"


def test_changing_how_many_play_with_htmx_swaps_only_the_setup(client):
    page = client.get("/games/new")
    data = {"csrf_token": csrf(page), "seats": "3", "ruleset": "euchre", "switch": "1"}
    swapped = client.post("/games/new", data=data, headers={"HX-Request": "true"})
    assert swapped.text.lstrip().startswith('<div id="setup-fields"')
    assert 'value="shmear" checked' in group(swapped.text, "ruleset")
    assert "<span>Three-Handed Euchre</span>" in swapped.text


def test_choosing_a_ruleset_without_javascript_reloads_its_setup_keeping_the_names(client):
    page = client.get("/games/new")
    data = {"csrf_token": csrf(page), "ruleset": "six-handed-schmier", "switch": "1"}
    data.update({"players-0": "Ann", "players-3": "Di"})
    switched = client.post("/games/new", data=data)
    assert switched.status_code == 200
    text = switched.text
    assert "<html" in text
    assert 'class="form-errors"' not in text  # nothing was refused: just the new setup
    assert 'name="players-5"' in text and 'name="players-6"' not in text
    assert 'value="Ann"' in text and 'value="Di"' in text
    # Teams by seat, with the names already typed; its house rules explained.
    teams = text[text.index('id="teams-note"') :]
    teams = teams[: teams.index("</div>")]
    assert re.search(r"Team 1:\s*<span[^>]*>Ann</span> &amp; <span[^>]*>Di</span>", teams)
    assert re.search(r"Team 2:\s*<span[^>]*>seat 2</span> &amp; <span[^>]*>seat 5</span>", teams)
    assert "<legend>Teams</legend>" in text
    assert "Three teams of two sitting opposite" in text
    assert "Six players in fixed teams" in text


def test_changing_the_teams_house_rule_with_htmx_swaps_only_the_setup(client):
    page = client.get("/games/new")
    data = {
        "csrf_token": csrf(page),
        "ruleset": "six-handed-schmier",
        "hr_teams": "2x3",
        "switch": "1",
    }
    swapped = client.post("/games/new", data=data, headers={"HX-Request": "true"})
    assert swapped.status_code == 200
    assert swapped.text.lstrip().startswith('<div id="setup-fields"')
    assert "HX-Request" in swapped.headers["Vary"]
    assert re.search(r"Team 1:(\s*<span[^>]*>seat [135]</span>,?( &amp;)?){3}", swapped.text)
    assert 'hx-post="/games/new"' in swapped.text


def test_shmear_starts_with_three_players_leaving_the_optional_seats_empty(client):
    page = client.post(
        "/games/new",
        data={"csrf_token": csrf(client.get("/games/new")), "ruleset": "shmear", "switch": "1"},
    ).text
    assert "Player 4 (optional)" in page and "Player 3 (optional)" not in page
    assert "3 to 6 players" in page
    url = start(client, "shmear", ["Ann", "Bob", "Cy"])
    assert board(client.get(url).text) == [("Ann", 0), ("Bob", 0), ("Cy", 0)]


def test_a_name_missing_inside_the_seats_is_refused_beside_the_players(client):
    page = client.get("/games/new")
    data = {"csrf_token": csrf(page), "ruleset": "shmear", "first_dealer": "random"}
    data.update({"players-0": "Ann", "players-1": "", "players-2": "Cy", "players-3": "Di"})
    refused = client.post("/games/new", data=data)
    assert refused.status_code == 422
    players = refused.text[refused.text.index('id="players-group"') :]
    assert 'id="players-errors"' in players[: players.index("</fieldset>")]
    assert 'value="Di"' in refused.text


# --- the deal form of each ruleset -----------------------------------------------------


def test_each_ruleset_shows_only_its_own_fields(client):
    euchre = client.get(start(client, "five-handed-euchre", list("ABCDE"))).text
    assert "<legend>Maker</legend>" in euchre and 'name="bid"' not in euchre
    tricks = group(euchre, "tricks")
    assert [f'value="{n}"' in tricks for n in range(6)] == [True] * 6
    ranks = group(euchre, "called_card_rank")
    assert 'value="2S"' in ranks and 'value="2H"' in ranks and 'value="7"' not in ranks
    assert "No card called (alone)" in ranks
    assert 'data-not-same-as="bidder"' in group(euchre, "partner")

    shmear = client.get(start(client, "shmear", ["Ann", "Bob", "Cy", "Di"])).text
    assert 'value="moon"' in group(shmear, "bid") and "Moon" in group(shmear, "bid")
    assert "Not in play" in group(shmear, "jack")
    assert 'name="off_jack"' not in shmear and 'name="called_card_rank"' not in shmear
    assert "Everyone passed: the dealer plays at 2" in shmear
    assert ">Yes, save deal 1 as: Everyone passed and the dealer forfeited</button>" in shmear
    assert 'name="game_points-3"' in shmear

    high_low = client.get(start(client, "shmear-high-low", ["Ann", "Bob", "Cy", "Di"])).text
    assert 'value="moon"' not in group(high_low, "bid")

    six = client.get(start(client, "six-handed-schmier", list("ABCDEF"))).text
    assert ">Yes, save deal 1 as: Thrown in</button>" in six
    game = group(six, "game")
    assert "A &amp; D" in game and "Nobody (a tie)" in game


def test_shmear_play_at_2_a_forfeit_and_a_refused_moon(client):
    url = start(client, "shmear", ["Ann", "Bob", "Cy", "Di"], first_dealer=3)
    # Everyone passed and Di, the dealer, played at 2 and made it.
    played = {"trump": "S", "high": "3", "low": "3", "jack": "none", "game": "3"}
    saved = client.post(
        f"{url}/deals",
        data={"csrf_token": csrf(client.get(url)), "number": "1", "auction_passed": "y", **played},
    )
    assert saved.status_code == 303
    document = client.get(f"/api/v1{url}/deals/1").get_json()
    assert (document["bidder"], document["bid"], document["auction"]) == (3, 2, [None] * 4)
    assert board(client.get(url).text) == [("Ann", 0), ("Bob", 0), ("Cy", 0), ("Di", 3)]

    # Ann deals and forfeits: she had 0, and a score never drops below 0.
    forfeit = post_deal(client, url, "shmear", {"forfeit": True}, 2)
    assert forfeit.status_code == 303
    page = client.get(url).text
    assert "Everyone passed and Ann, the dealer, forfeited." in page
    assert "Deal 2 was forfeited by the dealer, Ann." in page

    # Bob, at 0, may not bid the moon: refused beside the bid, every tap kept.
    moon = {"bidder": 1, "bid": "moon", "trump": "H", "high": 1, "low": 1, "jack": 1, "game": 1}
    refused = post_deal(client, url, "shmear", moon, 3)
    assert refused.status_code == 422
    bid = group(refused.text, "bid")
    assert "may bid the moon" in bid and 'id="bid-errors"' in bid
    assert 'value="moon" checked' in bid
    assert 'value="1" checked' in group(refused.text, "high")

    # Di, at 3, may: she shoots the moon, takes all four and wins at once.
    moon.update(bidder=3, high=3, low=3, jack=3, game=3)
    assert post_deal(client, url, "shmear", moon, 3).status_code == 303
    page = client.get(url).text
    assert "Di wins!" in page
    assert "shot the moon" in page[page.index('class="banner"') :]


def test_a_refused_shmear_deal_names_each_field_and_keeps_the_taps(client):
    url = start(client, "shmear-kitty", ["Ann", "Bob", "Cy", "Di", "Ed"])
    refused = post_deal(client, url, "shmear-kitty", {"bidder": 2, "bid": 3, "trump": "C"}, 1)
    assert refused.status_code == 422
    assert "Every deal awards High" in group(refused.text, "high")
    assert "Every deal awards Low" in group(refused.text, "low")
    assert "Say who took Game" in group(refused.text, "game")
    assert 'value="3" checked' in group(refused.text, "bid")
    assert 'value="C" checked' in group(refused.text, "trump")


def test_counts_must_all_be_given_or_none(client):
    url = start(client, "shmear", ["Ann", "Bob", "Cy"])
    entry = {"bidder": 0, "bid": 2, "trump": "C", "high": 0, "low": 0}
    data = {**form_fields("shmear", entry), "game_points-0": "30", "game_points-2": "abc"}
    refused = client.post(
        f"{url}/deals", data={"csrf_token": csrf(client.get(url)), "number": "1", **data}
    )
    assert refused.status_code == 422
    game = group(refused.text, "game")
    assert "Not a valid integer value" in game
    assert "Enter every count, or leave them all empty." in game
    assert 'value="30"' in game


def test_one_player_may_take_both_high_and_low(client):
    url = start(client, "shmear-high-low", ["Ann", "Bob", "Cy", "Di"])
    entry = {"bidder": 1, "bid": 2, "trump": "S", "high": 2, "low": 2, "jack": 2, "game": 2}
    assert post_deal(client, url, "shmear-high-low", entry, 1).status_code == 303
    page = client.get(url).text
    assert "Cy played both High and Low" in page
    cy = page[page.index('<span class="name">Cy</span>') :]
    assert '<span class="tag tag-side">Pair</span>' in cy[: cy.index("</li>")]


def test_the_high_low_pair_of_the_last_deal_is_marked(client):
    url = start(client, "shmear-high-low", ["Ann", "Bob", "Cy", "Di"])
    entry = {"bidder": 0, "bid": 2, "trump": "S", "high": 1, "low": 3, "jack": 1, "game": 1}
    assert post_deal(client, url, "shmear-high-low", entry, 1).status_code == 303
    page = client.get(url).text
    board_html = page[page.index('id="scoreboard"') :]
    board_html = board_html[: board_html.index("</section>")]
    rows = re.findall(
        r'<li class="score-row([^"]*)">\s*<span class="name">(\w+)</span>', board_html
    )
    assert [name for classes, name in rows if "is-bidding" in classes] == ["Bob", "Di"]
    ann = board_html[board_html.index(">Ann<") :]
    assert 'tag-side">Bidder</span>' in ann[: ann.index("</li>")]


def test_euchre_alone_hand_and_a_called_joker(client):
    url = start(client, "five-handed-euchre", ["Ann", "Bob", "Cy", "Di", "Ed"], first_dealer=0)
    alone = {"bidder": 1, "trump": "H", "called_card": None, "partner": None, "tricks": 5}
    assert post_deal(client, url, "five-handed-euchre", alone, 1).status_code == 303
    assert ("Bob", 4) in board(client.get(url).text)
    joker = {"bidder": 2, "trump": "S", "called_card": "2S", "partner": 3, "tricks": 3}
    assert post_deal(client, url, "five-handed-euchre", joker, 2).status_code == 303
    page = client.get(url).text
    assert ("Cy", 1) in board(page) and ("Di", 1) in board(page)
    assert "2 of spades (the high joker)" in page[page.index('id="deal-2"') :]
    # The correction page shows the alone hand as entered.
    edit = client.get(f"{url}/deals/1/edit").text
    assert 'value="none" checked' in group(edit, "called_card_rank")
    assert 'value="none" checked' in group(edit, "partner")
    assert 'value="5" checked' in group(edit, "tricks")


def test_a_six_handed_deal_thrown_in_and_teams_on_the_scoreboard(client):
    url = start(client, "six-handed-schmier", ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"])
    assert post_deal(client, url, "six-handed-schmier", {"thrown_in": True}, 1).status_code == 303
    page = client.get(url).text
    assert "Everyone passed: thrown in." in page
    assert board(page) == [("Ann & Di", 0), ("Bob & Ed", 0), ("Cy & Flo", 0)]
    assert "Ann deals next" in page  # the same dealer deals again
    deal = {
        "bidder": 1, "bid": 4, "trump": "H", "high": 1, "low": 4, "jack": 2, "off_jack": 0,
        "joker": 1, "game_points": [20, 40, 20],
    }  # fmt: skip
    assert post_deal(client, url, "six-handed-schmier", deal, 2).status_code == 303
    page = client.get(url).text
    assert board(page) == [("Ann & Di", 1), ("Bob & Ed", 4), ("Cy & Flo", 1)]
    assert "Bidder: Bob" in page
    changes = page[page.index('aria-label="Changes in deal 2"') :]
    assert 'Bob &amp; Ed</span> <span class="delta">+4' in changes
    assert "20\u201340\u201320" in page  # the counts beside Game in the history


def test_partner_shmear_shows_teams_and_smucks(client):
    url = start(client, "shmear-partners", ["Ann", "Bob", "Cy", "Di"])
    # Bob's team bids 3 and takes only Low: set, so Bob and Di each get a smuck.
    deal = {"bidder": 1, "bid": 3, "trump": "D", "high": 0, "low": 3, "jack": 2, "game": 0}
    assert post_deal(client, url, "shmear-partners", deal, 1).status_code == 303
    page = client.get(url).text
    assert board(page) == [("Ann & Cy", 3), ("Bob & Di", 0)]
    scores = page[page.index('id="scoreboard"') :]
    bob_di = scores[scores.index(">Bob &amp; Di<") :]
    assert "1 smuck" in bob_di[: bob_di.index("</li>")]
    assert "Team 1" not in page  # rows are named by their members


def test_a_correction_of_a_shmear_deal_keeps_its_counts_and_auction(client):
    url = start(client, "shmear", ["Ann", "Bob", "Cy", "Di"])
    entry = {
        "bidder": 2, "bid": 3, "trump": "C", "high": 2, "low": 0, "jack": None,
        "game_points": [1, 24, 34, 3], "auction": [None, 3, None, None],
    }  # fmt: skip
    assert post_deal(client, url, "shmear", entry, 1).status_code == 303
    edit = client.get(f"{url}/deals/1/edit").text
    assert '<details class="auction" open ' in edit
    assert 'name="auction-1" id="auction-1-2" value="3" checked' in edit
    assert 'value="34"' in edit and 'value="none" checked' in group(edit, "jack")
    data = {**form_fields("shmear", {**entry, "high": 0}), "csrf_token": csrf(client.get(url))}
    assert client.post(f"{url}/deals/1/edit", data=data).status_code == 303
    assert client.get(f"/api/v1{url}/deals/1").get_json()["high"] == 0


def test_a_deal_number_that_is_not_plain_digits_is_refused(client):
    url = start(client, "shmear", ["Ann", "Bob", "Cy"])
    entry = {"bidder": 0, "bid": 2, "trump": "C", "high": 0, "low": 0, "game": 0}
    data = {**form_fields("shmear", entry), "csrf_token": csrf(client.get(url))}
    for number in ("\u0661", "1 ", "+1", "\u00b9"):  # Arabic-Indic 1, a space, a sign, ¹
        refused = client.post(f"{url}/deals", data={**data, "number": number})
        assert refused.status_code == 422, number
        assert "not a whole number" in refused.text
    assert api_game(client, url)["deals"] == []


def test_euchre_says_euchred_where_other_games_say_set(client):
    url = start(client, "five-handed-euchre", ["Ann", "Bob", "Cy", "Di", "Ed"], first_dealer=0)
    euchred = {"bidder": 1, "trump": "H", "called_card": "KH", "partner": 3, "tricks": 2}
    token = csrf(client.get(url))
    answer = client.post(
        f"{url}/preview",
        data=form_fields("five-handed-euchre", euchred),
        headers={"HX-Request": "true", "X-CSRFToken": token},
    )
    line = answer.text[answer.text.index('<p class="preview-line">') :]
    line = line[: line.index("</p>")]
    assert '<span class="outcome is-set">euchred</span>' in line
    assert ">set<" not in line
    assert post_deal(client, url, "five-handed-euchre", euchred, 1).status_code == 303
    page = client.get(url).text
    deal = page[page.index('id="deal-1"') :]
    assert '<strong class="outcome">Euchred</strong>' in deal[: deal.index("</p>")]
    last = page[page.index('class="meta last-deal"') :]
    assert '<strong class="is-set">euchred</strong>' in last[: last.index("</p>")]
    sheet = client.get(f"{url}/sheet").text
    row = re.search(r"Deal 1:(.*?)</td>", sheet, re.S).group(1)
    assert "<strong>euchred</strong>" in row
    # A Shmear contract lost is still "set".
    shmear = start(client, "shmear", ["Ann", "Bob", "Cy"], first_dealer=0)
    lost = {"bidder": 1, "bid": 3, "trump": "H", "high": 0, "low": 0, "jack": 2, "game": 1}
    assert post_deal(client, shmear, "shmear", lost, 1).status_code == 303
    page = client.get(shmear).text
    deal = page[page.index('id="deal-1"') :]
    assert '<strong class="outcome">Set</strong>' in deal[: deal.index("</p>")]


# --- the target follows the game chosen ------------------------------------------------


class _Inputs(HTMLParser):
    """Collect what a browser would post from a page's inputs: values, and checked radios."""

    def __init__(self):
        super().__init__()
        self.values = {}

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag != "input" or "name" not in attrs:
            return
        if attrs.get("type") in ("radio", "checkbox"):
            if "checked" in attrs:
                self.values[attrs["name"]] = attrs.get("value", "on")
        else:
            self.values[attrs["name"]] = attrs.get("value") or ""


def posted(page_text):
    """Return the new-game form's fields as a browser without JavaScript would post them."""
    inputs = _Inputs()
    inputs.feed(page_text)
    return inputs.values


NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]


@pytest.mark.parametrize("ruleset", engine.rulesets(), ids=lambda r: r.id)
def test_the_target_follows_the_game_chosen_without_javascript(client, ruleset):
    page = client.get("/games/new")
    data = posted(page.text)
    assert data["target"] == str(engine.rulesets()[0].target)
    # The player taps the game's chip, then Start at once (no "Show the setup").
    data.update(ruleset=ruleset.id, first_dealer="0")
    data.update({f"players-{seat}": NAMES[seat] for seat in range(ruleset.max_players)})
    started = client.post("/games/new", data=data)
    assert started.status_code == 303, started.text
    assert api_game(client, started.headers["Location"])["target"] == ruleset.target

    # With "Show the setup of this game" first, the box shows the game's own target (the
    # game is offered once how many play is chosen).
    seats = str(ruleset.min_players)
    data = {**posted(page.text), "seats": seats, "ruleset": ruleset.id, "switch": "1"}
    shown = client.post("/games/new", data=data)
    assert posted(shown.text)["target"] == str(ruleset.target)
    assert f"is played to {ruleset.target}." in shown.text


def test_a_target_the_player_typed_is_kept_when_the_game_changes(client):
    page = client.get("/games/new")
    data = {**posted(page.text), "target": "30", "ruleset": "shmear", "switch": "1"}
    shown = client.post("/games/new", data=data)
    assert posted(shown.text)["target"] == "30"
    data = {**posted(shown.text), "ruleset": "five-handed-euchre", "switch": "1"}
    assert posted(client.post("/games/new", data=data).text)["target"] == "30"
    # An emptied box means the game's own target.
    data = {**posted(shown.text), "target": "", "ruleset": "five-handed-euchre"}
    data.update({f"players-{seat}": name for seat, name in enumerate(NAMES[:5])})
    data["first_dealer"] = "0"
    started = client.post("/games/new", data=data)
    assert started.status_code == 303, started.text
    euchre = next(r for r in engine.rulesets() if r.id == "five-handed-euchre")
    assert api_game(client, started.headers["Location"])["target"] == euchre.target


# --- the Euchre family ------------------------------------------------------------------


def test_a_euchre_hand_is_maker_trump_alone_and_tricks_as_chips(client):
    url = start(client, "euchre", ["Ann", "Bob", "Cy", "Di"], first_dealer=0)
    page = client.get(url).text
    form = page[page.index('id="deal-form"') : page.index("</form>", page.index('id="deal-form"'))]
    assert [name for name in re.findall(r'name="([a-z_]+)"', form) if name != "csrf_token"] == [
        "number", *["bidder"] * 4, *["trump"] * 4, *["alone"] * 2, *["tricks"] * 6
    ]  # fmt: skip
    alone = group(page, "alone")
    assert "<span>With partners</span>" in alone and "<span>Went alone</span>" in alone
    assert re.findall(r"<span>(\d)</span>", group(page, "tricks")) == list("012345")
    assert 'id="flag-thrown_in"' in page and "Everyone passed" in page
    assert "card-counter" not in page  # Euchre counts tricks, not cards
    lone = {"bidder": 1, "trump": "H", "alone": True, "tricks": 5}
    assert post_deal(client, url, "euchre", lone, 1).status_code == 303
    assert board(client.get(url).text) == [("Ann & Cy", 0), ("Bob & Di", 4)]
    # The correction page shows the lone hand as entered.
    edit = client.get(f"{url}/deals/1/edit").text
    assert 'value="True" checked' in group(edit, "alone")
    assert 'value="5" checked' in group(edit, "tricks")


def test_a_refused_euchre_hand_names_the_field_beside_it(client):
    url = start(client, "euchre", ["Ann", "Bob", "Cy", "Di"], house_rules={"defending_alone": True})
    page = client.get(url).text
    assert "Lone defender" in group(page, "defender_alone")
    entry = {"bidder": 0, "trump": "S", "defender_alone": 1, "tricks": 1}
    refused = post_deal(client, url, "euchre", entry, 1)
    assert refused.status_code == 422
    assert "only against a maker who went alone" in group(refused.text, "defender_alone")
    assert api_game(client, url)["deals"] == []


def test_stick_the_dealer_offers_no_everyone_passed(client):
    url = start(client, "two-handed-euchre", ["Ann", "Bob"], house_rules={"stick_the_dealer": True})
    page = client.get(url).text
    assert 'id="flag-thrown_in"' not in page
    assert "alone" not in re.findall(r'name="([a-z_]+)"', page)


def test_a_thrown_in_euchre_hand_moves_whose_turn_and_the_big_screen_shows_the_teams(client):
    url = start(client, "euchre", ["Ann", "Bob", "Cy", "Di"], first_dealer=0)
    assert "Ann deals · Bob bids first" in client.get(url).text
    assert post_deal(client, url, "euchre", {"thrown_in": True}, 1).status_code == 303
    # Unlike Schmier, the deal passes to the left after everyone passed.
    page = client.get(url).text
    assert "Bob deals · Cy bids first" in page
    assert "Everyone passed twice, so the hand was thrown in and Bob" in html.unescape(page)
    screen = client.get(f"{url}/screen")
    assert screen.status_code == 200
    assert "Ann &amp; Cy" in screen.text and "Bob &amp; Di" in screen.text
    settler = client.get("/rules/three-handed-euchre/settle")
    assert settler.status_code == 200
