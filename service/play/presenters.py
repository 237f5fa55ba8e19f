"""The JSON answers: the core's views plus what only the service knows (game id, names, bots, version, clock).

One presenter serves every game: the core produces each game's view (``state.view(seat)``,
``Game.lobby_view``); the service only adds its own fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import thegame_core as tg
from thegame_core.daily import seed_commitment

from ..clock.schedule import bot_player, deadline, missed_turns
from ..daily.days import deal_hidden
from ..records.game_record import GameRecord
from ..records.timing import AUTO, BOT, log_marks
from . import sealing
from .idempotency import Answer

#: A seat view's own fields before the deal, by JSON type (The Game's `hand` is [], `can_end_turn` false).
_EMPTY = {"array": [], "boolean": False, "integer": 0, "string": ""}


@dataclass(frozen=True)
class Reply:
    status: int
    body: dict[str, Any]
    tag: str  # the ETag: the version and the nonce of the write that made it (``GameRecord.tag``)


def _lobby_view(record: GameRecord, seat: int | None) -> dict[str, Any]:
    """Before the deal: the game's table with nothing dealt; a seat sees its seat fields, empty."""
    game = tg.get_game(record.game)
    view = game.lobby_view(record.players, record.options)
    if seat is not None:
        view["seat"] = seat
        for name, schema in game.info.seat_view.items():
            view[name] = _EMPTY.get(str(schema.get("type")))
        view["legal_actions"] = []
    return view


@dataclass(frozen=True)
class Viewer:
    """Who a view is for: ``seat`` (``None``: the public view), with the token it came with (a seat's view opens the
    seat's rematch token with it), at ``now`` (its deadlines' seconds left)."""

    seat: int | None
    token: str | None
    now: float


#: A finished rated game's change of ratings, a seat each (``service/ratings/finished.py``): its outcome carries it.
Ratings = list[dict[str, Any]] | None


def game_view(
    game_id: str,
    record: GameRecord,
    viewer: Viewer,
    state: tg.AnyState | None = None,
    version: int | None = None,
    ratings: Ratings = None,
) -> dict[str, Any]:
    """``viewer``'s view of ``state`` at ``version`` (default: the current ones), its outcome with ``ratings``."""
    seat = viewer.seat
    state = state or record.state
    if state is None:
        view = _lobby_view(record, seat)
    elif seat is None:
        view = state.public_view()
    else:
        view = state.view(seat)
    view["game_id"] = game_id
    view["version"] = record.version if version is None else version
    view["clock"] = {"turn_seconds": record.turn_seconds, "idle_turns": record.idle_turns}
    view["public"] = record.public
    view["spectators"] = record.spectators
    view["rated"] = record.rated
    view["rematch"] = _rematch(record, viewer)
    view["seed_sha256"], view["seed"] = _seed(record, state, viewer.now)
    for entry in view["seats"]:
        _seat_entry(entry, record, viewer.now)
    if ratings is not None and view.get("outcome") is not None:
        view["outcome"] = {**view["outcome"], "ratings": ratings}
    return view


def _seed(record: GameRecord, state: tg.AnyState | None, now: float) -> tuple[str | None, int | None]:
    """The seed's SHA-256 from the start and the seed once the game is over (a daily deal's once its day is over),
    so anyone can check that the deal was not chosen late (``thegame_core.deal_matches``); none for a deck the host
    gave."""
    if not record.seed_dealt:
        return None, None
    over = state is not None and state.status != "playing" and not deal_hidden(record.daily, now)
    return seed_commitment(record.seed), record.seed if over else None


def _ms(seconds: float) -> int:
    return round(seconds * 1000)


def _seat_entry(entry: dict[str, Any], record: GameRecord, at: float) -> None:
    """A seat's names, its bot and its clock: the deadline its owner must meet and whether a bot plays it."""
    seat = entry["seat"]
    taken = record.seats[seat]
    entry["name"] = None if taken is None else taken.name
    entry["bot"] = taken is not None and taken.bot is not None
    entry["bot_name"] = None if taken is None else taken.bot
    entry["reaction_ms"] = None if taken is None else taken.reaction_ms
    entry["reaction_spread_ms"] = None if taken is None or taken.bot is None else taken.reaction_spread_ms or 0
    due = deadline(record, seat)
    entry["deadline"] = None if due is None else _ms(due)
    entry["seconds_left"] = None if due is None else max(0.0, round(due - at, 1))
    entry["missed_turns"] = missed_turns(record, seat)
    entry["autoplay"] = not entry["bot"] and record.state is not None and bot_player(record, seat) is not None
    entry["player"] = None if taken is None else taken.player


def _rematch(record: GameRecord, viewer: Viewer) -> dict[str, str] | None:
    """The next game, if the host asked for one; a seat's view adds its new token, which only its token opens."""
    if record.rematch is None:
        return None
    game_id = record.rematch["game_id"]
    seat, token = viewer.seat, viewer.token
    sealed = record.rematch["tokens"].get(str(seat))
    if seat is None or sealed is None or token is None:
        return {"game_id": game_id}
    # a seat view: the request's token is the one that identified this seat
    return {"game_id": game_id, "token": sealing.open_with(token, sealed, sealing.rematch_context(game_id, seat))}


def log_view(record: GameRecord) -> dict[str, Any]:
    """The public move log; the replay (deck included) only once the game is over."""
    state = record.state
    if state is None:
        return {"entries": [], "replay": None}
    log = state.public_log()
    entries = [
        {**entry, "version": record.version_of_action(number), "bot": mark in (BOT, AUTO), "auto": mark == AUTO}
        for number, (entry, mark) in enumerate(zip(log, log_marks(record.timing.marks, log), strict=True), 1)
    ]
    return {"entries": entries, "replay": None if state.status == "playing" else state.replay_record()}


def render(
    game_id: str, record: GameRecord, answer: Answer, token: str | None, now: float, ratings: Ratings = None
) -> Reply:
    """The body of ``answer`` (the caller sent ``token``): a taken seat (with its token, shown once) or a view."""
    if answer.kind == "seat":
        assert answer.seat is not None
        taken = record.seats[answer.seat]
        assert taken is not None
        body = {"game_id": game_id, "seat": answer.seat, "name": taken.name, "bot": taken.bot is not None}
        body.update(bot_name=taken.bot, reaction_ms=taken.reaction_ms, token=answer.token, version=answer.version)
        body["reaction_spread_ms"] = None if taken.bot is None else taken.reaction_spread_ms or 0
    elif answer.kind == "closed":
        body = {}
    elif answer.kind == "rematch":
        assert record.rematch is not None
        body = {"game_id": record.rematch["game_id"], "host_token": answer.token}
    else:
        state = None if record.state is None else record.state_at(answer.version)
        body = game_view(game_id, record, Viewer(answer.seat, token, now), state, answer.version, ratings)
        if answer.results is not None:
            body["results"] = [{"type": kind, "result": word} for kind, word in answer.results]
    return Reply(answer.status, body, record.tag(answer.version))
