"""The committed OpenAPI document serves third-party tooling: it validates, and a client generated from it by
openapi-python-client plays whole games against a real server (a subprocess on a free port, real sockets): The Game
through its own operations (seats, start, single plays, turn ends, whole turns, a signal, errors, the log and its
replay), Ninja through the actions route, from the actions its typed views list, and Bataille corse's slaps with
the `pile_version` they saw and the `results` of each answer.

Everything is local: the generator reads the committed file and writes into a temporary folder.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any
from unittest import mock

import pytest
from openapi_spec_validator import validate
from servers import ROOT, running

import thegame_core as tg
from thegame_core.bots import create_bot

SPEC = ROOT / "openapi" / "openapi.json"
PACKAGE = "tg_generated_client"
SORTED_DECK = list(range(2, 100))
TEST_TTL = "300"  # games this test leaves in a real Redis expire soon


def test_committed_spec_validates() -> None:
    validate(json.loads(SPEC.read_text()))


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """The package openapi-python-client generates from the committed spec, imported from a temporary folder."""
    folder = tmp_path_factory.mktemp("generated")
    config = folder / "config.json"
    config.write_text(json.dumps({"post_hooks": []}))  # no formatter run: nothing outside the venv is needed
    generator = Path(sys.executable).parent / "openapi-python-client"
    command = [str(generator), "generate", "--path", str(SPEC), "--output-path", str(folder / PACKAGE)]
    command += ["--meta", "none", "--config", str(config), "--fail-on-warning"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(folder))
        for name in [name for name in sys.modules if name.split(".")[0] == PACKAGE]:
            del sys.modules[name]


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    """``python -m service`` on a free port (``servers.running``: its access log goes to a file, never to a pipe
    that would fill up and block it): embedded store, or the real Redis when REDIS_URL is set."""
    ttls = {name: TEST_TTL for name in ("TG_LOBBY_TTL", "TG_GAME_TTL", "TG_FINISHED_TTL")}
    with contextlib.ExitStack() as stack:
        with mock.patch.dict(os.environ, ttls):  # the server's environment only: it is copied at its start
            port, _ = stack.enter_context(running([sys.executable, "-m", "service"]))
        yield f"http://127.0.0.1:{port}"


def operation(api: ModuleType, tag: str, name: str) -> Any:
    """The generated module of one operation (``api/<tag>/<operation id>.py``): its ``sync_detailed``."""
    return importlib.import_module(f"{api.__name__}.api.{tag}.{name}").sync_detailed


def smallest_jump(view: Any) -> Any:
    """The legal play that moves its pile the least (a greedy choice made from the view alone)."""
    tops = {pile.id.value: pile.top for pile in view.piles}
    return min(view.legal_plays, key=lambda play: (abs(play.card - tops[play.pile.value]), play.card))


def test_a_generated_client_plays_a_whole_game(api: ModuleType, base_url: str) -> None:
    models = importlib.import_module(f"{api.__name__}.models")
    client = api.Client(base_url=base_url, raise_on_unexpected_status=True)

    answer = operation(api, "health", "health")(client=client)
    assert answer.status_code == 200 and isinstance(answer.parsed, models.Health) and answer.parsed.status == "ok"

    created = operation(api, "games", "create_game")(client=client, body=models.CreateGame(players=2, deck=SORTED_DECK))
    assert created.status_code == 201 and isinstance(created.parsed, models.GameCreated), created.content
    game_id = created.parsed.game_id
    host = api.AuthenticatedClient(base_url=base_url, token=created.parsed.host_token)
    seats = {}
    for name in ("ada", "bob"):
        taken = operation(api, "seats", "take_seat")(game_id, client=client, body=models.SeatRequest(name=name))
        assert taken.status_code == 201 and isinstance(taken.parsed, models.SeatTaken), taken.content
        seats[taken.parsed.seat] = api.AuthenticatedClient(base_url=base_url, token=taken.parsed.token)
    start = operation(api, "games", "start_game")(game_id, client=host, body=models.StartRequest(first_seat=0))
    assert start.status_code == 200 and start.parsed.status == "playing", start.content

    get_game = operation(api, "games", "get_game")
    play_card = operation(api, "plays", "play_card")
    end_turn = operation(api, "plays", "end_turn")
    play_turn = operation(api, "plays", "play_turn")

    # typed error bodies: the seat not on turn, then a card that cannot go where it is sent
    hand = get_game(game_id, client=seats[0]).parsed.hand
    refused = play_card(game_id, client=seats[1], body=models.Play(card=hand[0], pile=models.PlayPile.ASC1))
    assert refused.status_code == 409 and isinstance(refused.parsed, models.Error), refused.content
    assert (refused.parsed.code, refused.parsed.error) == (409, "not_your_turn") and refused.parsed.message
    placed = play_card(game_id, client=seats[0], body=models.Play(card=hand[1], pile=models.PlayPile.ASC1))
    assert placed.status_code == 200 and placed.parsed.piles[0].top == hand[1], placed.content
    illegal = play_card(game_id, client=seats[0], body=models.Play(card=hand[0], pile=models.PlayPile.ASC1))
    assert illegal.status_code == 422 and isinstance(illegal.parsed, models.Error), illegal.content
    assert (illegal.parsed.code, illegal.parsed.error) == (422, "illegal_play")

    signal = models.Signal(pile=models.SignalPile.DESC2, kind=models.SignalKind.DONT_PLAY)
    told = operation(api, "plays", "send_signal")(game_id, client=seats[1], body=signal)
    assert told.status_code == 200 and isinstance(told.parsed, models.TheGameView), told.content
    assert [(s.seat, s.pile.value, s.kind.value) for s in told.parsed.signals] == [(1, "desc2", "dont_play")]

    moves = 2  # the card placed and the signal
    while (view := get_game(game_id, client=client).parsed).status == "playing":
        seat = seats[view.current_seat]
        mine = get_game(game_id, client=seat).parsed
        assert isinstance(mine, models.TheGameView) and mine.seat == view.current_seat
        if mine.legal_plays:
            play = models.Play.from_dict(smallest_jump(mine).to_dict())  # one of the view's legal_plays
            if mine.seat == 0:
                answer = play_card(game_id, client=seat, body=play)
            else:  # seat 1 sends its actions as (partial) whole turns
                answer = play_turn(game_id, client=seat, body=models.Turn(plays=[play], end_turn=False))
        else:
            assert mine.can_end_turn, mine.to_dict()
            if mine.seat == 0:
                answer = end_turn(game_id, client=seat)
            else:
                answer = play_turn(game_id, client=seat, body=models.Turn(plays=[], end_turn=True))
        assert answer.status_code == 200 and isinstance(answer.parsed, models.TheGameView), answer.content
        moves += 1
        assert moves < 400, "the game does not end"

    assert view.status == "won" and view.score == 0 and view.draw_pile == 0
    assert isinstance(view.outcome, models.Outcome) and view.outcome.status == "won"
    assert view.outcome.reason == "all_cards_placed"

    log = operation(api, "log", "get_log")(game_id, client=client)
    assert log.status_code == 200 and isinstance(log.parsed, models.Log)
    replay = log.parsed.replay
    assert isinstance(replay, models.Replay), log.content
    assert replay.deck == SORTED_DECK and replay.first_seat == 0 and len(replay.actions) == moves
    state = tg.replay(replay.to_dict())
    final = view.to_dict()
    assert state.status == final["status"] and state.score == final["score"]
    assert state.public_view()["piles"] == final["piles"]
    for number, seat in seats.items():
        assert state.view(number)["hand"] == get_game(game_id, client=seat).parsed.hand


def test_a_generated_client_closes_a_lobby(api: ModuleType, base_url: str) -> None:
    models = importlib.import_module(f"{api.__name__}.models")
    client = api.Client(base_url=base_url, raise_on_unexpected_status=True)
    created = operation(api, "games", "create_game")(client=client, body=models.CreateGame(players=3)).parsed
    host = api.AuthenticatedClient(base_url=base_url, token=created.host_token)
    closed = operation(api, "games", "close_lobby")(created.game_id, client=host)
    assert closed.status_code == 204, closed.content
    gone = operation(api, "games", "get_game")(created.game_id, client=client)
    assert gone.status_code == 404 and isinstance(gone.parsed, models.Error)
    assert (gone.parsed.code, gone.parsed.error) == (404, "unknown_game")


def test_a_generated_client_plays_ninja_from_its_legal_actions(api: ModuleType, base_url: str) -> None:
    """The same generated client plays a whole game of Ninja through `send_actions`, sending back actions its
    typed views list; the log's replay rebuilds the final state."""
    models = importlib.import_module(f"{api.__name__}.models")
    client = api.Client(base_url=base_url, raise_on_unexpected_status=True)
    game = models.CreateGameGame("ninja")  # the document lists the catalog's games
    body = models.CreateGame(
        game=game, players=3, seed=11, options=models.CreateGameOptions.from_dict({"max_turns": 150})
    )
    created = operation(api, "games", "create_game")(client=client, body=body)
    assert created.status_code == 201, created.content
    game_id = created.parsed.game_id
    host = api.AuthenticatedClient(base_url=base_url, token=created.parsed.host_token)
    seats = []
    for name in ("ada", "bob", "cy"):
        taken = operation(api, "seats", "take_seat")(game_id, client=client, body=models.SeatRequest(name=name))
        seats.append(api.AuthenticatedClient(base_url=base_url, token=taken.parsed.token))
    start = operation(api, "games", "start_game")(game_id, client=host, body=models.StartRequest(first_seat=0))
    assert isinstance(start.parsed, models.NinjaView) and start.parsed.waiting_for == [0, 1, 2], start.content

    get_game = operation(api, "games", "get_game")
    send = operation(api, "actions", "send_actions")
    moves = 0
    while (view := get_game(game_id, client=client).parsed).status == "playing":
        assert isinstance(view, models.NinjaView)
        seat = view.waiting_for[-1]  # in the swap phase the last seat gets ready first
        mine = get_game(game_id, client=seats[seat]).parsed
        assert isinstance(mine, models.NinjaView) and mine.seat == seat and mine.legal_actions
        choice = mine.legal_actions[-1] if mine.phase == "swap" else mine.legal_actions[0]
        answer = send(game_id, client=seats[seat], body=choice)
        assert answer.status_code == 200 and isinstance(answer.parsed, models.NinjaView), answer.content
        moves += 1
        assert moves < 2000, "the game does not end"
    assert view.status == "finished" and isinstance(view.outcome, models.Outcome)
    assert view.outcome.reason in ("out_of_cards", "turn_limit") and sorted(view.outcome.ranking) == [0, 1, 2]

    log = operation(api, "log", "get_log")(game_id, client=client).parsed
    state = tg.replay(log.replay.to_dict())
    assert state.public_view()["pile"] == view.pile and state.outcome.to_dict() == view.outcome.to_dict()
    refused = send(game_id, client=seats[0], body=models.Action.from_dict({"type": "ready"}))
    assert refused.status_code == 409 and (refused.parsed.code, refused.parsed.error) == (409, "game_over")


