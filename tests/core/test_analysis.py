"""The analysis of a game (``thegame_core.analysis``): it never reads a card the seat could not see, it flags a
blunder, it is deterministic, and it analyses every game through the protocol alone.

The key test changes the cards a seat could not see (the draw order, face-down cards, the packets, another seat's
hand) in a game's record, checks that the game's public history is unchanged, and that the analysis of that seat's
decisions is exactly the same: the analysis deals hidden cards from the seat's observation only.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import thegame_core as tg
from examples import snap_game
from thegame_core.__main__ import main
from thegame_core.analysis import DEFAULT_HORIZON, Analysis, analyse, check, format_table, plan
from thegame_core.bots import create_bot
from thegame_core.games.bataille_corse import Flip
from thegame_core.registry import register, unregister
from thegame_core.simulate import MAX_ACTIONS, derive_seed, play_out


@pytest.fixture(autouse=True, scope="module")
def toy() -> Iterator[None]:
    register(snap_game.GAME)
    yield
    unregister(snap_game.NAME)


def played(game: str, players: int, seed: int, bot: str = "greedy", actions: int | None = None) -> tg.AnyState:
    """A game of ``bot`` at every seat, to its end or its first ``actions`` actions."""
    state = tg.new_game(game, players, seed=seed)
    bots = [create_bot(bot, game=game, seed=seed * 10 + seat) for seat in range(players)]
    race = random.Random(seed) if getattr(tg.get_game(game), "realtime", False) else None
    end = play_out(state, bots, [bot] * players, "test", race)
    if actions is None:
        return end
    return tg.get_game(game).replay({**end.replay_record(), "actions": end.public_log()[:actions]})


def seat_decisions(analysis: Analysis, seat: int) -> list[dict[str, Any]]:
    return [decision.to_dict() for decision in analysis.decisions if decision.seat == seat]


def with_deck(record: dict[str, Any], deck: list[Any]) -> dict[str, Any]:
    """``record`` dealt from ``deck``; the same actions must replay to the same public history."""
    changed = {**record, "deck": deck}
    state = tg.replay(changed)
    assert state.public_log() == record["actions"]
    assert state != tg.replay(record), "the hidden cards did change"
    return changed


def shuffled_at(record: dict[str, Any], positions: list[int], seed: int = 3) -> dict[str, Any]:
    """``record`` with the deck's cards at ``positions`` shuffled among themselves."""
    deck = list(record["deck"])
    cards = [deck[position] for position in positions]
    random.Random(seed).shuffle(cards)
    for position, card in zip(positions, cards, strict=True):
        deck[position] = card
    return with_deck(record, deck)


def the_game_hidden(state: Any) -> Iterator[dict[str, Any]]:
    """The Game: the draw order, then also a card of seat 1's hand swapped with one still to draw (hidden from seat 0;
    the first such swap that keeps the game going, so that the record replays)."""
    record = state.replay_record()
    yield shuffled_at(record, list(range(state.drawn, len(record["deck"]))))
    deck = list(record["deck"])
    for held in state.hands[1]:
        for later in range(state.drawn, len(deck)):
            swapped = list(deck)
            here = swapped.index(held)
            swapped[here], swapped[later] = swapped[later], swapped[here]
            if tg.replay({**record, "deck": swapped}).outcome is None:
                yield with_deck(record, swapped)
                return
    raise AssertionError("no swap keeps the game going")


def ninja_hidden(state: Any) -> Iterator[dict[str, Any]]:
    """Ninja: every face-down card (dealt first, none taken yet) and the stock still to draw, shuffled together."""
    assert all(len(cards) == 3 for cards in state.face_down), "the prefix must take no face-down card"
    record = state.replay_record()
    yield shuffled_at(record, [*range(3 * state.players), *range(state.drawn, len(record["deck"]))])


def bataille_corse_hidden(state: Any) -> Iterator[dict[str, Any]]:
    """Bataille corse: every card of every packet not yet flipped (a packet is its seat's dealt cards, flipped from
    the front; the prefix is short enough that no seat has reached the piles it collected)."""
    record = state.replay_record()
    players = state.players
    flips = [sum(type(action) is Flip and action.seat == seat for action in state.history) for seat in range(players)]
    positions = [
        position for position in range(len(record["deck"])) if position // players >= flips[position % players]
    ]
    yield shuffled_at(record, positions)


