"""Gunicorn settings for production: ``gunicorn --config python:service.gunicorn_conf 'service:create_app()'``
(found by module name, so the command works from any directory).

gevent workers (``Worker`` below: gevent's, answering gunicorn's own errors in the contract's JSON), one process
per core this process may use (``usable_cpus``: its CPU affinity and its cgroup's CPU
quota, not the host's count, which a container or ``taskset`` may not grant): each request and each open event
stream is a greenlet, so a worker holds thousands of streams (a threaded worker would hold one thread per stream)
and a slow client or Redis answer holds one greenlet; plays and health checks cost what they cost with threads
(docs/benchmarks.md, "Live play: event streams", measured both).
Several processes are safe only with a shared Redis; the embedded store lives in one process, so
without ``REDIS_URL`` there is exactly one worker. The access log costs 10 to 20% of a request's CPU:
it is off unless ``GUNICORN_ACCESS_LOG`` turns it on (``1``, ``true``, ``yes``, ``on`` or ``-``: standard
output) or names a file, as a front proxy usually keeps it.
"""

from __future__ import annotations

import gc
import json
import math
import os
import socket
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gunicorn import util
from gunicorn.glogging import Logger
from gunicorn.workers.ggevent import GeventWorker

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


def every_interface(port: str) -> list[str]:
    """gunicorn's ``bind`` for every interface: IPv4, and IPv6 where this host has it. Where an IPv6 socket takes
    IPv4 clients too (dual-stack, Linux's default), one ``[::]`` socket serves both (an IPv4 client then arrives as
    ``::ffff:a.b.c.d``, which the limits count as its IPv4 address); where it does not, two sockets (binding both on
    a dual-stack host would refuse the second address as in use)."""
    if not socket.has_ipv6:
        return [f"0.0.0.0:{port}"]
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::", 0))
            v6_only = probe.getsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY)
    except OSError:  # IPv6 compiled in but off on this host (a container without it)
        return [f"0.0.0.0:{port}"]
    return [f"0.0.0.0:{port}", f"[::]:{port}"] if v6_only else [f"[::]:{port}"]


def cgroup_cpu_quota(root: Path = Path("/sys/fs/cgroup"), membership: Path = Path("/proc/self/cgroup")) -> int | None:
    """The CPUs that the cgroup v2 quotas (``cpu.max``: ``"<quota> <period>"`` or ``"max ..."``) of this process's
    cgroup and of its ancestors allow, rounded up; ``None`` without a quota (or without cgroup v2)."""
    try:
        lines = membership.read_text().splitlines()
    except OSError:
        return None
    group = next((line[3:] for line in lines if line.startswith("0::")), None)  # the v2 hierarchy's line
    if group is None:
        return None
    directory, quotas = root / group.lstrip("/"), []
    for folder in (directory, *directory.parents):
        try:
            quota, period = (folder / "cpu.max").read_text().split()
        except (OSError, ValueError):
            quota = "max"
        if quota != "max":
            quotas.append(math.ceil(int(quota) / int(period)))
        if folder == root:
            break
    return min(quotas, default=None)


def usable_cpus() -> int:
    """The CPUs this process may use: its affinity (``taskset``, cpusets), capped by its cgroup's CPU quota."""
    count = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    quota = cgroup_cpu_quota()
    return max(1, count if quota is None else min(count, quota))


class _Kept:
    """Stands for the client's socket while gunicorn writes its own error answer: keeps the bytes."""

    def __init__(self) -> None:
        self.data = b""

    def gettimeout(self) -> float | None:
        return None

    def setblocking(self, flag: bool) -> None:
        pass

    def sendall(self, data: bytes) -> None:
        self.data += data


