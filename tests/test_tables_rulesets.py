"""Every ruleset at a table: records, statistics, chart, sheet, export and import, archive.

Each ruleset's first worked game (tests/data) is played at a table through the API, on
SQLite and PostgreSQL; what the table shows of it is checked with literal values.
"""

import csv
import io
import re

import pytest
from sqlalchemy import func, select

from scorekeeper import engine
from scorekeeper.extensions import db
from scorekeeper.store import exchange
from scorekeeper.store.models import CardTable
from tests.conftest import BOTH
from tests.tables_support import FIRST, bearer, create_table, csrf_token, play_example

BACKENDS = BOTH

RULESETS = [r.id for r in engine.rulesets()]

# Per ruleset: its statistics' tags, then per player (games won, deals played, points,
# each statistic's count in the order of the tags).
RECORDS = {
    "five-handed-schmier": (
        ("bid", "made", "set", "called", "alone"),
        {
            "Ann": (0, 6, 0, (1, 0, 1, 3, 0)),
            "Bob": (1, 6, 24, (1, 1, 0, 0, 0)),
            "Cy": (0, 6, 20, (0, 0, 0, 2, 0)),
            "Di": (0, 6, 12, (3, 2, 1, 0, 0)),
            "Ed": (0, 6, 2, (1, 0, 1, 1, 0)),
        },
    ),
    "six-handed-schmier": (
        ("bid", "made", "set"),
        {
            "Ann": (0, 18, 21, (6, 4, 2)),
            "Bob": (1, 18, 21, (4, 3, 1)),
            "Cy": (0, 18, 6, (3, 1, 2)),
            "Di": (0, 18, 21, (2, 1, 1)),
            "Ed": (1, 18, 21, (2, 1, 1)),
            "Flo": (0, 18, 6, (1, 0, 1)),
        },
    ),
    "shmear": (
        ("bid", "made", "set", "smuck", "moon", "moon_made", "forfeit"),
        {
            "Ann": (0, 11, 6, (2, 1, 1, 1, 0, 0, 0)),
            "Bob": (1, 11, 10, (2, 1, 1, 1, 1, 1, 0)),
            "Cy": (0, 11, 0, (6, 2, 4, 4, 0, 0, 1)),
            "Di": (0, 11, 2, (1, 0, 1, 1, 0, 0, 0)),
        },
    ),
    "shmear-high-low": (
        ("bid", "made", "set", "smuck", "moon", "moon_made", "forfeit"),
        {
            "Ann": (0, 14, 6, (3, 2, 1, 2, 0, 0, 0)),
            "Bob": (1, 14, 18, (4, 3, 1, 1, 0, 0, 0)),
            "Cy": (0, 14, 0, (3, 1, 2, 4, 0, 0, 1)),
            "Di": (0, 14, 7, (4, 2, 2, 1, 0, 0, 0)),
        },
    ),
    "shmear-partners": (
        ("bid", "made", "set", "smuck", "moon", "moon_made", "forfeit"),
        {
            "Ann": (0, 15, 16, (1, 1, 0, 1, 0, 0, 0)),
            "Bob": (1, 15, 16, (7, 5, 2, 3, 0, 0, 1)),
            "Cy": (0, 15, 16, (3, 2, 1, 1, 0, 0, 0)),
            "Di": (1, 15, 16, (4, 3, 1, 3, 0, 0, 0)),
        },
    ),
    "shmear-kitty": (
        ("bid", "made", "set", "smuck", "moon", "moon_made", "forfeit"),
        {
            "Ann": (0, 24, 7, (4, 2, 2, 2, 0, 0, 0)),
            "Bob": (0, 24, 5, (4, 1, 3, 3, 0, 0, 0)),
            "Cy": (0, 24, 14, (6, 4, 2, 2, 1, 0, 0)),
            "Di": (1, 24, 15, (7, 5, 2, 2, 0, 0, 1)),
            "Ed": (0, 24, 5, (3, 1, 2, 2, 0, 0, 0)),
        },
    ),
    "five-handed-euchre": (
        ("bid", "made", "euchred", "called", "alone", "march"),
        {
            "Ann": (0, 14, 5, (1, 1, 0, 3, 0, 0)),
            "Bob": (0, 14, 7, (6, 4, 2, 2, 0, 1)),
            "Cy": (0, 14, 6, (2, 2, 0, 0, 1, 0)),
            "Di": (0, 14, 11, (4, 4, 0, 2, 0, 1)),
            "Ed": (1, 14, 10, (1, 1, 0, 6, 0, 0)),
        },
    ),
    "euchre": (
        ("bid", "made", "euchred", "march", "euchring", "alone", "lone_march"),
        {
            "Ann": (0, 11, 7, (7, 4, 3, 0, 0, 1, 0)),
            "Bob": (1, 11, 10, (0, 0, 0, 0, 5, 0, 0)),
            "Cy": (0, 11, 7, (4, 2, 2, 1, 0, 0, 0)),
            "Di": (1, 11, 10, (0, 0, 0, 0, 5, 0, 0)),
        },
    ),
    "two-handed-euchre": (
        ("bid", "made", "euchred", "march", "euchring"),
        {
            "Ann": (1, 9, 10, (5, 5, 0, 3, 1)),
            "Bob": (0, 9, 5, (4, 3, 1, 2, 0)),
        },
    ),
    "three-handed-euchre": (
        ("bid", "made", "euchred", "march", "euchring"),
        {
            "Ann": (0, 8, 11, (2, 1, 1, 0, 5)),
            "Bob": (1, 8, 10, (1, 0, 1, 0, 5)),
            "Cy": (0, 8, 5, (5, 1, 4, 0, 2)),
        },
    ),
    "six-handed-euchre": (
        ("bid", "made", "euchred", "march", "euchring", "alone", "lone_march"),
        {
            "Ann": (1, 10, 11, (3, 3, 0, 1, 2, 0, 0)),
            "Bob": (0, 10, 4, (1, 0, 1, 0, 0, 0, 0)),
            "Cy": (1, 10, 11, (0, 0, 0, 0, 2, 0, 0)),
            "Di": (0, 10, 4, (0, 0, 0, 0, 0, 0, 0)),
            "Ed": (1, 10, 11, (2, 2, 0, 1, 2, 0, 0)),
            "Flo": (0, 10, 4, (4, 3, 1, 1, 0, 1, 0)),
        },
    ),
}


