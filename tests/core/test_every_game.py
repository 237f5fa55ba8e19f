"""The one test every game must pass (OpenSpiel's random_sim_test, pgx's api_test): a game gets it by registering.

For every registered game, and for the toy game of ``tests/snap_game.py`` (registered here only), random games are
played to their end across player counts, presets and each option's values. At every step: the state never
changes under an action; every legal action of every seat applies and adds 1 to the version; actions that are not
listed (random fields, other seats' actions) raise ``GameError`` and change nothing, or, where a game accepts stale
actions, change nothing anyone can see but the version; views agree with the state; snapshots and replays
reproduce it; each seat's resampled state looks the same to it; the game ends within its bound. The test is the
referee: it stamps every action with its clock (the game's ``received``) and applies a game's timer
(the state's ``timer()``) once due, or now and then early.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

import thegame_core as tg
from examples import snap_game
from thegame_core.bots import bot_names, create_bot
from thegame_core.protocol import GameInfo
from thegame_core.registry import register, unregister

MAX_STEPS = 30_000  # actions before a game must have ended (Bataille corse: max_flips 10,000, and slaps)
CHECK_EVERY = 7  # the expensive checks (snapshots, replays, every seat's actions) run at every 7th step
COMMON_VIEW_FIELDS = ("game", "status", "outcome", "version", "options", "players", "seats", "current_seat")


@pytest.fixture(autouse=True, scope="module")
def toy() -> Iterator[None]:
    register(snap_game.GAME)
    yield
    unregister(snap_game.NAME)


def all_games() -> list[str]:
    return sorted({*tg.game_names(), snap_game.NAME})


def option_values(info: GameInfo) -> Iterator[dict[str, Any]]:
    """The default options, each preset, and each option at each of its other values (choices, booleans, bounds)."""
    yield {}
    for preset in info.presets:
        yield {"preset": preset}
    for option in info.options:
        if option.name == "preset":
            continue
        values: tuple[Any, ...] = ()
        if option.choices is not None:
            values = option.choices
        elif option.type == "bool":
            values = (True, False)
        elif option.min is not None and option.max is not None:
            values = (option.min, option.max)
        for value in values:
            if value != option.default:
                yield {option.name: value}


def configs(name: str) -> list[tuple[int, dict[str, Any]]]:
    """Every player count with the default options, then every option value at a player count drawn for it."""
    info = tg.get_game(name).info
    rng = random.Random(name)
    players = range(info.min_players, info.max_players + 1)
    return [(count, {}) for count in players] + [
        (rng.choice(players), options) for options in itertools.islice(option_values(info), 1, None)
    ]


def without_version(view: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in view.items() if key not in ("version", "legal_actions")}


def seen_by_anyone(state: Any) -> list[dict[str, Any]]:
    return [without_version(state.public_view())] + [without_version(state.view(s)) for s in range(state.players)]


def check_views(state: Any) -> None:
    """Every view is JSON, carries the common fields with the state's values, and only seat views list actions."""
    public = state.public_view()
    json.dumps(public)
    assert "legal_actions" not in public and "hand" not in public
    for seat in range(state.players):
        view = state.view(seat)
        json.dumps(view)
        assert view["seat"] == seat
        expected = [{k: v for k, v in a.to_dict().items() if k != "seat"} for a in state.legal_actions(seat)]
        assert view["legal_actions"] == expected
    check_observations(state)
    for view in [public, state.view(0)]:
        assert all(name in view for name in COMMON_VIEW_FIELDS)
        assert (view["game"], view["status"], view["version"]) == (state.game, state.status, state.version)
        assert view["waiting_for"] == sorted(state.waiting_for)
        assert view["current_seat"] == state.current_seat
        assert view["outcome"] == (None if state.outcome is None else state.outcome.to_dict())
        assert len(view["seats"]) == state.players


def check_observations(state: Any) -> None:
    """What each seat (and a spectator) observes is rebuilt exactly from its view and the public log: a client
    over HTTP gives its bot what a bot in the process gets."""
    game, log = tg.get_game(state.game), state.public_log()
    assert game.observation_from_view(state.public_view(), log) == state.observe(None)
    for seat in range(state.players):
        assert game.observation_from_view(state.view(seat), log) == state.observe(seat)


