"""Shared helpers of the core test suite: exact decks, scripted turns, invariant checks and random play.

Every scenario is built through the public API only: an explicit deck gives the hands and the draw order
(spec "Setup" 2), and the piles are brought into position by real plays.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar
from unittest import mock

import pytest

import thegame_core as tg

ALL_CARDS = list(range(2, 100))
CARDS = 98
A1, A2, D1, D2 = "asc1", "asc2", "desc1", "desc2"
PRESET_NAMES = ("standard", "expert", "expert_small_hand")
STUCK_POLICIES = ("strict", "try")

Turn = Sequence[tuple[int, str]]
T = TypeVar("T")


def new(players: int, **kwargs: Any) -> tg.State:
    """``tg.new_game("the-game", players, ...)``."""
    state = tg.new_game("the-game", players, **kwargs)
    assert isinstance(state, tg.State)
    return state


def random_states(count: int, seed: int) -> list[tg.State]:
    """A game of two and its first ``count`` states after the deal, by random legal actions."""
    rng, states = random.Random(seed), [new(2, seed=seed)]
    while len(states) <= count:
        states.append(states[-1].apply(rng.choice(states[-1].legal_actions())))
    return states


def notations_parsed(read: Callable[[], T]) -> tuple[T, int]:
    """``read()``'s result and how many action notations of The Game it parsed (a snapshot's actions replayed)."""
    game = type(tg.get_game("the-game"))
    with mock.patch.object(game, "action_from_notation", autospec=True, side_effect=game.action_from_notation) as spy:
        return read(), spy.call_count


def turn_actions(state: tg.State) -> list[tg.Action]:
    """The current seat's plays and end of turn: ``legal_actions()`` without the signals every seat may send."""
    return state.observe(state.current_seat).turn_actions()


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


class HandCounts:
    """How many cards each seat holds while scripted turns are played, by the spec's rules: the player draws as many
    as placed while the draw pile lasts, and the turn passes to the next seat holding cards."""

    def __init__(self, players: int, hand_size: int, first_seat: int = 0) -> None:
        self.held = [hand_size] * players
        self.remaining = CARDS - players * hand_size
        self.seat = first_seat

    @property
    def over(self) -> bool:
        return not any(self.held)

    def end_turn(self, placed: int) -> int:
        """The current seat placed ``placed`` cards: it draws (returned), then the turn passes."""
        drawn = min(placed, self.remaining)
        self.remaining -= drawn
        self.held[self.seat] += drawn - placed
        if not self.over:
            players = len(self.held)
            self.seat = next(
                (self.seat + step) % players
                for step in range(1, players + 1)
                if self.held[(self.seat + step) % players]
            )
        return drawn


def scripted_deck(
    players: int, hand_size: int, turns: Sequence[Turn], *, first_seat: int = 0, fillers: Sequence[int] = ()
) -> list[int]:
    """A deck under which ``turns`` (the plays of each turn, seats in turn order) can be played as written.

    Each seat's hand always holds the next cards it will place, in order: it is dealt the first of them and
    draws the following ones as it places cards. When a seat has nothing left to place it receives
    ``fillers`` in order, then the unnamed cards ascending; what is left ends the draw pile.
    """
    counts = HandCounts(players, hand_size, first_seat)
    queues: list[list[int]] = [[] for _ in range(players)]
    draws: list[tuple[int, int]] = []  # (seat, cards drawn) per turn
    for turn in turns:
        seat = counts.seat
        queues[seat].extend(card for card, _ in turn)
        draws.append((seat, counts.end_turn(len(turn))))
        if counts.over:
            break
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


def after_two_turns(third_hand: list[int], options: dict[str, Any], desc1: int = 20) -> tg.State:
    """One player with two cards a turn (``options`` sets hand_size 2): the first two turns bring the piles to
    asc1 90, asc2 91, desc1 ``desc1``, desc2 11; the third turn starts holding ``third_hand``."""
    state = new(1, deck=deck_for([[90, 91]], then=[desc1, 11, *third_hand]), options=options)
    return play_turns(state, [[(90, A1), (91, A2)], [(desc1, D1), (11, D2)]])


