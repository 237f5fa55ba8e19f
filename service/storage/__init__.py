"""Redis: the game store and its compare-and-set (``store``), the Lua scripts Redis runs (``lua/``), the lobby list
(``lobby_index``), and the client a process uses (``redis_client``)."""
