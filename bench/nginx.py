"""Run Debian's nginx with deploy/nginx.conf on a free port, in front of given app instances.

Used by tests/test_nginx.py and bench.throughput: the configuration is the deployed file
itself, with only what its comments mark "here:" put in (the port, the instances, the
static folder, the cache folder), inside a small main file of its own (no root needed).
"""

import os
import re
import signal
import socket
import subprocess
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "deploy" / "nginx.conf"
NGINX = "/usr/sbin/nginx"

MAIN = """\
daemon off;
worker_processes 1;
# Each phone following a game holds two connections (its own and nginx's to the app).
worker_rlimit_nofile 40000;
{user}pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 16384; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {folder}/scorekeeper.conf;
}}
"""


def render(port: int, upstreams: Sequence[str], static: Path, cache: Path) -> str:
    """Return deploy/nginx.conf serving on this port, in front of these host:port instances."""
    text = CONFIG.read_text()
    servers = "".join(f"    server {address};\n" for address in upstreams)
    text, found = re.subn(r"(?m)^(    server \S+;\n)+", servers, text, count=1)
    replacements = [
        (r"listen \S+;", f"listen 127.0.0.1:{port};"),
        (r"alias \S+;", f"alias {static}/;"),
        (r"proxy_cache_path \S+", f"proxy_cache_path {cache}"),
    ]
    for pattern, value in replacements:
        text, count = re.subn(pattern, value, text, count=1)
        found += count
    if found != 4:
        raise ValueError(f"{CONFIG} no longer has the places marked 'here:'")
    return text


@contextmanager
def running(
    folder: Path, port: int, upstreams: Sequence[str], static: Path = ROOT / "build" / "static"
) -> Iterator[str]:
    """Start nginx in `folder` on `port` (127.0.0.1); yield its address; always stop it."""
    (folder / "scorekeeper.conf").write_text(render(port, upstreams, static, folder / "cache"))
    # As root nginx's workers would run as nobody, who may not read the checkout.
    user = "user root;\n" if os.geteuid() == 0 else ""
    main = folder / "nginx.conf"
    main.write_text(MAIN.format(folder=folder, user=user))
    log = folder / "nginx.log"
    with log.open("wb") as output:
        process = subprocess.Popen(
            [NGINX, "-p", str(folder), "-c", str(main)], stdout=output, stderr=output
        )
    try:
        deadline = time.monotonic() + 30
        while not _answers(port):
            if process.poll() is not None or time.monotonic() > deadline:
                errors = folder / "error.log"
                said = errors.read_text() if errors.exists() else ""
                raise RuntimeError(f"nginx did not start:\n{log.read_text()}{said}")
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.send_signal(signal.SIGQUIT)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


def _answers(port: int) -> bool:
    """Return whether something accepts connections on the port."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False
