"""Marshmallow schemas: request bodies (validated) and responses (documented in the OpenAPI spec)."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields
from marshmallow.validate import Length, OneOf, Range, Regexp

import thegame_core as tg
from thegame_core.protocol import OptionInfo

from ..clock.options import OPTIONS as CLOCK_OPTIONS
from ..storage.lobby_index import CURSOR, DEFAULT_LIMIT, MAX_LIMIT
from .game_schemas import JSON_TYPES

SEED_RANGE = Range(0, 2**63 - 1)
_INFOS = [tg.get_game(name).info for name in tg.game_names()]
#: Players of some game of the catalog (each game checks its own range); seats are numbered from 0.
PLAYERS = Range(min(info.min_players for info in _INFOS), max(info.max_players for info in _INFOS))
SEAT = Range(0, PLAYERS.max - 1)
#: The games of the catalog, for the document (the requests are checked against the registry when they come).
GAME_DOC = {"type": "string", "enum": list(tg.game_names())}
#: The bots of some game of the catalog (each game has its own: GET /v1/games/catalog).
BOT_DOC = {"type": "string", "enum": sorted({bot for name in tg.game_names() for bot in tg.get_game(name).bots})}
#: The lobby list's cursor (``next``), as the document describes it.
CURSOR_DOC = {"type": "string", "pattern": "^" + CURSOR.pattern.removesuffix("\\Z") + "$"}
#: A day as paths and bodies name it (the service refuses a day not yet begun: ``daily_in_future``).
DAY_DOC = {"type": "string", "format": "date", "description": "YYYY-MM-DD (UTC), today or earlier"}

MAX_REACTION_MS = 60_000
#: What a daily game fixes itself: its deal, options and readers.
DAILY_FIXED = {"seed", "deck", "options", "public", "spectators", "rated"}
#: The largest page of a daily deal's results, and the default.
DAILY_PAGE = 100
DAILY_MAX_OFFSET = 1_000_000


def _int(**kwargs: Any) -> fields.Integer:
    """Integers only: `"3"` and `3.0` are type errors, not silently converted."""
    return fields.Integer(strict=True, **kwargs)


class _JsonBoolean(fields.Boolean):
    """JSON booleans only: `"yes"`, `1` and `"true"` are type errors, not silently converted."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value


