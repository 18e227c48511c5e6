"""Statistics per player at a table, aggregated in SQL from the per-seat deal records."""

from datetime import timedelta

from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.store import exchange, games, tables
from scorekeeper.store.models import DealSeat
from tests.conftest import BOTH
from tests.tables_support import (
    MADE_WITH_PARTNER,
    SET_ALONE,
    THROWN_IN,
    bearer,
    count_queries,
    create_table,
    play,
    play_random_games,
    start_game,
)

BACKENDS = BOTH

# Bob bids 6 with Di and takes everything, four times: Bob and Di reach 24, the others 0.
SWEEP = {
    "bidder": 1, "bid": 6, "trump": "C", "called_card": "QC", "partner": 3,
    "high": 1, "low": 3, "jack": 1, "off_jack": 3, "joker": 1, "game": "bidders",
}  # fmt: skip


def stats_of(client, table):
    response = client.get(f"/api/v1/tables/{table['id']}/stats")
    assert response.status_code == 200
    return {p["name"]: p for p in response.get_json()["players"]}, response.get_json()["endings"]


def seats(app, game_id):
    with app.app_context():
        rows = db.session.execute(
            select(DealSeat.number, DealSeat.seat, DealSeat.role, DealSeat.delta)
            .where(DealSeat.game_id == game_id)
            .order_by(DealSeat.number, DealSeat.seat)
        ).all()
    return [tuple(r) for r in rows]


def counts(record, ruleset="five-handed-schmier"):
    """Return a record's statistics in one ruleset, by tag."""
    part = next(p for p in record["rulesets"] if p["id"] == ruleset)
    return {s["tag"]: s["count"] for s in part["statistics"]}


def test_bids_partners_alone_and_points_per_deal(client):
    table = create_table(client)
    game = start_game(client, table)
    play(client, game, [MADE_WITH_PARTNER, THROWN_IN, SET_ALONE])
    players, _ = stats_of(client, table)
    ann, bob, di = players["Ann"], players["Bob"], players["Di"]
    [part] = bob["rulesets"]
    assert part["id"] == "five-handed-schmier" and part["name"] == "Five-Handed Schmier"
    assert part["bids"] == {"4": {"made": 1, "set": 0}}
    assert counts(bob) == {"bid": 1, "made": 1, "set": 0, "called": 0, "alone": 0}
    assert ann["rulesets"][0]["bids"] == {"5": {"made": 0, "set": 1}}
    assert counts(ann) == {"bid": 1, "made": 0, "set": 1, "called": 0, "alone": 1}
    assert counts(di) == {"bid": 0, "made": 0, "set": 0, "called": 1, "alone": 0}
    assert di["rulesets"][0]["partner"] == {"deals": 1, "made": 1, "set": 0, "points": 4}
    assert [s["label"] for s in part["statistics"]] == [
        "Bids won", "Bids made", "Bids set", "Called as partner", "Played alone",
    ]  # fmt: skip
    # Thrown-in deals are not deals played: Ann had +2 then -5 in two deals.
    assert ann["deals"] == 2 and ann["points"] == -3 and ann["points_per_deal"] == -1.5
    assert ann["games"] == 1 and ann["won"] == 0 and ann["win_rate"] is None


def test_wins_streaks_and_how_games_were_decided(client):
    table = create_table(client)
    for _ in range(3):
        game = start_game(client, table)
        play(client, game, [SWEEP] * 4)
    players, endings = stats_of(client, table)
    bob = players["Bob"]
    # Bob and Di tie at 24: the bidder wins.
    assert bob["won"] == 3 and bob["win_rate"] == 1 and bob["longest_streak"] == 3
    assert bob["wins_by"] == {"bidder": 3}
    assert players["Di"]["won"] == 0 and players["Di"]["longest_streak"] == 0
    assert endings == {"bidder": 3}


def test_streak_counts_consecutive_wins_only(client):
    table = create_table(client)
    for bidder in (1, 1, 2, 1, 1, 1):
        game = start_game(client, table)
        play(client, game, [dict(SWEEP, bidder=bidder, high=bidder, jack=bidder, joker=bidder)] * 4)
    players, _ = stats_of(client, table)
    assert players["Bob"]["won"] == 5 and players["Bob"]["longest_streak"] == 3
    assert players["Cy"]["longest_streak"] == 1


