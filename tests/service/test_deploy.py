"""The production command (the Dockerfile's CMD) and ``python -m service`` really start and answer; the worker count
follows the CPUs the process may use; without the ``service`` extra, ``python -m service`` says what to install."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import socket
import subprocess
import sys
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import pytest
from servers import ROOT, running

from service.gunicorn_conf import cgroup_cpu_quota, usable_cpus


def dockerfile_command() -> list[str]:
    lines = (ROOT / "Dockerfile").read_text().splitlines()
    command: list[str] = json.loads(next(line for line in lines if line.startswith("CMD "))[4:])
    return command


def test_the_dockerfile_command_serves_from_any_directory(tmp_path: Path) -> None:
    command = dockerfile_command()
    config = command[command.index("--config") + 1]
    assert command[0] == "gunicorn" and config.startswith("python:")  # found by module, not by a relative path
    assert importlib.util.find_spec(config.removeprefix("python:")) is not None
    with running([sys.executable, "-m", *command], cwd=tmp_path) as (_, health):
        assert health["status"] == "ok"


def test_the_image_health_check_passes_while_redis_is_away_so_an_outage_restarts_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The ``HEALTHCHECK`` asks liveness, which answers without the store; readiness says the store is away."""
    lines = (ROOT / "Dockerfile").read_text().split("HEALTHCHECK", 1)[1].splitlines()
    check: list[str] = json.loads(lines[1].strip().removeprefix("CMD "))
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1/0")  # nothing listens on port 1
    with running([sys.executable, "-m", *dockerfile_command()], route="/v1/health/live") as (port, _):
        done = subprocess.run([sys.executable, *check[1:]], env={**os.environ, "PORT": str(port)}, capture_output=True)
        assert done.returncode == 0, done.stderr
        with pytest.raises(urllib.error.HTTPError) as unready:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/health/ready", timeout=5)
        assert unready.value.code == 503 and json.loads(unready.value.read())["error"] == "store_unavailable"


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


def test_without_the_service_extra_python_dash_m_service_says_what_to_install(tmp_path: Path) -> None:
    """The core installed alone: a ``fakeredis`` that cannot be imported stands for the missing extra."""
    (tmp_path / "fakeredis").mkdir()
    (tmp_path / "fakeredis" / "__init__.py").write_text(
        "raise ModuleNotFoundError(\"No module named 'fakeredis'\", name='fakeredis')\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    run = [sys.executable, "-m", "service"]
    done = subprocess.run(run, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60, check=False)
    hint = "the service needs fakeredis, which is not installed: pip install 'thegame-core[service]'"
    assert (done.returncode, done.stdout, done.stderr) == (1, "", f"python -m service: {hint}\n")
    imported = subprocess.run(
        [sys.executable, "-c", "from service import create_app"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert imported.stderr.splitlines()[-1] == f"ModuleNotFoundError: {hint}"  # using the library still raises


def test_gunicorn_s_master_imports_none_of_what_gevent_patches_in_its_workers() -> None:
    """The master loads ``service.gunicorn_conf`` before it forks: a library it imported there (redis-py binds
    ``time.sleep`` at import) would keep blocking calls in every gevent worker."""
    libraries = "{'redis', 'fakeredis', 'flask', 'werkzeug', 'dramatiq', 'prometheus_client'}"
    code = f"import sys, service.gunicorn_conf; print(sorted({libraries} & set(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.strip() == "[]"


def cgroup(tmp_path: Path, member: str, limits: dict[str, str]) -> tuple[Path, Path]:
    """A cgroup v2 tree under ``tmp_path`` whose ``cpu.max`` files are ``limits`` (folder -> content), and a
    ``/proc/self/cgroup`` naming ``member``."""
    root = tmp_path / "cgroup"
    (root / member.lstrip("/")).mkdir(parents=True)
    for folder, content in limits.items():
        (root / folder / "cpu.max").write_text(content + "\n")
    membership = tmp_path / "self-cgroup"
    membership.write_text(f"0::{member}\n")
    return root, membership


@pytest.mark.parametrize(
    ("limits", "cpus"),
    [
        ({}, None),  # no cpu.max anywhere: the root cgroup
        ({"app": "max 100000"}, None),
        ({"app": "150000 100000"}, 2),  # 1.5 CPUs: two workers, each busy part of the time
        ({"app": "400000 100000", "app/web": "100000 100000"}, 1),  # the tightest quota on the way up counts
        ({"app": "50000 100000", "app/web": "max 100000"}, 1),  # a parent's quota binds its children
    ],
)
def test_the_cgroup_quota_is_read_up_the_tree(tmp_path: Path, limits: dict[str, str], cpus: int | None) -> None:
    root, membership = cgroup(tmp_path, "/app/web", limits)
    assert cgroup_cpu_quota(root, membership) == cpus


def test_a_container_s_own_cgroup_is_the_root_and_cgroup_v1_has_no_quota(tmp_path: Path) -> None:
    root, membership = cgroup(tmp_path, "/", {"": "200000 100000"})
    assert cgroup_cpu_quota(root, membership) == 2
    membership.write_text("4:memory:/x\n1:cpu:/\n")  # cgroup v1 only
    assert cgroup_cpu_quota(root, membership) is None
    assert cgroup_cpu_quota(root, tmp_path / "absent") is None


def test_workers_follow_the_cpus_the_process_may_use() -> None:
    assert 1 <= usable_cpus() <= len(os.sched_getaffinity(0))
    if shutil.which("taskset") is None:
        pytest.skip("taskset is not installed")
    env = {**os.environ, "REDIS_URL": "redis://127.0.0.1:6379/0"}
    env.pop("WEB_CONCURRENCY", None)
    code = "import service.gunicorn_conf as conf; print(conf.workers)"
    one_cpu = ["taskset", "--cpu-list", str(min(os.sched_getaffinity(0))), sys.executable, "-c", code]
    done = subprocess.run(one_cpu, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout == "1\n"
