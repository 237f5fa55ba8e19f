"""Ninja, a shedding game of the Palace family (rules: ``docs/rules/ninja.md``, N1-N12).

Where the spec is silent, this package decides as follows (each covered by a test):

- **Turn order** is clockwise: the seat after ``s`` is ``s + 1`` (mod players), as the deal goes.
- **Sources.** A seat plays, counters and completes from its hand. With ``table_mode="play_from_table"``
  (classic Palace) the hand is refilled from the stock only; once hand and stock are empty the seat plays
  from its face-up cards (groups of one value, as from a hand; never mixed with hand cards), and once
  those are gone, blind: ``{"type": "play", "value": null, "count": 1}`` turns over its next face-down
  card (in deal order). If that card is legal it is placed (N7); if not, it goes with the pile into the
  hand, a pick-up (N11, counted by ``max_turns``). ``legal_actions`` offers this blind play as the only
  turn action (plus ``pick_up`` with ``voluntary_pickup`` and a pile). Completions and counters also come
  from face-up cards when the hand is empty, never blind.
- **give_optional:** the giver may send ``give`` with ``target`` null (or left out): no give, the 13 stays
  on the pile and the seat after the giver plays on it.
- **any_player_may_counter:** once the target is named, any seat but the giver may counter with 13s or 1s,
  out of turn (the game still waits for the target, ``current_seat``); only the target may accept. The first
  counter applied wins; the counterer becomes the placer (a new giver for 13s).
- **ninja_out_of_turn:** while a seat is to play (phase ``play``, never during a give or a refill), any
  seat may place its NINJA group; it is a placement (N7) by that seat, so the seat after it plays next
  (it closes an open completion window). It is not an in-turn play for ``max_turns``. NINJA still never counters.
- **single_completion:** three of a kind on top (placed by one placement) also opens a window, closed by
  the last copy alone; a pair still needs two.
- **ninja_mode="reset":** a NINJA on top sets no reference: anything may follow it (the 6 restriction ends).
  ``ninja_breaks_run=false``: NINJA cards are skipped when counting a run (four of a kind, pair windows).
- **six_mode="may_le"** makes any group legal on a 6 (so ``thirteen_on_six`` has no effect there);
  ``nine_anywhere`` lets a 9 go on anything, a 6 included; ``strict_one`` allows a 1 only on an empty pile
  or a 13 (a counter-1 included).
- **burner_leads** concerns the 9's burn only: after four of a kind the placer always leads (N7.4, N9);
  ``burner_leads=false`` has the seat after the burner lead.
- **play_to_last:** a seat out of cards leaves at once; what its last placement asked of it passes on (a
  burn's lead and 8s' "play again" go to the next seat in the game, a 13 gives nothing). Leaders, gives and
  skips only count seats still in the game. The game ends when one seat is left; ranking: seats in the order
  they went out, then the last one.
- **max_turns:** the ranking of a turn limit puts seats already out (``play_to_last``) first.
- ``ready`` from a seat already ready, like any in-turn action of a seat not waited for, is ``not_your_turn``.
- ``phase`` stays ``"play"`` once the game is over (``status`` says it ended); null in the lobby.
- ``asking_order()`` names the seats able to complete or counter, so it is for referees, not for views.
"""

from __future__ import annotations

from typing import Any

from ...dealt import DealtGame, Hooks
from ...protocol import BotFactory, BotPace, GameInfo
from .actions import (
    Accept,
    Action,
    Complete,
    Give,
    PickUp,
    Play,
    Ready,
    Swap,
    TakeFaceUp,
    action_from_dict,
    action_from_notation,
)
from .bots import BOTS
from .cards import CARDS_IN_DECK, FULL_DECK, NINJA, shuffled_deck
from .info import INFO
from .options import MAX_PLAYERS, MIN_PLAYERS, PRESETS, Options, resolve_options
from .state import State
from .views import GAME_NAME, Observation, lobby_view, observation_from_view

__all__ = [
    "CARDS_IN_DECK",
    "FULL_DECK",
    "GAME",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NINJA",
    "PRESETS",
    "Accept",
    "Action",
    "Complete",
    "Give",
    "Ninja",
    "Observation",
    "Options",
    "PickUp",
    "Play",
    "Ready",
    "State",
    "Swap",
    "TakeFaceUp",
]


class Ninja(DealtGame[State, Action, Observation]):
    """The registry entry for Ninja (``protocol.Game[Action, Observation]``)."""

    name = GAME_NAME
    info: GameInfo = INFO
    #: Its races (completions) need a person's chance, and people watching want to see each move: 1.5 s is about
    #: the time to see a pair on the pile and click, and a calm pace for in-turn moves.
    bot_pace = BotPace(1500)

    hooks = Hooks(
        resolve_options, State.start, action_from_dict, observation_from_view, lobby_view, action_from_notation
    )

    def __init__(self) -> None:
        self.bots: dict[str, BotFactory] = dict(BOTS)  # random, greedy and best (bots/)

    def shuffled_deck(self, seed: int, options: Any = None) -> tuple[int, ...]:
        return shuffled_deck(seed)


GAME = Ninja()
