"""Event streams under load: N open streams held by gunicorn, changes flowing, change-to-event latency.

    python bench/streams.py                                   # 3,000 streams on one server, then 1,000 on two
    python bench/streams.py --streams 1000 --servers 2 --workers gthread:2x600 gevent:2
    python bench/streams.py --quick                           # 300 streams, a few seconds: a smoke run

For each worker setting and case (``--streams`` on ``--servers`` gunicorn processes, each with
``service/gunicorn_conf.py``, bound to 127.0.0.1 and sharing the Redis at ``REDIS_URL``), it creates started
one-seat games of The Game (a third of the streams: each game is followed by its seat's stream and two public
streams, the streams spread over the servers), opens every stream and waits for its first event, then sends
``--changes`` changes (``POST /actions``, the first legal action of the game's seat) at ``--rate`` per second,
each to a random game through a random server, and meanwhile ``GET`` polls of random games at the same rate
(the baseline: what one request costs under the same load). The latency of a change is taken from its answer to
each stream's event of the version it answered (an event that came before the answer counts 0), and from its
request. Printed: p50/p99 of both, the GET baseline's p50/p99 and the ratio of the stream p99 to the GET p99,
events missing (an event of a version a stream that had opened never received), the servers' CPU seconds during
the changes and their memory (RSS, master and workers).

Bounded: at most ``--changes`` changes, every wait has a timeout, everything started is stopped. Nothing is
flushed: the games expire after ten minutes (``TG_*_TTL``). Client and servers share the machine's cores.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import socket
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clock_crowd import children, cpu_seconds

ROOT = Path(__file__).resolve().parents[1]
STREAMS_PER_GAME = 3  # the seat's own stream and two spectators'
TTL = "600"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def worker_args(setting: str) -> list[str]:
    """gunicorn options for ``default``, ``gevent:W`` or ``gthread:WxT``."""
    if setting == "default":
        return []
    kind, _, spec = setting.partition(":")
    if kind == "gevent":
        return ["--worker-class", "gevent", "--workers", spec, "--worker-connections", "10000"]
    if kind == "gthread":
        workers, threads = spec.split("x")
        return ["--worker-class", "gthread", "--workers", workers, "--threads", threads]
    raise SystemExit(f"unknown worker setting {setting!r}: default, gevent:W or gthread:WxT")


@dataclass
class Server:
    port: int
    process: subprocess.Popen[bytes]

    @classmethod
    def start(cls, setting: str) -> Server:
        port = free_port()
        env = {**os.environ, "TG_LOBBY_TTL": TTL, "TG_GAME_TTL": TTL, "TG_FINISHED_TTL": TTL, "TG_LIMITS": "off"}
        command = [sys.executable, "-m", "gunicorn", "--config", "service/gunicorn_conf.py"]
        command += ["--bind", f"127.0.0.1:{port}", *worker_args(setting), "service:create_app()"]
        process = subprocess.Popen(command, cwd=ROOT, env=env, stderr=subprocess.DEVNULL)
        server = cls(port, process)
        for _ in range(150):
            try:
                urllib.request.urlopen(f"{server.base}/v1/health", timeout=1).read()
                return server
            except OSError:
                time.sleep(0.1)
        server.stop()
        raise SystemExit("gunicorn did not answer /v1/health")

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def pids(self) -> list[int]:
        return [self.process.pid, *children(self.process.pid)]

    def rss_mb(self) -> float:
        pages = sum(int(Path(f"/proc/{pid}/statm").read_text().split()[1]) for pid in self.pids())
        return pages * os.sysconf("SC_PAGE_SIZE") / 2**20

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


# HTTP/1.1 over asyncio streams ---------------------------------------------------------------------------------
async def request(port: int, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
    """One request on a new connection: its status and JSON answer."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        data = b"" if body is None else json.dumps(body).encode()
        head = f"{method} /v1{path} HTTP/1.1\r\nHost: bench\r\nConnection: close\r\nContent-Length: {len(data)}\r\n"
        head += "Content-Type: application/json\r\n" if data else ""
        head += f"Authorization: Bearer {token}\r\n" if token else ""
        writer.write(head.encode() + b"\r\n" + data)
        answer = await reader.read()
    finally:
        writer.close()
    status = int(answer.split(b" ", 2)[1])
    payload = answer.split(b"\r\n\r\n", 1)[1]
    return status, json.loads(payload) if payload.strip() else None


