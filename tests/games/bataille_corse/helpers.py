"""Shared helpers of Bataille corse's tests: card strings to ints, decks that deal chosen packets, and positions.

``position`` sets a table up directly (packets, pile, challenge, errors), as a scenario needs it; everything after
that goes through the real transitions (``apply``), which are what the tests check.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from thegame_core.games.bataille_corse import GAME, Flip, Slap, State, slappable
from thegame_core.games.bataille_corse.cards import CARD_OF, NAMES, PLAIN_DECK


def cards(text: str) -> tuple[int, ...]:
    """``"7H 7D"`` as card ints, in that order."""
    return tuple(CARD_OF[name] for name in text.split())


def names(card_ints: Sequence[int]) -> list[str]:
    return [NAMES[card] for card in card_ints]


def deck_for(players: int, packets: Mapping[int, str], first_seat: int = 0) -> list[str]:
    """The 52-card deck in deal order whose deal gives each named seat those first cards (in flip order); the
    cards nobody named fill the rest, in rank order."""
    named = {seat: text.split() for seat, text in packets.items()}
    used = {name for chosen in named.values() for name in chosen}
    filler = [name for name in PLAIN_DECK if name not in used]
    wanted: dict[int, list[str]] = {seat: list(named.get(seat, [])) for seat in range(players)}
    deck = []
    for index in range(52):
        seat = (first_seat + index) % players
        deck.append(wanted[seat].pop(0) if wanted[seat] else filler.pop(0))
    assert not any(wanted.values()), "more cards named than a packet holds"
    return deck


def position(
    players: int,
    packets: Mapping[int, str],
    pile: str = "",
    *,
    current: int = 0,
    challenge: tuple[int, int, int] | None = None,
    errors: Sequence[int] | None = None,
    options: Mapping[str, Any] | None = None,
    last_flipper: int | None = None,
) -> State:
    """A table set up directly: the named packets (others empty), the face-up ``pile`` (bottom first)."""
    start = GAME.new_game(players=players, seed=1, options=options)
    packet_ints = tuple(cards(packets.get(seat, "")) for seat in range(players))
    ins = sum(1 << seat for seat, packet in enumerate(packet_ints) if packet)
    if challenge is not None:
        ins |= 1 << challenge[0] | 1 << challenge[1]
    return start._replace(
        packets=packet_ints,
        pile=cards(pile),
        pile_version=len(pile.split()),
        current=current,
        challenge=challenge,
        errors=tuple(errors or (0,) * players),
        ins=ins,
        last_flipper=last_flipper,
        flips=len(pile.split()),
    )


def flip(state: State) -> State:
    return state.apply(Flip(state.current))


def slap(state: State, seat: int) -> State:
    """``seat`` slaps the pile as it is now."""
    return state.apply(Slap(seat, state.pile_version))


def packet(state: State, seat: int) -> list[str]:
    return names(state.packets[seat])


def last_result(state: State) -> str | None:
    return state.results(1)[0]


def largest_game(state: State, until_flips: int = 10_000) -> Iterator[tuple[int | None, State]]:
    """The longest game's actions from ``state`` (8 seats, ``penalty_count`` 0: false slaps cost no card), one at
    a time with the seat that sent each (``None``: the referee's judge): every seat that may slap slaps every card
    that makes a combination (one valid, the others stale) and now and then a card that makes none, the seat
    holding the fewest cards first, so that the game runs to ``max_flips``. With a collection window the slaps are
    received about 25 ms apart after each card, a card every 0.4 to 1.5 s; those after the window's close come
    after its judge (stale); without one, no time is drawn (the flood is the same game for any stamps). Stops
    before the flip past ``until_flips``."""
    rng = random.Random(2)
    timed = state.options.slap_window_ms > 0
    now = 1_764_190_000_000  # epoch milliseconds, as the service stamps them
    while state.status == "playing" and state.flips < until_flips:
        now += rng.randrange(400, 1500) if timed else 0
        state = state.apply(Flip(state.current))
        yield state.history[-1].seat, state
        if state.status != "playing" or not (slappable(state.pile, state.options) or rng.random() < 0.05):
            continue
        version = state.pile_version
        seats = [seat for seat in range(state.players) if state.may_slap(seat)]
        seats.sort(key=lambda seat: (len(state.packets[seat]), rng.random()))
        for order, seat in enumerate(seats):
            at = now + 25 * order + (rng.randrange(25) if timed else 0)
            due = state.timer()
            if due is not None and at >= due.due:
                state = state.apply(due.action)
                yield None, state
            state = state.apply(GAME.received(Slap(seat, version), at))
            yield seat, state
        due = state.timer()
        if due is not None:
            state = state.apply(due.action)
            yield None, state
