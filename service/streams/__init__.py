"""Event streams: one Redis subscription per process fanned out to its streams (``hub``), and what each stream
sends its reader (``sse``)."""
