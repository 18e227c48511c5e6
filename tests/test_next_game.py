"""The next game in two taps: rematch, recent line-ups, and putting a game at a table."""

import re

from scorekeeper.web.games import RECENT_LINEUPS
from tests.tables_support import create_table
from tests.test_pages import DEAL_1_WRONG, DEAL_2, DEAL_4, csrf, post_deal, start_game
from tests.test_tables_pages import make_table

WON_1 = {**DEAL_1_WRONG, "jack": 1}


def api_game(client, url):
    return client.get(f"/api/v1{url}").get_json()


def finish(client, url):
    """Play tests/test_pages.py's game to Di's win."""
    post_deal(client, url, WON_1, 1)
    post_deal(client, url, DEAL_2, 2)
    client.post(
        f"{url}/deals", data={"csrf_token": csrf(client.get(url)), "number": "3", "thrown_in": "1"}
    )
    post_deal(client, url, DEAL_4, 4)
    assert api_game(client, url)["status"] == "won"


def rematch(client, url):
    return client.post(f"{url}/rematch", data={"csrf_token": csrf(client.get(url))})


# --- rematch ----------------------------------------------------------------------------


def test_a_finished_game_offers_a_rematch_that_keeps_seats_rules_and_moves_the_deal_on(client):
    url = start_game(client, target=10, joker_callable=True)
    finish(client, url)
    page = client.get(url).text
    banner = page[
        page.index('class="banner"') : page.index("</section>", page.index('class="banner"'))
    ]
    assert ">Rematch: same players, next dealer</button>" in banner
    old = api_game(client, url)

    started = rematch(client, url)
    assert started.status_code == 303
    new_url = started.headers["Location"]
    assert new_url != url
    new = api_game(client, new_url)
    assert [p["name"] for p in new["players"]] == [p["name"] for p in old["players"]]
    assert new["ruleset"] == old["ruleset"] and new["target"] == 10
    assert new["house_rules"] == old["house_rules"] and new["house_rules"]["joker_callable"]
    assert new["first_dealer"] == old["next_dealer"]
    assert new["deals"] == [] and new["status"] == "in_progress"
    # This browser may enter the new game's deals at once.
    page = client.get(new_url).text
    assert "Rematch started." in page and 'id="deal-form"' in page


def test_a_rematch_of_a_game_at_a_table_stays_at_the_table(client):
    table = create_table(client, players=["Ann", "Bob"])
    client.get(f"/tables/{table['id']}/edit/{table['edit_token']}")
    page = client.get(f"/tables/{table['id']}/games/new")
    data = {
        "csrf_token": csrf(page),
        "ruleset": "shmear",
        "first_dealer": "2",
        **{f"players-{i}": n for i, n in enumerate(["Ann", "Bob", "Cy", "Di"])},
    }
    created = client.post(f"/tables/{table['id']}/games/new", data=data)
    assert created.status_code == 303
    url = created.headers["Location"]
    new_url = rematch(client, url).headers["Location"]
    new = api_game(client, new_url)
    assert new["table"] == table["id"]
    assert new["ruleset"] == "shmear" and new["first_dealer"] == 2  # nobody dealt yet
    games = client.get(f"/api/v1/tables/{table['id']}/games").get_json()
    assert {g["id"] for g in games["games"]} >= {url.rsplit("/", 1)[1], new["id"]}


def test_a_rematch_needs_the_games_edit_rights_and_the_csrf_token(client, app):
    url = start_game(client)
    viewer = app.test_client()
    token = csrf(viewer.get("/games/new"))  # the game page gives a viewer no token
    assert viewer.post(f"{url}/rematch", data={"csrf_token": token}).status_code == 403
    assert client.post(f"{url}/rematch", data={}).status_code == 400
    assert 'action="' + url + '/rematch"' not in viewer.get(url).text
    assert 'action="' + url + '/rematch"' in client.get(url).text  # any game, not only finished


# --- recent line-ups ----------------------------------------------------------------------


def test_the_new_game_page_offers_this_browsers_recent_line_ups_filled_in_one_tap(client, app):
    url = start_game(client)
    page = client.get("/games/new").text
    section = page[
        page.index('class="lineups"') : page.index("</section>", page.index('class="lineups"'))
    ]
    assert "Ann, Bob, Cy, Di, Ed" in section
    game_id = url.rsplit("/", 1)[1]
    link = f"/games/new?ruleset=five-handed-schmier&amp;lineup={game_id}"
    assert link in section
    filled = client.get(link.replace("&amp;", "&")).text
    for seat, name in enumerate(["Ann", "Bob", "Cy", "Di", "Ed"]):
        assert f'name="players-{seat}" type="text" value="{name}"' in filled or (
            f'id="players-{seat}"' in filled and f'value="{name}"' in filled
        )
    # Another browser sees no one else's line-ups, and cannot fill them by id.
    other = app.test_client()
    assert 'class="lineups"' not in other.get("/games/new").text
    assert 'value="Ann"' not in other.get(link.replace("&amp;", "&")).text


