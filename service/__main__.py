"""``python -m service``: serve on $HOST:$PORT (default 127.0.0.1:8000); embedded store unless REDIS_URL is set.

``python -m service worker``: a worker of the job queue (analyses, daily yardsticks; ``service/jobs.py``) on the
Redis at REDIS_URL and the queue at TG_QUEUE_URL (default: REDIS_URL's), until SIGTERM or SIGINT. Start one per
core, on any machine that reaches both.
"""

from __future__ import annotations

import logging
import signal
import sys
import threading

from werkzeug.serving import WSGIRequestHandler

from . import config, create_app


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


def main() -> None:
    if sys.argv[1:] == ["worker"]:
        work()
        return
    create_app().run(host=config.host(), port=config.port(), threaded=True, request_handler=PathOnlyLog)


if __name__ == "__main__":
    main()
