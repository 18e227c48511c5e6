"""The rules pages and the tie-break settler, through plain GETs (no JavaScript)."""

import re
from html import unescape

import pytest

from scorekeeper import engine

RULESETS = [r.id for r in engine.rulesets()]

INDIVIDUAL_5 = "0-1-2-3-4"
INDIVIDUAL_4 = "0-1-2-3"
SIX_PAIRS = "0.3-1.4-2.5"
SIX_THREES = "0.2.4-1.3.5"
PARTNERS = "0.2-1.3"


def settle_query(shape, scores, fields):
    """Return the settler's query for a table's shape, its scores and the other fields."""
    query = {"shape": shape, **{f"score_{i}": str(s) for i, s in enumerate(scores)}}
    for name, value in fields.items():
        if name == "start":
            query.update({f"start_{i}": str(s) for i, s in enumerate(value)})
        else:
            query[name] = str(value)
    return query


def settle(client, ruleset, shape, scores, **fields):
    """Ask the settler; return the response."""
    return client.get(f"/rules/{ruleset}/settle", query_string=settle_query(shape, scores, fields))


def text(html):
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def answer(response):
    """Return (headline, explanation, the anchor of the deciding step or its number)."""
    assert response.status_code == 200, response.text
    html = response.text[response.text.index('<div class="verdict') :]
    headline = text(re.search(r'<h3 id="verdict-title">(.*?)</h3>', html, re.S).group(1))
    explanation = text(re.search(r"</h3>\s*<p>(.*?)</p>", html, re.S).group(1))
    step = re.search(r'class="verdict-step">.*?(?:href="#([^"]+)"|</p>)', html, re.S).group(1)
    return headline, explanation, step


FIVE_DEFAULTS = {"target": 21, "hr_unresolved_tie": "play_on", "hr_joker_callable": "false"}


