"""Time: what falls due when (paced bots, deadlines: ``schedule``), applying it (``catch_up``), the bots' decisions
(``bots``), the clock's options (``options``)."""