class Worker(GeventWorker):  # type: ignore[misc]
    """gunicorn's gevent worker, with two changes. Its own refusals (requests it cannot read: 400, 414, 431) answer
    the contract's JSON error (``service/http/gunicorn_errors.py``) instead of an HTML page: gunicorn still decides
    the status and logs the request as it does, and its answer is rendered again. (Checking those limits in the app
    instead would need gunicorn's raised past what it allows, and a NUL in a header never reaches the app.) And an
    event stream whose write timed out (``TG_STREAM_WRITE_TIMEOUT``: its reader does not read) ends with one line
    in the log, not a traceback.

    Its error rendering is imported in the worker, after gevent patched it: the master imports this module, and with
    it only the ``service`` package's ``__init__``, which imports nothing (what the master imported would come into
    the workers unpatched: redis-py's retry pause, a ``time.sleep`` bound at import, would stop a whole worker)."""

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        from service.http.gunicorn_errors import json_error  # in the worker, after gevent patched it

        kept = _Kept()
        super().handle_error(req, kept, addr, exc)
        status = kept.data.split(b"\r\n", 1)[0].split(b" ")[1:2]
        if status and status[0].isdigit():
            try:
                util.write_nonblock(client, json_error(int(status[0])))
            except OSError:  # the client went: as gunicorn does, nothing more to say
                self.log.debug("Failed to send error message.")

    def handle_request(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> bool:
        try:
            return bool(super().handle_request(listener_name, req, sock, addr))
        except TimeoutError:
            self.log.info("event stream ended: its reader did not read for TG_STREAM_WRITE_TIMEOUT seconds")
            raise StopIteration from None  # gunicorn then closes the connection


class JsonAccessLogger(Logger):  # type: ignore[misc]
    """gunicorn's logger, writing the access log as one JSON object a line (``GUNICORN_ACCESS_LOG_FORMAT=json``),
    for log collectors that read JSON: the same facts as the text format, the path without its query string."""

    def access(self, resp: Any, req: Any, environ: dict[str, Any], request_time: Any) -> None:
        if not self.access_log_enabled:
            return
        atoms = self.atoms(resp, req, environ, request_time)
        line = {
            "time": atoms["t"].strip("[]"),
            "remote": atoms["h"],
            "method": atoms["m"],
            "path": atoms["U"],
            "protocol": atoms["H"],
            "status": int(atoms["s"]) if str(atoms["s"]).isdigit() else atoms["s"],
            "bytes": atoms["B"] or 0,
            "duration_ms": round(request_time.total_seconds() * 1000, 3),
            "user_agent": atoms["a"],
        }
        self.access_log.info(json.dumps(line))


def access_logger(value: str | None) -> type[Logger]:
    """gunicorn's ``logger_class`` from ``GUNICORN_ACCESS_LOG_FORMAT``: ``json``, or ``text`` (the default)."""
    text = (value or "text").strip().lower()
    if text not in ("json", "text"):
        raise ValueError(f"GUNICORN_ACCESS_LOG_FORMAT must be json or text, got {value!r}")
    return JsonAccessLogger if text == "json" else Logger


# The service's port, and ``TG_METRICS_PORT``'s where set: the same workers answer ``/metrics`` there alone
# (``service/http/metered.py``), so a scraper needs no port the public reaches, and the master imports nothing.
bind = every_interface(os.environ.get("PORT", "8000"))
if os.environ.get("TG_METRICS_PORT", "").strip():
    bind += every_interface(os.environ["TG_METRICS_PORT"].strip())
worker_class = Worker
worker_connections = int(os.environ.get("GUNICORN_CONNECTIONS", "10000"))  # requests and open streams per worker
workers = int(os.environ.get("WEB_CONCURRENCY", usable_cpus())) if os.environ.get("REDIS_URL") else 1
timeout = 30
graceful_timeout = 10
accesslog = access_log_target(os.environ.get("GUNICORN_ACCESS_LOG"))
# gunicorn's default format, with the path instead of the request line and without the referrer: a query string
# may hold an event stream's token (``?token=``, for browsers' EventSource), which must never be logged.
access_log_format = '%(h)s %(l)s %(u)s %(t)s "%(m)s %(U)s %(H)s" %(s)s %(b)s "%(a)s"'
logger_class = access_logger(os.environ.get("GUNICORN_ACCESS_LOG_FORMAT"))


def on_starting(server: Any) -> None:
    """Before any worker: the directory where every worker keeps its metrics (``service/metrics.py``), so that a
    scrape answered by any worker adds up all of them. ``PROMETHEUS_MULTIPROC_DIR`` names one (emptied here, as
    counts left by an earlier run would add up too); else a new temporary one."""
    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if directory is None:
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="tg-metrics-")
        return
    for stale in Path(directory).glob("*.db"):
        stale.unlink()


