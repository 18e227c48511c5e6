"""A PostgreSQL server of a test's own, to restart at will: never the shared one.

Debian's server binaries (/usr/lib/postgresql/<version>/bin) make a throwaway cluster in
a temporary folder, listening on a free port of 127.0.0.1 only (trust, user postgres,
database test), with fsync off. Run as root, the cluster belongs to the ``postgres``
user, as initdb refuses root. Without the binaries the test skips, saying why.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

BINARIES = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))


@dataclass
class OwnPostgres:
    """A running throwaway cluster: its URL, and a way to restart it."""

    url: str
    """The SQLAlchemy URL of its database ``test``."""
    data: Path
    port: int
    bin: Path
    user: str | None
    options: str = ""
    """The server's options: its port, socket folder and settings."""

    def _run(self, *command: str, timeout: float = 60) -> None:
        prefix = ["runuser", "-u", self.user, "--"] if self.user else []
        subprocess.run([*prefix, *command], check=True, timeout=timeout, capture_output=True)

    def pg_ctl(self, *arguments: str) -> None:
        """Run pg_ctl on the cluster, waiting for it to finish."""
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-w", *arguments)

    def restart(self) -> None:
        """Restart the server as an administrator does (fast: every session is ended)."""
        self.pg_ctl("restart", "-m", "fast", "-l", str(self.data / "server.log"))

    def stop(self) -> None:
        """Stop the server (fast: every session is ended)."""
        self.pg_ctl("stop", "-m", "fast")

    def start(self) -> None:
        """Start the server again, with the options it was first started with."""
        self.pg_ctl("start", "-o", self.options, "-l", str(self.data / "server.log"))


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def own_postgres() -> Iterator[OwnPostgres]:
    """Start a throwaway cluster; yield it; stop it and remove its files."""
    if not BINARIES:
        pytest.skip("No PostgreSQL server binaries under /usr/lib/postgresql/*/bin")
    bin_folder = BINARIES[-1].parent
    user = "postgres" if os.geteuid() == 0 else None
    folder = Path(tempfile.mkdtemp(prefix="sk_test_cluster_"))
    data = folder / "data"
    if user is not None:
        entry = pwd.getpwnam(user)
        os.chown(folder, entry.pw_uid, entry.pw_gid)
    port = _free_port()
    server = OwnPostgres(
        url=f"postgresql+psycopg://postgres@127.0.0.1:{port}/test",
        data=data,
        port=port,
        bin=bin_folder,
        user=user,
    )
    try:
        server._run(
            str(bin_folder / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust",
            "--no-sync", "-E", "UTF8",
        )  # fmt: skip
        server.options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        server.start()
        server._run(
            str(bin_folder / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "postgres",
            "test",
        )  # fmt: skip
        yield server
    finally:
        if (data / "postmaster.pid").exists():
            server.pg_ctl("stop", "-m", "immediate")
        shutil.rmtree(folder, ignore_errors=True)
