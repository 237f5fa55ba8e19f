"""Play now end to end under any sequence of seeks, stops, seats left from the table and waits (hypothesis, one app
on fakeredis with a clock moved by hand): the pool and the games agree seat for seat, nobody waits at two tables, no
table has more players than seats, and a table whose seats are all taken has started."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import fakeredis
from gameclient import FakeClock
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule
from pairing_client import Seeker
from werkzeug.test import TestResponse

from service import create_app

SEEKERS = 5
#: Requests a change may take while a table's bots catch up on what fell due during a long wait: each applies its
#: share, then answers 503 ``catching_up``, which a client sends again (docs/api.md).
CATCH_UP_TRIES = 50


def caught_up(send: Callable[[], TestResponse]) -> TestResponse:
    """``send()``'s answer once the game has applied what fell due, sent again after each ``catching_up``."""
    for _ in range(CATCH_UP_TRIES):
        answer = send()
        if answer.status_code != 503 or answer.get_json()["error"] != "catching_up":
            return answer
    raise AssertionError(f"still catching up after {CATCH_UP_TRIES} requests")


class Tables(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.clock = FakeClock()
        config = {"REDIS_URL": None, "REDIS_CLIENT": fakeredis.FakeRedis(), "TESTING": True, "QUEUE_THREAD": False}
        self.app = create_app({**config, "CLOCK": self.clock, "BOTS_ALONE_MS": 0})
        self.http = self.app.test_client()
        self.seekers = [Seeker(self.http, f"seeker {number}") for number in range(SEEKERS)]
        self.pool = self.app.extensions["service"].pairing.pool
        self.tables: set[str] = set()

    def teardown(self) -> None:
        self.app.extensions["service"].jobs.stop()

    @rule(who=st.integers(0, SEEKERS - 1), players=st.sampled_from([2, 3]), bots=st.sampled_from([None, 5]))
    def seek(self, who: int, players: int, bots: int | None) -> None:
        answer = self.seekers[who].seek("ninja", players, **({} if bots is None else {"bots_after_s": bots}))
        assert answer.status_code in (200, 201, 409), answer.get_json()
        if answer.status_code == 409:
            assert answer.get_json()["error"] == "already_pairing"
        else:
            self.tables.add(answer.get_json()["game_id"])

    @rule(who=st.integers(0, SEEKERS - 1))
    def stop(self, who: int) -> None:
        answer = caught_up(self.seekers[who].stop)
        assert answer.status_code == 204 or answer.get_json()["error"] == "game_started", answer.get_json()

    @rule(who=st.integers(0, SEEKERS - 1))
    def leave_the_table(self, who: int) -> None:
        """The seat left from the table (``DELETE .../seats/{seat}``), as the game page's Leave does."""
        seeker = self.seekers[who]
        game_id = self.pool.held(seeker.id, int(self.clock.now * 1000))
        if game_id is None:
            return
        view = self.http.get(f"/v1/games/{game_id}", headers=seeker.auth).get_json()
        if "seat" in view:
            url = f"/v1/games/{game_id}/seats/{view['seat']}"
            answer = caught_up(lambda: self.http.delete(url, headers=seeker.auth))
            assert answer.status_code in (204, 409), answer.get_json()

    @rule(seconds=st.sampled_from([1, 3, 61]))
    def wait(self, seconds: int) -> None:
        self.clock.advance(seconds)

    def _views(self) -> dict[str, dict[str, Any]]:
        """Every table still there, read as a client reads it (the clock's due work applied)."""
        views = {}
        for game_id in self.tables:
            answer = self.http.get(f"/v1/games/{game_id}")
            if answer.status_code == 200:
                views[game_id] = answer.get_json()
        return views

    @invariant()
    def pool_and_games_agree(self) -> None:
        views = self._views()
        client, (seekers_key, lobbies_key, _, _) = self.pool.client, self.pool.keys
        lobbies = {name.decode(): json.loads(value) for name, value in client.hgetall(lobbies_key).items()}
        seekers = {name.decode(): json.loads(value) for name, value in client.hgetall(seekers_key).items()}
        waiting_at: dict[str, str] = {}
        for game_id, view in views.items():
            bound = [seat["player"] for seat in view["seats"]]
            assert len(bound) == view["players"]
            if view["status"] == "lobby":
                assert None in bound, "a full table has not started"
                if game_id in lobbies:
                    assert bound == [holder or None for holder in lobbies[game_id]["seats"]]
                for player in filter(None, bound):
                    assert player not in waiting_at, f"{player} waits at {waiting_at.get(player)} and {game_id}"
                    waiting_at[player] = game_id
        now_ms = int(self.clock.now * 1000)
        for player, seeker in seekers.items():
            view = views.get(seeker["g"])
            if (seeker["ends"] == 0 or seeker["ends"] > now_ms) and view is not None and view["status"] == "lobby":
                assert view["seats"][seeker["s"]]["player"] == player  # the seat the answer gave


TestTables = Tables.TestCase
TestTables.settings = settings(max_examples=25, stateful_step_count=25, deadline=None)
