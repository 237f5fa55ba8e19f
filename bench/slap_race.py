"""Slap races over HTTP: a scripted client against a "normal" server bot of Bataille corse, on the real service.

Starts two gunicorn processes (gevent, ``service/gunicorn_conf.py``, bound to 127.0.0.1) over the Redis at
``$REDIS_URL`` (a database other than 0), as ``bench/clock_crowd.py`` does, and for each delay D of ``--delays``
plays ``--games`` games at once, each of two seats: seat 0 a scripted client, seat 1 a server bot ``best`` at the
game's default pace (the "normal" level: each reaction waits 450 ms on average after the pile changed, drawn
by the reaction model, 9 in 10 from 305 to 630 ms).

The client reads its seat's event stream; for each view it asks the core's ``best`` bot what to do with that view
(it slaps whenever a combination is on the pile, else flips on its turn) and sends it D ms after the view arrived:
a slap with the ``pile_version`` it saw and no ``If-Match``, a flip with ``If-Match`` (a flip on a pile that moved
on is refused, ``412``). A **race** is a pile version where the client saw a combination; the log says who won it
(the seat whose slap on that version is ``"valid"``). Printed per delay: races, the client's wins and share with its
95% Wilson interval; the baseline, the share the bot's pace alone gives a slap judged D ms after the change (no
stream, no network, no lateness: ``pace``); the bot's wins; the bot's lateness (applied minus due, as each
process's clock runner measured it and logged at exit: ``gunicorn_conf.worker_exit``); the client's view delay
(from the runner's write to the client's receipt); flips played; the client's answers by status (``503`` must not
occur); the machine's load average over the last minute (other work on the same cores makes everyone late).

``--spectators S`` then plays the same games one after the other, at the delay ``--watched-delay``, first alone
(the baseline), then each with S anonymous streams on it spread over both processes, and prints the same rows: the
lateness a crowd of spectators costs the bot (its lateness and the view delay count the moves due once every stream
had its first view: opening the streams is a burst of its own, as in ``bench/clock_crowd.py``). With
``--seat-streams K``, K more streams of seat 0 (its token, as K more devices of the player) on each game, spread over
both processes; those rows add one version's arrival across the seat's streams (the client's own and the K: the
latest receipt minus the earliest, p50 / p99 ms) and across the spectators' streams, and how often a spectator's
stream had a version before the last of the seat's streams: of any process, and of its own (a process's spectators
wait until every seat stream, in either process, wrote a version, ``TG_SEATS_FIRST_MS`` at most: a figure above
zero counts the versions where that time ran out, or whose events this client read from its sockets in another
order than the servers wrote them; each row also counts the servers' spectator waits by what ended them, the
seats' word or the time: ``tg_spectator_waits_total``). The same rows then give those figures as the servers wrote
the events: by the kernel's receive time of each event's bytes (``SO_TIMESTAMPNS``; on loopback, the time of the
server's write), over the K streams of the seat and the spectators' (the client's own stream, read by another
client library, has no such time). The difference between the two is this one client process, reading every
socket and the client's answers, getting round to each read: a device per seat does not pay it. The baseline row
(no spectators) gives the seat's figures too: the floor of two processes writing one change.

    REDIS_URL=redis://127.0.0.1:6379/3 .venv/bin/python bench/slap_race.py --delays 200 300 350 400 450 \\
        --games 6 --flips 300 --spectators 100 --seat-streams 3
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
import threading
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from prometheus_client.parser import text_string_to_metric_families

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

from clock_crowd import Arrivals, percentile, received, servers, spreads, steady_moves  # noqa: E402
from clock_crowd import follow as spectate  # noqa: E402
from service_setup import call, store  # noqa: E402

import thegame_core as tg  # noqa: E402
from thegame_core.bots import create_bot  # noqa: E402
from thegame_core.client.api import Api, ApiError  # noqa: E402
from thegame_core.client.stream import Backoff, follow  # noqa: E402
from thegame_core.reaction import Reaction  # noqa: E402
from thegame_core.simulate import wilson_interval  # noqa: E402

GAME = tg.get_game("bataille-corse")
#: Streams' arrivals: per stream, (version, epoch) of each event.
Streams = list[Arrivals]
CLIENT, BOT = 0, 1


@dataclass
class Racer:
    """The scripted client of one game's seat 0: acts ``delay_ms`` after each view it receives."""

    api: Api
    delay_ms: float
    races: set[int] = field(default_factory=set)  # pile versions where it saw a combination
    received: list[tuple[int, float]] = field(default_factory=list)  # (version, epoch) of each view
    statuses: Counter[int] = field(default_factory=Counter)
    sends: list[threading.Thread] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)  # sends count their answers from their threads

    def play(self) -> None:
        bot = create_bot("best", game=GAME.name, seed=0)
        with contextlib.closing(follow(self.api, Backoff())) as views:  # closed at the end: not left to the rematch
            for view, _, _ in views:
                self.received.append((view["version"], time.time()))
                if view["status"] != "playing":
                    return
                self._act(bot, view)

    def _act(self, bot: Any, view: dict[str, Any]) -> None:
        due = time.monotonic() + self.delay_ms / 1000
        for action in bot.act(GAME.observation_from_view(view, [])):
            body = {name: value for name, value in action.to_dict().items() if name != "seat"}
            if body["type"] == "slap":
                self.races.add(body["pile_version"])
            headers = {} if body["type"] == "slap" else {"If-Match": f'"{view["version"]}"'}
            self._send_at(due, body, headers)

    def _send_at(self, due: float, body: dict[str, Any], headers: dict[str, str]) -> None:
        def send() -> None:
            time.sleep(max(0.0, due - time.monotonic()))
            try:
                self.api.call("POST", "/actions", body, headers)
                status = 200
            except ApiError as error:
                status = error.status
            with self.lock:
                self.statuses[status] += 1

        thread = threading.Thread(target=send, daemon=True)
        thread.start()
        self.sends.append(thread)


