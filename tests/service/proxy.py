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
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.service.redis_cluster import free_node_port, redis_server
from tests.service.servers import ROOT, free_port, processes_marked, running

NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
GUNICORN = [sys.executable, "-m", "gunicorn", "--config", "python:service.gunicorn_conf", "service:create_app()"]


def nginx_config(directory: Path, port: int, servers: list[int]) -> Path:
    """``deploy/nginx.conf`` listening on ``port`` before ``servers``, logging into ``directory``."""
    text = (ROOT / "deploy" / "nginx.conf").read_text()
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


@dataclass(frozen=True)
class Proxied:
    """nginx's port before two gunicorn servers, and each server's test mark (``TG_TEST_MARK``: its processes)."""

    port: int
    marks: tuple[str, str]

    def master(self, server: int) -> int:
        """The gunicorn master of server 0 or 1: its marked process whose parent is not marked."""
        marked = processes_marked(self.marks[server])
        return next(pid for pid, parent in marked.items() if parent not in marked)


@contextmanager
def proxied(directory: Path, **settings: str) -> Iterator[Proxied]:
    """nginx (the shipped configuration) before two gunicorn servers over a Redis of the test's own."""
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
        servers = []
        for mark in marks:
            environment.setenv("TG_TEST_MARK", mark)
            servers.append(stack.enter_context(running(GUNICORN))[0])
        user = ["user root;"] if os.geteuid() == 0 else []  # its workers read and write the test's directory
        command = [str(NGINX), "-c", str(nginx_config(directory, port, servers)), "-p", str(directory)]
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
            yield Proxied(port, marks)
        finally:
            nginx.terminate()
            nginx.wait(timeout=10)
