"""Play now across two server processes on one real Redis: two, then twenty seekers at once, sent to either
process; nobody is seated twice, no lobby gets more players than seats, and every table fills and starts."""

from __future__ import annotations

import os
import secrets
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from servers import call, running

pytestmark = pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="two processes share a real Redis (REDIS_URL)")


@pytest.mark.parametrize(("seekers", "players"), [(2, 2), (20, 2), (20, 4)])
def test_seekers_at_once_on_two_processes_fill_whole_tables(
    monkeypatch: pytest.MonkeyPatch, seekers: int, players: int
) -> None:
    monkeypatch.setenv("TG_PAIRING_PREFIX", f"tg:{{pairing-{secrets.token_hex(6)}}}")  # a pool of this test's own
    command = [sys.executable, "-m", "service"]
    with running(command) as (first, _), running(command) as (second, _):
        ports = [first, second]
        keys = []
        for number in range(seekers):
            status, made = call(ports[number % 2], "POST", "/v1/players", {"name": f"seeker {number}"})
            assert status == 201
            keys.append((made["player_id"], made["key"]))

        def seek(number: int, expected: int = 201) -> dict[str, Any]:
            status, seated = call(
                ports[number % 2],
                "POST",
                "/v1/pairing",
                {"game": "bataille-corse", "players": players},
                keys[number][1],
            )
            assert status == expected, seated
            return seated  # type: ignore[no-any-return]

        with ThreadPoolExecutor(seekers) as pool:
            seated = list(pool.map(seek, range(seekers)))

        tables = Counter(answer["game_id"] for answer in seated)
        assert sorted(tables.values()) == [players] * (seekers // players), tables  # every table full, none over
        for game_id in tables:
            status, view = call(first, "GET", f"/v1/games/{game_id}")
            assert status == 200 and view["status"] == "playing"  # filled by pairing: started by itself
            bound = [seat["player"] for seat in view["seats"]]
            assert None not in bound and len(set(bound)) == players
            mine = {
                keys[number][0]: answer["seat"] for number, answer in enumerate(seated) if answer["game_id"] == game_id
            }
            assert {player: bound.index(player) for player in bound} == mine  # each seat is the one its answer gave
        every = [seat for answer in seated for seat in [(answer["game_id"], answer["seat"])]]
        assert len(set(every)) == seekers  # nobody seated twice, no seat given twice
        again = seek(0, 200)  # asked again: the same seat
        assert (again["game_id"], again["seat"]) == (seated[0]["game_id"], seated[0]["seat"])