def new_game(base: str, seed: int, flips: int) -> tuple[str, str]:
    """A started game: seat 0 a person (the client), seat 1 a "normal" ``best`` bot; its id and seat 0's token."""
    body = {"game": GAME.name, "players": 2, "seed": seed, "options": {"max_flips": flips}}
    created = call(f"{base}/v1/games", "POST", body)
    url = f"{base}/v1/games/{created['game_id']}"
    token = call(f"{url}/seats", "POST", {"name": "client"})["token"]
    call(f"{url}/seats", "POST", {"name": "bot", "bot": "best"}, created["host_token"])
    call(f"{url}/start", "POST", {"first_seat": seed % 2}, created["host_token"])
    return str(created["game_id"]), str(token)


def by_pace_alone(delay_ms: float) -> float:
    """The client's share if it were judged at ``delay_ms`` after the change, with no network, no stream, no
    lateness: the chance that the bot's wait, drawn by the reaction model at the seat's pace, is longer (the
    baseline of the row)."""
    pace = GAME.bot_pace
    return 1 - Reaction("bot", pace.reaction_ms, pace.spread_ms).share_within(delay_ms)


def winners(base: str, game_id: str, races: set[int]) -> Counter[str]:
    """Who won each race, by the log: ``client``, ``bot`` or ``nobody`` (no valid slap on that pile)."""
    entries = call(f"{base}/v1/games/{game_id}/log")["entries"]
    valid = {entry["pile_version"]: entry["seat"] for entry in entries if entry.get("result") == "valid"}
    names = {CLIENT: "client", BOT: "bot", None: "nobody"}
    return Counter(names[valid.get(version)] for version in races)


def share_of(flags: list[bool]) -> float:
    """The share of ``flags`` that are set (0 of none)."""
    return sum(flags) / max(1, len(flags))


@dataclass
class Row:
    label: str
    delay_ms: float
    won: Counter[str] = field(default_factory=Counter)
    statuses: Counter[int] = field(default_factory=Counter)
    lateness: list[float] = field(default_factory=list)
    view_delays: list[float] = field(default_factory=list)
    flips: int = 0
    seat_spread: list[float] = field(default_factory=list)
    crowd_spread: list[float] = field(default_factory=list)
    crowd_first: list[bool] = field(default_factory=list)  # per version: a spectator had it before the last seat
    crowd_first_here: list[bool] = field(default_factory=list)  # the same within each process
    waits: Counter[str] = field(default_factory=Counter)  # the servers' spectator waits, by what ended them
    seat_spread_sent: list[float] = field(default_factory=list)  # by the kernel's receive times (the crowd's only)
    crowd_spread_sent: list[float] = field(default_factory=list)
    crowd_first_sent: list[bool] = field(default_factory=list)

    def print(self) -> None:
        races = sum(self.won.values())
        low, high = wilson_interval(self.won["client"], races)
        share = self.won["client"] / races if races else float("nan")
        answers = " ".join(f"{status}:{count}" for status, count in sorted(self.statuses.items()))
        print(
            f"{self.label:>22} {races:>6} {self.won['client']:>6} {share:>7.1%} ({low:.1%} to {high:.1%}) "
            f"{by_pace_alone(self.delay_ms):>6.0%} "
            f"{self.won['bot']:>5} {self.won['nobody']:>4}  {percentile(self.lateness, 0.5):5.1f} / "
            f"{percentile(self.lateness, 0.99):5.1f} / {max(self.lateness, default=float('nan')):5.1f} "
            f"({len(self.lateness):>4})  {percentile(self.view_delays, 0.5):4.1f} / "
            f"{percentile(self.view_delays, 0.99):5.1f}  {self.flips:>5}  {os.getloadavg()[0]:4.1f}  {answers}"
        )
        if self.seat_spread:
            print(
                f"{'':>22} one version's arrival, p50 / p99 ms: across the seat's streams "
                f"{percentile(self.seat_spread, 0.5):.1f} / {percentile(self.seat_spread, 0.99):.1f}, across the "
                f"spectators' {percentile(self.crowd_spread, 0.5):.1f} / {percentile(self.crowd_spread, 0.99):.1f} "
                f"({len(self.crowd_spread)} versions); a spectator before the last seat stream: "
                f"{share_of(self.crowd_first):.1%}, of the same process "
                f"{share_of(self.crowd_first_here):.1%}; the servers' waits of "
                f"spectators ended by the seats' word {self.waits['seats']}, by the time {self.waits['timeout']}"
            )
            print(
                f"{'':>22} as the servers wrote them (the kernel's receive times; the seat's streams other than the "
                f"client's): across the seat's streams {percentile(self.seat_spread_sent, 0.5):.1f} / "
                f"{percentile(self.seat_spread_sent, 0.99):.1f} ({len(self.seat_spread_sent)} versions), across the "
                f"spectators' {percentile(self.crowd_spread_sent, 0.5):.1f} / "
                f"{percentile(self.crowd_spread_sent, 0.99):.1f}; a spectator before the last seat stream: "
                f"{share_of(self.crowd_first_sent):.1%}"
            )


