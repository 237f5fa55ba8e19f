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

import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import marshmallow as ma
from flask import current_app

import thegame_core as tg

from . import auth, sealing
from .errors import ApiError, from_game_error
from .game_record import GameRecord, Seat
from .idempotency import Answer, Remembered, check_anonymous_key, idem_field
from .incoming import Incoming
from .limits import charge_change, token_charge
from .lobby_index import LobbyIndex
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


def lobbies() -> LobbyIndex:
    return current_app.extensions["thegame_lobbies"]  # type: ignore[no-any-return]


def create(store: GameStore, game_id: str, record: GameRecord) -> bool:
    """Write a new game (``False`` if the id is taken) and list it if it is a public lobby."""
    ttl = ttl_for(record)
    if not store.create(game_id, record.fields(), ttl):
        return False
    if record.public:
        lobbies().sync(game_id, record, ttl)
    return True


def change(store: GameStore, incoming: Incoming, role: str | None, step: Step) -> Reply:
    """Run ``step`` (the checks from 409 on, then the change) atomically, honouring Idempotency-Key; then
    keep the lobby list in step with a public game."""
    key = incoming.idempotency_key
    field = idem_field(incoming.digest)  # the caller's remembered answers, read and written only with a key

    def compute(snapshot: Snapshot) -> Change[tuple[Reply | ApiError, GameRecord | None, bool]]:
        record = load_record(snapshot)
        caller = identify(record, incoming)
        if role is not None:
            auth.require(caller, role)
        charge_change(caller.role != "anyone", snapshot.wait_ms)
        incoming.check_idempotency_key()
        if key is not None and caller.role == "anyone":
            check_anonymous_key(key)
        remembered = Remembered.load(snapshot.idem)
        earlier = None if key is None else remembered.get(key)
        if earlier is not None:
            answer = Answer.recalled(earlier, incoming)
            if answer.kind == "seat" and answer.token is not None and not _token_replayable(record, answer):
                raise ApiError("game_started", "the game has started; its seats are closed")
            return Change((render(incoming.game_id, record, answer), None, False))
        budget = current_app.config["BOT_DECISIONS"]
        caught, budget = advance(record, incoming.now, budget)
        try:
            if behind(caught, incoming.now):
                raise ApiError("catching_up", "the game is still applying what fell due; retry")
            new_record, answer = step(caught, caller)
        except ApiError as error:
            if caught is record:
                raise
            return Change((error, caught, False), caught.fields(), ttl_for(caught))  # what fell due is kept
        if new_record is None:
            return Change((Reply(answer.status, {}, answer.version), caught, True), delete=True)
        new_record, _ = advance(new_record, incoming.now, budget)  # bots due at once answer before the view
        if answer.kind == "view":
            answer = replace(answer, version=new_record.version)
        writes = new_record.fields()
        if key is not None:
            writes[field] = remembered.adding(key, answer.remembered(incoming))
        return Change((render(incoming.game_id, new_record, answer), new_record, False), writes, ttl_for(new_record))

    charge = token_charge(incoming.digest)
    reply, written, deleted = store.transact(incoming.game_id, None if key is None else field, compute, charge)
    if written is not None and written.public:
        lobbies().sync(incoming.game_id, written, ttl_for(written), deleted)
    if isinstance(reply, ApiError):  # refused, but what the clock applied first was written
        raise reply
    return reply


def _token_replayable(record: GameRecord, answer: Answer) -> bool:
    """A seat answer hands its token back while the lobby is open, or during play for a seat taken during play."""
    return record.state is None or (record.status == "playing" and answer.version > record.lobby_version)


# Seats --------------------------------------------------------------------------------------
#: The bot that plays a seat left during play until someone takes it (a bot seat keeps its own bot).
STAND_IN_BOT = "best"


def take_seat(incoming: Incoming, schema: ma.Schema) -> Step:
    """A free seat in the lobby, or during play a seat someone left (the bot playing it steps aside)."""

    def step(record: GameRecord, caller: auth.Caller) -> tuple[GameRecord, Answer]:
        if record.status not in ("lobby", "playing"):
            raise ApiError("game_over", f"the game is over ({record.status})")
        if not record.open_seats:
            if record.state is not None:
                raise ApiError("game_started", "the game has started and nobody has left a seat")
            raise ApiError("game_full", "every seat is taken")
        incoming.check_if_match(record.version)
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
        token = None if bot else auth.new_token()
        if token is None:
            taken = Seat(body["name"], None, bot, body.get("reaction_ms", default_reaction_ms(record.game)))
        else:
            taken = human_seat(body["name"], token)
        new_record = record.with_seat(seat, taken)
        return new_record, Answer(201, "seat", seat, new_record.version, token)

    return step


def human_seat(name: str, token: str) -> Seat:
    """A person's seat: its token's hash, and the public key its rematch token will be sealed to."""
    return Seat(name, auth.token_hash(token), None, None, sealing.public_key(token))


