"""Hear of every game's new version as it is saved, without asking the database per phone.

A phone following a game live holds one stream open (scorekeeper/web/live.py); every
stream of a process waits here, on the game it follows. The process keeps one watcher
that knows the followed games' versions and wakes a game's streams when it moves on:

- **PostgreSQL**: a trigger on ``games`` sends ``NOTIFY game_versions, '<id> <version>'``
  with every version saved, by any instance of the app; the watcher ``LISTEN``\\ s on a
  connection of its own and reads nothing else while nothing changes.
- **SQLite** (one machine, no notifications): the watcher reads the followed games'
  versions once every ``CHECK_SECONDS``, in one statement.

The watcher's thread runs only while a stream follows something, and stops when the last
one ends; after a fork (gunicorn's workers) each process starts its own. Under gevent
(gunicorn.conf.py) its thread and locks are greenlets, and psycopg cooperates.
"""

from __future__ import annotations

import logging
import os
import threading
from dataclasses import dataclass, field

from flask import Flask
from sqlalchemy import Engine, bindparam, select

from scorekeeper.store.games import GAME_ID
from scorekeeper.store.models import VERSION_CHANNEL, Game

log = logging.getLogger(__name__)

CHECK_SECONDS = 0.5
"""How often the SQLite watcher reads the followed games' versions."""

LISTEN_SECONDS = 1.0
"""How long the PostgreSQL watcher waits for a notification before looking around."""

RETRY_SECONDS = 2.0
"""How long the watcher waits after losing its database connection before trying again."""

_VERSIONS = select(Game.__table__.c.id, Game.__table__.c.version).where(
    Game.__table__.c.id.in_(bindparam("ids", expanding=True))
)
_CHUNK = 500  # ids per statement: well under SQLite's limit on parameters


@dataclass
class _Followed:
    """One game followed in this process: its version as last heard, and who waits on it."""

    version: int
    followers: int = 0
    changed: threading.Condition = field(default_factory=threading.Condition)


class Follower:
    """A stream's hold on one game: the version it last saw, and a way to wait for the next."""

    def __init__(self, watcher: VersionWatcher, game_id: str, followed: _Followed):
        self._watcher = watcher
        self._followed = followed
        self._closed = False
        self.game_id = game_id
        self.version = followed.version

    def close(self) -> None:
        """Stop following the game (again is harmless); a wait under way returns None."""
        if not self._closed:
            self._closed = True
            self._watcher._leave(self.game_id, self._followed)
            with self._followed.changed:
                self._followed.changed.notify_all()

    def __enter__(self) -> Follower:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def wait(self, timeout: float) -> int | None:
        """Wait up to `timeout` seconds for a version after the last seen; return the newest.

        Returns the version last seen when nothing changed in time, and None once the
        watcher has stopped following the game (the game is gone) or the follower is closed
        (its client hung up).
        """
        followed = self._followed
        with followed.changed:
            followed.changed.wait_for(
                lambda: self._closed or followed.version != self.version or followed.version < 0,
                timeout,
            )
            if self._closed or followed.version < 0:
                return None
            self.version = followed.version
            return self.version