def ascending_turns(
    players: int, hand_size: int, counts: Iterable[int], *, first_seat: int = 0
) -> list[list[tuple[int, str]]]:
    """Turns placing 2, 3, ..., 99 in order on ``asc1`` (always legal: each card is above the last), ``counts[i]``
    cards in turn ``i`` but never more than the seat holds; ends when every card is placed or ``counts`` ends."""
    source = iter(ALL_CARDS)
    table = HandCounts(players, hand_size, first_seat)
    turns = []
    for count in counts:
        count = min(count, table.held[table.seat])
        turns.append([(next(source), A1) for _ in range(count)])
        table.end_turn(count)
        if table.over:
            break
    return turns


@contextmanager
def raises_code(code: str) -> Iterator[Any]:
    """``pytest.raises(GameError)`` that also checks the error's machine code."""
    with pytest.raises(tg.GameError) as caught:
        yield caught
    assert caught.value.code == code, f"expected code {code!r}, got {caught.value.code!r}: {caught.value}"


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
        assert turn_actions(state), "a running game always offers a play or an end of turn (else it would be lost)"
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
        assert not {"deck", "hands", "draw_order"} & set(view)
        assert [seat["hand_size"] for seat in view["seats"]] == [len(hand) for hand in state.hands]
        assert [pile["top"] for pile in view["piles"]] == list(state.tops)
        assert (view["current_seat"], view["placed_this_turn"]) == (state.current_seat, state.placed_this_turn)
        assert isinstance(view["draw_pile"], int) and view["draw_pile"] == state.draw_pile
        assert not shown_cards(view) & secret_order
    log = state.public_log()  # boardgame.io's bug #1159 leaked every hand through the log: only plays show cards
    assert all(set(entry) <= {"type", "seat", "card", "pile", "kind", "clear"} for entry in log)
    assert [entry["card"] for entry in log if "card" in entry] == placed_cards(state)
    assert all(entry["type"] == "play" for entry in log if "card" in entry)
    legal = turn_actions(state)
    for seat in range(state.players):
        view = state.view(seat)
        assert sorted(view["hand"]) == sorted(state.hands[seat])
        others = {card for other, hand in enumerate(state.hands) if other != seat for card in hand}
        assert not shown_cards(view) & others
        plays = {(play["card"], play["pile"]) for play in view["legal_plays"]}
        assert plays == {
            (action.card, action.pile) for action in legal if isinstance(action, tg.Play) and action.seat == seat
        }
        assert view["can_end_turn"] == (tg.EndTurn(seat) in legal)
        observation = state.observe(seat)  # what a bot decides from
        assert sorted(observation.hand) == sorted(state.hands[seat])
        assert observation.hand_sizes == tuple(map(len, state.hands))
        secrets = [
            state.hands,
            tuple(undrawn(state, deck)),
            *(held for other, held in enumerate(state.hands) if other != seat and held),
        ]
        fields = [getattr(observation, name) for name in observation.__dataclass_fields__]
        assert not any(value == secret for value in fields for secret in secrets if secret)


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


# --- An independent restatement of the rules, to check the library against at every step ---------------------


def accepts(pile: str, top: int, card: int) -> bool:
    """Spec "Placing a card": ascending ``c > t or c == t - 10``; descending ``c < t or c == t + 10``."""
    if pile.startswith("asc"):
        return card > top or card == top - 10
    return card < top or card == top + 10


def spec_plays(hand: Iterable[int], tops: Sequence[int]) -> set[tuple[int, str]]:
    """Every (card, pile) the spec allows now."""
    return {(card, pile) for card in hand for pile, top in zip(tg.PILES, tops, strict=True) if accepts(pile, top, card)}