def check_resample(rng: random.Random, state: Any, now: int) -> None:
    """Each seat's resampled state (its hidden cards dealt anew) looks the same to that seat, leaves the original
    alone, and plays on: every action the seat may send, received at ``now``, applies to it."""
    game = tg.get_game(state.game)
    text = tg.dumps(state)
    for seat in range(state.players):
        resampled = state.resample(seat, rng)
        assert resampled.observe(seat) == state.observe(seat)
        assert resampled.version == state.version and resampled.public_log() == state.public_log()
        for action in state.legal_actions(seat):
            assert resampled.apply(game.received(action, now)).version == state.version + 1
    assert tg.dumps(state) == text


def candidates(rng: random.Random, state: Any, info: GameInfo) -> Iterator[Any]:
    """Actions to try that may not be legal: each type with random fields, and each seat's actions sent by another."""
    game = tg.get_game(state.game)
    for action_info in info.actions:
        fields = {name: rng.choice([-1, 0, 1, 2, 5, 13, 99, 100]) for name, kind in action_info.fields.items()}
        fields.update(
            {name: rng.choice(["asc1", "x", ""]) for name, kind in action_info.fields.items() if kind == "str"}
        )
        fields.update({name: rng.random() < 0.5 for name, kind in action_info.fields.items() if kind == "bool"})
        try:
            yield game.parse_action({"type": action_info.type, "seat": rng.randrange(state.players), **fields})
        except tg.GameError as error:
            assert isinstance(error, tg.InvalidAction), error
    for seat in range(state.players):
        for action in state.legal_actions(seat)[:4]:
            other = game.parse_action({**action.to_dict(), "seat": (seat + 1) % state.players})
            yield other


def check_refusals(rng: random.Random, state: Any, info: GameInfo) -> None:
    """An action not listed raises GameError and changes nothing; or it is a stale no-op nobody can see."""
    listed = {repr(a) for seat in range(state.players) for a in state.legal_actions(seat)}
    text = tg.dumps(state)
    before = seen_by_anyone(state)
    for action in candidates(rng, state, info):
        if repr(action) in listed:
            continue
        try:
            after = state.apply(action)
        except tg.GameError as error:
            assert error.code in tg.ERROR_CODES or error.code in info.errors, error.code
        else:
            assert after.version == state.version + 1
            assert seen_by_anyone(after) == before, f"{action!r} is not listed yet changed the game"
        assert tg.dumps(state) == text


def check_legal_actions(state: Any, now: int) -> None:
    """Every listed action of every seat, received at ``now``, applies, adds 1 to the version, and reads back from
    its dict form."""
    game = tg.get_game(state.game)
    text = tg.dumps(state)
    for seat in range(state.players):
        for action in state.legal_actions(seat):
            assert action.seat == seat
            assert game.parse_action(action.to_dict()) == action
            assert state.apply(game.received(action, now)).version == state.version + 1
    assert tg.dumps(state) == text, "apply never changes the state it is called on"


def check_snapshots(state: Any, earlier: Any = None) -> None:
    """Snapshots and replays give the state back; so does a snapshot read on from an ``earlier`` state of the game
    (``loads(text, earlier=...)``: a cache's entry), and from a state of another game, which it must not continue."""
    text = tg.dumps(state)
    assert tg.loads(text) == state
    if earlier is not None:
        assert tg.loads(text, (tg.dumps(earlier), earlier)) == state
        other = tg.new_game(state.game, state.players, seed=1)
        other = other.apply(random_step(random.Random(0), other))
        assert tg.loads(text, (tg.dumps(other), other)) == state
    assert tg.replay(state.replay_record()) == state
    assert all(isinstance(entry, dict) and "type" in entry and "seat" in entry for entry in state.public_log())


def random_step(rng: random.Random, state: Any) -> Any:
    """Any seat's random legal action, preferring the seats the game waits for (so that games end)."""
    seats = list(state.asking_order())
    assert set(state.waiting_for) <= set(seats)
    waiting = sorted(state.waiting_for)
    seat = rng.choice(waiting) if waiting and rng.random() < 0.8 else rng.choice(seats)
    actions = state.legal_actions(seat) or (waiting and state.legal_actions(rng.choice(waiting)))
    assert actions, f"seat {seat} is waited for or asked, yet nothing is legal"
    return rng.choice(actions)


