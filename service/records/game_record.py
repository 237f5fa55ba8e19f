"""The service's record of one game: lobby, seats and token hashes around the core's state.

The core knows cards and turns; only the service knows the game id, names, bots, tokens and the lobby.
The record is stored as compact JSON with its own format version, next to ``thegame_core.dumps(state)``.
It serves every registered game alike: nothing here knows one game's rules.
"""

from __future__ import annotations

import json
import random
import secrets
from dataclasses import dataclass, field, replace
from typing import Any

import thegame_core as tg
from thegame_core.protocol import TableStatus

from .. import json_text
from .state_cache import STATES
from .timing import Timing

FORMAT_VERSION = 1
#: Writes whose nonces a record remembers: enough to resume the event streams of a brief disconnection one view at a
#: time; a stream further behind gets the current view (``knows``), as one more than ``BACKLOG`` versions behind does.
REMEMBERED_WRITES = 8


class CorruptRecord(Exception):
    """A stored record this version cannot read: a server-side fault, never the client's."""


@dataclass(frozen=True)
class Seat:
    name: str | None  # None: left during play, open to a newcomer while its bot plays it
    token: str | None  # SHA-256 of the seat token; bots have none
    bot: str | None = None
    reaction_ms: int | None = None  # a bot's pace (``schedule``; None: the game's default); None for people
    key: str | None = None  # a human seat's public key (``sealing``): its rematch token is sealed to it
    reaction_spread_ms: int | None = None  # a bot's seeded spread on its pace (``schedule``); None: none
    player: str | None = None  # the player this person's seat is bound to (``service/players``); None: anonymous

    def to_json(self) -> list[Any]:
        held = [self.name, self.token, self.bot, self.reaction_ms, self.key, self.reaction_spread_ms]
        return held if self.player is None else [*held, self.player]  # unbound seats stay as they were


