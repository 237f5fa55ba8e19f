"""The bot client after Redis lost writes (a crash, a failover): the game comes back at an earlier version and the
client, whose stream resumes from an event the game no longer holds, takes the game as it now stands and plays it
to the end (it does not wait for a version number higher than one it saw)."""

from __future__ import annotations

import os
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

import pytest
import redis

from service.storage.store import game_key
from tests.client.live import SETTINGS, call, lobby
from tests.service.redis_cluster import available, free_node_port, redis_server
from tests.service.servers import ROOT, running
from thegame_core.bots import create_bot
from thegame_core.client.api import Api
from thegame_core.client.seat import Move, SeatPlayer, Summary

pytestmark = pytest.mark.skipif(not available(), reason="TG_REDIS_SERVERS=off, or redis-server is not installed")


@dataclass
class Crash:
    """After the client's first move, what Redis holds of the game is kept; after its third, Redis goes back to it:
    the second and third moves are lost, as a crash or failover loses writes."""

    store: redis.Redis
    key: str
    moves: int = 0
    kept: bytes = b""
    lost_at: int | None = None  # the version the client had reached when its moves were lost

    def moved(self, move: Move) -> None:
        self.moves += 1
        if self.moves == 1:
            kept = self.store.dump(self.key)
            assert isinstance(kept, bytes)
            self.kept = kept
        elif self.moves == 3:
            self.lost_at = move.after
            self.store.restore(self.key, 300_000, self.kept, replace=True)


def test_the_bot_client_plays_on_after_redis_lost_its_last_moves(tmp_path: Path) -> None:
    port = free_node_port()
    with redis_server(port, tmp_path, config=ROOT / "deploy" / "redis.conf"):
        store = redis.Redis(port=port)
        environment = {**SETTINGS, "REDIS_URL": f"redis://127.0.0.1:{port}/0", "TG_STREAM_LIFETIME": "1"}
        with mock.patch.dict(os.environ, environment), running([sys.executable, "-m", "service"]) as (web, _):
            url = f"http://127.0.0.1:{web}"
            game_id, host = lobby(url, "the-game", 1, seed=5)
            token = call(url, "POST", f"/games/{game_id}/seats", {"name": "Robo"})["token"]
            call(url, "POST", f"/games/{game_id}/start", {}, host)
            crash = Crash(store, game_key(game_id))
            bot = create_bot("greedy", game="the-game", seed=0)
            player = SeatPlayer(Api(url, game_id, token, timeout=10), bot, on_move=crash.moved)
            summaries: list[Summary] = []
            thread = threading.Thread(target=lambda: summaries.append(player.play()), daemon=True)
            thread.start()
            thread.join(120)  # a client that waits for a version above the lost ones would wait forever
            assert not thread.is_alive() and crash.lost_at is not None, "the client stopped playing after the loss"
            view = call(url, "GET", f"/games/{game_id}")
            assert summaries[0].status == view["status"] in ("won", "lost")
            assert summaries[0].version == view["version"] and crash.moves > 3
        store.close()
