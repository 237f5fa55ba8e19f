"""The production command (the Dockerfile's CMD) and ``python -m service`` really start and answer."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import pytest
from servers import ROOT, running


def dockerfile_command() -> list[str]:
    lines = (ROOT / "Dockerfile").read_text().splitlines()
    command: list[str] = json.loads(next(line for line in lines if line.startswith("CMD "))[4:])
    return command


def test_the_dockerfile_command_serves() -> None:
    command = dockerfile_command()
    assert command[0] == "gunicorn" and (ROOT / command[command.index("--config") + 1]).is_file()
    with running([sys.executable, "-m", *command]) as (_, health):
        assert health["status"] == "ok"


def ipv6_loopback() -> bool:
    """Whether this machine can listen on ::1."""
    if not socket.has_ipv6:
        return False
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        return False
    return True


def create_status(url: str) -> int:
    request = urllib.request.Request(url, b'{"players": 1}', {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code


@pytest.mark.skipif(not ipv6_loopback(), reason="this machine cannot listen on ::1")
def test_the_dockerfile_command_serves_ipv6_clients_each_with_the_budget_of_its_64(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """It answers on [::1] as on 127.0.0.1 (``running`` waits for the latter), and an IPv6 client's creations are
    counted apart from an IPv4 client's (by its /64: ``client_address``)."""
    for name, value in {"TG_LIMITS": "on", "TG_CREATE_RATE": "2/600", "REDIS_URL": ""}.items():
        monkeypatch.setenv(name, value)  # the embedded store: no budget left over from another run
    with running([sys.executable, "-m", *dockerfile_command()]) as (port, _):
        with urllib.request.urlopen(f"http://[::1]:{port}/v1/health", timeout=5) as response:
            assert json.loads(response.read())["status"] == "ok"
        assert [create_status(f"http://[::1]:{port}/v1/games") for _ in range(3)] == [201, 201, 429]
        assert create_status(f"http://127.0.0.1:{port}/v1/games") == 201


def test_python_dash_m_service_serves() -> None:
    with running([sys.executable, "-m", "service"]) as (_, health):
        assert health == {"status": "ok", "store": "redis" if os.environ.get("REDIS_URL") else "embedded"}


def test_the_wheel_ships_every_file_the_service_reads(tmp_path: Path) -> None:
    """``pip install '.[service]'`` (the Docker image) gets every package of the service and the files they read
    beside their code (the Lua scripts), not only the modules of the top folder."""
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        check=True,
        cwd=tmp_path,
    )
    (wheel,) = tmp_path.glob("*.whl")
    shipped = set(zipfile.ZipFile(wheel).namelist())
    needed = {
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "service").rglob("*")
        if path.is_file() and path.suffix in {".py", ".lua"} and "__pycache__" not in path.parts
    }
    assert needed and needed <= shipped, sorted(needed - shipped)
