"""Hardening: strict JSON bodies, security headers, CORS, the access log setting, chunked bodies over the limit."""

from __future__ import annotations

import gc
import http.client
import io
import json
import re
import runpy
import socket
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.request import urlopen

import gevent
import pytest
from flask import Flask
from flask.testing import FlaskClient
from gameclient import SORTED_DECK, GameClient, bearer, error_of, started
from gunicorn.workers.ggevent import GeventPyWSGIWorker, GeventWorker
from gunicorn.workers.gthread import ThreadWorker
from servers import ROOT, running
from werkzeug.test import EnvironBuilder, TestResponse, run_wsgi_app

from service.config import cors_origins, from_env

JSON = "application/json"
STALE = {"If-Match": '"1"'}


# Strict JSON: the body says it is JSON, and is JSON without repeated keys or non-finite numbers.
@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded", "application/jsonx"])
def test_a_body_that_is_not_declared_json_is_refused(http: FlaskClient, content_type: str | None) -> None:
    response = http.post("/v1/games", data=b'{"players": 1}', content_type=content_type)
    assert error_of(response) == (415, "unsupported_media_type")
    assert response.get_json()["status"] == "Unsupported Media Type"


@pytest.mark.parametrize("content_type", [JSON, "application/json; charset=utf-8", "Application/JSON"])
def test_json_with_parameters_is_accepted(http: FlaskClient, content_type: str) -> None:
    assert http.post("/v1/games", data=b'{"players": 1}', content_type=content_type).status_code == 201


@pytest.mark.parametrize(
    "raw",
    [
        b'{"players": 1, "players": 2}',
        b'{"players": 1, "options": {"preset": "standard", "preset": "standard"}}',
        b'{"players": NaN}',
        b'{"players": 1, "seed": Infinity}',
        b'{"players": 1, "seed": -Infinity}',
    ],
)
def test_repeated_keys_and_non_finite_numbers_are_malformed(http: FlaskClient, raw: bytes) -> None:
    assert error_of(http.post("/v1/games", data=raw, content_type=JSON)) == (400, "malformed_json")


def test_an_empty_body_needs_no_content_type(http: FlaskClient) -> None:
    game = started(http, players=2, deck=SORTED_DECK)
    for _ in range(2):
        play = game.view(0).get_json()["legal_plays"][0]
        assert game.play(0, play["card"], play["pile"]).status_code == 200
    response = http.post(f"{game.url}/turn/end", data=b"", headers=bearer(game.tokens[0]))
    assert response.status_code == 200, response.get_json()


def test_the_media_type_answers_at_the_body_step(http: FlaskClient) -> None:
    game = started(http, players=2, deck=SORTED_DECK)
    plays, body = f"{game.url}/plays", b'{"card": 2, "pile": "asc1"}'
    assert error_of(http.post("/v1/games/nosuchgame/plays", data=body)) == (404, "unknown_game")
    assert error_of(http.post(plays, data=body, headers=bearer("forged"))) == (401, "invalid_token")
    assert error_of(http.post(plays, data=body, headers=bearer(game.tokens[0], **STALE))) == (412, "stale_version")
    assert error_of(http.post(plays, data=body, headers=bearer(game.tokens[1]))) == (415, "unsupported_media_type")
    duplicate = b'{"card": 2, "card": 2, "pile": "asc1"}'
    response = http.post(plays, data=duplicate, content_type=JSON, headers=bearer(game.tokens[1]))
    assert error_of(response) == (400, "malformed_json")  # before not_your_turn
    assert game.view().get_json()["version"] == 3


# Security headers.
API_POLICY = "default-src 'none'; frame-ancestors 'none'"
ORIGIN = "https://play.example"


def assert_hardened(response: TestResponse) -> None:
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"


def test_every_game_answer_is_never_stored(http: FlaskClient) -> None:
    created = http.post("/v1/games", json={"players": 1})
    game = GameClient(http, created)
    seated = game.seat("ann")
    view = http.get(game.url, headers=bearer(seated.get_json()["token"]))
    answers = [created, seated, view, game.log(), http.get("/v1/games/nosuchgame"), http.post("/v1/games", json=[])]
    for response in answers:
        assert response.headers["Cache-Control"] == "no-store", response.request.path
        assert response.headers["Content-Security-Policy"] == API_POLICY
        assert_hardened(response)
    etag = view.headers["ETag"]
    unchanged = http.get(game.url, headers=bearer(seated.get_json()["token"], **{"If-None-Match": etag}))
    assert unchanged.status_code == 304 and unchanged.headers["ETag"] == etag
    assert unchanged.headers["Cache-Control"] == "no-store"


