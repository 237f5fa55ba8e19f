"""A game's analysis in Redis, beside the game on its slot: ``tg:{<game_id>}:analysis``, the JSON answer, written
once and expiring with the game."""

from __future__ import annotations

import redis

from ..storage.scripts import lua
from ..storage.store import game_key, text


def analysis_key(game_id: str) -> str:
    return f"tg:{{{game_id}}}:analysis"


class AnalysisStore:
    """The analyses over the games' Redis (or Redis Cluster) client: the script touches one game's slot."""

    def __init__(self, client: redis.Redis | redis.RedisCluster) -> None:
        self.client = client
        self._keep = client.register_script(lua("analysis_keep"))

    def result(self, game_id: str) -> str | None:
        """The stored analysis (JSON text), if worked out."""
        return text(self.client.get(analysis_key(game_id)))

    def keep(self, game_id: str, text: str) -> bool:
        """Store the analysis until the game expires; False if the game is gone or it was stored already."""
        return bool(self._keep(keys=[game_key(game_id), analysis_key(game_id)], args=[text]))
