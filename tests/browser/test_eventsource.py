"""docs/api.md's browser example (the ``js`` block of "Live play") runs as written in a real browser against
``python -m service``: it renders the seat's views, shows its turn, and follows the host's rematch into the new
game with the seat's new token. A doc edit that breaks it fails here."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.client.live import call, server
from tests.service.gameclient import stuck_deck, without_results
from tests.service.servers import code_block

EXAMPLE = code_block("docs/api.md", "In a browser:", "js")
WAIT_MS = 5000  # each step: a view travels in milliseconds

# What the example leaves to its page: `render`, `showYourTurn`, the game and the seat token it follows; and a
# record of any error the page throws (a broken example throws: it must not just stay silent).
PAGE = """([game, token]) => {
  window.seen = []; window.turns = 0; window.errors = [];
  window.addEventListener("error", (event) => window.errors.push(event.message));
  window.render = (view) => window.seen.push(view);
  window.showYourTurn = () => { window.turns += 1; };
  window.gameId = game; window.seatToken = token;
}"""


def until(page: Page, condition: str, arg: Any = None) -> None:
    """Wait, a few seconds at most, until ``condition`` (a JavaScript function of ``arg``) holds in ``page``; on a
    timeout, fail with what the page rendered and the errors it threw."""
    try:
        page.wait_for_function(condition, arg=arg, timeout=WAIT_MS)
    except PlaywrightTimeout:
        rendered, errors = page.evaluate("[seen.map((view) => [view.game_id, view.status, view.seat]), errors]")
        raise AssertionError(f"never held: {condition}; rendered {rendered}; errors {errors}") from None


def test_the_documented_eventsource_client_plays_on_into_the_rematch(browser: Browser) -> None:
    with server() as url:
        created = call(url, "POST", "/games", {"players": 1, "deck": stuck_deck()})
        game, host = created["game_id"], created["host_token"]
        seat = call(url, "POST", f"/games/{game}/seats", {"name": "ann"})["token"]
        # The service's own answers carry a strict policy (no scripts, no connections: they are JSON); the page
        # that runs the example is a frontend's, with its own policy, on the same origin (the example's URL is
        # relative): /v1/health stands in for its origin.
        page = browser.new_page(bypass_csp=True)
        page.goto(f"{url}/v1/health")
        page.evaluate(PAGE, [game, seat])
        page.add_script_tag(content=EXAMPLE)  # a <script> of the page: the block as written, its follow() call too

        until(page, "() => seen.length >= 1")
        assert page.evaluate("[seen[0].game_id, seen[0].seat, seen[0].status, turns]") == [game, 0, "lobby", 0]
        call(url, "POST", f"/games/{game}/start", {}, token=host)
        until(page, "() => turns >= 1")
        assert page.evaluate("seen.at(-1).status") == "playing"

        plays = [(99, "asc1"), (98, "asc2"), (2, "desc1"), (3, "desc2")]
        body = {"plays": [{"card": card, "pile": pile} for card, pile in plays], "end_turn": True}
        lost = call(url, "POST", f"/games/{game}/turns", body, token=seat)
        assert lost["status"] == "lost"
        until(page, "() => seen.at(-1).status === 'lost'")
        assert page.evaluate("seen.at(-1)") == without_results(lost)

        rematch = call(url, "POST", f"/games/{game}/rematch", token=host)["game_id"]
        until(page, "(rematch) => seen.some((view) => view.game_id === rematch && view.seat === 0)", rematch)
        first = page.evaluate("(rematch) => seen.find((view) => view.game_id === rematch)", rematch)
        assert first["status"] == "playing" and first["hand"]  # the seat's own view: its token is the new seat's
        assert page.evaluate("errors") == []
