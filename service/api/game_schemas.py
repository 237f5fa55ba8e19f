"""OpenAPI schemas of every registered game's views and actions, built from each game's ``info``.

A view is the common fields plus the game's own (``GameInfo.view``, and ``seat_view`` for a seat's view);
``View`` is one of the games' views, told apart by ``game``. An action is ``{"type", ...fields}``: ``Action``
lists every field any game uses, and the catalog says which type of which game takes which.
"""

from __future__ import annotations

from typing import Any

import thegame_core as tg

JSON_TYPES = {"int": "integer", "bool": "boolean", "str": "string"}

OUTCOME = {
    "type": "object",
    "description": "how the game ended",
    "properties": {
        "status": {"type": "string", "description": "the end status: won or lost (The Game), finished"},
        "reason": {"type": "string", "description": "why it ended (the catalog's outcome_reasons)"},
        "seat": {"type": "integer", "nullable": True, "description": "the seat the reason names, if any"},
        "winner": {"type": "integer", "nullable": True, "description": "competitive games: the winning seat"},
        "ranking": {"type": "array", "items": {"type": "integer"}, "description": "competitive games: best first"},
        "ratings": {
            "type": "array",
            "description": "a rated game only: each seat's player and rating before and after it",
            "items": {
                "type": "object",
                "properties": {
                    "seat": {"type": "integer"},
                    "player": {"type": "string", "nullable": True, "description": "the player's id (null: erased)"},
                    "before": {"type": "integer", "description": "the shown rating before the game"},
                    "after": {"type": "integer", "description": "the shown rating after it"},
                    "provisional": {"type": "boolean", "description": 'the rating after it is provisional ("?")'},
                },
                "required": ["seat", "player", "before", "after", "provisional"],
            },
        },
    },
    "required": ["status", "reason", "seat", "winner", "ranking"],
}

ACTION_RESULT = {
    "type": "object",
    "description": "what one action sent did",
    "properties": {
        "type": {"type": "string", "description": "the action's type"},
        "result": {
            "type": "string",
            "nullable": True,
            "description": 'the game\'s word for it (a slap: "valid", "false" or "stale"; "pending" while a '
            "collection window gathers it, slap_window_ms: the log's judge entry then says what it did); null where "
            "the game's action has none (every action of The Game and Ninja, a flip)",
        },
    },
    "required": ["type", "result"],
}

SEAT_ENTRY = {
    "seat": {"type": "integer"},
    "name": {"type": "string", "nullable": True, "description": "null while the seat is free"},
    "bot": {"type": "boolean"},
    "bot_name": {"type": "string", "nullable": True},
    "reaction_ms": {"type": "integer", "nullable": True, "description": "a bot's pace; null for a person"},
    "reaction_spread_ms": {"type": "integer", "nullable": True, "description": "a bot's spread; null for a person"},
    "deadline": {
        "type": "integer",
        "nullable": True,
        "description": "epoch ms by which this seat's owner must act (null: no deadline runs for it)",
    },
    "seconds_left": {
        "type": "number",
        "nullable": True,
        "description": "seconds to the deadline when this answer was made (the Date header says when)",
    },
    "missed_turns": {"type": "integer", "description": "deadlines missed in a row (its owner's action resets it)"},
    "autoplay": {
        "type": "boolean",
        "description": "a person's seat that a bot plays now (deadline passed, or taken over after idle_turns)",
    },
    "player": {
        "type": "string",
        "nullable": True,
        "description": "the player this seat is bound to (its public profile: GET /v1/players/{id}); null: none",
    },
}

CLOCK = {
    "type": "object",
    "description": "the clock's options (sent in the create body's options; options holds the game's own)",
    "properties": {
        "turn_seconds": {"type": "integer", "description": "0: no deadlines"},
        "idle_turns": {"type": "integer", "description": "missed deadlines in a row before a bot takes the seat over"},
    },
    "required": ["idle_turns", "turn_seconds"],
}


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def openapi30(fragment: Any) -> Any:
    """A game's JSON Schema fragment in OpenAPI 3.0's dialect: ``"type": [t, "null"]`` becomes ``"type": t`` with
    ``"nullable": true`` (and ``null`` leaves an ``enum``)."""
    if isinstance(fragment, list):
        return [openapi30(item) for item in fragment]
    if not isinstance(fragment, dict):
        return fragment
    converted = {key: openapi30(value) for key, value in fragment.items()}
    kind = converted.get("type")
    if isinstance(kind, list) and "null" in kind:
        (converted["type"],) = [name for name in kind if name != "null"]
        converted["nullable"] = True
        if "enum" in converted:
            converted["enum"] = [value for value in converted["enum"] if value is not None]
    return converted


