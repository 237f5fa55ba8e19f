"""Cases run by the tests in a process of their own, under gevent as in a gunicorn worker (``run_under_gevent``):
``fan-out N``, a hub's fan-out to a crowd of N parked spectators (``streams/test_fan_out_writes.py``); ``decision
SEED``, a bot's decision in a Ninja game dealt from SEED (``clock/test_clock_runner.py``). Each prints its
result as JSON. The hub uses the Redis at ``$REDIS_URL``, else fakeredis."""

from gevent import monkey

monkey.patch_all()

import json  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
import threading  # noqa: E402
from collections.abc import Callable  # noqa: E402
from contextlib import ExitStack  # noqa: E402
from typing import Any  # noqa: E402

import fakeredis  # noqa: E402
import gevent  # noqa: E402
import redis  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "streams"))
from test_seats_first import Game  # noqa: E402

import thegame_core as tg  # noqa: E402
from service.clock.bots import decide  # noqa: E402
from service.streams.hub import Hub, Read  # noqa: E402


def fan_out(crowd: int) -> list[int | str]:
    """One hub fans a change out to ``crowd`` parked spectators; a greenlet made ready by the first write stands
    for a bot that fell due. The order things happened in: the spectators' numbers, and ``\"due\"`` where that
    greenlet ran."""
    url = os.environ.get("REDIS_URL")
    server = fakeredis.FakeServer()

    def connect() -> Any:
        return redis.Redis.from_url(url) if url else fakeredis.FakeRedis(server=server)

    game = Game(connect())
    hub = Hub(connect(), game.read)
    watches = [hub.watch(game.id) for _ in range(crowd)]
    changed = game.version + 1
    order: list[int | str] = []
    done = threading.Event()

    def note(entry: int | str) -> None:
        order.append(entry)
        if len(order) == crowd + 1:
            done.set()

    def writer(number: int) -> Any:
        def write(read: Read) -> bool:
            if read.record is None or read.record.version != changed or number in order:  # nothing new to write
                return True  # (the read made when the subscription came may come after the change, and read it)
            if not order:
                gevent.spawn(note, "due")
            note(number)
            return True

        return write

    with ExitStack() as parked:
        for number, watch in enumerate(watches):
            parked.enter_context(watch.parked(writer(number)))
        game.change()
        assert done.wait(10), f"the fan-out wrote {order}"
    return order


def decision(seed: int) -> list[str]:
    """A Ninja ``best`` bot's decision (``service/clock/bots.py``, as the clock's runner, a read or a change asks
    for one) with a greenlet made ready just before: the order in which the greenlet ran and the decision ended."""
    state = tg.get_game("ninja").new_game(players=3, seed=seed, deck=None, options=None, first_seat=0)
    order: list[str] = []
    gevent.spawn(order.append, "other greenlet")
    decide("best", state, 0, seed)
    order.append("decision")
    gevent.sleep(0)
    return order


CASES: dict[str, Callable[[int], Any]] = {"fan-out": fan_out, "decision": decision}

if __name__ == "__main__":
    print(json.dumps(CASES[sys.argv[1]](int(sys.argv[2]))))
