"""A player key's event stream (stream.js): read with fetch() and the key in the header, it reconnects by itself
when the server ends the stream (here after 2 seconds) and resumes with ``Last-Event-ID``, as EventSource does."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from unittest import mock

import pytest
from playwright.sync_api import expect

from tests.browser.person import Person
from tests.client.live import server


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with mock.patch.dict(os.environ, {"TG_STREAM_LIFETIME": "2"}), server() as url:
        yield url


def test_a_key_holders_stream_reconnects_with_last_event_id(person: Callable[..., Person]) -> None:
    ann = person().open()
    ann.create("The Game", 2, ["You", "Bot: Random"], {"Cards in hand": "2", "Seed": "12"})
    ann.page.wait_for_function("() => localStorage.getItem('tg.player')")
    ann.page.evaluate("localStorage.removeItem('tg.games')")  # as a second device: no seat token, the key only
    with ann.page.expect_request(lambda request: request.url.endswith("/events")) as first:
        ann.page.reload()
    expect(ann.page.locator(".role")).to_have_text(ann.say("game.role_seat", number=1))
    expect(ann.page.locator(".connection")).to_have_text("Live")
    version = ann.page.locator("#table").get_attribute("data-version")
    with ann.page.expect_request(lambda request: request.url.endswith("/events")) as again:
        pass  # the server ends the stream after 2 seconds: the page opens it again by itself
    assert first.value.headers["authorization"].startswith("Bearer p.")
    assert "token=" not in first.value.url and "last-event-id" not in first.value.headers
    assert again.value.headers["authorization"] == first.value.headers["authorization"]
    resumed = again.value.headers["last-event-id"]  # the last event's id: the shown version and its write's nonce
    assert re.fullmatch(r"\d+\.[0-9a-f]{8}", resumed) and resumed.split(".")[0] == version
    expect(ann.page.locator(".connection")).to_have_text("Live")
    ann.assert_clean()
