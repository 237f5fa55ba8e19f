"""One real server (``python -m service`` in a subprocess) for the client tests of a worker."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.client.live import server


@pytest.fixture(scope="session")
def url() -> Iterator[str]:
    with server() as address:
        yield address
