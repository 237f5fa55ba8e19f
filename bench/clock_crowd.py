"""Spectators and bots against the clock: does watching a game make it worse for its players?

Starts two gunicorn processes (gevent, ``service/gunicorn_conf.py``, bound to 127.0.0.1) over the Redis at
``$REDIS_URL`` (a database other than 0), then, for each count of streams N (``--streams``): creates a Ninja game of
two bots paced at 300 ms, opens N anonymous event streams on it spread over both processes, and follows it for
``--seconds``. It prints, per N:

- **bot lateness** (p50 / p99 / max, ms): applied minus due, as each process's clock runner measured it, for the
  moves made once every stream was open and had its first view (opening N streams at once is a burst of its own);
- **change to event** (p50 / p99 ms): from the runner's write to each stream's receipt of that version;
- **rejected writes** (compare-and-set attempts refused because another writer came first) against applied ones;
- streams that ended before the game (closed while versions were still to come).

The processes report their own counts when they stop (``gunicorn_conf.worker_exit``: one ``tg-clock`` line each).

With ``--crowd G``: G games of 5 ``best`` bots at ``reaction_ms`` 0, each watched by one stream, while a reader GETs
another game as fast as it can for ``--seconds``; it prints that GET's p50 / p99, first with no crowd (the baseline,
the same run) and then with it.

    REDIS_URL=redis://127.0.0.1:6379/14 .venv/bin/python bench/clock_crowd.py --streams 1 30 100 300 --crowd 25
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from service_setup import call, store  # noqa: E402

PACE_MS = 300


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def servers(count: int) -> Any:
    """``count`` gunicorn processes of one worker each; yields their base URLs, then their ``tg-clock`` reports."""
    procs, bases, reports = [], [], []
    env = {**os.environ, "WEB_CONCURRENCY": "1", "TG_LIMITS": "off"}
    for _ in range(count):
        port = free_port()
        command = [sys.executable, "-m", "gunicorn", "--config", "service/gunicorn_conf.py"]
        command += ["--bind", f"127.0.0.1:{port}", "service:create_app()"]
        procs.append(subprocess.Popen(command, cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True))
        bases.append(f"http://127.0.0.1:{port}")
    for base in bases:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"{base}/v1/health", timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
    try:
        yield bases, reports
    finally:
        for proc in procs:
            proc.send_signal(signal.SIGTERM)
        for proc in procs:
            _, errors = proc.communicate(timeout=30)
            reports += [
                json.loads(line.split("tg-clock ", 1)[1]) for line in errors.splitlines() if "tg-clock " in line
            ]


def bot_game(base: str, game: str, players: int, bot: str, reaction_ms: int, seed: int) -> str:
    created = call(f"{base}/v1/games", "POST", {"game": game, "players": players, "seed": seed})
    url = f"{base}/v1/games/{created['game_id']}"
    for seat in range(players):
        body = {"name": f"b{seat}", "bot": bot, "reaction_ms": reaction_ms}
        call(f"{url}/seats", "POST", body, created["host_token"])
    call(f"{url}/start", "POST", {}, created["host_token"])
    return str(created["game_id"])


async def follow(base: str, game_id: str, until: float, arrivals: list[tuple[int, float]]) -> bool:
    """Read one anonymous stream until ``until`` (monotonic) or its end; note (version, epoch) per event, as soon
    as its ``id:`` line is in (the views themselves are not parsed: a reader that parsed 300 streams' views took as
    much CPU as the servers, on the same two cores). Answers whether the stream lasted until ``until``."""
    host, port = base.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(f"GET /v1/games/{game_id}/events HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
    await writer.drain()
    pending = b""
    try:
        while True:
            left = until - time.monotonic()
            if left <= 0:
                return True
            try:
                chunk = await asyncio.wait_for(reader.read(1 << 16), left)
            except TimeoutError:
                return True
            if not chunk:
                return False
            at = time.time()
            lines = (pending + chunk).split(b"\n")
            pending = lines.pop()
            arrivals.extend((int(line[4:]), at) for line in lines if line.startswith(b"id: "))
    finally:
        writer.close()


async def watch(bases: list[str], game_id: str, streams: int, seconds: float) -> tuple[list[list[Any]], list[bool]]:
    """Each stream's arrivals, and whether it lasted."""
    until = time.monotonic() + seconds
    arrivals: list[list[tuple[int, float]]] = [[] for _ in range(streams)]
    lasted = await asyncio.gather(*(follow(bases[n % len(bases)], game_id, until, arrivals[n]) for n in range(streams)))
    return arrivals, list(lasted)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def spectators(counts: list[int], seconds: float) -> None:
    heads = f"{'streams':>8} {'lateness p50/p99/max ms':>24} {'change->event p50/p99 ms':>25}"
    print(f"{heads} {'rejected/applied':>17} ended")
    for streams in counts:
        with servers(2) as (bases, reports):
            game_id = bot_game(bases[0], "ninja", 2, "best", PACE_MS, seed=streams)
            arrivals, lasted = asyncio.run(watch(bases, game_id, streams, seconds))
            final = call(f"{bases[0]}/v1/games/{game_id}")["version"]
        # a stream that closed with versions still to come ended before the game (one closing after the game
        # ended, its rematch wait over, did not)
        closed = [seen for ok, seen in zip(lasted, arrivals, strict=True) if not ok]
        ended = sum(1 for seen in closed if not seen or seen[-1][0] < final)
        ready = max((stream[0][1] for stream in arrivals if stream), default=0.0)  # every stream open and served
        runs = [run for report in reports for run in zip(report["lateness_ms"], report["applied"], strict=True)]
        lateness = [ms for ms, (_, _, at) in runs if at > ready]
        written = {(game, version): at for _, (game, version, at) in runs if at > ready}
        delays = [(at - written[(game_id, v)]) * 1000 for s in arrivals for v, at in s if (game_id, v) in written]
        rejected = sum(report["rejected"] for report in reports)
        applied = sum(report["writes"] for report in reports)
        print(
            f"{streams:>8} {percentile(lateness, 0.5):>8.1f} / {percentile(lateness, 0.99):>5.1f} / "
            f"{max(lateness, default=float('nan')):>5.1f} "
            f"{percentile(delays, 0.5):>15.1f} / {percentile(delays, 0.99):>6.1f} "
            f"{rejected:>8} / {applied:<7} {ended}"
        )


