"""Every endpoint under hostile input (issue 10 items 2 and 7): hypothesis sends requests with
random and malicious paths, query parameters, headers and bodies (deep nesting, integers of
thousands of digits, lone surrogates, invalid UTF-8, wrong content types, foreign origins) to
every route of a server holding live games of both games, and checks that no answer is a 5xx,
that every API error is a JSON object with an ``error``, and that every game still opens
afterwards. ``make test`` tries a few hundred requests; ``make soak`` at least 5,000
(TYPHOON_FUZZ_CASES)."""

from __future__ import annotations

import json
import urllib.parse
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .fuzzing import (
    CONTENT_TYPES,
    HOSTILE_BODIES,
    HOSTILE_VALUES,
    ORIGINS,
    Tally,
    cases,
    json_error,
    json_values,
    nasty_text,
    raw_bodies,
    web_client,
)

ROUTES: list[tuple[str, str]] = [
    ("GET", "/"),
    ("GET", "/g/{gid}"),
    ("GET", "/healthz"),
    ("GET", "/api/meta"),
    ("GET", "/api/games"),
    ("POST", "/api/games"),
    ("GET", "/api/games/{gid}"),
    ("GET", "/api/games/{gid}/legal"),
    ("GET", "/api/games/{gid}/preview"),
    ("GET", "/api/games/{gid}/hex"),
    ("POST", "/api/games/{gid}/actions"),
    ("POST", "/api/games/{gid}/undo"),
    ("GET", "/api/games/{gid}/record"),
    ("GET", "/api/games/{gid}/log"),
    ("GET", "/api/games/{gid}/replay"),
    ("GET", "/api/games/{gid}/map.svg"),
    ("POST", "/api/records"),
    ("GET", "/static/{gid}"),
]
QUERY_KEYS = ["after", "wait", "step", "svg", "numbers", "legal", "target", "attackers", "hex", "token"]
BODY_KEYS = [
    "mode",
    "side",
    "level",
    "game",
    "edition",
    "options",
    "scenario",
    "seed",
    "seen",
    "action",
    "actions",
    "token",
    "svg",
    "legal",
]


def _quote(text: str) -> str:
    # What a hostile client can put on the wire: any bytes, lone surrogates included.
    return urllib.parse.quote(text.encode("utf-8", "surrogatepass"), safe="")


@st.composite
def requests(draw: st.DrawFn, gids: list[str], tokens: list[str]) -> dict[str, Any]:
    method, path = draw(st.sampled_from(ROUTES))
    if draw(st.integers(0, 9)) == 0:
        method = draw(st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]))
    # httpx refuses URLs over 64 kB itself: keep each part of the URL to a few kB.
    short = nasty_text.map(lambda t: t[:3000])
    gid = draw(st.one_of(st.sampled_from(gids), short))
    path = path.replace("{gid}", _quote(gid))
    query = draw(
        st.dictionaries(
            st.sampled_from(QUERY_KEYS), short | st.sampled_from(["1", "0", "5", "0101"]), max_size=4
        )
    )
    if "wait" in query and not query.get("after"):
        query["after"] = "0"
    qs = "&".join(f"{_quote(k)}={_quote(v)}" for k, v in query.items())
    headers: dict[str, str] = {}
    ctype = draw(st.sampled_from(CONTENT_TYPES))
    if ctype:
        headers["content-type"] = ctype
    origin = draw(st.sampled_from(ORIGINS))
    if origin is not None:
        headers["origin"] = origin
    if draw(st.booleans()):
        headers["x-typhoon-token"] = draw(st.sampled_from(tokens) | st.text("abcdef0123456789", max_size=40))
    kind = draw(st.sampled_from(["none", "json", "object", "raw"]))
    body: bytes | None = None
    if kind == "json":
        body = json.dumps(draw(json_values)).encode("utf-8", "surrogatepass")
    elif kind == "object":
        obj = draw(st.dictionaries(st.sampled_from(BODY_KEYS), json_values, max_size=5))
        body = json.dumps(obj).encode("utf-8", "surrogatepass")
    elif kind == "raw":
        body = draw(raw_bodies)
    return {"method": method, "url": path + ("?" + qs if qs else ""), "headers": headers, "body": body}


