"""Spectators and bots against the clock: does watching a game make it worse for its players?

Starts two gunicorn processes (gevent, ``service/gunicorn_conf.py``, bound to 127.0.0.1) over the Redis at
``$REDIS_URL`` (a database other than 0), then, for each count of streams N (``--streams``): creates a Ninja game of
two bots paced at 300 ms, opens N anonymous event streams on it spread over both processes, and follows it for
``--seconds``. It prints, per N:

- **bot lateness** (p50 / p99 / max, ms): applied minus due, as each process's clock runner measured it, for the
  moves due once every stream was open and had its first view (opening N streams at once is a burst of its own);
- **change to event** (p50 / p99 ms): from the runner's write to each stream's receipt of that version, over the
  same moves;
- **spread** (p50 / p99 ms): one version's arrival across the streams, the latest receipt minus the earliest, over
  the versions every stream received once all were open;
- **the floor** (p50 / p99 ms): change to event through a bare loop, two processes that write each of their streams
  an event of the same size at the same pace with blocking ``sendall`` calls, read by the same reader: what this
  machine's loopback, its load and this reader cost before any of the service's code runs;
- **CPU per event** (us): the two workers' CPU time over those moves, per event their streams received;
- **rejected writes** (compare-and-set attempts refused because another writer came first) against applied ones;
- streams that ended before the game (closed while versions were still to come).

With ``--beside G``, G games of The Game between two ``greedy`` bots at the same pace, each watched by one
stream, are played meanwhile on both processes (a server's other games, while one of its games has a crowd), and
their bots' lateness is printed on a line of its own (the row's lateness is the watched game's; its CPU per event
counts their work too).

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
import struct
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from service_setup import call, store  # noqa: E402

PACE_MS = 300
#: A ``ready`` time no move comes after: the moves of that game are left out.
NEVER = float("inf")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def servers(count: int) -> Any:
    """``count`` gunicorn processes of one worker each; yields their base URLs, then their ``tg-clock`` reports."""
    procs: list[subprocess.Popen[str]] = []
    bases: list[str] = []
    reports: list[dict[str, Any]] = []
    # a finished game's streams end 1 s after its end, not 10 minutes: the servers stop at once and log their counts
    env = {**os.environ, "WEB_CONCURRENCY": "1", "TG_LIMITS": "off", "TG_REMATCH_WAIT": "1"}
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
        yield bases, reports, [child for proc in procs for child in children(proc.pid)]
    finally:
        for proc in procs:
            proc.send_signal(signal.SIGTERM)
        for proc in procs:
            _, errors = proc.communicate(timeout=30)
            reports += [
                json.loads(line.split("tg-clock ", 1)[1]) for line in errors.splitlines() if "tg-clock " in line
            ]


def children(pid: int) -> list[int]:
    """The processes ``pid`` started (gunicorn's workers)."""
    return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU time the processes used so far."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


def bot_game(base: str, game: str, players: int, bot: str, reaction_ms: int, seed: int) -> str:
    created = call(f"{base}/v1/games", "POST", {"game": game, "players": players, "seed": seed})
    url = f"{base}/v1/games/{created['game_id']}"
    for seat in range(players):
        body = {"name": f"b{seat}", "bot": bot, "reaction_ms": reaction_ms}
        call(f"{url}/seats", "POST", body, created["host_token"])
    call(f"{url}/start", "POST", {}, created["host_token"])
    return str(created["game_id"])


#: Linux's socket option (and control message) for the kernel's receive time of a socket's data (``socket(7)``),
#: which Python's ``socket`` module does not name.
SO_TIMESTAMPNS = 35
#: Per event of a stream, its version and a time (epoch).
Arrivals = list[tuple[int, float]]


class Follower:
    """One stream, read as its bytes come: notes (version, epoch) per event as soon as its ``id:`` line (the
    version, then a dot and the write's nonce) is in; with ``stamps``, also (version, epoch) of when the kernel
    received the bytes that completed the line: on loopback, when the server wrote them, however late this reader,
    busy with other sockets, got round to reading them. A callback on the socket, not a reader task: a read in a
    task with a timeout costs a task and a timer per event, and 300 of them made this reader, on the same two cores
    as the servers, part of what it measured. The views themselves are not parsed for the same reason."""

    def __init__(self, sock: socket.socket, arrivals: Arrivals, stamps: Arrivals | None) -> None:
        self.sock = sock
        self.arrivals = arrivals
        self.stamps = stamps
        self.closed = asyncio.get_running_loop().create_future()
        self._pending = b""

    def readable(self) -> None:
        try:
            data, ancillary, _, _ = self.sock.recvmsg(65536, socket.CMSG_SPACE(16))
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            if not self.closed.done():
                self.closed.set_result(None)
            return
        at = time.time()
        lines = (self._pending + data).split(b"\n")
        self._pending = lines.pop()
        versions = [int(line[4:].split(b".")[0]) for line in lines if line.startswith(b"id: ")]
        self.arrivals.extend((version, at) for version in versions)
        if self.stamps is None or not versions:
            return
        stamp = next((struct.unpack("qq", raw[:16]) for *_, raw in ancillary), None)
        if stamp is not None:  # none: those versions count in no figure "as written"
            self.stamps.extend((version, stamp[0] + stamp[1] / 1e9) for version in versions)


async def follow(
    base: str,
    game_id: str,
    until: float,
    arrivals: Arrivals,
    token: str | None = None,
    stamps: Arrivals | None = None,
) -> bool:
    """Read one stream (anonymous, or a seat's with its ``token``) until ``until`` (monotonic) or its end, noting
    its events' arrivals (and the kernel's ``stamps`` of them, if given). Answers whether it lasted until
    ``until``."""
    host, port = base.removeprefix("http://").split(":")
    loop = asyncio.get_running_loop()
    path = f"/v1/games/{game_id}/events" + ("" if token is None else f"?token={token}")
    with socket.socket() as sock:
        sock.setblocking(False)
        if stamps is not None:
            sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        await loop.sock_connect(sock, (host, int(port)))
        await loop.sock_sendall(sock, f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        follower = Follower(sock, arrivals, stamps)
        loop.add_reader(sock.fileno(), follower.readable)
        try:
            await asyncio.wait_for(asyncio.shield(follower.closed), max(0.0, until - time.monotonic()))
            return False
        except (TimeoutError, asyncio.CancelledError):
            return True
        finally:
            loop.remove_reader(sock.fileno())


@dataclass
class Watched:
    """What N streams saw: each stream's arrivals, whether each lasted, when every stream had its first view
    (epoch), and the servers' CPU seconds from then to the end."""

    arrivals: list[list[tuple[int, float]]]
    lasted: list[bool]
    ready: float
    cpu: float


async def watch(bases: list[str], workers: list[int], game_id: str, streams: int, seconds: float) -> Watched:
    """N streams, open until ``seconds`` after every one of them had its first view (at most 30 s to get there:
    opening N streams at once is a burst of its own, kept out of the figures)."""
    arrivals: list[list[tuple[int, float]]] = [[] for _ in range(streams)]
    far = time.monotonic() + 30 + seconds
    followers = [follow(bases[n % len(bases)], game_id, far, arrivals[n]) for n in range(streams)]
    tasks = [asyncio.ensure_future(follower) for follower in followers]
    while not all(arrivals) and time.monotonic() < far - seconds:
        await asyncio.sleep(0.01)
    ready, cpu = time.time(), cpu_seconds(workers)
    await asyncio.sleep(seconds)
    cpu = cpu_seconds(workers) - cpu
    for task in tasks:
        task.cancel()
    results = await asyncio.gather(*tasks, return_exceptions=True)  # follow's answers, or what they raised
    return Watched(arrivals, [result is True for result in results], ready, cpu)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def received(streams: list[list[tuple[int, float]]]) -> dict[int, list[float]]:
    """Each version every one of ``streams`` (their (version, epoch) arrivals) received, and when each did."""
    times: dict[int, list[float]] = {}
    for got in streams:
        for version, at in got:
            times.setdefault(version, []).append(at)
    return {version: at for version, at in times.items() if len(at) == len(streams)}


def spreads(streams: list[list[tuple[int, float]]], after: float) -> list[float]:
    """One version's arrival across ``streams`` (those of one game): for each version every one received, first
    after ``after`` (epoch), the latest receipt minus the earliest (ms)."""
    return [(max(at) - min(at)) * 1000 for at in received(streams).values() if min(at) > after]


def steady_moves(
    reports: list[dict[str, Any]], ready: Callable[[str], float], arrivals: list[tuple[str, list[tuple[int, float]]]]
) -> tuple[list[float], list[float]]:
    """The bot moves the clock runners reported (``tg-clock``) that were due after ``ready(game)`` (epoch; those
    due before every stream was served are the burst of opening them, not steady state): their lateness (ms,
    applied minus due), and the delays (ms) from the write of each to its receipt in ``arrivals`` ((game, the
    (version, epoch) a reader received))."""
    runs = [run for report in reports for run in zip(report["lateness_ms"], report["applied"], strict=True)]
    steady = [(ms, game, version, at) for ms, (game, version, at) in runs if at - ms / 1000 > ready(game)]
    written = {(game, version): at for _, game, version, at in steady}
    delays = [(at - written[(game, v)]) * 1000 for game, got in arrivals for v, at in got if (game, v) in written]
    return [ms for ms, *_ in steady], delays


def counting(games: Callable[[str], bool], ready: float) -> Callable[[str], float]:
    """``steady_moves``'s ``ready`` for the moves of the games that ``games`` admits (the others: none)."""
    return lambda game: ready if games(game) else NEVER


async def watch_beside(
    bases: list[str], workers: list[int], game_id: str, streams: int, seconds: float, beside: list[str]
) -> Watched:
    """``watch``, with one stream on each game of ``beside`` open meanwhile (their runners run only watched games)."""
    others = asyncio.ensure_future(crowd_streams(bases, beside, 30 + seconds))
    seen = await watch(bases, workers, game_id, streams, seconds)
    others.cancel()
    await asyncio.gather(others, return_exceptions=True)
    return seen


def spectators(counts: list[int], seconds: float, beside: int) -> None:
    heads = f"{'streams':>8} {'moves':>5} {'lateness p50/p99/max ms':>24} {'change->event p50/p99 ms':>25}"
    heads += f" {'spread p50/p99 ms':>18}"
    print(f"{heads} {'floor p50/p99 ms':>17} {'CPU/event us':>12} {'rejected/applied':>17} ended")
    for streams in counts:
        with servers(2) as (bases, reports, workers):
            others = [bot_game(bases[n % 2], "the-game", 2, "greedy", PACE_MS, seed=n) for n in range(beside)]
            game_id = bot_game(bases[0], "ninja", 2, "best", PACE_MS, seed=streams)
            seen = asyncio.run(watch_beside(bases, workers, game_id, streams, seconds, others))
            public = urllib.request.urlopen(f"{bases[0]}/v1/games/{game_id}", timeout=10).read()
            final, size = json.loads(public)["version"], len(public)
        # a stream that closed with versions still to come ended before the game (one closing after the game
        # ended, its rematch wait over, did not)
        closed = [got for ok, got in zip(seen.lasted, seen.arrivals, strict=True) if not ok]
        ended = sum(1 for got in closed if not got or got[-1][0] < final)
        received = [(game_id, got) for got in seen.arrivals]
        lateness, delays = steady_moves(reports, counting(game_id.__eq__, seen.ready), received)
        beside_lateness, _ = steady_moves(reports, counting(game_id.__ne__, seen.ready), [])
        spread = spreads(seen.arrivals, seen.ready)
        rejected = sum(report["rejected"] for report in reports)
        applied = sum(report["writes"] for report in reports)
        events = sum(1 for got in seen.arrivals for _, at in got if at > seen.ready)
        bare = floor(streams, size, seconds)
        print(
            f"{streams:>8} {len(lateness):>5} {percentile(lateness, 0.5):>8.1f} / {percentile(lateness, 0.99):>5.1f} / "
            f"{max(lateness, default=float('nan')):>5.1f} "
            f"{percentile(delays, 0.5):>15.1f} / {percentile(delays, 0.99):>6.1f} "
            f"{percentile(spread, 0.5):>10.1f} / {percentile(spread, 0.99):>5.1f} "
            f"{percentile(bare, 0.5):>9.1f} / {percentile(bare, 0.99):>5.1f} "
            f"{seen.cpu / max(events, 1) * 1e6:>12.0f} {rejected:>8} / {applied:<7} {ended}"
        )
        if others:
            print(
                f"{'':>8} the bots of the {beside} games beside, lateness p50 / p99 / max ms: "
                f"{percentile(beside_lateness, 0.5):.1f} / {percentile(beside_lateness, 0.99):.1f} / "
                f"{max(beside_lateness, default=float('nan')):.1f} ({len(beside_lateness)} moves)"
            )


FLOOR_HEADERS = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"


def floor_server(port: int, streams: int, size: int, seconds: float) -> None:
    """The floor: a bare loop that accepts ``streams`` connections, then every ``PACE_MS`` writes each of them an
    event of ``size`` bytes (chunked, as gunicorn does) with blocking ``sendall`` calls: no framework, no greenlet,
    no game. Prints the epoch second of each version's first write, as JSON."""
    listener = socket.create_server(("127.0.0.1", port))
    print("listening", flush=True)
    readers = []
    for _ in range(streams):
        reader, _ = listener.accept()
        reader.recv(4096)
        readers.append(reader)
    for reader in readers:
        reader.sendall(FLOOR_HEADERS)
    written, ends = {}, time.monotonic() + seconds
    for version in range(1, 1_000_000):
        time.sleep(PACE_MS / 1000)
        if time.monotonic() > ends:
            break
        event = b"id: %d\nevent: view\ndata: %s\n\n" % (version, b"x" * size)
        frame = b"%X\r\n%s\r\n" % (len(event), event)
        written[version] = time.time()
        try:
            for reader in readers:
                reader.sendall(frame)
        except OSError:  # the readers are done
            break
    print(json.dumps(written), flush=True)


def floor(streams: int, size: int, seconds: float) -> list[float]:
    """Change to event through the floor (``floor_server``, two processes as the service has), read by the same
    readers: what this machine's loopback and this reader cost before any of the service's code runs."""
    ports, procs = [free_port() for _ in range(min(2, streams))], []
    for n, port in enumerate(ports):
        command = [sys.executable, __file__, "--floor-server", str(port), str(len(range(n, streams, len(ports))))]
        command += [str(size), str(seconds + 35)]
        procs.append(subprocess.Popen(command, stdout=subprocess.PIPE, text=True))
    for proc in procs:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "listening"
    seen = asyncio.run(watch([f"http://127.0.0.1:{port}" for port in ports], [], "floor", streams, seconds))
    delays = []
    for n, proc in enumerate(procs):
        written = json.loads(proc.communicate(timeout=30)[0].strip().splitlines()[-1])
        for got in seen.arrivals[n :: len(procs)]:
            delays += [(at - written[str(v)]) * 1000 for v, at in got if at > seen.ready and str(v) in written]
    return delays


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
    with servers(2) as (bases, _, _):
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
    parser.add_argument("--beside", type=int, default=0, help="games of two bots played beside the watched one")
    parser.add_argument("--floor-server", type=float, nargs=4, help=argparse.SUPPRESS)  # port streams size seconds
    args = parser.parse_args()
    if args.floor_server:
        port, streams, size, seconds = args.floor_server
        return floor_server(int(port), int(streams), int(size), seconds)
    store().flushdb()
    if args.streams:
        spectators(args.streams, args.seconds, args.beside)
    if args.crowd:
        crowd(args.crowd, args.seconds)


if __name__ == "__main__":
    main()