def reads(base: str, game_id: str, seconds: float) -> list[float]:
    """Milliseconds of each GET of one game, one after another, for ``seconds``."""
    took, ends = [], time.monotonic() + seconds
    while time.monotonic() < ends:
        started = time.perf_counter()
        urllib.request.urlopen(f"{base}/v1/games/{game_id}", timeout=30).read()
        took.append((time.perf_counter() - started) * 1000)
    return took


async def crowd_streams(bases: list[str], games: list[str], seconds: float) -> None:
    until = time.monotonic() + seconds
    await asyncio.gather(*(follow(bases[n % len(bases)], game, until, []) for n, game in enumerate(games)))


def crowd(games: int, seconds: float) -> None:
    with servers(2) as (bases, _):
        other = bot_game(bases[0], "the-game", 2, "greedy", 0, seed=1)
        alone = reads(bases[0], other, seconds)
        crowded = [bot_game(bases[n % 2], "the-game", 5, "best", 0, seed=100 + n) for n in range(games)]
        loop = asyncio.new_event_loop()
        task = loop.run_in_executor(None, reads, bases[0], other, seconds)
        loop.run_until_complete(crowd_streams(bases, crowded, seconds))
        watched = loop.run_until_complete(task)
        loop.close()
    for name, took in (("no crowd", alone), (f"{games} bot games watched", watched)):
        print(
            f"GET another game, {name:>22}: p50 {statistics.median(took):6.1f} ms, p99 {percentile(took, 0.99):7.1f} ms"
            f" ({len(took)} reads)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--streams", type=int, nargs="*", default=[1, 30, 100, 300])
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--crowd", type=int, default=0, help="bot games of the starvation run (0: none)")
    args = parser.parse_args()
    store().flushdb()
    if args.streams:
        spectators(args.streams, args.seconds)
    if args.crowd:
        crowd(args.crowd, args.seconds)


if __name__ == "__main__":
    main()
