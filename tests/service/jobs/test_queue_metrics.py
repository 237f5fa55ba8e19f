"""``tg_jobs{queue, state}`` on ``/metrics``: the job queue as its Redis holds it, read at each scrape. Work is put on
a queue of the test's own with no worker running (it waits), then a worker of the test's own takes it: an analysis
is worked out and leaves the queue; a job that is still running counts as taken, one that failed and waits for its
next try as retrying, and one that failed every try as failed."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import dramatiq
import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from redis.backoff import NoBackoff
from redis.retry import Retry
from test_analysis_http import FAST, analysis_of, ended
from test_metrics import parsed

from service.jobs import Jobs

WAIT = 60  # seconds a worker may take to get to a job on a loaded machine before the test gives up
STATES = ("waiting", "taken", "retrying", "failed")


def jobs_of(http: FlaskClient, queue: str) -> dict[str, float]:
    """``tg_jobs`` of ``queue`` by state, as a scrape reads it."""
    samples = parsed(http.get("/metrics").get_data(as_text=True))
    return {state: samples[("tg_jobs", frozenset({("queue", queue), ("state", state)}))] for state in STATES}


def eventually(check: Callable[[], bool]) -> None:
    ends = time.monotonic() + WAIT
    while not check():
        assert time.monotonic() < ends, "the job queue never got there"
        time.sleep(0.05)


@contextmanager
def working(jobs: Jobs) -> Iterator[None]:
    """A worker of ``jobs``'s queues (one job at a time), stopped at the end."""
    worker = jobs.worker()
    worker.start()
    try:
        yield
    finally:
        worker.stop()


@pytest.fixture
def app(make_app: Callable[..., Flask], queue_client: redis.Redis) -> Iterator[Flask]:
    """An app whose jobs wait for a worker (none runs in its process); its queue's keys are removed at the end."""
    app = make_app(QUEUE_THREAD=False, **FAST)
    yield app
    namespace = app.extensions["service"].jobs.namespace
    for key in queue_client.scan_iter(f"{namespace}:*"):
        queue_client.delete(key)


def test_an_analysis_waits_on_the_queue_until_a_worker_works_it_out(app: Flask) -> None:
    http = app.test_client()
    assert jobs_of(http, "analysis") == dict.fromkeys(STATES, 0) == jobs_of(http, "daily")
    game, _ = ended(http)
    assert http.get(f"/v1/games/{game}/analysis").status_code == 202
    assert jobs_of(http, "analysis") == {"waiting": 1, "taken": 0, "retrying": 0, "failed": 0}  # its one part
    with working(app.extensions["service"].jobs):
        analysis_of(http, game)
        eventually(lambda: jobs_of(http, "analysis") == dict.fromkeys(STATES, 0))


def test_running_retrying_and_failed_jobs_are_told_apart(app: Flask) -> None:
    http, jobs = app.test_client(), app.extensions["service"].jobs
    started, release = threading.Event(), threading.Event()

    def broken() -> None:
        raise RuntimeError("a job that fails, on purpose")

    def slow() -> None:
        started.set()
        release.wait(WAIT)

    def job(run: Callable[[], None], queue: str, **options: int) -> dramatiq.Actor[[], None]:
        return dramatiq.Actor(run, broker=jobs.broker, actor_name=queue, queue_name=queue, priority=0, options=options)

    job(broken, "test-failed", max_retries=0).send()
    job(broken, "test-retrying", max_retries=1, min_backoff=60_000).send()  # its next try, a minute later
    assert jobs_of(http, "test-failed") == {"waiting": 1, "taken": 0, "retrying": 0, "failed": 0}
    with working(jobs):
        eventually(lambda: jobs_of(http, "test-failed")["failed"] == 1)
        eventually(lambda: jobs_of(http, "test-retrying")["retrying"] == 1)
        assert jobs_of(http, "test-failed") == {"waiting": 0, "taken": 0, "retrying": 0, "failed": 1}
        assert jobs_of(http, "test-retrying") == {"waiting": 0, "taken": 0, "retrying": 1, "failed": 0}

        taking = job(slow, "test-taken")
        for _ in range(3):
            taking.send()
        try:
            assert started.wait(WAIT)
            running = jobs_of(http, "test-taken")
            assert running["taken"] >= 1 and running["waiting"] + running["taken"] == 3  # one runs, one may be next
        finally:
            release.set()
        eventually(lambda: jobs_of(http, "test-taken") == dict.fromkeys(STATES, 0))


def test_a_queue_that_does_not_answer_leaves_its_metric_out_of_the_scrape(make_app: Callable[..., Flask]) -> None:
    gone = redis.Redis(port=1, retry=Retry(NoBackoff(), 0))  # nothing listens on port 1; no retries
    http = make_app(QUEUE_CLIENT=gone).test_client()
    answer = http.get("/metrics")
    assert answer.status_code == 200 and "tg_requests_total" in answer.get_data(as_text=True)
    assert "tg_jobs" not in answer.get_data(as_text=True)
