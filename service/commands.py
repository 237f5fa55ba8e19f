"""Every change of a game, checked in the contract's order inside one atomic store transaction.

Order: unknown game (404) -> token (401/403) -> rate limit (429) -> Idempotency-Key (422; unguessable without a token)
-> [idempotent replay; a seat token only while the lobby is open] -> the clock applies what fell due
(503 catching_up if more is due than one request may do) -> game over or not started (409)
-> If-Match (412) -> body (400/422) -> not your turn (409) -> rule errors (422); then the bots due at once.
The idempotency record is written in the same transaction as the change it answers, so a retry can never
apply twice; what the clock applied is written even when the request's own step is refused.
A request's path: ``incoming`` parses it, the store loads the record, ``auth`` names the caller,
a step here decides, the store writes, ``presenters`` renders the answer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import marshmallow as ma
from flask import current_app

import thegame_core as tg

from . import auth
from .errors import ApiError, from_game_error
from .game_record import GameRecord, Seat
from .idempotency import Answer, Remembered, check_anonymous_key, idem_field
from .incoming import Incoming
from .limits import charge_change
from .presenters import Reply, render
from .schedule import advance, behind, changed, default_reaction_ms
from .store import Change, GameStore, Snapshot
from .timing import OWNER

#: The action dicts (the core's dict form without ``seat``) a request asks for, from its body document.
ActionReader = Callable[[Any], Sequence[Mapping[str, Any]]]
#: The checks from 409 on, then the change: the new record (``None``: delete the game) and the answer.
Step = Callable[[GameRecord, auth.Caller], tuple[GameRecord | None, Answer]]


def ttl_for(record: GameRecord) -> int:
    config = current_app.config
    return int({"lobby": config["LOBBY_TTL"], "playing": config["GAME_TTL"]}.get(record.status, config["FINISHED_TTL"]))


def load_record(snapshot: Snapshot) -> GameRecord:
    record = GameRecord.load(snapshot)
    if record is None:
        raise ApiError("unknown_game", "no such game (it may have expired)")
    return record


def identify(record: GameRecord, incoming: Incoming) -> auth.Caller:
    return auth.identify(incoming.digest, record.host, record.seat_tokens())


def change(store: GameStore, incoming: Incoming, role: str | None, step: Step) -> Reply:
    """Run ``step`` (the checks from 409 on, then the change) atomically, honouring Idempotency-Key."""
    key = incoming.idempotency_key
    field = idem_field(incoming.digest)  # the caller's remembered answers, read and written only with a key

    def compute(snapshot: Snapshot) -> Change[Reply | ApiError]:
        record = load_record(snapshot)
        caller = identify(record, incoming)
        if role is not None:
            auth.require(caller, role)
        charge_change(None if caller.role == "anyone" else incoming.digest)
        incoming.check_idempotency_key()
        if key is not None and caller.role == "anyone":
            check_anonymous_key(key)
        remembered = Remembered.load(snapshot.idem)
        earlier = None if key is None else remembered.get(key)
        if earlier is not None:
            answer = Answer.recalled(earlier, incoming)
            if answer.token is not None and record.state is not None:  # a seat token only while the lobby is open
                raise ApiError("game_started", "the game has started; its seats are closed")
            return Change(render(incoming.game_id, record, answer))
        budget = current_app.config["BOT_DECISIONS"]
        caught, budget = advance(record, incoming.now, budget)
        try:
            if behind(caught, incoming.now):
                raise ApiError("catching_up", "the game is still applying what fell due; retry")
            new_record, answer = step(caught, caller)
        except ApiError as error:
            if caught is record:
                raise
            return Change(error, caught.fields(), ttl_for(caught))  # what fell due is kept; the error answers
        if new_record is None:
            return Change(Reply(answer.status, {}, answer.version), delete=True)
        new_record, _ = advance(new_record, incoming.now, budget)  # bots due at once answer before the view
        if answer.kind == "view":
            answer = replace(answer, version=new_record.version)
        writes = new_record.fields()
        if key is not None:
            writes[field] = remembered.adding(key, answer.remembered(incoming))
        return Change(render(incoming.game_id, new_record, answer), writes, ttl_for(new_record))

    result = store.transact(incoming.game_id, None if key is None else field, compute)
    if isinstance(result, ApiError):
        raise result
    return result


# Lobby --------------------------------------------------------------------------------------
def take_seat(incoming: Incoming, schema: ma.Schema) -> Step:
    def step(record: GameRecord, caller: auth.Caller) -> tuple[GameRecord, Answer]:
        if record.state is not None:
            raise ApiError("game_started", "the game has started; its seats are closed")
        if not record.free_seats:
            raise ApiError("game_full", "every seat is taken")
        incoming.check_if_match(record.version)
        body = incoming.body(schema)
        seat = body.get("seat", record.free_seats[0])
        if seat >= record.players:
            raise ApiError("validation_error", "no such seat", {"seat": [f"seats are 0 to {record.players - 1}"]})
        bot, bots = body.get("bot"), tg.get_game(record.game).bots
        if bot is not None and bot not in bots:
            known = ", ".join(sorted(bots))
            raise ApiError("validation_error", "no such bot", {"bot": [f"bots of {record.game}: {known}"]})
        if seat not in record.free_seats:
            raise ApiError("seat_taken", f"seat {seat} is taken")
        token = None if bot else auth.new_token()
        reaction_ms = None if bot is None else body.get("reaction_ms", default_reaction_ms(record.game))
        taken = Seat(body["name"], None if token is None else auth.token_hash(token), bot, reaction_ms)
        new_record = record.with_seat(seat, taken)
        return new_record, Answer(201, "seat", seat, new_record.version, token)

    return step


def close(incoming: Incoming) -> Step:
    """The host closes a lobby: the game is deleted (its id then answers 404)."""

    def step(record: GameRecord, caller: auth.Caller) -> tuple[GameRecord | None, Answer]:
        if record.state is not None:
            raise ApiError("game_started", "a started game cannot be closed; it expires when abandoned")
        incoming.check_if_match(record.version)
        return None, Answer(204, "closed", None, record.version + 1)

    return step


def start(incoming: Incoming, schema: ma.Schema) -> Step:
    def step(record: GameRecord, caller: auth.Caller) -> tuple[GameRecord, Answer]:
        if record.state is not None:
            raise ApiError("game_started", "the game has already started")
        if record.free_seats:
            raise ApiError("seats_free", f"seats {record.free_seats} are still free")
        incoming.check_if_match(record.version)
        first_seat = incoming.body(schema).get("first_seat")
        if first_seat is None:
            first_seat = record.drawn_first_seat()
        elif first_seat >= record.players:
            raise ApiError("validation_error", "no such seat", {"first_seat": [f"seats are 0 to {record.players - 1}"]})
        new_record = changed(record.started(first_seat), None, None, OWNER, incoming.now)
        return new_record, Answer(200, "view", None, new_record.version)

    return step


# Play ---------------------------------------------------------------------------------------
def act(incoming: Incoming, read: ActionReader) -> Step:
    """The caller seat's actions, all or nothing (its owner is back: a bot no longer plays it); the core judges
    turn and rules."""

    def step(record: GameRecord, caller: auth.Caller) -> tuple[GameRecord, Answer]:
        state = record.state
        if state is None:
            raise ApiError("game_not_started", "the game has not started yet")
        if state.status != "playing":
            raise ApiError("game_over", f"the game is over ({state.status})")
        incoming.check_if_match(record.version)
        assert caller.seat is not None
        game = tg.get_game(record.game)
        try:
            actions = [game.parse_action({**action, "seat": caller.seat}) for action in read(incoming.document())]
            after = state.apply_all(actions)
        except tg.GameError as error:
            raise from_game_error(error) from None
        new_record = changed(record.with_state(after), state, caller.seat, OWNER, incoming.now)
        return new_record, Answer(200, "view", caller.seat, new_record.version)

    return step