@pytest.fixture
def played(client):
    """Return a function playing a ruleset's first worked game at a new table."""

    def play(ruleset):
        table = create_table(client, name=f"{ruleset} night")
        return table, play_example(client, table, FIRST[ruleset])

    return play


@pytest.mark.parametrize("ruleset", RULESETS)
def test_records_count_each_rulesets_own_statistics(client, played, ruleset):
    table, _ = played(ruleset)
    example = FIRST[ruleset]
    tags, expected = RECORDS[ruleset]
    stats = client.get(f"/api/v1/tables/{table['id']}/stats").get_json()
    records = {p["name"]: p for p in stats["players"]}
    for seat, name in enumerate(example["players"]):
        record = records[name]
        [part] = record["rulesets"]
        assert part["id"] == ruleset and part["games"] == record["games"] == 1
        counts = tuple(s["count"] for s in part["statistics"])
        assert [s["tag"] for s in part["statistics"]] == list(tags)
        assert (record["won"], record["deals"], record["points"], counts) == expected[name], name
        # The points are the final score; smucks agree with the game document.
        assert record["points"] == example["expected"]["scores"][seat]
        if "smucks" in example["expected"]:
            smucks = counts[tags.index("smuck")]
            assert smucks == example["expected"]["smucks"][seat]
        assert record["won"] == (seat in example["expected"]["winners"])
    assert sum(stats["endings"].values()) == 1


@pytest.mark.parametrize("ruleset", RULESETS)
def test_stats_and_player_pages_show_the_rulesets_statistics(client, played, ruleset):
    table, _ = played(ruleset)
    statistics = engine.get_ruleset(ruleset).statistics
    page = client.get(f"/tables/{table['id']}/stats")
    assert page.status_code == 200
    for statistic in statistics:
        assert f"<dt>{statistic.label}</dt>" in page.text
    player = client.get(f"/api/v1/tables/{table['id']}").get_json()["players"][0]
    page = client.get(f"/tables/{table['id']}/players/{player['id']}")
    assert page.status_code == 200
    assert engine.get_ruleset(ruleset).name in page.text
    assert f"<dt>{statistics[0].label}</dt>" in page.text


@pytest.mark.parametrize("ruleset", RULESETS)
def test_chart_has_a_line_per_team_in_team_games_else_per_player(client, played, ruleset):
    _, game = played(ruleset)
    html = client.get(f"/games/{game['id']}/sheet").text
    teams = game["teams"]
    lines = len(teams) if teams else len(game["players"])
    assert html.count('<g class="series series-') == lines
    assert html.count('<span class="swatch swatch-') == lines
    if teams:
        names = [p["name"] for p in game["players"]]
        team = " &amp; ".join(names[seat] for seat in teams[0])
        assert f"</span>{team}</li>" in html  # the legend names the team's members


