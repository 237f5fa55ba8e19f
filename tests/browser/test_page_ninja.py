"""Ninja played on the page in a real browser, over gunicorn and Redis when the tests have a Redis (CI has): a person
swaps, says ready and plays every move the page offers first until the game ends, against a bot at full speed; a
turn limit of a few turns keeps the game short."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import expect

from tests.browser.person import MOST_MOVES, Person
from tests.browser.sites import production


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with production() as url:
        yield url


def test_a_person_plays_a_whole_game_of_ninja_against_a_bot(person: Callable[..., Person]) -> None:
    ann = person().open()
    options = {"Most turns": "12", "Seconds per move": "600", "Seed": "3", "Bots' pace (ms)": "0"}
    ann.create("Ninja", 2, ["You", "Bot: Greedy"], options)
    page = ann.page
    expect(page.locator(".seat.me .clock")).to_have_text(re.compile(r"^(10:00|9:5\d)$"))  # the seat's deadline
    expect(page.locator("#todo")).to_contain_text("Swap")
    expect(page.locator("#table .centre")).to_contain_text("Swapping cards")

    # The swap phase: a hand card, then the face-up card it goes to.
    hand = page.get_by_role("group", name="Your hand").get_by_role("button")
    swapped = hand.first.get_attribute("aria-label")
    before = ann.version()
    hand.first.click()
    table = page.get_by_role("region", name="Your cards on the table")
    table.get_by_role("button").first.click()
    ann.wait_past(before)
    expect(page.locator(".moves")).to_contain_text("You swapped")
    value = re.match(r"\w+", swapped or "")
    assert value and table.get_by_role("img", name=value.group(0)).count() >= 1  # now face up

    ann.button("Ready").click()
    pictured = False
    for _ in range(MOST_MOVES):
        if not ann.wait_turn_or_end(Person.NINJA_MOVE):
            break
        if not pictured and page.locator(".nj-pile .card").count() >= 2:
            ann.screenshot("ninja")
            pictured = True
        ann.ninja_move()
    assert pictured
    expect(page.locator(".outcome h3")).to_contain_text("won")
    expect(page.get_by_role("list", name="Ranking").get_by_role("listitem")).to_have_count(2)
    assert page.locator(".moves li", has_text="Bot Greedy played").count() >= 1
    ann.assert_clean()