def _setup_games(client: Any) -> tuple[list[str], list[str]]:
    gids, tokens = [], []
    for body in (
        {"mode": "hotseat"},
        {"mode": "remote", "side": "german"},
        {"mode": "ai", "side": "soviet", "level": "random"},
        {"mode": "hotseat", "game": "tmc"},
    ):
        r = client.post("/api/games", json=body)
        assert r.status_code == 201, r.text
        gids.append(r.json()["id"])
        tokens.append(r.json()["token"])
    return gids, tokens


def _fuzz(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, n: int) -> str:
    tally = Tally("endpoint fuzz")
    with web_client(tmp_path / "data") as client:
        from typhoon.web import app as web_app

        monkeypatch.setattr(web_app, "MAX_WAIT", 0.2)  # a long poll must not stall the fuzz
        gids, tokens = _setup_games(client)
        failures: list[str] = []

        @settings(
            max_examples=n,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(req=requests(gids, tokens))
        def one(req: dict[str, Any]) -> None:
            # Header values go as raw bytes: a hostile client is not bound to ASCII.
            raw = [(k.encode(), v.encode("utf-8", "surrogatepass")) for k, v in req["headers"].items()]
            resp = client.request(req["method"], req["url"], headers=raw, content=req["body"])
            tally.add(f"{resp.status_code // 100}xx")
            problem = ""
            if resp.status_code >= 500:
                problem = f"{resp.status_code} {resp.text[:200]}"
            elif resp.status_code >= 400 and "/api/" in req["url"]:
                err = json_error(resp)
                if err is None or not isinstance(err.get("error"), str):
                    problem = f"{resp.status_code} answer is not a JSON error: {resp.text[:200]!r}"
            if problem:
                failures.append(f"{req['method']} {req['url'][:120]}: {problem}")
                tally.add("_failed")
            assert not problem, failures[-1]

        try:
            one()
        finally:
            line = tally.report()
        # Nothing was lost: every game and the lobby still open.
        for gid in gids:
            r = client.get(f"/api/games/{gid}")
            assert r.status_code == 200, r.text
        assert client.get("/api/games").status_code == 200
        assert tally.counts["5xx"] == 0
        return line


def test_every_endpoint_answers_hostile_requests_without_a_server_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fuzz(tmp_path, monkeypatch, cases(300))


@pytest.mark.slow
def test_every_endpoint_soak_5000(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fuzz(tmp_path, monkeypatch, max(cases(5000), 5000))


def test_every_route_answers_every_hostile_body_and_parameter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The sweep behind the fuzz: each route meets each known-hostile body as JSON, and each
    query parameter each hostile value, so no class of input is left to chance."""
    tally = Tally("hostile sweep")
    with web_client(tmp_path / "data") as client:
        from typhoon.web import app as web_app

        monkeypatch.setattr(web_app, "MAX_WAIT", 0.2)
        gids, tokens = _setup_games(client)
        failures = []
        bodies = [b for b in HOSTILE_BODIES]
        values = [v[:3000] for v in HOSTILE_VALUES]
        for method, template in ROUTES:
            for gid in gids[:2] + ["nosuchgame"]:
                path = template.replace("{gid}", _quote(gid))
                reqs: list[tuple[str, dict[str, str], bytes | None]] = []
                if method == "POST":
                    reqs += [
                        (path, {"content-type": "application/json", "x-typhoon-token": tokens[0]}, b)
                        for b in bodies
                    ]
                for key in QUERY_KEYS:
                    reqs += [(f"{path}?after=0&{key}={_quote(v)}", {}, None) for v in values]
                for url, headers, body in reqs:
                    resp = client.request(method, url, headers=headers, content=body)
                    tally.add(f"{resp.status_code // 100}xx")
                    if resp.status_code >= 500 or (
                        resp.status_code >= 400 and "/api/" in url and json_error(resp) is None
                    ):
                        failures.append(
                            f"{method} {url[:100]} {(body or b'')[:60]!r}: {resp.status_code} {resp.text[:120]}"
                        )
        tally.report()
        assert not failures, "\n".join(failures[:20])
