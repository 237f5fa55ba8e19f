"""The production command (the Dockerfile's CMD) and ``python -m service`` really start and answer."""

from __future__ import annotations

import json
import os
import sys

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


def test_python_dash_m_service_serves() -> None:
    with running([sys.executable, "-m", "service"]) as (_, health):
        assert health == {"status": "ok", "store": "redis" if os.environ.get("REDIS_URL") else "embedded"}