def test_other_answers_are_hardened_too(http: FlaskClient) -> None:
    for path in ("/v1/health", "/v1/openapi.json", "/v1/nothing"):
        response = http.get(path)
        assert_hardened(response)
        assert response.headers["Content-Security-Policy"] == API_POLICY
        assert "Cache-Control" not in response.headers and "Access-Control-Allow-Origin" not in response.headers


def test_swagger_ui_may_run_its_assets_and_initialiser(http: FlaskClient) -> None:
    page = http.get("/docs")
    assert_hardened(page)
    policy = dict(part.strip().split(" ", 1) for part in page.headers["Content-Security-Policy"].split(";"))
    assert policy["default-src"] == "'none'" and policy["frame-ancestors"] == "'none'"
    html = page.get_data(as_text=True)
    scripts = re.findall(r'<script src="([^"]+)"', html) + re.findall(r'<link href="([^"]+)"', html)
    assert scripts and all(src.startswith("/docs/assets/") for src in scripts)  # served here: 'self'
    assert all(http.get(src).status_code == 200 for src in scripts)
    assert "<script>" in html  # the inline initialiser
    assert policy["script-src"] == policy["style-src"] == "'self' 'unsafe-inline'"
    assert "'self'" in policy["connect-src"]  # it fetches /v1/openapi.json
    assert "/v1/openapi.json" in html
    assert (
        http.get("/docs/assets/swagger-ui-bundle.js").headers["Content-Security-Policy"]
        == page.headers["Content-Security-Policy"]
    )


# CORS.
def test_no_cors_headers_unless_configured(http: FlaskClient) -> None:
    response = http.get("/v1/games/catalog", headers={"Origin": ORIGIN})
    assert "Access-Control-Allow-Origin" not in response.headers and "Origin" not in response.vary
    preflight = http.options("/v1/games", headers={"Origin": ORIGIN, "Access-Control-Request-Method": "POST"})
    assert "Access-Control-Allow-Origin" not in preflight.headers


@pytest.fixture
def cors(make_app: Callable[..., Flask]) -> FlaskClient:
    return make_app(CORS_ORIGINS=cors_origins(f"{ORIGIN}, http://localhost:3000")).test_client()


def test_an_allowed_origin_gets_cors_headers(cors: FlaskClient) -> None:
    created = cors.post("/v1/games", json={"players": 1}, headers={"Origin": ORIGIN})
    assert created.status_code == 201
    assert created.headers["Access-Control-Allow-Origin"] == ORIGIN and "Origin" in created.vary
    assert created.headers["Access-Control-Expose-Headers"] == "ETag, Retry-After, Location"
    assert "Access-Control-Allow-Credentials" not in created.headers
    refused = cors.get("/v1/games/nosuchgame", headers={"Origin": "http://localhost:3000"})
    assert refused.status_code == 404 and refused.headers["Access-Control-Allow-Origin"] == "http://localhost:3000"


def test_another_origin_gets_none(cors: FlaskClient) -> None:
    for origin in ("https://evil.example", "https://play.example.evil", "null"):
        response = cors.get("/v1/games/catalog", headers={"Origin": origin})
        assert "Access-Control-Allow-Origin" not in response.headers and "Origin" in response.vary
        preflight = cors.options("/v1/games", headers={"Origin": origin, "Access-Control-Request-Method": "POST"})
        assert preflight.status_code != 204 and "Access-Control-Allow-Origin" not in preflight.headers


