"""Tests of thegame_core (spec: shared/spec/the-game.md).

    test_setup.py       Components, Options (presets, ranges, invalid setups), Setup (shuffle, round-robin deal)
    test_placing.py     Placing a card (ascending / descending, backwards exactly 10) and the worked examples
    test_turns.py       A turn: the minimum, ending the turn, drawing, passing clockwise, skipping empty hands
    test_end.py         End of the game: won, lost (strict, "try"), self-enabled sequences, score (worked example 25)
    test_errors.py      Error codes, their check order, malformed actions, all-or-nothing apply_all
    test_info.py        Information and talk: views, the public log, signals
    test_codec.py       tg.dumps / tg.loads / tg.replay round trips and refused snapshots
    test_bots.py        The bots registry
    test_best_bot.py    The best bot: honest, legal, deterministic
    test_lookahead.py   Solo lookahead rollouts over known draw orders
    test_properties.py  Hypothesis properties over random games
    test_random_sim.py  Thousands of whole bot games checked step by step (OpenSpiel random_sim_test style)
    test_golden.py      The golden playthrough in golden/ (regenerated: `python -m tests.games.the_game.golden`)
    helpers.py          Explicit decks (deck_for, scripted_deck), scripted turns, invariants, a restatement of the rules

Run: `.venv/bin/pytest -n 2 tests/games/the_game`.
"""
