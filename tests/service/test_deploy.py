"""The production command (the Dockerfile's CMD) and ``python -m service`` really start and answer."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

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
