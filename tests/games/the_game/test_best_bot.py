"""The ``best`` bot: honest (decides from its seat's observation only), always legal, deterministic."""

from __future__ import annotations

import random

import pytest

import thegame_core as tg
from thegame_core.bots import create_bot
from thegame_core.games.the_game import EndTurn, Play, Signal, State
from thegame_core.games.the_game.bots.best import BestBot, Params, signal_changes
from thegame_core.games.the_game.bots.endgame import TeamSearch
from thegame_core.games.the_game.bots.turns import Plan


def play_game(players: int, seed: int, options: dict[str, object] | None = None, turns: int | None = None) -> State:
    """Play a game with one ``best`` bot per seat (to its end, or for ``turns`` turns)."""
    state = tg.new_game("the-game", players=players, seed=seed, options=options or {})
    bots = [create_bot("best", seed=seed * 10 + seat) for seat in range(players)]
    played = 0
    while state.status == "playing" and (turns is None or played < turns):
        seat = state.current_seat
        actions = bots[seat].act(state.observe(seat))
        assert actions, "a bot must act on its turn"
        state = state.apply_all(actions)  # raises on any illegal action
        played += 1
    return state


VARIANTS = [{}, {"preset": "expert"}, {"preset": "expert_small_hand"}, {"stuck_policy": "try"}]


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("options", VARIANTS)
def test_never_plays_illegally(players: int, options: dict[str, object]) -> None:
    for seed in range(2):
        state = play_game(players, seed, options)
        assert state.status in ("won", "lost")


def test_wins_some_games() -> None:
    assert any(play_game(2, seed).status == "won" for seed in range(20))


def test_deterministic_for_a_seed() -> None:
    assert play_game(3, 7).history == play_game(3, 7).history


def test_returns_nothing_when_not_its_turn() -> None:
    state = tg.new_game("the-game", players=3, seed=1)
    bot = BestBot()
    assert bot.act(state.observe(1)) == []
    assert bot.act(state.observe(None)) == []


def hidden_shuffle(state: State, seat: int, seed: int) -> State:
    """The same game from ``seat``'s point of view, with other hands and the draw order reshuffled.

    Cards ``seat`` has held or seen played keep their place in the deck; every other card swaps
    places with another such card, so the public history replays unchanged.
    """
    seen = {action.card for action in state.history if isinstance(action, Play)}
    dealt = state.options.players * state.options.hand_size
    seen |= {card for index, card in enumerate(state.deck) if index < dealt and index % state.options.players == seat}
    seen |= set(state.hands[seat])
    hidden = [index for index, card in enumerate(state.deck) if card not in seen]
    cards = [state.deck[index] for index in hidden]
    random.Random(seed).shuffle(cards)
    deck = list(state.deck)
    for index, card in zip(hidden, cards, strict=True):
        deck[index] = card
    start = tg.new_game("the-game", players=state.options.players, deck=deck, options=state.options.to_dict())
    return start.apply_all(state.history)


@pytest.mark.parametrize("players", [1, 2, 4])
def test_decides_from_its_own_seat_only(players: int) -> None:
    for turns in (0, 30, 60):
        state = play_game(players, seed=turns + players, turns=turns)
        if state.status != "playing":
            continue
        seat = state.current_seat
        other = hidden_shuffle(state, seat, seed=turns)
        assert other.hands[seat] == state.hands[seat]
        assert other.deck != state.deck or players * state.options.hand_size >= len(state.deck)
        assert BestBot().act(other.observe(seat)) == BestBot().act(state.observe(seat))


def test_places_the_last_cards_without_ending_the_turn() -> None:
    deck = [*range(2, 100)]  # one player; play everything in draw order until 8 cards remain
    state = tg.new_game("the-game", players=1, deck=deck)
    bot = BestBot()
    while state.status == "playing":
        state = state.apply_all(bot.act(state.observe(0)))
    assert state.status == "won"
    assert not isinstance(state.history[-1], EndTurn)


def place_all(hand: tuple[int, ...], tops: tuple[int, ...]) -> list[tuple[int, int]] | None:
    """The search alone with one hand and nothing to draw: a legal order placing all of it, or None."""
    return TeamSearch(1, 1, budget=100_000).solve((hand,), tops, (), placed=0, required=1)


def test_exact_endgame_finds_the_backwards_order() -> None:
    assert place_all((30, 40), (35, 1, 100, 100)) is not None
    assert place_all((30, 20), (35, 35, 15, 15)) is None
    plays = place_all((45, 55), (50, 99, 2, 2))  # 55 on asc1, then 45 backwards
    assert plays == [(55, 0), (45, 0)]


def test_endgame_search_draws_in_order() -> None:
    # One player must place two cards per turn while 60 and 70 remain to draw (in that order).
    search = TeamSearch(2, 1, budget=10_000)
    plays = search.solve(((10, 20),), (1, 1, 100, 100), (60, 70), placed=0, required=2)
    assert plays is not None and len(plays) >= 2


def test_searching_before_the_pile_is_empty_stays_legal() -> None:
    bots = [BestBot(seat, Params(horizon=6)) for seat in range(2)]
    state = tg.new_game("the-game", players=2, seed=1)
    while state.status == "playing":
        state = state.apply_all(bots[state.current_seat].act(state.observe(state.current_seat)))


def test_asks_others_not_to_play_where_it_can_move_back() -> None:
    state = tg.new_game("the-game", players=2, seed=3).apply(Signal(0, "desc1", "dont_play"))
    plan = Plan([], (40, 1, 100, 100), (30, 55))  # after its turn it holds 30, ten below asc1
    assert signal_changes(state.observe(0), plan) == [
        Signal(0, "desc1", "dont_play", clear=True),
        Signal(0, "asc1", "dont_play"),
    ]


def test_keeps_off_piles_others_protect() -> None:
    state = tg.new_game("the-game", players=2, seed=3)
    free = BestBot().act(state.observe(0))
    piles = {action.pile for action in free if isinstance(action, Play)}
    for pile in piles:
        state = state.apply(Signal(1, pile, "dont_play"))
    guarded = BestBot().act(state.observe(0))
    assert not piles & {action.pile for action in guarded if isinstance(action, Play)}


def test_values_holding_a_backwards_card_only_alone_with_cards_to_draw() -> None:
    bot = BestBot()
    assert bot.hold(tg.new_game("the-game", players=1, seed=1).observe(0)) == bot.params.solo_hold > 0
    assert bot.hold(tg.new_game("the-game", players=2, seed=1).observe(0)) == bot.params.hold == 0