@dataclass
class Round:
    """Games played at once, each (its id, its client); ``ready``: when every crowd stream on them had its first
    view (epoch; 0 without a crowd); ``streams``: per game and process (``None``: all), the arrivals of its seat's
    streams (the client's, on the first process, and the crowd's) and of its spectators'; ``sent``: per game, the
    kernel's receive times of the crowd's seat streams and of its spectators'."""

    games: list[tuple[str, Racer]]
    ready: float
    streams: list[dict[int | None, tuple[Streams, Streams]]]
    sent: list[tuple[Streams, Streams]]


def play_round(
    bases: list[str], delay_ms: float, seeds: list[int], flips: int, spectators: int, seat_streams: int
) -> Round:
    """One game per seed, played at once to its end, ``spectators`` anonymous streams and ``seat_streams`` of seat
    0 on each."""
    games = [new_game(bases[0], seed, flips) for seed in seeds]
    racers = [Racer(Api(bases[0], game_id, token), delay_ms) for game_id, token in games]
    threads = [threading.Thread(target=racer.play, daemon=True) for racer in racers]
    crowd = Crowd(bases, games, spectators, seat_streams)
    for thread in threads:
        thread.start()
    for thread, racer in zip(threads, racers, strict=True):
        thread.join()
        for send in racer.sends:
            send.join()
    crowd.stop()
    streams = [
        {
            server: (
                [racer.received] * (server in (None, 0)) + crowd.of(game_id, True, server),
                crowd.of(game_id, False, server),
            )
            for server in (None, *range(len(bases)))
        }
        for (game_id, _), racer in zip(games, racers, strict=True)
    ]
    sent = [(crowd.of(game_id, True, None, True), crowd.of(game_id, False, None, True)) for game_id, _ in games]
    played = [(game_id, racer) for (game_id, _), racer in zip(games, racers, strict=True)]
    return Round(played, crowd.ready(), streams, sent)


def run(
    label: str, delay_ms: float, rounds: list[list[int]], flips: int, spectators: int, seat_streams: int = 0
) -> Row:
    """Play the rounds (lists of seeds) one after the other on the same two servers, and gather the figures."""
    row = Row(label, delay_ms)
    with servers(2) as (bases, reports, _):
        played = [play_round(bases, delay_ms, seeds, flips, spectators, seat_streams) for seeds in rounds]
        games = [game for done in played for game in done.games]
        row.waits = spectator_waits(bases)
        for game_id, racer in games:
            row.won += winners(bases[0], game_id, racer.races)
            row.statuses += racer.statuses
            row.flips += call(f"{bases[0]}/v1/games/{game_id}")["flips"]
    assert len(reports) == 2, f"{len(reports)} of the 2 servers logged their counts"
    ready = {game_id: done.ready for done in played for game_id, _ in done.games}
    received = [(game_id, racer.received) for game_id, racer in games]
    row.lateness, row.view_delays = steady_moves(reports, lambda game_id: ready.get(game_id, 0.0), received)
    if seat_streams:
        for done in played:
            for servers_streams in done.streams:
                seats, crowd = servers_streams.pop(None)
                row.seat_spread += spreads(seats, done.ready)
                row.crowd_spread += spreads(crowd, done.ready)
                row.crowd_first += spectator_first(seats, crowd, done.ready)
                for seats, crowd in servers_streams.values():
                    row.crowd_first_here += spectator_first(seats, crowd, done.ready)
            for seats, crowd in done.sent:
                row.seat_spread_sent += spreads(seats, done.ready)
                row.crowd_spread_sent += spreads(crowd, done.ready)
                row.crowd_first_sent += spectator_first(seats, crowd, done.ready)
    return row