@pytest.mark.parametrize(
    ("ruleset", "shape", "scores", "fields", "expected"),
    [
        pytest.param(
            "five-handed-schmier",
            INDIVIDUAL_5,
            (21, 21, 10, 3, 4),
            {**FIVE_DEFAULTS, "hr_partner_breaks_ties": "true", "bidder": 1, "partner": 3},
            (
                "Player 2 wins.",
                "Player 1 and Player 2 both reached 21; Player 2 bid this deal, so Player 2 wins.",
                "five-handed-schmier-win-bidder",
            ),
            id="five-handed-bidder-in-the-tie",
        ),
        pytest.param(
            "five-handed-schmier",
            INDIVIDUAL_5,
            (21, 21, 10, 3, 4),
            {**FIVE_DEFAULTS, "hr_partner_breaks_ties": "true", "bidder": 2, "partner": 1},
            (
                "Player 2 wins.",
                "Player 1 and Player 2 both reached 21 and neither of them bid this deal; "
                "Player 2 was the bidder's partner, so Player 2 wins "
                "(house rule: the partner breaks ties).",
                "five-handed-schmier-win-partner",
            ),
            id="five-handed-partner-breaks-the-tie",
        ),
        pytest.param(
            "five-handed-schmier",
            INDIVIDUAL_5,
            (21, 21, 10, 3, 4),
            {**FIVE_DEFAULTS, "hr_partner_breaks_ties": "false", "bidder": 2, "partner": 1},
            (
                "Nobody has won yet: another deal is played.",
                "Player 1 and Player 2 both reached 21, and the written rules do not settle the "
                "tie, so another deal is played (house rule: play on).",
                "five-handed-schmier-win-shared",
            ),
            id="five-handed-partner-rule-off-plays-on",
        ),
        pytest.param(
            "five-handed-schmier",
            INDIVIDUAL_5,
            (23, 23, 23, 3, 4),
            {
                **FIVE_DEFAULTS,
                "hr_unresolved_tie": "shared",
                "hr_partner_breaks_ties": "true",
                "bidder": 3,
                "partner": "none",
            },
            (
                "Player 1, Player 2 and Player 3 share the win.",
                "Player 1, Player 2 and Player 3 all reached 23, and the written rules do not "
                "settle the tie, so they share the win (house rule: a tie is shared).",
                "five-handed-schmier-win-shared",
            ),
            id="five-handed-unresolved-tie-shared",
        ),
        pytest.param(
            "six-handed-schmier",
            SIX_PAIRS,
            (22, 22, 10),
            {"target": 21, "hr_teams": "3x2", "hr_unresolved_tie": "play_on", "bidder": 4},
            (
                "Player 2 and Player 5 win.",
                "Player 1 & Player 4 and Player 2 & Player 5 are tied at 22; Player 5 bid "
                "this deal, so the bidding team, Player 2 & Player 5, win.",
                "six-handed-schmier-win-bidder",
            ),
            id="six-handed-bidding-team-in-the-tie",
        ),
        pytest.param(
            "six-handed-schmier",
            SIX_THREES,
            (22, 22),
            {"target": 21, "hr_teams": "2x3", "hr_unresolved_tie": "play_on", "bidder": 0},
            (
                "Player 1, Player 3 and Player 5 win.",
                "Player 1, Player 3 & Player 5 and Player 2, Player 4 & Player 6 are tied "
                "at 22; Player 1 bid this deal, so the bidding team, Player 1, Player 3 & "
                "Player 5, win.",
                "six-handed-schmier-win-bidder",
            ),
            id="six-handed-two-threes",
        ),
        pytest.param(
            "shmear",
            INDIVIDUAL_4,
            (11, 13, 5, 2),
            {
                "players": 4,
                "target": 11,
                "hr_low_to_taker": "false",
                "hr_jick": "false",
                "hr_negative_scores": "false",
                "hr_unresolved_tie": "play_on",
                "bidder": 0,
            },
            (
                "Player 1 wins.",
                "At 11 or more: Player 1 and Player 2. Player 1 bid this deal, so Player 1 "
                "wins, whatever the totals.",
                "shmear-win-bidder",
            ),
            id="shmear-bidder-at-target-not-highest",
        ),
        pytest.param(
            "shmear",
            INDIVIDUAL_4,
            (3, 9, 5, 2),
            {
                "players": 4,
                "target": 11,
                "hr_low_to_taker": "false",
                "hr_jick": "false",
                "hr_negative_scores": "false",
                "hr_unresolved_tie": "play_on",
                "bidder": 0,
                "moon": "y",
            },
            (
                "Player 1 wins.",
                "Player 1 shot the moon and took all four points, so Player 1 wins at once.",
                "shmear-win-moon",
            ),
            id="shmear-moon-entered-as-a-moon",
        ),
        pytest.param(
            "shmear",
            INDIVIDUAL_4,
            (3, 9, 5, 2),
            {
                "players": 4,
                "target": 11,
                "hr_low_to_taker": "false",
                "hr_jick": "false",
                "hr_negative_scores": "false",
                "hr_unresolved_tie": "play_on",
                "bidder": 0,
            },
            ("Nobody has won yet.", "Nobody has reached 11 yet.", None),
            id="shmear-same-scores-without-the-moon",
        ),
        pytest.param(
            "shmear-partners",
            PARTNERS,
            (15, 16),
            {
                "target": 15,
                "hr_low_to_taker": "false",
                "hr_jick": "false",
                "hr_negative_scores": "false",
                "bidder": 2,
            },
            (
                "Player 1 and Player 3 win.",
                "At 15 or more: the team of Player 1 and Player 3 and the team of Player 2 and "
                "Player 4. Player 3 bid this deal, so the team of Player 1 and Player 3 wins, "
                "whatever the totals.",
                "shmear-partners-win-bidder",
            ),
            id="partner-shmear-bidding-team",
        ),
        pytest.param(
            "five-handed-euchre",
            INDIVIDUAL_5,
            (10, 11, 2, 3, 4),
            {"target": 10, "start": (8, 9, 2, 3, 4)},
            (
                "Player 1 wins.",
                "Player 1 and Player 2 reached 10 in the same hand; Player 1 had the lowest "
                "score when it began, 8, so Player 1 wins.",
                "five-handed-euchre-win-lowest_at_start",
            ),
            id="euchre-lowest-at-start",
        ),
        pytest.param(
            "five-handed-euchre",
            INDIVIDUAL_5,
            (10, 10, 2, 3, 4),
            {"target": 10, "start": (8, 8, 2, 3, 4)},
            (
                "The game is drawn.",
                "Player 1 and Player 2 reached 10 in the same hand from the same score, 8, so "
                "the game is drawn.",
                "five-handed-euchre-win-draw",
            ),
            id="euchre-draw",
        ),
    ],
)
def test_settler_answers_the_rules_edge_cases(client, ruleset, shape, scores, fields, expected):
    assert answer(settle(client, ruleset, shape, scores, **fields)) == expected