@functools.lru_cache(maxsize=100_000)
def sequence_exists(hand: frozenset[int], tops: tuple[int, ...], need: int) -> bool:
    """Spec "Lost": whether some sequence of ``need`` legal plays from ``hand`` and the piles exists (brute force
    over every play, self-enabled ones included, with no shortcut; memoized on the position)."""
    if need <= 0:
        return True
    for card, pile in spec_plays(hand, tops):
        index = tg.PILES.index(pile)
        after = (*tops[:index], card, *tops[index + 1 :])
        # the two piles of a direction are interchangeable: order them so equal positions share one memo entry
        canonical = (*sorted(after[:2]), *sorted(after[2:]))
        if sequence_exists(hand - {card}, canonical, need - 1):
            return True
    return False


def check_rules(state: tg.State) -> None:
    """The state agrees with the spec restated above: legal actions, the turn's minimum, and the end of the game."""
    if state.status == "won":
        assert state.score == 0
        return
    seat, hand, tops = state.current_seat, state.hands[state.current_seat], state.tops
    options = state.options
    minimum = options.min_per_turn if state.draw_pile else options.min_after_empty
    assert state.required_this_turn == min(minimum, len(hand) + state.placed_this_turn), "req fixed at turn start"
    need = state.required_this_turn - state.placed_this_turn
    if options.stuck_policy == "strict":
        stuck = not sequence_exists(frozenset(hand), tuple(tops), need)
    else:
        stuck = need > 0 and not spec_plays(hand, tops)
    if state.status == "lost":
        assert stuck, f"lost although the minimum is reachable: {hand} on {tops}, need {need}"
        assert state.outcome is not None and state.outcome.seat == seat
        return
    assert not stuck, f"still playing although stuck: {hand} on {tops}, need {need}"
    plays = {(action.card, action.pile) for action in state.legal_actions() if isinstance(action, tg.Play)}
    assert plays == spec_plays(hand, tops)
    assert all(action.seat == seat for action in state.legal_actions())
    assert (tg.EndTurn(seat) in state.legal_actions()) == (need <= 0 or not hand)
    for other in range(state.players):  # signals that change the table, from every seat, on its turn or not
        signals = [action for action in state.legal_actions(other) if isinstance(action, tg.Signal)]
        shown = {(pile, kind) for signaller, pile, kind in state.signals if signaller == other}
        assert {(s.pile, s.kind, s.clear) for s in signals} == {
            (pile, kind, (pile, kind) in shown) for pile in tg.PILES for kind in tg.SIGNAL_KINDS
        }


def check_transition(before: tg.State, action: Any, after: tg.State, deck: Sequence[int]) -> None:
    """``after`` is what the spec makes of ``before`` and ``action`` (a legal one)."""
    assert after.version == before.version + 1
    assert after.options == before.options
    seat = before.current_seat
    if isinstance(action, tg.Signal):
        assert (after.hands, after.tops, after.drawn) == (before.hands, before.tops, before.drawn)
        assert (after.current_seat, after.placed_this_turn) == (seat, before.placed_this_turn)
        assert after.status == before.status
        key = {"seat": action.seat, "pile": action.pile, "kind": action.kind}
        assert (key in after.public_view()["signals"]) != action.clear
        return
    if isinstance(action, tg.Play):
        index = tg.PILES.index(action.pile)
        assert sorted(after.hands[seat]) == sorted(set(before.hands[seat]) - {action.card})
        assert after.tops == (*before.tops[:index], action.card, *before.tops[index + 1 :])
        assert after.drawn == before.drawn
        assert after.placed_this_turn == before.placed_this_turn + 1
        assert after.current_seat == seat
        return
    drawn = min(before.placed_this_turn, before.draw_pile)
    assert after.drawn == before.drawn + drawn
    assert sorted(after.hands[seat]) == sorted([*before.hands[seat], *deck[before.drawn : before.drawn + drawn]])
    holders = [(seat + step) % before.players for step in range(1, before.players + 1)]
    assert after.current_seat == next(other for other in holders if after.hands[other])
    assert after.placed_this_turn == 0
    assert after.tops == before.tops
