"""Two people play The Game against each other on the page, each in a browser context of their own, over the
production setup (gunicorn's workers over Redis, when the tests have one: each person's requests and event stream
may go to any worker); a third follows as a spectator; one reloads the page and resumes the seat; one plays a turn
with the keyboard alone."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import expect

from tests.browser.person import Person
from tests.browser.sites import production
from tests.browser.test_page_the_game import focused, tab_to


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with production() as url:
        yield url


def test_two_people_play_each_other_watched_live(person: Callable[..., Person]) -> None:
    ann = person().open(name="Ann")
    ann.create("The Game", 2, ["You", "A person (open seat)"], {"Cards in hand": "2", "Seed": "1"}, public=True)
    game = ann.game_id

    bob = person().open(name="Bob")
    expect(bob.page.get_by_role("heading", name="Open games")).to_be_visible()
    bob.assert_clean()  # the lobby, as the page opens
    listed = bob.page.get_by_role("listitem").filter(has_text="The Game: 2 players, 1 free")
    listed.get_by_role("button", name="Join").click()
    expect(bob.page.locator(".role")).to_have_text("You play seat 2")

    watcher = person().open(f"#/game/{game}", name=None)
    expect(watcher.page.locator(".role")).to_have_text("Watching")
    expect(watcher.page.locator(".seats")).to_contain_text("Bob")

    ann.button("Start").click()
    players = {ann.page: ann, bob.page: bob}
    first = next(person for person in players.values() if person.wait_turn_or_end(Person.THE_GAME_TURN))
    second = bob if first is ann else ann

    # The first turn with the keyboard alone: Tab to a card, Enter; the focus moves to a pile that takes it; Enter;
    # the focus comes back to the hand (or to "End turn" once the hand is empty); at last Tab to "End turn", Enter.
    page = first.page
    page.locator("#name").focus()
    tab_to(page, "#table .hand button.card:not(:disabled)")
    while not first.button("End turn").is_enabled():
        before = first.version()
        page.keyboard.press("Enter")  # the focused card is chosen
        assert focused(page, "#table button.pile:not(:disabled)")
        page.keyboard.press("Enter")  # placed on that pile
        first.wait_past(before)
        assert focused(page, "#table .hand button.card:not(:disabled), #table [data-key='end-turn']:not(:disabled)")
    tab_to(page, "#table [data-key='end-turn']")
    before = first.version()
    page.keyboard.press("Enter")
    first.wait_past(before)
    expect(watcher.page.locator("#table")).to_have_attribute("data-version", str(first.version()))  # live

    # The second player reloads: the seat and its hand come back from the token kept in the browser.
    second.page.reload()
    expect(second.page.locator(".role")).to_contain_text("You play seat")
    assert second.wait_turn_or_end(Person.THE_GAME_TURN)
    second.the_game_turn()

    for _ in range(50):  # on to the end, each in turn
        mover = [person for person in (first, second) if person.page.locator(Person.THE_GAME_TURN).count()]
        if first.over():
            break
        if mover:
            mover[0].the_game_turn()
        else:
            first.page.wait_for_timeout(100)
    for person in (first, second, watcher):
        expect(person.page.locator(".outcome h3")).to_have_text("Game lost")
    assert watcher.version() == first.version() == second.version()
    for person in (ann, bob, watcher):
        person.assert_clean()
