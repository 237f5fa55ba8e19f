"""The bot client in a real-time game: a slap is judged on the ``pile_version`` it carries, so another seat's change
between the view and the slap (a stale slap of its own) does not cost the client a slap it would win."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

from tests.client.live import call
from thegame_core.client.api import Api
from thegame_core.client.seat import SeatPlayer
from thegame_core.games.bataille_corse.actions import Action, Slap
from thegame_core.games.bataille_corse.bots import BestBot
from thegame_core.games.bataille_corse.cards import deck_names
from thegame_core.games.bataille_corse.views import Observation

#: Seat 0 flips the 7 of spades, seat 1 the 7 of hearts: a double; the third flip ends the game (max_flips 3).
DECK = ["7S", "7H", *(card for card in deck_names(False) if card not in ("7S", "7H"))]


class Interrupted(BestBot):
    """``best``, and each time it decides to slap, another seat's late slap lands first (through ``interrupt``)."""

    def __init__(self, interrupt: threading.Event, send: Callable[[int], None]) -> None:
        super().__init__()
        self.interrupt, self.send = interrupt, send

    def act(self, observation: Observation) -> list[Action]:
        actions = super().act(observation)
        if actions and type(actions[0]) is Slap:
            self.send(observation.pile_version - 1)
            self.interrupt.set()
        return actions


def test_a_slap_is_not_lost_to_a_change_that_leaves_the_pile_as_it_was(url: str) -> None:
    body = {"game": "bataille-corse", "players": 2, "deck": DECK, "options": {"max_flips": 3}}
    created = call(url, "POST", "/games", body)
    game_id, host = created["game_id"], created["host_token"]
    ann = call(url, "POST", f"/games/{game_id}/seats", {"name": "Ann"})["token"]
    bob = call(url, "POST", f"/games/{game_id}/seats", {"name": "Bob"})["token"]
    call(url, "POST", f"/games/{game_id}/start", {"first_seat": 0}, host)

    def late_slap(pile_version: int) -> None:
        answer = call(url, "POST", f"/games/{game_id}/actions", {"type": "slap", "pile_version": pile_version}, bob)
        assert answer["results"] == [{"type": "slap", "result": "stale"}]

    interrupted = threading.Event()
    player = SeatPlayer(Api(url, game_id, ann, timeout=10), Interrupted(interrupted, late_slap))
    summaries: list[object] = []
    thread = threading.Thread(target=lambda: summaries.append(player.play()), daemon=True)
    thread.start()
    for _ in range(200):  # Bob flips once Ann has
        if call(url, "GET", f"/games/{game_id}")["flips"] == 1:
            break
        threading.Event().wait(0.05)
    call(url, "POST", f"/games/{game_id}/actions", {"type": "flip"}, bob)
    thread.join(30)
    assert interrupted.is_set() and summaries, "Ann's client saw the double and finished the game"

    entries: Sequence[dict[str, object]] = call(url, "GET", f"/games/{game_id}/log")["entries"]
    slaps = [(entry["seat"], entry["pile_version"], entry["result"]) for entry in entries if entry["type"] == "slap"]
    assert slaps == [(1, 1, "stale"), (0, 2, "valid")], slaps
