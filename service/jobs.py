"""The job queue: heavy work that does not belong in a request (analyses, the daily deal's yardstick), run by worker
processes (``python -m service worker``) that may sit on other machines.

Dramatiq over Redis, rather than a queue of our own: its broker keeps a job until a worker acknowledges it done,
heartbeats each worker, and gives the jobs of a worker that stops heartbeating (killed, its machine gone) back to
the queue (``HEARTBEAT_MS``), and retries a job that failed with backoff. Its Lua script builds key names at run time,
which a Redis Cluster cannot route: the queue needs a plain Redis (``TG_QUEUE_URL``, or ``REDIS_URL`` when that is
not a cluster; docs/api.md, "Analysis"). A job may so run twice (a worker killed just before it acknowledged): every
job here writes its result once whatever the number of runs.

``thread``: the process also runs the jobs in a thread of its own (``make run``'s embedded store, which no other
process can reach), started by the first job sent.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import dramatiq
import redis
from dramatiq.brokers.redis import MAINTENANCE_SCALE, RedisBroker
from dramatiq.middleware import Retries

#: A worker silent this long (ms) is taken for dead: its jobs go back to the queue.
HEARTBEAT_MS = 15_000
#: The share of a broker's calls that also look for dead workers: an idle worker calls about once a second.
MAINTENANCE_CHANCE = MAINTENANCE_SCALE // 10
#: A job that raised is tried again this many times, at least a second later (doubling).
RETRIES = 3


class Jobs:
    """The queue over one plain Redis client: ``actor`` declares a job and gives its sender; ``worker`` runs them."""

    def __init__(self, client: redis.Redis, namespace: str, thread: bool, heartbeat_ms: int = HEARTBEAT_MS) -> None:
        self.client, self.namespace = client, namespace
        # Retries alone of Dramatiq's middleware: its others' gevent variants fail in a gunicorn worker that imported
        # Dramatiq before gevent patched it, and none is needed (a job is bounded by its game; a stop waits for it).
        retries = Retries(max_retries=RETRIES, min_backoff=1000)
        self.broker = RedisBroker(  # type: ignore[no-untyped-call]
            client=client,
            namespace=namespace,
            middleware=[retries],
            heartbeat_timeout=heartbeat_ms,
            maintenance_chance=MAINTENANCE_CHANCE,
        )
        self.thread = thread
        self._worker: dramatiq.Worker | None = None
        self._lock = threading.Lock()

    def actor(self, name: str, run: Callable[..., None], queue: str) -> Callable[..., None]:
        """Declare the job ``name`` (``run`` does it, with JSON arguments); answers the function that queues one."""
        job = dramatiq.Actor(run, broker=self.broker, actor_name=name, queue_name=queue, priority=0, options={})

        def send(*args: Any) -> None:
            if self.thread:
                self._start_thread()
            job.send(*args)

        return send

    def counts(self) -> dict[str, dict[str, int]]:
        """Each declared queue's jobs by state, as Dramatiq keeps them in Redis (``dispatch.lua``), read in one
        transaction: ``waiting`` to be taken; ``taken`` by a worker (running, or fetched to run next: a worker
        fetches two at a time), until it acknowledges them; ``retrying``, failed and waiting for their next try
        (``RETRIES``); ``failed`` every try, kept a week in the dead-letter queue."""
        queues = sorted(self.broker.get_declared_queues())
        with self.client.pipeline(transaction=True) as pipeline:
            for queue in queues:
                name = f"{self.namespace}:{queue}"
                pipeline.llen(name)
                pipeline.hlen(f"{name}.msgs")
                pipeline.hlen(f"{name}.DQ.msgs")
                pipeline.zcard(f"{name}.XQ")
            read = [int(count) for count in pipeline.execute()]
        counts = {}
        for index, queue in enumerate(queues):
            waiting, held, retrying, failed = read[4 * index : 4 * index + 4]
            counts[queue] = {"waiting": waiting, "taken": held - waiting, "retrying": retrying, "failed": failed}
        return counts

    def worker(self) -> dramatiq.Worker:
        """A worker of every queue, one job at a time (the work is CPU: one worker process per core)."""
        return dramatiq.Worker(self.broker, worker_threads=1)

    def stop(self) -> None:
        """Stop this process's own worker thread, if started (the job under way first)."""
        with self._lock:
            worker, self._worker = self._worker, None
        if worker is not None:
            worker.stop()

    def _start_thread(self) -> None:
        with self._lock:
            if self._worker is None:
                self._worker = self.worker()
                self._worker.start()
