"""The memory one finished game takes in Redis (``MEMORY USAGE``), with and without Idempotency-Keys.

    REDIS_URL=redis://127.0.0.1:6379/0 .venv/bin/python bench/game_memory.py

Plays a 2-player game of The Game and of Ninja to its end over HTTP (the Flask test client, two
human seats: The Game's play the smallest jumps, Ninja's send their first legal action, no swaps or signals),
once without and once with a fresh ``Idempotency-Key`` (a UUID) on every change, seats and start
included; prints one Markdown row per game for docs/api.md. The games expire after an hour.
"""

from __future__ import annotations

import os
import uuid
from typing import Any

import redis

from service import create_app

SKIPPED = {"swap", "signal", "complete"}  # optional actions: a game finishes without them


def choose(view: dict[str, Any]) -> dict[str, Any]:
    """The Game: the play of the smallest jump until the turn's minimum, then end the turn (a long game);
    Ninja: the first legal action."""
    actions = [action for action in view["legal_actions"] if action["type"] not in SKIPPED]
    if view["game"] != "the-game":
        return dict(actions[0])
    plays = [action for action in actions if action["type"] == "play"]
    if not plays or (view["placed_this_turn"] >= view["required_this_turn"] and view["can_end_turn"]):
        return {"type": "end_turn"}
    piles = {pile["id"]: pile for pile in view["piles"]}

    def jump(action: dict[str, Any]) -> int:
        pile = piles[action["pile"]]
        return int(action["card"] - pile["top"] if pile["direction"] == "up" else pile["top"] - action["card"])

    return min(plays, key=jump)


def play_one(http: Any, game: str, keys: bool, seed: int) -> tuple[str, int, int]:
    """A finished game's id, its changes and its status, played through HTTP."""

    def headers(token: str | None = None) -> dict[str, str]:
        sent = {"Idempotency-Key": str(uuid.uuid4())} if keys else {}
        return {**sent, **({"Authorization": f"Bearer {token}"} if token else {})}

    created = http.post("/v1/games", json={"game": game, "players": 2, "seed": seed}).get_json()
    url, host = f"/v1/games/{created['game_id']}", created["host_token"]
    tokens = [http.post(f"{url}/seats", json={"name": f"p{n}"}, headers=headers()).get_json()["token"] for n in (0, 1)]
    view = http.post(f"{url}/start", json={"first_seat": 0}, headers=headers(host)).get_json()
    while view["status"] == "playing":
        seat = view["waiting_for"][0]
        mine = http.get(url, headers={"Authorization": f"Bearer {tokens[seat]}"}).get_json()
        action = choose(mine)
        answer = http.post(f"{url}/actions", json=action, headers=headers(tokens[seat]))
        assert answer.status_code == 200, answer.get_json()
        view = answer.get_json()
    return created["game_id"], view["version"], view["status"]


def main() -> None:
    url = os.environ.get("REDIS_URL")
    if not url:
        raise SystemExit("set REDIS_URL to a real Redis: MEMORY USAGE needs one")
    client = redis.Redis.from_url(url)
    ttl = {"LOBBY_TTL": 3600, "GAME_TTL": 3600, "FINISHED_TTL": 3600}
    http = create_app({"REDIS_URL": url, "REDIS_CLIENT": client, **ttl}).test_client()
    print("| game | Idempotency-Key | changes | status | fields (bytes) | `MEMORY USAGE` (bytes) |")
    print("|---|---|---|---|---|---|")
    for game in ("the-game", "ninja"):
        for keys in (False, True):
            game_id, version, status = play_one(http, game, keys, seed=1)
            key = f"tg:{{{game_id}}}:game"
            fields = sum(len(name) + len(value) for name, value in client.hgetall(key).items())
            memory = client.memory_usage(key, samples=0)
            print(f"| {game} | {'every change' if keys else 'none'} | {version} | {status} | {fields} | {memory} |")


if __name__ == "__main__":
    main()
