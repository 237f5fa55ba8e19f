"""Players' games of The Game as their record needs them (``the_game.record``), stored as each one ends.

A player's finished games of The Game, on the player's slot: ``tg:{p:<id>}:the-game``, a hash: game id -> that
game's ``Played`` (JSON). Storing a game again writes the same field, so the after-write hook may run on every
write of a finished game (a rematch's too) and each game counts once. Every seat taken with a player key counts:
daily deals' too, which are games of The Game like any other.
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict

import redis

from ..players.index import ended_ms
from ..players.keys import player_key
from ..records.game_record import CorruptRecord, GameRecord, over_with_players
from ..storage.replicas import Replicas
from ..storage.scripts import lua
from .the_game import Played, Record, record

log = logging.getLogger(__name__)
GAME = "the-game"


def played_key(player: str) -> str:
    return player_key(player, GAME)


class TheGameRecords:
    def __init__(self, client: redis.Redis | redis.RedisCluster, ttl: int, replicas: Replicas) -> None:
        """``ttl``: seconds a player's games are kept after their last one (a player's); ``replicas``: those
        that confirm each game stored."""
        self.client = client
        self.ttl = ttl
        self.replicas = replicas
        self.played_script = client.register_script(lua("the_game_played"))

    def of(self, player: str) -> dict[int, Record]:
        """``player``'s record per player count."""
        return record(Played(**json.loads(raw)) for raw in self.client.hvals(played_key(player)))

    def written(self, game_id: str, fields: dict[str, str]) -> None:
        """The store's after-write hook: a write that leaves a game of The Game over stores it for its players."""
        if f'"game":"{GAME}"' not in fields.get("meta", ""):
            return
        try:
            game = over_with_players(fields)
            if game is not None:
                self._store(game_id, game)
        except (redis.RedisError, CorruptRecord) as error:
            log.warning("game %s: not in its players' records (%s)", game_id, type(error).__name__)

    def _store(self, game_id: str, game: GameRecord) -> None:
        assert game.state is not None
        score = int(game.state.public_view()["score"])
        played = Played(ended_ms(game), game.players, game.status == "won", score)
        for player in game.players_bound():
            arguments: list[str | int] = [game_id, json.dumps(asdict(played)), self.ttl]
            what = f"game {game_id} in {player}'s record"
            self.replicas.run(self.played_script, [played_key(player)], arguments, what)
