"""The service's metrics, in the Prometheus text format (``GET /metrics``), by prometheus-client.

Under gunicorn every worker process counts for itself into files of a directory its master made
(``PROMETHEUS_MULTIPROC_DIR``, set by ``gunicorn_conf.on_starting``), and a scrape answered by any worker adds up
every process's files: the figures are the server's, not one worker's. The client chooses between files and memory
when it is imported, and gunicorn's master imports this package (to read its config) before it sets that variable:
so the client is imported, and the metrics built, only at their first use (``get``), in a worker. In one process
(``python -m service``, tests) they live in memory. Labels take bounded values only: a route's rule
(``/v1/games/<game_id>``), never its path.

The job queue (analyses, daily yardsticks: ``service/jobs.py``) is read from its Redis at each scrape (``Queue``),
as its jobs are counted there whatever process sent or ran them.
"""

from __future__ import annotations

import functools
import logging
import os
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import redis

if TYPE_CHECKING:
    from prometheus_client.metrics_core import Metric

log = logging.getLogger(__name__)

MULTIPROCESS_DIRECTORY = "PROMETHEUS_MULTIPROC_DIR"
#: Seconds: from a cache hit (about 1 ms) to a request stuck behind a busy worker.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
#: Seconds: a greedy bot's decision (microseconds) to a rollout bot's (tenths of a second).
BOT_BUCKETS = (0.0001, 0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class Metrics:
    """Every metric of the service, built once per process."""

    def __init__(self) -> None:
        from prometheus_client import Counter, Gauge, Histogram  # at first use: see the module's docstring

        self.requests = Counter(
            "tg_requests", "Requests answered, by route rule, method and status", ["route", "method", "status"]
        )
        self.latency = Histogram(
            "tg_request_seconds",
            "Time to each answer's headers (an event stream's: to its start), by route rule and method",
            ["route", "method"],
            buckets=LATENCY_BUCKETS,
        )
        self.open_streams = Gauge("tg_open_streams", "Event streams open now", multiprocess_mode="livesum")
        sent = Counter(
            "tg_stream_events",
            "Views sent on event streams, by who wrote them: the stream, or its process's fan-out to a waiting"
            " spectator's connection (fan_out)",
            ["written_by"],
        )
        self.events_sent = {writer: sent.labels(writer) for writer in ("stream", "fan_out")}
        self.spectator_waits = Counter(
            "tg_spectator_waits",
            "Changes a process's spectators' streams waited for the game's seat streams (of every process) to write,"
            " by what ended the wait: every seat stream wrote it (seats), or TG_SEATS_FIRST_MS passed (timeout)",
            ["ended_by"],
        )
        self.clock_lateness = Histogram(
            "tg_clock_lateness_seconds",
            "How late the clock's runner wrote due work (paced bots, deadlines) after its due time",
            buckets=LATENCY_BUCKETS,
        )
        self.bot_decision = Histogram(
            "tg_bot_decision_seconds",
            "Time a server-side bot took to decide, by game",
            ["game"],
            buckets=BOT_BUCKETS,
        )
        self.store_errors = Counter(
            "tg_store_errors", "Requests and event streams that Redis failed (503 store_unavailable)"
        )
        self.unconfirmed = Counter(
            "tg_unconfirmed_writes",
            "Writes that outlive a game (its end, a daily result) that the replicas did not confirm within TG_WAIT_MS",
        )
        self.refusals = Counter(
            "tg_refusals", "Typed errors answered, by code (rate_limited, too_many_streams, stale_version...)", ["code"]
        )


@functools.cache
def get() -> Metrics:
    return Metrics()


class Queue:
    """The job queue's jobs by queue and state (``tg_jobs``), read at each scrape by ``counts`` (``Jobs.counts``).
    A queue that does not answer leaves the metric out of that scrape (and logs why), not the scrape failing."""

    def __init__(self, counts: Callable[[], dict[str, dict[str, int]]]) -> None:
        self.counts = counts

    def collect(self) -> Iterator[Metric]:
        from prometheus_client.core import GaugeMetricFamily

        try:
            counts = self.counts()
        except redis.RedisError as error:
            log.warning("metrics: the job queue did not answer (%s: %s)", type(error).__name__, error)
            return
        jobs = GaugeMetricFamily("tg_jobs", "Jobs on the job queue, by queue and state", labels=["queue", "state"])
        for queue, states in counts.items():
            for state, count in states.items():
                jobs.add_metric([queue, state], count)
        yield jobs


def exposition(queue: Queue | None = None) -> tuple[bytes, str]:
    """The metrics as a scrape reads them (every process's, under gunicorn) and the job queue's, and their content
    type."""
    get()
    from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest
    from prometheus_client.multiprocess import MultiProcessCollector

    directory = os.environ.get(MULTIPROCESS_DIRECTORY)
    registry = CollectorRegistry(auto_describe=False)
    if directory is None:
        registry.register(REGISTRY)  # this process's own, in memory
    else:
        MultiProcessCollector(registry, path=directory)  # type: ignore[no-untyped-call]
    if queue is not None:
        registry.register(queue)
    return generate_latest(registry), CONTENT_TYPE_LATEST
