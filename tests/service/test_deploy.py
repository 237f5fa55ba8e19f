"""The production command (the Dockerfile's CMD) and ``python -m service`` really start and answer."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def dockerfile_command() -> list[str]:
    lines = (ROOT / "Dockerfile").read_text().splitlines()
    command: list[str] = json.loads(next(line for line in lines if line.startswith("CMD "))[4:])
    return command


def wait_for_health(port: int, process: subprocess.Popen[bytes]) -> dict[str, str]:
    for _ in range(100):
        assert process.poll() is None, process.stderr.read().decode() if process.stderr else "exited"
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/health", timeout=1) as response:
                return json.loads(response.read())  # type: ignore[no-any-return]
        except OSError:  # not listening yet, or still booting its workers
            time.sleep(0.1)
    raise AssertionError("the server did not answer /v1/health")


def serve(command: list[str]) -> dict[str, str]:
    port = free_port()
    env = {**os.environ, "PORT": str(port)}
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        return wait_for_health(port, process)
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_the_dockerfile_command_serves() -> None:
    command = dockerfile_command()
    assert command[0] == "gunicorn" and (ROOT / command[command.index("--config") + 1]).is_file()
    health = serve([sys.executable, "-m", *command])
    assert health["status"] == "ok"


def test_python_dash_m_service_serves() -> None:
    health = serve([sys.executable, "-m", "service"])
    assert health == {"status": "ok", "store": "redis" if os.environ.get("REDIS_URL") else "embedded"}