HIDDEN: dict[str, tuple[int, int, str, Callable[[Any], Iterator[dict[str, Any]]]]] = {
    # game: (players, actions in the prefix, the bot that analyses, the hidden cards to change); deals and bots on
    # which an analysis that peeked at the real hidden cards gives other values (each checked by such a mutant)
    "the-game": (2, 24, "greedy", the_game_hidden),
    "ninja": (3, 14, "greedy", ninja_hidden),
    "bataille-corse": (2, 30, "best", bataille_corse_hidden),
}


@pytest.mark.parametrize("game", sorted(HIDDEN))
def test_the_analysis_of_a_seat_never_depends_on_cards_it_could_not_see(game: str) -> None:
    players, actions, bot, hidden = HIDDEN[game]
    state = played(game, players, seed=2, actions=actions)
    original = analyse(state.replay_record(), bot=bot, rollouts=3, seed=5)
    assert seat_decisions(original, 0), "seat 0 decided something"
    for changed in hidden(state):
        again = analyse(changed, bot=bot, rollouts=3, seed=5)
        assert seat_decisions(again, 0) == seat_decisions(original, 0)


def test_a_blunder_costs_more_than_best_s_choice() -> None:
    """The Game's first turn wasted: the highest card on an ascending pile, the lowest on a descending one."""
    state = tg.new_game("the-game", 2, seed=4)
    hand = state.hands[0]
    blunder = [tg.Play(0, max(hand), "asc1"), tg.Play(0, min(hand), "desc1"), tg.EndTurn(0)]
    record = state.apply_all(blunder).replay_record()
    decision = analyse(record, rollouts=6, seed=1).decisions[0]
    assert not decision.same
    assert decision.played_value.cards_left is not None and decision.best_value.cards_left is not None
    assert decision.played_value.cards_left > decision.best_value.cards_left + 5
    assert decision.cost == decision.played_value.cards_left - decision.best_value.cards_left


def test_the_same_record_and_seed_give_the_same_analysis() -> None:
    record = played("the-game", 2, seed=2, actions=15).replay_record()
    first = analyse(record, rollouts=2, seed=9)
    assert analyse(record, rollouts=2, seed=9) == first
    assert first.to_dict() == json.loads(json.dumps(first.to_dict()))


def every_game() -> list[str]:
    return sorted({*tg.game_names(), snap_game.NAME})


@pytest.mark.parametrize("game", every_game())
def test_every_game_is_analysed_through_the_protocol(game: str) -> None:
    """Every action of a game belongs to one decision, in order; a choice the bot shares costs nothing; values are
    shares of the rollouts (every playout to the end: the horizon is tested below); cards left only where the game
    has a score."""
    info = tg.get_game(game).info
    state = played(game, info.min_players + 1, seed=7, actions=40)
    record = state.replay_record()
    analysis = analyse(record, bot="greedy", rollouts=2, seed=1, horizon=None)
    decisions = analysis.decisions
    assert [decision.start for decision in decisions] == [0, *(decision.end for decision in decisions[:-1])]
    assert decisions[-1].end == len(record["actions"])
    for decision in decisions:
        actions = record["actions"][decision.start : decision.end]
        assert list(decision.played) == actions
        assert {action["seat"] for action in actions} == {decision.seat}
        for value in (decision.played_value, decision.best_value):
            assert value.win in (0.0, 0.5, 1.0)
            assert (value.cards_left is None) == (analysis.measure == "win")
        if decision.same:
            assert decision.cost == 0 and decision.played_value == decision.best_value
    assert analysis.measure == ("cards_left" if game == "the-game" else "win")
    assert sum(summary["decisions"] for summary in analysis.to_dict()["seats"]) == len(decisions)
    table = format_table(analysis).splitlines()
    assert len(table) == 2 + len(decisions) + analysis.players