def test_preflight(cors: FlaskClient) -> None:
    asked = {"Origin": ORIGIN, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "if-match"}
    response = cors.options("/v1/games/g-123/actions", headers=asked)
    assert response.status_code == 204 and not response.get_data()
    assert response.headers["Access-Control-Allow-Origin"] == ORIGIN
    assert response.headers["Access-Control-Allow-Methods"] == "POST"
    assert response.headers["Access-Control-Allow-Headers"] == (
        "Authorization, Content-Type, If-Match, If-None-Match, Idempotency-Key, Last-Event-ID"
    )
    assert int(response.headers["Access-Control-Max-Age"]) > 0
    game = cors.options("/v1/games/g-123", headers=asked)
    assert game.status_code == 204 and game.headers["Access-Control-Allow-Methods"] == "DELETE, GET"
    assert cors.options("/v1/nothing", headers=asked).status_code == 404
    catalog = cors.options("/v1/games/catalog", headers=asked)  # the path matches /v1/games/{game_id} too
    assert catalog.status_code == 204 and catalog.headers["Access-Control-Allow-Methods"] == "GET"


def test_allow_names_the_methods_of_the_route_the_path_names(http: FlaskClient) -> None:
    """``OPTIONS`` and ``405`` list the methods of the path's own route: ``/v1/games/catalog`` is no game id, so
    ``DELETE`` (``/v1/games/{game_id}``'s) is not among them."""
    assert http.options("/v1/games/catalog").headers["Allow"] == "GET, HEAD, OPTIONS"
    assert error_of(refused := http.put("/v1/games/catalog")) == (405, "method_not_allowed")
    assert refused.headers["Allow"] == "GET, HEAD, OPTIONS"
    assert http.options("/v1/games/g-123").headers["Allow"] == "DELETE, GET, HEAD, OPTIONS"
    assert http.options("/v1/games/g-123/seats/1").headers["Allow"] == "DELETE, OPTIONS"
    assert error_of(http.options("/v1/nothing")) == (404, "not_found")


def test_any_origin(make_app: Callable[..., Flask]) -> None:
    http = make_app(CORS_ORIGINS=cors_origins("*")).test_client()
    response = http.get("/v1/health", headers={"Origin": "https://anywhere.example"})
    assert response.headers["Access-Control-Allow-Origin"] == "https://anywhere.example"


@pytest.mark.parametrize("text", ["https://a.example/", "a.example", "https://a.example/path", "*, https://a.example"])
def test_cors_origins_must_be_origins(text: str) -> None:
    with pytest.raises(ValueError, match="TG_CORS_ORIGINS"):
        from_env({"TG_CORS_ORIGINS": text})


def test_cors_origins_from_the_environment() -> None:
    assert from_env({})["CORS_ORIGINS"] == ()
    assert from_env({"TG_CORS_ORIGINS": " https://a.example,http://b.example:8080 "})["CORS_ORIGINS"] == (
        "https://a.example",
        "http://b.example:8080",
    )
    assert from_env({"TG_CORS_ORIGINS": "*"})["CORS_ORIGINS"] == ("*",)


def gunicorn() -> list[str]:
    return [sys.executable, "-m", "gunicorn", "--config", "service/gunicorn_conf.py", "service:create_app()"]


def raw_answer(port: int, request: bytes) -> tuple[int, http.client.HTTPResponse, Any]:
    """What the server answers ``request`` sent as is: its status, the answer, and its JSON body."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(request)
        answer = http.client.HTTPResponse(connection)
        answer.begin()
        return answer.status, answer, json.loads(answer.read())


GET = b"GET /v1/health HTTP/1.1\r\nHost: x\r\n"
#: Requests gunicorn refuses before the app reads them: the status and the code they answer.
UNREADABLE = {
    "a 5,000-character path": (b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414, "uri_too_long"),
    "a 9,000-byte header": (GET + b"X-Long: " + b"a" * 9000 + b"\r\n\r\n", 431, "headers_too_large"),
    "101 header fields": (GET + b"".join(b"X-%d: 1\r\n" % n for n in range(101)) + b"\r\n", 431, "headers_too_large"),
    "a NUL in a header": (GET + b"X-Nul: a\x00b\r\n\r\n", 400, "bad_request"),
    "a bad request line": (b"GET\r\n\r\n", 400, "bad_request"),
    "a bad Content-Length": (GET + b"Content-Length: x\r\n\r\n", 400, "bad_request"),
}


def test_gunicorn_s_own_refusals_are_json_errors_with_the_api_s_headers() -> None:
    """What gunicorn refuses itself answers the contract's error body, as JSON that no browser may sniff."""
    with running(gunicorn()) as (port, _):
        for name, (request, status, code) in UNREADABLE.items():
            answered, answer, body = raw_answer(port, request)
            assert (answered, body["code"], body["error"]) == (status, status, code), name
            assert body["status"] == answer.reason and body["message"], name
            assert answer.getheader("Content-Type") == JSON, name
            assert answer.getheader("X-Content-Type-Options") == "nosniff", name
            assert answer.getheader("Content-Security-Policy") == "default-src 'none'; frame-ancestors 'none'", name
        assert raw_answer(port, GET + b"\r\n")[0] == 200  # still serving


