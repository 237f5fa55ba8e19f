"""The page people play on: one blueprint serving the browser client (``static/``: plain JavaScript modules, no
build step) at ``/`` and ``/web/``, and the frames a finished game's replay steps through.

The page talks to the service only through the public API (``docs/api.md``), with one exception: a replay needs
every state of the game, which only the rules can rebuild, so ``/web/replays/<id>`` rebuilds them here with the
core, from the same replay record the log shows once the game is over, instead of a second copy of each game's
rules in JavaScript. Each game's rules, in each language the page speaks, are served from ``rules/``: a link to
``docs/rules/``, their one source, which the wheel's build follows.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
from functools import lru_cache
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, request

import thegame_core as tg

from ..api.context import current, finished
from ..errors import ApiError
from ..json_text import dump_bytes

__all__ = ["BLUEPRINT"]

STATIC = Path(__file__).resolve().parent / "static"
#: The rules as players read them: ``<game>.md`` in English, ``<game>.<lang>.md`` in the others. In the source tree
#: this folder is a link to ``docs/rules/``; an installed package holds the files themselves.
RULES = Path(__file__).resolve().parent / "rules"
#: The languages of the rules: English, and French (the rule sheets' own language).
LANGUAGES = {"en": "{game}.md", "fr": "{game}.fr.md"}
BLUEPRINT = Blueprint("web", __name__)

#: The page runs our own scripts and styles only, calls only this origin (the API, its event streams) and is
#: framed nowhere; no inline script or style, no `eval`.
PAGE_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
#: Files worth compressing (text); the others go as they are.
mimetypes.add_type("text/markdown", ".md")  # not in every system's table (Debian's has it, Python's own not)
COMPRESSIBLE = {".html", ".js", ".css", ".svg", ".json", ".md"}


@BLUEPRINT.after_request
def page_policy(response: Response) -> Response:
    """The page's own Content-Security-Policy: the service's headers keep a policy a route has set."""
    response.headers["Content-Security-Policy"] = PAGE_POLICY
    return response


@BLUEPRINT.get("/")
def index() -> Response:
    return _asset("index.html")


@BLUEPRINT.get("/web/<path:name>")
def asset(name: str) -> Response:
    return _asset(name)


@BLUEPRINT.get("/web/rules/<lang>/<game>.md")
def rules(lang: str, game: str) -> Response:
    """A game's rules in one language, as markdown (the page's ``rules.js`` draws them)."""
    if game not in tg.game_names() or lang not in LANGUAGES:
        known = f"games {', '.join(tg.game_names())}; languages {', '.join(LANGUAGES)}"
        raise ApiError("not_found", f"no rules for {game!r} in {lang!r} ({known})")
    return _asset(LANGUAGES[lang].format(game=game), RULES)


@lru_cache(maxsize=128)
def _load(name: str, root: Path = STATIC) -> tuple[bytes, bytes | None, str]:
    """A file's bytes, their gzip form (``None`` when not worth it) and its ETag; read once per process."""
    path = (root / name).resolve()
    if not path.is_relative_to(root.resolve()) or not path.is_file():
        raise ApiError("not_found", "no such file")
    data = path.read_bytes()
    packed = gzip.compress(data, 9, mtime=0) if path.suffix in COMPRESSIBLE else None
    return data, packed, f'"{hashlib.sha256(data).hexdigest()[:16]}"'


def _asset(name: str, root: Path = STATIC) -> Response:
    """A file of ``root``, gzipped when the browser accepts it; revalidated on every load (``no-cache`` + ETag), so
    a new release is seen at once while an unchanged file costs a bodiless ``304``."""
    data, packed, etag = _load(name, root)
    if request.headers.get("If-None-Match") == etag:
        response = Response(status=304)
    else:
        gzipped = packed is not None and "gzip" in request.headers.get("Accept-Encoding", "")
        kind = mimetypes.guess_type(name)[0] or "application/octet-stream"
        response = Response(packed if gzipped else data, mimetype=kind)
        if gzipped:
            response.headers["Content-Encoding"] = "gzip"
    response.headers["ETag"] = etag
    response.headers["Cache-Control"] = "no-cache"
    response.vary.add("Accept-Encoding")
    return response


@BLUEPRINT.get("/web/replays/<game_id>")
def replay_frames(game_id: str) -> Response:
    """Every state of a finished game, from its deal to its end: the public view and every seat's hand. Readable
    by whoever may read the game's log (``409 game_not_over`` while it runs: the deck stays secret)."""
    state = finished(*current(game_id))
    response = Response(_frames(state.replay_record()), mimetype="application/json")
    response.headers["Cache-Control"] = "no-store"
    return response


def _frames(record: dict[str, Any]) -> bytes:
    """The JSON of the states after 0, 1, ... n actions of ``record``, each with every seat's hand."""
    game = tg.get_game(record["game"])
    state = game.replay({**record, "actions": []})
    states = [state]
    for action in record["actions"]:
        state = state.apply(game.parse_action(action))
        states.append(state)
    frames = [_frame(each) for each in states]
    return dump_bytes({"game": record["game"], "frames": frames})


def _frame(state: tg.AnyState) -> dict[str, Any]:
    view = state.public_view()
    del view["options"]  # the same in every frame: the page has it from the game's view
    views = [state.view(seat) for seat in range(state.players)]
    if all("hand" in each for each in views):  # Bataille corse has none: nobody sees a packet's cards
        view["hands"] = [each["hand"] for each in views]
    return view
