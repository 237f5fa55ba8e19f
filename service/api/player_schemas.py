"""The players' request and answer schemas (``api/players.py``; docs/api.md, "Players")."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields
from marshmallow.validate import Length, OneOf, Range, Regexp

from ..players.index import CURSOR
from ..storage.lobby_index import DEFAULT_LIMIT, MAX_LIMIT
from .schemas import GAME_DOC, ResponseSchema, _catalog_game

NAME = Length(1, 40)
CURSOR_DOC = {"type": "string", "pattern": f"^{CURSOR.pattern}$"}
STATUSES = ("live", "finished")
KEY_DOC = "the player key: shown once, here only; send it as 'Authorization: Bearer <key>', never in a URL"


class NameSchema(ma.Schema):
    name = fields.String(required=True, validate=NAME, metadata={"description": "shown at tables and on the profile"})


class LinkRequestSchema(ma.Schema):
    code = fields.String(
        required=True,
        validate=Length(1, 20),
        metadata={"description": "the code another device of the player shows (case, spaces and dashes ignored)"},
    )


class GamesQuerySchema(ma.Schema):
    status = fields.String(validate=OneOf(STATUSES), metadata={"description": "live (lobby or playing) or finished"})
    game = fields.String(validate=_catalog_game, metadata={"description": "a game of the catalog"})
    cursor = fields.String(validate=Regexp(CURSOR), metadata={"description": "the `next` of the previous page"})
    limit = fields.Integer(load_default=DEFAULT_LIMIT, validate=Range(1, MAX_LIMIT))


class RatedGameSchema(ResponseSchema):
    game_id = fields.String()
    ended_at = fields.String(metadata={"description": "ISO 8601, UTC"})
    place = fields.Integer(metadata={"description": "1 is first"})
    seats = fields.Integer(metadata={"description": "the game's players"})
    before = fields.Integer(metadata={"description": "the shown rating before the game"})
    after = fields.Integer(metadata={"description": "the shown rating after it"})
    provisional = fields.Boolean(metadata={"description": "the rating after it is provisional"})


class GameRatingSchema(ResponseSchema):
    rating = fields.Integer(metadata={"description": "the shown rating now (1500 for a new player)"})
    provisional = fields.Boolean(metadata={"description": "still uncertain: shown with a question mark"})
    games = fields.Integer(metadata={"description": "rated games played"})
    history = fields.List(fields.Nested(RatedGameSchema), metadata={"description": "every rated game, oldest first"})


class TheGameRecordSchema(ResponseSchema):
    games = fields.Integer()
    wins = fields.Integer()
    win_rate = fields.Float(metadata={"description": "wins / games, from 0 to 1"})
    best_score = fields.Integer(allow_none=True, metadata={"description": "fewest cards left (0: a win)"})
    streak = fields.Integer(metadata={"description": "wins in a row up to the latest game"})
    best_streak = fields.Integer(metadata={"description": "the longest run of wins"})


class ProfileSchema(ResponseSchema):
    player_id = fields.String()
    name = fields.String()
    since = fields.String(metadata={"description": "when the player was made (ISO 8601, UTC)"})
    played = fields.Dict(
        keys=fields.String(), values=fields.Integer(), metadata={"description": "finished games per game"}
    )
    ratings = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(GameRatingSchema),
        metadata={"description": 'per rated game the player has played (docs/api.md, "Ratings")'},
    )
    the_game = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(TheGameRecordSchema),
        metadata={"description": 'the record in The Game per player count ("1" to "5") the player has played'},
    )


class PlayerKeySchema(ProfileSchema):
    key = fields.String(metadata={"description": KEY_DOC})
    key_id = fields.String(metadata={"description": "this key's id (GET /v1/players/me/keys; revoke it by it)"})


class LinkCodeSchema(ResponseSchema):
    code = fields.String(metadata={"description": "8 characters shown as ABCD-EFGH; single use"})
    expires_at = fields.String(metadata={"description": "ISO 8601, UTC: 10 minutes from now"})


class KeyInfoSchema(ResponseSchema):
    key_id = fields.String()
    created_at = fields.String()
    last_used_at = fields.String(metadata={"description": "to the minute"})
    this_device = fields.Boolean(metadata={"description": "the key this request was sent with"})


class KeyListSchema(ResponseSchema):
    keys = fields.List(fields.Nested(KeyInfoSchema), metadata={"description": "oldest first"})


class TableSeatSchema(ResponseSchema):
    seat = fields.Integer()
    name = fields.String(allow_none=True)
    bot = fields.Boolean()
    player = fields.String(allow_none=True, metadata={"description": "the player the seat is bound to"})


class PlayedGameSchema(ResponseSchema):
    game_id = fields.String()
    game = fields.String(metadata=GAME_DOC)
    players = fields.Integer()
    status = fields.String(metadata={"description": "lobby, playing, then the game's end status"})
    live = fields.Boolean(metadata={"description": "a lobby or a game being played: continue it"})
    created_at = fields.String()
    ended_at = fields.String(allow_none=True, metadata={"description": "null while it is live"})
    daily = fields.String(allow_none=True, metadata={"description": "a daily deal's day"})
    seats = fields.List(fields.Nested(TableSeatSchema), metadata={"description": "the table's names"})
    seat = fields.Integer(allow_none=True, metadata={"description": "the player's seat"})
    outcome = fields.Dict(allow_none=True, metadata={"description": "the game's outcome; null while it is live"})
    place = fields.Integer(
        allow_none=True, metadata={"description": "the player's place (1: first) when the game ranks its seats"}
    )


class PlayedGamesSchema(ResponseSchema):
    games = fields.List(fields.Nested(PlayedGameSchema), metadata={"description": "live ones first, newest first"})
    next = fields.String(allow_none=True, metadata={"description": "the cursor of the next page; null: no more"})
