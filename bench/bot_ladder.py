"""The bots' ladder: each bot level's rating on the players' scale, from duplicate deals in the simulator.

    .venv/bin/python bench/bot_ladder.py GAME [PLAYERS] [DEALS] [--workers N] [--seed S]

Every bot of the game (``random``, ``greedy``, ``best``, and Bataille corse's ``risk`` and ``sloppy``) plays
``DEALS`` deals (default 40) at tables of ``PLAYERS`` (default 2), each deal played once per rotation of the bots
round the table (``duplicate``), every pair of levels (or, for more seats, every set of levels) meeting on the same
deals. Each finished game is rated in the order played by ``service.ratings.rate``, the code that rates people, with
each level as one player starting at 1500; the ratings stay in this process, never in the players' pool. Prints
each level's rating, its uncertainty, and games; progress on standard error.
"""

from __future__ import annotations

import argparse
import itertools

import thegame_core as tg
from service.ratings.scale import SCALE, Rating, rate
from thegame_core.progress import Progress
from thegame_core.simulate import Setup, play_records


def ladder(game: str, players: int, deals: int, workers: int, seed: int) -> dict[str, tuple[Rating, int]]:
    """Each bot's rating and games after every table of ``players`` distinct bots played ``deals`` duplicate deals."""
    bots = list(tg.get_game(game).bots)
    tables = list(itertools.combinations(bots, players))
    ratings, games = dict.fromkeys(bots, Rating()), dict.fromkeys(bots, 0)
    progress, done, total = Progress("games"), 0, len(tables) * deals * players
    for number, lineup in enumerate(tables):
        setup = Setup(game=game, players=players, bots=lineup, seed=seed + number, duplicate=True)
        for chunk in play_records(setup, deals, workers):
            for played in chunk:
                seated = setup.seat_bots(played.rotation)
                after = rate(played.ranking, [ratings[bot] for bot in seated])
                for bot, rating in zip(seated, after, strict=True):
                    ratings[bot], games[bot] = rating, games[bot] + 1
            done += len(chunk)
            progress(done, total)
    return {bot: (ratings[bot], games[bot]) for bot in sorted(bots, key=lambda bot: -ratings[bot].points)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=[name for name in tg.game_names() if not tg.get_game(name).info.cooperative])
    parser.add_argument("players", type=int, nargs="?", default=2)
    parser.add_argument("deals", type=int, nargs="?", default=40)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    if not 2 <= options.players <= len(tg.get_game(options.game).bots):
        parser.error(f"tables of 2 to {len(tg.get_game(options.game).bots)} distinct bots")
    found = ladder(options.game, options.players, options.deals, options.workers, options.seed)
    print(f"{options.game}, {options.players} players, {options.deals} duplicate deals per table, seed {options.seed}")
    print("| bot | rating | ± (30 sigma) | games |")
    print("| --- | ---: | ---: | ---: |")
    for bot, (rating, games) in found.items():
        print(f"| `{bot}` | {rating.shown}{'?' if rating.provisional else ''} | {SCALE * rating.sigma:.0f} | {games} |")


if __name__ == "__main__":
    main()
