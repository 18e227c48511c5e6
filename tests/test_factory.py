"""The app factory: configuration from the environment, the secret kept in the instance folder."""

import stat

import pytest
from flask import Flask

from scorekeeper import create_app
from scorekeeper.config import MAX_BODY_BYTES


@pytest.fixture
def instance(tmp_path, monkeypatch):
    """Point the app's instance folder at a temporary directory, with no secret configured."""
    folder = tmp_path / "instance"
    monkeypatch.setattr(Flask, "auto_find_instance_path", lambda self: str(folder))
    monkeypatch.delenv("FLASK_SECRET_KEY", raising=False)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    return folder


def test_without_a_secret_one_is_generated_and_kept(instance):
    first = create_app({"TESTING": True})
    key_file = instance / "secret_key"
    assert len(first.secret_key) == 64
    assert key_file.read_text().strip() == first.secret_key
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert create_app({"TESTING": True}).secret_key == first.secret_key
    assert [p.name for p in instance.iterdir() if p.name.startswith(".")] == []


def test_flask_secret_key_from_the_environment_wins(instance, monkeypatch):
    monkeypatch.setenv("FLASK_SECRET_KEY", "from-the-environment")
    assert create_app({"TESTING": True}).secret_key == "from-the-environment"
    assert not (instance / "secret_key").exists()


def test_without_database_url_the_database_is_a_sqlite_file_in_the_instance_folder(instance):
    app = create_app({"TESTING": True, "SECRET_KEY": "x"})
    expected = f"sqlite:///{instance / 'scorekeeper.sqlite'}"
    assert app.config["SQLALCHEMY_DATABASE_URI"] == expected


@pytest.mark.parametrize(
    ("given", "used"),
    [
        ("postgres://u:p@db.example:5432/sk", "postgresql+psycopg://u:p@db.example:5432/sk"),
        ("postgresql://u@localhost/sk", "postgresql+psycopg://u@localhost/sk"),
        ("postgresql+psycopg://u@localhost/sk", "postgresql+psycopg://u@localhost/sk"),
        ("sqlite:////tmp/sk.sqlite", "sqlite:////tmp/sk.sqlite"),
    ],
)
def test_database_url_from_the_environment(instance, monkeypatch, given, used):
    monkeypatch.setenv("DATABASE_URL", given)
    app = create_app({"TESTING": True, "SECRET_KEY": "x"})
    assert app.config["SQLALCHEMY_DATABASE_URI"] == used


def test_bodies_are_limited_to_64_kib(instance):
    app = create_app({"TESTING": True, "SECRET_KEY": "x"})
    assert app.config["MAX_CONTENT_LENGTH"] == MAX_BODY_BYTES == 64 * 1024


def test_the_app_runs_plain_functions_as_they_are_and_still_refuses_async_ones(instance):
    app = create_app({"TESTING": True})

    def plain():
        return "hello"

    async def coroutine():
        return "hello"

    for _ in range(2):  # asked, then remembered
        assert app.ensure_sync(plain) is plain
        with pytest.raises(RuntimeError, match="async"):
            app.ensure_sync(coroutine)  # Flask needs its async extra, as without the memo