def test_streaks_follow_an_undo_a_correction_and_an_earlier_game_imported(app, client):
    """The kept streaks are numbered again wherever a game leaves or joins the order played."""
    table = create_table(client)
    bob_wins = [SWEEP] * 4
    cy_wins = [dict(SWEEP, bidder=2, high=2, jack=2, joker=2)] * 4
    played = []
    for entries in (bob_wins, bob_wins, bob_wins):
        played.append(start_game(client, table))
        play(client, played[-1], entries)
    first, middle, _ = played

    def streaks():
        players, _ = stats_of(client, table)
        return players["Bob"]["longest_streak"], players["Cy"]["longest_streak"]

    assert streaks() == (3, 0)
    # The middle game's last deal undone: it is no longer finished, Bob's run is 2.
    token = bearer(middle["edit_token"])
    assert client.delete(f"/api/v1/games/{middle['id']}/deals/4", headers=token).status_code == 204
    assert streaks() == (2, 0)
    # A game Cy won, played between the first and the last, comes in by import.
    with app.app_context():
        game = games.get_game(first["id"])
        assert game is not None
        document = exchange.export_game(game)
        record = document["games"][0]
        record["created_at"] = (game.created_at + timedelta(microseconds=1)).isoformat()
        record["deals"] = [{"number": n + 1, "entry": e} for n, e in enumerate(cy_wins)]
        for name in ("changes", "status", "winners", "decided_by", "scores", "updated_at"):
            record.pop(name, None)
        exchange.import_document(document, table=tables.get_table(table["id"]))
    assert streaks() == (1, 1)
    # The middle game finished again: first, Cy's import, middle, last for Bob: 1, 0, 1, 2.
    play(client, middle, [SWEEP])
    assert streaks() == (2, 1)
    # Its last deal corrected so Cy bids and Di, his partner, reaches the target alone.
    response = client.put(f"/api/v1/games/{middle['id']}/deals/4", json=cy_wins[0], headers=token)
    assert response.status_code == 200, response.get_json()
    assert streaks() == (1, 1)


def test_records_follow_corrections_and_undo(app, client):
    table = create_table(client)
    game = start_game(client, table)
    play(client, game, [MADE_WITH_PARTNER, SET_ALONE])
    assert seats(app, game["id"])[1] == (1, 1, "bidder", 4)
    # Deal 1 becomes thrown in: its rows change, deal 2's rows follow.
    response = client.put(
        f"/api/v1/games/{game['id']}/deals/1", json=THROWN_IN, headers=bearer(game["edit_token"])
    )
    assert response.status_code == 200, response.get_json()
    rows = seats(app, game["id"])
    assert [r[2] for r in rows[:5]] == ["none"] * 5
    assert rows[5] == (2, 0, "bidder", -5)
    response = client.delete(
        f"/api/v1/games/{game['id']}/deals/2", headers=bearer(game["edit_token"])
    )
    assert response.status_code == 204
    assert len(seats(app, game["id"])) == 5
    players, _ = stats_of(client, table)
    assert players["Ann"]["deals"] == 0 and counts(players["Ann"])["set"] == 0


def test_games_without_a_table_still_get_records(app, client, api):
    game = api.create()
    api.add(game, MADE_WITH_PARTNER)
    assert [r[3] for r in seats(app, game["id"])] == [2, 4, 2, 4, 2]


PAGES = (
    "/tables/{id}",
    "/tables/{id}?player={player}&page=2",
    "/tables/{id}/stats",
    "/tables/{id}/players/{player}",
    "/api/v1/tables/{id}",
    "/api/v1/tables/{id}/stats",
    "/api/v1/tables/{id}/games",
)


def test_pages_cost_the_same_queries_for_3_and_30_games(app, client):
    table = create_table(client)
    play_random_games(client, table, 3, seed=3, most=4)
    player = client.get(f"/api/v1/tables/{table['id']}").get_json()["players"][0]["id"]
    urls = [page.format(id=table["id"], player=player) for page in PAGES]
    with app.app_context():
        engine = db.engine

    def costs():
        counts = []
        for url in urls:
            with count_queries(engine) as statements:
                assert client.get(url).status_code == 200, url
            counts.append(len(statements))
        return counts

    few = costs()
    play_random_games(client, table, 27, seed=4, most=4)
    assert costs() == few
    assert max(few) <= 10


def test_undoing_the_winning_deal_takes_the_win_back(client):
    table = create_table(client)
    game = start_game(client, table)
    play(client, game, [SWEEP] * 4)
    assert stats_of(client, table)[0]["Bob"]["won"] == 1
    response = client.delete(
        f"/api/v1/games/{game['id']}/deals/4", headers=bearer(game["edit_token"])
    )
    assert response.status_code == 204
    players, endings = stats_of(client, table)
    assert players["Bob"]["won"] == 0 and players["Bob"]["finished"] == 0
    assert endings == {}


def test_merging_two_spellings_moves_their_statistics(client):
    table = create_table(client)
    game = start_game(client, table, ["Ann", "Rob", "Cy", "Di", "Ed"])
    play(client, game, [MADE_WITH_PARTNER])  # Rob (seat 1) bids and makes it
    players = {
        p["name"]: p["id"] for p in client.get(f"/api/v1/tables/{table['id']}").json["players"]
    }
    response = client.post(
        f"/api/v1/tables/{table['id']}/merge",
        json={"from": players["Rob"], "into": players.get("Robert") or players["Ann"]},
        headers=bearer(table["edit_token"]),
    )
    assert response.status_code == 409  # Rob and Ann sat at the same game
    other = start_game(client, table, ["Robert", "Bob", "Cy", "Di", "Ed"])
    play(client, other, [SET_ALONE])  # Robert (seat 0) bids alone and is set
    robert = next(
        p["id"]
        for p in client.get(f"/api/v1/tables/{table['id']}").json["players"]
        if p["name"] == "Robert"
    )
    response = client.post(
        f"/api/v1/tables/{table['id']}/merge",
        json={"from": players["Rob"], "into": robert},
        headers=bearer(table["edit_token"]),
    )
    assert response.status_code == 200, response.get_json()
    merged, _ = stats_of(client, table)
    assert "Rob" not in merged
    assert counts(merged["Robert"]) == {"bid": 2, "made": 1, "set": 1, "called": 0, "alone": 1}
