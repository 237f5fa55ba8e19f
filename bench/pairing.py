"""Time to pair: seekers pressing Play now at the same moment, over HTTP, on two server processes.

    REDIS_URL=redis://127.0.0.1:6379/12 .venv/bin/python bench/pairing.py [ROUNDS]

Starts two ``python -m service`` processes on free ports (limits off, a pool of their own under a random prefix)
over the Redis at ``REDIS_URL``, then runs ``ROUNDS`` (default 50) rounds of 2 seekers and as many of 20, each
seeker a fresh player sending ``POST /v1/pairing`` (Ninja for two) at once with the others of its round, to either
process in turn. A seeker is paired when its table is full: the time from the round's start to the last answer of
its table (the answer that fills a table starts the game). Prints p50 and p99 of that time per round size.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "service"))
from servers import call, free_port, health  # noqa: E402


@contextmanager
def server(prefix: str) -> Iterator[int]:
    port = free_port()
    env = {**os.environ, "TG_LIMITS": "off", "PORT": str(port), "TG_PAIRING_PREFIX": prefix}
    process = subprocess.Popen([sys.executable, "-m", "service"], cwd=ROOT, env=env, stderr=subprocess.DEVNULL)
    try:
        health(port, process)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=30)


def round_of(ports: list[int], size: int) -> list[float]:
    """One round: ``size`` fresh players seek at once; each one's time to pair (ms)."""
    keys = [call(ports[n % 2], "POST", "/v1/players", {"name": f"seeker {n}"})[1]["key"] for n in range(size)]
    start = threading.Barrier(size + 1)
    answers: list[tuple[str, float]] = [("", 0.0)] * size

    def seek(number: int) -> None:
        start.wait()
        status, seated = call(ports[number % 2], "POST", "/v1/pairing", {"game": "ninja", "players": 2}, keys[number])
        assert status == 201, seated
        answers[number] = (seated["game_id"], time.perf_counter())

    threads = [threading.Thread(target=seek, args=(number,)) for number in range(size)]
    for thread in threads:
        thread.start()
    start.wait()
    began = time.perf_counter()
    for thread in threads:
        thread.join()
    tables: dict[str, float] = defaultdict(float)
    for game_id, at in answers:
        tables[game_id] = max(tables[game_id], at)
    assert all(sum(1 for game_id, _ in answers if game_id == table) == 2 for table in tables)
    return [(tables[game_id] - began) * 1000 for game_id, _ in answers]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    if not os.environ.get("REDIS_URL"):
        sys.exit("bench/pairing.py: set REDIS_URL (two processes share one Redis)")
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    prefix = f"tg:{{pairing-bench-{secrets.token_hex(4)}}}"
    with ExitStack() as stack:
        ports = [stack.enter_context(server(prefix)) for _ in range(2)]
        for size in (2, 20):
            times = [ms for _ in range(rounds) for ms in round_of(ports, size)]
            print(
                f"{size:>2} seekers at once, {rounds} rounds: time to pair p50 {percentile(times, 0.5):.1f} ms, "
                f"p99 {percentile(times, 0.99):.1f} ms"
            )


if __name__ == "__main__":
    main()
