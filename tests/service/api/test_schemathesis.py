"""schemathesis against the app in-process (WSGI; the real Redis when ``REDIS_URL`` is set): requests generated from
``/v1/openapi.json`` for every operation, anonymous and with real tokens of real games, and every answer checked
against the document with schemathesis's strictest checks (``--checks all`` but the stateful ones, which need links
between operations): no 5xx, a documented status code, content type and headers, a body that fits its schema,
every request that breaks the schema refused (with a 4xx), every request that fits it accepted, a missing required
header refused, an undocumented method refused, ``Allow`` listing the documented methods, a token that matters,
and every error code listed for its operation.

A request that fits the schema may still meet a game's rules (a card not in hand, a deck that is no permutation,
an option of another game), which OpenAPI 3.0's JSON Schema cannot express: such a ``422`` must carry a rule's
code, or name a field whose rule the document states in words (``IN_WORDS``); a ``validation_error`` on any other
field means the document let through what the service refuses. Examples per operation are bounded
(``EXAMPLES``) to keep CI's time (about 30 s for both tests here).
"""

from __future__ import annotations

import re

import schemathesis
from conftest import REDIS_URL, TTLS
from flask.testing import FlaskClient
from gameclient import GameClient, new_game
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis import CheckContext
from schemathesis.checks import (
    allow_header_conformance,
    content_type_conformance,
    missing_required_header,
    negative_data_rejection,
    not_a_server_error,
    positive_data_acceptance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
    unsupported_method,
)
from schemathesis.config import SchemathesisConfig
from schemathesis.core import NotSet

from service import create_app
from service.api.daily_schemas import DAILY_FIXED

EXAMPLES = 25


@schemathesis.check
def error_code_documented(ctx: CheckContext, response: schemathesis.Response, case: schemathesis.Case) -> None:
    """An error answer's ``error`` code is one its operation lists for that status ("error: a, b"); a request with
    another method than the operation's is not one of its answers (it gets ``405``)."""
    if response.status_code < 400 or case.method.upper() != case.operation.method.upper():
        return
    documented = case.operation.definition.raw["responses"].get(str(response.status_code), {})
    listed = documented.get("description", "").removeprefix("error: ").split(", ")
    error = response.json()["error"]
    assert error in listed, f"{response.status_code} {error} is not listed for {case.operation.label}: {listed}"


#: Fields whose rule the document can state only in words (OpenAPI 3.0's JSON Schema has no rule between two
#: fields, nor one that depends on the game a request names): a setup the game refuses (``_schema``), the game's
#: own player count, seats, options, cards and bots; ``name`` and ``bots`` only with ``daily``; a pace only for a
#: bot; an ``Idempotency-Key`` sent without a token that is guessable; with ``daily``, what the deal fixes.
IN_WORDS = {"_schema", "players", "seat", "first_seat", "options", "deck", "bot", "name", "bots", "reaction_ms"}
IN_WORDS |= {"reaction_spread_ms", "Idempotency-Key"}


@schemathesis.check
def refused_only_by_what_the_document_says(
    ctx: CheckContext, response: schemathesis.Response, case: schemathesis.Case
) -> None:
    """A request the schema accepts is refused with ``422`` only by a rule the document states: a game's rule
    (its own codes, ``invalid_action`` for an action it does not have, ``daily_in_future``...) or a field of
    ``IN_WORDS``; never a ``validation_error`` on a field whose schema let the value through."""
    if response.status_code != 422 or case.meta is None or not case.meta.generation.mode.is_positive:
        return
    body = response.json()
    if body["error"] == "validation_error":
        fields = set(body.get("errors") or {})
        fixed = DAILY_FIXED if isinstance(case.body, dict) and "daily" in case.body else set()
        assert fields <= IN_WORDS | fixed, f"{case.operation.label}: the document accepts what was refused: {body}"