def test_a_playout_stopped_at_the_horizon_counts_the_game_s_estimate() -> None:
    """Bataille corse estimates (the seat's share of the cards): one action after the choice, no playout is over,
    so values are card shares, not shares of the 3 rollouts; a horizon never reached changes nothing."""
    record = played("bataille-corse", 2, seed=3, actions=12).replay_record()
    cut = analyse(record, rollouts=3, seed=1, horizon=1)
    wins = [value.win * 3 for decision in cut.decisions for value in (decision.played_value, decision.best_value)]
    assert not all(win.is_integer() for win in wins)
    assert all(0 < win < 3 for win in wins)
    whole = analyse(record, rollouts=3, seed=1, horizon=None)
    assert analyse(record, rollouts=3, seed=1, horizon=MAX_ACTIONS).decisions == whole.decisions != cut.decisions
    assert (cut.horizon, whole.horizon, analyse(record, rollouts=1, seed=1).horizon) == (1, None, DEFAULT_HORIZON)
    assert DEFAULT_HORIZON == 100 and cut.to_dict()["horizon"] == 1 and whole.to_dict()["horizon"] is None


def test_a_choice_the_bot_shares_is_valued_from_a_quarter_of_the_rollouts() -> None:
    """It costs 0 whatever its value: with 4 rollouts to the end, one playout values it (won or lost), while the
    other decisions' values are shares of 4."""
    record = played("bataille-corse", 2, seed=3, actions=40).replay_record()
    analysis = analyse(record, bot="best", rollouts=4, seed=1, horizon=None)
    shared = [decision.played_value.win for decision in analysis.decisions if decision.same]
    assert len(shared) > 30 and set(shared) <= {0.0, 1.0}
    others = [decision.best_value.win * 4 for decision in analysis.decisions if not decision.same]
    assert all(win.is_integer() for win in others)


def test_a_game_without_an_estimate_plays_every_playout_to_the_end() -> None:
    record = played("the-game", 2, seed=2, actions=15).replay_record()
    assert tg.replay(record).estimate(0) is None
    assert analyse(record, rollouts=2, seed=9, horizon=1) == analyse(record, rollouts=2, seed=9, horizon=None)
    assert analyse(record, rollouts=2, seed=9).to_dict()["horizon"] is None  # and says so


def test_a_turn_is_one_decision_in_the_game_and_each_action_one_in_a_real_time_game() -> None:
    log = played("the-game", 2, seed=3).public_log()
    ends = [index + 1 for index, action in enumerate(log) if action["type"] == "end_turn"][:3]
    the_game = analyse(played("the-game", 2, seed=3, actions=ends[-1]).replay_record(), bot="greedy", rollouts=1)
    assert [(d.seat, d.start, d.end) for d in the_game.decisions] == [(0, 0, ends[0]), (1, *ends[:2]), (0, *ends[1:])]
    corse = analyse(played("bataille-corse", 2, seed=3, actions=12).replay_record(), bot="greedy", rollouts=1)
    assert [d.end - d.start for d in corse.decisions] == [1] * 12


def test_a_ninja_move_that_plays_a_card_drawn_during_it_is_played_as_far_as_each_deal_allows() -> None:
    """Ninja's deal 16 of seed 1 played by ``greedy`` (``bench/analysis_agreement.py``): seat 1 gives the pile with a
    king (its target cannot counter), draws, and leads with the jack it drew: one decision. A resampled deal that did
    not give it that jack refuses the second play; the analysis plays the choice up to there and values it, where it
    used to fail on that game."""
    state = tg.new_game("ninja", 3, seed=derive_seed(1, 16))
    bots = [create_bot("greedy", game="ninja", seed=derive_seed(1, 16, seat)) for seat in range(3)]
    record = play_out(state, bots, ["greedy"] * 3, "test", None).replay_record()
    work = plan(record, rollouts=8, seed=0)
    index = next(i for i, (seat, start, end) in enumerate(work.spans) if end - start == 2 and start == 21)
    seat, start, end = work.spans[index]
    first, second = work.actions[start:end]
    before = work.states[start]
    refused = 0
    for rollout in range(8):
        world = before.resample(seat, random.Random(derive_seed(0, index, rollout))).apply(first)
        try:
            world.apply(second)
        except tg.IllegalAction:
            refused += 1
    assert 0 < refused < 8, "some deals refuse the jack, others give it"
    decision = work.decision(index)
    assert (decision.start, decision.end) == (start, end) and 0.0 <= decision.played_value.win <= 1.0