def test_gunicorn_names_no_version() -> None:
    with running(gunicorn()) as (port, _), urlopen(f"http://127.0.0.1:{port}/v1/games/catalog", timeout=5) as answer:
        assert answer.headers["Server"] == "gunicorn"  # the installed gunicorn names no version
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert answer.headers["Cache-Control"] == "no-store"


# GUNICORN_ACCESS_LOG: a boolean or a file.
@pytest.mark.parametrize(
    ("value", "accesslog"),
    [
        (None, None),
        ("", None),
        ("0", None),
        ("false", None),
        ("No", None),
        ("off", None),
        ("1", "-"),
        ("true", "-"),
        ("YES", "-"),
        ("on", "-"),
        ("-", "-"),
        ("/var/log/tg/access.log", "/var/log/tg/access.log"),
    ],
)
def test_access_log_setting(monkeypatch: pytest.MonkeyPatch, value: str | None, accesslog: str | None) -> None:
    if value is None:
        monkeypatch.delenv("GUNICORN_ACCESS_LOG", raising=False)
    else:
        monkeypatch.setenv("GUNICORN_ACCESS_LOG", value)
    assert runpy.run_path(str(ROOT / "service" / "gunicorn_conf.py"))["accesslog"] == accesslog


def test_gunicorn_writes_the_access_log_to_a_named_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    log = tmp_path / "access.log"
    monkeypatch.setenv("GUNICORN_ACCESS_LOG", str(log))
    with running(gunicorn()) as (port, _):
        urlopen(f"http://127.0.0.1:{port}/v1/games/catalog", timeout=5).close()
    assert "GET /v1/games/catalog" in log.read_text()


