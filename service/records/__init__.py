"""What the service stores about a game: the record around the core's state (``game_record``), the clock's instants
(``timing``), and the per-process cache of states by snapshot text (``state_cache``)."""
