"""Rated games on the page (docs/api.md "Ratings"): two people, each with the player key their page made, play a
rated game of Bataille corse created from the lobby's form; each table shows both ratings ("1500?" while new), and
the final screen both changes ("1532? (+32)"). Then the leaderboard and the profile with its rating chart."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.person import Person
from tests.browser.sites import production
from tests.browser.test_page_me import player_key

MINUS = "\u2212"  # the page writes a fall with the minus sign
CHANGE = re.compile(rf"\d+\?? \([+{MINUS}]\d+\)")


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with production() as url:
        yield url


def api(site: str, path: str, key: str | None = None, body: Any = None) -> Any:
    """One request to the service, as a client would send it."""
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {key}"} if key else {})}
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{site}/v1{path}", data, headers, method="POST" if body is not None else "GET")
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read())


def create_rated(ann: Person) -> None:
    """The lobby's form: Bataille corse for two, Ann and an open seat, a few flips, rated."""
    page = ann.page
    page.get_by_role("radio", name=re.compile("Bataille corse")).check()
    page.get_by_role("radio", name=ann.say("lobby.with_friends")).check()
    page.get_by_label(ann.say("lobby.players"), exact=True).fill("2")
    page.get_by_label(ann.say("lobby.seat", number=1), exact=True).select_option(label=ann.say("lobby.seat_you"))
    page.get_by_label(ann.say("lobby.seat", number=2), exact=True).select_option(label=ann.say("lobby.seat_open"))
    page.get_by_text(ann.say("lobby.more_options")).click()
    page.get_by_label(ann.say("games:bataille-corse.options.max_flips.label"), exact=True).fill("6")
    page.get_by_label(ann.say("lobby.rated"), exact=True).check()
    ann.button(ann.say("lobby.create")).click()
    expect(page.locator("#table")).to_be_attached()


def test_a_finished_rated_game_shows_both_ratings_change(person: Callable[..., Person], site: str) -> None:
    ann, bob = person().open(name="Ann"), person().open(name="Bob")
    keys = {0: player_key(ann), 1: player_key(bob)}
    create_rated(ann)
    game_id = ann.game_id
    bob.open(f"#/game/{game_id}", name=None)
    bob.button(bob.say("game.take_seat", number=2)).click()
    expect(bob.page.locator(".role")).to_have_text(bob.say("game.role_seat", number=2))
    expect(bob.page.locator(".rated-mark")).to_have_text(bob.say("rating.rated_game"))
    ann.button(ann.say("game.start")).click()
    for someone in (ann, bob):
        expect(someone.page.locator(".seats .rating")).to_have_count(2)
        expect(someone.page.locator(".seats")).to_contain_text("1500?")

    while (view := api(site, f"/games/{game_id}"))["status"] == "playing":
        api(site, f"/games/{game_id}/actions", keys[view["current_seat"]], {"type": "flip"})
    changes = {entry["seat"]: entry for entry in view["outcome"]["ratings"]}
    assert changes[view["outcome"]["ranking"][0]]["after"] > 1500 > changes[view["outcome"]["ranking"][1]]["after"]

    for someone in (ann, bob):
        ranking = someone.page.locator(".outcome .ranking li")
        expect(ranking).to_have_count(2)
        for place in range(2):
            expect(ranking.nth(place)).to_contain_text(CHANGE)
        expect(someone.page.locator(".outcome")).to_contain_text("(+")
        expect(someone.page.locator(".outcome")).to_contain_text(f"({MINUS}")
        someone.assert_clean()

    ann.page.get_by_role("link", name="Me", exact=True).click()
    expect(ann.page.locator(".me-ratings svg.rating-chart")).to_be_visible()
    ann.page.get_by_text(ann.say("rating.as_table")).click()
    expect(ann.page.locator(".me-ratings table tbody tr")).to_have_count(1)
    ann.page.get_by_role("link", name=ann.say("rating.board_link", game="Bataille corse")).click()
    expect(ann.page.get_by_role("heading", level=2)).to_have_text(ann.say("rating.board_title", game="Bataille corse"))
    expect(ann.page.locator(".board-mine")).to_contain_text("1 ")
    ann.assert_clean()
