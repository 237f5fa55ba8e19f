"""The page's pure parts, run in Chromium as the page runs them (its modules imported by ``page.evaluate``): the
pacing of views, each table's ``todo``, ``describe`` and ``urgent``, Bataille corse's honours noted as the catalog
gives them, a table's teardown (Bataille corse's Space listeners on the document go when the page leaves the table)
and a table's style sheet (added once, loaded when it is ready)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.browser.person import Person
from tests.client.live import server


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with server() as url:
        yield url


#: Views offered to a Pacing of ``pace`` ms as ``steps`` say: ``[version]``, ``[version, "now"]``, ``[version,
#: "rematch"]`` or ``["stop"]``; answers what was drawn, in order, once ``until`` was drawn (or at once: ``null``).
PACED = """async ({steps, until, most}) => {
  const {Pacing} = await import("/web/pacing.js");
  const drawn = [];
  let shown;
  let done;
  const finished = new Promise((resolve) => { done = resolve; });
  const pacing = new Pacing({most, pace: () => 20, shown: () => shown, draw: (view) => {
    shown = view;
    drawn.push(view.rematch ? `${view.version}+rematch` : view.version);
    if (view.version === until) done();
  }});
  const log = [];
  for (const [version, how] of steps) {
    if (version === "stop") pacing.stop();
    else pacing.offer({version, rematch: how === "rematch" ? {game_id: "next"} : undefined}, {now: how === "now"});
    log.push([...drawn]);
  }
  if (until !== null) await finished;
  return {drawn, log, waiting: pacing.waiting};
}"""


def paced(person: Person, steps: list[list[Any]], until: int | None, most: int = 12) -> dict[str, Any]:
    answer: dict[str, Any] = person.page.evaluate(PACED, {"steps": steps, "until": until, "most": most})
    return answer


def test_views_are_drawn_in_order_one_by_one_and_stale_ones_dropped(person: Callable[..., Person]) -> None:
    ann = person().open()
    burst = paced(ann, [[1], [2], [2], [1], [3]], until=3)
    assert burst["log"] == [[1], [1], [1], [1], [1]]  # the first at once, the others wait their turn
    assert burst["drawn"] == [1, 2, 3] and not burst["waiting"]  # a repeat and an older view: dropped
    rematch = paced(ann, [[4], [4, "rematch"], [4, "rematch"]], until=None)
    assert rematch["log"][0] == [4]
    assert rematch["waiting"]  # the view bringing the rematch is kept, its repeat is not


def test_the_seat_s_own_move_is_drawn_at_once_and_a_long_queue_skips_to_the_newest(
    person: Callable[..., Person],
) -> None:
    ann = person().open()
    mine = paced(ann, [[1], [2, "now"]], until=None)
    assert mine["log"] == [[1], [1, 2]]  # nothing waited: no pace for the seat's own move
    waited = paced(ann, [[1], [2], [3, "now"]], until=3)
    assert waited["log"][-1] == [1] and waited["drawn"] == [1, 2, 3]  # others' views waited: it comes after them
    behind = paced(ann, [[1], *([version] for version in range(2, 9))], until=8, most=3)
    assert behind["drawn"] == [1, 8]  # more than `most` waiting: the newest only
    stopped = paced(ann, [[1], [2], ["stop"]], until=None)
    assert stopped["drawn"] == [1] and not stopped["waiting"]
    ann.assert_clean()


#: Each case ``[function, ...arguments]`` of ``module``, the words loaded in the person's language.
CALLED = """async ([module, cases]) => {
  const table = await import(module);
  const names = (seat) => ["You", "Ann", "Bob"][seat];
  return cases.map(([name, ...args]) => name === "describe"
    ? table.describe(args[0], {name: names(args[0].seat), context: args[0].seat === 0 ? "you" : undefined}, names, 0)
    : table[name](...args));
}"""


def call(person: Person, game: str, cases: list[list[Any]]) -> list[Any]:
    module = {"the-game": "the_game", "ninja": "ninja", "bataille-corse": "bataille_corse"}[game]
    said: list[Any] = person.page.evaluate(CALLED, [f"/web/tables/{module}.js", cases])
    return said


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_bataille_corse_todo_describe_and_urgent(person: Callable[..., Person], lang: str) -> None:
    ann = person(locale={"en": "en-GB", "fr": "fr-FR"}[lang]).open()
    seats = [{"seat": seat, "packet": 10, "state": "in", "errors": 0} for seat in range(2)]
    view = {"seat": 0, "seats": seats, "slap_window": None}
    slap = {"type": "slap", "pile_version": 3}
    slapped = {"type": "slap", "seat": 1, "pile_version": 3}
    cases = [
        ["todo", {**view, "legal_actions": [{"type": "flip"}, slap]}],
        ["todo", {**view, "legal_actions": [slap]}],
        ["todo", {**view, "legal_actions": [], "slap_window": {"closes_at": 1, "slaps": [0]}}],
        ["todo", {**view, "legal_actions": [], "seats": [{**seats[0], "state": "excluded"}, seats[1]]}],
        ["todo", {**view, "legal_actions": []}],
        ["describe", {"type": "flip", "seat": 0}],
        ["describe", {**slapped, "result": "false"}],
        ["describe", {**slapped, "result": "valid"}],
        ["describe", {"type": "judge", "seat": 1, "results": [{"seat": 1, "result": "valid"}]}],
    ]
    B = "games:bataille-corse."
    assert call(ann, "bataille-corse", cases) == [
        ann.say(f"{B}todo.flip"),
        ann.say(f"{B}todo.slap"),
        ann.say(f"{B}todo.held"),
        ann.say(f"{B}todo.excluded"),
        None,
        ann.say(f"{B}log.flip", context="you"),
        ann.say(f"{B}log.slap_result", name="Ann", result=ann.say(f"{B}results.false")),
        ann.say(f"{B}log.slap_result", name="Ann", result=ann.say(f"{B}results.valid")),
        ann.say(f"{B}log.judge", results=ann.say(f"{B}log.judged.valid", name="Ann")),
    ]
    held = {**slapped, "result": "pending"}
    judged = {"type": "judge", "seat": 1, "results": [{"seat": 1, "result": "false"}]}
    flip = {"type": "flip", "seat": 0}
    urgent = """async ([entries, fresh]) => { const table = await import("/web/tables/bataille_corse.js");
      return entries.map((index) => table.urgent(fresh[index], fresh)); }"""
    # a slap's result and a judgement are said at once; a held slap only while its judgement has not come with it
    assert ann.page.evaluate(urgent, [[0, 1, 2], [flip, {**slapped, "result": "stale"}, judged]]) == [False, True, True]
    assert ann.page.evaluate(urgent, [[0], [held]]) == [True]
    assert ann.page.evaluate(urgent, [[0], [held, judged]]) == [False]
    ann.assert_clean()


#: The notes on the cards of a Bataille corse pile the table draws with the game's catalog entry, as the page loads it
#: (its ``honours`` replaced when ``honours`` is not null).
NOTED = """async ([pile, honours]) => {
  const table = await import("/web/tables/bataille_corse.js");
  const catalog = (await (await fetch("/v1/games/catalog")).json()).games;
  const entry = catalog.find((game) => game.name === "bataille-corse");
  const game = honours === null ? entry : {...entry, facts: {honours}};
  const root = document.createElement("div");
  const seats = [0, 1].map((seat) => ({seat, packet: 10, state: "in", errors: 0}));
  const view = {status: "over", seats, pile, flips: pile.length, penalty_cards: 0, challenge: null, current_seat: null};
  table.render(root, view, {send: () => {}, name: String, game});
  table.unmount(root);
  return [...root.querySelectorAll(".bc-pile [data-note]")].map((face) => face.dataset.note);
}"""


def test_bataille_corse_notes_each_honour_s_tries_from_the_catalog(person: Callable[..., Person]) -> None:
    ann = person().open()
    notes = ann.page.evaluate(NOTED, [["AS", "10H", "KD", "BJ", "JC"], None])
    tries = [ann.say("games:bataille-corse.cards.note", count=count) for count in (4, 3, 5, 1)]
    assert notes == tries  # 10H has none
    assert ann.page.evaluate(NOTED, [["AS", "KD"], {"A": 2}]) == [ann.say("games:bataille-corse.cards.note", count=2)]
    ann.assert_clean()


def test_ninja_and_the_game_todo_and_describe(person: Callable[..., Person]) -> None:
    ann = person().open()
    ninja = {"seat": 0, "phase": "play"}
    cases = [
        ["todo", {**ninja, "legal_actions": [{"type": "complete"}, {"type": "play"}]}],
        ["todo", {**ninja, "phase": "swap", "legal_actions": [{"type": "swap"}, {"type": "ready"}]}],
        ["todo", {**ninja, "phase": "swap", "legal_actions": [{"type": "swap"}]}],
        ["todo", {**ninja, "legal_actions": [{"type": "pick_up"}, {"type": "play"}]}],
        ["todo", {"phase": "play", "legal_actions": []}],
        ["describe", {"type": "pick_up", "seat": 1}],
        ["describe", {"type": "give", "seat": 1, "target": 0}],
        ["describe", {"type": "give", "seat": 0, "target": 2}],
    ]
    N = "games:ninja."
    assert call(ann, "ninja", cases) == [
        ann.say(f"{N}todo.complete"),
        ann.say(f"{N}todo.swap"),
        ann.say(f"{N}todo.others_ready"),
        ann.say(f"{N}todo.play"),
        None,
        ann.say(f"{N}log.pick_up", name="Ann"),
        ann.say(f"{N}log.give", context="to_you", name="Ann"),
        ann.say(f"{N}log.give", context="you", target="Bob"),
    ]
    turn = {"seat": 0, "current_seat": 0, "required_this_turn": 2}
    cases = [
        ["todo", {**turn, "placed_this_turn": 0}],
        ["todo", {**turn, "placed_this_turn": 2}],
        ["todo", {**turn, "current_seat": 1, "placed_this_turn": 0}],
        ["describe", {"type": "end_turn", "seat": 1}],
        ["describe", {"type": "end_turn", "seat": 0}],
    ]
    T = "games:the-game."
    assert call(ann, "the-game", cases) == [
        ann.say(f"{T}todo.place", count=2),
        ann.say(f"{T}todo.place_or_end"),
        None,
        ann.say(f"{T}log.end_turn", name="Ann"),
        ann.say(f"{T}log.end_turn", context="you", name="You"),
    ]
    ann.assert_clean()


#: Counts the Space listeners on the document: added, and taken away again.
COUNT_KEYS = """() => { window.keyListeners = 0;
  const add = document.addEventListener, remove = document.removeEventListener;
  document.addEventListener = function (type, ...rest) { if (type === "keydown") window.keyListeners += 1;
    return add.call(this, type, ...rest); };
  document.removeEventListener = function (type, ...rest) { if (type === "keydown") window.keyListeners -= 1;
    return remove.call(this, type, ...rest); }; }"""


def test_leaving_a_bataille_corse_table_takes_its_keys_away(person: Callable[..., Person]) -> None:
    ann = person().open()
    ann.page.evaluate(COUNT_KEYS)
    ann.create("Bataille corse", 2, ["You", "Bot: Best"], {"Seed": "2", "Bots' pace (ms)": "600"})
    ann.page.wait_for_selector("#table[data-status='playing']")
    assert ann.page.evaluate("window.keyListeners") == 1  # one Space listener for the table, however many draws
    game = ann.page.url
    ann.page.goto(f"{ann.url}/#/")
    ann.page.wait_for_selector("body[data-ready] .games")
    assert ann.page.evaluate("window.keyListeners") == 0
    ann.page.goto(game)
    ann.page.wait_for_selector("#table[data-status='playing']")
    ann.page.goto(f"{ann.url}/#/")
    ann.page.wait_for_selector("body[data-ready] .games")
    assert ann.page.evaluate("window.keyListeners") == 0  # mounted twice, none left
    ann.assert_clean()


#: game-parts.js's ``todo`` for each view, a table module's own words first (``table``: none for the game's own).
TODO = """async ([cases]) => {
  const {todo} = await import("/web/game-parts.js");
  const tables = {ninja: await import("/web/tables/ninja.js")};
  const name = (seat, context) => (seat === 0 ? (context ? "you" : "You") : ["You", "Ann", "Bob"][seat]);
  return cases.map(([view, table]) => todo(view, tables[table], name));
}"""


def test_what_to_do_now_says_the_table_s_words_else_who_is_waited_for(person: Callable[..., Person]) -> None:
    ann = person().open()
    seats = [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": None}]
    ninja = {"seat": 0, "phase": "play", "status": "playing", "seats": seats, "waiting_for": [0]}
    cases = [
        [{"status": "lobby", "seats": seats, "waiting_for": []}, None],
        [{"status": "lobby", "seats": [seats[0], {**seats[1], "name": "Bob"}], "waiting_for": []}, None],
        [{"status": "finished", "seats": seats, "waiting_for": []}, None],
        [{**ninja, "legal_actions": [{"type": "pick_up"}]}, "ninja"],
        [{**ninja, "legal_actions": [], "waiting_for": [1, 2]}, "ninja"],
        [{**ninja, "legal_actions": [], "waiting_for": [0, 1]}, None],
        [{**ninja, "legal_actions": [], "waiting_for": []}, None],
    ]
    assert ann.page.evaluate(TODO, [cases]) == [
        ann.say("game.todo.free_seats"),
        ann.say("game.todo.host_starts"),
        ann.say("game.todo.over"),
        ann.say("games:ninja.todo.pick_up"),
        ann.say("game.todo.waiting", names="Ann and Bob"),
        ann.say("game.todo.waiting", names="you and Ann"),
        ann.say("game.todo.next"),
    ]
    ann.assert_clean()


#: Game ``game``'s table made ready twice at once: its style sheet's links in the document, and the rules it holds.
READY = """async (game) => {
  const {TABLES, tableReady} = await import("/web/tables/index.js");
  await Promise.all([tableReady(game), tableReady(game)]);
  const links = [...document.querySelectorAll("link[rel=stylesheet]")]
    .filter((each) => each.getAttribute("href") === TABLES[game].stylesheet);
  return {links: links.length, rules: links[0]?.sheet?.cssRules.length || 0};
}"""


@pytest.mark.parametrize("game", ["the-game", "ninja", "bataille-corse"])
def test_a_tables_style_sheet_is_added_once_and_applies_once_ready(person: Callable[..., Person], game: str) -> None:
    ann = person().open()
    ready = ann.page.evaluate(READY, game)
    assert ready["links"] == 1 and ready["rules"] >= 5  # served, allowed by the page's policy, and loaded
    ann.assert_clean()
