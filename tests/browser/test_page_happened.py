"""What just happened, on the table itself: two people play Bataille corse, each on a device of their own; a false
slap and a sandwich slapped show on both screens over the table, drawn with the very view that changed the table
(the same draw: never after it); the Slap target keeps its place when Flip appears; Space on a focused Flip flips,
never slaps. Ninja's and The Game's sentences, from two views each."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.person import Person
from tests.browser.sites import production

#: Seed 5 deals 3♣, 5♦, 3♥ first: no combination, then a sandwich on the third flip.
SEED = {"Seed": "5"}
FLIP = Person.FLIP
#: Each table drawn: its version and what the banner over it said then, with the version it explains.
WATCH = """() => { window.drawn = []; const table = document.getElementById('table');
  new MutationObserver(() => { const said = document.querySelector('.happened');
    window.drawn.push([table.dataset.version, said.hidden ? null : said.dataset.version, said.textContent]);
  }).observe(table, {attributes: true, attributeFilter: ['data-version']}); }"""

#: The answers to the log and to actions come 400 ms late, as on a slow network: a log read sent before a slap comes
#: back after the slap's view is drawn, without the slap, and the sentence over the table still waits for the moves
#: that made it; a flip's answer comes after the stream showed the flip, and a slap sent meanwhile still goes.
SLOW_ANSWERS = r"""() => { const send = window.fetch; window.fetch = async (url, init) => {
  const answer = await send(url, init);
  if (/\/(log|actions)$/.test(String(url))) await new Promise((resolve) => setTimeout(resolve, 400));
  return answer; }; }"""


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with production() as url:
        yield url


def shown_with_its_table(person: Person, text: str) -> None:
    """``text`` is over the table, and was drawn with the table's version it explains."""
    expect(person.page.locator(".happened")).to_have_text(text)
    drawn = person.page.evaluate("window.drawn")
    assert any(version == explained and said == text for version, explained, said in drawn), drawn


def flip(person: Person) -> None:
    before = person.version()
    person.page.locator(FLIP).click()
    person.wait_past(before)


def test_a_slap_s_result_shows_over_the_table_on_both_screens(person: Callable[..., Person]) -> None:
    ann = person().open(name="Ann")
    ann.create("Bataille corse", 2, ["You", "A person (open seat)"], SEED)
    bob = person().open(f"#/game/{ann.game_id}", name="Bob")
    bob.button("Take seat 2").click()
    expect(bob.page.locator(".role")).to_have_text("You play seat 2")
    ann.button("Start").click()
    for each in (ann, bob):
        expect(each.page.locator("#table")).to_have_attribute("data-status", "playing")
        each.page.evaluate(WATCH)
    first = ann if ann.page.locator(FLIP).count() else bob
    second = bob if first is ann else ann

    # The Slap target keeps its place and size whether or not Flip is offered.
    slap = second.page.get_by_role("button", name=re.compile("^Slap"))
    waiting = slap.bounding_box()
    flip(first)  # 3♣
    expect(second.page.locator(FLIP)).to_be_visible()
    assert slap.bounding_box() == waiting

    # A false slap on 3♣ (by the one not to flip, the focus on nothing): both see who paid and where the cards went.
    second.page.evaluate("document.activeElement.blur()")
    before = second.version()
    second.page.keyboard.press(" ")
    second.wait_past(before)
    shown_with_its_table(second, "False slap: you put 3 cards under the pile")
    name = "Ann" if second is ann else "Bob"
    shown_with_its_table(first, f"{name}: false slap, 3 cards under the pile")

    # Space on a focused Flip flips (5♦): it never slaps.
    second.page.locator(FLIP).focus()
    before = second.version()
    second.page.keyboard.press(" ")
    second.wait_past(before)
    expect(second.page.locator(".moves li").first).to_have_text("You flipped")
    assert second.page.locator(".moves li", has_text="slapped").count() == 1  # the false one alone

    first.page.evaluate(SLOW_ANSWERS)
    flip(first)  # 3♥ on 5♦ on 3♣: a sandwich, slapped by the first
    expect(first.page.get_by_role("img", name="3 of hearts")).to_be_visible()
    first.page.evaluate("document.activeElement.blur()")
    before = first.version()
    first.page.keyboard.press(" ")
    first.wait_past(before)
    expect(first.page.locator(".moves li", has_text="You slapped: valid")).to_have_count(1)
    shown_with_its_table(first, "You take the pile: sandwich")
    expect(first.page.locator("#assertive")).to_contain_text("You take the pile: sandwich. You slapped: valid")
    name = "Ann" if first is ann else "Bob"
    shown_with_its_table(second, f"{name} takes the pile: sandwich")
    second.screenshot("bataille-corse-happened")
    for each in (ann, bob):
        each.assert_clean()


SENTENCES = """async ([module, cases]) => {
  const table = await import(module);
  const name = (seat) => ["You", "Ann", "Bob"][seat];
  return cases.map(([before, view]) => table.happened(before, view, name));
}"""


def ninja_view(**changes: Any) -> dict[str, Any]:
    seats = [{"seat": seat, "hand_size": 3, "face_up": [], "face_down": 3} for seat in range(3)]
    return {
        "seat": 0,
        "status": "playing",
        "seats": seats,
        "current_seat": 0,
        "pile": [4],
        "burned": 0,
        "give": None,
        **changes,
    }


