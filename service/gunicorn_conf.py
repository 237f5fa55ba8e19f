"""Gunicorn settings for production: ``gunicorn --config service/gunicorn_conf.py 'service:create_app()'``.

Threaded workers suit this I/O-bound service (each request is a few Redis round trips). Several
processes are safe only with a shared Redis; the embedded store lives in one process, so without
``REDIS_URL`` there is exactly one worker.
"""

from __future__ import annotations

import multiprocessing
import os

bind = f"0.0.0.0:{os.environ.get('PORT', '8000')}"
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "8"))
workers = (
    int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1)) if os.environ.get("REDIS_URL") else 1
)
timeout = 30
graceful_timeout = 10
accesslog = "-"  # the request line only: tokens travel in the Authorization header, never logged
