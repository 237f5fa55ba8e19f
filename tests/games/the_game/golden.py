"""The golden playthrough: one whole greedy-bot game, stored as JSON and replayed by ``test_golden.py``.

Regenerate (only when a deliberate rule or bot change alters the game), from the repository root:

    .venv/bin/python -m tests.games.the_game.golden

then review the diff of ``tests/games/the_game/golden/greedy_3p_seed2026.json`` before committing it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import thegame_core as tg
from thegame_core.bots import create_bot

GOLDEN_FILE = Path(__file__).parent / "golden" / "greedy_3p_seed2026.json"
SEED, PLAYERS, BOT = 2026, 3, "greedy"


def greedy_game(seed: int = SEED, players: int = PLAYERS) -> tuple[tg.State, list[dict[str, Any]]]:
    """The game of one greedy bot per seat (bot seed = seat) from ``seed``: final state and actions in dict form."""
    state = tg.new_game("the-game", players, seed=seed)
    bots = [create_bot(BOT, seed=seat) for seat in range(players)]
    while state.status == "playing":
        state = state.apply_all(bots[state.current_seat].act(state.observe(state.current_seat)))
    return state, state.public_log()


def summary(state: tg.State) -> dict[str, Any]:
    """The facts of a final state that the golden file pins."""
    return {
        "status": state.status,
        "outcome": None if state.outcome is None else state.outcome.to_dict(),
        "score": state.score,
        "version": state.version,
        "tops": list(state.tops),
        "draw_pile": state.draw_pile,
        "hands": [sorted(hand) for hand in state.hands],
        "current_seat": state.current_seat,
        "placed_this_turn": state.placed_this_turn,
    }


def golden_record() -> dict[str, Any]:
    state, actions = greedy_game()
    return {"seed": SEED, "players": PLAYERS, "bot": BOT, "options": {}, "actions": actions, "final": summary(state)}


def render(record: dict[str, Any]) -> str:
    """The file's text: JSON with one action per line, so that a change shows as a readable diff."""
    head = "".join(f" {json.dumps(key)}: {json.dumps(value)},\n" for key, value in record.items() if key != "actions")
    actions = ",\n".join(f"  {json.dumps(action)}" for action in record["actions"])
    return "{\n" + head + f' "actions": [\n{actions}\n ]\n}}\n'


def main() -> None:
    text = render(golden_record())
    assert json.loads(text) == golden_record()
    GOLDEN_FILE.write_text(text)
    print(f"wrote {GOLDEN_FILE}")


if __name__ == "__main__":
    main()
