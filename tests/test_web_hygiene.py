"""Issue 10, points 2 and 6: the web server under malformed and cross-site requests.

Malformed input (deep nesting, huge integers, lone surrogates, bytes that are not UTF-8, bodies
that are not objects, bad query parameters) gets a 4xx JSON error and changes nothing; a page
of another site can neither change games (Origin check, JSON content type) nor reach a loopback
server by DNS rebinding (Host check); no redirect names the request's Host; a slow body gets
408; the server settings bound connections and header time; a ``?token=`` never reaches the
access log; a long poll wakes even when its game left the live cache.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from asyncrun import run_in_own_thread
from typhoon.web.app import MAX_DEPTH, create_app

JSON = {"Content-Type": "application/json"}


@pytest.fixture
def c(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(tmp_path / "data", resume=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        with TestClient(app) as client:
            yield client


def _game(c: TestClient) -> tuple[str, str, int]:
    r = c.post("/api/games", json={"mode": "hotseat"})
    assert r.status_code == 201, r.text
    g = r.json()
    return g["id"], g["token"], c.get(f"/api/games/{g['id']}").json()["version"]


def _error(r: Any, status: int, words: str = "") -> str:
    """The JSON error of a refusal (issue 10 point 2: a 4xx JSON error, never a 500)."""
    assert r.status_code == status, r.text
    body = r.json()
    assert isinstance(body["error"], str) and body["status"] == status, body
    assert words in body["error"], body["error"]
    return str(body["error"])


def _count(c: TestClient) -> int:
    return len(c.get("/api/games").json()["games"])


# -- point 2: malformed bodies and parameters ---------------------------------------------------


@pytest.mark.parametrize(
    "body, words",
    [
        ("[" * 30_000 + "]" * 30_000, "nests more than"),  # json.loads: RecursionError
        ('{"mode": ' + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "}", "nests more than"),
        ('{"mode": "hotseat", "seed": ' + "9" * 5000 + "}", "more than 100 digits"),  # int-string limit
        ('{"mode": "hotseat", "x": -' + "1" * 200 + "}", "more than 100 digits"),
        ('{"mode": "hotseat", "x": NaN}', "not valid JSON"),
        ('{"mode": "hotseat", "x": Infinity}', "not valid JSON"),
        ('{"mode": "hot\\ud800seat"}', "lone surrogate"),
        ('{"\\udfff": 1}', "lone surrogate"),
        ("[1, 2]", "must be a JSON object"),
        ('"hotseat"', "must be a JSON object"),
        ("12", "must be a JSON object"),
        ("", "empty"),
        ('{"mode": "hotseat"', "not valid JSON"),
    ],
)
def test_malformed_json_bodies_are_400(c: TestClient, body: str, words: str) -> None:
    before = _count(c)
    _error(c.post("/api/games", content=body, headers=JSON), 400, words)
    assert _count(c) == before


def test_the_nesting_limit_is_exact(c: TestClient) -> None:
    # MAX_DEPTH levels are read (and refused by the service for what they say, not their depth);
    # brackets inside strings do not count.
    deep = "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1)
    err = _error(c.post("/api/games", content='{"mode": ' + deep + "}", headers=JSON), 400)
    assert "nests" not in err
    r = c.post("/api/games", content=json.dumps({"mode": "hotseat", "name": "[" * 500}), headers=JSON)
    assert r.status_code != 400 or "nests" not in r.json()["error"]


@pytest.mark.parametrize(
    "raw, words",
    [
        (b'{"mode": "hot\xffseat"}', "not UTF-8"),
        (b'{"mode": "\xed\xa0\x80"}', "not UTF-8"),  # an encoded surrogate is not UTF-8
        ('{"mode": "hotseat"}'.encode("utf-16"), "not UTF-8"),  # json.loads(bytes) would accept it
        (b'\xef\xbb\xbf{"mode": "hotseat"}', "not valid JSON"),
    ],
)
def test_bodies_that_are_not_utf8_are_400(c: TestClient, raw: bytes, words: str) -> None:
    before = _count(c)
    _error(c.post("/api/games", content=raw, headers=JSON), 400, words)
    assert _count(c) == before


def test_malformed_actions_change_nothing(c: TestClient) -> None:
    gid, tok, v = _game(c)
    hdr = {**JSON, "X-Typhoon-Token": tok}
    url = f"/api/games/{gid}/actions"
    for body, words in [
        ('{"action": "setup\\ud800", "seen": ' + str(v) + "}", "lone surrogate"),
        ('{"actions": ' + "[" * 30 + "]" * 30 + ', "seen": ' + str(v) + "}", "nests more than"),
        ('{"action": "end", "seen": ' + "7" * 4400 + "}", "more than 100 digits"),
        ('{"action": "end", "seen": ' + "7" * 30 + "}", "at most 18 digits"),
    ]:
        _error(c.post(url, content=body, headers=hdr), 400, words)
    assert c.get(f"/api/games/{gid}").json()["version"] == v


@pytest.mark.parametrize(
    "query, words",
    [
        ("after=" + "1" * 5000 + "&wait=1", "at most 18 digits"),
        ("after=0&wait=" + "9" * 19, "at most 18 digits"),
        ("after=1.5", "'after' must be an integer"),
        ("svg=maybe", "'svg' must be 1 or 0"),
        ("legal=2", "'legal' must be 1 or 0"),
        ("numbers=%00", "'numbers' must be 1 or 0"),
    ],
)
def test_malformed_query_parameters_are_400(c: TestClient, query: str, words: str) -> None:
    gid, _, _ = _game(c)
    t = time.monotonic()
    _error(c.get(f"/api/games/{gid}?{query}"), 400, words)
    assert time.monotonic() - t < 2  # refused before any wait


@pytest.mark.parametrize("path", ["replay", "map.svg"])
def test_step_parameters_are_bounded(c: TestClient, path: str) -> None:
    gid, _, _ = _game(c)
    _error(c.get(f"/api/games/{gid}/{path}?step=" + "9" * 19), 400, "at most 18 digits")
    r = c.get(f"/api/games/{gid}/{path}?step=" + "9" * 18)  # in bounds for the app: the service decides
    assert r.status_code < 500, r.text[:200]


def test_flags_accept_the_usual_spellings(c: TestClient) -> None:
    gid, _, _ = _game(c)
    for v in ("1", "true", "YES", "on", "0", "false", "no", "off", ""):
        assert c.get(f"/api/games/{gid}?svg={v}").status_code == 200, v
    assert "svg" in c.get(f"/api/games/{gid}?svg=true").json()
    assert "svg" not in c.get(f"/api/games/{gid}?svg=off").json()


# -- point 6: cross-site requests ----------------------------------------------------------------


@pytest.mark.parametrize(
    "ctype", ["text/plain", "application/x-www-form-urlencoded", None, "application/jsonx"]
)
def test_json_bodies_must_say_they_are_json(c: TestClient, ctype: str | None) -> None:
    # A page of another site may send text/plain or a form without a preflight, never JSON.
    before = _count(c)
    headers = {"Content-Type": ctype} if ctype else {}
    _error(c.post("/api/games", content='{"mode": "hotseat"}', headers=headers), 415, "application/json")
    assert _count(c) == before
    r = c.post(
        "/api/games",
        content='{"mode": "hotseat"}',
        headers={"Content-Type": "Application/JSON; charset=utf-8"},
    )
    assert r.status_code == 201, r.text


@pytest.mark.parametrize(
    "origin",
    ["http://evil.example", "null", "http://testserver.evil.example", "http://testserver:8080", "garbage"],
)
def test_a_change_from_another_site_is_403(c: TestClient, origin: str) -> None:
    gid, tok, v = _game(c)
    before = _count(c)
    hdr = {"Origin": origin}
    _error(c.post("/api/games", json={"mode": "hotseat"}, headers=hdr), 403, "cross-site")
    r = c.post(
        f"/api/games/{gid}/actions",
        json={"action": "setup standard", "seen": v},
        headers={**hdr, "X-Typhoon-Token": tok},
    )
    _error(r, 403, "cross-site")
    files = {"file": ("g.txt", b'[Game "bfm"]\n', "text/plain")}
    _error(c.post("/api/records", files=files, headers=hdr), 403, "cross-site")
    _error(
        c.post("/api/records", content=b'[Game "bfm"]\n', headers={**hdr, "Content-Type": "text/plain"}), 403
    )
    assert _count(c) == before and c.get(f"/api/games/{gid}").json()["version"] == v
    # Reading stays open (another site cannot read the answers without CORS anyway).
    assert c.get(f"/api/games/{gid}", headers=hdr).status_code == 200


def test_the_servers_own_pages_may_change_games(c: TestClient) -> None:
    for origin in ("http://testserver", "http://TESTSERVER:80", "http://testserver/"):
        r = c.post("/api/games", json={"mode": "hotseat"}, headers={"Origin": origin})
        assert r.status_code == 201, (origin, r.text)
    r = c.post(
        "/api/games",
        json={"mode": "hotseat"},
        headers={"Origin": "http://localhost:8000", "Host": "localhost:8000"},
    )
    assert r.status_code == 201, r.text
    # The upload form of the lobby (multipart, same origin) still works.
    record = c.get(f"/api/games/{r.json()['id']}/record").content
    r = c.post(
        "/api/records",
        files={"file": ("g.txt", record, "text/plain")},
        headers={"Origin": "http://testserver"},
    )
    assert r.status_code == 201, r.text


def test_configured_origins_are_allowed(tmp_path: Path) -> None:
    app = create_app(tmp_path / "data", resume=False, allowed_origins=["https://Games.Example/"])
    with TestClient(app) as c:
        r = c.post("/api/games", json={"mode": "hotseat"}, headers={"Origin": "https://games.example"})
        assert r.status_code == 201, r.text
        _error(
            c.post("/api/games", json={"mode": "hotseat"}, headers={"Origin": "https://other.example"}), 403
        )


@pytest.mark.parametrize("path", ["/", "/api/games", "/static/common.js", "/healthz"])
def test_a_foreign_host_name_is_421(c: TestClient, path: str) -> None:
    # DNS rebinding: a page of evil.example, its name now resolving to 127.0.0.1, sends its own name.
    r = c.get(path, headers={"Host": "evil.example:8000"})
    assert r.status_code == 421 and r.json()["status"] == 421 and "--allow-host" in r.json()["error"]
    before = _count(c)
    r = c.post(
        "/api/games",
        json={"mode": "hotseat"},
        headers={"Host": "evil.example", "Origin": "http://evil.example"},
    )
    assert r.status_code == 421 and _count(c) == before


@pytest.mark.parametrize(
    "host",
    [
        "localhost:8000",
        "LOCALHOST",
        "127.0.0.1:8000",
        "[::1]:8000",
        "[::1]",
        "192.168.1.20:8000",
        "localhost.",
    ],
)
def test_the_servers_own_names_and_addresses_are_answered(c: TestClient, host: str) -> None:
    assert c.get("/api/games", headers={"Host": host}).status_code == 200


@pytest.mark.parametrize("host", ["[::1", "a:b:c", "localhost:80x", "[::1]x", ":80"])
def test_a_malformed_host_is_400(c: TestClient, host: str) -> None:
    _error(c.get("/api/games", headers={"Host": host}), 400, "Host")


def test_configured_host_names_are_answered(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "data", resume=False, allowed_hosts=["Games.Example"])) as c:
        assert c.get("/api/games", headers={"Host": "games.example:8000"}).status_code == 200
        assert c.get("/api/games", headers={"Host": "evil.example"}).status_code == 421


def test_production_defaults_refuse_a_name_the_test_client_uses(tmp_path: Path) -> None:
    """TestClient's 'testserver' is accepted only because the ASGI scope names it as the server;
    under uvicorn the scope holds the socket's IP address, so the name is refused."""
    app = create_app(tmp_path / "data", resume=False)

    async def call(host: bytes) -> int:
        sent: list[Any] = []

        async def receive() -> Any:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(m: Any) -> None:
            sent.append(m)

        scope = {
            "type": "http", "method": "GET", "path": "/healthz", "raw_path": b"/healthz", "root_path": "",
            "scheme": "http", "query_string": b"", "headers": [(b"host", host)], "client": ("127.0.0.1", 5000),
            "server": ("127.0.0.1", 8000), "http_version": "1.1",
        }  # fmt: skip
        await app(scope, receive, send)
        return int(sent[0]["status"])

    assert run_in_own_thread(lambda: asyncio.run(call(b"testserver"))) == 421
    assert run_in_own_thread(lambda: asyncio.run(call(b"127.0.0.1:8000"))) == 200


