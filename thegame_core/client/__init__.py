"""A bot client for the service's live games, stdlib only: ``python -m thegame_core.client play ...``.

It follows a game's event stream as one seat (``stream``, over the ``sse`` parser), rebuilds the seat's
observation from each view and the public log, lets a registered bot decide, and sends its actions (``seat``).
``docs/client.md`` explains its options, its output and how it behaves under races and network trouble.
"""
