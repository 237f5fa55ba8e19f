"""Soak: many games of The Game and Ninja played over HTTP for a bounded time, against the production server.

    .venv/bin/python bench/soak.py [--minutes 10] [--clients 16] [--games-per-client 8] [--streams 200]

Starts its own ``redis-server`` on a free local port (nothing on disk, so its memory figures are the soak's alone)
and gunicorn with ``service/gunicorn_conf.py`` against it (limits on, with budgets that this load from one address
never spends unless ``TG_CREATE_RATE`` / ``TG_CHANGE_RATE`` say otherwise), then runs ``--clients`` threads. Each
keeps ``--games-per-client`` 2-player games in flight (alternately The Game and Ninja, with an Idempotency-Key on
every change), sending one action per game in turn, each after reading the seat's view, and replaces a finished
game by a new one: lobby, seats, start, play, log. Meanwhile ``--streams`` event streams watch games in play as
spectators, read by one thread (a stream that ends is opened again on a game in play; the cap on streams per client
is set above them, as the budgets). Once a minute it prints a Markdown row: requests and their p50/p99 latency in
that minute, answers other than 2xx, the streams open and the view events they received, the server's RSS
(gunicorn and its workers), Redis ``used_memory``, the games stored and their mean ``MEMORY USAGE`` (a sample of
50), and the machine's load.
Everything it started is stopped at the end. It talks only to 127.0.0.1.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import selectors
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis
from clock_crowd import children
from game_memory import choose

from service.storage.store import game_key

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("the-game", "ninja")
TTL = "900"  # seconds: games outlive a minute's sample, and the soak's store does not grow for ever


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def process(command: list[str], env: dict[str, str] | None = None) -> Iterator[subprocess.Popen[bytes]]:
    started = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        yield started
    finally:
        started.terminate()
        started.wait(timeout=20)


def wait_until(ready: Any, what: str) -> None:
    for _ in range(300):
        try:
            if ready():
                return
        except (OSError, redis.RedisError):
            pass
        time.sleep(0.1)
    raise SystemExit(f"soak: {what} did not start")


def rss_bytes(pid: int) -> int:
    """Resident memory of ``pid`` and its children (gunicorn's master and workers)."""
    total = 0
    for each in [pid, *children(pid)]:
        status = Path(f"/proc/{each}/status").read_text()
        total += int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS:"))) * 1024
    return total


@dataclass
class Minute:
    latencies: list[float] = field(default_factory=list)
    errors: int = 0


class Player:
    """One client thread's games over one kept-alive connection."""

    def __init__(self, port: int, games: int, record: Any) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.record = record
        self.games: list[dict[str, Any]] = [self.new_game(index) for index in range(games)]

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if method == "POST":
            headers["Idempotency-Key"] = uuid.uuid4().hex  # so a request resent on a new connection applies once
        start = time.perf_counter()
        try:
            status, data = self.send(method, path, None if body is None else json.dumps(body), headers)
        except (http.client.RemoteDisconnected, ConnectionError):  # the server closed an idle kept-alive connection
            self.connection.close()
            status, data = self.send(method, path, None if body is None else json.dumps(body), headers)
        self.record(time.perf_counter() - start, status)
        return status, json.loads(data) if data else None

    def send(self, method: str, path: str, body: str | None, headers: dict[str, str]) -> tuple[int, bytes]:
        self.connection.request(method, path, body, headers)
        response = self.connection.getresponse()
        return response.status, response.read()

    def new_game(self, index: int) -> dict[str, Any]:
        name = GAMES[index % 2]
        _, created = self.call("POST", "/v1/games", {"game": name, "players": 2, "seed": random.randrange(2**31)})
        url = f"/v1/games/{created['game_id']}"
        tokens = [self.call("POST", f"{url}/seats", {"name": f"p{seat}"})[1]["token"] for seat in (0, 1)]
        self.call("POST", f"{url}/start", {}, created["host_token"])
        return {"url": url, "tokens": tokens, "index": index}

    def step(self, game: dict[str, Any]) -> dict[str, Any]:
        """One action in ``game`` by the seat it waits for; a new game once it is over."""
        status, public = self.call("GET", game["url"])
        if status != 200 or public["status"] != "playing":
            self.call("GET", f"{game['url']}/log")
            return self.new_game(game["index"] + 1)
        token = game["tokens"][public["waiting_for"][0]]
        _, view = self.call("GET", game["url"], token=token)
        self.call("POST", f"{game['url']}/actions", choose(view), token)
        return game

    def run(self, until: float) -> None:
        while time.monotonic() < until:
            self.games = [self.step(game) for game in self.games]


#: In a view event of a game that is over: its spectators move on to a game in play (a finished game's stream would
#: stay open, idle, for its rematch).
OVER = (b'"status":"won"', b'"status":"lost"', b'"status":"finished"')


class Watchers:
    """``count`` event streams of games the players play, read and counted by one thread; one whose game is over is
    closed and opened again on a game in play."""

    def __init__(self, port: int, players: list[Player], count: int) -> None:
        self.port, self.players, self.count = port, players, count
        self.selector = selectors.DefaultSelector()
        self.events = self.refused = 0
        self.over: set[str] = set()  # games seen over: not watched again
        self.lock = threading.Lock()

    def open_streams(self) -> int:
        return len(self.selector.get_map())

    def open_one(self) -> None:
        playing = [game["url"] for player in self.players for game in player.games if game["url"] not in self.over]
        if not playing:
            return
        url = random.choice(playing)
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=30)
        sock.sendall(f"GET {url}/events HTTP/1.1\r\nHost: soak\r\n\r\n".encode())
        head = sock.recv(4096)
        if not head.startswith(b"HTTP/1.1 200"):
            self.refused += 1
            sock.close()
            return
        sock.setblocking(False)
        self.selector.register(sock, selectors.EVENT_READ, url)

    def run(self, until: float) -> None:
        while time.monotonic() < until:
            for _ in range(self.count - self.open_streams()):  # no spin when none opens (refused, no game)
                self.open_one()
            for key, _ in self.selector.select(timeout=1):
                sock = key.fileobj
                assert isinstance(sock, socket.socket)
                data = sock.recv(1 << 16)
                if not data or any(over in data for over in OVER):
                    self.over.add(key.data)
                    self.selector.unregister(sock)
                    sock.close()
                with self.lock:
                    self.events += data.count(b"event: view")
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()  # type: ignore[union-attr]

    def taken(self) -> int:
        """The view events received since the last call."""
        with self.lock:
            events, self.events = self.events, 0
        return events


