"""A game's analysis in Redis, beside the game on its slot: ``tg:{<game_id>}:analysis`` (the JSON answer, expiring
with the game), ``...:analysis-lease`` (the process working it out: a token, set only if absent, renewed as the work
goes on) and ``...:analysis-progress`` (``done/total``, decisions, while it runs)."""

from __future__ import annotations

import redis

from ..storage.leases import take_lease
from ..storage.scripts import lua
from ..storage.store import game_key, text

#: A lease's life: a process renews it as it works (at least every ``RENEW_SECONDS``), so one that dies hands the
#: game on within this time.
LEASE_MS = 60_000
RENEW_SECONDS = 5.0


def analysis_key(game_id: str, part: str = "") -> str:
    return f"tg:{{{game_id}}}:analysis{part}"


class AnalysisStore:
    """The analyses over one Redis (or Redis Cluster) client: every script touches one game's slot."""

    def __init__(self, client: redis.Redis | redis.RedisCluster) -> None:
        self.client = client
        self._renew = client.register_script(lua("renew"))
        self._keep = client.register_script(lua("analysis_keep"))
        self._release = client.register_script(lua("release"))

    def result(self, game_id: str) -> str | None:
        """The stored analysis (JSON text), if worked out."""
        return text(self.client.get(analysis_key(game_id)))

    def under_way(self, game_id: str) -> bool:
        """Whether a process holds the game's lease (it is working the analysis out)."""
        return bool(self.client.exists(analysis_key(game_id, "-lease")))

    def progress(self, game_id: str) -> tuple[int, int] | None:
        """Decisions analysed and in all, while a process works on it."""
        value = text(self.client.get(analysis_key(game_id, "-progress")))
        if value is None:
            return None
        done, _, total = value.partition("/")
        return int(done), int(total)

    def claim(self, game_id: str) -> str | None:
        """The game's lease for this run (its token), or ``None`` if another process holds it."""
        return take_lease(self.client, analysis_key(game_id, "-lease"), LEASE_MS)

    def renew(self, game_id: str, token: str, done: int, total: int) -> bool:
        """Renew the lease and note the progress; False if the lease is no longer this run's."""
        keys = [analysis_key(game_id, "-lease"), analysis_key(game_id, "-progress")]
        return bool(self._renew(keys=keys, args=[token, LEASE_MS, f"{done}/{total}"]))

    def keep(self, game_id: str, token: str, text: str) -> bool:
        """Store the analysis until the game expires, and give the lease back; False if the game is gone."""
        keys = [game_key(game_id), analysis_key(game_id), analysis_key(game_id, "-lease")]
        return bool(self._keep(keys=[*keys, analysis_key(game_id, "-progress")], args=[token, text]))

    def release(self, game_id: str, token: str) -> None:
        self._release(keys=[analysis_key(game_id, "-lease")], args=[token])