class VersionWatcher:
    """This process's ear for saved versions, for the games its streams follow."""

    def __init__(self, engine: Engine):
        self.engine = engine
        self.listens = engine.dialect.name == "postgresql"
        self._lock = threading.Lock()
        self._followed: dict[str, _Followed] = {}
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._pid = os.getpid()

    def follow(self, game_id: str) -> Follower | None:
        """Start following the game (until the follower is closed); None if there is none."""
        followed = self._join(game_id)
        return None if followed is None else Follower(self, game_id, followed)

    def stop(self, timeout: float = 5.0) -> None:
        """End the watching thread now (the app's end, a test's); following starts it again."""
        with self._lock:
            thread = self._thread
        if thread is None:
            return
        self._stopping.set()
        thread.join(timeout)
        self._stopping.clear()

    def following(self) -> int:
        """Return how many followers (open streams) this process has, over every game."""
        with self._lock:
            self._after_fork()
            return sum(followed.followers for followed in self._followed.values())

    def followed(self) -> dict[str, int]:
        """Return the versions of the games followed in this process, by id."""
        with self._lock:
            return {game_id: f.version for game_id, f in self._followed.items()}

    # ------------------------------------------------------------ following

    def _join(self, game_id: str) -> _Followed | None:
        if not GAME_ID.fullmatch(game_id):
            return None
        with self._lock:
            self._after_fork()
            followed = self._followed.get(game_id)
            if followed is not None:
                followed.followers += 1
                return followed
        # Read outside the lock: one slow read must not hold up every other stream.
        version = self._read([game_id]).get(game_id)
        if version is None:
            return None
        with self._lock:
            followed = self._followed.get(game_id)
            first = followed is None
            if followed is None:
                followed = self._followed[game_id] = _Followed(version)
            followed.followers += 1
            self._start()
        if first and self.listens:
            # A version announced between the read and now was not heard for this game
            # (it was not followed yet): read once more, now that every announcement is.
            try:
                again = self._read([game_id]).get(game_id)
            except BaseException:
                self._leave(game_id, followed)
                raise
            self._heard({game_id: -1 if again is None else again})
            if again is None:  # deleted in between: there is nothing to follow
                self._leave(game_id, followed)
                return None
        return followed

    def _leave(self, game_id: str, followed: _Followed) -> None:
        with self._lock:
            followed.followers -= 1
            if followed.followers <= 0 and self._followed.get(game_id) is followed:
                del self._followed[game_id]

    def _after_fork(self) -> None:
        """In a new process, forget the parent's games and thread (called under the lock)."""
        if self._pid != os.getpid():
            self._pid = os.getpid()
            self._followed = {}
            self._thread = None

    def _start(self) -> None:
        """Start the watching thread unless it runs (called under the lock)."""
        if self._thread is None or not self._thread.is_alive():
            target = self._listen if self.listens else self._check
            self._thread = threading.Thread(target=target, name="version-watcher", daemon=True)
            self._thread.start()

    def _idle(self) -> bool:
        """Return whether nothing is followed (or told to stop); if so, the thread ends."""
        with self._lock:
            if self._followed and not self._stopping.is_set():
                return False
            if self._thread is threading.current_thread():
                self._thread = None
            return True

    # ------------------------------------------------------------ hearing

    def _check(self) -> None:
        """SQLite: read every followed game's version, every CHECK_SECONDS, while any is."""
        while not self._idle():
            try:
                self._refresh()
            except Exception:  # the database may be away for a moment: keep watching
                log.exception("Reading the followed games' versions failed")
                self._stopping.wait(RETRY_SECONDS)
            self._stopping.wait(CHECK_SECONDS)

    def _listen(self) -> None:
        """PostgreSQL: listen for the versions the trigger announces, while any is followed."""
        import psycopg

        while not self._idle():
            try:
                url = self.engine.url.set(drivername="postgresql")
                conninfo = url.render_as_string(hide_password=False)
                with psycopg.connect(conninfo, autocommit=True) as connection:
                    connection.execute(f"LISTEN {VERSION_CHANNEL}")
                    # Whatever was saved before the LISTEN took effect is read once.
                    self._refresh()
                    while not self._idle():
                        for notice in connection.notifies(timeout=LISTEN_SECONDS):
                            game_id, _, version = notice.payload.partition(" ")
                            self._heard({game_id: int(version)})
            except Exception:  # the database may be away for a moment: listen again
                log.exception("Listening for saved versions failed")
                self._stopping.wait(RETRY_SECONDS)

    def _read(self, ids: list[str]) -> dict[str, int]:
        """Return the stored versions of the games (missing ones are left out)."""
        versions: dict[str, int] = {}
        with self.engine.connect() as connection:
            for start in range(0, len(ids), _CHUNK):
                rows = connection.execute(_VERSIONS, {"ids": ids[start : start + _CHUNK]})
                versions.update({row.id: row.version for row in rows})
        return versions

    def _refresh(self) -> None:
        """Read every followed game's version; a game no longer stored ends its streams."""
        asked = list(self.followed())
        versions = self._read(asked)
        self._heard({game_id: versions.get(game_id, -1) for game_id in asked})

    def _heard(self, versions: dict[str, int]) -> None:
        """Wake the followers of every game whose version moved on (-1: the game is gone)."""
        with self._lock:
            followed = [(i, self._followed[i]) for i in versions if i in self._followed]
        for game_id, entry in followed:
            version = versions[game_id]
            if version > entry.version or version < 0:
                with entry.changed:
                    entry.version = version
                    entry.changed.notify_all()


def init_app(app: Flask) -> None:
    """Give the app its watcher, on its database (one per app; each process its own)."""
    from scorekeeper.extensions import db

    with app.app_context():
        app.extensions["scorekeeper.versions"] = VersionWatcher(db.engine)


def watcher() -> VersionWatcher:
    """Return the current app's watcher."""
    from flask import current_app

    return current_app.extensions["scorekeeper.versions"]
