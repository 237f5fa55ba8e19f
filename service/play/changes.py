"""The write path: every change of a game, as named stages in the contract's order, inside one compare-and-set.

1. **Who is calling**: the game exists (404), the token names the host, a seat or nobody (401), with the role the
   route needs (403), or any token if the route needs one (401, before a guessable Idempotency-Key's 422).
2. **The budget**: the caller's change budget (429; its token's was charged by the load itself).
3. **Recall a retry**: an Idempotency-Key seen before answers the first answer again (422 if reused for another
   request; unguessable without a token).
4. **Catch up the clock**: what fell due (paced bots, deadlines) is applied first (503 ``catching_up`` if more is
   due than one request may do); it is written even when the step then refuses.
5. **Decide**: the step (``commands``) checks from 409 on, in order, and answers the new record.
6. **Bots due at once** act before the answer (The Game's bots answer in the same request).
7. **Remember** the answer in the same write as the change, so a retry never applies twice.

The store loads and writes in two round trips (a retry recomputes from the new data); after the write the lobby list
follows a public game that was or is a lobby (a third round trip, for lobbies only), and the caller renders the
view once (``presenters.render``), outside the transaction.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace

import redis

from ..clock.schedule import advance, behind
from ..config import Settings
from ..errors import ApiError
from ..limits import ChangeBudget
from ..records.game_record import GameRecord
from ..storage.lobby_index import LobbyIndex
from ..storage.store import FIRST_REV, Change, GameStore, Snapshot
from . import tokens
from .commands import Step
from .idempotency import Answer, Remembered, check_anonymous_key, idem_field
from .incoming import Incoming
from .tokens import Caller, TokenRole

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Done:
    """What a change did: its ``answer`` (or, refused after the clock's own work was written, the ``refusal``) and
    the game's ``record`` as it now stands; ``wrote``: whether it was written (a recalled retry writes nothing),
    ``deleted``: the game is gone (``record`` is its last one); ``was_lobby``: the game was a lobby before the
    change (so the lobby list may have to follow it)."""

    answer: Answer | ApiError
    record: GameRecord
    wrote: bool = True
    deleted: bool = False
    was_lobby: bool = False

    @property
    def relists(self) -> bool:
        """Whether the write can change the lobby list: a public game that was or is a lobby (a seat taken or left,
        the start, the close). A move of a running game leaves the list alone: no round trip to its index."""
        return self.wrote and self.record.public and (self.was_lobby or self.record.status == "lobby")


@dataclass(frozen=True)
class Writer:
    """What a change writes with: the store, the lobby list and the settings of the process."""

    store: GameStore
    lobbies: LobbyIndex
    settings: Settings


def create(writer: Writer, game_id: str, record: GameRecord, listed: bool = True) -> GameRecord | None:
    """Write a new game and, if ``listed``, list it if it is a public lobby: the record as written (``None`` if the
    id is taken)."""
    record = record.stamped()
    if not writer.store.create(game_id, record.fields(), writer.settings.ttl_for(record.status, record.has_players)):
        return None
    if listed:
        list_new(writer, game_id, record)
    return record


def list_new(writer: Writer, game_id: str, record: GameRecord) -> None:
    """List a new game if it is a public lobby with a free seat."""
    if record.public:
        writer.lobbies.sync(game_id, record, writer.settings.ttl_for(record.status))


def discard(writer: Writer, game_id: str) -> None:
    """Delete a game stored but never named nor listed (a refused rematch's), unless it was written since (then it
    is someone's, and expires as any game). Never raises: the refusal that led here is the answer."""
    try:
        writer.store.transact(game_id, None, lambda snapshot: Change(None, delete=snapshot.rev == FIRST_REV))
    except (ApiError, redis.RedisError) as error:
        log.warning("could not delete the unnamed game %s (%s); it expires", game_id, type(error).__name__)


def change(
    writer: Writer,
    incoming: Incoming,
    budget: ChangeBudget | None,
    role: TokenRole | None,
    step: Step,
    needs_token: str | None = None,
) -> tuple[Answer, GameRecord]:
    """Run ``step`` through the stages above, atomically: its answer and the record as written (``ApiError`` if
    it is refused). ``needs_token``: the 401's message when any token will do but none is sent."""
    key, settings = incoming.idempotency_key, writer.settings
    field = None if key is None else idem_field(incoming.digest, incoming.address)

    def stages(snapshot: Snapshot) -> Change[Done]:
        record = snapshot.record()
        was_lobby = record.status == "lobby"
        caller = who_is_calling(record, incoming, role, needs_token)
        if budget is not None:
            budget.charge(caller.role != "anyone", snapshot.wait_ms)
        remembered = recall(snapshot, incoming, caller)
        earlier = None if key is None else remembered.get(key)
        if earlier is not None:
            return Change(Done(replayed(record, Answer.recalled(earlier, incoming)), record, wrote=False))
        caught, decisions = advance(record, incoming.now, settings.bot_decisions)
        try:
            if behind(caught, incoming.now):
                raise ApiError("catching_up", "the game is still applying what fell due; retry")
            decided, answer = step(caught, caller)
        except ApiError as refusal:
            if caught is record:
                raise
            caught = caught.stamped()
            lasting = caught.ended_since(record)
            return Change(Done(refusal, caught, was_lobby=was_lobby), caught.fields(), ttl(caught), lasting=lasting)
        if decided is None:
            return Change(Done(answer, caught, deleted=True, was_lobby=was_lobby), delete=True)
        written, _ = advance(decided, incoming.now, decisions)  # bots due at once answer before the view
        written = written.stamped()
        if answer.kind == "view":
            answer = replace(answer, version=written.version)
        writes = written.fields()
        if key is not None and field is not None:
            writes[field] = remembered.adding(key, answer.remembered(incoming))
        lasting = written.ended_since(record)
        return Change(Done(answer, written, was_lobby=was_lobby), writes, ttl(written), lasting=lasting)

    def ttl(record: GameRecord) -> int:
        return settings.ttl_of(record, incoming.now)

    charge = None if budget is None else budget.token
    done = writer.store.transact(incoming.game_id, field, stages, charge)
    if done.relists:
        writer.lobbies.sync(incoming.game_id, done.record, ttl(done.record), done.deleted)
    if isinstance(done.answer, ApiError):  # refused, but what the clock applied first was written
        raise done.answer
    return done.answer, done.record


def who_is_calling(
    record: GameRecord, incoming: Incoming, role: TokenRole | None, needs_token: str | None = None
) -> Caller:
    """The caller (401 for a token of neither the host nor a seat), with ``role`` if one is needed (401/403), or
    with a token of either role if ``needs_token`` (401 with that message)."""
    caller = tokens.identify(incoming.digest, record.host, record.seat_tokens(), incoming.player, record.seat_players())
    if role is not None:
        tokens.require(caller, role)
    elif needs_token is not None and caller.role == "anyone":
        raise ApiError("invalid_token", needs_token)
    return caller


def recall(snapshot: Snapshot, incoming: Incoming, caller: Caller) -> Remembered:
    """The caller's remembered answers, once its Idempotency-Key is known to be well formed (422)."""
    incoming.check_idempotency_key()
    if incoming.idempotency_key is not None and caller.role == "anyone":
        check_anonymous_key(incoming.idempotency_key)
    return Remembered.load(snapshot.idem)


def replayed(record: GameRecord, answer: Answer) -> Answer:
    """A recalled answer, as long as it may still be given: a seat's token only while that seat is still open to
    its holder, and a seat only while what that answer seated still holds it (a token left is dead, and the seat
    may be someone else's now)."""
    if answer.kind != "seat":
        return answer
    if answer.token is not None and not _token_replayable(record, answer):
        raise ApiError("game_started", "the game has started; its seats are closed")
    if not _still_seated(record, answer):
        raise ApiError("seat_left", f"seat {answer.seat} was left since; take a seat again with a new key")
    return answer


def _still_seated(record: GameRecord, answer: Answer) -> bool:
    """The seat holds the answer's token (by its hash), or for a bot seat, a bot not yet left (a left seat has no
    name: during play a bot holds it for a newcomer)."""
    assert answer.seat is not None
    taken = record.seats[answer.seat]
    if taken is None or taken.name is None:
        return False
    if answer.token is None:
        return taken.bot is not None
    return tokens.matches(tokens.token_hash(answer.token), taken.token)


def _token_replayable(record: GameRecord, answer: Answer) -> bool:
    """A seat answer hands its token back while the lobby is open, or during play for a seat taken during play."""
    return record.state is None or (record.status == "playing" and answer.version > record.lobby_version)