@pytest.mark.parametrize("path", ["/api/games/", "/static", "/g/abc/", "/healthz/"])
def test_no_redirect_names_the_host(c: TestClient, path: str) -> None:
    # Starlette's trailing-slash redirect built its Location from the Host header.
    r = c.get(path, headers={"Host": "127.0.0.1:9"}, follow_redirects=False)
    assert r.status_code == 404 and "location" not in r.headers


# -- point 6: slow clients and server settings ----------------------------------------------------


def test_a_body_that_does_not_arrive_is_408(tmp_path: Path) -> None:
    app = create_app(tmp_path / "data", resume=False, body_timeout=0.3)

    async def call() -> tuple[int, bytes, float]:
        sent: list[Any] = []
        parts = [{"type": "http.request", "body": b'{"mode": ', "more_body": True}]

        async def receive() -> Any:
            if parts:
                return parts.pop()
            await asyncio.sleep(30)  # the rest never comes
            return {"type": "http.disconnect"}

        async def send(m: Any) -> None:
            sent.append(m)

        scope = {
            "type": "http", "method": "POST", "path": "/api/games", "raw_path": b"/api/games", "root_path": "",
            "scheme": "http", "query_string": b"", "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8000),
            "headers": [(b"host", b"127.0.0.1:8000"), (b"content-type", b"application/json")], "http_version": "1.1",
        }  # fmt: skip
        t = time.monotonic()
        await asyncio.wait_for(app(scope, receive, send), 5)
        return int(sent[0]["status"]), b"".join(m.get("body", b"") for m in sent[1:]), time.monotonic() - t

    status, body, took = run_in_own_thread(lambda: asyncio.run(call()))
    assert status == 408 and json.loads(body)["status"] == 408, body
    assert took < 2


