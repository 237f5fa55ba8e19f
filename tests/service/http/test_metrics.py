"""``GET /metrics``: the Prometheus text format, parsed back by prometheus-client's own parser; in one process, and
added up across gunicorn's worker processes."""

from __future__ import annotations

import os
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import pytest
from flask.testing import FlaskClient
from gameclient import SORTED_DECK, error_of, started
from prometheus_client.parser import text_string_to_metric_families
from redis_cluster import available, free_node_port, redis_server
from servers import running

from service.config import from_env

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def parsed(text: str) -> Samples:
    """Every sample of a scrape: (name, labels) -> value."""
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def scrape(http: FlaskClient) -> Samples:
    response = http.get("/metrics")
    assert response.status_code == 200 and response.content_type.startswith("text/plain; version=")
    return parsed(response.get_data(as_text=True))


def test_requests_by_route_and_status_latencies_refusals_and_events(http: FlaskClient) -> None:
    game = started(http, players=1, deck=SORTED_DECK)
    before = scrape(http)
    assert game.view(0).status_code == 200
    assert error_of(game.play(0, 3, "desc1", **{"If-Match": '"0"'})) == (412, "stale_version")
    assert http.get("/no/such/path").status_code == 404
    events = http.get(f"{game.url}/events", headers={"Authorization": f"Bearer {game.tokens[0]}"}, buffered=False)
    next(events.response)  # retry:
    next(events.response)  # the current view
    after = scrape(http)
    events.close()
    route = {"route": "/v1/games/<game_id>", "method": "GET"}
    assert (
        value(after, "tg_requests_total", **route, status="200")
        - value(before, "tg_requests_total", **route, status="200")
        == 1
    )
    unmatched = {"route": "unmatched", "method": "GET", "status": "404"}
    assert value(after, "tg_requests_total", **unmatched) - value(before, "tg_requests_total", **unmatched) == 1
    count = "tg_request_seconds_count"
    assert value(after, count, **route) - value(before, count, **route) == 1
    assert (
        value(after, "tg_refusals_total", code="stale_version")
        - value(before, "tg_refusals_total", code="stale_version")
        == 1
    )
    sent = {"written_by": "stream"}  # the test client hands the app no connection to write around it
    assert value(after, "tg_stream_events_total", **sent) - value(before, "tg_stream_events_total", **sent) == 1
    assert value(after, "tg_open_streams") - value(before, "tg_open_streams") == 1
    assert value(scrape(http), "tg_open_streams") == value(before, "tg_open_streams")  # closed


GUNICORN = [sys.executable, "-m", "gunicorn", "--config", "python:service.gunicorn_conf", "service:create_app()"]


@contextmanager
def two_workers(directory: Path, **settings: str) -> Iterator[str]:
    """gunicorn with two workers over a Redis of the test's own, with ``settings`` in its environment; yields its
    URL."""
    port = free_node_port()
    with redis_server(port, directory):
        environment = {"REDIS_URL": f"redis://127.0.0.1:{port}/0", "WEB_CONCURRENCY": "2", **settings}
        with mock.patch.dict(os.environ, environment), running(GUNICORN) as (web, _):
            yield f"http://127.0.0.1:{web}"


def fetch(url: str, **headers: str) -> str:
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10) as answer:
        return str(answer.read().decode())


def status(url: str, **headers: str) -> int:
    try:
        fetch(url, **headers)
    except urllib.error.HTTPError as error:
        return error.code
    return 200


@pytest.mark.skipif(not available(), reason="TG_REDIS_SERVERS=off, or redis-server is not installed")
def test_every_scrape_adds_up_the_requests_of_every_gunicorn_worker(tmp_path: Path) -> None:
    with two_workers(tmp_path) as url:
        for _ in range(40):
            fetch(f"{url}/v1/health/live")
        live = {"route": "/v1/health/live", "method": "GET", "status": "200"}
        for _ in range(6):  # scrapes answered by either worker: each adds up both workers' counts
            assert value(parsed(fetch(f"{url}/metrics")), "tg_requests_total", **live) == 40


@pytest.mark.skipif(not available(), reason="TG_REDIS_SERVERS=off, or redis-server is not installed")
def test_a_metrics_port_answers_metrics_alone_and_the_public_port_no_longer_does(tmp_path: Path) -> None:
    port = free_node_port()
    with two_workers(tmp_path, TG_METRICS_PORT=str(port)) as url:
        private = f"http://127.0.0.1:{port}"
        for _ in range(3):
            fetch(f"{url}/v1/health/live")
        live = {"route": "/v1/health/live", "method": "GET", "status": "200"}
        assert value(parsed(fetch(f"{private}/metrics")), "tg_requests_total", **live) == 3
        assert status(f"{url}/metrics") == 404
        assert status(f"{url}/metrics", Host=f"127.0.0.1:{port}") == 404  # the port the connection came in on
        assert status(f"{private}/v1/health/live") == 404  # nothing else on the metrics port
        assert status(f"{private}/") == 404


def test_the_metrics_port_is_a_positive_integer_or_unset() -> None:
    assert from_env({})["METRICS_PORT"] is None and from_env({"TG_METRICS_PORT": " "})["METRICS_PORT"] is None
    assert from_env({"TG_METRICS_PORT": "9100"})["METRICS_PORT"] == 9100
    for wrong in ("0", "-1", "metrics"):
        with pytest.raises(ValueError, match="TG_METRICS_PORT"):
            from_env({"TG_METRICS_PORT": wrong})
