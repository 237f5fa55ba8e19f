"""The steps of every change: each runs the checks from 409 on, in the contract's order, then decides.

A step takes the record (the clock has caught it up) and the caller, and answers the new record (``None``: delete
the game) with the ``Answer`` to remember; ``changes.change`` runs it inside the store's compare-and-set. Steps
read the request's If-Match and body through ``Incoming`` (lazily: their errors answer at their place in order).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import marshmallow as ma

import thegame_core as tg

from ..clock.schedule import changed, default_reaction_ms, default_spread_ms, stamp_ms
from ..errors import ApiError, from_game_error
from ..records.game_record import GameRecord, Seat
from ..records.timing import OWNER
from . import sealing, tokens
from .idempotency import Answer
from .incoming import Incoming
from .tokens import Caller

#: The action dicts (the core's dict form without ``seat``) a request asks for, from its body document.
ActionReader = Callable[[Any], Sequence[Mapping[str, Any]]]
#: The checks from 409 on, then the change: the new record (``None``: delete the game) and the answer.
Step = Callable[[GameRecord, Caller], tuple[GameRecord | None, Answer]]


# Seats --------------------------------------------------------------------------------------
#: The bot that plays a seat left during play until someone takes it (a bot seat keeps its own bot).
STAND_IN_BOT = "best"


def take_seat(incoming: Incoming, schema: ma.Schema) -> Step:
    """A free seat in the lobby, or during play a seat someone left (the bot playing it steps aside)."""

    def take(record: GameRecord, caller: Caller) -> tuple[GameRecord, Answer]:
        if record.status not in ("lobby", "playing"):
            raise ApiError("game_over", f"the game is over ({record.status})")
        if record.paired and record.state is None:
            raise ApiError("pairing_lobby", "Play now fills this lobby: POST /v1/pairing to be seated in one")
        if not record.open_seats:
            if record.state is not None:
                raise ApiError("game_started", "the game has started and nobody has left a seat")
            raise ApiError("game_full", "every seat is taken")
        incoming.check_if_match(record)
        body = incoming.body(schema)
        seat = body.get("seat", record.open_seats[0])
        if seat >= record.players:
            raise ApiError("validation_error", "no such seat", {"seat": [f"seats are 0 to {record.players - 1}"]})
        bot, bots = body.get("bot"), tg.get_game(record.game).bots
        if bot is not None and bot not in bots:
            known = ", ".join(sorted(bots))
            raise ApiError("validation_error", "no such bot", {"bot": [f"bots of {record.game}: {known}"]})
        if seat not in record.open_seats:
            raise ApiError("seat_taken", f"seat {seat} is taken")
        if incoming.player is not None and caller.role == "seat":
            raise ApiError("already_seated", f"this player holds seat {caller.seat} of this game already")
        if record.rated:
            check_rated_seat(record, bot, incoming.player)
        token = None if bot else tokens.new_token()
        if token is None:
            pace = body.get("reaction_ms", default_reaction_ms(record.game))
            spread = body.get("reaction_spread_ms", default_spread_ms(record.game))
            taken = Seat(body["name"], None, bot, pace, reaction_spread_ms=spread)
        else:
            taken = human_seat(body["name"], token, incoming.player)
        new_record = record.with_seat(seat, taken)
        return new_record, Answer(201, "seat", seat, new_record.version, token)

    return take


def check_rated_seat(record: GameRecord, bot: str | None, player: str | None) -> None:
    """A rated game's seat goes to a player key, once per player (``already_seated`` above), never to a bot, and
    only in the lobby: who is rated is fixed at the start (a seat left during play stays its leaver's)."""
    if record.state is not None:
        raise ApiError("game_started", "a rated game's seats close at its start")
    if bot is not None:
        raise ApiError("rated_no_bots", "a rated game seats no bot: every seat is a person's")
    if player is None:
        raise ApiError("rated_needs_player", "a rated game's seat is taken with a player key (POST /v1/players)")


def human_seat(name: str, token: str, player: str | None = None) -> Seat:
    """A person's seat: its token's hash, the public key its rematch token will be sealed to, and the player it is
    bound to when it was taken with a player key (that key then acts for it too)."""
    return Seat(name, tokens.token_hash(token), None, None, sealing.public_key(token), player=player)


LEAVE_NEEDS_TOKEN = "leaving a seat needs that seat's token or the host token"


def leave(incoming: Incoming, seat: int) -> Step:
    """By that seat's token or the host: the seat is free again in the lobby; during play a bot plays it until
    someone takes it (its token stops working at once)."""

    def leave_seat(record: GameRecord, caller: Caller) -> tuple[GameRecord, Answer]:
        if caller.role == "seat" and caller.seat != seat:
            raise ApiError("forbidden", "a seat token leaves only its own seat")
        if record.status not in ("lobby", "playing"):
            raise ApiError("game_over", f"the game is over ({record.status})")
        incoming.check_if_match(record)
        if not 0 <= seat < record.players:
            raise ApiError("validation_error", "no such seat", {"seat": [f"seats are 0 to {record.players - 1}"]})
        if seat in record.open_seats:
            raise ApiError("seat_free", f"seat {seat} is already free")
        new_record = record.left(seat, STAND_IN_BOT)
        return new_record, Answer(204, "closed", None, new_record.version)

    return leave_seat


def close(incoming: Incoming) -> Step:
    """The host closes a lobby: the game is deleted (its id then answers 404)."""

    def close_lobby(record: GameRecord, caller: Caller) -> tuple[GameRecord | None, Answer]:
        if record.state is not None:
            raise ApiError("game_started", "a started game cannot be closed; it expires when abandoned")
        incoming.check_if_match(record)
        return None, Answer(204, "closed", None, record.version + 1)

    return close_lobby


def start(incoming: Incoming, schema: ma.Schema) -> Step:
    def deal(record: GameRecord, caller: Caller) -> tuple[GameRecord, Answer]:
        if record.state is not None:
            raise ApiError("game_started", "the game has already started")
        if record.free_seats:
            raise ApiError("seats_free", f"seats {record.free_seats} are still free")
        incoming.check_if_match(record)
        first_seat = incoming.body(schema).get("first_seat")
        if first_seat is None:
            first_seat = record.drawn_first_seat()
        elif first_seat >= record.players:
            raise ApiError("validation_error", "no such seat", {"first_seat": [f"seats are 0 to {record.players - 1}"]})
        new_record = changed(record.started(first_seat), None, None, OWNER, incoming.now)
        return new_record, Answer(200, "view", None, new_record.version)

    return deal


@dataclass
class Rematch:
    """The next game of a finished one, drawn once per request and written before the finished game names it: a
    reader that follows the rematch from the finished game's view never finds it missing."""

    game_id: str = field(default_factory=tokens.new_game_id)
    host_token: str = field(default_factory=tokens.new_token)
    record: GameRecord | None = None  # the new game, drawn from a finished game with no rematch yet
    sealed: dict[str, str] = field(default_factory=dict)  # seat -> its new token, sealed to its old seat's key

    def draw(self, old: GameRecord, created_at: int) -> None:
        """Draw the new game (started if every seat is held) if ``old`` is over with no rematch yet (else none: the
        step refuses). A finished game's seats and options never change, so it is the game any later read of
        ``old`` would give."""
        if old.state is None or old.status == "playing" or old.rematch is not None:
            return
        seats = [self._seat(number, held) for number, held in enumerate(old.seats)]
        record = GameRecord(
            old.game,
            old.players,
            old.options,
            secrets.randbits(63),
            tokens.token_hash(self.host_token),
            seats=tuple(seats),
            turn_seconds=old.turn_seconds,
            bots_alone_ms=old.bots_alone_ms,
            idle_turns=old.idle_turns,
            public=old.public,
            spectators=old.spectators,
            created_at=created_at,
            rated=old.rated,
        )
        if not record.free_seats:
            record = changed(record.started(record.drawn_first_seat()), None, None, OWNER, created_at / 1000)
        self.record = record

    def _seat(self, number: int, held: Seat | None) -> Seat | None:
        """Seat ``number``'s holder in the new game: the same bot, or the same person with a fresh token sealed to
        the old seat's key (and bound to the same player); none for a seat left open (or taken before seats had
        keys): free in the new lobby."""
        if held is None or held.name is None:
            return None
        if held.bot is not None:
            return Seat(held.name, None, held.bot, held.reaction_ms, None, held.reaction_spread_ms)
        if held.key is None:
            return None
        token = tokens.new_token()
        self.sealed[str(number)] = sealing.seal_for(held.key, token, sealing.rematch_context(self.game_id, number))
        return human_seat(held.name, token, held.player)


def rematch(incoming: Incoming, plan: Rematch) -> Step:
    """The host asks for the next game once this one is over (``plan``: drawn and written already); each seat finds
    its new token in its view."""

    def name_rematch(record: GameRecord, caller: Caller) -> tuple[GameRecord, Answer]:
        if record.state is None:
            raise ApiError("game_not_started", "the game has not started yet")
        if record.status == "playing":
            raise ApiError("game_not_over", "a rematch follows a finished game")
        if record.rematch is not None and record.rematch["game_id"] == plan.game_id:  # a write retried by the
            return record, Answer(201, "rematch", None, record.version, plan.host_token)  # client: it was done
        if record.rematch is not None:
            raise ApiError("rematch_exists", f"this game's rematch is {record.rematch['game_id']}")
        incoming.check_if_match(record)
        if plan.record is None:  # the game was being played when the plan was drawn: a last move ended it since
            raise ApiError("catching_up", "the game has just ended; ask for the rematch again")
        new_record = record.with_rematch({"game_id": plan.game_id, "tokens": plan.sealed})
        return new_record, Answer(201, "rematch", None, new_record.version, plan.host_token)

    return name_rematch


# Play ---------------------------------------------------------------------------------------
def act(incoming: Incoming, read: ActionReader, route_of: str | None = None) -> Step:
    """The caller seat's actions, all or nothing (its owner is back: a bot no longer plays it), each stamped with
    the request's arrival (``received``: a collection window judges by it); the core judges turn and rules. A route
    of one game (``route_of``) refuses the others' games, pointing to ``/actions``."""

    def apply_actions(record: GameRecord, caller: Caller) -> tuple[GameRecord, Answer]:
        state = record.state
        if state is None:
            raise ApiError("game_not_started", "the game has not started yet")
        if state.status != "playing":
            raise ApiError("game_over", f"the game is over ({state.status})")
        incoming.check_if_match(record)
        assert caller.seat is not None
        if route_of is not None and record.game != route_of:
            raise ApiError(
                "invalid_action",
                f"this route is {route_of}'s; a game of {record.game} takes its actions at "
                f"POST /v1/games/{incoming.game_id}/actions (GET /v1/games/catalog lists them)",
            )
        game = tg.get_game(record.game)
        sent = read(incoming.document())
        listed = {info.type for info in game.info.actions}
        if any(action["type"] not in listed for action in sent):
            names = ", ".join(sorted(listed))
            raise ApiError("invalid_action", f"a seat sends only the actions the catalog lists: {names}")
        at = stamp_ms(incoming.now)
        try:
            actions = [game.received(game.parse_action({**action, "seat": caller.seat}), at) for action in sent]
            after = state.apply_all(actions)
        except tg.GameError as error:
            raise from_game_error(error) from None
        new_record = changed(record.with_state(after), state, caller.seat, OWNER, incoming.now)
        return new_record, Answer(200, "view", caller.seat, new_record.version, results=results_of(after, actions))

    return apply_actions


def results_of(state: tg.AnyState, actions: Sequence[Any]) -> tuple[tuple[str, str | None], ...]:
    """Each of ``actions`` (the last ones ``state`` applied) with what it did: the game's word from its
    ``results(count)`` (Bataille corse's slaps: ``"valid"``, ``"false"``, ``"stale"``), ``None`` where the game's
    actions have none."""
    words = state.results(len(actions))
    return tuple((action.to_dict()["type"], word) for action, word in zip(actions, words, strict=True))
