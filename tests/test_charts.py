"""The score chart: a pure function of the deal documents, escaped, with the target marked."""

import xml.etree.ElementTree as ET

from scorekeeper.web.charts import score_chart

SVG = "{http://www.w3.org/2000/svg}"
PLAYERS = ["Ann", "Bob", "Cy", "Di", "Ed"]


def deal(number, scores):
    return {"number": number, "scores": scores}


def parse(svg):
    return ET.fromstring(str(svg))


def test_chart_has_one_line_per_player_with_a_point_per_deal_and_the_start():
    deals = [deal(1, [2, 4, 2, 4, 2]), deal(2, [2, 4, 2, 4, 2]), deal(3, [-1, 7, 5, 4, 5])]
    root = parse(score_chart(PLAYERS, deals, 21))
    lines = root.findall(f".//{SVG}polyline")
    assert len(lines) == 5
    assert all(len(line.get("points").split()) == 4 for line in lines)


def test_chart_marks_the_target_line_and_says_so():
    root = parse(score_chart(PLAYERS, [deal(1, [2, 4, 2, 4, 2])], 21))
    target = root.find(f".//{SVG}line[@class='target']")
    assert target is not None
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "21 to win" in texts


def test_chart_puts_higher_scores_higher_on_the_page():
    root = parse(score_chart(PLAYERS, [deal(1, [-3, 0, 6, 0, 25])], 21))
    ends = [float(p.get("points").split()[-1].split(",")[1]) for p in root.iter(f"{SVG}polyline")]
    assert ends[4] < ends[2] < ends[1] < ends[0]


def test_chart_escapes_player_names():
    players = ["<script>x</script>", "Bob & Co", "Cy", "Di", 'E"d']
    svg = str(score_chart(players, [deal(1, [1, 2, 3, 4, 5])], 21))
    assert "<script>" not in svg
    assert "&lt;script&gt;" in svg and "Bob &amp; Co" in svg
    parse(svg)  # still well-formed


def test_chart_of_a_game_without_deals_is_valid_svg():
    root = parse(score_chart(PLAYERS, [], 21))
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img"


def test_chart_describes_the_final_scores_for_screen_readers():
    root = parse(score_chart(PLAYERS, [deal(1, [2, 4, 2, 4, 2])], 21))
    desc = root.find(f"{SVG}desc").text
    assert "After 1 deal: Ann 2, Bob 4" in desc


def test_chart_is_deterministic():
    deals = [deal(n, [n, -n, 2 * n, 0, 1]) for n in range(1, 30)]
    assert score_chart(PLAYERS, deals, 21) == score_chart(PLAYERS, deals, 21)


def test_long_games_drop_the_markers_but_keep_the_lines():
    deals = [deal(n, [n % 7, 0, 1, 2, 3]) for n in range(1, 80)]
    root = parse(score_chart(PLAYERS, deals, 21))
    assert len(root.findall(f".//{SVG}polyline")) == 5
    assert not root.findall(f".//{SVG}circle")


def test_chart_fragment_renders_from_a_game_document_alone():
    from flask import render_template

    from tests.conftest import make_app

    game = {
        "players": [{"seat": s, "name": n, "score": 0} for s, n in enumerate(PLAYERS)],
        "deals": [deal(1, [2, 4, 2, 4, 2])],
        "target": 21,
    }
    with make_app().test_request_context():
        html = render_template("games/_chart.html", game=game)
    assert html.count('class="series series-') == 5
    assert "swatch-4" in html and ">Ed</li>" in html


def test_team_games_have_one_line_per_team_named_by_its_members():
    players = ["Ann", "Bob", "Cy", "Di"]
    deals = [deal(1, [3, 1, 3, 1]), deal(2, [3, 5, 3, 5])]
    root = parse(score_chart(players, deals, 15, teams=[[0, 2], [1, 3]]))
    lines = root.findall(f".//{SVG}polyline")
    assert len(lines) == 2
    assert "After 2 deals: Ann &amp; Cy 3, Bob &amp; Di 5." in str(
        score_chart(players, deals, 15, teams=[[0, 2], [1, 3]])
    )
    ends = [float(p.get("points").split()[-1].split(",")[1]) for p in lines]
    assert ends[1] < ends[0]  # Bob and Di's 5 above Ann and Cy's 3


def test_chart_fragment_of_a_team_game_has_a_legend_entry_per_team():
    from flask import render_template

    from tests.conftest import make_app

    game = {
        "players": [{"seat": s, "name": n, "score": 0} for s, n in enumerate(PLAYERS[:4])],
        "teams": [[0, 2], [1, 3]],
        "deals": [deal(1, [2, 0, 2, 0])],
        "target": 15,
    }
    with make_app().test_request_context():
        html = render_template("games/_chart.html", game=game)
    assert html.count('class="series series-') == 2
    assert "</span>Ann &amp; Cy</li>" in html and "</span>Bob &amp; Di</li>" in html


def test_chart_follows_the_pages_colour_scheme_instead_of_a_white_panel():
    from pathlib import Path

    svg = str(score_chart(PLAYERS, [deal(1, [-4, 0, 6, 0, 2])], 21))
    # Text and grid take the page's colour; no white rectangle behind the chart.
    assert 'fill="currentColor"' in svg and 'stroke="currentColor"' in svg
    assert "#fff" not in svg.lower() and "<rect" not in svg.split("<g ")[0]
    css = (Path(__file__).parents[1] / "static" / "tables.css").read_text()
    figure = css[css.index(".chart-figure {") :].split("}")[0]
    assert "background" not in figure and "color: var(--fg)" in figure
    dark = css[css.index("@media (prefers-color-scheme: dark)") :].split("}\n}")[0]
    assert "--series-0" in dark and "--target" in dark
    assert ".score-chart .series polyline" in css  # series colours come from the theme


def test_chart_draws_negative_scores_below_the_zero_line():
    root = parse(score_chart(PLAYERS, [deal(1, [-4, 0, 6, 0, 2])], 21))
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "-5" in texts or "-4" in texts  # the axis reaches below 0


def test_end_labels_name_every_side_in_full_a_team_a_name_a_line():
    players = ["Margaretha", "Christophe", "Bernadette", "Maximilian"]
    deals = [deal(1, [3, 1, 3, 1])]
    svg = str(score_chart(players, deals, 15, teams=[[0, 2], [1, 3]]))
    assert "\N{HORIZONTAL ELLIPSIS}" not in svg
    root = parse(svg)
    labels = [
        [text.text, *(span.text for span in text.findall(f"{SVG}tspan"))]
        for text in root.findall(f".//{SVG}g/{SVG}text")
    ]
    assert labels == [["3 Margaretha", "& Bernadette"], ["1 Christophe", "& Maximilian"]]
    # The plot leaves room for the longest: it ends further left than with short names.
    short = parse(str(score_chart(PLAYERS[:4], deals, 15, teams=[[0, 2], [1, 3]])))
    ends = [
        max(float(x.split(",")[0]) for x in r.find(f".//{SVG}polyline").get("points").split())
        for r in (root, short)
    ]
    assert ends[0] < ends[1]