def test_ninja_and_the_game_say_what_changed(person: Callable[..., Person]) -> None:
    ann = person().open()
    picked = ninja_view(
        seats=[{"seat": 0, "hand_size": 3}, {"seat": 1, "hand_size": 5}, {"seat": 2, "hand_size": 3}],
        pile=[],
        current_seat=2,
    )
    cases = [
        [ninja_view(pile=[4, 5, 9]), ninja_view(pile=[], burned=3)],
        [ninja_view(pile=[4, 5]), picked],
        [ninja_view(pile=[13]), ninja_view(pile=[13], give={"giver": 1, "target": 0})],
        [ninja_view(pile=[4]), ninja_view(pile=[4, 8], current_seat=2)],
        [ninja_view(pile=[4]), ninja_view(pile=[4, 8, 8], current_seat=0)],
        [ninja_view(pile=[4]), ninja_view(pile=[4, 5], current_seat=1)],
    ]
    said = ann.page.evaluate(SENTENCES, ["/web/tables/ninja.js", cases])
    assert said == [
        "The pile is burned: 3 cards out of the game",
        "Ann picks up the pile (2 cards)",
        "Ann gives you the pile: counter with a 13 or a 1, or take it",
        "Ann skips a turn",
        "Ann and Bob skip their turns",
        None,
    ]
    turn = {"seat": 0, "status": "playing", "current_seat": 1, "draw_pile": 40}
    cases = [
        [turn, {**turn, "current_seat": 2, "draw_pile": 38}],
        [{**turn, "current_seat": 0}, {**turn, "draw_pile": 40}],
        [turn, {**turn, "draw_pile": 40}],
    ]
    said = ann.page.evaluate(SENTENCES, ["/web/tables/the_game.js", cases])
    assert said == ["Ann ended the turn and drew 2 cards", "You ended your turn", None]
    ann.assert_clean()


DESCRIBED = """async ([module, entries]) => {
  const table = await import(module);
  const name = (seat) => ["You", "Ann", "Bob"][seat];
  return entries.map((entry) => table.describe(entry, {name: name(entry.seat)}, name, 0));
}"""


def bataille_view(**changes: Any) -> dict[str, Any]:
    seats = [{"seat": seat, "packet": 10, "state": "in", "errors": 0} for seat in range(3)]
    return {"seat": 0, "status": "playing", "seats": seats, "pile": ["5H", "5D"], "flips": 2, "challenge": None,
            "slap_window": None, "last_slap": None, **changes}  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_sentences_said_to_you_and_the_server_s_combinations(person: Callable[..., Person], lang: str) -> None:
    ann = person(locale={"en": "en-GB", "fr": "fr-FR"}[lang]).open()
    you = {"en": "You", "fr": "Vous"}[lang]
    skipped = [
        [ninja_view(current_seat=2), ninja_view(pile=[4, 8], current_seat=1)],
        [ninja_view(current_seat=2), ninja_view(pile=[4, 8, 8], current_seat=2)],
    ]
    said = ann.page.evaluate(SENTENCES, ["/web/tables/ninja.js", skipped])
    both = {"en": "You and Ann", "fr": "You et Ann"}[lang]  # SENTENCES names seat 0 "You" in either language
    assert said == [ann.say("games:ninja.happened.skipped", count=1, context="you", names="You"),
                    ann.say("games:ninja.happened.skipped", count=2, context="you", names=both)]  # fmt: skip
    assert said[1] == {"en": "You and Ann skip your turns", "fr": "You et Ann passez vos tours"}[lang]

    won = {"seat": 1, "result": "valid", "combinations": ["double", "sum10"]}
    seats = bataille_view()["seats"]
    emptied = {"pile": [], "seats": [{**seat, "packet": 10 + 2 * (seat["seat"] == 1)} for seat in seats]}
    cases = [
        [bataille_view(), bataille_view(last_slap=won, **emptied)],
        [
            bataille_view(),
            bataille_view(
                last_slap={**won, "seat": 0},
                pile=[],
                seats=[{**seat, "packet": 10 + 2 * (seat["seat"] == 0)} for seat in seats],
            ),
        ],
        [bataille_view(), bataille_view(**emptied)],  # no slap judged (a replay's older frame): who, not why
    ]
    said = ann.page.evaluate(SENTENCES, ["/web/tables/bataille_corse.js", cases])
    how = ann.page.evaluate(
        "async (keys) => { const i18n = await import('/web/i18n.js'); return i18n.list(keys.map((k) => i18n.t(k))); }",
        ["games:bataille-corse.combinations.double", "games:bataille-corse.combinations.sum10"],
    )
    assert said == [
        ann.say("games:bataille-corse.happened.slap_won", name="Ann", how=how),
        ann.say("games:bataille-corse.happened.slap_won", context="you", how=how),
        ann.say("games:bataille-corse.happened.takes_pile", name="Ann"),
    ]

    judge = {"type": "judge", "seat": 1, "results": [{"seat": 1, "result": "valid"}, {"seat": 0, "result": "stale"},
                                                      {"seat": 2, "result": "false"}]}  # fmt: skip
    [said] = ann.page.evaluate(DESCRIBED, ["/web/tables/bataille_corse.js", [judge]])
    parts = [ann.say("games:bataille-corse.log.judged.valid", name="Ann"),
             ann.say("games:bataille-corse.log.judged.stale", context="you"),
             ann.say("games:bataille-corse.log.judged.false", name="Bob")]  # fmt: skip
    assert said == ann.say("games:bataille-corse.log.judge", results="; ".join(parts))
    assert you not in said and "You" not in said  # said to the seat in the sentence's own words, never spliced
    ann.assert_clean()
