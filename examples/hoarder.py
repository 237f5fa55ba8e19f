"""Hoarder, a Ninja bot in twenty lines: the walk-through of docs/your-bot.md, played by its tests as written."""

from __future__ import annotations

from thegame_core.games.ninja import Action, Observation, Play


class Hoarder:
    """Keeps its high cards: on its turn it plays its lowest card alone; when the game waits for it otherwise (ready
    to play, a give, a refill's choice) it sends the action the game lists last; it never acts out of turn."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed  # a bot is made with a seed; this one draws nothing at random

    def act(self, observation: Observation) -> list[Action]:
        if observation.seat not in observation.waiting_for or not observation.legal:
            return []  # declining: not waited for (no completion, no out-of-turn play)
        plays = [action for action in observation.legal if type(action) is Play and action.value is not None]
        if plays:
            return [min(plays, key=lambda play: (play.value, play.count))]
        return [observation.legal[-1]]  # ready, pick-up, accept or a give come last
