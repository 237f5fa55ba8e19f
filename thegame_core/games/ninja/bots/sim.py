"""A fast, mutable Ninja for rollouts: the default rules (``standard``, any ``max_turns``) on count
lists, played to the end by a quick policy (``World.run``). ``best`` builds one per sampled deal of
the hidden cards (``knowledge.Tracker.deal_hidden``); nothing here ever sees a real hidden card.

Hands are counts per value (index 0 is NINJA); the stock is drawn from its end (it is a random
order anyway). Every seat completes a pair when it can, as the bots do.
"""

from __future__ import annotations

from functools import lru_cache

from ..options import MIN_PLAYERS, Options
from ..rules import legal_values, reference

NINJA, ONE, SIX, EIGHT, NINE, THIRTEEN = 0, 1, 6, 8, 9, 13
PLAY, TARGET, RESPOND, DONE = 0, 1, 2, 3
#: Specials in the order a rollout spends them when nothing plain is legal (NINJA, the escape, last).
SPEND = (ONE, SIX, EIGHT, NINE, THIRTEEN, NINJA)
SPEND_BIG = (THIRTEEN, NINE, ONE, SIX, EIGHT, NINJA)  # on a big pile: give it away or burn it first
PLAIN = (2, 3, 4, 5, 7, 10, 11, 12)
BIG_PILE = 5


@lru_cache(maxsize=64)
def searchable(options: Options) -> bool:
    """Whether ``World`` plays these rules: the defaults, whatever ``max_turns``."""
    return options == Options(options.players, max_turns=options.max_turns)


#: The rules ``World`` plays (the defaults; ``max_turns`` aside, the player count changes no rule).
STANDARD = Options(MIN_PLAYERS)


