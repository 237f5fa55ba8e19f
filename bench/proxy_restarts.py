"""What clients lose to the proxy while its servers restart one at a time: the ``502``s nginx answers.

Debian's nginx (``deploy/nginx.conf``, or a variant with ``--nginx-conf``) before two gunicorn servers of one worker
each over a Redis of its own, all on 127.0.0.1 (``tests/service/proxy.py``); ``--clients`` threads play 1-player
games as fast as they can (every request a change with its ``Idempotency-Key``) and ``--streams`` event streams are
open. Then each server in turn is stopped (``TERM``, its master waited for) and started again on its port, and then
each server's workers are replaced (``HUP``), a few seconds apart, as an operator rolls a deploy; last, both at once:
server 0 stopped while server 1's workers are replaced, then server 0 started again. It prints the
requests nginx answered, how many of them were ``502`` (its access log) and its failed tries at a server by kind
(its error log: refused, cut before the answer, none left to try):

    .venv/bin/python bench/proxy_restarts.py --runs 3
    sed 's/max_fails=3/max_fails=1/' deploy/nginx.conf > /tmp/one.conf
    .venv/bin/python bench/proxy_restarts.py --runs 3 --nginx-conf /tmp/one.conf
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import tempfile
import threading
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests" / "service"
sys.path[:0] = [str(ROOT), str(TESTS), str(TESTS / "storage"), str(TESTS / "http")]  # the tests' helpers, by name

from proxy import ACCESS_LOG, SHIPPED, Proxied, proxied, proxy_answers  # noqa: E402
from servers import processes_marked  # noqa: E402
from test_crashes import start_followers, watched_games  # noqa: E402
from test_faults import Traffic, wait_for  # noqa: E402

SETTLE = 3.0  # seconds between two steps of the rolling restart
#: What nginx's error log says of a failed try at a server, by what it means.
TRIES = {
    "refused": "(111: Connection refused) while connecting",
    "cut": "while reading response header from upstream",  # reset, or closed, before the answer came
    "none left": "no live upstreams",  # every server counted failed: nginx answers 502 without trying
}


def stopped(mark: str) -> bool:
    """Whether every process of the server marked ``mark`` has exited (a zombie's environment reads empty)."""
    return not processes_marked(mark)


def stop(proxy: Proxied, server: int) -> None:
    os.kill(proxy.master(server), signal.SIGTERM)
    wait_for(partial(stopped, proxy.marks[server]), 60)


def roll(proxy: Proxied) -> None:
    """Each server stopped then started again; each one's workers replaced; then both at once: one server's
    workers replaced while the other is stopped."""
    for server in (0, 1):
        stop(proxy, server)
        proxy.start(server)
        time.sleep(SETTLE)
    for server in (0, 1):
        os.kill(proxy.master(server), signal.SIGHUP)
        time.sleep(SETTLE)
    os.kill(proxy.master(0), signal.SIGTERM)
    os.kill(proxy.master(1), signal.SIGHUP)
    wait_for(partial(stopped, proxy.marks[0]), 60)
    proxy.start(0)
    time.sleep(SETTLE)


def run(directory: Path, clients: int, streams: int, config: Path) -> str:
    loose = {"TG_CREATE_RATE": "1000/1", "TG_CHANGE_RATE": "10000/1", "TG_STREAMS_PER_CLIENT": "0"}  # one address
    with proxied(directory, config, **loose) as proxy:
        traffic = Traffic(f"http://127.0.0.1:{proxy.port}")
        start_followers(traffic.base, list(watched_games(traffic, streams)))
        players = [threading.Thread(target=traffic.player) for _ in range(clients)]
        for player in players:
            player.start()
        time.sleep(SETTLE)
        began = time.monotonic()
        roll(proxy)
        seconds = time.monotonic() - began
        traffic.stop.set()
        for player in players:
            player.join(60)
    answered = len((directory / ACCESS_LOG).read_text().splitlines())
    errors = (directory / "error.log").read_text()
    tries = ", ".join(f"{errors.count(text)} {name}" for name, text in TRIES.items())
    return (
        f"{config.name}: {answered} requests through nginx, {proxy_answers(directory, 502)} answered 502 (failed "
        f"tries: {tries}); {clients} clients, {streams} streams; the roll took {seconds:.0f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=8, help="threads playing games as fast as they can")
    parser.add_argument("--streams", type=int, default=20, help="open event streams")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--nginx-conf", type=Path, default=SHIPPED, help="the proxy's configuration")
    options = parser.parse_args()
    for _ in range(options.runs):
        with tempfile.TemporaryDirectory(prefix="tg-proxy-restarts-") as directory:
            figures = run(Path(directory), options.clients, options.streams, options.nginx_conf.resolve())
            print(figures, flush=True)


if __name__ == "__main__":
    main()
