"""The servers the browser tests play on: ``python -m service`` (``tests.client.live.server``), and the production
setup, gunicorn's gevent workers over Redis, when the tests have a Redis (CI has)."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from unittest import mock

from tests.client.live import server
from tests.service.servers import queue_worker, running

GUNICORN = [sys.executable, "-m", "gunicorn", "--config", "service/gunicorn_conf.py", "service:create_app()"]
#: Keep-alives each second: a stream whose page is gone ends within a second, so gunicorn stops at once.
SETTINGS = {"TG_STREAM_KEEPALIVE": "1"}


@contextlib.contextmanager
def production() -> Iterator[str]:
    """gunicorn over the Redis at $REDIS_URL (one worker per core) and a worker of the job queue, else ``python -m
    service``; yields its URL."""
    if not os.environ.get("REDIS_URL"):
        with server() as url:
            yield url
        return
    with mock.patch.dict(os.environ, SETTINGS), running(GUNICORN) as (port, health), queue_worker():
        assert health["store"] == "redis"
        yield f"http://127.0.0.1:{port}"
