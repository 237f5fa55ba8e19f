"""Two client processes play the two seats of a game against a real server, to the end of the game."""

from __future__ import annotations

import json
import subprocess
from typing import Any

import pytest

from tests.client.live import CuttingProxy, call, client, lobby


def finished(process: subprocess.Popen[str]) -> list[dict[str, Any]]:
    """The JSON lines of a client that exited with status 0 once the game was over."""
    out, err = process.communicate(timeout=300)
    assert process.returncode == 0, err
    return [json.loads(line) for line in out.splitlines()]


def versions_sent(lines: list[dict[str, Any]]) -> set[int]:
    """The versions a client's moves produced: a batch of n actions answered at version a made a-n+1 ... a (no
    server bot acts before the answer here; a real-time game's batch, sent without If-Match, may apply after the
    version it was decided at)."""
    moves = [line for line in lines if line["event"] == "move"]
    return {move["after"] - step for move in moves for step in range(len(move["actions"]))}


def play_whole_game(
    url: str, game: str, bots: tuple[str, str], clients_url: str | None = None, **options: Any
) -> list[dict[str, Any]]:
    """Ann's client gets her token, Bob's joins the lobby by itself; both play to the end; every action in the log
    is one that a client sent for its seat. Answers the log's entries."""
    game_id, host = lobby(url, game, 2, seed=11, **options)
    ann = call(url, "POST", f"/games/{game_id}/seats", {"name": "Ann"})["token"]
    first = client(clients_url or url, game_id, "--bot", bots[0], "--json", token=ann)
    second = client(clients_url or url, game_id, "--join", "Bob", "--bot", bots[1], "--json", "--seed", "3")
    try:
        assert second.stdout is not None
        line = second.stdout.readline()  # the lobby is full once the joining client says so
        assert line, f"the joining client exited ({second.wait(5)}): {second.communicate()[1]}"
        joined = json.loads(line)
        assert joined["event"] == "joined" and joined["seat"] == 1 and joined["token"]
        call(url, "POST", f"/games/{game_id}/start", {"first_seat": 0}, host)
        lines = [finished(first), finished(second)]
    finally:
        first.kill()
        second.kill()

    log = call(url, "GET", f"/games/{game_id}/log")
    view = call(url, "GET", f"/games/{game_id}")
    assert view["status"] not in ("lobby", "playing") and log["replay"] is not None
    for seat, seen in enumerate(lines):
        assert seen[-1]["event"] == "end" and seen[-1]["status"] == view["status"]
        assert (seen[-1]["seat"], seen[-1]["version"], seen[-1]["outcome"]) == (seat, view["version"], view["outcome"])
        ranking = view["outcome"]["ranking"]
        assert seen[-1]["winner"] == view["outcome"]["winner"] and seen[-1]["names"] == ["Ann", "Bob"]
        assert seen[-1]["place"] == (ranking.index(seat) + 1 if ranking else None)
        played = {entry["version"] for entry in log["entries"] if entry["seat"] == seat and entry["type"] != "judge"}
        assert played == versions_sent(seen), f"seat {seat}'s log entries are exactly its client's moves"
    assert not any(entry.get("bot") or entry.get("auto") for entry in log["entries"])
    entries: list[dict[str, Any]] = log["entries"]
    return entries


@pytest.mark.parametrize(("game", "bots"), [("the-game", ("best", "greedy")), ("ninja", ("greedy", "best"))])
def test_two_clients_play_a_whole_game(url: str, game: str, bots: tuple[str, str]) -> None:
    play_whole_game(url, game, bots)


def test_two_clients_race_a_whole_game_of_bataille_corse(url: str) -> None:
    """The real-time game: both clients flip on their turn and slap whenever their bot sees a slap, racing each
    other over HTTP; the server orders the slaps (a late one is stale) and the game ends at its flip limit."""
    entries = play_whole_game(url, "bataille-corse", ("best", "greedy"), max_flips=120)
    slaps = [entry for entry in entries if entry["type"] == "slap"]
    assert {entry["seat"] for entry in slaps} == {0, 1} and {entry["result"] for entry in slaps} <= {"valid", "stale"}
    assert sum(1 for entry in entries if entry["type"] == "flip") <= 120


def test_two_clients_race_through_collection_windows(url: str) -> None:
    """With a window, each slap is pending until the server's judge (its own entry, nobody's move)."""
    entries = play_whole_game(url, "bataille-corse", ("best", "greedy"), max_flips=120, slap_window_ms=50)
    judged = [result for entry in entries if entry["type"] == "judge" for result in entry["results"]]
    assert {result["seat"] for result in judged} == {0, 1} and "valid" in {result["result"] for result in judged}
    assert {entry["result"] for entry in entries if entry["type"] == "slap"} <= {"pending", "stale"}


def test_clients_whose_streams_are_cut_reconnect_and_finish_the_game(url: str) -> None:
    proxy = CuttingProxy(url, limit=60_000)
    try:
        play_whole_game(url, "the-game", ("greedy", "greedy"), clients_url=proxy.url)
    finally:
        proxy.close()
    assert proxy.cuts >= 2


def test_clients_play_with_player_keys(url: str) -> None:
    """A player key in TG_TOKEN: Ann's client plays the seat her key took; Bob's joins with his key, which binds the
    seat to him (the client then acts with the key, not the seat's token)."""
    game_id, host = lobby(url, "the-game", 2, seed=5)
    ann, bob = (call(url, "POST", "/players", {"name": name}) for name in ("Ann", "Bob"))
    call(url, "POST", f"/games/{game_id}/seats", {"name": "Ann"}, ann["key"])
    first = client(url, game_id, "--bot", "greedy", "--json", token=ann["key"])
    second = client(url, game_id, "--join", "Bob", "--bot", "greedy", "--json", token=bob["key"])
    try:
        assert second.stdout is not None
        joined = json.loads(second.stdout.readline())
        assert joined["event"] == "joined" and joined["seat"] == 1
        call(url, "POST", f"/games/{game_id}/start", {"first_seat": 0}, host)
        ends = [finished(first)[-1], finished(second)[-1]]
    finally:
        first.kill()
        second.kill()
    view = call(url, "GET", f"/games/{game_id}")
    assert [entry["player"] for entry in view["seats"]] == [ann["player_id"], bob["player_id"]]
    assert [end["seat"] for end in ends] == [0, 1] and {end["status"] for end in ends} == {view["status"]}
    listed = call(url, "GET", "/players/me/games", token=bob["key"])["games"]
    assert [(entry["game_id"], entry["seat"], entry["status"]) for entry in listed] == [(game_id, 1, view["status"])]
