"""Tests of what the core offers every game: the one test every registered game must pass, the simulator, and
what every game shares (bots of the wrong game, short reprs, the progress line).

test_every_game.py  random games of every registered game (and the toy game) checked step by step
test_simulate.py    the simulator: determinism whatever the workers, duplicate seating, the command line
test_progress.py    the progress line of long runs, and when the simulator's command line shows it
test_bots.py        a bot given another game's observation: WrongGame
test_repr.py        a state's repr: short, safe to log
"""
