"""Two people play a whole game of The Game on the page through the proxy we ship (``deploy/nginx.conf``, Debian's
nginx) before two gunicorn servers over Redis, restarted after the first turn: one server stopped (``TERM``), or both
servers' workers replaced (``HUP`` to each, as a deploy does). The page, its files and every request go through nginx,
which spreads them over both servers; each person sees the other's moves only by their event stream
(``EventSource``), which must pass through nginx unbuffered for the game to go on. The streams a stopped worker held
are cut, and each page reconnects by itself to a server that is up and resumes from its last event. A move that the
proxy answers ``502`` is sent again by the page with its ``Idempotency-Key``."""

from __future__ import annotations

import os
import re
import signal
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from playwright.sync_api import Route, expect

from tests.browser.person import MOST_MOVES, Person
from tests.service.proxy import NGINX, Proxied, proxied
from tests.service.redis_cluster import available

pytestmark = pytest.mark.skipif(
    NGINX is None or not available(), reason="nginx (nginx-light) or redis-server is not installed"
)
#: What the browser logs of a 502 (nginx answers it to a change it had sent to a server as that one stopped).
BAD_GATEWAY = "status of 502 (Bad Gateway)"
#: A page's event stream, opened (again).
EVENTS = re.compile(r"/v1/games/[^/]+/events")
#: Keep-alives each second and a stopped worker's streams cut after 2 s: the stop takes seconds, not tens.
QUICK = {"TG_STREAM_KEEPALIVE": "1", "GUNICORN_CMD_ARGS": "--graceful-timeout 2"}


def clean_but(someone: Person, *expected: str) -> None:
    """``Person.assert_clean``, but for the failed loads that the browser logs (``expected``) where the test made
    them fail."""
    assert someone.serious_violations() == []
    assert [error for error in someone.errors if not any(part in error for part in expected)] == []


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[Proxied]:
    """Servers of the test's own: a restart leaves them changed."""
    with proxied(tmp_path, **QUICK) as running_proxy:
        yield running_proxy


@pytest.fixture
def site(servers: Proxied) -> str:
    return f"http://127.0.0.1:{servers.port}"


def restart(servers: Proxied, how: signal.Signals, people: tuple[Person, ...]) -> None:
    """``TERM`` to server 0 (it stops: the pages go on with the other), or ``HUP`` to both (new workers; the old
    ones finish and go): then every stream is cut, and the test waits until each page has opened its stream again,
    so that the rest of the game is played after the reload, whatever the machine's speed."""
    if how == signal.SIGTERM:
        os.kill(servers.master(0), how)
        return
    with ExitStack() as reopened:
        waits = [reopened.enter_context(someone.page.expect_request(EVENTS)) for someone in people]
        for server in (0, 1):
            os.kill(servers.master(server), how)
    assert all(wait.value for wait in waits)


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGHUP], ids=["TERM", "HUP"])
def test_two_people_play_a_whole_game_through_nginx_while_the_servers_restart(
    person: Callable[..., Person], servers: Proxied, how: signal.Signals
) -> None:
    ann = person().open(name="Ann")
    ann.create("The Game", 2, ["You", "A person (open seat)"], {"Cards in hand": "2", "Seed": "1"}, public=True)
    bob = person().open(name="Bob")
    listed = bob.page.get_by_role("listitem").filter(has_text="The Game: 2 players, 1 free")
    listed.get_by_role("button", name="Join").click()
    expect(bob.page.locator(".role")).to_have_text("You play seat 2")
    expect(ann.page.locator(".seats")).to_contain_text("Bob")  # Bob's seat, on Ann's page by her stream
    ann.button("Start").click()
    for someone in (ann, bob):
        expect(someone.page.locator(".connection")).to_have_text("Live")

    turns = 0
    for _ in range(MOST_MOVES):  # each in turn: a turn reaches the other only by their stream
        if ann.over() and bob.over():
            break
        movers = [someone for someone in (ann, bob) if someone.page.locator(Person.THE_GAME_TURN).count()]
        if not movers:
            ann.page.wait_for_timeout(100)
            continue
        movers[0].the_game_turn()
        turns += 1
        if turns == 1:
            restart(servers, how, (ann, bob))
    assert turns > 1, "the game ended before the restart"
    for someone in (ann, bob):
        expect(someone.page.locator(".outcome h3")).to_have_text("Game lost")
        expect(someone.page.locator(".connection")).to_have_text("Live")
    assert ann.version() == bob.version() > 2
    for someone in (ann, bob):  # but for the streams the stopped workers cut, and the proxy's 502s (sent again)
        clean_but(someone, "ERR_INCOMPLETE_CHUNKED_ENCODING", BAD_GATEWAY)


def test_a_move_that_a_proxy_answers_502_is_sent_again_with_its_key(person: Callable[..., Person]) -> None:
    """A server gone under the request (nginx's own ``502`` page, not JSON): the page sends the move again, with the
    same ``Idempotency-Key`` (the server applies it once however often it comes), and the game goes on."""
    ann = person().open()
    ann.create("The Game", 1, ["You"])
    keys: list[str] = []

    def first_lost(route: Route) -> None:
        keys.append(route.request.headers["idempotency-key"])
        if len(keys) == 1:
            route.fulfill(status=502, content_type="text/html", body="<html><body>502 Bad Gateway</body></html>")
        else:
            route.continue_()

    ann.page.route("**/v1/games/*/actions", first_lost)
    assert ann.wait_turn_or_end(Person.THE_GAME_TURN)
    before = ann.version()
    ann.page.locator("#table .hand button.card:not(:disabled)").first.click()
    ann.page.locator("#table button.pile:not(:disabled)").first.click()
    ann.wait_past(before)
    assert len(keys) >= 2 and len(set(keys)) == 1  # sent again, as many times as it took, with its key
    assert ann.version() == before + 1  # applied once
    clean_but(ann, BAD_GATEWAY)
