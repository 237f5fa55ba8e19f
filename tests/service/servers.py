"""Run the real server in a subprocess on a free port, for tests of the commands users type."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def health(port: int, process: subprocess.Popen[bytes]) -> dict[str, str]:
    """The first answer of ``/v1/health``, waiting while the server boots."""
    for _ in range(100):
        assert process.poll() is None, process.stderr.read().decode() if process.stderr else "exited"
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/health", timeout=1) as response:
                return json.loads(response.read())  # type: ignore[no-any-return]
        except OSError:  # not listening yet, or still booting its workers
            time.sleep(0.1)
    raise AssertionError("the server did not answer /v1/health")


@contextmanager
def running(command: list[str]) -> Iterator[tuple[int, dict[str, str]]]:
    """Start ``command`` with ``PORT`` set; yield the port and its first health answer; stop it. Limits are off,
    as in the rest of the test suite, unless the test's environment sets ``TG_LIMITS``."""
    port = free_port()
    env = {"TG_LIMITS": "off", **os.environ, "PORT": str(port)}
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        yield port, health(port, process)
    finally:
        process.terminate()
        process.wait(timeout=10)
