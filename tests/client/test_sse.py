"""The event stream parser: fields, multi-line data, comments, ids, retry, and any chunking of the bytes."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from thegame_core.client.sse import Event, EventParser


def parse(*chunks: bytes) -> list[Event]:
    parser = EventParser()
    return [event for chunk in chunks for event in parser.feed(chunk)]


def test_fields_comments_and_multi_line_data() -> None:
    stream = b': keep-alive\n\nid: 7\nevent: view\ndata: {"a":\ndata:  1}\n\n: ping\ndata:x\n\n'
    assert parse(stream) == [Event('{"a":\n 1}', "view", "7"), Event("x", "message", "7")]


def test_an_event_without_data_is_not_dispatched_yet_its_id_counts() -> None:
    parser = EventParser()
    assert parser.feed(b"id: 3\nevent: view\n\ndata: y\n\n") == [Event("y", "message", "3")]
    assert parser.last_event_id == "3"


def test_retry_takes_digits_only_and_unknown_fields_are_ignored() -> None:
    parser = EventParser()
    assert parser.feed(b"retry: 2500\nfoo: bar\nretry: 1s\ndata\n\n") == [Event("")]
    assert parser.retry == 2500


def test_line_endings_split_between_chunks_and_a_character_split_in_two() -> None:
    snowman = "data: \u2603\r\n\r\n".encode()
    assert parse(snowman[:7], snowman[7:9], snowman[9:], b"") == [Event("\u2603")]
    assert parse(b"data: a\r", b"\ndata: b\r", b"\r") == [Event("a\nb")]
    assert parse(b"\xef\xbb\xbfdata: bom\n\n") == [Event("bom")]


def test_an_id_with_nul_is_ignored_and_the_last_unfinished_event_is_not_dispatched() -> None:
    assert parse(b"id: 1\ndata: a\n\nid: 2\x00\ndata: b\n\ndata: c\n") == [Event("a", id="1"), Event("b", id="1")]


@dataclass(frozen=True)
class Sent:
    """One event as a server writes it: comments before it, optional event name, id and retry."""

    data: str
    event: str | None
    id: str | None
    retry: int | None
    comments: tuple[str, ...]


LINE = st.text(st.characters(blacklist_characters="\r\n\x00", blacklist_categories=("Cs",)), max_size=12)
NAME = st.text(st.characters(blacklist_characters="\r\n\x00", blacklist_categories=("Cs",)), min_size=1, max_size=8)
SENT = st.builds(
    Sent,
    data=st.lists(LINE, min_size=1, max_size=3).map("\n".join),
    event=st.none() | NAME,
    id=st.none() | LINE,
    retry=st.none() | st.integers(0, 10**6),
    comments=st.lists(LINE, max_size=2).map(tuple),
)


def serialised(events: list[Sent], endings: list[str]) -> bytes:
    lines: list[str] = []
    for sent in events:
        lines += [f":{comment}" for comment in sent.comments]
        lines += [] if sent.retry is None else [f"retry: {sent.retry}"]
        lines += [] if sent.event is None else [f"event: {sent.event}"]
        lines += [] if sent.id is None else [f"id: {sent.id}"]
        lines += [f"data: {line}" for line in sent.data.split("\n")] + [""]
    ended, previous = [], ""
    for index, line in enumerate(lines):
        ending = endings[index % len(endings)]
        ending = "\r\n" if previous == "\r" and ending == "\n" else ending  # CR then LF would be one ending
        ended.append(line + ending)
        previous = ending
    return "".join(ended).encode()


def expected(events: list[Sent]) -> list[Event]:
    last_id, parsed = "", []
    for sent in events:
        last_id = last_id if sent.id is None else sent.id
        parsed.append(Event(sent.data, sent.event or "message", last_id))
    return parsed


@given(
    st.lists(SENT, max_size=6),
    st.lists(st.sampled_from(["\n", "\r\n", "\r"]), min_size=1, max_size=5),
    st.lists(st.integers(0, 400), max_size=12),
)
def test_any_events_serialised_then_chunked_anywhere_parse_back(
    events: list[Sent], endings: list[str], cuts: list[int]
) -> None:
    stream = serialised(events, endings)
    bounds = sorted({0, len(stream), *(cut for cut in cuts if cut < len(stream))})
    parser = EventParser()
    parsed = [event for start, end in pairwise(bounds) for event in parser.feed(stream[start:end])]
    assert parsed == expected(events)
    retries = [sent.retry for sent in events if sent.retry is not None]
    assert parser.retry == (retries[-1] if retries else None)