def test_settler_says_the_win_check_step_by_step(client):
    response = settle(
        client,
        "shmear",
        INDIVIDUAL_4,
        (11, 13, 5, 2),
        players=4,
        target=11,
        hr_low_to_taker="false",
        hr_jick="false",
        hr_negative_scores="false",
        hr_unresolved_tie="play_on",
        bidder=0,
    )
    states = re.findall(r'<li class="step-([a-z-]+)"', response.text)
    assert states == ["passed", "passed", "decided", "not-reached", "not-reached"]
    assert 'aria-current="step"' in response.text


def test_settler_refuses_bad_input_with_a_message_at_each_field(client):
    response = settle(
        client,
        "five-handed-schmier",
        INDIVIDUAL_5,
        ("abc", 21, "", 3, 4),
        **FIVE_DEFAULTS,
        hr_partner_breaks_ties="true",
        bidder=9,
        partner="x",
    )
    assert response.status_code == 422
    page = text(response.text)
    assert "Enter the score of Player 1 as a whole number, such as 21." in page
    assert "Enter the score of Player 3." in page
    assert "Choose the bidder from the players at the table." in page
    assert "Choose the partner from the players at the table, or No partner." in page
    assert 'id="verdict-title"' not in response.text
    assert 'value="abc"' in response.text  # what was typed is kept


def test_settler_passes_the_engines_objections_to_the_fields(client):
    response = settle(
        client,
        "five-handed-schmier",
        INDIVIDUAL_5,
        (21, 21, 3, 3, 4),
        **FIVE_DEFAULTS,
        hr_partner_breaks_ties="true",
        bidder=1,
        partner=1,
    )
    assert response.status_code == 422
    assert "The bidder cannot be their own partner." in text(response.text)
    missing = settle(
        client,
        "five-handed-schmier",
        INDIVIDUAL_5,
        (21, 21, 3, 3, 4),
        **FIVE_DEFAULTS,
        hr_partner_breaks_ties="true",
    )
    assert missing.status_code == 422
    assert "Say who bid this deal: the win check needs it." in text(missing.text)


def test_settler_redraws_the_form_when_the_table_changes(client):
    response = settle(
        client,
        "shmear",
        INDIVIDUAL_4,
        (11, 13, 5, 2),
        players=6,
        target=11,
        hr_low_to_taker="false",
        hr_jick="false",
        hr_negative_scores="false",
        hr_unresolved_tie="play_on",
        bidder=0,
    )
    assert response.status_code == 200
    assert "The table changed: check the scores, then ask again." in text(response.text)
    assert len(re.findall(r'name="score_\d"', response.text)) == 6
    assert 'value="0-1-2-3-4-5"' in response.text


def test_settler_asks_team_scores_in_team_games(client):
    page = client.get("/rules/six-handed-schmier").text
    assert len(re.findall(r'name="score_\d"', page)) == 3
    assert "Player 1 and Player 4" in page
    assert 'name="partner"' not in page
    threes = client.get("/rules/six-handed-schmier/settle?hr_teams=2x3").text
    assert len(re.findall(r'name="score_\d"', threes)) == 2


@pytest.mark.parametrize(
    ("ruleset", "asked", "not_asked"),
    [
        ("five-handed-schmier", ["bidder", "partner"], ["moon", "start_0"]),
        ("shmear", ["bidder", "moon"], ["partner", "start_0"]),
        ("shmear-high-low", ["bidder"], ["moon", "partner"]),
        ("five-handed-euchre", [], ["bidder", "partner", "moon", "start_0"]),
    ],
)
def test_settler_asks_only_what_the_win_check_reads(client, ruleset, asked, not_asked):
    page = client.get(f"/rules/{ruleset}").text
    for name in asked:
        assert f'name="{name}"' in page
    for name in not_asked:
        assert f'name="{name}"' not in page


