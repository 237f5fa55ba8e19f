"""Requests counted and timed for ``service.metrics``, and the scrape route ``GET /metrics``.

With ``TG_METRICS_PORT`` the server listens on that port too (``gunicorn_conf.bind``, ``python -m service``), and
``/metrics`` answers there alone, where nothing else does: a scraper reaches it on a port kept from the public, and
the public port answers it ``404``. The port is the one the connection came in on (its socket's own address),
never one a client names in its ``Host`` header.
"""

from __future__ import annotations

import time

from flask import Flask, Response, abort, current_app, request

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


def _local_port() -> int | None:
    """The port the request came in on: gunicorn's socket's, else the server's (werkzeug's, a test's)."""
    sock = request.environ.get("gunicorn.socket")
    if sock is None:
        return int(request.environ.get("SERVER_PORT") or 0)
    address = sock.getsockname()
    return address[1] if isinstance(address, tuple) else None  # a Unix socket has no port


def _one_port_each() -> None:
    """``/metrics`` on the metrics port alone, and nothing else there (``404``)."""
    port = current_app.config["METRICS_PORT"]
    if port is not None and (request.endpoint == "metrics") != (_local_port() == port):
        abort(404)


def scrape() -> Response:
    body, content_type = metrics.exposition(metrics.Queue(current_app.extensions["service"].jobs.counts))
    response = Response(body, content_type=content_type)
    response.headers["Cache-Control"] = "no-store"
    return response


def install(app: Flask) -> None:
    """Count every request (installed first: a request refused before its view is counted too) and serve
    ``/metrics``."""
    app.before_request(_start)
    app.before_request(_one_port_each)
    app.after_request(_count)
    app.add_url_rule("/metrics", "metrics", scrape, methods=["GET"])
