"""The first minutes of a newcomer, timed: a fresh clone, ``make run`` until the service answers, then every README
example as written (the Python session, the simulator commands, the curl session, the gunicorn command).

    REDIS_URL=redis://127.0.0.1:6379/6 .venv/bin/python bench/first_minutes.py [--repo .]

The clone is made from ``--repo`` (its committed HEAD) into a temporary folder; ``make run`` there creates its own
``.venv`` (pip's cache and index as this machine has them). The examples are read from the clone's README.md, so the
figure follows the README: ``python -m doctest`` on README.md, each line of the ``sh`` block of "Bots and the
simulator", the curl session against the ``make run`` server, and the gunicorn command against the Redis at
``REDIS_URL`` until its first health answer (the Docker line needs a Docker daemon: not timed). Prints one line per
step and the total seconds of waiting, ``make run`` included; the clone itself is timed apart.
"""

from __future__ import annotations

import argparse
import os
import shlex
import socket
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_healthy(port: int, process: subprocess.Popen[bytes], limit: float = 600) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"error: the server exited with {process.returncode}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/health", timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("error: no health answer")


@contextmanager
def serving(command: list[str], clone: Path, env: dict[str, str], port: int) -> Iterator[float]:
    """Start ``command`` in ``clone``; yield the seconds until its first health answer; stop it and its children."""
    started = time.monotonic()
    process = subprocess.Popen(
        command, cwd=clone, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    try:
        wait_healthy(port, process)
        yield time.monotonic() - started
    finally:
        os.killpg(process.pid, 15)
        process.wait(timeout=30)


def timed(command: str, clone: Path, env: dict[str, str]) -> float:
    started = time.monotonic()
    subprocess.run(["bash", "-euo", "pipefail", "-c", command], cwd=clone, env=env, check=True, capture_output=True)
    return time.monotonic() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repo", default=".", help="the repository to clone (default: this one)")
    args = parser.parse_args()
    redis_url = os.environ.get("REDIS_URL", "")
    if not redis_url or redis_url.rstrip("/").endswith(":6379") or redis_url.endswith("/0"):
        raise SystemExit("error: give REDIS_URL a database of its own (not 0), for the gunicorn example")
    steps: list[tuple[str, float]] = []
    with tempfile.TemporaryDirectory(prefix="first-minutes-") as folder:
        clone = Path(folder) / "repo"
        started = time.monotonic()
        subprocess.run(["git", "clone", "--quiet", str(Path(args.repo).resolve()), str(clone)], check=True)
        print(f"git clone: {time.monotonic() - started:.1f} s (not counted)", flush=True)
        readme = (clone / "README.md").read_text()
        port = free_port()
        env = {**os.environ, "PORT": str(port), "TG_LIMITS": "off"}
        env.pop("REDIS_URL", None)  # `make run` as the README shows it: the embedded store
        env.pop("VIRTUAL_ENV", None)
        with serving(["make", "run"], clone, env, port) as boot:
            steps.append(("make run, until /v1/health answers (creates .venv)", boot))
            doctest = ".venv/bin/python -m doctest -o ELLIPSIS README.md"
            steps.append(("README's Python session (python -m doctest README.md)", timed(doctest, clone, env)))
            block = readme.split("### Bots and the simulator")[1].split("```sh\n")[1].split("```")[0]
            for line in block.strip().splitlines():
                steps.append((" ".join(shlex.split(line)[3:]), timed(line, clone, env)))
            session = readme.split("A short session with")[1].split("```sh\n")[1].split("```")[0]
            session = session.replace("127.0.0.1:8000", f"127.0.0.1:{port}")
            steps.append(("the curl session of the README", timed(session, clone, env)))
        production = next(line for line in readme.splitlines() if "gunicorn --config" in line)
        command = shlex.split(production.split(" ", 1)[1])  # the command after its REDIS_URL=...
        gunicorn_port = free_port()
        gunicorn_env = {**env, "REDIS_URL": redis_url, "PORT": str(gunicorn_port)}
        with serving(command, clone, gunicorn_env, gunicorn_port) as boot:
            steps.append(("gunicorn, until /v1/health answers", boot))
    width = max(len(name) for name, _ in steps)
    for name, seconds in steps:
        print(f"{name:<{width}}  {seconds:6.1f} s")
    print(f"{'total waiting':<{width}}  {sum(seconds for _, seconds in steps):6.1f} s")


if __name__ == "__main__":
    main()
