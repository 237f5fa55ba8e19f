"""The Game described as plain data (``protocol.GameInfo``): the service's catalog and OpenAPI come from it."""

from __future__ import annotations

from ...protocol import ActionInfo, GameInfo
from .actions import PILES, SIGNAL_KINDS
from .options import MAX_PLAYERS, MIN_PLAYERS, OPTIONS, PRESETS

_PILE = {"type": "string", "enum": list(PILES)}
_PLAY = {
    "type": "object",
    "properties": {"card": {"type": "integer"}, "pile": _PILE},
    "required": ["card", "pile"],
}

INFO = GameInfo(
    name="the-game",
    title="The Game",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    cooperative=True,
    cards="ints 2..99; a deck is the 98 cards in draw order (the first is drawn first)",
    options=OPTIONS,
    presets=PRESETS,
    actions=(
        ActionInfo("play", "your turn: place one card from your hand on a pile", {"card": "int", "pile": "str"}),
        ActionInfo("end_turn", "your turn, once the turn's minimum is placed: draw as many cards as you placed"),
        ActionInfo(
            "signal",
            "any time while playing: ask the others not to play (dont_play) or not to jump far (no_big_jump) on a pile;"
            " clear withdraws it",
            {"pile": "str", "kind": "str", "clear": "bool"},
            optional=("clear",),
        ),
    ),
    view={
        "piles": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "id": _PILE,
                    "direction": {"type": "string", "enum": ["up", "down"]},
                    "top": {"type": "integer", "description": "the visible card; the base (1 or 100) before any"},
                },
                "required": ["id", "direction", "top"],
            },
        },
        "draw_pile": {"type": "integer", "description": "cards left to draw (a count, never their order)"},
        "placed_this_turn": {"type": "integer"},
        "required_this_turn": {"type": "integer"},
        "signals": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "seat": {"type": "integer"},
                    "pile": _PILE,
                    "kind": {"type": "string", "enum": list(SIGNAL_KINDS)},
                },
                "required": ["seat", "pile", "kind"],
            },
        },
        "score": {"type": "integer", "description": "cards not placed: every hand plus the draw pile"},
    },
    seat_view={
        "hand": {"type": "array", "items": {"type": "integer"}, "description": "ascending"},
        "legal_plays": {"type": "array", "items": _PLAY},
        "can_end_turn": {"type": "boolean"},
    },
    errors={
        "card_not_in_hand": "the card is not in the acting seat's hand",
        "illegal_play": "the card cannot be placed on that pile",
        "minimum_not_reached": "the turn cannot end before the required number of cards is placed",
        "signal_unchanged": "the signal is already shown (or, to clear, not shown): signals must change the table",
    },
    outcome_reasons={
        "all_cards_placed": "won: all 98 cards are placed",
        "minimum_unreachable": "lost: the seat on turn (outcome.seat) can no longer place the turn's minimum",
        "no_legal_play": "lost (stuck_policy try): the seat on turn has no legal play below the minimum",
    },
)
