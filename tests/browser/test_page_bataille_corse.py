"""Bataille corse played on the page in a real browser: a person flips and slaps, with the keyboard first (Enter on
Flip, Space to slap), then with the buttons, against a paced bot until a limit of a few flips ends the game; every
slap's result is heard in the assertive live region."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import expect

from tests.browser.person import MOST_MOVES, Person
from tests.browser.sites import production

#: Seed 2 deals 4♣, 8♥ and 3♥ first: no combination and no honour before the screenshot, nor at the slap.
SHORT = {"Most flips": "14", "Seed": "2", "Bots' pace (ms)": "600"}
FLIP = Person.FLIP
#: What the assertive region said, in order (a screen reader's ear: each text it was given).
HEAR = """() => { window.heard = []; new MutationObserver(() => {
  const text = document.getElementById('assertive').textContent; if (text) window.heard.push(text);
}).observe(document.getElementById('assertive'), {childList: true, characterData: true, subtree: true}); }"""


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with production() as url:
        yield url


def test_a_person_plays_a_whole_game_of_bataille_corse_against_a_bot(person: Callable[..., Person]) -> None:
    ann = person().open()
    ann.create("Bataille corse", 2, ["You", "Bot: Best"], SHORT)
    page = ann.page
    page.evaluate(HEAR)
    slap = page.get_by_role("button", name=re.compile("^Slap"))

    # The bot's seat flips first (4♣), at its pace; then the person's first flip with the keyboard: Flip, Enter.
    expect(page.locator(FLIP)).to_be_visible()
    expect(page.locator("#todo")).to_contain_text("Your turn: flip")
    expect(page.get_by_role("img", name="4 of clubs")).to_be_visible()
    expect(slap).to_be_enabled()
    before = ann.version()
    page.locator(FLIP).focus()
    page.keyboard.press("Enter")
    ann.wait_past(before)
    expect(page.get_by_role("img", name="8 of hearts")).to_be_visible()

    # The bot flips 3♥; then the picture, and a slap by Space, held down: one slap, a false one (4, 8, 3: nothing).
    expect(page.locator(FLIP)).to_be_visible()
    expect(page.get_by_role("img", name="3 of hearts")).to_be_visible()
    ann.screenshot("bataille-corse")
    page.evaluate("document.activeElement.blur()")  # Space slaps with the focus on nothing (on Flip, it flips)
    before = ann.version()
    page.keyboard.down(" ")
    for _ in range(3):
        page.keyboard.down(" ")  # the key's auto-repeat: ignored
    page.keyboard.up(" ")
    ann.wait_past(before)
    expect(page.locator(".moves li").first).to_have_text("You slapped: false, a penalty")
    page.wait_for_function("() => window.heard.some((text) => text.includes('You slapped: false'))")
    assert page.locator(".moves li", has_text="You slapped").count() == 1
    assert page.locator(".moves li", has_text="You flipped").count() == 1
    expect(page.locator(".bc-seat.mine .backs")).to_have_text("22 cards")  # 26 dealt, one flipped, three paid

    for _ in range(MOST_MOVES):
        if not ann.wait_turn_or_end(FLIP):
            break
        ann.flip()
    expect(page.locator(".outcome h3")).to_contain_text("won")
    expect(page.locator(".outcome")).to_contain_text(re.compile("flip", re.I))
    expect(page.get_by_role("list", name="Ranking").get_by_role("listitem")).to_have_count(2)
    assert page.locator(".moves li", has_text="Bot Best flipped").count() >= 1
    ann.assert_clean()


def test_a_slap_in_a_collection_window_is_held_then_judged(person: Callable[..., Person]) -> None:
    """With a window, the page says the slap is held, then announces the judgement the clock made by itself."""
    ann = person().open()
    ann.create("Bataille corse", 2, ["You", "Bot: Best"], {**SHORT, "Time to gather slaps (ms)": "100"})
    page = ann.page
    page.evaluate(HEAR)
    expect(page.get_by_role("img", name="4 of clubs")).to_be_visible()  # the bot flipped: a card alone, no combination
    before = ann.version()
    page.keyboard.press(" ")
    ann.wait_past(before)
    page.wait_for_function("() => window.heard.some((text) => text.includes('Slaps judged'))")
    expect(page.locator(".moves li", has_text="You slapped: held until the slaps are judged")).to_have_count(1)
    expect(
        page.locator(".moves li", has_text="Slaps judged, first received first: you slapped wrongly and pay a penalty")
    ).to_have_count(1)
    ann.assert_clean()
    # Read together (a log read that came late), a held slap is not said when its judgement came after it, and is
    # when the judgement read with it closed an earlier window.
    said = page.evaluate("""async () => {
      const table = await import("/web/tables/bataille_corse.js");
      const held = () => ({type: "slap", seat: 0, result: "pending"});
      const judged = {type: "judge", results: [{seat: 0, result: "false"}]};
      return [[held(), judged], [judged, held()], [held()]].map((fresh) => fresh.map((e) => table.urgent(e, fresh)));
    }""")
    assert said == [[False, True], [True, True], [True]]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_flip_and_slap_keep_the_page_s_colours(person: Callable[..., Person], scheme: str) -> None:
    """Flip is the primary move and Slap the urgent one, as everywhere on the page, readable in both colour schemes
    (axe checks their contrast)."""
    ann = person(color_scheme=scheme).open()
    ann.create("Bataille corse", 2, ["You", "Bot: Best"], SHORT)
    flip, slap = ann.page.locator(FLIP), ann.page.get_by_role("button", name=re.compile("^Slap"))
    expect(flip).to_be_visible()
    expect(slap).to_be_enabled()
    assert ann.colours(flip) == ann.page_colours("primary")
    assert ann.colours(slap) == ann.page_colours("urgent")
    ann.assert_clean()
