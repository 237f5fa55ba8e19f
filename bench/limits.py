"""What the limits cost a change and a creation: the same requests with limits off and on, paired in one run.

    REDIS_URL=redis://127.0.0.1:PORT/0 .venv/bin/python bench/limits.py [ROUNDS]

Two apps over one Redis (the Flask test client: no HTTP, so the service's own cost shows): limits off, and limits
on with budgets these requests never spend (their cost is measured, not their refusals) and the cap on live games
on. Each round, in alternating order, each app plays a whole one-player game of The Game (sorted deck: 98 plays
and 12 turn ends, one per request) and creates 20 lobbies. Prints the median per request, wall and CPU time, and
the median of the rounds' on/off ratios (the last line). Its keys: games that expire within an hour, the limits'
counters (a few seconds) and one live-games set under a random prefix, deleted at the end.
"""

from __future__ import annotations

import os
import secrets
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import redis
from flask.testing import FlaskClient

from service import create_app

SORTED_DECK = list(range(2, 100))
LOBBIES = 20
TTLS = {"LOBBY_TTL": 3600, "GAME_TTL": 3600, "FINISHED_TTL": 3600}


def timed(call: Callable[[], Any], totals: list[float]) -> Any:
    """``call()``, adding its wall and CPU seconds to ``totals``."""
    wall, cpu = time.perf_counter(), time.process_time()
    answer = call()
    totals[0] += time.perf_counter() - wall
    totals[1] += time.process_time() - cpu
    return answer


def post(http: FlaskClient, url: str, body: Any, token: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = http.post(url, json=body, headers=headers)
    assert response.status_code in (200, 201), response.get_json()
    return response.get_json()


def whole_game(http: FlaskClient) -> tuple[int, list[float]]:
    """A won one-player game, one change per request; the number of changes timed and their wall and CPU time."""
    created = post(http, "/v1/games", {"players": 1, "deck": SORTED_DECK})
    game = f"/v1/games/{created['game_id']}"
    token = post(http, f"{game}/seats", {"name": "bench"})["token"]
    post(http, f"{game}/start", {}, created["host_token"])
    view = http.get(game, headers={"Authorization": f"Bearer {token}"}).get_json()
    totals, changes = [0.0, 0.0], 0
    while view["status"] == "playing":
        for card in view["hand"]:
            view = timed(lambda card=card: post(http, f"{game}/plays", {"card": card, "pile": "asc1"}, token), totals)
            changes += 1
        if view["status"] == "playing":
            view = timed(lambda: post(http, f"{game}/turn/end", {}, token), totals)
            changes += 1
    return changes, totals


def creations(http: FlaskClient) -> tuple[int, list[float]]:
    totals = [0.0, 0.0]
    for _ in range(LOBBIES):
        timed(lambda: post(http, "/v1/games", {"players": 2}), totals)
    return LOBBIES, totals


def microseconds(runs: list[tuple[float, float]]) -> str:
    """The median wall and CPU time per request of ``runs``, in microseconds."""
    return f"{statistics.median(w for w, _ in runs) * 1e6:.0f} / {statistics.median(c for _, c in runs) * 1e6:.0f}"


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    prefix = f"bench-limits-{secrets.token_hex(6)}:"
    on = {"LIMITS": True, "LIMITS_PREFIX": prefix, "CREATE_RATE": (10**9, 1), "CHANGE_RATE": (10**9, 1)}
    apps = {
        "off": create_app({"REDIS_CLIENT": client, "LIMITS": False, **TTLS}).test_client(),
        "on": create_app({"REDIS_CLIENT": client, "MAX_GAMES": 10**6, **on, **TTLS}).test_client(),
    }
    per_request: dict[tuple[str, str], list[tuple[float, float]]] = {}
    try:
        for round_ in range(rounds + 1):  # round 0 warms up and is not counted
            for name in ("off", "on") if round_ % 2 else ("on", "off"):
                for kind, run in (("change", whole_game), ("creation", creations)):
                    count, (wall, cpu) = run(apps[name])
                    if round_:
                        per_request.setdefault((kind, name), []).append((wall / count, cpu / count))
    finally:
        client.delete(f"{prefix}{{live}}")
    print(f"{rounds} rounds; load average {os.getloadavg()[0]:.1f}; median us per request (wall / CPU):")
    ratios = {}
    for kind in ("change", "creation"):
        off, on_ = per_request[(kind, "off")], per_request[(kind, "on")]
        ratios[kind] = statistics.median(b[1] / a[1] for a, b in zip(off, on_, strict=True))
        figures = " | ".join(f"{name} {microseconds(runs)}" for name, runs in (("off", off), ("on", on_)))
        print(f"  {kind}: {figures}; CPU on/off {ratios[kind]:.3f}")
    print(f"CPU ratio on/off: change {ratios['change']:.3f}, creation {ratios['creation']:.3f}")


if __name__ == "__main__":
    main()