@pytest.mark.parametrize(
    ("record", "rollouts"),
    [
        ({"game": "the-game", "players": 2, "options": {}, "deck": [1, 2], "actions": []}, 1),
        ({"game": "the-game", "actions": "none"}, 1),
        ({"game": "no-such-game", "actions": []}, 1),
        ([], 1),
        (None, 0),
    ],
)
def test_a_bad_record_or_rollouts_is_a_game_error(record: Any, rollouts: int) -> None:
    record = tg.new_game("the-game", 2, seed=1).replay_record() if record is None else record
    with pytest.raises(tg.GameError):
        analyse(record, rollouts=rollouts)


@pytest.mark.parametrize("horizon", [0, -5, 2.5, "10"])
def test_a_bad_horizon_is_a_game_error(horizon: Any) -> None:
    with pytest.raises(tg.GameError, match="horizon"):
        analyse(tg.new_game("the-game", 2, seed=1).replay_record(), horizon=horizon)


def test_the_command_line_prints_the_table_of_a_log_or_a_record(tmp_path: Any, capsys: Any) -> None:
    record = played("the-game", 2, seed=6, actions=12).replay_record()
    log = tmp_path / "log.json"
    log.write_text(json.dumps({"entries": [], "replay": record}))
    assert main(["analyse", str(log), "--bot", "greedy", "--rollouts", "1", "--seed", "2", "--quiet"]) == 0
    table = capsys.readouterr().out.splitlines()
    expected = analyse(record, bot="greedy", rollouts=1, seed=2)
    assert table == format_table(expected).splitlines()
    plain = tmp_path / "record.json"
    plain.write_text(json.dumps(record))
    assert main(["analyse", str(plain), "--bot", "greedy", "--rollouts", "1", "--seed", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == expected.to_dict()


@pytest.mark.parametrize(
    ("text", "arguments", "message"),
    [
        ("{not json", [], "cannot read a replay record"),
        ("[1, 2]", [], "a replay record is a JSON object"),
        ('{"game": "the-game", "actions": []}', [], "error:"),
        ("{}", ["--rollouts", "0"], "rollouts must be"),
        ("{}", ["--bot", "nobody"], "unknown bot"),
    ],
)
def test_a_bad_file_or_argument_is_one_error_line(
    tmp_path: Any, capsys: Any, text: str, arguments: list[str], message: str
) -> None:
    path = tmp_path / "record.json"
    path.write_text(text if text != "{}" else json.dumps(tg.new_game("the-game", 2, seed=1).replay_record()))
    assert main(["analyse", str(path), "--quiet", *arguments]) == 2
    error = capsys.readouterr().err
    assert error.startswith("error: ") and message in error and error.count("\n") == 1


def test_a_game_whose_referee_judged_by_time_is_refused() -> None:
    """Bataille corse with a collection window: its slaps were judged by their receive time, which rollouts cannot
    give; the analysis refuses it with a GameError (the service: 409 not_analysable), checked without a rollout."""
    state = tg.new_game("bataille-corse", 2, seed=5, options={"slap_window_ms": 100})
    bots = [create_bot("best", game="bataille-corse", seed=seat) for seat in range(2)]
    record = play_out(state, bots, ["best"] * 2, "test", random.Random(5)).replay_record()
    assert any(action["type"] == "judge" for action in record["actions"])
    with pytest.raises(tg.GameError, match="judged actions by their time"):
        check(record)
    with pytest.raises(tg.GameError, match="judged actions by their time"):
        analyse(record, rollouts=1)


def test_a_record_that_ends_with_a_collection_window_open_is_refused() -> None:
    """A game not over may end on a gathered slap (its window still open, nothing judged yet): refused like the
    others, without a rollout."""
    state = tg.new_game("bataille-corse", 2, seed=5, options={"slap_window_ms": 100})
    bots = [create_bot("best", game="bataille-corse", seed=seat) for seat in range(2)]
    record = play_out(state, bots, ["best"] * 2, "test", random.Random(5)).replay_record()
    first_slap = next(index for index, action in enumerate(record["actions"]) if action["type"] == "slap")
    opened = {**record, "actions": record["actions"][: first_slap + 1]}
    assert tg.replay(opened).timer() is not None
    with pytest.raises(tg.GameError, match="judged actions by their time"):
        check(opened)
    with pytest.raises(tg.GameError, match="judged actions by their time"):
        analyse(opened, rollouts=1)
