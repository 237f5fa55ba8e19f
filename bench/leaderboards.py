"""Reading a rated game's leaderboard and a player's rank with 100,000 rated players in Redis.

    REDIS_URL=redis://127.0.0.1:6379/7 .venv/bin/python bench/leaderboards.py [PLAYERS] [READS]

Fills one game's board with ``PLAYERS`` (default 100,000) players as rated games leave them (nine in ten
established, one in ten provisional; one in five last rated more than 30 days ago, dropped by the first reads), and
another game's board with 200 (the baseline), then times ``READS`` (default 2,000) of each, interleaved: the
leaderboard as ``GET /v1/leaderboards/{game}`` answers it (the Flask test client: no HTTP), and a random player's
rank (``Leaderboards.standing``, the ``/me`` data). Prints p50 and p99. Its keys live under a random prefix and
are deleted at the end.
"""

from __future__ import annotations

import itertools
import os
import random
import secrets
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial

from service import create_app
from service.ratings.board import WINDOW_MS, Leaderboards
from thegame_core.progress import on_terminal

GAME = "ninja"
#: The baseline: another game's board with ``SMALL`` players, read the same way in the same run.
BASELINE, SMALL = "bataille-corse", 200


def fill(boards: Leaderboards, game: str, players: int, now_ms: int) -> list[str]:
    """``players`` players on ``game``'s board, as their last rated game left them; their ids."""
    rng, ids, progress = random.Random(1), [f"player{number:07d}" for number in range(players)], on_terminal("players")
    pipe = boards.client.pipeline(transaction=False)
    board, last, games = boards.keys(game)
    for number, player in enumerate(ids):
        ended = now_ms - (WINDOW_MS + rng.randrange(10**9) if number % 5 == 0 else rng.randrange(WINDOW_MS))
        if number % 10:
            pipe.zadd(board, {player: rng.gauss(1800, 250)})
        pipe.zadd(last, {player: ended})
        pipe.hset(games, player, 20 + rng.randrange(200))
        if number % 1000 == 999:
            pipe.execute()
            progress(number + 1, players)
    pipe.execute()
    return ids


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def timed(read: Callable[[], object], times: list[float]) -> None:
    started = time.perf_counter()
    read()
    times.append((time.perf_counter() - started) * 1000)


def main() -> None:
    if not os.environ.get("REDIS_URL"):
        sys.exit("set REDIS_URL (a Redis database this may write to)")
    players = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    reads = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    app = create_app({"RATINGS_PREFIX": f"bench-{secrets.token_hex(6)}:", "TESTING": True})
    service, http = app.extensions["service"], app.test_client()
    boards: Leaderboards = service.ratings.boards
    now_ms = int(service.now() * 1000)
    try:
        ids = {GAME: fill(boards, GAME, players, now_ms), BASELINE: fill(boards, BASELINE, SMALL, now_ms)}
        for game in ids:
            while boards.client.zcount(boards.keys(game)[1], "-inf", f"({now_ms - WINDOW_MS}"):
                boards.top(game, now_ms)  # the first reads drop those out of the window, PRUNE at a time
        rng, times = random.Random(2), {}  # type: ignore[var-annotated]
        kinds: dict[str, Callable[[str], object]] = {
            "the best 100": lambda game: http.get(f"/v1/leaderboards/{game}").get_json(),
            "a rank": lambda game: boards.standing(game, rng.choice(ids[game]), now_ms),
        }
        for _ in range(reads):
            for game, kind in itertools.product(ids, kinds):
                timed(partial(kinds[kind], game), times.setdefault((game, kind), []))
        print(f"{reads:,} reads of each, interleaved")
        for (game, kind), taken in times.items():
            name = f"{boards.top(game, now_ms)[0]:>6,} on the board: {kind}"
            print(f"{name:40} p50 {statistics.median(taken):6.2f} ms   p99 {percentile(taken, 0.99):6.2f} ms")
    finally:
        boards.client.delete(*boards.keys(GAME), *boards.keys(BASELINE))


if __name__ == "__main__":
    main()
