"""``python -m service``: serve on $HOST:$PORT (default 127.0.0.1:8000); embedded store unless REDIS_URL is set.

``python -m service worker``: a worker of the job queue (analyses, daily yardsticks; ``service/jobs.py``) on the
Redis at REDIS_URL and the queue at TG_QUEUE_URL (default: REDIS_URL's), until SIGTERM or SIGINT. Start one per
core, on any machine that reaches both.

``python -m service export --day YYYY-MM-DD --out FILE.ndjson.gz``: the games that ended that day (an export of
the store at REDIS_URL).
"""

from __future__ import annotations

import logging
import signal
import sys
import threading
import time
from collections.abc import Sequence

try:  # first: without the service extra (`pip install thegame-core` alone) this says what to install
    from . import create_app
except ModuleNotFoundError as missing:
    sys.exit(f"python -m service: {missing}")

import redis
from werkzeug.serving import WSGIRequestHandler, make_server

from . import config
from .players import export
from .storage.redis_client import redis_client


class PathOnlyLog(WSGIRequestHandler):
    """Logs each request line without its query string, which may hold an event stream's ``?token=``."""

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        path, self.path = self.path, self.path.partition("?")[0]  # what werkzeug logs
        try:
            super().log_request(code, size)
        finally:
            self.path = path


def work() -> None:
    """Run the queue's jobs until told to stop: the job under way is finished first (a second signal, or a kill,
    leaves it to the queue, which gives it to another worker)."""
    if not config.from_env()["REDIS_URL"]:
        sys.exit("python -m service worker: set REDIS_URL (the embedded store's web process runs its jobs itself)")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    jobs = create_app({"QUEUE_THREAD": False}).extensions["service"].jobs
    stop = threading.Event()
    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, lambda *_: stop.set())
    worker = jobs.worker()
    worker.start()
    logging.getLogger(__name__).info("worker of the job queue %r started", jobs.namespace)
    stop.wait()
    worker.stop()


def export_day(arguments: Sequence[str], client: redis.Redis | redis.RedisCluster) -> None:
    """The ``export`` command over ``client``: prints how many games it wrote."""
    options = export.parser().parse_args(arguments)
    count = export.write(client, options.day, options.out, time.time())
    print(f"{count} games that ended on {options.day} written to {options.out}")


def main(arguments: Sequence[str] | None = None) -> None:
    arguments = sys.argv[1:] if arguments is None else arguments
    if arguments == ["worker"]:
        work()
        return
    if arguments[:1] == ["export"]:
        settings = config.from_env()
        if not settings["REDIS_URL"]:
            sys.exit(
                "python -m service export: set REDIS_URL to the store to export (an embedded store lives and "
                "dies with its server process)"
            )
        export_day(arguments[1:], redis_client(settings))
        return
    app = create_app()
    if app.config["METRICS_PORT"] is not None:  # /metrics alone, on a port of its own (service/http/metered.py)
        scraped = make_server(config.host(), app.config["METRICS_PORT"], app, threaded=True)
        threading.Thread(target=scraped.serve_forever, name="metrics", daemon=True).start()
    app.run(host=config.host(), port=config.port(), threaded=True, request_handler=PathOnlyLog)


if __name__ == "__main__":
    main()