@pytest.mark.parametrize("ruleset", RULESETS)
def test_score_sheet_prints_every_deal_with_its_contract(client, played, ruleset):
    _, game = played(ruleset)
    response = client.get(f"/games/{game['id']}/sheet")
    assert response.status_code == 200
    html = response.text
    assert html.count('<tbody class="sheet-deal') == len(game["deals"])
    columns = len(game["teams"]) if game["teams"] else len(game["players"])
    head = html[html.index("<thead>") : html.index("</thead>")]
    assert head.count('<th scope="col" class="num">') == columns
    kinds = {
        "thrown_in": "everyone passed, thrown in",
        "forfeit": "the dealer, forfeited",
    }
    for deal in game["deals"]:
        kind = engine.DealResult.from_document(deal).kind
        words = engine.get_ruleset(ruleset).contract_words
        text = kinds.get(kind) or str(words.said(deal["made"]))
        row = re.search(rf"Deal {deal['number']}:(.*?)</td>", html, re.S)
        assert row and text in row.group(1), (deal["number"], row and row.group(1))
    assert "…</th>" not in head  # names are never cut


def test_sheet_names_the_contract_in_the_rulesets_words(client, played):
    _, game = played("five-handed-euchre")
    html = client.get(f"/games/{game['id']}/sheet").text
    row = re.search(r"Deal 1:(.*?)</td>", html, re.S).group(1)
    text = re.sub(r"<[^>]+>", "", row)
    assert re.sub(r"\s+", " ", text).strip() == (
        "Maker Cy, Trump ♦diamonds, Called card K♣ of clubs, Partner Ed, Tricks 3: made"
    )


def without_ids(stats):
    """Return a table's statistics without the players' ids (a copy has its own)."""
    return [{k: v for k, v in p.items() if k != "id"} for p in stats["players"]]


def documents(client, game_ids):
    """Return the API documents of these games without what a copy changes (ids, table)."""
    found = []
    for game_id in game_ids:
        document = client.get(f"/api/v1/games/{game_id}").get_json()
        document.pop("id"), document.pop("table")
        found.append(document)
    return found


def whole_table(client):
    """Return a table with every ruleset's first worked game, and its games' ids."""
    table = create_table(client, name="=Every game")
    ids = [play_example(client, table, FIRST[ruleset])["id"] for ruleset in RULESETS]
    return table, ids


def test_json_export_then_import_gives_back_every_rulesets_game(app, client):
    table, ids = whole_table(client)
    text = client.get(f"/tables/{table['id']}/export.json").get_data()
    with app.app_context():
        result = exchange.import_document(exchange.load(text))
        copies = [game.id for game in result.games]
        copy_id = result.table.id
    assert documents(client, copies) == documents(client, ids)
    old = client.get(f"/api/v1/tables/{table['id']}/stats").get_json()
    new = client.get(f"/api/v1/tables/{copy_id}/stats").get_json()
    assert without_ids(new) == without_ids(old)


def test_csv_export_then_import_gives_back_every_rulesets_game(app, client):
    table, ids = whole_table(client)
    text = client.get(f"/tables/{table['id']}/export.csv").text
    rows = list(csv.DictReader(io.StringIO(text)))
    # Each ruleset's own entry columns; seats written as names; deal 0 is the start.
    assert {"tricks", "forfeit", "off_jack", "called_card"} <= set(rows[0])
    euchre = [r for r in rows if r["ruleset"] == "five-handed-euchre" and r["deal"] == "1"]
    assert (euchre[0]["bidder"], euchre[0]["tricks"], euchre[0]["bid"]) == ("Cy", "3", "")
    assert [r["role"] for r in euchre] == ["opponent", "opponent", "bidder", "opponent", "partner"]
    partners = [r for r in rows if r["ruleset"] == "shmear-partners" and r["deal"] == "0"]
    assert [r["team"] for r in partners] == ["0", "1", "0", "1"]
    assert rows[0]["table"] == "'=Every game"
    with app.app_context():
        result = exchange.import_document(exchange.load(text.encode()))
        assert result.table.name == "=Every game"
        copies = [game.id for game in result.games]
        copy_id = result.table.id
    assert documents(client, copies) == documents(client, ids)
    # Exported again, the copy's sheet is the same but for the ids and the table's.
    again = client.get(f"/tables/{copy_id}/export.csv").text
    strip = lambda text: [row[2:] for row in csv.reader(io.StringIO(text))]  # noqa: E731
    assert strip(again) == strip(text)