def leave(incoming: Incoming, seat: int) -> Step:
    """By that seat's token or the host: the seat is free again in the lobby; during play a bot plays it until
    someone takes it (its token stops working at once)."""

    def step(record: GameRecord, caller: auth.Caller) -> tuple[GameRecord, Answer]:
        if caller.role == "anyone":
            raise ApiError("invalid_token", "leaving a seat needs that seat's token or the host token")
        if caller.role == "seat" and caller.seat != seat:
            raise ApiError("forbidden", "a seat token leaves only its own seat")
        if record.status not in ("lobby", "playing"):
            raise ApiError("game_over", f"the game is over ({record.status})")
        incoming.check_if_match(record.version)
        if not 0 <= seat < record.players:
            raise ApiError("validation_error", "no such seat", {"seat": [f"seats are 0 to {record.players - 1}"]})
        if seat in record.open_seats:
            raise ApiError("seat_free", f"seat {seat} is already free")
        new_record = record.left(seat, STAND_IN_BOT)
        return new_record, Answer(204, "closed", None, new_record.version)

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


@dataclass
class Rematch:
    """The next game of a finished one, drawn once per request (a retried transaction reuses its tokens)."""

    game_id: str = field(default_factory=lambda: secrets.token_urlsafe(12))
    host_token: str = field(default_factory=auth.new_token)
    record: GameRecord | None = None  # the new game, once the finished one says so
    seats: dict[int, tuple[Seat, str]] = field(default_factory=dict)  # seat -> its new holder and sealed token

    def seat(self, number: int, old: Seat) -> tuple[Seat, str]:
        """``old``'s holder in the new game, with a fresh token sealed to the old seat's key."""
        if number not in self.seats:
            assert old.name is not None and old.key is not None
            token = auth.new_token()
            context = sealing.rematch_context(self.game_id, number)
            self.seats[number] = human_seat(old.name, token), sealing.seal_for(old.key, token, context)
        return self.seats[number]

    def game(self, old: GameRecord, created_at: int) -> tuple[GameRecord, dict[str, str]]:
        """The new game (started if every seat is held) and each human seat's sealed token."""
        seats: list[Seat | None] = []
        sealed: dict[str, str] = {}
        for number, held in enumerate(old.seats):
            if held is not None and held.bot is not None and held.name is not None:
                seats.append(Seat(held.name, None, held.bot, held.reaction_ms))
            elif held is not None and held.name is not None and held.key is not None:
                seat, sealed[str(number)] = self.seat(number, held)
                seats.append(seat)
            else:  # open (left during play), or taken before seats had keys: free in the new lobby
                seats.append(None)
        record = GameRecord(
            old.game,
            old.players,
            old.options,
            secrets.randbits(63),
            auth.token_hash(self.host_token),
            seats=tuple(seats),
            turn_seconds=old.turn_seconds,
            idle_turns=old.idle_turns,
            public=old.public,
            spectators=old.spectators,
            created_at=created_at,
        )
        if record.free_seats:
            return record, sealed
        return changed(record.started(record.drawn_first_seat()), None, None, OWNER, created_at / 1000), sealed


def rematch(incoming: Incoming, plan: Rematch, created_at: int) -> Step:
    """The host asks for the next game once this one is over; each seat finds its new token in its view."""

    def step(record: GameRecord, caller: auth.Caller) -> tuple[GameRecord, Answer]:
        if record.state is None:
            raise ApiError("game_not_started", "the game has not started yet")
        if record.status == "playing":
            raise ApiError("game_not_over", "a rematch follows a finished game")
        if record.rematch is not None:
            raise ApiError("rematch_exists", f"this game's rematch is {record.rematch['game_id']}")
        incoming.check_if_match(record.version)
        plan.record, sealed = plan.game(record, created_at)
        new_record = record.with_rematch({"game_id": plan.game_id, "tokens": sealed})
        return new_record, Answer(201, "rematch", None, new_record.version, plan.host_token)

    return step


# Play ---------------------------------------------------------------------------------------
def act(incoming: Incoming, read: ActionReader, route_of: str | None = None) -> Step:
    """The caller seat's actions, all or nothing (its owner is back: a bot no longer plays it); the core judges
    turn and rules. A route of one game (``route_of``) refuses the others' games, pointing to ``/actions``."""

    def step(record: GameRecord, caller: auth.Caller) -> tuple[GameRecord, Answer]:
        state = record.state
        if state is None:
            raise ApiError("game_not_started", "the game has not started yet")
        if state.status != "playing":
            raise ApiError("game_over", f"the game is over ({state.status})")
        incoming.check_if_match(record.version)
        assert caller.seat is not None
        if route_of is not None and record.game != route_of:
            raise ApiError(
                "invalid_action",
                f"this route is {route_of}'s; a game of {record.game} takes its actions at "
                f"POST /v1/games/{incoming.game_id}/actions (GET /v1/games/catalog lists them)",
            )
        game = tg.get_game(record.game)
        try:
            actions = [game.parse_action({**action, "seat": caller.seat}) for action in read(incoming.document())]
            after = state.apply_all(actions)
        except tg.GameError as error:
            raise from_game_error(error) from None
        new_record = changed(record.with_state(after), state, caller.seat, OWNER, incoming.now)
        return new_record, Answer(200, "view", caller.seat, new_record.version)

    return step