@dataclass(frozen=True)
class GameRecord:
    """Everything stored about one game; ``state`` is ``None`` while it is a lobby."""

    game: str
    players: int
    options: dict[str, Any]
    seed: int  # given or drawn at creation; shuffles the deck (unless one was given) and draws the first seat
    host: str
    deck: list[int | str] | None = None  # an explicit deck, until the game starts (then the state holds it)
    lobby_version: int = 0
    seats: tuple[Seat | None, ...] = ()
    turn_seconds: int = 0  # the clock's options (``clock.OPTIONS``), kept apart from the core's
    bots_alone_ms: int = 0  # the least a bot waits with no person in the game (``TG_BOTS_ALONE_MS`` at creation)
    idle_turns: int = 3
    timing: Timing = field(default_factory=Timing)
    public: bool = False  # listed in the lobby list while it is a lobby with a free seat
    spectators: bool = True  # False: only seat and host tokens may read it
    created_at: int = 0  # Unix time in milliseconds (the lobby list's order)
    changes_in_play: tuple[int, ...] = ()  # the core version at each change after the start that is no action
    rematch: dict[str, Any] | None = None  # once over: {"game_id", "tokens": {seat: token sealed to its key}}
    daily: str | None = None  # a daily deal's day (YYYY-MM-DD, ``service/daily``); None for any other game
    given_deck: bool = False  # dealt from a deck the host gave, not from ``seed`` (its views then show no seed)
    paired: bool = False  # a lobby of Play now (``service/pairing``): seated by pairing only, started once full
    bots_at: int = 0  # a paired lobby's deadline (epoch ms; 0: none): bots then take its empty seats and it starts
    rated: bool = False  # a rated game (``service/ratings``): every seat a distinct player, no bot
    rated_players: tuple[str, ...] = ()  # a rated game's player of each seat, fixed at its start (who is rated)
    writes: tuple[tuple[int, str], ...] = ()  # the newest writes, oldest first: (the version it made, its nonce)
    state: tg.AnyState | None = field(default=None, compare=False)

    # Reading and writing ------------------------------------------------------------------
    @classmethod
    def load(cls, meta: str | None, state_text: str | None) -> GameRecord | None:
        """The record stored as ``meta`` and ``state_text`` (the hash's fields); ``None`` if the game does not exist
        (or has expired)."""
        if meta is None:
            return None
        try:
            data = json.loads(meta)
            if data.pop("fv") != FORMAT_VERSION:
                raise CorruptRecord(f"unknown record format {data!r:.80}")
            seats = tuple(None if seat is None else Seat(*seat) for seat in data.pop("seats"))
            data["changes_in_play"] = tuple(data.get("changes_in_play", ()))
            data["writes"] = tuple((int(version), str(nonce)) for version, nonce in data.get("writes", ()))
            data["rated_players"] = tuple(data.get("rated_players", ()))
            state = None if state_text is None else STATES.load(state_text, data["host"])
            timing = Timing.from_json(data.pop("clock", None), state)
            return cls(**data, seats=seats, timing=timing, state=state)
        except (ValueError, TypeError, KeyError) as error:
            raise CorruptRecord(str(error)) from error

    def meta_json(self) -> str:
        data = {
            "fv": FORMAT_VERSION,
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "seed": self.seed,
            "host": self.host,
            "deck": self.deck,
            "lobby_version": self.lobby_version,
            "seats": [None if seat is None else seat.to_json() for seat in self.seats],
            "turn_seconds": self.turn_seconds,
            "bots_alone_ms": self.bots_alone_ms,
            "idle_turns": self.idle_turns,
            "clock": self.timing.to_json(),
            "public": self.public,
            "spectators": self.spectators,
            "created_at": self.created_at,
            "changes_in_play": self.changes_in_play,
            "rematch": self.rematch,
            "writes": self.writes,
        }
        if self.daily is not None:  # only then: other games' records stay as they were
            data["daily"] = self.daily
        if self.given_deck:
            data["given_deck"] = True
        if self.paired:
            data.update(paired=True, bots_at=self.bots_at)
        if self.rated:
            data["rated"], data["rated_players"] = True, self.rated_players
        return json_text.dumps(data)

    def stamped(self) -> GameRecord:
        """The record as a write stores it: a write that makes a new version draws a nonce for it (one that leaves
        the version where it was keeps its nonce, as the version names the same state). After a Redis crash or
        failover has lost writes, the versions written again carry other nonces, so a client holding a lost
        version can tell (``tag``)."""
        if self.writes and self.writes[-1][0] == self.version:
            return self
        return replace(self, writes=(*self.writes, (self.version, secrets.token_hex(4)))[-REMEMBERED_WRITES:])

    def fields(self) -> dict[str, str]:
        """The hash fields to store (the state only once the game has started); a write stores them ``stamped``."""
        fields = {"meta": self.meta_json()}
        if self.state is not None:
            fields["state"] = STATES.dump(self.state, self.host)
        return fields

    # Derived facts ------------------------------------------------------------------------
    @property
    def status(self) -> TableStatus:
        return "lobby" if self.state is None else self.state.status

    @property
    def version(self) -> int:
        """Lobby changes, core actions, and changes after the start (seats changing hands, the rematch): +1 per
        change of the game."""
        return self.lobby_version + (0 if self.state is None else self.state.version) + len(self.changes_in_play)

    def version_of_action(self, number: int) -> int:
        """The version right after the core's ``number``-th action (1 is the first; seat changes before it count)."""
        return self.lobby_version + number + sum(1 for at in self.changes_in_play if at < number)

    def ended_since(self, earlier: GameRecord) -> bool:
        """Whether the game ended between ``earlier`` and this record: what this write stores outlives the game."""
        return earlier.status in ("lobby", "playing") and self.status not in ("lobby", "playing")

    def nonce_at(self, version: int) -> str | None:
        """The nonce of the write that made ``version``; ``None`` if unknown (older than the writes remembered, or
        a record written before nonces) or beyond the current version."""
        previous = None
        for written, nonce in self.writes:
            if written >= version:
                return nonce if previous is not None or written == version else None
            previous = written
        return None

    def tag(self, version: int | None = None) -> str:
        """``version`` (default: the current one) as ETags and event ids name it: ``<version>.<nonce>``, ordered by
        its version, so that the same version number with other content after a loss is another tag; the version
        alone when its nonce is unknown."""
        version = self.version if version is None else version
        nonce = self.nonce_at(version)
        return str(version) if nonce is None else f"{version}.{nonce}"

    def knows(self, version: int, nonce: str | None) -> bool:
        """Whether ``version`` as a client saw it (``nonce``: of the write that made it; ``None``: not known) is in
        this game's history: not beyond it, and not made by a write lost since (whose nonce differs)."""
        if version > self.version:
            return False
        mine = None if nonce is None else self.nonce_at(version)
        return mine is None or mine == nonce

    @property
    def free_seats(self) -> list[int]:
        return [seat for seat, taken in enumerate(self.seats) if taken is None]

    @property
    def open_seats(self) -> list[int]:
        """Seats a newcomer may take: free ones in the lobby, left ones during play (a bot plays them meanwhile)."""
        return [seat for seat, taken in enumerate(self.seats) if taken is None or taken.name is None]

    def seat_tokens(self) -> list[str | None]:
        return [None if seat is None else seat.token for seat in self.seats]

    def seat_players(self) -> list[str | None]:
        """The player each seat is bound to (``None``: free, a bot, or a person without a player key)."""
        return [None if seat is None else seat.player for seat in self.seats]

    def players_bound(self) -> list[str]:
        return [player for player in self.seat_players() if player is not None]

    @property
    def has_players(self) -> bool:
        """Whether a seat is bound to a player: finished, the game is kept for their history."""
        return any(seat is not None and seat.player is not None for seat in self.seats)

    @property
    def seed_dealt(self) -> bool:
        """Whether ``seed`` dealt this game (not a deck the host gave): only then do its views show the seed."""
        return self.deck is None and not self.given_deck

    def new_state(self, first_seat: int) -> tg.AnyState:
        """The dealt game, from the explicit deck if one was given, else from the seed."""
        seed = None if self.deck is not None else self.seed
        return tg.new_game(
            self.game, self.players, seed=seed, deck=self.deck, options=self.options, first_seat=first_seat
        )

    def drawn_first_seat(self) -> int:
        """The first seat when the host names none: drawn from the game's seed (not from the deck's stream)."""
        return random.Random(f"first_seat:{self.seed}").randrange(self.players)

    # Changes ------------------------------------------------------------------------------
    def with_seat(self, seat: int, taken: Seat | None) -> GameRecord:
        """``seat`` held by ``taken`` (``None``: free, in the lobby); during play the clock then times its bot."""
        seats = list(self.seats)
        seats[seat] = taken
        if self.state is None:
            return replace(self, seats=tuple(seats), lobby_version=self.lobby_version + 1)
        return replace(self, seats=tuple(seats), changes_in_play=(*self.changes_in_play, self.state.version))

    def with_rematch(self, rematch: dict[str, Any]) -> GameRecord:
        assert self.state is not None, "only a finished game has a rematch"
        return replace(self, rematch=rematch, changes_in_play=(*self.changes_in_play, self.state.version))

    def left(self, seat: int, stand_in: str) -> GameRecord:
        """``seat`` left: free in the lobby; during play open to a newcomer, played meanwhile by its own bot (a
        bot seat) or by ``stand_in``."""
        taken = self.seats[seat]
        if self.state is None or taken is None:
            return self.with_seat(seat, None)
        return self.with_seat(seat, Seat(None, None, taken.bot or stand_in))

    def started(self, first_seat: int) -> GameRecord:
        """The dealt game (the clock's ``schedule.changed`` then times it)."""
        state = self.new_state(first_seat)
        given, rated = self.deck is not None, self.seat_players() if self.rated else []
        assert None not in rated, "a rated game's seats are each bound to a player"
        return replace(
            self,
            deck=None,
            given_deck=given,
            lobby_version=self.lobby_version + 1,
            state=state,
            rated_players=tuple(player for player in rated if player is not None),
        )

    def with_state(self, state: tg.AnyState) -> GameRecord:
        """After actions (the clock's ``schedule.changed`` then times them)."""
        return replace(self, state=state)

    def actions_at(self, version: int) -> int:
        """How many core actions the game had at service ``version`` (seat changes during play are versions too)."""
        changes = enumerate(self.changes_in_play, 1)  # the n-th change is version lobby_version + at + n
        return version - self.lobby_version - sum(1 for n, at in changes if self.lobby_version + at + n <= version)

    def state_at(self, version: int) -> tg.AnyState:
        """The state as it was at service ``version`` (rebuilt from the history, for idempotent retries)."""
        assert self.state is not None, "a lobby has no state"
        actions = self.actions_at(version)
        if actions == self.state.version:
            return self.state
        record = self.state.replay_record()
        record["actions"] = record["actions"][:actions]
        return tg.replay(record)


def over_with_players(fields: dict[str, str]) -> GameRecord | None:
    """The game a write's stored ``fields`` (the store's after-write hooks) leave over, if players are bound to it;
    its meta alone is read first, as most games have no player and need no state loaded."""
    meta, state = fields.get("meta"), fields.get("state")
    if meta is None or state is None:
        return None
    lobby = GameRecord.load(meta, None)
    if lobby is None or not lobby.players_bound():
        return None
    record = GameRecord.load(meta, state)
    return (
        record
        if record is not None and record.state is not None and record.status not in ("lobby", "playing")
        else None
    )
