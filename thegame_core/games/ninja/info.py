"""Ninja's self-description (``GameInfo``): what a client needs to build its lobby screen and send actions."""

from __future__ import annotations

from ...protocol import ActionInfo, GameInfo
from .engine import ERRORS, OUTCOME_REASONS
from .options import MAX_PLAYERS, MIN_PLAYERS, OPTIONS, PRESETS
from .views import GAME_NAME, SEAT_VIEW_SCHEMA, VIEW_SCHEMA

ACTIONS = (
    ActionInfo(
        "swap",
        "swap phase: exchange one hand card with one of your face-up cards (not of the same value)",
        {"hand_card": "int", "face_up_card": "int"},
    ),
    ActionInfo("ready", "swap phase: you are done swapping; play starts when every seat is ready"),
    ActionInfo(
        "play",
        "your turn: place count cards of value (0 = NINJA) that beat the pile (N5); the target of a give (or, with "
        "any_player_may_counter, any seat but the giver) counters with 13s or 1s; with ninja_out_of_turn, NINJA out "
        "of turn; value null (count 1): with play_from_table, turn over your next face-down card, blind",
        {"value": "int", "count": "int"},
    ),
    ActionInfo("pick_up", "your turn: take the pile, only when no group of yours is legal (N6, N11)"),
    ActionInfo(
        "give",
        "after your 13s: name the target who takes the pile or counters (N8); target left out or null declines "
        "to give (give_optional only)",
        {"target": "int"},
        optional=("target",),
    ),
    ActionInfo("accept", "you are the target of a give: take the whole pile"),
    ActionInfo(
        "complete",
        "out of turn, while a completion window is open: place the missing copies of value (N9)",
        {"value": "int"},
    ),
    ActionInfo(
        "take_face_up",
        "a refill takes fewer face-up cards than you have, of several values: take one of value (N10)",
        {"value": "int"},
    ),
)

INFO = GameInfo(
    name=GAME_NAME,
    title="Ninja",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    cooperative=False,
    cards="54 cards in deal order: four of each value 1..13 and two NINJA (0); deck[0] goes face-down to "
    "first_seat, then clockwise: three rounds face-down, three face-up, three into hands, the rest is the stock",
    options=OPTIONS,
    presets=PRESETS,
    actions=ACTIONS,
    view=VIEW_SCHEMA,
    seat_view=SEAT_VIEW_SCHEMA,
    errors=ERRORS,
    outcome_reasons=OUTCOME_REASONS,
)