def spectator_waits(bases: list[str]) -> Counter[str]:
    """How the servers' waits of spectators for the seats' streams ended, summed (``tg_spectator_waits_total``)."""
    waits: Counter[str] = Counter()
    for base in bases:
        with urllib.request.urlopen(f"{base}/metrics", timeout=10) as answer:
            for family in text_string_to_metric_families(answer.read().decode()):
                for sample in family.samples:
                    if sample.name == "tg_spectator_waits_total":
                        waits[sample.labels["ended_by"]] += int(sample.value)
    return waits


def spectator_first(
    seats: list[list[tuple[int, float]]], crowd: list[list[tuple[int, float]]], after: float
) -> list[bool]:
    """Per version every stream received, first after ``after`` (epoch): whether a spectator's stream had it before
    the last of the seat's streams."""
    last_seat = {version: max(at) for version, at in received(seats).items()}
    first_crowd = {version: min(at) for version, at in received(crowd).items()}
    return [
        first_crowd[version] < at
        for version, at in last_seat.items()
        if version in first_crowd and first_crowd[version] > after
    ]


class Crowd:
    """``streams`` anonymous streams and ``seat_streams`` of seat 0 on each game (id, seat 0's token), spread over
    ``bases``, read in a thread of their own until ``stop``; ``arrivals``: (version, epoch) of each stream's events,
    as this process read them; ``stamps``: the same as the kernel received them."""

    def __init__(self, bases: list[str], games: list[tuple[str, str]], streams: int, seat_streams: int) -> None:
        self.loop = asyncio.new_event_loop()
        endless = time.monotonic() + 24 * 3600
        places: list[tuple[str, str | None]] = [(game, None) for game, _ in games for _ in range(streams)]
        places += [(game, token) for game, token in games for _ in range(seat_streams)]
        self.places = [(game, token, n % len(bases)) for n, (game, token) in enumerate(places)]
        self.arrivals: Streams = [[] for _ in self.places]
        self.stamps: Streams = [[] for _ in self.places]
        reads = [
            spectate(bases[server], game, endless, seen, token, sent)
            for (game, token, server), seen, sent in zip(self.places, self.arrivals, self.stamps, strict=True)
        ]

        async def every() -> None:
            await asyncio.gather(*reads)

        self.task = self.loop.create_task(every())
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        with contextlib.suppress(asyncio.CancelledError):
            self.loop.run_until_complete(self.task)

    def of(self, game_id: str, seat: bool, server: int | None, stamped: bool = False) -> Streams:
        """The arrivals of the game's seat streams, or of its spectators', on one process (``None``: on any); or,
        ``stamped``, their kernel ``stamps``."""
        places = zip(self.places, self.stamps if stamped else self.arrivals, strict=True)
        return [
            seen
            for (game, token, on), seen in places
            if game == game_id and (token is not None) == seat and server in (None, on)
        ]

    def ready(self) -> float:
        """When every stream had its first view (epoch; 0 without streams)."""
        return max((seen[0][1] for seen in self.arrivals if seen), default=0.0)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.task.cancel)
        self.thread.join()
        self.loop.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--delays", type=float, nargs="*", default=[200, 300, 350, 400, 450])
    parser.add_argument("--games", type=int, default=6, help="games played at once per delay")
    parser.add_argument("--flips", type=int, default=300, help="max_flips of each game")
    parser.add_argument("--spectators", type=int, default=100, help="streams on the watched game (0: no such run)")
    parser.add_argument("--seat-streams", type=int, default=0, help="more streams of seat 0 on each watched game")
    parser.add_argument("--watched-delay", type=float, default=300)
    parser.add_argument("--watched-flips", type=int, default=300, help="max_flips of each watched game")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    store().flushdb()
    seeds = list(range(args.seed, args.seed + args.games))
    print(
        f"{'client delay':>22} {'races':>6} {'client':>6} {'share (95% interval)':>23} {'pace':>6} {'bot':>5} "
        f"{'none':>4}  {'bot lateness p50/p99/max ms (n)':>31}  {'view p50/p99':>12}  {'flips':>5}  load  answers"
    )
    for delay in args.delays:
        run(f"{delay:g} ms", delay, [seeds], args.flips, 0).print()
    for streams in (0, args.spectators) if args.spectators else ():  # the same games unwatched: the baseline
        label = f"{args.watched_delay:g} ms, {streams} watching"
        run(
            label, args.watched_delay, [[seed] for seed in seeds], args.watched_flips, streams, args.seat_streams
        ).print()


if __name__ == "__main__":
    main()