class _Card(fields.Field):  # type: ignore[type-arg]
    """A card of a deck: an integer (The Game, Ninja) or a short string (Bataille corse's "AS", "10H"); the game
    checks that the deck is its own."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int | str:
        if type(value) is int or (isinstance(value, str) and 1 <= len(value) <= 3):
            return value
        raise ma.ValidationError("a card is an integer or a short string")

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return value


_CARD_DOC = {"oneOf": [{"type": "integer"}, {"type": "string", "minLength": 1, "maxLength": 3}]}


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
    for option in [option for info in _INFOS for option in info.options] + list(CLOCK_OPTIONS):
        doc, kinds = _option_doc(option), docs.setdefault(option.name, [])
        if doc not in kinds:
            kinds.append(doc)
    properties = {name: kinds[0] if len(kinds) == 1 else {"anyOf": kinds} for name, kinds in docs.items()}
    return {"type": "object", "properties": properties, "additionalProperties": False}


def _pile(**kwargs: Any) -> fields.String:
    return fields.String(
        validate=OneOf(tg.PILES), metadata={"description": "asc1, asc2 (up), desc1, desc2 (down)"}, **kwargs
    )


# Requests -----------------------------------------------------------------------------------
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


class SeatRequestSchema(ma.Schema):
    name = fields.String(required=True, validate=Length(1, 40))
    seat = _int(validate=SEAT, metadata={"description": "default: the lowest free seat"})
    bot = fields.String(
        validate=Length(1, 40),
        metadata={
            **BOT_DOC,
            "description": "host only: seat a server-side bot (the game's own: GET /v1/games/catalog)",
        },
    )
    reaction_ms = _int(
        validate=Range(0, MAX_REACTION_MS),
        metadata={
            "description": "a bot's pace: on average it acts this long after what it reacts to changed "
            "(default: the game's)"
        },
    )
    reaction_spread_ms = _int(
        validate=Range(0, MAX_REACTION_MS),
        metadata={
            "description": "a bot's spread: the standard deviation of its waits, drawn log-normal around "
            "reaction_ms from the game's seed (default: the game's; 0: exactly reaction_ms)"
        },
    )

    @ma.validates_schema
    def _pace_of_a_bot(self, data: dict[str, Any], **kwargs: Any) -> None:
        for name in ("reaction_ms", "reaction_spread_ms"):
            if name in data and "bot" not in data:
                raise ma.ValidationError("only a bot seat has a pace", name)


class StartRequestSchema(ma.Schema):
    first_seat = _int(validate=SEAT, metadata={"description": "default: drawn from the game's seed"})


def _catalog_game(name: str) -> None:
    """Checked when loading: games registered after import (the tests' toy game) count too."""
    if name not in tg.game_names():
        raise ma.ValidationError(f"not a game of the catalog: {', '.join(tg.game_names())}")


class LobbyQuerySchema(ma.Schema):
    status = fields.String(load_default="lobby", validate=OneOf(["lobby"]))
    game = fields.String(validate=_catalog_game, metadata={"description": "a game of the catalog"})
    cursor = fields.String(
        validate=Regexp(CURSOR), metadata={"description": "the `next` of the previous page (opaque)"}
    )
    limit = fields.Integer(load_default=DEFAULT_LIMIT, validate=Range(1, MAX_LIMIT))


class PlaySchema(ma.Schema):
    card = _int(required=True, validate=Range(2, 99))
    pile = _pile(required=True)


class TurnSchema(ma.Schema):
    plays = fields.List(fields.Nested(PlaySchema), load_default=list, validate=Length(max=tg.MAX_HAND_SIZE))
    end_turn = fields.Boolean(load_default=True)

    @ma.validates_schema
    def _not_empty(self, data: dict[str, Any], **kwargs: Any) -> None:
        if not data["plays"] and not data["end_turn"]:
            raise ma.ValidationError("a turn needs plays or end_turn", "_schema")


class EmptySchema(ma.Schema):
    """No fields: an empty body or `{}`."""


class SignalSchema(ma.Schema):
    pile = _pile(required=True)
    kind = fields.String(required=True, validate=OneOf(tg.SIGNAL_KINDS))
    clear = fields.Boolean(load_default=False)


# Responses (documentation) ----------------------------------------------------------------
class ResponseSchema(ma.Schema):
    """An answer: every field is in every answer (required in the spec, so generated clients need not
    test for it) except those named in `OPTIONAL`."""

    OPTIONAL: tuple[str, ...] = ()

    def on_bind_field(self, field_name: str, field_obj: fields.Field[Any]) -> None:
        field_obj.required = field_name not in self.OPTIONAL


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


class DailyYardstickSchema(ResponseSchema):
    cards_left = fields.Integer(metadata={"description": "The Game: the team's; a competitive game: the player's"})
    turns = fields.Integer()
    place = fields.Integer(allow_none=True, metadata={"description": "1: won; null in The Game"})


class DailyResultSchema(DailyYardstickSchema):
    rank = fields.Integer(metadata={"description": "1 + the results better than this one (equal ones share it)"})
    name = fields.String()
    team = fields.List(fields.String(), metadata={"description": "the bots of the other seats"})
    game_id = fields.String(allow_none=True, metadata={"description": "null until the deal's day is over"})


class DailyBoardSchema(ResponseSchema):
    game = fields.String()
    players = fields.Integer()
    date = fields.String(metadata={"description": "YYYY-MM-DD, UTC"})
    over = fields.Boolean(metadata={"description": "the day has ended: seed and game ids are shown"})
    seed = fields.Integer(allow_none=True, metadata={"description": "the deal's seed, null until the day is over"})
    seed_sha256 = fields.String(metadata={"description": "SHA-256 (hex) of the seed's decimal digits, shown at once"})
    count = fields.Integer(metadata={"description": "results on this deal (players)"})
    bots = fields.Nested(
        DailyYardstickSchema, allow_none=True, metadata={"description": "best at every seat; null while computed"}
    )
    results = fields.List(fields.Nested(DailyResultSchema), metadata={"description": "best first"})
    next = fields.Integer(allow_none=True, metadata={"description": "the next page's offset; null: no more"})


class DailyRankSchema(DailyResultSchema):
    game = fields.String()
    players = fields.Integer()
    date = fields.String()
    count = fields.Integer()


class DailyQuerySchema(ma.Schema):
    offset = fields.Integer(load_default=0, validate=Range(0, DAILY_MAX_OFFSET))
    limit = fields.Integer(load_default=DAILY_PAGE, validate=Range(1, DAILY_PAGE))


class RematchSchema(ResponseSchema):
    game_id = fields.String(metadata={"description": "the new game"})
    host_token = fields.String(metadata={"description": "the new game's host token, shown once"})


class SeatTakenSchema(ResponseSchema):
    game_id = fields.String()
    seat = fields.Integer()
    name = fields.String()
    bot = fields.Boolean()
    bot_name = fields.String(allow_none=True)
    reaction_ms = fields.Integer(allow_none=True, metadata={"description": "a bot's pace; null for a person"})
    reaction_spread_ms = fields.Integer(allow_none=True, metadata={"description": "a bot's spread; null for a person"})
    token = fields.String(allow_none=True, metadata={"description": "shown once; null for a bot seat"})
    version = fields.Integer()


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


class ReplaySchema(ResponseSchema):
    game = fields.String()
    players = fields.Integer()
    options = fields.Dict()
    deck = fields.List(_Card(metadata=_CARD_DOC))
    first_seat = fields.Integer()
    actions = fields.List(fields.Dict())


class LogSchema(ResponseSchema):
    entries = fields.List(
        fields.Dict(),
        metadata={"description": "each: type, seat, version (after it) and the action's fields (dict form)"},
    )
    replay = fields.Nested(ReplaySchema, allow_none=True, metadata={"description": "null until the game is over"})


class PlayerRangeSchema(ResponseSchema):
    min = fields.Integer()
    max = fields.Integer()


class CatalogOptionSchema(ResponseSchema):
    OPTIONAL = ("choices", "min", "max")

    name = fields.String()
    type = fields.String(validate=OneOf(["int", "bool", "str"]))
    default = fields.Raw(allow_none=True, metadata={"description": "null: depends on the players (see description)"})
    choices = fields.List(fields.Raw())
    min = fields.Integer()
    max = fields.Integer()
    description = fields.String()


class PresetSchema(ResponseSchema):
    name = fields.String()
    options = fields.Dict()


class CatalogActionSchema(ResponseSchema):
    type = fields.String()
    action_fields = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        data_key="fields",
        metadata={"description": "name -> int, bool or str"},
    )
    optional = fields.List(fields.String(), metadata={"description": "fields that may be left out"})


