"""Gunicorn settings for production: ``gunicorn --config service/gunicorn_conf.py 'service:create_app()'``.

Threaded workers, one process per core (measured in docs/benchmarks.md: the least CPU per request,
kept-alive connections, and a slow client or Redis answer holds one thread, not a whole worker).
Several processes are safe only with a shared Redis; the embedded store lives in one process, so
without ``REDIS_URL`` there is exactly one worker. The access log costs 10 to 20% of a request's CPU:
it is off unless ``GUNICORN_ACCESS_LOG`` turns it on (``1``, ``true``, ``yes``, ``on`` or ``-``: standard
output) or names a file, as a front proxy usually keeps it.
"""

from __future__ import annotations

import multiprocessing
import os

_ON = {"1", "true", "yes", "on", "-"}
_OFF = {"", "0", "false", "no", "off"}


def access_log_target(value: str | None) -> str | None:
    """gunicorn's ``accesslog`` from ``GUNICORN_ACCESS_LOG``: a boolean (on: ``-``, standard output; off: none),
    else the path of a file."""
    text = (value or "").strip()
    if text.lower() in _ON:
        return "-"
    if text.lower() in _OFF:
        return None
    return text


bind = f"0.0.0.0:{os.environ.get('PORT', '8000')}"
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "8"))
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count())) if os.environ.get("REDIS_URL") else 1
timeout = 30
graceful_timeout = 10
# Request lines only: tokens travel in headers, never logged.
accesslog = access_log_target(os.environ.get("GUNICORN_ACCESS_LOG"))
