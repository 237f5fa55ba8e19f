"""The proxy configuration we ship (``deploy/nginx.conf``) run by Debian's nginx before two gunicorn servers over a
Redis of the test's own (``deploy/redis.conf``), everything on 127.0.0.1 and stopped at the end: for the proxy's
tests (``test_proxy.py``), a rolling restart's bench and the browser tests through it. Imported by its package path,
as the browser tests import it too."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.service.redis_cluster import free_node_port, redis_server
from tests.service.servers import ROOT, free_port, processes_marked, running

NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
GUNICORN = [sys.executable, "-m", "gunicorn", "--config", "python:service.gunicorn_conf", "service:create_app()"]
SHIPPED = ROOT / "deploy" / "nginx.conf"
#: The proxy's access log in the directory given to ``proxied``.
ACCESS_LOG = "cardtable-access.log"


def nginx_config(directory: Path, port: int, servers: list[int], shipped: Path = SHIPPED) -> Path:
    """``shipped`` (``deploy/nginx.conf``, or a variant of it) listening on ``port`` before ``servers``, logging into
    ``directory``."""
    text = shipped.read_text()
    replaced = {
        "listen 8080;": f"listen 127.0.0.1:{port};",
        "server 127.0.0.1:8001 ": f"server 127.0.0.1:{servers[0]} ",
        "server 127.0.0.1:8002 ": f"server 127.0.0.1:{servers[1]} ",
        "/var/log/nginx/": f"{directory}/",
    }
    for shipped, test in replaced.items():
        assert shipped in text, shipped
        text = text.replace(shipped, test)
    path = directory / "nginx.conf"
    path.write_text(text)
    return path


def request(
    port: int, method: str, path: str, body: object = None, source: str = "127.0.0.1", **headers: str
) -> http.client.HTTPResponse:
    """One request to 127.0.0.1:``port`` from the local address ``source``."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
    data = None if body is None else json.dumps(body).encode()
    connection.request(method, path, data, {"Content-Type": "application/json", **headers})
    return connection.getresponse()


def proxy_answers(directory: Path, status: int) -> int:
    """How many requests the proxy that ``proxied`` ran in ``directory`` answered ``status`` (its access log)."""
    lines = (directory / ACCESS_LOG).read_text().splitlines()
    return sum(line.rsplit('" ', 1)[-1].split(" ", 1)[0] == str(status) for line in lines)


@dataclass(frozen=True)
class Proxied:
    """nginx's port before two gunicorn servers, each server's test mark (``TG_TEST_MARK``: its processes), and
    ``start(server)``, which starts server 0 or 1 on its port (again, once a ``TERM`` stopped it), stopped with the
    rest at the end."""

    port: int
    marks: tuple[str, str]
    start: Callable[[int], None]

    def master(self, server: int) -> int:
        """The gunicorn master of server 0 or 1: its marked process whose parent is not marked."""
        marked = processes_marked(self.marks[server])
        return next(pid for pid, parent in marked.items() if parent not in marked)


@contextmanager
def proxied(directory: Path, config: Path = SHIPPED, **settings: str) -> Iterator[Proxied]:
    """nginx (the shipped configuration, or the variant ``config``) before two gunicorn servers over a Redis of the
    test's own, each server's environment with ``settings``; nginx logs into ``directory``."""
    redis_port, port, marks = free_node_port(), free_port(), (uuid.uuid4().hex, uuid.uuid4().hex)
    settings = {
        "TG_LIMITS": "on",
        "TG_TRUSTED_PROXY_HEADER": "X-Forwarded-For",
        "WEB_CONCURRENCY": "1",
        "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
        **settings,
    }
    with ExitStack() as stack, pytest.MonkeyPatch.context() as environment:
        for name, value in settings.items():
            environment.setenv(name, value)
        stack.enter_context(redis_server(redis_port, directory, config=ROOT / "deploy" / "redis.conf"))
        servers = [free_port(), free_port()]

        def start(server: int) -> None:
            environment.setenv("TG_TEST_MARK", marks[server])
            stack.enter_context(running(GUNICORN, port=servers[server]))

        for server in (0, 1):
            start(server)
        user = ["user root;"] if os.geteuid() == 0 else []  # its workers read and write the test's directory
        command = [str(NGINX), "-c", str(nginx_config(directory, port, servers, config)), "-p", str(directory)]
        command += [
            "-e",
            str(directory / "error.log"),
            "-g",
            " ".join(["daemon off;", f"pid {directory}/nginx.pid;", *user]),
        ]
        nginx = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(100):
                try:
                    if request(port, "GET", "/v1/health/ready").status == 200:
                        break
                except OSError:
                    time.sleep(0.1)
            yield Proxied(port, marks, start)
        finally:
            nginx.terminate()
            nginx.wait(timeout=10)