@dataclass
class Game:
    game_id: str
    token: str
    view: dict[str, Any]


@dataclass
class Received:
    """When each stream received each version: ``at[(game_id, version)]`` lists the arrival times."""

    at: dict[tuple[str, int], list[float]] = field(default_factory=dict)
    first: int = 0
    opened: Counter[str] = field(default_factory=Counter)  # streams past their first event, by game
    closed: int = 0
    repeated: int = 0  # events of a version the stream had already received


async def follow(port: int, game: Game, seat: bool, received: Received, opened: asyncio.Event) -> None:
    """Hold one stream: note the arrival time of every event, until cancelled or the server closes it."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=2**20)
    token = f"?token={game.token}" if seat else ""
    writer.write(f"GET /v1/games/{game.game_id}/events{token} HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
    versions: set[int] = set()
    try:
        while line := await reader.readline():
            if line.startswith(b"id: "):
                version = int(line[4:])
                if version in versions:
                    received.repeated += 1
                    continue
                received.at.setdefault((game.game_id, version), []).append(time.monotonic())
                versions.add(version)
                if len(versions) == 1:
                    received.first += 1
                    received.opened[game.game_id] += 1
                    opened.set()
    finally:
        received.closed += 1
        writer.close()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


async def new_game(port: int) -> Game:
    _, created = await request(port, "POST", "/games", {"players": 1})
    game_id = created["game_id"]
    _, seat = await request(port, "POST", f"/games/{game_id}/seats", {"name": "p"})
    await request(port, "POST", f"/games/{game_id}/start", {}, created["host_token"])
    _, view = await request(port, "GET", f"/games/{game_id}", token=seat["token"])
    return Game(game_id, seat["token"], view)


async def bounded(tasks: list[Any], limit: int) -> list[Any]:
    """Run coroutines with at most ``limit`` at once."""
    gate = asyncio.Semaphore(limit)

    async def one(task: Any) -> Any:
        async with gate:
            return await task

    return await asyncio.gather(*(one(task) for task in tasks))


async def run_case(servers: list[Server], streams: int, changes: int, rate: float) -> dict[str, Any]:
    ports = [server.port for server in servers]
    games = await bounded([new_game(ports[n % len(ports)]) for n in range(streams // STREAMS_PER_GAME)], 16)
    received = Received()
    followers = []
    for n in range(streams):
        game = games[n % len(games)]
        opened = asyncio.Event()
        port = ports[n % len(ports)]
        followers.append(asyncio.create_task(follow(port, game, n < len(games), received, opened)))
        if n % 100 == 99:
            await asyncio.sleep(0.05)  # open in waves, as players arrive
    deadline = time.monotonic() + 120
    while received.first < streams and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    opened_streams = received.first
    cpu_before = [cpu_seconds(server.pids()) for server in servers]
    sent: dict[tuple[str, int], tuple[float, float]] = {}
    polls: list[float] = []
    live = [game for game in games if game.view["legal_actions"]]

    async def change() -> None:
        game = random.choice(live)
        port = random.choice(ports)
        start = time.monotonic()
        status, view = await request(
            port, "POST", f"/games/{game.game_id}/actions", game.view["legal_actions"][0], game.token
        )
        if status == 200:
            sent[(game.game_id, view["version"])] = (start, time.monotonic())
            game.view = view
            if not view["legal_actions"] and game in live:
                live.remove(game)

    async def poll() -> None:
        game = random.choice(games)
        start = time.monotonic()
        await request(random.choice(ports), "GET", f"/games/{game.game_id}")
        polls.append(time.monotonic() - start)

    pending = []
    started = time.monotonic()
    for n in range(changes):
        await asyncio.sleep(max(0.0, started + n / rate - time.monotonic()))
        if live:
            pending += [asyncio.create_task(change()), asyncio.create_task(poll())]
    await asyncio.wait(pending, timeout=30)
    await asyncio.sleep(2)  # the last events
    cpu = sum(cpu_seconds(server.pids()) for server in servers) - sum(cpu_before)
    seconds = time.monotonic() - started
    rss = sum(server.rss_mb() for server in servers)
    from_answer, from_request, missing = [], [], 0
    for key, (start, answered) in sent.items():  # missing: events not received by a stream that was open
        arrivals = received.at.get(key, [])
        missing += received.opened[key[0]] - len(arrivals)
        from_answer += [max(0.0, at - answered) for at in arrivals]
        from_request += [at - start for at in arrivals]
    for task in followers:
        task.cancel()
    await asyncio.gather(*followers, return_exceptions=True)
    return {
        "streams": streams,
        "opened": opened_streams,
        "changes": len(sent),
        "seconds": seconds,
        "events": len(from_answer),
        "missing": missing,
        "repeated": received.repeated,
        "answer_p50": 1000 * percentile(from_answer, 0.5),
        "answer_p99": 1000 * percentile(from_answer, 0.99),
        "request_p50": 1000 * percentile(from_request, 0.5),
        "request_p99": 1000 * percentile(from_request, 0.99),
        "get_p50": 1000 * percentile(polls, 0.5),
        "get_p99": 1000 * percentile(polls, 0.99),
        "cpu_s": cpu,
        "rss_mb": rss,
    }


def report(setting: str, servers: int, result: dict[str, Any]) -> str:
    ratio = result["answer_p99"] / result["get_p99"]
    return (
        f"{setting:14} {servers} server(s) {result['streams']:5} streams ({result['opened']} opened)  "
        f"{result['changes']} changes in {result['seconds']:.0f} s, {result['events']} events, "
        f"{result['missing']} missing, {result['repeated']} repeated | "
        f"change->event p50 {result['answer_p50']:.0f} p99 {result['answer_p99']:.0f} ms "
        f"(from the request: p50 {result['request_p50']:.0f} p99 {result['request_p99']:.0f}) | GET baseline "
        f"p50 {result['get_p50']:.0f} p99 {result['get_p99']:.0f} ms | stream p99 / GET p99 {ratio:.2f} | "
        f"server CPU {result['cpu_s']:.1f} s ({1000 * result['cpu_s'] / max(1, result['changes']):.1f} ms per "
        f"change), RSS {result['rss_mb']:.0f} MB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", nargs="+", default=["default"], help="default, gevent:W, gthread:WxT")
    parser.add_argument("--cases", nargs="+", default=["3000x1", "1000x2"], help="STREAMSxSERVERS")
    parser.add_argument("--changes", type=int, default=600)
    parser.add_argument("--rate", type=float, default=30.0, help="changes per second")
    parser.add_argument("--quick", action="store_true", help="300 streams on one server, 60 changes")
    args = parser.parse_args()
    if not os.environ.get("REDIS_URL"):
        raise SystemExit("set REDIS_URL (streams across processes need Redis), e.g. redis://127.0.0.1:6379/0")
    if args.quick:
        args.cases, args.changes = ["300x1"], 60
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # thousands of sockets, here and in gunicorn
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()}; {args.changes} changes at {args.rate}/s")
    for setting in args.workers:
        for case in args.cases:
            streams, count = map(int, case.split("x"))
            servers = [Server.start(setting) for _ in range(count)]
            try:
                result = asyncio.run(run_case(servers, streams, args.changes, args.rate))
            finally:
                for server in servers:
                    server.stop()
            print(report(setting, count, result), f"| load {os.getloadavg()[0]:.1f}", flush=True)


if __name__ == "__main__":
    main()