def test_settler_answers_htmx_with_the_settler_alone(client):
    response = client.get("/rules/shmear/settle?players=5", headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section id="settler"')
    assert "HX-Request" in response.headers["Vary"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_each_rules_page_shows_its_rules_and_marks_each_win_step(client, ruleset):
    response = client.get(f"/rules/{ruleset}")
    assert response.status_code == 200
    html = response.text
    name = engine.get_ruleset(ruleset).name
    assert f"<h1>Rules of {name}</h1>" in html
    assert '<div class="rulebook" lang="en">' in html
    assert f'<a id="{ruleset}-win-highest"></a>' in html
    assert 'id="settler"' in html
    assert len(re.findall(r'\bid="([^"]+)"', html)) == len(set(re.findall(r'\bid="([^"]+)"', html)))


def test_shmear_pages_carry_the_family_rules_they_refer_to(client):
    html = client.get("/rules/shmear").text
    assert 'id="the-shmear-family"' in html
    assert 'href="#the-shmear-family"' in html
    assert "Shooting the moon" in html
    assert "<h2>Who wins</h2>" in html


def test_rules_index_lists_the_seven_games_and_the_shared_rules(client):
    html = client.get("/rules").text
    for ruleset in engine.rulesets():
        assert f'href="/rules/{ruleset.id}"' in html
        assert ruleset.name in html
    assert 'id="conventions"' in html and 'id="corrections"' in html


def test_unknown_ruleset_is_404(client):
    assert client.get("/rules/whist").status_code == 404
    assert client.get("/rules/whist/settle").status_code == 404


def test_rules_step_url_points_at_the_step_that_decided(app):
    from scorekeeper.web.rules import rules_step_url

    with app.test_request_context():
        assert rules_step_url("shmear", "moon") == "/rules/shmear#shmear-win-moon"
        assert rules_step_url("five-handed-euchre", "lowest_at_start") == (
            "/rules/five-handed-euchre#five-handed-euchre-win-lowest_at_start"
        )
        assert rules_step_url("five-handed-schmier", None) == "/rules/five-handed-schmier"
        assert rules_step_url("five-handed-schmier", "moon") == "/rules/five-handed-schmier"


def test_new_game_page_links_to_the_rules(client):
    assert 'href="/rules"' in client.get("/games/new").text


def test_rules_text_is_marked_in_the_language_of_its_book(client):
    # A screen reader reads the German book in German, not with English sounds.
    html = client.get("/rules/shmear", headers={"Accept-Language": "de"}).text
    assert '<html lang="de">' in html
    assert '<div class="rulebook" lang="de">' in html


def test_game_page_links_its_rules_and_the_banner_the_step_that_decided(client):
    from tests.conftest import DEAL, FIVE

    created = client.post(
        "/api/v1/games",
        json={"ruleset": "five-handed-schmier", "players": FIVE, "first_dealer": 0, "target": 1},
    ).get_json()
    headers = {"Authorization": f"Bearer {created['edit_token']}"}
    deal = client.post(f"/api/v1/games/{created['id']}/deals", json=DEAL, headers=headers)
    assert deal.status_code == 201, deal.get_json()
    game = client.get(f"/api/v1/games/{created['id']}").get_json()
    page = client.get(f"/games/{created['id']}").text
    assert 'href="/rules/five-handed-schmier"' in page
    banner = page[
        page.index('class="banner"') : page.index("</section>", page.index('class="banner"'))
    ]
    step = f"/rules/five-handed-schmier#five-handed-schmier-win-{game['decided_by']}"
    assert f'href="{step}"' in banner


EUCHRE_AT_10 = {"target": 10, "score_2": 0, "score_3": 0, "score_4": 0}


def euchre(client, end, start=None):
    """Ask the Euchre settler: Player 1 and Player 2 end at `end`, the others at 0."""
    query = {"shape": INDIVIDUAL_5, **EUCHRE_AT_10, "score_0": end[0], "score_1": end[1]}
    for seat, score in enumerate(start or ()):
        query[f"start_{seat}"] = score
    return client.get("/rules/five-handed-euchre/settle", query_string=query)


def test_euchre_settler_asks_only_the_starting_scores_its_win_check_needs(client):
    blank = client.get("/rules/five-handed-euchre").text
    assert 'name="start_' not in blank
    one = euchre(client, (11, 6))
    assert answer(one)[0] == "Player 1 wins."
    assert 'name="start_' not in one.text
    two = euchre(client, (11, 10))
    assert two.status_code == 200
    assert re.findall(r'name="(start_\d)"', two.text) == ["start_0", "start_1"]
    assert (
        "The win check needs the scores at the start of the deal of Player 1 and Player 2: "
        "enter them, then ask again." in text(two.text)
    )
    assert 'id="verdict-title"' not in two.text
    assert answer(euchre(client, (11, 10), (9, 8)))[:2] == (
        "Player 2 wins.",
        "Player 1 and Player 2 reached 10 in the same hand; Player 2 had the lowest score "
        "when it began, 8, so Player 2 wins.",
    )


EUCHRE_RULE = (
    "in one deal the maker and the partner each score 1 or 2 (a maker alone 1, 2 or 4), or, "
    "when the makers are euchred, each defender scores 2; nobody else scores, and no score "
    "goes down."
)


@pytest.mark.parametrize(
    ("end", "start", "reason"),
    [
        pytest.param(
            (11, 10),
            (9, 7),
            "No deal of Five-Handed Euchre takes Player 2 from 7 to 10: " + EUCHRE_RULE,
            id="9-to-11-and-7-to-10",
        ),
        pytest.param(
            (11, 10),
            (9, 9),
            "No one deal of Five-Handed Euchre takes Player 1 from 9 to 11 and Player 2 from 9 "
            "to 10: " + EUCHRE_RULE,
            id="two-and-one-in-one-deal",
        ),
        pytest.param(
            (10, 12),
            (11, 8),
            "No deal of Five-Handed Euchre takes Player 1 from 11 to 10: " + EUCHRE_RULE,
            id="a-score-going-down",
        ),
    ],
)
def test_euchre_settler_refuses_what_no_deal_can_do_and_says_why(client, end, start, reason):
    response = euchre(client, end, start)
    assert response.status_code == 422
    assert reason in text(response.text)
    assert 'id="verdict-title"' not in response.text
    assert f'name="start_1" type="number" value="{start[1]}"' in response.text


SNAKE_CASE = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")


def settler_text(html):
    """Return what the settler shows a player: its text, without tags or attributes."""
    part = html[html.index('<section id="settler"') :]
    return text(part[: part.index("</section>")])


@pytest.mark.parametrize("ruleset", RULESETS)
def test_settler_blank_shows_no_code_names(client, ruleset):
    for code in ("en", "fr"):
        page = client.get(f"/rules/{ruleset}", headers={"Accept-Language": code}).text
        assert SNAKE_CASE.findall(settler_text(page)) == [], (ruleset, code)


@pytest.mark.parametrize(
    ("ruleset", "shape", "scores", "fields", "expected"),
    [p.values for p in test_settler_answers_the_rules_edge_cases.pytestmark[0].args[1]],
    ids=[p.id for p in test_settler_answers_the_rules_edge_cases.pytestmark[0].args[1]],
)
def test_settler_answers_show_no_code_names(client, ruleset, shape, scores, fields, expected):
    response = settle(client, ruleset, shape, scores, **fields)
    shown = settler_text(response.text)
    assert "The win check, step by step" in shown
    assert SNAKE_CASE.findall(shown) == []


@pytest.mark.parametrize("target", ["0", "-5", "1000"])
def test_euchre_settler_refuses_a_target_out_of_range_before_asking_any_start(client, target):
    query = {"shape": INDIVIDUAL_5, **EUCHRE_AT_10, "target": target, "score_0": 11, "score_1": 10}
    response = client.get("/rules/five-handed-euchre/settle", query_string=query)
    assert response.status_code == 422
    assert "The target must be from 1 to 999." in text(response.text)
    assert 'name="start_' not in response.text


@pytest.mark.parametrize("typed", ["\N{SUPERSCRIPT TWO}", "\N{ARABIC-INDIC DIGIT THREE}"])
def test_settler_refuses_digits_that_are_not_plain_numbers(client, typed):
    response = settle(client, "shmear", INDIVIDUAL_4, (typed, 9, 5, 2), players=4, target=typed)
    assert response.status_code == 422
    page = text(response.text)
    assert "Enter the target as a whole number, such as 11." in page
    assert "Enter the score of Player 1 as a whole number, such as 21." in page
