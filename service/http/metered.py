"""Requests counted and timed for ``service.metrics``, and the scrape route ``GET /metrics``."""

from __future__ import annotations

import time

from flask import Flask, Response, request

from .. import metrics

_STARTED = "tg.started"  # the request's start (``time.perf_counter``), in its WSGI environ


def _start() -> None:
    request.environ[_STARTED] = time.perf_counter()


def _count(response: Response) -> Response:
    """Every answer: its route rule (``unmatched`` for a path no route has), method and status; and its latency."""
    route = request.url_rule.rule if request.url_rule is not None else "unmatched"
    metrics.get().requests.labels(route, request.method, str(response.status_code)).inc()
    started = request.environ.get(_STARTED)
    if started is not None:
        metrics.get().latency.labels(route, request.method).observe(time.perf_counter() - started)
    return response


def scrape() -> Response:
    body, content_type = metrics.exposition()
    response = Response(body, content_type=content_type)
    response.headers["Cache-Control"] = "no-store"
    return response


def install(app: Flask) -> None:
    """Count every request (installed first: a request refused before its view is counted too) and serve
    ``/metrics``."""
    app.before_request(_start)
    app.after_request(_count)
    app.add_url_rule("/metrics", "metrics", scrape, methods=["GET"])
