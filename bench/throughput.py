"""Throughput benchmark: the app's busiest addresses as ratios to a bare Flask page.

    .venv/bin/python -m bench.throughput                 # SQLite file in a temporary folder
    .venv/bin/python -m bench.throughput --database postgresql+psycopg://postgres@127.0.0.1/bench

Both the app and a bare Flask "hello" app (bench/bare.py) are served by gunicorn with the
same settings (gunicorn.conf.py when the project has one, else the Procfile's two
workers), each on its own port. `wrk` (16 connections) fetches each address for a few
seconds, the addresses interleaved, three rounds; the best round of each is kept. Ratios
are to the bare page of the same run, which makes them comparable between machines.

Two ratios are printed. "req/s" is wrk's rate, what a client sees; on a machine busy with
other work it moves with the neighbours' load. "cpu" divides the CPU time gunicorn's
processes spent by the requests they answered, which a busy neighbour hardly moves; on an
idle machine, where the app is CPU-bound, the two agree. The goals are checked on "cpu".

Then nginx runs deploy/nginx.conf in front of the same app (bench/nginx.py), and wrk
fetches the viewer's page and the API document through it: those ratios are of req/s,
nginx's own CPU not being gunicorn's.

The goals (issue 31): through gunicorn alone the game page and the API's game document
≥ 0.4 times the bare page, the unchanged live poll (304) ≥ 0.6 times, and a 300-deal
game's page at most 1.5 times a 25-deal one; through nginx the game page and the API
document ≥ 2 times the bare page under gunicorn alone.
"""

import argparse
import math
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench import nginx
from bench.deals import PLAYERS, entry
from scorekeeper import create_app
from scorekeeper.extensions import db

ROOT = Path(__file__).resolve().parents[1]
CONNECTIONS = 16
ROUNDS = 3


@dataclass(frozen=True)
class Target:
    """One address fetched by wrk, with the goal its ratio must reach (if any)."""

    label: str
    path: str
    headers: tuple[str, ...] = ()
    goal: float | None = None


def main() -> None:
    """Build the games, serve both apps, fetch every address and print the ratios."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.throughput", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--database", help="SQLAlchemy URL (default: a new SQLite file)")
    parser.add_argument("--seconds", type=int, default=5, help="length of one wrk run")
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    args = parser.parse_args()
    if not shutil.which("wrk"):
        raise SystemExit("wrk is not installed: apt-get install wrk")

    with tempfile.TemporaryDirectory() as folder:
        url = args.database or f"sqlite:///{Path(folder) / 'throughput.sqlite'}"
        games = _build(url)
        targets = _targets(games)
        proxied_targets = _proxied_targets(games)
        served_app = _serve("scorekeeper:create_app()", url, {"FLASK_BEHIND_PROXY": "true"})
        with (
            _serve("bench.bare:app", url) as bare,
            served_app as app,
            nginx.running(Path(folder), _free_port(), [app.base.removeprefix("http://")]) as front,
        ):
            proxy = Server(front, app.pid)
            rates: dict[str, float] = {}
            costs: dict[str, float] = {}
            for _ in range(args.rounds):
                for label, server, path, headers in [
                    ("bare", bare, "/", ()),
                    *((t.label, app, t.path, t.headers) for t in targets),
                    *((t.label, proxy, t.path, t.headers) for t in proxied_targets),
                ]:
                    rate, cost = _wrk(server, path, headers, args.seconds)
                    rates[label] = max(rates.get(label, 0), rate)
                    costs[label] = min(costs.get(label, float("inf")), cost)
    failures = _report(rates, costs, targets, url)
    failures += _report_proxied(rates, costs, proxied_targets)
    if failures:
        print("FAILED: " + "; ".join(failures))
        raise SystemExit(1)
    print("OK: every ratio reaches its goal.")


def _build(url: str) -> dict[str, tuple[str, int]]:
    """Play games of 25, 30 and 300 deals through the API; return id and version of each."""
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": url,
            "SECRET_KEY": "bench",
            "TESTING": True,
            "RATELIMIT_ENABLED": False,
        }
    )
    made = {}
    with app.app_context():
        from flask_migrate import upgrade

        upgrade()
        client = app.test_client()
        for deals in (25, 30, 300):
            created = client.post(
                "/api/v1/games",
                json={"ruleset": "five-handed-schmier", "players": PLAYERS, "target": 999},
            ).get_json()
            auth = {"Authorization": f"Bearer {created['edit_token']}"}
            address = f"/api/v1/games/{created['id']}/deals"
            first = created["first_dealer"]
            for number in range(1, deals + 1):
                response = client.post(address, json=_dealt(number, first), headers=auth)
                assert response.status_code == 201, response.get_json()
            made[deals] = (created["id"], 1 + deals)
        db.session.remove()
        db.engine.dispose()
    return made


def _dealt(number: int, first_dealer: int) -> dict:
    """Return bench.deals' entry for this deal, turned to the game's first dealer."""
    deal = entry(number)
    shift = first_dealer
    for field in ("bidder", "partner", "high", "low", "jack", "off_jack", "joker"):
        deal[field] = (deal[field] + shift) % len(PLAYERS)
    return deal


PHONE = ("Accept-Encoding: gzip, deflate, br", "Accept-Language: en-GB,en;q=0.9")
"""What every phone's browser sends with a page request."""


