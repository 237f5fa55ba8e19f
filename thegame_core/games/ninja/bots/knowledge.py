"""What a seat knows from the public history (``Tracker``), and the hidden deals consistent with it.

Everything on the pile was played face up, so the values of every burned card and of every pile
picked up or accepted are public; so are swaps (a hand card goes face up, a face-up card into the
hand) and face-up cards taken into a hand by a refill. A seat replays the history since its last
observation to keep, for every other seat, the cards *known* to be in its hand; the rest of the
deck (``unseen``) is split between those hands' unknown cards, every face-down card and the stock.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..actions import Accept, Action, Complete, PickUp, Play, Swap, TakeFaceUp
from ..cards import COPIES, HAND_TARGET, HIGHEST
from ..options import Options
from ..rules import BURN_RUN, NINE, run_length
from ..views import Observation

VALUES = HIGHEST + 1  # counts are indexed by card value, 0 (NINJA) to 13
UNKNOWN = -1  # a card on the pile whose value this seat never saw (a blind play of play_from_table)


def counts(cards: Sequence[int]) -> list[int]:
    """``cards`` as a count per value."""
    table = [0] * VALUES
    for card in cards:
        if card >= 0:
            table[card] += 1
    return table


class Tracker:
    """One seat's public knowledge, brought up to date from each observation's history (``update``).

    Exact when it starts from the deal (its first observation is the swap phase, as in every game a
    bot plays from the start); started mid-game, it does not know the values burned before, and
    counts them as unseen. A blind play (``play_from_table``) puts an ``UNKNOWN`` card on its pile.
    """

    def __init__(self, observation: Observation) -> None:
        self.options: Options = observation.options
        self.players = observation.options.players
        self.reset(observation)

    def reset(self, observation: Observation) -> None:
        self.version = len(observation.history)
        self.last: Action | None = observation.history[-1] if observation.history else None
        self.pile: list[int] = list(observation.pile)
        self.face_up: list[list[int]] = [list(cards) for cards in observation.face_up]
        self.hand_sizes = list(observation.hand_sizes)
        self.face_down = list(observation.face_down)
        self.stock = observation.stock
        self.known: list[list[int]] = [[0] * VALUES for _ in range(self.players)]
        self.burned = [0] * VALUES
        self.unknown_burned = observation.burned  # burned before this seat first looked: values unknown
        self.last_layer: int | None = None  # who placed the pile's top card (unknown when started mid-game)
        self.pending: int | None = None  # the value placed while its refill waits for a face-up choice

    # Keeping up ---------------------------------------------------------------------------------
    def update(self, observation: Observation) -> None:
        """Replay the actions since the last update; start again from ``observation`` if it is not
        a continuation of what was seen, and trust it for every count that disagrees."""
        history = observation.history
        if len(history) < self.version or (self.version and history[self.version - 1] != self.last):
            self.reset(observation)
            return
        try:
            for action in history[self.version :]:
                self.apply(action)
        except ValueError:  # a card this replay did not see coming (blind plays): start again from here
            self.reset(observation)
            return
        self.version = len(history)
        self.last = history[-1] if history else None
        if (
            self.pile != list(observation.pile)
            or self.hand_sizes != list(observation.hand_sizes)
            or self.stock != observation.stock
            or any(list(up) != sorted(mine) for up, mine in zip(observation.face_up, self.face_up, strict=True))
        ):  # a blind play, or anything this replay does not model: keep the knowledge, trust the counts
            self.pile = list(observation.pile)
            self.hand_sizes = list(observation.hand_sizes)
            self.face_up = [list(cards) for cards in observation.face_up]
            self.face_down = list(observation.face_down)
            self.stock = observation.stock
            for seat in range(self.players):
                self._clamp(seat)

    def _clamp(self, seat: int) -> None:
        known, size = self.known[seat], self.hand_sizes[seat]
        while sum(known) > size:
            known[max(range(VALUES), key=known.__getitem__)] -= 1

    def apply(self, action: Action) -> None:
        kind = type(action)
        if kind is Play:
            assert isinstance(action, Play)
            seat, value, count = action
            if value is None:  # blind: the card is turned over from the face-down ones
                self.face_down[seat] -= 1
                self._place(seat, UNKNOWN, 1)
            else:
                self._take(seat, value, count)
                self._place(seat, value, count)
        elif kind is Complete:
            assert isinstance(action, Complete)
            need = 2 if run_length(self.pile, self.options) == 2 else 1
            self._take(action.seat, action.value, need)
            self._place(action.seat, action.value, need)
        elif kind is PickUp or kind is Accept:
            seat = action.seat
            self.hand_sizes[seat] += len(self.pile)
            known = self.known[seat]
            for card in self.pile:
                if card >= 0:
                    known[card] += 1
            self.pile, self.last_layer = [], None
        elif kind is TakeFaceUp:
            assert isinstance(action, TakeFaceUp)
            seat, value = action
            self.face_up[seat].remove(value)
            self.hand_sizes[seat] += 1
            self.known[seat][value] += 1
            if self._refill(seat) and self.pending is not None:
                value, self.pending = self.pending, None
                self._burn(value)
        elif kind is Swap:
            assert isinstance(action, Swap)
            seat, hand_card, face_up_card = action
            self.face_up[seat].remove(face_up_card)
            self.face_up[seat].append(hand_card)
            known = self.known[seat]
            known[face_up_card] += 1
            if known[hand_card]:
                known[hand_card] -= 1

    def _take(self, seat: int, value: int, count: int) -> None:
        if self.hand_sizes[seat] or not self.options.from_table:
            self.hand_sizes[seat] -= count
            known = self.known[seat]
            known[value] -= min(known[value], count)
        else:
            for _ in range(count):
                self.face_up[seat].remove(value)

    def _place(self, seat: int, value: int, count: int) -> None:
        self.pile += [value] * count
        self.last_layer = seat
        if self._refill(seat):
            self._burn(value)
        else:
            self.pending = value

    def _burn(self, value: int) -> None:
        """A placement's refill is done: the pile burns after 9s or four of a kind."""
        if value == NINE or run_length(self.pile, self.options) >= BURN_RUN:
            for card in self.pile:
                if card >= 0:
                    self.burned[card] += 1
                else:
                    self.unknown_burned += 1
            self.pile, self.last_layer = [], None

    def _refill(self, seat: int) -> bool:
        """The refill after a placement; False while the seat must choose a face-up card."""
        need = HAND_TARGET - self.hand_sizes[seat]
        if need <= 0:
            return True
        take = min(need, self.stock)
        self.stock -= take
        self.hand_sizes[seat] += take
        need -= take
        if not need or self.options.from_table:
            return True
        face_up, known = self.face_up[seat], self.known[seat]
        if len(face_up) <= need:
            for card in face_up:
                known[card] += 1
            self.hand_sizes[seat] += len(face_up)
            need -= len(face_up)
            face_up.clear()
            down = min(need, self.face_down[seat])
            self.face_down[seat] -= down
            self.hand_sizes[seat] += down
        elif min(face_up) == max(face_up):
            known[face_up[0]] += need
            self.hand_sizes[seat] += need
            del face_up[:need]
        else:
            return False  # the seat chooses: its TakeFaceUp actions follow in the history
        return True

    # Hidden cards -------------------------------------------------------------------------------
    def unseen(self, seat: int, hand: Sequence[int]) -> list[int]:
        """The cards ``seat`` cannot place: the deck less its hand, every face-up card, the pile,
        the burned cards and the cards known in other hands (one entry per copy)."""
        left = dict(COPIES)
        for card in hand:
            left[card] -= 1
        for cards in (*self.face_up, self.pile):
            for card in cards:
                if card >= 0:
                    left[card] -= 1
        for value in range(VALUES):
            left[value] -= self.burned[value]
            for other in range(self.players):
                if other != seat:
                    left[value] -= self.known[other][value]
        return [value for value in range(VALUES) for _ in range(max(0, left[value]))]

    def deal_hidden(
        self, seat: int, hand: Sequence[int], rng: random.Random
    ) -> tuple[list[list[int]], list[list[int]], list[int]]:
        """One deal of the hidden cards consistent with what ``seat`` knows: every hand (its own as
        it is; others' known cards plus unseen ones), every seat's face-down cards, the stock."""
        pool = self.unseen(seat, hand)
        rng.shuffle(pool)
        hands: list[list[int]] = []
        for other in range(self.players):
            if other == seat:
                hands.append(list(hand))
                continue
            known = [value for value in range(VALUES) for _ in range(self.known[other][value])]
            missing = max(0, self.hand_sizes[other] - len(known))
            hands.append(known + _draw(pool, missing, rng))
        face_down = [_draw(pool, self.face_down[other], rng) for other in range(self.players)]
        stock = _draw(pool, self.stock, rng)
        return hands, face_down, stock


def _draw(pool: list[int], count: int, rng: random.Random) -> list[int]:
    """``count`` cards off the end of the shuffled ``pool`` (random values if it runs short: the
    knowledge was not exact)."""
    cards = [pool.pop() for _ in range(min(count, len(pool)))]
    while len(cards) < count:
        cards.append(rng.randrange(1, VALUES))
    return cards
