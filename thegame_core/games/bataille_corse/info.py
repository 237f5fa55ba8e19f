"""Bataille corse's self-description (``GameInfo``): what a client needs to build its lobby screen and send actions."""

from __future__ import annotations

from ...protocol import ActionInfo, GameInfo
from .cards import HONOURS
from .engine import ERRORS, OUTCOME_REASONS
from .options import MAX_PLAYERS, MIN_PLAYERS, OPTIONS, PRESETS
from .views import GAME_NAME, SEAT_VIEW_SCHEMA, VIEW_SCHEMA

ACTIONS = (
    ActionInfo("flip", "your turn: turn your next card over onto the pile (C5)"),
    ActionInfo(
        "slap",
        "any time the pile is not empty, by any seat allowed to slap (C6), on turn or not: claim the pile as you saw "
        "it at pile_version; valid if a combination holds (you collect), false if none does (you pay), stale if the "
        "pile changed since (nothing happens); the log says which (result). With slap_window_ms, a slap on the "
        "current pile is pending until its window closes: the log's judge entry then says what each slap did",
        {"pile_version": "int"},
    ),
)

INFO = GameInfo(
    name=GAME_NAME,
    title="Bataille corse",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    cooperative=False,
    cards='52 card strings (54 with jokers) in deal order: rank A, 2..10, J, Q, K then suit S, H, D, C ("AS", "10H"), '
    'jokers "RJ" and "BJ"; dealt one at a time clockwise from first_seat, each packet flipped in the order dealt',
    options=OPTIONS,
    presets=PRESETS,
    actions=ACTIONS,
    view=VIEW_SCHEMA,
    seat_view=SEAT_VIEW_SCHEMA,
    errors=ERRORS,
    outcome_reasons=OUTCOME_REASONS,
    facts={"honours": HONOURS},
)
