"""The memory a finished game a player played costs while it is kept (``TG_HISTORY_TTL``, 90 days by default):
the game's hash (``MEMORY USAGE``) and its entry in each of its players' indexes, for each game.

    REDIS_URL=redis://127.0.0.1:6379/3 .venv/bin/python bench/kept_game_memory.py [GAMES_PER_GAME]

Plays GAMES_PER_GAME (default 5) 2-player games of each game to their end over HTTP (the Flask test client, both
seats taken with player keys and played with them: The Game's play the smallest jumps, Ninja's send their first
legal action, Bataille corse's flip and never slap, so that a game runs to its default flip limit or to a seat's
last card), seeds 1, 2, ...; prints one Markdown row per game for docs/benchmarks.md: the game hash's mean and
largest ``MEMORY USAGE`` and the index's cost per entry (its ``MEMORY USAGE`` over its entries); then what a
player costs before any game. Everything it writes expires within the hour.
"""

from __future__ import annotations

import os
import statistics
import sys
from typing import Any

import redis
from game_memory import choose as choose_in_turn_game

from service import create_app

GAMES = ("the-game", "ninja", "bataille-corse")
HOUR = 3600


def choose(view: dict[str, Any]) -> dict[str, Any]:
    """Bataille corse: flip on its turn (never slap); the others as ``game_memory`` plays them."""
    if view["game"] == "bataille-corse":
        return {"type": "flip"}
    return choose_in_turn_game(view)


def play_one(http: Any, game: str, keys: list[str], seed: int) -> str:
    """A finished game of ``game`` whose seats the two ``keys`` took (so bound to their players); its id."""
    created = http.post("/v1/games", json={"game": game, "players": 2, "seed": seed}).get_json()
    url, host = f"/v1/games/{created['game_id']}", created["host_token"]
    for seat, key in enumerate(keys):
        taken = http.post(f"{url}/seats", json={"name": f"p{seat}"}, headers={"Authorization": f"Bearer {key}"})
        assert taken.status_code == 201, taken.get_json()
    view = http.post(f"{url}/start", json={"first_seat": 0}, headers={"Authorization": f"Bearer {host}"}).get_json()
    while view["status"] == "playing":
        key = keys[view["waiting_for"][0]]
        mine = http.get(url, headers={"Authorization": f"Bearer {key}"}).get_json()
        answer = http.post(f"{url}/actions", json=choose(mine), headers={"Authorization": f"Bearer {key}"})
        assert answer.status_code == 200, answer.get_json()
        view = answer.get_json()
    return str(created["game_id"])


def main() -> None:
    url = os.environ.get("REDIS_URL")
    if not url:
        raise SystemExit("set REDIS_URL to a real Redis: MEMORY USAGE needs one")
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    client = redis.Redis.from_url(url)
    ttls = {name: HOUR for name in ("LOBBY_TTL", "GAME_TTL", "FINISHED_TTL", "HISTORY_TTL", "PLAYER_TTL")}
    http = create_app({"REDIS_URL": url, "REDIS_CLIENT": client, "LIMITS": False, **ttls}).test_client()
    print("| game | games | actions (mean) | game hash, mean (bytes) | largest (bytes) | index entry (bytes) |")
    print("|---|---|---|---|---|---|")
    for game in GAMES:
        players = [http.post("/v1/players", json={"name": f"p{seat}"}).get_json() for seat in (0, 1)]
        keys = [player["key"] for player in players]
        ids = [play_one(http, game, keys, seed) for seed in range(1, count + 1)]
        sizes = [int(client.memory_usage(f"tg:{{{game_id}}}:game", samples=0)) for game_id in ids]
        actions = [len(http.get(f"/v1/games/{game_id}/log").get_json()["entries"]) for game_id in ids]
        index = f"tg:{{p:{players[0]['player_id']}}}:games"
        entry = int(client.memory_usage(index, samples=0)) / client.zcard(index)
        row = [game, count, round(statistics.mean(actions)), round(statistics.mean(sizes)), max(sizes), round(entry)]
        print("| " + " | ".join(str(cell) for cell in row) + " |")
    player = http.post("/v1/players", json={"name": "a name of twenty char"}).get_json()["player_id"]
    own = sum(int(client.memory_usage(f"tg:{{p:{player}}}:{part}", samples=0)) for part in ("profile", "keys"))
    print(f"\na player with one key and no game (profile and keys): {own} bytes")


if __name__ == "__main__":
    main()
