"""CPU per change of the service in-process (Flask test client, the real Redis), this checkout against another.

    REDIS_URL=redis://127.0.0.1:6379/14 python bench/change_cpu.py --against /tmp/before [--games 15] [--rounds 3]

Each side runs in its own process with its checkout first on the path, its app's objects frozen out of the garbage
collector's full passes as in a gunicorn worker (``gc.freeze``, both sides): it creates 2-player games of The Game,
seats and starts them, and plays them to the end over HTTP routes (the seat to play places the card that moves its pile
least, then ends its turn), timing only the plays and turn ends (``time.process_time``). Rounds alternate the sides;
the last line is the median ratio of this checkout's CPU per change to the other's. The database is flushed before
each side's run: give a dedicated one (never 0).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from service_setup import next_change, store

HERE = Path(__file__).resolve().parents[1]


def measure(games: int) -> float:
    """Microseconds of CPU per play or turn end, in this process, with the checkout in the working directory."""
    from service import create_app

    store().flushdb()
    http = create_app().test_client()
    gc.collect()
    gc.freeze()  # as a gunicorn worker does (service/gunicorn_conf.py): the app's objects out of full collections
    spent, changes = 0.0, 0

    def call(method: str, url: str, body: Any = None, token: str | None = None) -> Any:
        nonlocal spent, changes
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        timed = method == "POST" and url.endswith(("/plays", "/turn/end"))
        started = time.process_time()
        answer = http.open(url, method=method, json=body, headers=headers)
        if timed:
            spent, changes = spent + time.process_time() - started, changes + 1
        assert answer.status_code < 300, (url, answer.status_code, answer.get_data())
        return answer.get_json()

    for seed in range(games):
        created = call("POST", "/v1/games", {"game": "the-game", "players": 2, "seed": seed})
        game = f"/v1/games/{created['game_id']}"
        tokens = [call("POST", f"{game}/seats", {"name": f"p{seat}"})["token"] for seat in range(2)]
        call("POST", f"{game}/start", {"first_seat": 0}, created["host_token"])
        while (view := call("GET", game))["status"] == "playing":
            token = tokens[view["current_seat"]]
            mine = call("GET", game, token=token)
            route, body = next_change(mine)
            call("POST", f"{game}/{route}", body, token)
    return spent / changes * 1e6


def side(checkout: Path, games: int) -> float:
    env = {**os.environ, "PYTHONPATH": str(checkout), "TG_CREATE_RATE": "1000000/1", "TG_CHANGE_RATE": "1000000/1"}
    command = [sys.executable, str(Path(__file__).resolve()), "--measure", str(games)]
    done = subprocess.run(command, cwd=checkout, env=env, capture_output=True, text=True, check=True, timeout=600)
    return float(json.loads(done.stdout.splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--against", type=Path, help="the other checkout (e.g. a git worktree of an older revision)")
    parser.add_argument("--games", type=int, default=15, help="games per side and round (about 100 changes each)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, each timing both sides")
    parser.add_argument("--measure", type=int, help=argparse.SUPPRESS)  # one side, in a child process
    args = parser.parse_args()
    if args.measure is not None:
        print(json.dumps(measure(args.measure)))
        return
    if args.against is None:
        parser.error("--against DIR is required")
    store()  # refuses a REDIS_URL that names database 0: each run flushes it
    ratios = []
    for round_number in range(1, args.rounds + 1):
        ours, theirs = side(HERE, args.games), side(args.against, args.games)
        ratios.append(ours / theirs)
        print(f"round {round_number}: this checkout {ours:.0f} us per change, {args.against} {theirs:.0f} us")
    print(f"ratio: {statistics.median(ratios):.2f}")


if __name__ == "__main__":
    main()
