"""A game's analysis in Redis, beside the game on its slot: ``tg:{<game_id>}:analysis`` (the JSON answer, expiring
with the game), ``...:analysis-lease`` (the process working it out: a token, set only if absent, renewed as the work
goes on) and ``...:analysis-progress`` (``done/total``, decisions, while it runs)."""

from __future__ import annotations

from dataclasses import dataclass

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


@dataclass(frozen=True)
class Poll:
    """A game's analysis as a poll finds it: stored (its JSON text), or under way (a process holds its lease) and
    how far (decisions analysed and in all) if the work has said so yet."""

    result: str | None
    under_way: bool
    progress: tuple[int, int] | None


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

    def poll(self, game_id: str) -> Poll:
        """What a poll answers from, in one round trip (the keys share the game's slot, on a Redis Cluster too)."""
        keys = [analysis_key(game_id), analysis_key(game_id, "-lease"), analysis_key(game_id, "-progress")]
        stored, lease, counts = (text(value) for value in self.client.mget(keys))
        progress = None
        if counts is not None:
            done, _, total = counts.partition("/")
            progress = int(done), int(total)
        return Poll(stored, lease is not None, progress)

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
