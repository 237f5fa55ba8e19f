"""Every change of a game, checked in the contract's order inside one atomic store transaction.

Order: unknown game (404) -> token (401/403) -> [idempotent replay] -> game over or not started (409)
-> If-Match (412) -> body (400/422) -> not your turn (409) -> rule errors (422). The idempotency record
is written in the same transaction as the change it answers, so a retry can never apply twice.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import marshmallow as ma
from flask import current_app

import thegame_core as tg

from . import auth
from .errors import ApiError, from_game_error
from .record import GameRecord, Seat
from .requests import Incoming
from .store import Change, GameStore, Snapshot
from .views import game_view

#: Builds the core actions of a request from its validated body and the acting seat.
ActionBuilder = Callable[[dict[str, Any], int], list[tg.Action]]


@dataclass(frozen=True)
class Answer:
    """A successful response, in a form small enough to remember for idempotent retries.

    ``kind`` is ``"view"`` (the view for ``seat``, public if ``None``, at ``version``) or ``"seat"``
    (a taken seat and its token). A retry re-renders the same body from the game's history.
    """

    status: int
    kind: str
    seat: int | None
    version: int
    token: str | None = None

    def remembered(self, incoming: Incoming) -> str:
        sealed = None
        if self.token is not None and incoming.idempotency_key is not None:
            sealed = auth.seal(self.token, incoming.idempotency_key, incoming.game_id)
        record = [incoming.fingerprint, self.status, self.kind, self.seat, self.version, sealed]
        return json.dumps(record, separators=(",", ":"))  # kept for the game's lifetime: compact

    @classmethod
    def recalled(cls, text: str, incoming: Incoming) -> Answer:
        fingerprint, status, kind, seat, version, sealed = json.loads(text)
        if fingerprint != incoming.fingerprint:
            raise ApiError("idempotency_key_reused", "this Idempotency-Key was used with another request")
        token = sealed and auth.unseal(sealed, incoming.idempotency_key or "", incoming.game_id)
        return cls(status, kind, seat, version, token)


@dataclass(frozen=True)
class Reply:
    status: int
    body: dict[str, Any]
    version: int


def render(game_id: str, record: GameRecord, answer: Answer) -> Reply:
    if answer.kind == "seat":
        assert answer.seat is not None
        taken = record.seats[answer.seat]
        assert taken is not None
        body = {"game_id": game_id, "seat": answer.seat, "name": taken.name, "bot": taken.bot is not None}
        body.update(bot_name=taken.bot, token=answer.token, version=answer.version)
    else:
        state = None if record.state is None else record.state_at(answer.version)
        body = game_view(game_id, record, answer.seat, state)
    return Reply(answer.status, body, answer.version)


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


#: The checks from 409 on, then the change: the new record (``None``: delete the game) and the answer.
Step = Callable[[GameRecord, auth.Caller], tuple[GameRecord | None, Answer]]


def change(store: GameStore, incoming: Incoming, role: str | None, step: Step) -> Reply:
    """Run ``step`` (the checks from 409 on, then the change) atomically, honouring Idempotency-Key."""

    def compute(snapshot: Snapshot) -> Change[Reply]:
        record = load_record(snapshot)
        caller = identify(record, incoming)
        if role is not None:
            auth.require(caller, role)
        incoming.check_idempotency_key()
        if snapshot.idem is not None:
            return Change(render(incoming.game_id, record, Answer.recalled(snapshot.idem, incoming)))
        new_record, answer = step(record, caller)
        if new_record is None:
            return Change(Reply(answer.status, {}, answer.version), delete=True)
        writes = new_record.fields()
        if incoming.idempotency_key is not None:
            writes[idem_field(incoming.digest, incoming.idempotency_key)] = answer.remembered(incoming)
        return Change(render(incoming.game_id, new_record, answer), writes, ttl_for(new_record))

    field = None if incoming.idempotency_key is None else idem_field(incoming.digest, incoming.idempotency_key)
    return store.transact(incoming.game_id, field, compute)


def idem_field(digest: str | None, key: str) -> str:
    """Keys are scoped per game (the hash) and caller (its token's hash, or none for anonymous callers);
    the field is a fixed-size digest of both, so a long key costs no more memory than a short one."""
    return "i:" + auth.short_digest(f"{digest or 'anyone'}\0{key}".encode())


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
        if seat not in record.free_seats:
            raise ApiError("seat_taken", f"seat {seat} is taken")
        token = None if body.get("bot") else auth.new_token()
        taken = Seat(body["name"], None if token is None else auth.token_hash(token), body.get("bot"))
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
        new_record = record.started(first_seat)
        return new_record, Answer(200, "view", None, new_record.version)

    return step


# Play ---------------------------------------------------------------------------------------
def act(incoming: Incoming, schema: ma.Schema, build: ActionBuilder, *, on_turn: bool) -> Step:
    """A seat's actions (plays, turn end, signals), all or nothing, then the bots' turns."""

    def step(record: GameRecord, caller: auth.Caller) -> tuple[GameRecord, Answer]:
        state = record.state
        if state is None:
            raise ApiError("game_not_started", "the game has not started yet")
        if state.status != "playing":
            raise ApiError("game_over", f"the game is over ({state.status})")
        incoming.check_if_match(record.version)
        assert caller.seat is not None
        actions = build(incoming.body(schema), caller.seat)
        if on_turn and state.current_seat != caller.seat:
            raise ApiError("not_your_turn", f"it is seat {state.current_seat}'s turn")
        try:
            new_record = record.with_state(state.apply_all(actions))
        except tg.GameError as error:
            raise from_game_error(error) from None
        return new_record, Answer(200, "view", caller.seat, new_record.version)

    return step
