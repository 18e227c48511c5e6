"""The import page at 390x844 says how far a file got: the share sent, then that every deal
is being checked; the answer replaces the form, a refusal as well as the imported games."""

import json
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import check_axe
from tests.browser.test_live import api

pytestmark = pytest.mark.browser

GAMES = json.loads((Path(__file__).parents[1] / "data" / "five-handed-games.json").read_text())


def exported_table(live_server, tmp_path, games=3):
    """Return the path of a table's export with `games` finished games, as a club keeps it."""
    table = api(live_server, "/api/v1/tables", {"name": "Thursday club"})
    for game in GAMES[:games]:
        body = {k: game[k] for k in ("ruleset", "players", "first_dealer", "target", "house_rules")}
        started = api(live_server, f"/api/v1/tables/{table['id']}/games", body, table["edit_token"])
        for deal in game["deals"]:
            api(live_server, f"/api/v1/games/{started['id']}/deals", deal, started["edit_token"])
    with urllib.request.urlopen(f"{live_server}/tables/{table['id']}/export.json") as answer:
        path = tmp_path / "club.json"
        path.write_bytes(answer.read())
    return path


def test_an_import_shows_its_progress_then_the_games_imported(page, live_server, tmp_path):
    path = exported_table(live_server, tmp_path)
    page.goto(f"{live_server}/tables/import")
    page.get_by_label("Export file (.json or .csv)").set_input_files(path)
    # The server is held until the page has said the file is on its way.
    held = []
    page.route("**/tables/import", lambda route: held.append(route))
    page.get_by_role("button", name="Import").click()
    status = page.locator("#import-progress")
    expect(status).to_be_visible()
    expect(status).to_contain_text("Sending the file")
    expect(page.get_by_role("button", name="Import")).to_be_disabled()
    check_axe(page)
    assert len(held) == 1
    held[0].continue_()
    expect(page.get_by_role("heading", level=1)).to_have_text("Imported 3 games into Thursday club")
    assert page.title().startswith("Imported")
    check_axe(page)


@pytest.mark.parametrize(
    ("content", "why"),
    [
        pytest.param(b'{"hello": 1}', "Nothing was imported.", id="not-an-export"),
        pytest.param(b" " * (2 * 1024 * 1024 + 10), "larger than 2 MiB", id="over-the-limit"),
    ],
)
def test_a_refused_file_is_shown_in_place_with_the_reason(
    page, live_server, tmp_path, content, why
):
    path = tmp_path / "refused.json"
    path.write_bytes(content)
    page.goto(f"{live_server}/tables/import")
    page.evaluate("window.__samePage = true")
    page.get_by_label("Export file (.json or .csv)").set_input_files(path)
    page.get_by_role("button", name="Import").click()
    expect(page.locator("#file-errors")).to_contain_text(why)
    assert page.evaluate("window.__samePage === true")
    expect(page.locator("#import-progress")).to_be_hidden()
    expect(page.get_by_role("button", name="Import")).to_be_enabled()