def _targets(games: dict[str, tuple[str, int]]) -> list[Target]:
    game, version = games[30]
    poll = ("HX-Request: true", f'If-None-Match: "{version}-v"', *PHONE)
    return [
        Target("game page (view link), 30 deals", f"/games/{game}", PHONE, goal=0.4),
        Target("API game document, 30 deals", f"/api/v1/games/{game}", PHONE, goal=0.4),
        Target("unchanged live poll (304)", f"/games/{game}/live", poll, goal=0.6),
        Target("game page, 25 deals", f"/games/{games[25][0]}", PHONE),
        Target("game page, 300 deals", f"/games/{games[300][0]}", PHONE),
    ]


def _proxied_targets(games: dict[str, tuple[str, int]]) -> list[Target]:
    game = games[30][0]
    return [
        Target("nginx: game page, 30 deals", f"/games/{game}", PHONE, goal=2.0),
        Target("nginx: API game document", f"/api/v1/games/{game}", PHONE, goal=2.0),
    ]


class _serve:
    """Run gunicorn on a free port for the duration of a `with` block; yield a Server."""

    def __init__(self, wsgi: str, database: str, env: dict[str, str] | None = None):
        self.wsgi = wsgi
        self.database = database
        self.env = env or {}
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> "Server":
        port = _free_port()
        command = [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}"]
        config = ROOT / "gunicorn.conf.py"
        command += ["--config", str(config)] if config.exists() else ["--workers", "2"]
        env = {
            **os.environ,
            "DATABASE_URL": self.database,
            "FLASK_SECRET_KEY": "bench",
            "WEB_CONCURRENCY": "2",
            # Every phone of the load test follows its game from this machine's one address.
            "FLASK_LIVE_STREAMS_PER_ADDRESS": "0",
            **self.env,
        }
        # BENCH_SERVER_LOG=<file> keeps gunicorn's log (errors included) for a look after.
        log = os.environ.get("BENCH_SERVER_LOG")
        self.process = subprocess.Popen(
            [*command, self.wsgi],
            cwd=ROOT,
            env=env,
            stderr=open(log, "ab") if log else subprocess.DEVNULL,
        )
        _wait_for(port)
        return Server(f"http://127.0.0.1:{port}", self.process.pid)

    def __exit__(self, *exc: object) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=30)


@dataclass(frozen=True)
class Server:
    """A running gunicorn: its address and its master's process id."""

    base: str
    pid: int

    def cpu_seconds(self) -> float:
        """Return the CPU time the master and its workers have used so far."""
        ticks = os.sysconf("SC_CLK_TCK")
        children = Path(f"/proc/{self.pid}/task/{self.pid}/children").read_text().split()
        total = 0
        for pid in [self.pid, *map(int, children)]:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
        return total / ticks


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_for(port: int) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                time.sleep(0.5)  # let every worker boot
                return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"gunicorn did not answer on port {port}")


