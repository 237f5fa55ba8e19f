"""Play now on the page: two people, each in a browser context of their own (one in French), press "Play now" on
Ninja's tile and meet at one table (the first reloads while waiting); a third presses it, sees the wait counted, and
cancels."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Iterator
from unittest import mock

import pytest
from playwright.sync_api import expect

from tests.browser.person import Person
from tests.browser.sites import production


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    """The production setup with a Play now pool of this module's own (a shared Redis holds other runs' lobbies)."""
    own_pool = {"TG_PAIRING_PREFIX": f"tg:{{pairing-{secrets.token_hex(6)}}}"}
    with mock.patch.dict(os.environ, own_pool), production() as url:
        yield url


def press_play_now(person: Person, game: str) -> None:
    tile = person.page.locator(".tile").filter(has=person.page.locator(f"#game-{game}"))
    play = tile.get_by_role("button", name=person.say("lobby.play_now"), exact=True)
    expect(play).to_be_visible()
    assert tile.get_by_role("button").first.inner_text() == person.say("lobby.play_now")  # the tile's first button
    play.click()


def test_two_people_press_play_now_and_meet_at_one_table(person: Callable[..., Person]) -> None:
    ann = person().open(name="Ann")
    press_play_now(ann, "ninja")
    waiting = ann.page.locator(".play-now-box [role=status]")
    expect(waiting).to_contain_text("Looking for players…")
    expect(waiting).to_contain_text("(1 s)")  # the wait counted, second by second
    ann.page.screenshot(path="/tmp/play-now-waiting-en.png")
    ann.page.reload()  # the tab takes its wait up again: the same seat, the seconds counted on
    expect(ann.page.locator(".play-now-box [role=status]")).to_contain_text("Looking for players…")

    bob = person(locale="fr-FR").open(name="Bob")
    press_play_now(bob, "ninja")
    for someone in (ann, bob):
        expect(someone.page.locator("#table")).to_be_attached()
    assert ann.game_id == bob.game_id
    expect(ann.page.locator(".role")).to_contain_text("You play seat")
    expect(bob.page.locator(".seats")).to_contain_text("Ann")
    expect(ann.page.locator(".seats")).to_contain_text("Bob")
    bob.page.screenshot(path="/tmp/play-now-table-fr.png")
    assert not ann.errors and not bob.errors


def test_waiting_can_be_cancelled(person: Callable[..., Person]) -> None:
    cid = person(locale="fr-FR", viewport={"width": 390, "height": 844}).open(name="Cid")
    press_play_now(cid, "bataille-corse")
    expect(cid.page.locator(".play-now-box [role=status]")).to_contain_text("Recherche de joueurs…")
    cid.page.screenshot(path="/tmp/play-now-waiting-fr-phone.png", full_page=True)
    cid.button(cid.say("lobby.play_now_cancel")).click()
    tile = cid.page.locator(".tile").filter(has=cid.page.locator("#game-bataille-corse"))
    expect(tile.get_by_role("button", name=cid.say("lobby.play_now"), exact=True)).to_be_visible()
    left = cid.page.evaluate(
        "async () => (await fetch('/v1/pairing', {method: 'DELETE', headers: {Authorization: "
        "`Bearer ${JSON.parse(localStorage.getItem('tg.player')).key}`}})).status"
    )
    assert left == 204  # nothing left to stop: the seat was given back
    assert not cid.errors
