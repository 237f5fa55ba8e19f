"""A real local Redis Cluster for tests: three masters (and replicas, if asked) on free ports in a temporary directory.

Each node runs with ``--cluster-enabled yes`` and nothing on disk; ``redis-cli --cluster create`` splits the
16384 slots between the masters and gives each its replicas; the cluster is ready once every node reports
``cluster_state:ok``. The servers are stopped and their files removed at the end.
"""

from __future__ import annotations

import os
import random
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

MASTERS = 3
BUS_OFFSET = 10000  # a node's cluster bus listens on its port + 10000


def available() -> bool:
    """Whether the tests may start Redis servers of their own: this machine has the Debian packages ``redis-server``
    and ``redis-tools``, and ``TG_REDIS_SERVERS`` is not ``off`` (README, "Redis in the tests")."""
    if os.environ.get("TG_REDIS_SERVERS", "").strip().lower() == "off":
        return False
    return bool(shutil.which("redis-server") and shutil.which("redis-cli"))


def _bindable(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def free_node_port() -> int:
    """A free port whose cluster bus port is free too, both below the kernel's ephemeral range: a free port in that
    range may be given to some connection's local end (the tests open thousands) before the server binds it."""
    first_ephemeral = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    for _ in range(200):
        port = random.randint(10000, first_ephemeral - BUS_OFFSET - 1)
        if _bindable(port) and _bindable(port + BUS_OFFSET):
            return port
    raise RuntimeError("no free pair of ports for a Redis Cluster node")


def _cli(port: int, *command: str) -> str:
    done = subprocess.run(["redis-cli", "-p", str(port), *command], capture_output=True, text=True, timeout=10)
    return done.stdout


def _wait(port: int, ready: str, *command: str) -> None:
    for _ in range(200):
        if ready in _cli(port, *command):
            return
        time.sleep(0.05)
    raise RuntimeError(f"Redis on port {port} never answered {ready!r} to {command}")


@contextmanager
def redis_server(
    port: int, directory: Path, *options: str, config: Path | None = None
) -> Iterator[subprocess.Popen[bytes]]:
    """One ``redis-server`` on 127.0.0.1:``port``, stopped at the end: keeping nothing on disk, or as the file
    ``config`` says (``deploy/redis.conf``) in ``directory``."""
    command = ["redis-server", *([str(config)] if config else []), "--port", str(port), "--bind", "127.0.0.1"]
    command += ["--dir", str(directory), *([] if config else ["--save", "", "--appendonly", "no"]), *options]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait(port, "PONG", "ping")
        yield process
    finally:
        process.terminate()
        process.wait(timeout=10)


@dataclass(frozen=True)
class Cluster:
    """A running cluster: its URL and its servers by port."""

    url: str
    servers: dict[int, subprocess.Popen[bytes]]

    def masters(self) -> list[int]:
        """The ports of the nodes that are masters now."""
        return [port for port in self.servers if "role:master" in _cli(port, "info", "replication")]


@contextmanager
def cluster_nodes(replicas: int = 0, *options: str) -> Iterator[Cluster]:
    """Three masters and ``replicas`` replicas of each, with ``options`` (``--cluster-node-timeout``...)."""
    ports = [free_node_port() for _ in range(MASTERS * (1 + replicas))]
    with tempfile.TemporaryDirectory(prefix="tg-cluster-") as root, ExitStack() as servers:
        started = {}
        for port in ports:
            directory = Path(root, str(port))
            directory.mkdir()
            node = (
                "--cluster-enabled",
                "yes",
                "--cluster-config-file",
                "nodes.conf",
                "--repl-diskless-sync-delay",
                "0",
            )
            node += options
            started[port] = servers.enter_context(redis_server(port, directory, *node))
        nodes = [f"127.0.0.1:{port}" for port in ports]
        subprocess.run(
            ["redis-cli", "--cluster", "create", *nodes, "--cluster-replicas", str(replicas), "--cluster-yes"],
            check=True,
            capture_output=True,
            timeout=30,
        )
        for port in ports:
            _wait(port, "cluster_state:ok", "cluster", "info")
        for port in ports:  # a replica that has not synced yet could not take over
            if "role:slave" in _cli(port, "info", "replication"):
                _wait(port, "master_link_status:up", "info", "replication")
        yield Cluster(f"redis+cluster://{','.join(nodes)}/0", started)  # every node: any may be killed


@contextmanager
def redis_cluster() -> Iterator[str]:
    """Start the cluster of three masters; yield its ``redis+cluster://`` URL (every node a seed; clients discover
    the slots from the first that answers)."""
    with cluster_nodes() as cluster:
        yield cluster.url
