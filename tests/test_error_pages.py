"""Error pages: the app's own, styled and translated, outside /api; JSON under /api."""

import io

import pytest
from babel.messages.pofile import read_po

from scorekeeper.web import i18n
from tests.conftest import make_app


def translated(code, msgid):
    """Return the catalog's translation of one message."""
    path = i18n.TRANSLATIONS / code / "LC_MESSAGES" / "messages.po"
    with open(path, "rb") as f:
        return read_po(f, locale=code)[msgid].string


def assert_page(response, status, title):
    """Check an error page: its status, HTML in the app's base template, its title."""
    assert response.status_code == status
    assert response.mimetype == "text/html"
    body = response.text
    assert 'class="topbar"' in body  # the base template, not Werkzeug's bare page
    assert f"<h1>{title}</h1>" in body
    assert response.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize(
    "path", ["/no/such/page", "/tables/no-such-table", "/tables/no-such-table/stats"]
)
def test_unknown_address_gives_the_styled_404_page(client, path):
    assert_page(client.get(path), 404, "Page not found")


def test_404_page_speaks_the_browsers_language(client):
    response = client.get("/tables/no-such-table", headers={"Accept-Language": "fr"})
    assert_page(response, 404, translated("fr", "Page not found"))
    assert '<html lang="fr">' in response.text
    message = translated(
        "fr", "There is nothing at this address. Check it, or go back to your games."
    )
    assert message.replace("'", "&#39;") in response.text
    assert "Page not found" not in response.text


def test_unknown_game_keeps_its_own_404_message(client):
    response = client.get("/games/nope/sheet")
    assert_page(response, 404, "Not found")
    assert "There is no such game or deal." in response.text


def test_wrong_method_gives_the_styled_405_page(client):
    response = client.post("/tables")
    assert_page(response, 405, "Not possible here")
    assert response.headers["Allow"] == "GET, HEAD, OPTIONS"


def test_405_page_speaks_the_browsers_language(client):
    response = client.delete("/", headers={"Accept-Language": "de"})
    assert_page(response, 405, translated("de", "Not possible here"))


def test_too_large_a_form_gives_the_styled_413_page(client):
    response = client.post("/tables/new", data={"name": "x" * (70 * 1024)})
    assert_page(response, 413, "Too large")
    chunked = {"wsgi.input_terminated": True}
    body = io.BytesIO(b"name=" + b"x" * (70 * 1024))
    response = client.post("/tables/new", input_stream=body, environ_overrides=chunked)
    assert_page(response, 413, "Too large")
    # A page that takes no body answers as ever, whatever was sent with it.
    body = io.BytesIO(b"x" * (70 * 1024))
    page = client.get("/tables/new", input_stream=body, environ_overrides=chunked)
    assert page.status_code == 200


@pytest.fixture
def failing_app():
    """Return an app with a page that fails, answering errors as in production."""
    app = make_app(PROPAGATE_EXCEPTIONS=False)

    @app.get("/fails")
    def fails():
        raise RuntimeError("a bug")

    return app


def test_unexpected_error_gives_the_styled_500_page(failing_app):
    client = failing_app.test_client()
    assert_page(client.get("/fails"), 500, "Something went wrong")
    indonesian = client.get("/fails", headers={"Accept-Language": "id"})
    assert_page(indonesian, 500, translated("id", "Something went wrong"))
    assert "a bug" not in indonesian.text


@pytest.mark.parametrize(
    ("method", "path", "status", "code"),
    [
        ("get", "/api/v1/no/such/thing", 404, "not_found"),
        ("get", "/api/v2/games", 404, "not_found"),
        ("get", "/api/v1/games/nope", 404, "not_found"),
        ("get", "/api/v1/tables/nope", 404, "not_found"),
        ("delete", "/api/v1/rulesets", 405, "method_not_allowed"),
        ("post", "/api/v1/games", 413, "too_large"),
    ],
)
def test_api_errors_keep_the_json_shape(client, method, path, status, code):
    data = b"x" * (70 * 1024) if status == 413 else None
    response = getattr(client, method)(path, data=data, headers={"Accept-Language": "fr"})
    assert response.status_code == status
    assert response.mimetype == "application/json"
    error = response.get_json()["error"]
    assert error["code"] == code
    assert error["message"]


def test_api_lookups_name_what_is_missing(client):
    game = client.get("/api/v1/games/nope").get_json()["error"]
    table = client.get("/api/v1/tables/nope").get_json()["error"]
    assert game["message"] == "There is no game with this id."
    assert table["message"] == "There is no table with this id."
