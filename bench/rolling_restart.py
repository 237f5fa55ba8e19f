"""A rolling restart under load with many open streams: the test's (``tests/service/test_proxy.py``, 200 streams as
issue 30 asks, a stopped worker's streams cut after 3 s) with gunicorn's settings as we ship them (its graceful
timeout, 10 s), any size (200 by default), several runs in a row.

Debian's nginx (``deploy/nginx.conf``) before two gunicorn servers of one worker each over a Redis of its own
(``deploy/redis.conf``), all on 127.0.0.1; N players each play ``--turns`` whole turns of their 1-player game while
N event streams (one per game) are followed by the bot client's ``follow``; one server is stopped (``TERM``), then
the other's workers are replaced (``HUP``). It asserts what the test does (every turn applied once, every stream
resumed with ``Last-Event-ID`` with each version once and in order, only retryable failures) and prints the requests
cut and retried, the ``502``s the proxy answered, the streams' reconnections, the longest turn (its retries included)
and the run's seconds:

    .venv/bin/python bench/rolling_restart.py --streams 200

``--nginx-conf`` runs a variant of ``deploy/nginx.conf`` instead (docs/benchmarks.md compares upstream settings so).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests" / "service"
sys.path[:0] = [str(ROOT), str(TESTS), str(TESTS / "storage"), str(TESTS / "http")]  # the tests' helpers, by name

from proxy import SHIPPED  # noqa: E402
from test_proxy import rolling_restart  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=200, help="players, and as many open event streams")
    parser.add_argument("--turns", type=int, default=12, help="whole turns each player plays")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--graceful", type=int, help="gunicorn's --graceful-timeout (default: the config's, 10 s)")
    parser.add_argument("--nginx-conf", type=Path, default=SHIPPED, help="the proxy's configuration")
    options = parser.parse_args()
    for _ in range(options.runs):
        with tempfile.TemporaryDirectory(prefix="tg-rolling-") as directory:
            figures = rolling_restart(
                Path(directory), options.streams, options.turns, options.graceful, options.nginx_conf.resolve()
            )
            print(figures, flush=True)


if __name__ == "__main__":
    main()
