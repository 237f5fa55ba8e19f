"""Bot work inside one request: ``POST .../start`` of a solo game of The Game with a ``best`` bot, capped at
``TG_BOT_DECISIONS`` (default 4) against the uncapped baseline (the whole game inside the start, as before the
clock), and what the clock adds to a read that finds nothing due.

    .venv/bin/python bench/bot_work.py [--games 6]

Both sides play the same seeds over the Flask test client and the embedded store, alternating which goes first;
figures are CPU seconds of this process (steadier than wall time on a shared machine), medians over the games.
The read figure times ``clock.catch_up`` on a running two-player game with nothing due against the plain load it
replaced (``load_record(store.load(...))``), in alternating rounds; the ratio is the median of the rounds' ratios.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from flask import Flask

from service import create_app
from service.clock.catch_up import catch_up

UNCAPPED = 10**6
READS = 200  # per round
ROUNDS = 15


def solo_best_start(app: Flask, seed: int) -> float:
    """CPU seconds of the start request of a solo game with a ``best`` bot."""
    http = app.test_client()
    created = http.post("/v1/games", json={"players": 1, "seed": seed}).get_json()
    host = {"Authorization": f"Bearer {created['host_token']}"}
    http.post(f"/v1/games/{created['game_id']}/seats", json={"name": "b", "bot": "best"}, headers=host)
    started = time.process_time()
    answer = http.post(f"/v1/games/{created['game_id']}/start", json={}, headers=host)
    spent = time.process_time() - started
    assert answer.status_code == 200, answer.get_json()
    return spent


def read_cost(app: Flask, read: Callable[[Any, str], Any], game_id: str) -> float:
    """Microseconds of CPU per read."""
    store = app.extensions["service"].store
    with app.app_context():
        started = time.process_time()
        for _ in range(READS):
            read(store, game_id)
        return (time.process_time() - started) / READS * 1e6


def two_people(app: Flask) -> str:
    http = app.test_client()
    created = http.post("/v1/games", json={"players": 2, "seed": 1, "options": {"turn_seconds": 60}}).get_json()
    for name in ("ann", "bob"):
        http.post(f"/v1/games/{created['game_id']}/seats", json={"name": name})
    http.post(
        f"/v1/games/{created['game_id']}/start", json={}, headers={"Authorization": f"Bearer {created['host_token']}"}
    )
    return str(created["game_id"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=6)
    args = parser.parse_args()
    capped, uncapped = create_app({"LIMITS": False}), create_app({"LIMITS": False, "BOT_DECISIONS": UNCAPPED})
    sides: dict[str, list[float]] = {"capped": [], "uncapped": []}
    for seed in range(1, args.games + 1):
        order = [("capped", capped), ("uncapped", uncapped)]
        for name, app in order if seed % 2 else reversed(order):
            sides[name].append(solo_best_start(app, seed))
    cap = capped.config["BOT_DECISIONS"]
    for name, times in sides.items():
        print(f"start, {name:8}: median {statistics.median(times):.3f} s CPU, max {max(times):.3f} s")
    ratio = statistics.median(sides["uncapped"]) / statistics.median(sides["capped"])
    print(f"start: uncapped / capped ({cap} decisions) = {ratio:.1f}")
    game_id = two_people(capped)
    settings = capped.extensions["service"].settings
    plain, caught, ratios = [], [], []
    for _ in range(ROUNDS):
        plain.append(read_cost(capped, lambda store, game: store.load(game).record(), game_id))
        caught.append(read_cost(capped, lambda store, game: catch_up(store, game, time.time(), settings, cap), game_id))
        ratios.append(caught[-1] / plain[-1])
    print(
        f"read, nothing due: plain load {statistics.median(plain):.0f} us, with the clock "
        f"{statistics.median(caught):.0f} us; ratio {statistics.median(ratios):.2f} (median of {ROUNDS} rounds)"
    )


if __name__ == "__main__":
    main()
