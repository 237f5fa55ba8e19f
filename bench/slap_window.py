"""What Bataille corse's collection window (``slap_window_ms``) changes for a client further away.

    python bench/slap_window.py                      # the simulation: 500 deals per case
    python bench/slap_window.py --live 120            # and 120 races per window over HTTP (needs REDIS_URL)

**Simulation.** ``best`` against ``best`` at 2 players, both at the "normal" reaction level, raced by the
simulator (``thegame_core.simulate.play_out``: the window's own code judges the slaps, each stamped with its
arrival); the "far" seat's actions arrive ``--far`` ms later. Each deal is played twice, the far seat at seat 1
then at seat 0, with the same bot seeds. Printed per window (0, 50, 100 ms): the far seat's share of the piles won
by a slap and of the games, with 95% intervals, and the same shares with no latency at all (the baseline, in the
same run: 50% give or take).

**Live.** A gunicorn server (``bench/clock_crowd.py``'s: one gevent worker of ``service/gunicorn_conf.py``,
127.0.0.1, the Redis at ``REDIS_URL``, limits off) and 2-seat games whose seats this script holds. A race: the
seat on turn flips until the pile makes a combination; then both seats slap it, each after a reaction drawn from
the same level, the far one ``--far`` ms later (its request is sent that much later), from two threads; the
winner is read from the answers (window 0) or the log's judge (the window closes by itself: the next read applies
it). Then races at a 50 ms window where both seats send their slap at the same instant. Printed per case: the far
seat's share of the races, how often the slap received first was not the slap applied first (the store's order,
what a window of 0 judges by; only a window stamps the slaps, so only its rows can tell), and the round trips.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import threading
import time
import urllib.error
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from clock_crowd import servers  # noqa: E402
from service_setup import call, store  # noqa: E402

import thegame_core as tg  # noqa: E402
from thegame_core.bots import create_bot  # noqa: E402
from thegame_core.games.bataille_corse import Judge, Slap, slappable  # noqa: E402
from thegame_core.games.bataille_corse.cards import CARD_OF  # noqa: E402
from thegame_core.reaction import reaction  # noqa: E402
from thegame_core.simulate import derive_seed, play_out, wilson_interval  # noqa: E402

WINDOWS = (0, 50, 100)


def slap_winners(state: Any) -> list[int]:
    """The seat that won each pile won by a slap, in order (a window's judge or a slap judged at once)."""
    winners = []
    for action in state.history:
        if type(action) is Slap and action.result == "valid":
            winners.append(action.seat)
        elif type(action) is Judge:
            winners += [seat for seat, result in action.results if result == "valid"]
    return winners


def simulated(window: int, far_ms: int, deals: int, seed: int) -> tuple[int, int, int, int]:
    """(piles the far seat won by a slap, piles won by a slap, games the far seat won, games)."""
    piles = far_piles = far_games = games = 0
    for deal in range(deals):
        for far in (1, 0):
            start = tg.new_game("bataille-corse", 2, seed=derive_seed(seed, deal), options={"slap_window_ms": window})
            bots = [create_bot("best", game="bataille-corse", seed=derive_seed(seed, deal, seat)) for seat in (0, 1)]
            latency = [far_ms if seat == far else 0 for seat in (0, 1)]
            race = random.Random(derive_seed(seed, deal, far, "race"))
            final = play_out(start, bots, ["best", "best"], f"deal {deal}", race, latency=latency)
            winners = slap_winners(final)
            piles += len(winners)
            far_piles += winners.count(far)
            games += 1
            far_games += final.outcome.winner == far
    return far_piles, piles, far_games, games


def share(part: int, whole: int) -> str:
    low, high = wilson_interval(part, whole)
    return f"{100 * part / whole:.1f}% ({100 * low:.1f} to {100 * high:.1f})"


def simulation(deals: int, far_ms: int, seed: int) -> None:
    print(f"simulation: best against best, normal level, {deals} deals x 2 seatings per case, far = +{far_ms} ms")
    print("| window | far seat's piles won by slap | far seat's games | baseline (+0 ms): piles | baseline: games |")
    print("|---|---|---|---|---|")
    for window in WINDOWS:
        far = simulated(window, far_ms, deals, seed)
        base = simulated(window, 0, deals, seed)
        print(
            f"| {window} ms | {share(far[0], far[1])} | {share(far[2], far[3])} | {share(base[0], base[1])} "
            f"| {share(base[2], base[3])} |",
            flush=True,
        )


# Live, over HTTP ------------------------------------------------------------------------------------------------
class Table:
    """A 2-seat game whose seats this script holds: it flips until the pile makes a combination."""

    def __init__(self, base: str, window: int, seed: int, round_trips: list[float]) -> None:
        body = {"game": "bataille-corse", "players": 2, "seed": seed, "options": {"slap_window_ms": window}}
        created = call(f"{base}/v1/games", "POST", body)
        self.url = f"{base}/v1/games/{created['game_id']}"
        self.tokens = [call(f"{self.url}/seats", "POST", {"name": f"p{seat}"})["token"] for seat in (0, 1)]
        self.view = call(f"{self.url}/start", "POST", {"first_seat": 0}, created["host_token"])
        self.options = tg.get_game("bataille-corse").resolve_options(2, {"slap_window_ms": window})
        self.round_trips = round_trips  # seconds, every slap's request (the tables of a case share one list)

    def to_combination(self) -> bool:
        """Flip until the pile makes a combination; False once the game is over."""
        while self.view["status"] == "playing":
            pile = [CARD_OF[name] for name in self.view["pile"]]
            if self.view["slap_window"] is None and pile and slappable(tuple(pile), self.options):
                return True
            seat = self.view["current_seat"]
            if seat is None:  # a window is judged when it closes: read again
                time.sleep(0.02)
                self.view = call(self.url)
                continue
            self.view = call(f"{self.url}/actions", "POST", {"type": "flip"}, self.tokens[seat])
        return False

    def race(self, delays: list[float]) -> tuple[int | None, bool]:
        """Both seats slap the pile, seat ``s`` ``delays[s]`` seconds from now: the winner, and whether the slap
        received first was applied second."""
        version = self.view["pile_version"]
        started = time.monotonic()

        def slap(seat: int) -> None:
            time.sleep(max(0.0, started + delays[seat] - time.monotonic()))
            body = {"type": "slap", "pile_version": version}
            sent = time.perf_counter()
            try:
                call(f"{self.url}/actions", "POST", body, self.tokens[seat])
            except urllib.error.HTTPError as error:  # the other slap ended the game: game_over
                if error.code != 409:
                    raise
            self.round_trips.append(time.perf_counter() - sent)

        threads = [threading.Thread(target=slap, args=(seat,)) for seat in (0, 1)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        while (view := call(self.url))["slap_window"] is not None:
            time.sleep(0.02)
        self.view = view
        entries = call(f"{self.url}/log")["entries"]
        slaps = [entry for entry in entries if entry["type"] == "slap" and entry["pile_version"] == version]
        judge = next((entry for entry in reversed(entries) if entry["type"] == "judge"), None)
        if slaps and slaps[0].get("result") == "pending" and judge is not None:
            judged = judge["results"]
            winner = next((item["seat"] for item in judged if item["result"] == "valid"), None)
            pending = [entry for entry in slaps if entry["result"] == "pending"]
            return winner, min(pending, key=lambda entry: entry["at"])["seat"] != pending[0]["seat"]
        winner = next((entry["seat"] for entry in slaps if entry["result"] == "valid"), None)
        return winner, False


def races_at(base: str, window: int, races: int, draw: Callable[[int], list[float]], seed: int) -> str:
    """``races`` races at ``window`` (``draw(far)``: each seat's delay, the far seat alternating): a table row's
    cells, the far seat's share, the inversions and the round trips."""
    rng = random.Random(seed)
    won = total = inverted = 0
    trips: list[float] = []
    table = Table(base, window, rng.randrange(2**31), trips)
    while total < races:
        if not table.to_combination():
            table = Table(base, window, rng.randrange(2**31), trips)
            continue
        far = total % 2
        winner, swapped = table.race(draw(far))
        if winner is not None:
            total += 1
            won += winner == far
            inverted += swapped
    trips.sort()
    p50, p99 = (1000 * trips[int(q * (len(trips) - 1))] for q in (0.5, 0.99))
    applied = f"{inverted} of {total}" if window else "(not stamped)"
    return f"{share(won, total)} | {applied} | {p50:.1f} / {p99:.1f} ms"


def live(races: int, far_ms: int, seed: int) -> None:
    store()  # refuses database 0
    level, rng = reaction("normal"), random.Random(seed)

    def reacting(far: int) -> list[float]:
        return [level.draw(rng) / 1000 + (far_ms / 1000 if seat == far else 0) for seat in (0, 1)]

    print(f"live: {races} races per case over HTTP, normal level, far = +{far_ms} ms")
    print("| case | far seat's races won | received first, applied second | slap round trip p50 / p99 |")
    print("|---|---|---|---|")
    with servers(1) as (bases, _, _):
        for window in WINDOWS:
            print(f"| window {window} ms | {races_at(bases[0], window, races, reacting, seed)} |", flush=True)
        at_once = races_at(bases[0], 50, races, lambda far: [0.0, 0.0], seed)
        print(f'| window 50 ms, both seats\' slaps sent at once ("far": either) | {at_once} |', flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=500, help="deals per simulated case (each played twice)")
    parser.add_argument("--far", type=int, default=80, help="how much later the far seat's slaps arrive (ms)")
    parser.add_argument("--live", type=int, default=0, help="races per window over HTTP (0: none)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"load: {os.getloadavg()[0]:.2f} (1 min)")
    simulation(args.deals, args.far, args.seed)
    if args.live:
        live(args.live, args.far, args.seed)


if __name__ == "__main__":
    main()
