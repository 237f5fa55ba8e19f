"""Instructions per request (callgrind, user space), this checkout against another: a play and a health check.

    REDIS_URL=redis://127.0.0.1:6379/13 python bench/request_instructions.py --against /tmp/before [--requests 100]

Timings on a shared 2-core machine move by 10 to 20% from one run to the next; a count of the instructions the
process executes hardly moves (about 1%), so it tells whether a change of the code made a request cheaper,
though not what the kernel's share (sockets, the Redis round trips) costs. Each side runs in its own process with
its checkout first on the path, in-process (the Flask test client over the real Redis, ``gc.freeze`` as in a
worker): it starts a 2-player game of The Game, plays 30 changes by the benchmarks' policy and on to the next
play, keeps the game's Redis hash, then repeats one request, the hash restored before each: that play (``POST
.../plays``, answered with the seat's view) or ``GET /v1/health``. A request's count is the difference between runs
of ``--requests`` more and fewer repetitions, less the restores' own count (measured alike), so start-up and
imports cancel out. The database is flushed before and after: give a dedicated one (never 0). About 10
minutes.
"""

from __future__ import annotations

import argparse
import gc
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from service_setup import next_change, store

HERE = Path(__file__).resolve().parents[1]
KINDS = ("play", "health", "restore")
FEWER = 10  # repetitions of the shorter run


def repeat(kind: str, count: int) -> None:
    """In the child: ``count`` repetitions of ``kind`` on a game at its first play after 30 changes (``restore``:
    the restores alone)."""
    from service import create_app

    client = store()
    http = create_app().test_client()

    def send(method: str, url: str, body: Any = None, token: str | None = None) -> Any:
        answer = http.open(url, method=method, json=body, headers={"Authorization": f"Bearer {token}"} if token else {})
        assert answer.status_code < 300, (url, answer.status_code, answer.get_data())
        return answer

    def call(method: str, url: str, body: Any = None, token: str | None = None) -> Any:
        return send(method, url, body, token).get_json()

    created = call("POST", "/v1/games", {"game": "the-game", "players": 2, "seed": 7})
    game = f"/v1/games/{created['game_id']}"
    tokens = [call("POST", f"{game}/seats", {"name": f"p{seat}"})["token"] for seat in range(2)]
    call("POST", f"{game}/start", {"first_seat": 0}, created["host_token"])
    for changes in range(1000):
        token = tokens[call("GET", game)["current_seat"]]
        route, body = next_change(call("GET", game, token=token))
        if changes >= 30 and route == "plays":
            break
        call("POST", f"{game}/{route}", body, token)
    key = f"tg:{{{created['game_id']}}}:game"
    saved: dict[Any, Any] = client.hgetall(key)
    ttl = client.ttl(key)
    requests: dict[str, Callable[[], Any]] = {
        "play": lambda: send("POST", f"{game}/plays", body, token),  # the answer is not parsed: not the server's work
        "health": lambda: send("GET", "/v1/health"),
        "restore": lambda: None,
    }
    gc.collect()
    gc.freeze()  # as a gunicorn worker does
    for _ in range(count):
        client.delete(key)
        client.hset(key, mapping=saved)
        client.expire(key, ttl)
        requests[kind]()


def instructions(checkout: Path, kind: str, count: int) -> int:
    """Instructions of a whole child run under callgrind."""
    with tempfile.TemporaryDirectory() as work:
        out = Path(work) / "callgrind.out"
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable]
        command += [str(Path(__file__).resolve()), "--repeat", kind, str(count)]
        env = {**os.environ, "PYTHONPATH": str(checkout), "TG_CREATE_RATE": "1000000/1", "TG_CHANGE_RATE": "1000000/1"}
        subprocess.run(command, cwd=checkout, env=env, capture_output=True, check=True, timeout=1800)
        totals = [line for line in out.read_text().splitlines() if line.startswith(("summary:", "totals:"))]
        return int(totals[0].split()[1])


def per_request(checkout: Path, requests: int) -> dict[str, float]:
    """Instructions per request of each kind, the restore's taken off; the runs two at a time (one per core)."""
    runs = [(kind, count) for kind in KINDS for count in (FEWER, FEWER + requests)]
    with ThreadPoolExecutor(2) as pool:
        counts = dict(zip(runs, pool.map(lambda run: instructions(checkout, *run), runs), strict=True))
    each = {kind: (counts[kind, FEWER + requests] - counts[kind, FEWER]) / requests for kind in KINDS}
    return {kind: each[kind] - each["restore"] for kind in ("play", "health")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--against", type=Path, help="the other checkout (e.g. a git worktree of an older revision)")
    parser.add_argument("--requests", type=int, default=100, help="the difference in repetitions between two runs")
    parser.add_argument("--repeat", nargs=2, help=argparse.SUPPRESS)  # in a child process: KIND COUNT
    args = parser.parse_args()
    if args.repeat is not None:
        repeat(args.repeat[0], int(args.repeat[1]))
        return
    if args.against is None:
        parser.error("--against DIR is required")
    database = store()  # refuses a REDIS_URL that names database 0: it is flushed before and after
    database.flushdb()
    started = time.monotonic()
    sides = {HERE: per_request(HERE, args.requests), args.against: per_request(args.against, args.requests)}
    database.flushdb()
    for checkout, counts in sides.items():
        print(
            f"{checkout}: play {counts['play'] / 1e6:.3f} M instructions, health {counts['health'] / 1e6:.3f} M, "
            f"health / play {counts['health'] / counts['play']:.3f}"
        )
    ours, theirs = sides[HERE], sides[args.against]
    ratios = f"play {ours['play'] / theirs['play']:.3f}, health {ours['health'] / theirs['health']:.3f}"
    print(f"this checkout / {args.against}: {ratios} ({time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
