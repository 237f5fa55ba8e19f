"""Helpers of ``bench/service.sh``: games created over HTTP, and Redis memory figures of the benchmark's database.

    python bench/service_setup.py games URL N FILE   # N started 2-player games; FILE: one line per game for wrk
    python bench/service_setup.py memory             # MEMORY USAGE of the game keys now in the database
    python bench/service_setup.py finished URL       # MEMORY USAGE of whole games played over HTTP
    python bench/service_setup.py flush              # FLUSHDB

Redis is the one at $REDIS_URL; its database must not be 0 (others use it), since ``flush`` empties it.
A line of FILE is ``game_id seat0_token seat1_token seat0_hand seat1_hand`` (hands as comma lists): seat 0
plays first.
"""

from __future__ import annotations

import json
import os
import sys
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import redis

PLAYERS = 2


def store() -> redis.Redis:
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    if int(client.connection_pool.connection_kwargs.get("db", 0)) == 0:
        sys.exit("refusing Redis database 0: give REDIS_URL a dedicated database, e.g. redis://127.0.0.1:6379/15")
    return client


def call(url: str, method: str = "GET", body: Any = None, token: str | None = None, key: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if key:
        headers["Idempotency-Key"] = key
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def started_game(base: str, seed: int) -> str:
    """One started game with both seats taken, as a line for the wrk script."""
    created = call(f"{base}/v1/games", "POST", {"game": "the-game", "players": PLAYERS, "seed": seed})
    game = f"{base}/v1/games/{created['game_id']}"
    tokens = [call(f"{game}/seats", "POST", {"name": f"p{seat}"})["token"] for seat in range(PLAYERS)]
    call(f"{game}/start", "POST", {"first_seat": 0}, created["host_token"])
    hands = [",".join(map(str, call(game, token=token)["hand"])) for token in tokens]
    return " ".join([created["game_id"], *tokens, *hands])


def next_change(mine: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The seat's next change by the benchmarks' policy, from its own view: while its turn needs a card, the legal
    one that moves its pile least (``plays``), else the end of its turn (``turn/end``)."""
    tops = {pile["id"]: pile["top"] for pile in mine["piles"]}
    if mine["legal_plays"] and (mine["placed_this_turn"] < mine["required_this_turn"] or not mine["can_end_turn"]):
        return "plays", min(mine["legal_plays"], key=lambda play: abs(play["card"] - tops[play["pile"]]))
    return "turn/end", {}


def whole_game(base: str, seed: int, with_keys: bool) -> tuple[str, dict[str, Any]]:
    """Play one started game to its end over HTTP, each seat placing its turn's minimum by the smallest jump;
    with an Idempotency-Key (a UUID) on every change when ``with_keys``. The game's id and last view."""
    game_id, *tokens = started_game(base, seed).split()[:3]
    game = f"{base}/v1/games/{game_id}"
    while (view := call(game))["status"] == "playing":
        token = tokens[view["current_seat"]]
        mine = call(game, token=token)
        key = str(uuid.uuid4()) if with_keys else None
        route, body = next_change(mine)
        call(f"{game}/{route}", "POST", body, token, key)
    return game_id, view


def finished_games(base: str) -> None:
    client = store()
    for with_keys in (False, True):
        game_id, view = whole_game(base, 1, with_keys)
        size = client.memory_usage(f"tg:{{{game_id}}}:game", samples=0)
        keys = "with an Idempotency-Key on every change" if with_keys else "without Idempotency-Keys"
        print(f"memory: a whole game {keys} ({view['status']}, version {view['version']}): {size} bytes")


def game_keys(client: redis.Redis) -> list[bytes]:
    return list(client.scan_iter(match="tg:*", count=1000))


def key_sizes(client: redis.Redis) -> list[int]:
    return [int(client.memory_usage(key, samples=0) or 0) for key in game_keys(client)]


def create_games(base: str, count: int, path: str) -> None:
    client = store()
    before = int(client.info("memory")["used_memory"])
    with ThreadPoolExecutor(max_workers=4) as pool:
        lines = list(pool.map(lambda seed: started_game(base, seed), range(1, count + 1)))
    after = int(client.info("memory")["used_memory"])
    with open(path, "w") as out:
        out.write("\n".join(lines) + "\n")
    sizes = key_sizes(client)
    print(f"created {count} started {PLAYERS}-player games ({len(sizes)} keys in the database)")
    print(f"memory: INFO used_memory delta / games = {(after - before) / count:.0f} bytes (server-wide: noisy)")
    print(f"memory: MEMORY USAGE per game key: mean {sum(sizes) / len(sizes):.0f}, max {max(sizes)} bytes")


def report_memory() -> None:
    sizes = key_sizes(store())
    if sizes:
        print(f"memory: MEMORY USAGE per game key: mean {sum(sizes) / len(sizes):.0f}, max {max(sizes)} bytes")


def main(argv: list[str]) -> None:
    match argv:
        case ["games", base, count, path]:
            create_games(base.rstrip("/"), int(count), path)
        case ["finished", base]:
            finished_games(base.rstrip("/"))
        case ["memory"]:
            report_memory()
        case ["flush"]:
            store().flushdb()
        case _:
            sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