def play(rng: random.Random, state: Any) -> Any:
    game = tg.get_game(state.game)
    info = game.info
    checked = None  # the state at the last check
    now = 0  # the referee's clock (ms)
    for step in range(MAX_STEPS):
        if state.status != "playing":
            break
        due = state.timer()
        assert state.waiting_for or due is not None, "a running game waits for someone or for its timer"
        now += rng.randrange(300)
        if due is not None and (due.due <= now or not state.asking_order() or rng.random() < 0.2):
            now = max(now, due.due)
            after = state.apply(due.action)
            assert after.version == state.version + 1 and after.timer() is None
            state = after
            continue
        if step % CHECK_EVERY == 0:
            check_views(state)
            check_legal_actions(state, now)
            check_refusals(rng, state, info)
            check_resample(rng, state, now)
            check_snapshots(state, checked)
            checked = state
        after = state.apply(game.received(random_step(rng, state), now))
        assert state.turns <= after.turns <= after.version
        state = after
    assert state.status != "playing", f"no end within {MAX_STEPS} actions"
    assert state.outcome is not None and state.outcome.status == state.status
    assert state.waiting_for == frozenset() and state.asking_order() == ()
    assert all(state.legal_actions(seat) == [] for seat in range(state.players))
    if not info.cooperative:
        assert state.outcome.winner == state.outcome.ranking[0]
        assert sorted(state.outcome.ranking) == list(range(state.players))
    assert state.outcome.reason in info.outcome_reasons
    check_views(state)
    check_snapshots(state, checked)
    return state


@pytest.mark.parametrize("name", all_games())
def test_random_games_keep_every_invariant(name: str) -> None:
    rng = random.Random(f"every-game-{name}")
    played = 0
    for players, options in configs(name):
        try:
            start = tg.new_game(name, players, seed=rng.randrange(2**32), options=options, first_seat=0)
        except tg.InvalidSetup:  # an option value that needs others (The Game: hand_size 1 with min_per_turn 2)
            assert options and "preset" not in options, "the defaults and every preset are valid"
            continue
        play(rng, start)
        played += 1
    assert played >= len(configs(name)) // 2


@pytest.mark.parametrize("name", all_games())
def test_bots_play_whole_games(name: str) -> None:
    """Each of a game's bots, seated everywhere, plays whole games asked in the game's order; each returns only
    legal actions, and declining (an empty list) is allowed only to seats the game does not wait for."""
    info = tg.get_game(name).info
    assert {"random", "greedy", "best"} <= set(bot_names(name))
    for bot_name in bot_names(name):
        players = info.min_players + (len(bot_name) % (info.max_players - info.min_players + 1))
        state = tg.new_game(name, players, seed=7)
        bots = [create_bot(bot_name, game=name, seed=seat) for seat in range(players)]
        for _ in range(MAX_STEPS):
            if state.status != "playing":
                break
            acted = False
            for seat in state.asking_order():
                actions = list(bots[seat].act(state.observe(seat)))
                if actions:
                    state = state.apply_all(actions)
                    acted = True
                    break
                assert seat not in state.waiting_for, f"{bot_name} declined although the game waits for it"
            assert acted, "some bot acts while the game runs"
        assert state.status != "playing"


def test_new_game_refuses_bad_setups_for_every_game() -> None:
    for name in all_games():
        info = tg.get_game(name).info
        for players in (info.min_players - 1, info.max_players + 1):
            with pytest.raises(tg.InvalidSetup):
                tg.new_game(name, players, seed=1)
        with pytest.raises(tg.InvalidSetup):
            tg.new_game(name, info.min_players, seed=1, options={"no_such_option": 1})
        with pytest.raises(tg.InvalidSetup):
            tg.new_game(name, info.min_players, seed=1, deck=[1, 2, 3])


def test_lobby_views_carry_the_common_fields() -> None:
    for name in all_games():
        info = tg.get_game(name).info
        view = tg.get_game(name).lobby_view(info.min_players, None)
        json.dumps(view)
        assert (view["status"], view["current_seat"], view["waiting_for"]) == ("lobby", None, [])
        assert all(field in view for field in COMMON_VIEW_FIELDS)
