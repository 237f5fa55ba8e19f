"""Tests of what the core offers every game: the one test every registered game must pass, and the simulator.

test_every_game.py  random games of every registered game (and the toy game) checked step by step
test_simulate.py    the simulator: determinism whatever the workers, duplicate seating, the command line
"""
