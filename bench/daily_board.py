"""Reading a daily deal's leaderboard holding 1,000 results, against a game's view read in the same run.

    REDIS_URL=redis://127.0.0.1:PORT/0 .venv/bin/python bench/daily_board.py [READS]

One app over Redis (the Flask test client: no HTTP, so the service's own cost shows). Two deals get 1,000 and 10
results (written straight to the board, as finished games would post them) and their yardstick. Then, interleaved,
``READS`` times each (default 2,000): the first page of each board (100 results, the most a page holds), the page
at offset 900 of the large one, one token's rank on it (``/me``), and the baseline, the view of a running game
(``GET /v1/games/{id}``). Prints each read's p50, p99 and CPU per read, and the ratios of their p99 to the
baseline's. Its keys (boards and game) live under a random prefix and are deleted at the end.
"""

from __future__ import annotations

import os
import secrets
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime

from flask.testing import FlaskClient

from service import create_app
from service.daily.board import DailyBoard, Deal
from service.play import tokens
from thegame_core.daily import DailyResult

TTL = 3600


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def fill(board: DailyBoard, deal: Deal, results: int) -> list[str]:
    """``results`` results on ``deal`` (varied cards and turns, so ranks are both shared and distinct), as finished
    games post them, and its yardstick; the seat tokens they belong to."""
    seat_tokens = [tokens.new_token() for _ in range(results)]
    for number, token in enumerate(seat_tokens):
        result, entry = DailyResult(number % 40, 30 + number % 17), {"name": f"p{number}", "game_id": "g", "team": []}
        board.post(deal, tokens.token_hash(token), 1_800_000_000_000 + number, result, entry)
    board.store_bots(deal, DailyResult(3, 40))
    return seat_tokens


def main() -> None:
    if not os.environ.get("REDIS_URL"):
        sys.exit("set REDIS_URL (a Redis database this may write to)")
    reads = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    prefix = f"bench-{secrets.token_hex(6)}:"
    app = create_app({"DAILY_PREFIX": prefix, "DAILY_TTL": TTL, "FINISHED_TTL": TTL, "GAME_TTL": TTL, "TESTING": True})
    http: FlaskClient = app.test_client()
    service = app.extensions["service"]
    day = datetime.now(UTC).date()
    large, small = Deal("the-game", 3, day), Deal("the-game", 4, day)
    seat_tokens = fill(service.daily.board, large, 1000)
    fill(service.daily.board, small, 10)
    game = http.post("/v1/games", json={"players": 2, "daily": day.isoformat(), "name": "bench"}).get_json()
    ranked = {"Authorization": f"Bearer {seat_tokens[500]}"}
    seat = {"Authorization": f"Bearer {game['token']}"}
    base = f"/v1/daily/the-game/3/{day.isoformat()}"
    cases: dict[str, Callable[[], object]] = {
        "game view (baseline)": lambda: http.get(f"/v1/games/{game['game_id']}", headers=seat),
        "board, 1,000 results, first page": lambda: http.get(base),
        "board, 10 results": lambda: http.get(f"/v1/daily/the-game/4/{day.isoformat()}"),
        "board, 1,000 results, offset 900": lambda: http.get(base, query_string={"offset": 900}),
        "rank (/me), 1,000 results": lambda: http.get(f"{base}/me", headers=ranked),
    }
    for call in cases.values():  # warm up, and check each read answers
        assert call().status_code == 200  # type: ignore[attr-defined]
    walls: dict[str, list[float]] = {name: [] for name in cases}
    cpus: dict[str, float] = dict.fromkeys(cases, 0.0)
    for _ in range(reads):
        for name, call in cases.items():
            wall, cpu = time.perf_counter(), time.process_time()
            call()
            walls[name].append((time.perf_counter() - wall) * 1000)
            cpus[name] += time.process_time() - cpu
    baseline = percentile(walls["game view (baseline)"], 0.99)
    print(f"{reads:,} reads of each, interleaved; Redis at {os.environ['REDIS_URL']}")
    for name in cases:
        p50, p99 = statistics.median(walls[name]), percentile(walls[name], 0.99)
        cpu_ms = cpus[name] / reads * 1000
        ratio = p99 / baseline
        print(f"{name:36} p50 {p50:6.2f} ms  p99 {p99:6.2f} ms  CPU {cpu_ms:5.2f} ms/read  p99 / baseline {ratio:4.2f}")
    client = service.store.client
    for key in client.scan_iter(f"{prefix}*"):
        client.delete(key)


if __name__ == "__main__":
    main()
