"""Tests of the bot client ``thegame_core.client``: its event stream parser, how it rebuilds a seat's observation
from HTTP answers, its command line against a real server, and whole games played by client processes."""
