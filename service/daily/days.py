"""The days of daily deals, in UTC: a game may be dealt on today's deal or an earlier one, never a later one."""

from __future__ import annotations

from datetime import UTC, date, datetime

from thegame_core import InvalidSetup
from thegame_core.daily import parse_day

from ..errors import ApiError


def today(now: float) -> date:
    """The UTC day at ``now`` (epoch seconds)."""
    return datetime.fromtimestamp(now, UTC).date()


def day_of_ms(epoch_ms: int) -> date:
    return today(epoch_ms / 1000)


def requested(text: str, now: float, field: str = "daily") -> date:
    """The day a client named: ``422 validation_error`` if it is no ``YYYY-MM-DD``, ``422 daily_in_future`` if it
    is after today (its deal must stay unknown until its day)."""
    try:
        day = parse_day(text)
    except InvalidSetup as error:
        raise ApiError("validation_error", "not a day", {field: [error.message]}) from None
    if day > today(now):
        raise ApiError("daily_in_future", f"the deal of {day} opens on that day (UTC); today is {today(now)}")
    return day


def deal_hidden(day: str | None, now: float) -> bool:
    """Whether a game's deck stays secret though the game is over: a daily game's until its day is over, even to
    its own seat, who would otherwise know the deal for another game with a fresh token."""
    return day is not None and not over(day, now)


def over(day: date | str, now: float) -> bool:
    """Whether ``day`` has ended (UTC): its seed, its games and their actions may then be shown."""
    return parse_day(day) < today(now)
