"""Ninja's bots: ``random``, ``greedy`` and ``best`` (``BOTS``: name -> factory taking a seed)."""

from __future__ import annotations

from ....protocol import BotFactory
from .basic import GreedyBot, RandomBot
from .best import BestBot

BOTS: dict[str, BotFactory] = {"random": RandomBot, "greedy": GreedyBot, "best": BestBot}

__all__ = ["BOTS", "BestBot", "GreedyBot", "RandomBot"]