def test_the_access_log_may_be_json_lines_without_query_strings(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    log = tmp_path / "access.log"
    monkeypatch.setenv("GUNICORN_ACCESS_LOG", str(log))
    monkeypatch.setenv("GUNICORN_ACCESS_LOG_FORMAT", "json")
    with running(gunicorn()) as (port, _):
        urlopen(f"http://127.0.0.1:{port}/v1/games/catalog?token=secret", timeout=5).close()
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    catalog = next(line for line in lines if line["path"] == "/v1/games/catalog")
    assert (catalog["method"], catalog["status"]) == ("GET", 200) and catalog["remote"].endswith("127.0.0.1")
    assert catalog["duration_ms"] >= 0 and int(catalog["bytes"]) > 0 and "secret" not in log.read_text()
    monkeypatch.setenv("GUNICORN_ACCESS_LOG_FORMAT", "xml")
    with pytest.raises(ValueError, match="json or text"):
        runpy.run_path(str(ROOT / "service" / "gunicorn_conf.py"))


# Chunked bodies: read up to the limit, no further, and answered 413 like a declared length.
SERVERS = {"gunicorn": gunicorn(), "python -m service": [sys.executable, "-m", "service"]}


def chunked_post(port: int, chunks: list[bytes], end: bool) -> bytes:
    """POST /v1/games with a chunked body over a raw socket; what the server answers within 10 seconds."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        head = (
            "POST /v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: chunked\r\n\r\n"
        )
        connection.sendall(head.encode())
        for chunk in chunks:
            connection.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        if end:
            connection.sendall(b"0\r\n\r\n")
        answer = b""
        while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
            part = connection.recv(65536)  # a timeout fails the test: the server waited for more
            if not part:
                break
            answer += part
        return answer


@pytest.mark.parametrize("server", SERVERS)
def test_a_chunked_body_over_the_limit_is_too_large(monkeypatch: pytest.MonkeyPatch, server: str) -> None:
    monkeypatch.setenv("TG_MAX_BODY_BYTES", "1000")
    with running(SERVERS[server]) as (port, _):
        small = chunked_post(port, [b'{"players": ', b"1}"], end=True)
        assert small.startswith(b"HTTP/1.1 201 "), small[:200]
        chunks = [b'{"players": 1, "name": "'] + [b"x" * 500] * 200  # 100 KB, never finished
        answer = chunked_post(port, chunks, end=False)
        assert answer.startswith(b"HTTP/1.1 413 "), answer[:300]
        assert json.loads(answer.split(b"\r\n\r\n", 1)[1])["error"] == "body_too_large"


class EndlessBody(io.RawIOBase):
    """A chunked body that never ends, counting what the app reads of it."""

    def __init__(self) -> None:
        self.read_bytes = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        size = len(buffer)
        buffer[:size] = b"x" * size
        self.read_bytes += size
        return size


def test_reading_stops_at_the_limit(make_app: Callable[..., Flask]) -> None:
    app = make_app(MAX_CONTENT_LENGTH=1000)
    body = EndlessBody()
    environ = EnvironBuilder("/v1/games", method="POST", content_type=JSON).get_environ()
    environ.pop("CONTENT_LENGTH", None)
    environ.update({"wsgi.input": body, "wsgi.input_terminated": True, "HTTP_TRANSFER_ENCODING": "chunked"})
    answer, status, _ = run_wsgi_app(app, environ)
    assert status.startswith("413 ") and json.loads(b"".join(answer))["error"] == "body_too_large"
    assert 1000 < body.read_bytes <= 1001


def test_the_spec_lists_415_where_a_body_is_read(http: FlaskClient) -> None:
    paths = http.get("/v1/openapi.json").get_json()["paths"]
    for path in ("/v1/games", "/v1/games/{game_id}/seats", "/v1/games/{game_id}/actions"):
        assert "unsupported_media_type" in paths[path]["post"]["responses"]["415"]["description"], path


@pytest.mark.parametrize("path", ["//v1/games/catalog", "/v1//games/catalog", "/v1/games//catalog"])
def test_repeated_slashes_are_not_redirected_to_a_host_of_the_request_s_choosing(http: FlaskClient, path: str) -> None:
    response = http.get(path, headers={"Host": "evil.example"})
    assert response.status_code == 404 and response.get_json()["error"] == "not_found"
    assert "Location" not in response.headers


def test_gevent_workers_let_other_ready_greenlets_go_before_each_request() -> None:
    """Fairness between keep-alive connections: a request starts after the greenlets already ready to run, in a
    gevent worker however its class is named (``gevent``, ``gevent_pywsgi``, a class path); threads need nothing."""
    config = runpy.run_path(str(ROOT / "service" / "gunicorn_conf.py"))
    order: list[str] = []

    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        order.append("request")
        return []

    def worker(kind: type) -> Any:
        made = object.__new__(kind)  # what post_worker_init reads of a worker: its class and its app
        made.wsgi = app
        config["post_worker_init"](made)
        return made

    try:
        for kind in (GeventWorker, GeventPyWSGIWorker):
            order.clear()
            waiting = gevent.spawn(order.append, "ready before")
            worker(kind).wsgi({}, None)
            assert order == ["ready before", "request"]
            waiting.join()
        assert worker(ThreadWorker).wsgi is app  # threads are preempted: nothing to add
    finally:
        gc.unfreeze()  # the hook froze this test process's objects too


def test_workers_leave_what_they_loaded_out_of_full_collections() -> None:
    config = runpy.run_path(str(ROOT / "service" / "gunicorn_conf.py"))
    loaded: list[Any] = [[]]  # a container: tracked by the collector until frozen
    assert any(obj is loaded for obj in gc.get_objects())
    try:
        thread_worker = object.__new__(ThreadWorker)
        thread_worker.wsgi = loaded
        config["post_worker_init"](thread_worker)
        assert gc.get_freeze_count() > 0
        assert not any(obj is loaded for obj in gc.get_objects())  # no pass scans it any more
    finally:
        gc.unfreeze()
