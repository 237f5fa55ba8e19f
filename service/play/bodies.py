"""What a change's body asks for, as the core's action dicts (without ``seat``: the token says who acts).

Readers run inside the change, at the body's place in the contract's check order (after the game, token, status
and If-Match checks), so they take the parsed document and answer ``422`` themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import marshmallow as ma

from ..errors import ApiError
from .incoming import validate

#: The most actions one request may send.
MAX_BATCH = 64
Actions = Sequence[Mapping[str, Any]]


def read_actions(document: Any) -> Actions:
    """``{"type": ...}`` is one action; ``{"actions": [...]}`` a batch. Each is the game's dict form without
    ``seat`` (the token says who acts) and ``at`` (the server stamps its receive time); the game judges the fields."""
    if isinstance(document, dict) and set(document) == {"actions"}:
        actions = document["actions"]
        if not isinstance(actions, list) or not 1 <= len(actions) <= MAX_BATCH:
            message = f"actions is a list of 1 to {MAX_BATCH} actions"
            raise ApiError("validation_error", message, {"actions": [f"1 to {MAX_BATCH} actions"]})
    else:
        actions = [document]
    for index, action in enumerate(actions):
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise ApiError("validation_error", "an action is an object with a type", {str(index): ["type missing"]})
        if "seat" in action:
            raise ApiError("validation_error", "the token says who acts", {str(index): ["leave seat out"]})
        if "at" in action:
            raise ApiError(
                "validation_error", "the server stamps when it received an action", {str(index): ["leave at out"]}
            )
    return actions


def reading(schema: ma.Schema, actions: Callable[[dict[str, Any]], Actions]) -> Callable[[Any], Actions]:
    """The reader of a route with a body of its own (The Game's first routes): the body checked by ``schema``
    (422 with field details), then turned into actions."""
    return lambda document: actions(validate(schema, document))
