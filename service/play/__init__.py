"""The rules of a change: the write path (``changes``), its steps (``commands``), who calls (``tokens``),
retries (``idempotency``), what is answered (``presenters``), and sealed rematch tokens (``sealing``)."""