def view_name(game: str) -> str:
    """``the-game`` -> ``TheGameView``."""
    return "".join(part.capitalize() for part in game.replace("_", "-").split("-")) + "View"


def action_schema() -> dict[str, Any]:
    """One action of any game: its type and the fields that type takes (see the catalog)."""
    types = sorted({action.type for name in tg.game_names() for action in tg.get_game(name).info.actions})
    properties: dict[str, Any] = {"type": {"type": "string", "enum": types}}
    for name in tg.game_names():
        for action in tg.get_game(name).info.actions:
            for field, kind in action.fields.items():
                properties.setdefault(field, {"type": JSON_TYPES[kind]})
    return {
        "type": "object",
        "description": "an action in the game's dict form, without seat (the token says who acts) and at (the "
        "server stamps its receive time)",
        "properties": properties,
        "required": ["type"],
    }


def game_view_schema(game: str) -> dict[str, Any]:
    """The view of ``game``: common fields, then the game's own; seat-only fields are optional."""
    info = tg.get_game(game).info
    own = openapi30(dict(info.view))
    seat_extra = own.pop("seats", {}).get("items", {}).get("properties", {})
    properties: dict[str, Any] = {
        "game_id": {"type": "string"},
        "game": {"type": "string", "enum": [game]},
        "status": {"type": "string", "description": "lobby, playing, then the game's end status"},
        "outcome": {"allOf": [ref("Outcome")], "nullable": True, "description": "null until the game ends"},
        "version": {"type": "integer", "description": "+1 per change of the game, lobby included; the ETag"},
        "options": {"type": "object", "additionalProperties": True},
        "players": {"type": "integer"},
        "seats": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {**SEAT_ENTRY, **seat_extra},
                "required": sorted({*SEAT_ENTRY, *seat_extra}),
            },
        },
        "current_seat": {"type": "integer", "nullable": True, "description": "the one seat the game needs, if one"},
        "waiting_for": {"type": "array", "items": {"type": "integer"}, "description": "seats the game waits for"},
        "clock": ref("Clock"),
        "public": {"type": "boolean", "description": "listed in the lobby list while a seat is free"},
        "spectators": {"type": "boolean", "description": "false: only seat and host tokens may read the game"},
        "rated": {"type": "boolean", "description": "a rated game: its result moves the players' ratings"},
        "rematch": {
            "type": "object",
            "nullable": True,
            "description": "null until the host asks for a rematch of the finished game",
            "properties": {
                "game_id": {"type": "string", "description": "the next game"},
                "token": {"type": "string", "description": "seat views only: this seat's token in the next game"},
            },
            "required": ["game_id"],
        },
        "seed_sha256": {
            "type": "string",
            "nullable": True,
            "description": "SHA-256 (hex) of the seed's decimal digits, from the start; null for a deck the host gave",
        },
        "seed": {
            "type": "integer",
            "format": "int64",
            "nullable": True,
            "description": "the seed that dealt the game, once it is over (a daily deal's once its day is over)",
        },
        **own,
    }
    required = sorted(properties)
    properties.update(openapi30(dict(info.seat_view)))
    properties["seat"] = {"type": "integer", "description": "seat views only"}
    properties["legal_actions"] = {
        "type": "array",
        "items": ref("Action"),
        "description": "seat views only: every action this seat may send now, as it can be sent",
    }
    properties["results"] = {
        "type": "array",
        "items": ref("ActionResult"),
        "description": "answers to actions only: what each action sent did, one entry per action, in order",
    }
    return {"type": "object", "description": f"a view of {info.title}", "properties": properties, "required": required}


def components() -> dict[str, dict[str, Any]]:
    """Every schema this module adds to the OpenAPI document."""
    names = tg.game_names()
    schemas = {view_name(name): game_view_schema(name) for name in names}
    schemas["Action"] = action_schema()
    schemas["Outcome"] = OUTCOME
    schemas["Clock"] = CLOCK
    schemas["ActionResult"] = ACTION_RESULT
    schemas["ActionBatch"] = {
        "type": "object",
        "properties": {"actions": {"type": "array", "items": ref("Action"), "minItems": 1, "maxItems": 64}},
        "required": ["actions"],
        "additionalProperties": False,  # anything beside ``actions`` makes the body one action
    }
    schemas["View"] = {
        "oneOf": [ref(view_name(name)) for name in names],
        "discriminator": {"propertyName": "game", "mapping": {name: ref(view_name(name))["$ref"] for name in names}},
    }
    return schemas
