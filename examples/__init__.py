"""Worked examples for people extending the project: Snap, a toy game added the way every game is added."""
