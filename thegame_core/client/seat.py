"""One seat played by a bot over HTTP: follow the seat's views, decide when the view lets the seat act, send.

The bot reads the same observation it reads in-process (``Game.observation_from_view``): the view, plus the
public history from the game's log up to the view's version. A decision is sent as one batch with
``If-Match: "<tag>"``, the view's event id (it only applies to the state the bot saw, even if Redis lost that state
and the game went on from an earlier one), and an ``Idempotency-Key`` derived from that tag (a retry after a network
error is never applied twice). After such a loss the stream sends the game as it stands, whose version may be one
the bot decided at already: the bot forgets its decisions and decides again. A real-time game's batch goes without
``If-Match``: its actions carry what they need (a slap its ``pile_version``, judged stale by the game if the pile
moved on; a flip is refused once it is not the seat's turn), and another seat's change that leaves the pile as it
was (a late slap) must not cost the seat its slap. When another change got there first (a race:
``stale_version``, ``not_your_turn``, ``window_closed``...) nothing was applied, and the next view of the stream
brings the change that won: the seat decides again then, never in a loop of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..protocol import AnyBot, GameInfo
from ..registry import get_game
from .api import NETWORK_ERRORS, Api, ApiError
from .stream import Backoff, follow

__all__ = ["LOST_RACES", "Move", "Refused", "SeatPlayer", "Summary", "call", "history"]

#: Refusals that mean "the game moved on before this decision reached it": nothing was applied, wait for the next
#: view. (``idempotency_key_reused``: this version's decision was already applied, by an earlier run. A real-time
#: batch, sent without ``If-Match``, meets the later change itself: Bataille corse's ``slap_window_open``, a flip
#: decided before another seat's slap opened a window, and ``already_slapped``.)
LOST_RACES = frozenset(
    {"stale_version", "not_your_turn", "window_closed", "game_over", "idempotency_key_reused"}
    | {"slap_window_open", "already_slapped"}
)

#: Views of a game that is neither waiting for players nor running: it is over.
RUNNING = frozenset({"lobby", "playing"})


class Refused(Exception):
    """The server refused what this client cannot change by waiting: a bad token, a bot's illegal action."""


@dataclass(frozen=True)
class Move:
    """One decision of the bot, as sent at ``version`` and applied (``after``: the version of the answer)."""

    seat: int
    version: int
    actions: list[dict[str, Any]]
    after: int


@dataclass(frozen=True)
class Summary:
    """How the game ended, and what this client did in it: ``winner`` (a seat, ``None`` in a cooperative game or
    a game with no winner) and ``place`` (this seat's, 1 for the winner, from the outcome's ranking, else ``None``);
    ``names``: the name of each seat."""

    game_id: str
    seat: int
    status: str
    version: int
    outcome: dict[str, Any] | None
    moves: int
    actions: int
    winner: int | None = None
    place: int | None = None
    names: list[str | None] = field(default_factory=list)


def history(entries: Iterable[Mapping[str, Any]], info: GameInfo, version: int) -> list[dict[str, Any]]:
    """The actions of the log ``entries`` up to ``version``, in the dict form the game parses: the log adds the
    service's own facts (``version``, ``bot``, ``auto``...) that an action does not hold. An action the catalog
    does not list is the server's own (Bataille corse's ``judge``): its type and seat are its dict form."""
    fields = {action.type: {"type", "seat", *action.fields} for action in info.actions}
    return [
        {name: value for name, value in entry.items() if name in fields.get(entry["type"], ("type", "seat"))}
        for entry in entries
        if entry["version"] <= version
    ]


def call(
    api: Api, backoff: Backoff, method: str, path: str = "", body: Any = None, headers: Mapping[str, str] | None = None
) -> Any:
    """``api.call``, retried with the same request (so the same Idempotency-Key) through network errors and
    retryable refusals (``503``, ``429``: after their ``Retry-After``)."""
    while True:
        try:
            answer = api.call(method, path, body, headers)
        except ApiError as error:
            if not error.retryable:
                raise
            backoff.wait(error, error.retry_after or 0.0)
        except NETWORK_ERRORS as error:
            backoff.wait(error)
        else:
            backoff.reset()
            return answer


@dataclass
class SeatPlayer:
    """Plays the seat of ``api``'s token with ``bot`` (one bot per seat and game: bots may remember what they saw)
    until the game is over."""

    api: Api
    bot: AnyBot
    backoff: Backoff = field(default_factory=Backoff)
    on_move: Callable[[Move], None] = lambda move: None
    on_lobby: Callable[[Mapping[str, Any]], None] = lambda view: None  # each view while the game waits to start
    moves: int = field(default=0, init=False)
    actions: int = field(default=0, init=False)
    _decided: int = field(default=-1, init=False)  # the latest version the bot decided at
    _answered: int = field(default=-1, init=False)  # the version of the latest answer to this seat's move

    def play(self) -> Summary:
        """Follow the stream to the end of the game; ``Refused`` (or ``ApiError``) when it cannot."""
        for view, tag, resync in follow(self.api, self.backoff):
            if resync:  # the versions decided at were lost: the same numbers now name other states
                self._decided = self._answered = -1
            if view["status"] not in RUNNING:
                return self._summary(view)
            if "seat" not in view:
                raise Refused("this token is not a seat's token (a host token only watches)")
            if view["status"] == "lobby":
                self.on_lobby(view)
            elif self._may_act(view):
                self._act(view, tag)
        return self._summary(call(self.api, self.backoff, "GET"))  # the stream ended: the game is over

    def _may_act(self, view: Mapping[str, Any]) -> bool:
        """The view lists actions for this seat, is newer than any decision, and is not the stream catching up
        with this seat's own answered move."""
        version = view["version"]
        fresh = version > self._decided and version >= self._answered
        return fresh and view["status"] == "playing" and bool(view["legal_actions"])

    def _act(self, view: Mapping[str, Any], tag: str) -> None:
        version, game = view["version"], get_game(view["game"])
        log = call(self.api, self.backoff, "GET", "/log")
        observation = game.observation_from_view(view, history(log["entries"], game.info, version))
        decision = [_without_seat(action.to_dict()) for action in self.bot.act(observation)]
        self._decided = version
        if not decision:
            return
        headers = {"Idempotency-Key": f"tg-client-{view['seat']}-{tag}"}
        if not game.realtime:  # a real-time game judges each action on what it carries
            headers["If-Match"] = f'"{tag}"'
        try:
            answer = call(self.api, self.backoff, "POST", "/actions", {"actions": decision}, headers)
        except ApiError as error:
            if error.code in LOST_RACES:
                return
            raise Refused(f"the server refused the bot's actions {decision}: {error}") from error
        self._answered = answer["version"]
        self.moves += 1
        self.actions += len(decision)
        self.on_move(Move(view["seat"], version, decision, answer["version"]))

    def _summary(self, view: Mapping[str, Any]) -> Summary:
        seat, outcome = view.get("seat", -1), view["outcome"] or {}
        ranking = outcome.get("ranking") or []
        return Summary(
            self.api.game_id,
            seat,
            view["status"],
            view["version"],
            view["outcome"],
            self.moves,
            self.actions,
            outcome.get("winner"),
            ranking.index(seat) + 1 if seat in ranking else None,
            [entry.get("name") for entry in view.get("seats", [])],
        )


def _without_seat(action: dict[str, Any]) -> dict[str, Any]:
    """An action as a seat sends it: the token says who acts."""
    action.pop("seat", None)
    return action