def child_exit(server: Any, worker: Any) -> None:
    """A worker gone: its gauges of things open now (event streams) no longer count. This is prometheus-client's
    ``multiprocess.mark_process_dead``, written out: importing the client here, in the master, would import ``ssl``
    before gevent patches it in the workers."""
    for live in Path(os.environ["PROMETHEUS_MULTIPROC_DIR"]).glob(f"gauge_live*_{worker.pid}.db"):
        live.unlink()


#: How long a thread holding the interpreter may keep it while another waits (seconds; Python's default is 5 ms).
SWITCH_INTERVAL = 0.0005


def post_worker_init(worker: Any) -> None:
    """Once a worker has loaded the app: its objects leave the garbage collector's full passes, and with gevent
    every request starts by letting the other greenlets ready to run go first (docs/benchmarks.md, "Worker tails").

    A full collection scans every object the process holds, the app's modules and schemas included, and stalls the
    whole worker meanwhile: under load they took 36 to 91 ms, several a minute per worker, and set the p99. Frozen
    (``gc.freeze``), the objects that live as long as the worker are not scanned again: 0.5 ms. (This config does not
    preload the app: with ``preload_app``, freeze in the master just before the fork instead, or the first
    collection in each worker copies every page it shares with the master.)

    A greenlet runs until it waits, and a keep-alive connection whose next request has already arrived need not
    wait: without the yield (``gevent.sleep(0)``), a few connections are served again and again while the others
    queue (32 connections on one worker, a plain WSGI answer: p99 216 ms for a median of 4 ms; with it, 28 ms).

    A bot's decision runs in a thread of its own (``service/clock/bots.py``), and the greenlets wait for the
    interpreter while it holds it: each time one wakes, up to ``sys.getswitchinterval()``. At 0.5 ms instead of 5,
    the bots of other games, while a Ninja game's ``best`` bots decided beside a crowd, were late by 5 to 7 ms p99
    instead of 14 to 17 (docs/benchmarks.md, "Issue 31, seventh pass"); a thread alone is never interrupted.
    """
    gc.collect()
    gc.freeze()
    sys.setswitchinterval(SWITCH_INTERVAL)
    worker.tg_app = worker.wsgi  # the Flask app, for worker_exit (wrapped below)
    if any(cls.__module__ == "gunicorn.workers.ggevent" for cls in type(worker).__mro__):  # however it was named
        worker.wsgi = yielding_first(worker.wsgi)


def worker_exit(server: Any, worker: Any) -> None:
    """When a worker stops: one ``tg-clock`` line on the error log with what its store and clock runner did
    (writes, rejected writes, runs, leases found taken, the time its bots' decisions took, and each change the runner
    wrote: its lateness and when), which ``bench/clock_crowd.py`` reads."""
    app = getattr(worker, "tg_app", None)
    service = None if app is None else app.extensions.get("service")
    if service is None:
        return
    counts, store = service.runner.counts, service.store
    report = {"writes": store.writes, "rejected": store.rejected, "ran": counts.ran, "lost": counts.lost}
    report |= {"bot_seconds": round(counts.busy_seconds, 3)}
    report |= {"lateness_ms": counts.lateness_ms, "applied": counts.applied}
    worker.log.info("tg-clock %s", json.dumps(report))


def yielding_first(app: Callable[..., Any]) -> Callable[..., Any]:
    """``app``, behind a WSGI wrapper that yields to the other ready greenlets before each request, and hands the
    app gunicorn's response (``start_response``'s object) at ``GUNICORN_RESPONSE``: a spectator's event stream is
    written around it (``service/http/sockets.py``)."""
    import gevent  # only in gevent workers: the service itself never needs it

    from service.http.sockets import GUNICORN_RESPONSE  # in the worker, once gevent has patched the standard library

    def fair(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        gevent.sleep(0)
        environ[GUNICORN_RESPONSE] = getattr(start_response, "__self__", None)
        return app(environ, start_response)

    return fair