# --- a game started from home, put at a table ----------------------------------------------


def test_a_game_from_home_is_put_at_one_of_this_browsers_tables(client):
    table_id = make_table(client, regulars="Ann")
    url = start_game(client)
    post_deal(client, url, WON_1, 1)
    page = client.get(url).text
    assert f'href="{url}/table"' in page
    form = client.get(f"{url}/table")
    assert form.status_code == 200 and "Thursday club" in form.text
    moved = client.post(f"{url}/table", data={"csrf_token": csrf(form), "table": table_id})
    assert moved.status_code == 303
    assert api_game(client, url)["table"] == table_id
    page = client.get(url).text  # the cached page moved on with the game's version
    assert f'href="/tables/{table_id}"' in page and "Back to the table" in page
    assert "now at the table Thursday club" in page
    regulars = client.get(f"/api/v1/tables/{table_id}").get_json()
    assert {p["name"] for p in regulars["players"]} >= {"Ann", "Bob", "Di"}
    again = client.post(f"{url}/table", data={"csrf_token": csrf(form), "table": table_id})
    assert again.status_code == 409 and "at a table already" in again.text


def test_putting_a_game_at_a_table_by_its_edit_link(client, app):
    table = create_table(client, name="Friday")
    url = start_game(client)
    form = client.get(f"{url}/table")
    assert "cannot start games at any table yet" in form.text
    wrong = f"http://localhost/tables/{table['id']}/edit/not-the-token"
    refused = client.post(f"{url}/table", data={"csrf_token": csrf(form), "edit_link": wrong})
    assert refused.status_code == 422
    assert "not a table&#39;s edit link that still works" in refused.text
    assert api_game(client, url)["table"] is None
    link = f"http://localhost/tables/{table['id']}/edit/{table['edit_token']}"
    moved = client.post(f"{url}/table", data={"csrf_token": csrf(form), "edit_link": link})
    assert moved.status_code == 303
    assert api_game(client, url)["table"] == table["id"]


def test_putting_a_game_at_a_table_needs_the_games_rights_and_a_choice(client, app):
    table_id = make_table(client)
    url = start_game(client)
    viewer = app.test_client()
    assert viewer.get(f"{url}/table").status_code == 403
    token = csrf(viewer.get("/games/new"))  # the game page gives a viewer no token
    refused = viewer.post(f"{url}/table", data={"csrf_token": token, "table": table_id})
    assert refused.status_code == 403
    form = client.get(f"{url}/table")
    nothing = client.post(f"{url}/table", data={"csrf_token": csrf(form)})
    assert nothing.status_code == 422 and "Choose one of your tables" in nothing.text
    # A table this browser cannot edit is not a choice, even by its id.
    other_table = create_table(app.test_client(), name="Not mine")["id"]
    foreign = client.post(f"{url}/table", data={"csrf_token": csrf(form), "table": other_table})
    assert foreign.status_code == 422
    assert api_game(client, url)["table"] is None


def start_named(client, names):
    """Start a Shmear game of these players through the new-game page; return its URL."""
    data = {"csrf_token": csrf(client.get("/games/new")), "ruleset": "shmear"}
    data.update({f"players-{seat}": name for seat, name in enumerate(names)})
    data["first_dealer"] = "0"
    started = client.post("/games/new", data=data)
    assert started.status_code == 303, started.text
    return started.headers["Location"]


def offered_line_ups(client):
    page = client.get("/games/new").text
    section = page[
        page.index('class="lineups"') : page.index("</section>", page.index('class="lineups"'))
    ]
    return re.findall(r'<a class="button small" href="[^"]*"[^>]*>([^<]*)</a>', section)


def test_every_recent_line_up_is_offered_newest_first_up_to_a_cap(client):
    line_ups = [[f"P{n}a", f"P{n}b", f"P{n}c"] for n in range(RECENT_LINEUPS + 2)]
    for names in line_ups[:7]:
        start_named(client, names)
    start_named(client, line_ups[0])  # played again: once, at the top
    expected = [line_ups[0], *reversed(line_ups[1:7])]
    assert offered_line_ups(client) == [", ".join(names) for names in expected]
    for names in line_ups[7:]:
        start_named(client, names)
    offered = offered_line_ups(client)
    assert len(offered) == RECENT_LINEUPS
    assert offered[0] == ", ".join(line_ups[-1])