class Soak:
    """Latencies and non-2xx answers by minute since the start, and the minute's row."""

    def __init__(self, server_pid: int, store: redis.Redis) -> None:
        self.server_pid = server_pid
        self.store = store
        self.began = time.monotonic()
        self.minutes: dict[int, Minute] = {}
        self.lock = threading.Lock()

    def record(self, seconds: float, status: int) -> None:
        with self.lock:
            minute = self.minutes.setdefault(int((time.monotonic() - self.began) // 60), Minute())
            minute.latencies.append(seconds)
            minute.errors += not 200 <= status < 300

    def row(self, index: int, seconds: float, watchers: Watchers) -> str:
        with self.lock:
            minute = self.minutes.get(index, Minute())
            latencies = sorted(minute.latencies)
        centiles = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else [0.0] * 99
        keys = list(self.store.scan_iter(game_key("*"), count=1000))
        sample = random.sample(keys, min(50, len(keys)))
        per_game = statistics.mean(self.store.memory_usage(key, samples=0) or 0 for key in sample) if sample else 0
        return (
            f"| {index + 1} | {len(latencies)} | {len(latencies) / seconds:.0f} | {centiles[49] * 1000:.1f} "
            f"| {centiles[98] * 1000:.1f} | {minute.errors} | {watchers.open_streams()} | {watchers.taken()} "
            f"| {rss_bytes(self.server_pid) / 2**20:.0f} "
            f"| {self.store.info('memory')['used_memory'] / 2**20:.1f} | {len(keys)} | {per_game:.0f} "
            f"| {os.getloadavg()[0]:.1f} |"
        )

    def run(self, port: int, options: argparse.Namespace) -> None:
        until = self.began + options.minutes * 60
        players = [Player(port, options.games_per_client, self.record) for _ in range(options.clients)]
        watchers = Watchers(port, players, options.streams)
        threads = [threading.Thread(target=player.run, args=(until,)) for player in players]
        threads.append(threading.Thread(target=watchers.run, args=(until,)))
        for thread in threads:
            thread.start()
        print(
            "| minute | requests | req/s | p50 ms | p99 ms | non-2xx | streams | stream events | server RSS MB "
            "| Redis used MB | games | bytes/game | load (1 min) |"
        )
        print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for index in range(int(options.minutes + 0.999)):
            time.sleep(max(0.0, min(until, self.began + 60 * (index + 1)) - time.monotonic()))
            print(self.row(index, min(60.0, options.minutes * 60 - 60 * index), watchers), flush=True)
        for thread in threads:
            thread.join()
        print(f"streams refused: {watchers.refused}")


def answers(port: int) -> bool:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
    connection.request("GET", "/v1/health")
    return connection.getresponse().status == 200


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--games-per-client", type=int, default=8)
    parser.add_argument("--streams", type=int, default=200)
    options = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("soak: stopped"))  # stop the servers on the way out
    gunicorn = shutil.which("gunicorn", path=str(Path(sys.executable).parent)) or "gunicorn"
    redis_port, port = free_port(), free_port()
    with tempfile.TemporaryDirectory(prefix="tg-soak-") as directory:
        redis_command = ["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--dir", directory]
        with process([*redis_command, "--save", "", "--appendonly", "no"]):
            store = redis.Redis(port=redis_port)
            wait_until(store.ping, "redis-server")
            env = {**os.environ, "PORT": str(port), "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0"}
            env.update({"TG_LOBBY_TTL": TTL, "TG_GAME_TTL": TTL, "TG_FINISHED_TTL": TTL})
            for budget in ("TG_CREATE_RATE", "TG_CHANGE_RATE"):  # limits on, with budgets one address never spends
                env.setdefault(budget, "1000000/1")
            env.setdefault("TG_STREAMS_PER_CLIENT", str(2 * options.streams + 1))  # nor its streams
            command = [gunicorn, "--config", "service/gunicorn_conf.py", "--bind", f"127.0.0.1:{port}"]
            with process([*command, "service:create_app()"], env) as server:
                wait_until(lambda: answers(port), "gunicorn")
                Soak(server.pid, store).run(port, options)


if __name__ == "__main__":
    main()