class CatalogGameSchema(ResponseSchema):
    name = fields.String()
    title = fields.String()
    players = fields.Nested(PlayerRangeSchema)
    cooperative = fields.Boolean()
    cards = fields.String(metadata={"description": "what a card is and what a deck holds"})
    options = fields.List(fields.Nested(CatalogOptionSchema))
    presets = fields.List(fields.Nested(PresetSchema))
    actions = fields.List(fields.Nested(CatalogActionSchema))
    bots = fields.List(fields.String())
    rated = fields.Boolean(metadata={"description": 'whether a game of it may be created with `"rated": true`'})
    errors = fields.Dict(keys=fields.String(), values=fields.String(), metadata={"description": "rule codes (422)"})
    outcome_reasons = fields.Dict(keys=fields.String(), values=fields.String())


class CatalogSchema(ResponseSchema):
    games = fields.List(fields.Nested(CatalogGameSchema))


class HealthSchema(ResponseSchema):
    status = fields.String()
    store = fields.String(metadata={"description": "redis or embedded"})


class ErrorSchema(ResponseSchema):
    OPTIONAL = ("errors",)

    code = fields.Integer(metadata={"description": "the HTTP status"})
    status = fields.String(metadata={"description": "the HTTP reason phrase"})
    message = fields.String(metadata={"description": "for humans"})
    error = fields.String(metadata={"description": "stable machine code"})
    errors = fields.Dict(metadata={"description": "field details (validation errors only)"})


class AnalysisValueSchema(ResponseSchema):
    win = fields.Float(metadata={"description": "share of the rollouts won: by the team (The Game), by this seat"})
    cards_left = fields.Float(allow_none=True, metadata={"description": "mean cards left at the end; null: no score"})


class AnalysisDecisionSchema(ResponseSchema):
    seat = fields.Integer()
    start = fields.Integer(metadata={"description": "the version before it: its log entries have start < version"})
    end = fields.Integer(metadata={"description": "the version after it: its log entries have version <= end"})
    played = fields.List(fields.Dict(), metadata={"description": "the actions played, as in the log"})
    best = fields.List(fields.Dict(), metadata={"description": "what the bot would have played; []: wait"})
    same = fields.Boolean(metadata={"description": "both leave the table alike: one value, cost 0"})
    played_value = fields.Nested(AnalysisValueSchema)
    best_value = fields.Nested(AnalysisValueSchema)
    cost = fields.Float(metadata={"description": "how much worse than the bot's choice, in `measure` (may be < 0)"})


class AnalysisSeatSchema(ResponseSchema):
    seat = fields.Integer()
    decisions = fields.Integer()
    same = fields.Integer(metadata={"description": "decisions the bot would have made alike"})
    cost = fields.Float(metadata={"description": "the sum of the seat's costs"})


class AnalysisSchema(ResponseSchema):
    """A finished game's analysis, move by move (docs/api.md, "Analysis")."""

    game = fields.String()
    players = fields.Integer()
    bot = fields.String(metadata={"description": "the bot whose choices are compared: best"})
    playout = fields.String(metadata={"description": "the bot that plays every seat of each playout: greedy"})
    rollouts = fields.Integer(metadata={"description": "playouts per choice (TG_ANALYSIS_ROLLOUTS)"})
    seed = fields.Integer(metadata={"description": "the seed the playouts derive from (from the game's id)"})
    measure = fields.String(
        validate=OneOf(["cards_left", "win"]),
        metadata={"description": "what cost counts: cards left (The Game), else the chance to win (0 to 1)"},
    )
    decisions = fields.List(fields.Nested(AnalysisDecisionSchema), metadata={"description": "in the order played"})
    seats = fields.List(fields.Nested(AnalysisSeatSchema))