def test_server_settings_bound_connections_and_headers() -> None:
    from typhoon.cli.serve import HEAD_TIMEOUT, MAX_CONNECTIONS, server_config

    config = server_config(create_app_stub(), max_connections=7)
    assert config.limit_concurrency == 7 and MAX_CONNECTIONS >= 1
    assert config.timeout_keep_alive <= 10
    assert config.h11_max_incomplete_event_size == 16 * 1024
    assert getattr(config.http, "head_timeout", None) == HEAD_TIMEOUT <= 30


def create_app_stub() -> Any:
    async def app(scope: Any, receive: Any, send: Any) -> None:  # pragma: no cover - never called
        raise AssertionError

    return app


def test_tokens_are_redacted_from_the_access_log() -> None:
    from typhoon.cli.serve import install_log_redaction, redact

    logger = logging.getLogger("uvicorn.access")
    install_log_redaction()
    install_log_redaction()  # idempotent
    seen: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record.getMessage())

    handler = Keep()
    logger.addHandler(handler)
    old = logger.level
    logger.setLevel(logging.INFO)
    try:
        # The call uvicorn's h11 protocol makes for every answer.
        for path in (
            "/api/games/x?after=3&token=SECRET1&wait=1",
            "/api/games/x?Tok%65n=SECRET2",
            "/a?token=SECRET3",
        ):
            logger.info('%s - "%s %s HTTP/%s" %d', "127.0.0.1:5000", "GET", path, "1.1", 200)
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old)
    assert len(seen) == 3 and not any("SECRET" in s for s in seen), seen
    assert "after=3&token=[redacted]&wait=1" in seen[0]
    assert redact("/x?mytoken=a&tokens=b") == "/x?mytoken=a&tokens=b"


