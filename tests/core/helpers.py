"""Shared helpers of the core test suite: exact decks, scripted turns, invariant checks and random play.

Every scenario is built through the public API only: an explicit deck gives the hands and the draw order
(spec "Setup" 2), and the piles are brought into position by real plays.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import pytest

import thegame_core as tg

ALL_CARDS = list(range(2, 100))
CARDS = 98
A1, A2, D1, D2 = "asc1", "asc2", "desc1", "desc2"
PRESET_NAMES = ("standard", "expert", "expert_small_hand")
STUCK_POLICIES = ("strict", "try")

Turn = Sequence[tuple[int, str]]


def new(players: int, **kwargs: Any) -> tg.State:
    """``tg.new_game("the-game", players, ...)``."""
    return tg.new_game("the-game", players, **kwargs)


def deck_for(hands: Sequence[Sequence[int]], then: Sequence[int] = ()) -> list[int]:
    """A deck in draw order that deals ``hands`` (seat i gets ``hands[i]``), then draws ``then`` in order.

    The deal is round robin from seat 0 (spec "Setup" 2): card ``d[i]`` of the first ``players x hand_size``
    goes to seat ``i mod players``. Every card not named follows in ascending order.
    """
    sizes = {len(hand) for hand in hands}
    assert len(sizes) == 1, "every hand has the same size"
    (size,) = sizes
    dealt = [hand[index] for index in range(size) for hand in hands]
    named = dealt + list(then)
    assert len(set(named)) == len(named), "a card is named twice"
    assert set(named) <= set(ALL_CARDS), "cards are 2..99"
    return named + sorted(set(ALL_CARDS) - set(named))


def scripted_deck(
    players: int, hand_size: int, turns: Sequence[Turn], *, first_seat: int = 0, fillers: Sequence[int] = ()
) -> list[int]:
    """A deck under which ``turns`` (the plays of each turn, seats in turn order) can be played as written.

    Each seat's hand always holds the next cards it will place, in order: it is dealt the first of them and
    draws the following ones as it places cards. When a seat has nothing left to place it receives
    ``fillers`` in order, then the unnamed cards ascending; what is left ends the draw pile.
    """
    remaining = CARDS - players * hand_size
    counts = [hand_size] * players
    queues: list[list[int]] = [[] for _ in range(players)]
    draws: list[tuple[int, int]] = []  # (seat, cards drawn) per turn
    seat = first_seat
    for turn in turns:
        queues[seat].extend(card for card, _ in turn)
        drawn = min(len(turn), remaining)
        remaining -= drawn
        counts[seat] += drawn - len(turn)
        draws.append((seat, drawn))
        if not any(counts):
            break
        seat = next((seat + step) % players for step in range(1, players + 1) if counts[(seat + step) % players])
    placed = {card for queue in queues for card in queue}
    pool = list(fillers) + sorted(set(ALL_CARDS) - placed - set(fillers))

    def take(seat: int) -> int:
        return queues[seat].pop(0) if queues[seat] else pool.pop(0)

    hands = [[0] * hand_size for _ in range(players)]
    for index in range(hand_size):
        for owner in range(players):
            hands[owner][index] = take(owner)
    then = [take(owner) for owner, drawn in draws for _ in range(drawn)]
    assert not any(queues), "the script places a card its seat can never hold"
    return deck_for(hands, then + pool)


def play_turns(state: tg.State, turns: Iterable[Turn], *, end_last: bool = True) -> tg.State:
    """Place each turn's cards as the current seat and end the turn (the last one only if ``end_last``).

    A turn whose last play wins the game is not ended: nothing is left to end (spec "A turn").
    """
    turns = list(turns)
    for number, turn in enumerate(turns):
        seat = state.current_seat
        state = state.apply_all([tg.Play(seat, card, pile) for card, pile in turn])
        if state.status == "playing" and (end_last or number < len(turns) - 1):
            state = state.apply(tg.EndTurn(seat))
    return state


def scripted_start(
    players: int,
    turns: Sequence[Turn],
    *,
    options: dict[str, Any] | None = None,
    first_seat: int = 0,
    fillers: Sequence[int] = (),
) -> tg.State:
    """A new game whose deck (``scripted_deck``) lets ``turns`` be played as written."""
    hand_size = new(players, seed=0, options=options).options.hand_size
    deck = scripted_deck(players, hand_size, turns, first_seat=first_seat, fillers=fillers)
    return new(players, deck=deck, options=options, first_seat=first_seat)


def scripted_game(players: int, turns: Sequence[Turn], *, end_last: bool = True, **setup: Any) -> tg.State:
    """``scripted_start`` then every turn played."""
    return play_turns(scripted_start(players, turns, **setup), turns, end_last=end_last)


def ascending_turns(
    players: int, hand_size: int, counts: Iterable[int], *, first_seat: int = 0
) -> list[list[tuple[int, str]]]:
    """Turns placing 2, 3, ..., 99 in order on ``asc1`` (always legal: each card is above the last), ``counts[i]``
    cards in turn ``i`` but never more than the seat holds; ends when every card is placed or ``counts`` ends."""
    source = iter(ALL_CARDS)
    remaining = CARDS - players * hand_size
    held = [hand_size] * players
    seat = first_seat
    turns = []
    for count in counts:
        count = min(count, held[seat])
        turns.append([(next(source), A1) for _ in range(count)])
        drawn = min(count, remaining)
        remaining -= drawn
        held[seat] += drawn - count
        if not any(held):
            break
        seat = next((seat + step) % players for step in range(1, players + 1) if held[(seat + step) % players])
    return turns


def raises_code(code: str) -> Any:
    """``pytest.raises(GameError)`` that also checks the error's machine code."""
    return _CodeCheck(code)


