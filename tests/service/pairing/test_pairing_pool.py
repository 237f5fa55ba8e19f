"""The pool's invariants under any sequence of seeks, leaves and waits (hypothesis, on fakeredis): nobody holds two
seats, no lobby has more seekers than seats, every seeker's seat is its lobby's, an open lobby has room, and a
seeker opens a lobby only when no open lobby of its pool has room."""

from __future__ import annotations

import json
import secrets
from typing import Any

import fakeredis
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from service.pairing.pool import Pool, Window

PLAYERS = [f"player{number}" for number in range(6)]
POOLS = {"ninja:2:casual": 2, "ninja:3:casual": 3}
LIFE_MS = 600_000


class PoolMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.pool = Pool(fakeredis.FakeRedis(), "tg:{pairing}", LIFE_MS, Window())
        self.now = 1_800_000_000_000

    def _stored(self) -> tuple[dict[str, Any], dict[str, Any], list[str]]:
        client, (seekers, lobbies, open_key, _) = self.pool.client, self.pool.keys
        decoded = {
            key: {name.decode(): json.loads(value) for name, value in client.hgetall(key).items()}
            for key in (seekers, lobbies)
        }
        return decoded[seekers], decoded[lobbies], [member.decode() for member in client.zrange(open_key, 0, -1)]

    def _waiting(self) -> dict[str, Any]:
        """The lobbies that still take seekers: open, alive, their bots (if any) not about to come."""
        _, lobbies, open_members = self._stored()
        found = {}
        for member in open_members:
            game_id = member.rpartition("|")[2]
            lobby = lobbies.get(game_id)
            alive = lobby is not None and self.now < lobby["created"] + LIFE_MS
            if alive and (lobby["bots_at"] == 0 or self.now < lobby["bots_at"] - 2000):
                found[game_id] = lobby
        return found

    def _room_in(self, pool: str) -> bool:
        return any(lobby["pool"] == pool and "" in lobby["seats"] for lobby in self._waiting().values())

    @rule(player=st.sampled_from(PLAYERS), pool=st.sampled_from(sorted(POOLS)), bots=st.sampled_from([0, 5000]))
    def seek(self, player: str, pool: str, bots: int) -> None:
        room = self._room_in(pool)
        seekers, _, _ = self._stored()
        held = seekers.get(player)
        placed = self.pool.seek(
            player, pool, secrets.token_hex(4), self.now, POOLS[pool], None, self.now + bots if bots else 0
        )
        if placed.kind == "opened":
            assert not room, "a lobby of the pool had room"
        if placed.kind == "same":
            assert held is not None and (held["g"], held["s"]) == (placed.game_id, placed.seat)
        if placed.pool != pool:
            assert held is not None and held["ends"] == 0  # waiting elsewhere: told so, nothing changed

    @rule(player=st.sampled_from(PLAYERS))
    def leave(self, player: str) -> None:
        """As ``DELETE /v1/pairing`` does while the player waits (the game refuses it once started)."""
        seeker = self._stored()[0].get(player)
        game_id = self.pool.held(player, self.now)
        if game_id is not None and seeker is not None and seeker["ends"] == 0:
            self.pool.leave(player, game_id, self.now)
            assert self.pool.held(player, self.now) is None

    @rule(seconds=st.sampled_from([1, 4, 30, 700]))
    def wait(self, seconds: int) -> None:
        self.now += seconds * 1000

    @invariant()
    def seats_are_consistent(self) -> None:
        seekers, lobbies, open_members = self._stored()
        for game_id, lobby in lobbies.items():
            assert len(lobby["seats"]) == POOLS[lobby["pool"]]  # never more seats than the game has
            holders = [holder for holder in lobby["seats"] if holder]
            assert len(set(holders)) == len(holders), f"a seeker holds two seats of {game_id}"
        waiting: dict[str, str] = {}  # a filled lobby's game has started (or its bots come): its players move on
        for game_id, lobby in self._waiting().items():
            for holder in filter(None, lobby["seats"]):
                assert holder not in waiting, f"{holder} waits in {waiting.get(holder)} and {game_id}"
                waiting[holder] = game_id
        for player, seeker in seekers.items():
            if seeker["ends"] == 0 or seeker["ends"] > self.now:
                lobby = lobbies[seeker["g"]]
                assert lobby["seats"][seeker["s"]] == player
        for member in open_members:
            lobby = lobbies.get(member.rpartition("|")[2])
            assert lobby is None or "" in lobby["seats"], "a full lobby is open"


TestPool = PoolMachine.TestCase
TestPool.settings = settings(max_examples=100, stateful_step_count=40, deadline=None)