def test_a_real_server_redacts_tokens_and_drops_a_slow_header(tmp_path: Path) -> None:
    """uvicorn itself (loopback): its access log has no token, and a client trickling its
    request head is disconnected after the head timeout."""
    import uvicorn

    from typhoon.cli.serve import server_config

    app = create_app(tmp_path / "data", resume=False)
    config = server_config(app, log_level="info")
    config.http.head_timeout = 0.5  # type: ignore[union-attr]
    seen: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record.getMessage())

    handler = Keep()
    logging.getLogger("uvicorn.access").addHandler(handler)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        assert server.started
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            s.sendall(b"GET /healthz?token=SECRET HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            answer = b""
            while chunk := s.recv(4096):
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 200"), answer
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            t = time.monotonic()
            s.sendall(b"GET /healthz HTTP/1.1\r\nHo")  # and nothing more
            assert s.recv(4096) == b""  # closed by the server
            assert time.monotonic() - t < 4
    finally:
        server.should_exit = True
        thread.join(10)
        logging.getLogger("uvicorn.access").removeHandler(handler)
        sock.close()
    logged = [m for m in seen if "/healthz" in m]
    assert logged and not any("SECRET" in m for m in logged), seen


# -- point 6: long polls ----------------------------------------------------------------------------


def test_a_long_poll_wakes_when_its_game_left_the_cache(
    c: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typhoon.web import service as service_module

    gid, tok, v = _game(c)
    out: dict[str, Any] = {}

    def poll() -> None:
        t = time.monotonic()
        out["r"] = c.get(f"/api/games/{gid}?after={v}&wait=20")
        out["took"] = time.monotonic() - t

    waiter = threading.Thread(target=poll)
    waiter.start()
    time.sleep(0.3)
    monkeypatch.setattr(service_module, "MAX_SESSIONS", 1)
    _game(c)  # the polled game leaves the live cache
    assert gid not in getattr(c.app.state.service, "_sessions", {})  # type: ignore[attr-defined]
    r = c.post(
        f"/api/games/{gid}/actions",
        json={"action": "setup standard", "seen": v},
        headers={"X-Typhoon-Token": tok},
    )
    assert r.status_code == 200, r.text
    waiter.join(25)
    assert out["r"].status_code == 200 and out["r"].json()["version"] > v
    assert out["took"] < 10


def test_serve_options_and_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from typhoon.cli import build_parser

    monkeypatch.setenv("TYPHOON_ALLOW_HOSTS", "a.example, b.example")
    monkeypatch.setenv("TYPHOON_ALLOW_ORIGINS", "https://c.example")
    args = build_parser().parse_args(["serve", "--allow-host", "d.example", "--max-connections", "9"])
    assert args.allow_host == ["a.example", "b.example", "d.example"]
    assert args.allow_origin == ["https://c.example"]
    assert args.max_connections == 9 and args.body_timeout > 0
