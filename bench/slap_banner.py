"""How soon a Bataille corse slap's result shows over the table on both players' screens.

    REDIS_URL=redis://127.0.0.1:6379/2 .venv/bin/python bench/slap_banner.py --slaps 60

Two people, each in a Chromium context of their own (two devices), play one game on the page against the production
setup (gunicorn over the Redis at $REDIS_URL, else ``python -m service``): the seat on turn flips with its Flip
button, and a person then slaps with its Slap button, a moment later as a person would (0.3 to 0.6 s), whenever the
top cards make a combination and one time in five when they do not (a false slap: its result shows too). Measured
for each slap: from the slapper's page sending the slap (its ``fetch``) to the sentence over the table
(``.happened``) being shown on each page, in the first animation frame after it was drawn: both pages read the one
clock of this machine (``performance.timeOrigin + performance.now()``). A game that ends is followed by a new one.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.browser.person import Person
from tests.browser.sites import production
from thegame_core.games.bataille_corse import slappable
from thegame_core.games.bataille_corse.cards import CARD_OF
from thegame_core.games.bataille_corse.options import resolve_options

#: In each page from its first script: the time a slap leaves, and each sentence shown over the table.
CLOCKS = """(() => {
  const now = () => performance.timeOrigin + performance.now();
  window.banners = [];
  const send = window.fetch;
  window.fetch = function (url, init) {
    if (init?.method === "POST" && String(url).endsWith("/actions") && String(init.body).includes('"slap"')) {
      window.slapSent = now();
    }
    return send.apply(this, arguments);
  };
  let last = null;
  new MutationObserver(() => {
    const said = document.querySelector(".happened");
    if (!said || said.hidden || said.dataset.version === last) return;
    last = said.dataset.version;
    const banner = {version: Number(last), text: said.textContent};
    window.banners.push(banner);
    requestAnimationFrame(() => { banner.at = now(); });
  }).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
})()"""
OPTIONS = resolve_options(2)
FLIP = Person.FLIP
SLAP = "#table .bc-slap:not(:disabled)"


def pile(person: Person) -> tuple[int, ...]:
    """The face-up pile in ``person``'s seat view, read from the API with the seat's token."""
    names: list[str] = person.page.evaluate(
        """async (id) => {
          const token = JSON.parse(localStorage.getItem("tg.games"))[id].seatToken;
          const answer = await fetch(`/v1/games/${id}`, {headers: {Authorization: `Bearer ${token}`}});
          return (await answer.json()).pile;
        }""",
        person.game_id,
    )
    return tuple(CARD_OF[name] for name in names)


def new_game(ann: Person, bob: Person, seed: int) -> None:
    ann.open()
    ann.create("Bataille corse", 2, ["You", "A person (open seat)"], {"Seed": str(seed)})
    bob.open(f"#/game/{ann.game_id}", name="Bob")
    bob.button("Take seat 2").click()
    bob.page.wait_for_selector(".role:has-text('You play seat 2')")
    ann.button("Start").click()
    for each in (ann, bob):
        each.page.wait_for_selector("#table[data-status='playing']")
        each.page.evaluate("window.banners = []")  # the last game's versions are not this one's


def shown_after(person: Person, version: int) -> float:
    """The time the first sentence explaining a version above ``version`` was shown on ``person``'s page."""
    person.page.wait_for_function(
        "(version) => window.banners.some((each) => each.version > version && each.at)", arg=version, timeout=15000
    )
    at: float = person.page.evaluate(
        "(version) => window.banners.find((each) => each.version > version && each.at).at", version
    )
    return at


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--slaps", type=int, default=60)
    args = parser.parse_args()
    rng = random.Random(1)
    delays: list[float] = []  # ms: the later of the two screens, per slap
    each_screen: list[float] = []
    with sync_playwright() as playwright, production() as url:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), headless=True)
        people = []
        for _ in range(2):
            context = browser.new_context()
            context.add_init_script(CLOCKS)
            people.append(Person(context, url))
        ann, bob = people
        seed = 1
        new_game(ann, bob, seed)
        while len(delays) < args.slaps:
            if ann.over() or bob.over():
                seed += 1
                new_game(ann, bob, seed)
            flipper = next((each for each in people if each.page.locator(FLIP).count()), None)
            if flipper is None:  # a view on its way: the next one offers the flip
                time.sleep(0.05)
                continue
            before = flipper.version()
            flipper.page.locator(FLIP).click()
            for each in people:
                each.wait_past(before)
            valid = slappable(pile(ann), OPTIONS)
            if not valid and rng.random() >= 0.2:
                continue
            slapper = rng.choice(people)
            if not slapper.page.locator(SLAP).count():
                continue
            time.sleep(rng.uniform(0.3, 0.6))  # a person's reaction: the flip's view is drawn and seen first
            version = slapper.version()
            slapper.page.locator(SLAP).click()
            sent: float = slapper.page.evaluate("window.slapSent")
            shown = [shown_after(each, version) - sent for each in people]
            delays.append(max(shown))
            each_screen.extend(shown)
        browser.close()
    report(delays, each_screen)


def report(delays: list[float], each_screen: list[float]) -> None:
    def quantile(values: list[float], q: float) -> float:
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]

    print(f"{len(delays)} slaps: from the slap sent to its result shown over the table")
    for label, values in (("both screens (the later)", delays), ("each screen", each_screen)):
        print(
            f"  {label}: p50 {quantile(values, 0.5):.0f} ms, p99 {quantile(values, 0.99):.0f} ms, "
            f"max {max(values):.0f} ms, mean {statistics.mean(values):.0f} ms"
        )
    print(f"  within 300 ms on both: {sum(value <= 300 for value in delays)} of {len(delays)}")


if __name__ == "__main__":
    main()
