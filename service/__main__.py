"""``python -m service``: serve on $HOST:$PORT (default 127.0.0.1:8000); embedded store unless REDIS_URL is set.
``python -m service export --day YYYY-MM-DD --out FILE.ndjson.gz``: the games that ended that day (an export of
the store at REDIS_URL)."""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence

import redis
from werkzeug.serving import WSGIRequestHandler

from . import config, create_app
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


def export_day(arguments: Sequence[str], client: redis.Redis | redis.RedisCluster) -> None:
    """The ``export`` command over ``client``: prints how many games it wrote."""
    options = export.parser().parse_args(arguments)
    count = export.write(client, options.day, options.out, time.time())
    print(f"{count} games that ended on {options.day} written to {options.out}")


def main(arguments: Sequence[str] | None = None) -> None:
    arguments = sys.argv[1:] if arguments is None else arguments
    if arguments[:1] == ["export"]:
        settings = config.from_env()
        if not settings["REDIS_URL"]:
            sys.exit(
                "python -m service export: set REDIS_URL to the store to export (an embedded store lives and "
                "dies with its server process)"
            )
        export_day(arguments[1:], redis_client(settings))
        return
    create_app().run(host=config.host(), port=config.port(), threaded=True, request_handler=PathOnlyLog)


if __name__ == "__main__":
    main()
