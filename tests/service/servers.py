"""Run the real server in a subprocess on a free port, for tests of the commands users type."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[2]


def code_block(document: str, heading: str, language: str) -> str:
    """The first ``language`` code block after ``heading`` in ``document`` (a path from the repository's root)."""
    text = (ROOT / document).read_text()
    return text.split(heading)[1].split(f"```{language}\n")[1].split("```")[0]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def health(
    port: int, process: subprocess.Popen[bytes], errors: IO[bytes] | None = None, route: str = "/v1/health"
) -> dict[str, str]:
    """The first answer of ``route`` (readiness by default), waiting while the server boots (its standard error: a
    pipe, or the file ``errors``)."""
    for _ in range(100):
        assert process.poll() is None, _error_output(process, errors)
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{route}", timeout=1) as response:
                return json.loads(response.read())  # type: ignore[no-any-return]
        except OSError:  # not listening yet, or still booting its workers
            time.sleep(0.1)
    raise AssertionError(f"the server did not answer {route}")


def _error_output(process: subprocess.Popen[bytes], errors: IO[bytes] | None) -> str:
    if errors is not None:
        errors.seek(0)
        return errors.read().decode()
    return process.stderr.read().decode() if process.stderr else "exited"


@contextmanager
def running(
    command: list[str], cwd: Path = ROOT, route: str = "/v1/health", port: int | None = None
) -> Iterator[tuple[int, dict[str, str]]]:
    """Start ``command`` in ``cwd`` with ``PORT`` set (``port``, else a free one); yield the port and its first answer
    of ``route``; stop it. Limits are off, as in the rest of the test suite, unless the test's environment sets
    ``TG_LIMITS``. Its standard error goes to a temporary file: a pipe that nobody reads fills up with the access log
    (64 KB, some 600 requests) and then blocks the server."""
    port = port or free_port()
    env = {"TG_LIMITS": "off", **os.environ, "PORT": str(port)}
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=errors)
        try:
            yield port, health(port, process, errors, route)
        finally:
            process.terminate()
            try:  # gunicorn lets its workers finish for up to its graceful_timeout (10 s) on a busy machine
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
                raise


@contextmanager
def queue_worker() -> Iterator[None]:
    """``python -m service worker`` beside a server on the Redis at $REDIS_URL, as production runs one (analyses and
    daily yardsticks wait for it), once it says it has started; none on the embedded store, whose server runs its
    jobs itself."""
    if not os.environ.get("REDIS_URL"):
        yield
        return
    env = {"TG_LIMITS": "off", **os.environ}
    with tempfile.TemporaryFile() as errors:
        command = [sys.executable, "-m", "service", "worker"]
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=errors)
        try:
            for _ in range(600):
                assert process.poll() is None, _error_output(process, errors)
                errors.seek(0)
                if b"worker of the job queue" in errors.read():
                    break
                time.sleep(0.1)
            yield
        finally:
            process.terminate()
            process.wait(timeout=60)


def processes_marked(mark: str) -> dict[int, int]:
    """The processes whose environment holds ``TG_TEST_MARK=<mark>``: pid -> parent pid."""
    found = {}
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and f"TG_TEST_MARK={mark}".encode() in (entry / "environ").read_bytes().split(
                b"\0"
            ):
                found[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except OSError:  # gone meanwhile, or not ours to read
            continue
    return found


def call(
    port: int,
    method: str,
    path: str,
    body: object = None,
    key: str | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, Any]:
    """One JSON request to a server on this machine (``key``: a bearer token; ``headers``: more): its status and
    decoded body."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        sent = {
            "Content-Type": "application/json",
            **({"Authorization": f"Bearer {key}"} if key else {}),
            **(headers or {}),
        }
        connection.request(method, path, None if body is None else json.dumps(body), sent)
        answer = connection.getresponse()
        data = answer.read()
        return answer.status, json.loads(data) if data else None
    finally:
        connection.close()


def under_gevent(case: str, argument: int) -> Any:
    """The result of one case of ``under_gevent.py``, run in a process of its own under gevent (as in a gunicorn
    worker: greenlets run until they wait)."""
    script = Path(__file__).with_name("under_gevent.py")
    ran = subprocess.run(
        [sys.executable, str(script), case, str(argument)], capture_output=True, text=True, timeout=60, cwd=ROOT
    )
    assert ran.returncode == 0, ran.stderr
    return json.loads(ran.stdout)