class _CodeCheck:
    def __init__(self, code: str) -> None:
        self.code = code
        self.context = pytest.raises(tg.GameError)

    def __enter__(self) -> Any:
        return self.context.__enter__()

    def __exit__(self, *exc: Any) -> bool:
        handled = self.context.__exit__(*exc)
        if handled:
            error = self.context.excinfo.value if self.context.excinfo else None
            assert getattr(error, "code", None) == self.code, f"expected code {self.code!r}, got {error!r}"
        return bool(handled)


def placed_cards(state: tg.State) -> list[int]:
    """Every card placed so far, from the history (plays are public as they happen)."""
    return [action.card for action in state.history if isinstance(action, tg.Play)]


def undrawn(state: tg.State, deck: Sequence[int] | None = None) -> list[int]:
    """The draw pile in draw order: the setup deck (from the replay record unless given) after ``drawn``."""
    if deck is None:
        deck = state.replay_record()["deck"]
    return list(deck[state.drawn :])


def check_invariants(state: tg.State, deck: Sequence[int] | None = None) -> None:
    """Facts that hold in every state of every game (spec "Components", "A turn", "End of the game");
    ``deck`` is the game's setup deck, when the caller knows it."""
    held = [card for hand in state.hands for card in hand]
    pile = undrawn(state, deck)
    assert sorted(held + placed_cards(state) + pile) == ALL_CARDS, "the 98 cards are conserved"
    assert isinstance(state.draw_pile, int)
    assert state.draw_pile == CARDS - state.drawn == len(pile)
    assert state.score == len(held) + state.draw_pile, "score counts cards in hands and draw pile"
    assert 0 <= state.score <= CARDS
    assert state.version == len(state.history)
    assert state.status in ("playing", "won", "lost")
    assert (state.status == "won") == (state.score == 0)
    assert (state.outcome is None) == (state.status == "playing")
    if state.status == "playing":
        if state.placed_this_turn == 0:
            assert state.hands[state.current_seat], "only players holding cards take turns"
        assert state.placed_this_turn >= 0
        assert state.required_this_turn <= state.placed_this_turn + len(state.hands[state.current_seat])
        assert state.legal_actions(), "a running game always offers an action (else it would be lost)"
    else:
        assert state.outcome is not None and state.outcome.status == state.status
        assert state.legal_actions() == []


def shown_cards(view: dict[str, Any]) -> set[int]:
    """The card numbers a view shows as held: its ``hand`` and the cards of its ``legal_plays``."""
    return set(view.get("hand", ())) | {play["card"] for play in view.get("legal_plays", ())}


def check_views(state: tg.State, deck: Sequence[int] | None = None) -> None:
    """Spec "Information and talk": a seat sees its own hand and public facts; no view shows another seat's hand
    or the order of the draw pile."""
    secret_order = set(undrawn(state, deck))
    public = state.public_view()
    assert "hand" not in public and "legal_plays" not in public
    assert isinstance(public["draw_pile"], int) and public["draw_pile"] == state.draw_pile
    for view in [public, *(state.view(seat) for seat in range(state.players))]:
        assert not {"deck", "hands", "draw_order", "history"} & set(view)
        assert [seat["hand_size"] for seat in view["seats"]] == [len(hand) for hand in state.hands]
        assert [pile["top"] for pile in view["piles"]] == list(state.tops)
        assert (view["current_seat"], view["placed_this_turn"]) == (state.current_seat, state.placed_this_turn)
        assert isinstance(view["draw_pile"], int) and view["draw_pile"] == state.draw_pile
        assert not shown_cards(view) & secret_order
    for seat in range(state.players):
        view = state.view(seat)
        assert sorted(view["hand"]) == sorted(state.hands[seat])
        others = {card for other, hand in enumerate(state.hands) if other != seat for card in hand}
        assert not shown_cards(view) & others


def bot_game(state: tg.State, bots: Sequence[Any], on_state: Callable[[tg.State], None] | None = None) -> tg.State:
    """Play ``state`` to its end, each seat's bot acting on that seat's observation; ``on_state`` sees every
    state reached. A bot that returns nothing on its turn, or an action that fails, fails the test."""
    while state.status == "playing":
        seat = state.current_seat
        actions = bots[seat].act(state.observe(seat))
        assert actions, f"bot of seat {seat} returned no action on its turn"
        for action in actions:
            state = state.apply(action)
            if on_state is not None:
                on_state(state)
    return state