CHECKS = [
    error_code_documented,
    refused_only_by_what_the_document_says,
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    negative_data_rejection,
    positive_data_acceptance,
    missing_required_header,
    unsupported_method,
    allow_header_conformance,
]
#: A request that breaks the schema is refused by any 4xx the service documents: 412 and 413 too (an If-Match or a
#: body size can be checked before the part the generator broke).
#: A request the schema accepts may still meet a precondition (``412``) or a rule (``422``, checked by
#: ``refused_only_by_what_the_document_says``).
CONFIG = SchemathesisConfig.from_dict(
    {
        "checks": {
            "negative_data_rejection": {"expected-statuses": [400, 401, 403, 404, 405, 409, 412, 413, 415, 422]},
            "positive_data_acceptance": {"expected-statuses": ["2xx", "3xx", 401, 403, 404, 409, 412, 422, 429]},
        }
    }
)
BOUNDED = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))


#: One app for the module (its store too); its event streams end within a fraction of a second, since schemathesis
#: reads a stream to its end.
APP = create_app({"REDIS_URL": REDIS_URL, "TESTING": True, **TTLS, "STREAM_KEEPALIVE": 0.05, "STREAM_LIFETIME": 0.2})
schema = schemathesis.openapi.from_wsgi("/v1/openapi.json", APP, config=CONFIG)


@schema.parametrize()
@BOUNDED
def test_anonymous_requests_match_the_document(case: schemathesis.Case) -> None:
    case.call_and_validate(checks=CHECKS)


def real_game(http: FlaskClient, path: str, data: st.DataObject) -> GameClient:
    """A real game for ``path``: The Game (or Ninja, on ``/actions``) in a lobby with a free seat, a full lobby,
    or started."""
    ninja = path.endswith("/actions") and data.draw(st.booleans())
    game = new_game(http, players=2, game="ninja" if ninja else "the-game", seed=data.draw(st.integers(0, 999)))
    stage = data.draw(st.sampled_from(["free seat", "full", "started"]))
    game.seat("ann") if stage == "free seat" else game.fill()
    if stage == "started":
        assert game.start().status_code == 200
    return game


@schema.parametrize()
@schema.given(data=st.data())
@BOUNDED
def test_requests_with_real_tokens_match_the_document(case: schemathesis.Case, data: st.DataObject) -> None:
    """The generated request on a real game, with its host's or a seat's token, and the generated ``If-Match``,
    none, or the game's version."""
    if "game_id" in (case.path_parameters or {}):
        http = APP.test_client()
        game = real_game(http, case.path, data)
        token = data.draw(st.sampled_from([game.host, *game.tokens.values()]))
        headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
        if_match = data.draw(st.sampled_from(["generated", "none", "current"]))
        if if_match == "none":
            headers.pop("If-Match", None)
        elif if_match == "current":
            headers["If-Match"] = game.view().headers["ETag"]
        case.path_parameters = {**(case.path_parameters or {}), "game_id": game.game_id}
        case.headers = headers
    response = case.call_and_validate(checks=CHECKS)
    if "game_id" in (case.path_parameters or {}):
        token_not_ignored(http, case, response.status_code)


def token_not_ignored(http: FlaskClient, case: schemathesis.Case, status: int) -> None:
    """A request that a real token made succeed is refused when sent again without it (``401``), on a route that
    needs one; after a ``DELETE`` that removed the game, the same request finds nothing (``404``, before the token).
    (schemathesis's ``ignored_auth`` takes a token set on a case for one it generated, and a success for auth
    ignored.)"""
    if not 200 <= status < 300 or {} in (case.operation.definition.raw.get("security") or [{}]):
        return
    headers = {name: value for name, value in (case.headers or {}).items() if name != "Authorization"}
    body = None if isinstance(case.body, NotSet) else case.body
    again = http.open(case.formatted_path, method=case.method, headers=headers, query_string=case.query, json=body)
    expected = {401, 404} if case.method.upper() == "DELETE" else {401}
    assert again.status_code in expected, f"{case.operation.label} without its token: {again.status_code}"


def test_the_document_covers_every_route() -> None:
    """Every route the app serves (but its documents and Swagger UI) is an operation schemathesis generates for."""
    documented = set(schema.raw_schema["paths"])
    served = {re.sub(r"<(?:[^>]*:)?(\w+)>", r"{\1}", rule.rule) for rule in APP.url_map.iter_rules()}
    served = {rule for rule in served if rule.startswith("/v1/")}
    assert served - {"/v1/openapi.json"} == documented
