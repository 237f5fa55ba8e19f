"""The games resource's requests and answers (``api/games.py``): create, start, the lobby list, rematch."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields
from marshmallow.validate import Length, OneOf, Range, Regexp

from thegame_core.protocol import OptionInfo

from ..clock.options import OPTIONS as CLOCK_OPTIONS
from ..storage.lobby_index import CURSOR, DEFAULT_LIMIT, MAX_LIMIT
from .daily_schemas import DAILY_FIXED
from .game_schemas import JSON_TYPES
from .schemas import (
    _CARD_DOC,
    BOT_DOC,
    DAY_DOC,
    GAME_DOC,
    INFOS,
    PLAYERS,
    SEAT,
    ResponseSchema,
    _Card,
    _catalog_game,
    _int,
    _JsonBoolean,
)

SEED_RANGE = Range(0, 2**63 - 1)
#: The lobby list's cursor (``next``), as the document describes it.
CURSOR_DOC = {"type": "string", "pattern": "^" + CURSOR.pattern.removesuffix("\\Z") + "$"}


def _option_doc(option: OptionInfo) -> dict[str, Any]:
    doc: dict[str, Any] = {"type": JSON_TYPES[option.type]}
    if option.choices is not None:
        doc["enum"] = list(option.choices)
    doc.update({key: value for key, value in (("minimum", option.min), ("maximum", option.max)) if value is not None})
    return doc


def options_doc() -> dict[str, Any]:
    """The create body's ``options`` in the document: every option of some game (an option another game has is
    refused: the catalog lists each game's own), the clock's, and ``preset``; nothing else."""
    docs: dict[str, list[dict[str, Any]]] = {"preset": [{"type": "string"}]}
    for option in [option for info in INFOS for option in info.options] + list(CLOCK_OPTIONS):
        doc, kinds = _option_doc(option), docs.setdefault(option.name, [])
        if doc not in kinds:
            kinds.append(doc)
    properties = {name: kinds[0] if len(kinds) == 1 else {"anyOf": kinds} for name, kinds in docs.items()}
    return {"type": "object", "properties": properties, "additionalProperties": False}


class CreateGameSchema(ma.Schema):
    game = fields.String(load_default="the-game", metadata={**GAME_DOC, "description": "a game of the catalog"})
    players = _int(  # no validator: the game checks its own range, and its message names that range
        required=True,
        metadata={
            "description": "within the game's range (GET /v1/games/catalog)",
            "minimum": PLAYERS.min,
            "maximum": PLAYERS.max,
        },
    )
    options = fields.Dict(
        keys=fields.String(),
        load_default=dict,
        metadata={
            **options_doc(),
            "description": "the game's options and/or a preset (GET /v1/games/catalog: each game's own); "
            "another game's: 422",
        },
    )
    seed = _int(validate=SEED_RANGE, metadata={"description": "shuffles the deck; not with deck"})
    deck = fields.List(
        _Card(metadata=_CARD_DOC),
        validate=Length(max=200),
        metadata={"description": "the game's cards in deal/draw order (GET /v1/games/catalog: cards); not with seed"},
    )

    public = _JsonBoolean(load_default=False, metadata={"description": "listed in the lobby list (GET /v1/games)"})
    spectators = _JsonBoolean(
        load_default=True, metadata={"description": "false: only seat tokens and the host token may read the game"}
    )
    rated = _JsonBoolean(
        load_default=False,
        metadata={
            "description": "a rated game (of a game whose catalog entry says `rated: true`): each seat taken with "
            "a distinct player key, no bot, and a secret deal (no seed, no deck); its result moves the players' "
            'ratings (docs/api.md, "Ratings")'
        },
    )

    # A daily deal (docs/api.md "Daily deals"): the day's deal, started at once against bots.
    daily = fields.String(
        metadata={
            **DAY_DOC,
            "description": f"{DAY_DOC['description']}: a game on that day's deal (with `name`; never with "
            f"{', '.join(f'`{name}`' for name in sorted(DAILY_FIXED))}, which the deal fixes)",
        }
    )
    name = fields.String(validate=Length(1, 40), metadata={"description": "daily only (required): the player's name"})
    bots = fields.List(
        fields.String(validate=Length(1, 40), metadata=BOT_DOC),
        validate=Length(max=PLAYERS.max),
        metadata={"description": "daily only: the other seats' bots in seat order (The Game; default best)"},
    )

    @ma.validates_schema
    def _seed_or_deck(self, data: dict[str, Any], **kwargs: Any) -> None:
        if "seed" in data and "deck" in data:
            raise ma.ValidationError("give seed or deck, not both", "_schema")
        for name in ("seed", "deck"):  # whoever chose the deal would know it
            if data.get("rated") and name in data:
                raise ma.ValidationError("not with rated: a rated game's deal is secret from everyone", name)

    @ma.validates_schema(pass_original=True)
    def _daily_fields(self, data: dict[str, Any], original: Any, **kwargs: Any) -> None:
        """A daily game takes a name (and bots), and nothing that would change its deal, seats or readers."""
        given = set(original) if isinstance(original, dict) else set()
        if "daily" in data and "name" not in data:
            raise ma.ValidationError("a daily game needs the player's name", "name")
        wrong = given & (DAILY_FIXED if "daily" in data else {"name", "bots"})
        for name in sorted(wrong):
            raise ma.ValidationError("only with daily" if name in ("name", "bots") else "not with daily", name)


class StartRequestSchema(ma.Schema):
    first_seat = _int(validate=SEAT, metadata={"description": "default: drawn from the game's seed"})


class LobbyQuerySchema(ma.Schema):
    status = fields.String(load_default="lobby", validate=OneOf(["lobby"]))
    game = fields.String(validate=_catalog_game, metadata={"description": "a game of the catalog"})
    cursor = fields.String(
        validate=Regexp(CURSOR), metadata={"description": "the `next` of the previous page (opaque)"}
    )
    limit = fields.Integer(load_default=DEFAULT_LIMIT, validate=Range(1, MAX_LIMIT))


class GameCreatedSchema(ResponseSchema):
    """The lobby's public view (see `View`) plus the host token; a daily game's: its seat's view, started, plus the
    seat and its token."""

    OPTIONAL = ("seat", "token")

    class Meta:
        unknown = ma.INCLUDE

    game_id = fields.String()
    game = fields.String()
    status = fields.String(metadata={"description": "lobby (a daily game: playing)"})
    version = fields.Integer()
    host_token = fields.String(metadata={"description": "shown once: starts the game and seats bots"})
    seat = fields.Integer(metadata={"description": "daily only: the player's seat (the view is that seat's)"})
    token = fields.String(metadata={"description": "daily only: the player's seat token, shown once"})


class RematchSchema(ResponseSchema):
    game_id = fields.String(metadata={"description": "the new game"})
    host_token = fields.String(metadata={"description": "the new game's host token, shown once"})


class ListedLobbySchema(ResponseSchema):
    game_id = fields.String()
    game = fields.String()
    players = fields.Integer()
    free_seats = fields.List(fields.Integer(), metadata={"description": "never empty: full lobbies are not listed"})
    options = fields.Dict()
    rated = fields.Boolean(metadata={"description": "a rated game: its seats need player keys"})
    created_at = fields.String(metadata={"description": "ISO 8601, UTC, milliseconds"})


class LobbyListSchema(ResponseSchema):
    games = fields.List(fields.Nested(ListedLobbySchema), metadata={"description": "newest first"})
    next = fields.String(allow_none=True, metadata={"description": "the cursor of the next page; null: no more"})
