"""CPU a request spends on its metrics (``service/http/metered.py``): one counter and one histogram updated with their
labels, in memory (one process) and in files (gunicorn's workers, ``PROMETHEUS_MULTIPROC_DIR``), and the CPU of a
scrape of the service's metrics with 60 routes' worth of series.

    python bench/metrics_cost.py [--updates 100000]

Each mode runs in a process of its own (prometheus-client picks memory or files when it is imported); the figure is
the median of 5 runs of CPU time (``time.process_time``) divided by the updates.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def child(updates: int) -> None:
    sys.path.insert(0, str(HERE))
    from service import metrics

    kept = metrics.get()
    runs = []
    for _ in range(5):
        started = time.process_time()
        for _ in range(updates):
            kept.requests.labels("/v1/games/<game_id>", "GET", "200").inc()
            kept.latency.labels("/v1/games/<game_id>", "GET").observe(0.003)
        runs.append((time.process_time() - started) / updates)
    for route in range(60):
        for status in ("200", "404", "409"):
            kept.requests.labels(f"/route/{route}", "GET", status).inc()
        kept.latency.labels(f"/route/{route}", "GET").observe(0.01)
    scrapes = []
    for _ in range(5):
        started = time.process_time()
        metrics.exposition()
        scrapes.append(time.process_time() - started)
    print(f"{statistics.median(runs) * 1e6:.2f} us per request, scrape {statistics.median(scrapes) * 1000:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--updates", type=int, default=100_000)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.child:
        child(options.updates)
        return
    command = [sys.executable, __file__, "--child", "--updates", str(options.updates)]
    environment = {key: value for key, value in os.environ.items() if key != "PROMETHEUS_MULTIPROC_DIR"}
    memory = subprocess.run(command, env=environment, capture_output=True, text=True, check=True).stdout.strip()
    print(f"in memory (one process): {memory}")
    with tempfile.TemporaryDirectory(prefix="tg-metrics-bench-") as directory:
        environment["PROMETHEUS_MULTIPROC_DIR"] = directory
        files = subprocess.run(command, env=environment, capture_output=True, text=True, check=True).stdout.strip()
    print(f"in files (gunicorn's workers): {files}")


if __name__ == "__main__":
    main()
