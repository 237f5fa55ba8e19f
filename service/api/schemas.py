"""What the resources' schemas share: the catalog's ranges and names for the document, strict fields, and the
answer and error bases (each resource's own schemas are in a module beside it: ``lobby_schemas``, ``seat_schemas``…)."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields
from marshmallow.validate import Range

import thegame_core as tg

#: Every game of the catalog's self-description.
INFOS = [tg.get_game(name).info for name in tg.game_names()]
#: Players of some game of the catalog (each game checks its own range); seats are numbered from 0.
PLAYERS = Range(min(info.min_players for info in INFOS), max(info.max_players for info in INFOS))
SEAT = Range(0, PLAYERS.max - 1)
#: The games of the catalog, for the document (the requests are checked against the registry when they come).
GAME_DOC = {"type": "string", "enum": list(tg.game_names())}
#: The bots of some game of the catalog (each game has its own: GET /v1/games/catalog).
BOT_DOC = {"type": "string", "enum": sorted({bot for name in tg.game_names() for bot in tg.get_game(name).bots})}
#: A day as paths and bodies name it (the service refuses a day not yet begun: ``daily_in_future``).
DAY_DOC = {"type": "string", "format": "date", "description": "YYYY-MM-DD (UTC), today or earlier"}


def _int(**kwargs: Any) -> fields.Integer:
    """Integers only: `"3"` and `3.0` are type errors, not silently converted."""
    return fields.Integer(strict=True, **kwargs)


class _Card(fields.Field):  # type: ignore[type-arg]
    """A card of a deck: an integer (The Game, Ninja) or a short string (Bataille corse's "AS", "10H"); the game
    checks that the deck is its own."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int | str:
        if type(value) is int or (isinstance(value, str) and 1 <= len(value) <= 3):
            return value
        raise ma.ValidationError("a card is an integer or a short string")

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return value


class _JsonBoolean(fields.Boolean):
    """JSON booleans only: `"yes"`, `1` and `"true"` are type errors, not silently converted."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value


_CARD_DOC = {"oneOf": [{"type": "integer"}, {"type": "string", "minLength": 1, "maxLength": 3}]}


def _catalog_game(name: str) -> None:
    """Checked when loading: games registered after import (the tests' toy game) count too."""
    if name not in tg.game_names():
        raise ma.ValidationError(f"not a game of the catalog: {', '.join(tg.game_names())}")


class ResponseSchema(ma.Schema):
    """An answer: every field is in every answer (required in the spec, so generated clients need not
    test for it) except those named in `OPTIONAL`."""

    OPTIONAL: tuple[str, ...] = ()

    def on_bind_field(self, field_name: str, field_obj: fields.Field[Any]) -> None:
        field_obj.required = field_name not in self.OPTIONAL


class ErrorSchema(ResponseSchema):
    OPTIONAL = ("errors",)

    code = fields.Integer(metadata={"description": "the HTTP status"})
    status = fields.String(metadata={"description": "the HTTP reason phrase"})
    message = fields.String(metadata={"description": "for humans"})
    error = fields.String(metadata={"description": "stable machine code"})
    errors = fields.Dict(metadata={"description": "field details (validation errors only)"})
