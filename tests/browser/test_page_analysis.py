"""A finished game's analysis in its replay, in a real browser against the real server (gunicorn and Redis when the
tests have a Redis): The Game against a random bot, its first turn a blunder, then the replay's "Analysis" asked for,
followed while the server works it out, and read: a value beside each move, a point per move on the chart, the
costliest moves flagged, and a point that moves the replay. Two rollouts per choice keep the analysis cheap."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from unittest import mock

import pytest
from playwright.sync_api import expect

from tests.browser.person import DESKTOP, SCREENSHOTS, Person
from tests.browser.sites import production

SHORT = {"Cards in hand": "4", "Seed": "12"}
#: What the page loads only when the analysis is asked for.
LAZY = {"analysis.js", "value-chart.js", "hints.js", "analysis.css"}
ANALYSIS_MS = 120_000  # two rollouts per choice: seconds here, more on a busy CI machine


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with mock.patch.dict(os.environ, {"TG_ANALYSIS_ROLLOUTS": "2"}), production() as url:
        yield url


def blunder(ann: Person) -> None:
    """The first turn: the hand's highest card on the first up pile, then whatever the hand still allows."""
    assert ann.wait_turn_or_end(Person.THE_GAME_TURN)
    before = ann.version()
    ann.page.locator("#table .hand button.card:not(:disabled)").last.click()
    ann.page.locator("#table [data-key='pile-asc1']").click()
    ann.wait_past(before)
    ann.the_game_turn()


def test_the_replay_shows_each_move_against_best_s_and_flags_the_costliest(person: Callable[..., Person]) -> None:
    ann = person(viewport=DESKTOP).open()
    ann.create("The Game", 2, ["You", "Bot: Random"], SHORT)
    blunder(ann)
    ann.play_the_game_to_its_end()
    ann.page.get_by_role("link", name="Open the replay").click()
    page = ann.page
    expect(page.locator(".replay .todo")).to_have_text("The deal.")
    assert not LAZY & loaded(ann), "the replay alone loads no analysis code"

    panel = page.get_by_role("region", name="Analysis")
    panel.get_by_role("button", name="Analyse the moves").click()
    expect(page.locator("#polite")).to_contain_text("Analysis asked for")
    expect(panel.locator(".analysis-status")).to_contain_text("Asking again in")  # a 202: polled again later
    expect(panel.locator(".analysis-status")).to_contain_text("You may leave this page")
    # Leaving and coming back: the replay picks the analysis up again by itself.
    replay = page.url.rsplit("/", 1)[0]
    page.goto(f"{ann.url}/#/")
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    page.goto(replay)
    chart = panel.get_by_role("group", name=re.compile("for each move, against best's"))
    expect(chart).to_be_visible(timeout=ANALYSIS_MS)
    expect(page.locator("#polite")).to_contain_text("Analysis ready: ")
    assert loaded(ann) >= LAZY

    points = chart.get_by_role("button")
    moves = page.locator(".replay-moves .move-note")
    decisions = points.count()
    assert decisions >= 3
    expect(moves).to_have_count(decisions)  # beside each move: best's choice and the value against it
    page.get_by_text("Every move", exact=True).click()
    for note in moves.all_inner_texts():
        assert re.search(r"Value: \d+\.\d cards left", note), note
    panel.get_by_text("Every move's value (the chart as a table)").click()
    rows = panel.get_by_role("table", name="Every move's value").locator("tbody tr")
    expect(rows).to_have_count(decisions)

    # the costliest moves: flagged on the chart, in the table and in the move list, the first one once
    flagged = chart.locator(".chart-point.flagged")
    assert 1 <= flagged.count() <= 3
    expect(rows.filter(has_text="Costliest #1")).to_have_count(1)
    expect(page.locator(".replay-moves li.costly").filter(has_text="Costliest #1")).to_have_count(1)

    # a flagged point jumps the replay to where the move was decided, best's choice marked on the table
    first = points.filter(has=page.locator(".chart-ring")).first
    label = first.get_attribute("aria-label") or ""
    start = decided_at(label)
    first.locator(".chart-hit").click()
    caption = page.locator(".replay .todo")
    expect(caption).to_have_text("The deal." if start == 0 else re.compile(rf"^Move {start} of"))
    assert page.url.endswith(f"/{start}")
    now = panel.get_by_role("group", name="This move against best's")
    expect(now).to_contain_text("Costliest #")
    expect(now).to_contain_text("Best: ")
    expect(page.locator("#table .best-hint").first).to_be_visible()
    ann.assert_clean()

    # the keyboard: the chart is one tab stop; the arrows move between its points, Enter jumps there
    first.focus()
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    expect(caption).to_contain_text("Move ")
    second = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert second == points.nth(1).get_attribute("aria-label")
    assert page.url.endswith(f"/{decided_at(second)}")

    first.locator(".chart-hit").click()
    page.evaluate("document.querySelector('.game-id').style.visibility = 'hidden'")  # new every run
    page.locator(".replay").screenshot(path=SCREENSHOTS / "analysis-1280.png", animations="disabled")
    ann.assert_clean()


def decided_at(label: str) -> int:
    """The replay's step where a chart point's decision was made: before its first move ("Moves 4 to 6, Ann: ...")."""
    found = re.match(r"Moves? (\d+)", label)
    assert found, label
    return int(found.group(1)) - 1


def loaded(person: Person) -> set[str]:
    """The names of the files the page has loaded so far."""
    urls = person.page.evaluate("performance.getEntriesByType('resource').map((each) => each.name)")
    return {url.rsplit("/", 1)[1] for url in urls}


PENDING = """async (bodies) => {
  const {pendingWords} = await import("/web/analysis.js");
  return bodies.map(pendingWords);
}"""


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_a_pending_analysis_says_only_what_the_server_said(person: Callable[..., Person], locale: str) -> None:
    """The place in line, the moves valued and the server's estimate of the time left, when the ``202`` gives them;
    never a promise of the page's own."""
    ann = person(locale=locale).open()
    bodies = [
        {"status": "pending", "done": None, "total": None},
        {"status": "pending", "done": 3, "total": 41, "queue_position": 0, "eta_s": 95},
        {"status": "pending", "done": None, "total": None, "queue_position": 2, "eta_s": 1500},
    ]
    said = ann.page.evaluate(PENDING, bodies)
    if locale == "en-GB":
        assert said == [
            "Waiting for the server to start on it.",
            "The server is valuing the moves: 3 of 41 done. About 95 seconds left, by the server's estimate.",
            "2 analyses are ahead of this one. It starts when their turn is over. About 25 minutes left, by the"
            " server's estimate.",
        ]
    else:
        assert said[2] == (
            "2 analyses passent avant celle-ci. Elle commencera après elles. Encore 25 minutes environ, selon"
            " l'estimation du serveur."
        )
    assert not any("minute" in text for text in said[:2])
    ann.assert_clean()
