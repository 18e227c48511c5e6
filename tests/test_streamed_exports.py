"""A table's export is streamed: a batch of games at a time, compressed, holding nothing between.

The text is the same as the whole document's (the import reads it back); each batch is
read in its own transaction, so between two batches the download holds no connection
(no snapshot, no lock); a client that accepts gzip gets it compressed, CSV too.
"""

import gzip
import json

import pytest

from scorekeeper.extensions import db
from scorekeeper.store import exchange, tables
from tests.conftest import BOTH
from tests.tables_support import create_table, play_random_games

BACKENDS = BOTH
BATCH = 2
"""Games per batch here: five games make three batches."""


@pytest.fixture
def table(client, monkeypatch):
    """Return a table of five random games, exports read two games at a time."""
    monkeypatch.setattr(exchange, "EXPORT_BATCH", BATCH)
    table = create_table(client, "Club")
    play_random_games(client, table, 5, most=6)
    return table


def without_time(text: str) -> dict:
    document = json.loads(text)
    document.pop("exported_at")
    return document


@pytest.mark.parametrize("url", ["/tables/{t}/export.json", "/api/v1/tables/{t}/export"])
def test_the_streamed_json_is_the_whole_document_and_imports_back(app, client, table, url):
    response = client.get(url.format(t=table["id"]))
    assert response.status_code == 200 and response.is_streamed
    assert response.mimetype == "application/json"
    text = response.text  # read to its end: the stream's request context is let go
    with app.app_context():
        whole = exchange.dumps(exchange.export_table(tables.get_table(table["id"])))
        assert without_time(text) == without_time(whole)
        assert len(json.loads(text)["games"]) == 5
        copy = exchange.import_document(json.loads(text)).table
        assert len(tables.archive(copy).games) == 5


@pytest.mark.parametrize("url", ["/tables/{t}/export.csv", "/api/v1/tables/{t}/export?format=csv"])
def test_the_streamed_csv_is_the_whole_sheet(app, client, table, url):
    response = client.get(url.format(t=table["id"]))
    assert response.status_code == 200 and response.mimetype == "text/csv"
    text = response.text
    with app.app_context():
        assert text == exchange.table_csv(tables.get_table(table["id"]))
        result = exchange.import_document(exchange.load(text))
        assert len(result.games) == 5


@pytest.mark.parametrize("name", ["export.json", "export.csv"])
def test_a_client_that_accepts_gzip_gets_the_stream_compressed(client, table, name):
    plain = client.get(f"/tables/{table['id']}/{name}")
    packed = client.get(f"/tables/{table['id']}/{name}", headers={"Accept-Encoding": "gzip, br"})
    assert packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["Vary"]
    assert len(packed.data) < len(plain.data) / 3
    unpacked = gzip.decompress(packed.data).decode()
    if name == "export.csv":
        assert unpacked == plain.text
    else:
        assert without_time(unpacked) == without_time(plain.text)


def test_between_batches_the_download_holds_no_database_connection(app, client, table):
    response = client.get(f"/tables/{table['id']}/export.json")
    held = []
    pieces = []
    for piece in response.response:
        pieces.append(piece)
        with app.app_context():
            held.append(db.engine.pool.checkedout())
    assert len(pieces) == 1 + 5 + 1  # the head, each game (three batches), the end
    assert held == [0] * len(pieces)
    assert len(json.loads(b"".join(pieces))["games"]) == 5
