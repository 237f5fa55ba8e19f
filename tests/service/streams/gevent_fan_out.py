"""Run by ``test_fan_out_writes.py`` in a process of its own, under gevent as in a gunicorn worker: one hub fans a
change out to a crowd of parked spectators, and a greenlet made ready by the first write stands for a bot that fell
due. Prints, as JSON, the order things happened in: the spectators' numbers, and ``"due"`` where that greenlet ran.
Uses the Redis at ``$REDIS_URL``, else fakeredis."""

from gevent import monkey

monkey.patch_all()

import json  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
import threading  # noqa: E402
from contextlib import ExitStack  # noqa: E402
from typing import Any  # noqa: E402

import fakeredis  # noqa: E402
import gevent  # noqa: E402
import redis  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))
from test_seats_first import Game  # noqa: E402

from service.streams.hub import Hub, Read  # noqa: E402


def main(crowd: int) -> None:
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
    print(json.dumps(order))


if __name__ == "__main__":
    main(int(sys.argv[1]))
