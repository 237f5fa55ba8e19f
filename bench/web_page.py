"""The page's first load and its drawing of live views, measured by chromium's own timings (``performance``).

    .venv/bin/python bench/web_page.py            # --loads 10

Starts ``python -m service`` (embedded store) on a free port and loads ``/`` ``--loads`` times, each in a fresh
browser context (nothing cached): the bytes transferred (the document and every resource, compressed as sent) and
the times to ``domInteractive`` and to the lobby drawn (the ``ready`` mark, once the catalog came). The baseline, in
the same run and the same browser: ``/v1/health``, a JSON document of a few bytes, so a figure reads as the page's
own cost above a request's. Then one person plays The Game against a bot on the page, and the page's own measures
say how long each view took from its arrival on the event stream to its table drawn.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.browser.person import Person
from tests.client.live import server

LOAD = """() => {
  const [navigation] = performance.getEntriesByType("navigation");
  const resources = performance.getEntriesByType("resource");
  const ready = performance.getEntriesByName("ready")[0];
  return {
    bytes: navigation.transferSize + resources.reduce((sum, each) => sum + each.transferSize, 0),
    decoded: navigation.decodedBodySize + resources.reduce((sum, each) => sum + each.decodedBodySize, 0),
    requests: 1 + resources.length,
    interactive: navigation.domInteractive,
    ready: ready ? ready.startTime : null,
  };
}"""
DRAWN = """() => performance.getEntriesByType("measure").filter((each) => each.name.startsWith("view drawn"))
  .map((each) => [each.name, each.duration])"""


def load(browser: Browser, url: str, ready: bool) -> dict[str, Any]:
    context = browser.new_context()
    page = context.new_page()
    page.goto(url)
    if ready:
        page.wait_for_selector("body[data-ready]")
    figures: dict[str, Any] = page.evaluate(LOAD)
    context.close()
    return figures


def median(rows: list[dict[str, Any]], key: str) -> float:
    return statistics.median(row[key] for row in rows)


def draws(browser: Browser, url: str) -> list[tuple[str, float]]:
    context = browser.new_context()
    person = Person(context, url).open()
    person.create("The Game", 2, ["You", "Bot: Greedy"], {"Cards in hand": "4", "Seed": "5"})
    person.play_the_game_to_its_end()
    measured: list[tuple[str, float]] = person.page.evaluate(DRAWN)
    context.close()
    return measured


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loads", type=int, default=10)
    args = parser.parse_args()
    with sync_playwright() as playwright, server() as url:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), headless=True)
        load(browser, f"{url}/", ready=True)  # warm the server's file cache, as a running service has it
        baseline = [load(browser, f"{url}/v1/health", ready=False) for _ in range(args.loads)]
        page = [load(browser, f"{url}/", ready=True) for _ in range(args.loads)]
        measured = draws(browser, url)
        browser.close()
    print(f"first load, median of {args.loads} fresh contexts (ms from navigation start)")
    print(f"{'':22} {'bytes sent':>10} {'decoded':>8} {'requests':>8} {'interactive':>11} {'lobby drawn':>11}")
    for name, rows in (("/v1/health (baseline)", baseline), ("/ (the page)", page)):
        ready = f"{median(rows, 'ready'):11.0f}" if rows[0]["ready"] is not None else f"{'-':>11}"
        print(
            f"{name:22} {median(rows, 'bytes'):10.0f} {median(rows, 'decoded'):8.0f} {median(rows, 'requests'):8.0f}"
            f" {median(rows, 'interactive'):11.0f} {ready}"
        )
    for kind in ("view drawn", "view drawn, paced"):
        times = sorted(duration for name, duration in measured if name == kind)
        if times:
            print(
                f"{kind}: {len(times)} views, from arrival to drawn: median {statistics.median(times):.1f} ms,"
                f" 90th {times[int(len(times) * 0.9)]:.1f} ms, max {times[-1]:.1f} ms"
            )


if __name__ == "__main__":
    main()