def test_a_generated_client_races_a_whole_game_of_bataille_corse(api: ModuleType, base_url: str) -> None:
    """Two seats of Bataille corse played through `send_actions` alone: each seat's `best` bot judges the seat's
    typed view; a seat that sees a combination slaps with the view's `pile_version` (valid), the other seat then
    slaps the same version (stale), a slap on a pile with no combination is false, the seat on turn flips
    otherwise; every answer's `results` says so, and the game ends at its flip limit or with every card in one
    packet. The log's replay rebuilds the final state, and a slap after the end is `409 game_over`."""
    models = importlib.import_module(f"{api.__name__}.models")
    client = api.Client(base_url=base_url, raise_on_unexpected_status=True)
    options = models.CreateGameOptions.from_dict({"max_flips": 80})
    body = models.CreateGame(game=models.CreateGameGame("bataille-corse"), players=2, seed=5, options=options)
    created = operation(api, "games", "create_game")(client=client, body=body)
    assert created.status_code == 201, created.content
    game_id = created.parsed.game_id
    host = api.AuthenticatedClient(base_url=base_url, token=created.parsed.host_token)
    seats = []
    for name in ("ada", "bob"):
        taken = operation(api, "seats", "take_seat")(game_id, client=client, body=models.SeatRequest(name=name))
        seats.append(api.AuthenticatedClient(base_url=base_url, token=taken.parsed.token))
    start = operation(api, "games", "start_game")(game_id, client=host, body=models.StartRequest(first_seat=0))
    assert isinstance(start.parsed, models.BatailleCorseView) and start.parsed.current_seat == 0, start.content

    get_game, send = operation(api, "games", "get_game"), operation(api, "actions", "send_actions")
    game = tg.get_game("bataille-corse")
    bots = [create_bot("best", game="bataille-corse", seed=seat) for seat in range(2)]

    def act(seat: int, action: dict[str, Any], result: str | None) -> Any:
        answer = send(game_id, client=seats[seat], body=models.Action.from_dict(action))
        assert answer.status_code == 200 and isinstance(answer.parsed, models.BatailleCorseView), answer.content
        assert [entry.to_dict() for entry in answer.parsed.results] == [{"type": action["type"], "result": result}]
        return answer.parsed

    said = {"valid": 0, "stale": 0, "false": 0, None: 0}
    while (view := get_game(game_id, client=client).parsed).status == "playing":
        mine = [get_game(game_id, client=seats[seat]).parsed for seat in range(2)]
        assert all(isinstance(seen, models.BatailleCorseView) and seen.seat == n for n, seen in enumerate(mine))
        wants = [bots[n].act(game.observation_from_view(seen.to_dict(), [])) for n, seen in enumerate(mine)]
        slappers = [n for n, actions in enumerate(wants) if actions and actions[0].to_dict()["type"] == "slap"]
        slap = {"type": "slap", "pile_version": view.pile_version}
        if slappers:  # a combination: the first seat collects, the other one's slap on that pile comes too late
            collected = act(slappers[0], slap, "valid")
            assert collected.pile == [] and collected.pile_version == view.pile_version + 1
            said["valid"] += 1
            if collected.status == "playing":  # a slap may win the last cards: then the game is over
                act(1 - slappers[0], slap, "stale")
                said["stale"] += 1
        elif view.pile and not said["false"]:  # once: a slap on a pile with no combination costs cards
            after = act(1, slap, "false")
            assert after.penalty_cards == view.penalty_cards + 3 and after.seats[1].errors == 0
            said["false"] += 1
        else:
            act(view.current_seat, {"type": "flip"}, None)
            said[None] += 1
        assert said[None] <= 80, "the flip limit is 80"

    assert said["valid"] and said["stale"] and said["false"] == 1, said
    assert view.status == "finished" and isinstance(view.outcome, models.Outcome), view.to_dict()
    assert view.outcome.reason in ("all_cards", "flip_limit") and sorted(view.outcome.ranking) == [0, 1]
    assert view.flips == said[None] and (view.outcome.reason == "all_cards") == (said[None] < 80)
    packets = [seat.packet for seat in view.seats]
    assert view.outcome.winner == view.outcome.ranking[0] and packets[view.outcome.winner] == max(packets)

    log = operation(api, "log", "get_log")(game_id, client=client).parsed
    results = [entry.to_dict().get("result") for entry in log.entries]
    assert [results.count(word) for word in ("valid", "stale", "false")] == [said["valid"], said["stale"], 1]
    state = tg.replay(log.replay.to_dict())
    assert state.public_view()["pile"] == [card.value for card in view.pile]
    assert state.outcome.to_dict() == view.outcome.to_dict()
    refused = send(game_id, client=seats[0], body=models.Action.from_dict({"type": "slap", "pile_version": 0}))
    assert refused.status_code == 409 and (refused.parsed.code, refused.parsed.error) == (409, "game_over")