class World:
    """One full deal, every card placed: hands (counts), face-up and face-down cards, stock, pile."""

    __slots__ = (
        "face_down",
        "face_up",
        "giver",
        "hands",
        "last_layer",
        "phase",
        "pile",
        "players",
        "ref",
        "run_length",
        "sizes",
        "stock",
        "turn",
        "winner",
    )  # fmt: skip

    def __init__(
        self,
        hands: list[list[int]],
        face_up: list[list[int]],
        face_down: list[list[int]],
        stock: list[int],
        pile: list[int],
        turn: int,
        last_layer: int | None,
    ) -> None:
        self.players = len(hands)
        self.hands = [[0] * 14 for _ in hands]
        for seat, cards in enumerate(hands):
            for card in cards:
                self.hands[seat][card] += 1
        self.sizes = [len(cards) for cards in hands]
        self.face_up = [sorted(cards) for cards in face_up]
        self.face_down = [list(cards) for cards in face_down]
        self.stock = list(stock)
        self.pile = list(pile)
        self.ref = reference(self.pile, STANDARD) or 0
        self.run_length = run_of(self.pile)
        self.last_layer = last_layer
        self.phase, self.turn, self.giver, self.winner = PLAY, turn, -1, -1

    def copy(self) -> World:
        other = World.__new__(World)
        other.players = self.players
        other.hands = [hand[:] for hand in self.hands]
        other.sizes = self.sizes[:]
        other.face_up = [cards[:] for cards in self.face_up]
        other.face_down = [cards[:] for cards in self.face_down]
        other.stock = self.stock[:]
        other.pile = self.pile[:]
        other.ref, other.last_layer, other.run_length = self.ref, self.last_layer, self.run_length
        other.phase, other.turn, other.giver, other.winner = self.phase, self.turn, self.giver, self.winner
        return other

    def held(self, seat: int) -> int:
        return self.sizes[seat] + len(self.face_up[seat]) + len(self.face_down[seat])

    # Moves ------------------------------------------------------------------------------------
    def play(self, seat: int, value: int, count: int) -> None:
        """``seat`` places ``count`` x ``value`` from its hand (a turn, a counter, a completion)."""
        self.hands[seat][value] -= count
        self.sizes[seat] -= count
        pile = self.pile
        if not value:
            self.run_length = 0
        elif self.run_length and pile[-1] == value:
            self.run_length += count
        else:
            self.run_length = count
        pile += [value] * count
        if value:
            self.ref = value
        self.last_layer = seat
        if self.sizes[seat] < 3:
            self._refill(seat)
        self.resolve(seat, value, count)

    def resolve(self, seat: int, value: int, count: int) -> None:
        """The rest of a placement once its refill is done: out, burn, completion, the card's effect."""
        if not self.sizes[seat] and not self.face_up[seat] and not self.face_down[seat]:
            self.winner, self.phase = seat, DONE
            return
        run = self.run_length
        if value == NINE or run >= 4:
            self.pile, self.ref, self.last_layer, self.run_length = [], 0, None, 0
            self.phase, self.turn = PLAY, seat
            return
        players = self.players
        if run == 2 and value != SIX and value:
            hands = self.hands
            for step in range(1, players):
                other = (seat + step) % players
                if hands[other][value] >= 2:
                    self.play(other, value, 2)  # four on top: a burn, the completer leads
                    return
        if value == THIRTEEN:
            self.phase, self.giver, self.turn = TARGET, seat, seat
            return
        self.phase = PLAY
        if value == EIGHT:
            self.turn = seat if count >= players - 1 else (seat + count + 1) % players
        else:
            self.turn = (seat + 1) % players

    def pick_up(self, seat: int) -> None:
        """``seat`` takes the pile (a pick-up, or accepting a give); the last layer leads."""
        hand = self.hands[seat]
        for card in self.pile:
            hand[card] += 1
        self.sizes[seat] += len(self.pile)
        leader = self.last_layer if self.phase == PLAY else self.giver
        self.pile, self.ref, self.last_layer, self.run_length = [], 0, None, 0
        self.phase, self.turn = PLAY, seat if leader is None else leader

    def give(self, target: int) -> None:
        self.phase, self.turn = RESPOND, target

    def _refill(self, seat: int) -> None:
        need = 3 - self.sizes[seat]
        if need <= 0:
            return
        hand, stock = self.hands[seat], self.stock
        while need and stock:
            hand[stock.pop()] += 1
            need -= 1
            self.sizes[seat] += 1
        if need:
            face_up = self.face_up[seat]
            while need and face_up:
                hand[face_up.pop()] += 1  # the highest first: rollouts keep low cards on the table
                need -= 1
                self.sizes[seat] += 1
            face_down = self.face_down[seat]
            while need and face_down:
                hand[face_down.pop()] += 1
                need -= 1
                self.sizes[seat] += 1

    # The rollout policy -------------------------------------------------------------------------
    def choose(self, seat: int) -> int:
        """The value ``seat`` plays on its turn (every copy), or -1 to pick up (``pick``)."""
        return pick(self.hands[seat], self.ref, self.run_length, len(self.pile))

    def target(self, giver: int) -> int:
        """The seat that gets a give: the one closest to going out."""
        players = self.players
        return min(((giver + step) % players for step in range(1, players)), key=self.held)

    def respond(self, seat: int) -> int:
        """A target's answer: counter with 1s, else 13s; -1 accepts."""
        hand = self.hands[seat]
        return ONE if hand[ONE] else THIRTEEN if hand[THIRTEEN] else -1

    def run(self, limit: int) -> None:
        """Play on by the rollout policy until a seat is out or ``limit`` moves were made."""
        hands = self.hands
        for _ in range(limit):
            phase = self.phase
            if phase == PLAY:
                seat = self.turn
                value = pick(hands[seat], self.ref, self.run_length, len(self.pile))
                if value < 0:
                    self.pick_up(seat)
                else:
                    self.play(seat, value, hands[seat][value])
            elif phase == TARGET:
                self.give(self.target(self.turn))
            elif phase == RESPOND:
                seat = self.turn
                value = self.respond(seat)
                if value < 0:
                    self.pick_up(seat)
                else:
                    self.play(seat, value, hands[seat][value])
            else:
                return


def run_of(pile: list[int]) -> int:
    """Cards of the top value in a row on top of the pile (0 under a NINJA on top)."""
    if not pile:
        return 0
    top = pile[-1]
    if top == NINJA:
        return 0
    run = 1
    index = len(pile) - 2
    while index >= 0 and pile[index] == top:
        run += 1
        index -= 1
    return run


def pick(hand: list[int], ref: int, run: int, size: int) -> int:
    """The quick policy: the value to play (every copy) from ``hand`` (counts) on ``ref`` (0: none),
    with ``run`` cards of ``ref`` on top and ``size`` cards on the pile; -1 to pick up. Four on top
    when it can make them (a burn, and it leads), else its lowest plain value, else a special: 1, 6,
    8, 9, 13 on a small pile, 13 and 9 first on a big one (give it away, or burn it), NINJA last."""
    if run and hand[ref] and hand[ref] + run >= 4:
        return ref
    legal_on = legal_values(ref, STANDARD)
    for value in PLAIN:
        if hand[value] and legal_on[value]:
            return value
    for value in SPEND_BIG if size >= BIG_PILE else SPEND:
        if hand[value] and legal_on[value]:
            return value
    return -1