def test_csv_import_refuses_a_broken_deal_naming_its_line(app, client):
    table, _ = whole_table(client)
    text = client.get(f"/tables/{table['id']}/export.csv").text

    def changed(**cells):
        """Return the CSV with the euchre game's first deal changed, and that row's line."""
        rows = list(csv.DictReader(io.StringIO(text)))
        index = next(
            i
            for i, r in enumerate(rows)
            if r["ruleset"] == "five-handed-euchre" and r["deal"] == "1"
        )
        rows[index].update(cells)
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
        return out.getvalue(), index + 2

    broken, line = changed(bidder="Zed")
    refused = rf"Line {line}: bidder: 'Zed' is not a player of this game"
    with app.app_context(), pytest.raises(exchange.ImportRefused, match=refused):
        exchange.import_document(exchange.load(broken))
    broken, _ = changed(trump="X")
    with app.app_context(), pytest.raises(exchange.ImportRefused, match="Game 7, deal 1: "):
        exchange.import_document(exchange.load(broken))
    broken, line = changed(deal="one")
    with app.app_context(), pytest.raises(exchange.ImportRefused, match=f"Line {line}: deal"):
        exchange.import_document(exchange.load(broken))
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(CardTable)) == 1


def test_import_page_takes_a_csv_and_says_how_many_games(app, client):
    _, ids = whole_table(client)
    text = client.get(f"/games/{ids[2]}/export.csv").get_data()
    page = client.get("/tables/import")
    response = client.post(
        "/tables/import",
        data={
            "csrf_token": csrf_token(page.text),
            "file": (io.BytesIO(text), "game.csv"),
            "name": "From a sheet",
        },
        content_type="multipart/form-data",
    )
    assert response.status_code == 200, response.text
    assert "Imported 1 game into From a sheet" in response.text


def test_archive_filters_by_ruleset(client):
    table, ids = whole_table(client)
    listing = client.get(f"/api/v1/tables/{table['id']}/games?ruleset=shmear").get_json()
    assert [g["id"] for g in listing["games"]] == [ids[RULESETS.index("shmear")]]
    page = client.get(f"/tables/{table['id']}?ruleset=five-handed-euchre").text
    assert 'id="filter-ruleset"' in page
    assert '<option value="five-handed-euchre" selected>' in page
    shown = re.findall(r'href="/games/([^/"]+)/sheet"', page)
    assert shown == [ids[RULESETS.index("five-handed-euchre")]]
    assert "Five-Handed Euchre · " in page
    everything = client.get(f"/tables/{table['id']}").text
    assert len(re.findall(r'href="/games/([^/"]+)/sheet"', everything)) == len(RULESETS)


@pytest.mark.parametrize(
    ("ruleset", "players"),
    [("shmear", ["Ann", "Bob", "Cy"]), ("shmear-kitty", [f"P{n}" for n in range(6)])],
)
def test_api_starts_any_ruleset_at_a_table_within_its_player_range(client, ruleset, players):
    table = create_table(client)
    response = client.post(
        f"/api/v1/tables/{table['id']}/games",
        json={"ruleset": ruleset, "players": players, "first_dealer": 0},
        headers=bearer(table["edit_token"]),
    )
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["ruleset"] == ruleset and response.get_json()["table"] == table["id"]
    too_many = client.post(
        f"/api/v1/tables/{table['id']}/games",
        json={"ruleset": ruleset, "players": [*players, "X", "Y", "Z", "W"], "first_dealer": 0},
        headers=bearer(table["edit_token"]),
    )
    assert too_many.status_code == 422
    assert "players" in too_many.get_json()["error"]["fields"]


def test_table_page_starts_a_game_of_another_ruleset(client):
    table = create_table(client)
    client.get(f"/tables/{table['id']}/edit/{table['edit_token']}")
    form = client.get(f"/tables/{table['id']}/games/new?ruleset=shmear-partners")
    assert form.status_code == 200
    assert 'value="shmear-partners" checked' in form.text or "shmear-partners" in form.text
    data = {
        "csrf_token": csrf_token(form.text),
        "ruleset": "shmear-partners",
        "first_dealer": "0",
        "target": "15",
        **{f"players-{i}": name for i, name in enumerate(["Ann", "Bob", "Cy", "Di"])},
    }
    response = client.post(f"/tables/{table['id']}/games/new", data=data)
    assert response.status_code == 303, response.text
    listing = client.get(f"/api/v1/tables/{table['id']}/games").get_json()
    assert [g["ruleset"] for g in listing["games"]] == ["shmear-partners"]
    assert [p["name"] for p in listing["games"][0]["players"]] == ["Ann", "Bob", "Cy", "Di"]