def _wrk(server: Server, path: str, headers: tuple[str, ...], seconds: int) -> tuple[float, float]:
    """Return the rate wrk reached and the server's CPU seconds per request.

    Any answer other than 2xx or 3xx fails the benchmark.
    """
    command = ["wrk", "-t2", f"-c{CONNECTIONS}", f"-d{seconds}s"]
    for header in headers:
        command += ["-H", header]
    before = server.cpu_seconds()
    output = subprocess.run(
        [*command, server.base + path], capture_output=True, text=True, check=True
    ).stdout
    used = server.cpu_seconds() - before
    if "Non-2xx or 3xx responses" in output:
        raise SystemExit(f"{path} answered errors under load:\n{output}")
    rate = re.search(r"Requests/sec:\s+([\d.]+)", output)
    count = re.search(r"(\d+) requests in", output)
    if not rate or not count:
        raise SystemExit(f"wrk printed no rate for {path}:\n{output}")
    answered = int(count.group(1))
    if answered == 0:  # a round in which nothing was answered (a machine far too busy)
        return 0.0, math.inf
    return float(rate.group(1)), used / answered


def _report(
    rates: dict[str, float], costs: dict[str, float], targets: list[Target], url: str
) -> list[str]:
    """Print each address's rate, CPU cost and ratios; return the goals missed."""
    unanswered = [label for label, cost in costs.items() if math.isinf(cost)]
    if unanswered:  # no ratio to make: wrk finished no request of these in any round
        return [f"wrk finished no request of {', '.join(unanswered)} in any round"]
    kind = "PostgreSQL" if url.startswith("postgres") else "SQLite"
    print(f"Under gunicorn on {kind}, {os.cpu_count()} cores, wrk with {CONNECTIONS} connections")
    print(f"{'address':<36}{'req/s':>8}{'ratio':>7}{'cpu µs':>8}{'ratio':>7}{'goal':>7}")
    failures = []
    for label, goal in [("bare", None), *((t.label, t.goal) for t in targets)]:
        rate, cost = rates[label], costs[label]
        rate_ratio = rate / rates["bare"]
        cost_ratio = costs["bare"] / cost
        shown = "bare Flask page" if label == "bare" else label
        wanted = f">={goal}" if goal else ""
        print(
            f"{shown:<36}{rate:>8.0f}{rate_ratio:>7.2f}{cost * 1e6:>8.0f}{cost_ratio:>7.2f}"
            f"{wanted:>7}"
        )
        if goal and cost_ratio < goal:
            failures.append(f"{shown}: {cost_ratio:.2f} times the bare page, goal {goal}")
    slower = costs["game page, 300 deals"] / costs["game page, 25 deals"]
    print(f"A 300-deal game's page costs {slower:.2f} times a 25-deal one's (goal <=1.5).")
    if slower > 1.5:
        failures.append(f"a 300-deal game's page costs {slower:.1f} times a 25-deal one's")
    return failures


def _report_proxied(
    rates: dict[str, float], costs: dict[str, float], targets: list[Target]
) -> list[str]:
    """Print the reads through nginx as ratios of req/s to the bare page; return goals missed."""
    print("Through nginx (deploy/nginx.conf) in front of the same gunicorn:")
    print(f"{'address':<36}{'req/s':>8}{'ratio':>7}{'app µs':>8}{'goal':>7}")
    failures = []
    for target in targets:
        rate = rates[target.label]
        ratio = rate / rates["bare"]
        print(
            f"{target.label:<36}{rate:>8.0f}{ratio:>7.2f}{costs[target.label] * 1e6:>8.0f}"
            f"{'>=' + str(target.goal):>7}"
        )
        if target.goal and ratio < target.goal:
            failures.append(f"{target.label}: {ratio:.2f} times the bare page, goal {target.goal}")
    return failures


if __name__ == "__main__":
    main()
