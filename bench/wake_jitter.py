"""How late this machine wakes two processes waiting for the same moment: the floor under the spreads measured here.

One change reaches the seats' streams of two server processes at the same moment; each writes once it is woken and
given a core. However the servers are written, the gap between their writes is at least the gap between their
wake-ups, which is the machine's: on two cores shared with Redis and the benchmark's own client, a process ready to
run may wait for a core. Two probe processes sleep until the same moments (every ``--period-ms``) and note when
they woke; printed: each one's lateness (woke minus asked) and the spread (the later minus the earlier, per
moment), p50 / p99 / max. Run it alone, then beside a benchmark (``bench/slap_race.py``) to see that machine's
floor under its load.

    .venv/bin/python bench/wake_jitter.py --seconds 60
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from clock_crowd import percentile


def wake_ups(start: float, period: float, count: int) -> list[float]:
    """Sleep until each of ``count`` moments ``period`` apart from ``start`` (monotonic, shared by every process);
    the time each wake-up came."""
    woke = []
    for number in range(count):
        time.sleep(max(0.0, start + number * period - time.monotonic()))
        woke.append(time.monotonic())
    return woke


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--period-ms", type=float, default=10)
    args = parser.parse_args()
    period = args.period_ms / 1000
    count = int(args.seconds / period)
    start = time.monotonic() + 0.5  # both processes started before the first moment
    with multiprocessing.Pool(2) as pool:
        first, second = pool.starmap(wake_ups, [(start, period, count)] * 2)
    asked = [start + number * period for number in range(count)]
    late = [(woke - at) * 1000 for one in (first, second) for woke, at in zip(one, asked, strict=True)]
    spread = [abs(a - b) * 1000 for a, b in zip(first, second, strict=True)]
    for name, values in (("lateness", late), ("spread of the two", spread)):
        print(
            f"{name:>18}: p50 {percentile(values, 0.5):.2f} ms, p99 {percentile(values, 0.99):.2f} ms, "
            f"max {max(values):.2f} ms ({len(values)} wake-ups)"
        )


if __name__ == "__main__":
    main()
