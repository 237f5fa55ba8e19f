"""Ninja's bots: ``random``, ``greedy`` and ``best`` (``BOTS``: name -> factory taking a seed)."""

from __future__ import annotations

from ....protocol import BotFactory
from .basic import GreedyBot, RandomBot

BOTS: dict[str, BotFactory] = {"random": RandomBot, "greedy": GreedyBot}

__all__ = ["BOTS", "GreedyBot", "RandomBot"]
