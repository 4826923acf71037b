"""The Starlette application: JSON API under ``/api``, the browser client under ``/`` and ``/g/ID``.

See docs/API.md for every route. Errors are JSON ``{"error": message, ...}`` with the status
telling what went wrong: 400 malformed request, 403 not your side (or not your game, or a
cross-site request), 404 unknown game, 408 a body that did not arrive in time, 409 stale position
(with the current one), 415 a JSON body not sent as ``application/json``, 421 a Host name that is
not this server's, 422 an action or preview the rules refuse, 500 a server fault.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import re
import time
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.formparsers import MultiPartException
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from typhoon.record import MAX_RECORD_BYTES
from typhoon.web.service import AI_TIME_LIMIT, ApiError, GameService
from typhoon.web.storage import Store

log = logging.getLogger("typhoon.web")

STATIC = Path(__file__).parent / "static"
MAX_BODY = 64_000  # JSON requests (records are uploaded separately)
MAX_UPLOAD = MAX_RECORD_BYTES + MAX_BODY  # a record with its JSON or multipart wrapping
RECORD_FIELDS = ("mode", "side", "level")  # what may come with an uploaded record
MAX_WAIT = 30.0  # seconds a long poll may wait
POLL_TICK = 0.025  # how often a waiting long poll looks at the game's version
BODY_TIMEOUT = 30.0  # seconds a request body may take to arrive (slow clients get 408)
MAX_DEPTH = 20  # nesting of a JSON body (the API's own bodies nest two levels)
MAX_DIGITS = 18  # digits of an integer the app reads (fits 64 bits)
# Digits of any integer in a JSON body: far below Python's int-string limit (4300), and enough for
# the service to name the field whose value is out of range (a seed of 30 digits, say).
MAX_JSON_DIGITS = 100
# Names the server answers to besides IP literals (a DNS-rebinding page always sends its own name).
DEFAULT_HOSTS = ("localhost",)
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")

PAGE_HEADERS = {
    "Cache-Control": "no-cache",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}


class _Static(StaticFiles):
    """Static files, revalidated on every load (so a new version of the client is picked up)."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        resp = super().file_response(*args, **kwargs)
        resp.headers.update(PAGE_HEADERS)
        return resp


# A line ``<!-- include parts/NAME.html -->`` in a page stands for that file: the pieces both game
# pages share are written once.
_INCLUDE = re.compile(r"^[ \t]*<!-- include (parts/[\w.-]+\.html) -->\n", re.MULTILINE)


def _page_text(name: str) -> str:
    """A page of static/ with its include lines filled in (read on every load, like the
    static files, so a new version of the client is picked up)."""
    text = (STATIC / name).read_text(encoding="utf-8")
    return _INCLUDE.sub(lambda m: (STATIC / m.group(1)).read_text(encoding="utf-8"), text)


def _token(request: Request, body: dict[str, Any] | None = None) -> str | None:
    t = request.headers.get("x-typhoon-token")
    if not t and body is not None and isinstance(body.get("token"), str):
        t = body["token"]
    if not t:
        t = request.query_params.get("token")
    return t or None


async def _read_body(request: Request, limit: int, too_big: str) -> bytes:
    """The request body, refused (400, ``too_big``) as soon as it is known to be over ``limit``
    bytes: from its Content-Length, or while it arrives (nothing past the limit is kept); 408 if
    it has not all arrived within the app's body timeout (a slow client holds no worker)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and (len(declared) > MAX_DIGITS or int(declared) > limit):
        raise ApiError(400, too_big)

    async def read() -> bytes:
        chunks: list[bytes] = []
        size = 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise ApiError(400, too_big)
            chunks.append(chunk)
        return b"".join(chunks)

    timeout = getattr(request.app.state, "body_timeout", BODY_TIMEOUT)
    try:
        return await asyncio.wait_for(read(), timeout)
    except TimeoutError:
        raise ApiError(408, f"the request body did not arrive within {timeout:g} s") from None


def _json_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_JSON_DIGITS:
        raise ApiError(400, f"the request body has an integer of more than {MAX_JSON_DIGITS} digits")
    return int(digits)


def _json_constant(name: str) -> Any:
    raise ApiError(400, f"the request body is not valid JSON: {name} is not a JSON value")


def _check_value(body: dict[str, Any]) -> None:
    """Refuse a body nested more than MAX_DEPTH levels, or holding strings that are not Unicode
    text (a lone surrogate from a ``\\ud800`` escape cannot be stored, logged or sent back as
    UTF-8). A token is exempt from the text check: it is only compared, never stored nor sent
    back, and whatever its characters a wrong one is refused (403) like any other."""
    stack: list[tuple[Any, int]] = [(v, 1) for k, v in body.items() if k != "token"]
    stack += [(k, 1) for k in body]
    while stack:
        v, depth = stack.pop()
        if isinstance(v, str):
            try:
                v.encode("utf-8")
            except UnicodeEncodeError:
                raise ApiError(
                    400, "the request body has a string that is not Unicode text (a lone surrogate)"
                ) from None
        elif isinstance(v, (dict, list)):
            if depth >= MAX_DEPTH:
                raise ApiError(400, f"the request body nests more than {MAX_DEPTH} levels deep")
            items = [*v.keys(), *v.values()] if isinstance(v, dict) else v
            stack.extend((x, depth + 1) for x in items)


def _parse_json(raw: bytes) -> dict[str, Any]:
    """A JSON object from UTF-8 bytes, within the depth and integer limits, all text Unicode."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ApiError(400, "the request body is not UTF-8 text") from None
    if not text.strip():
        raise ApiError(400, "the request body is empty; send a JSON object")
    try:
        body = json.loads(text, parse_int=_json_int, parse_constant=_json_constant)
    except json.JSONDecodeError as exc:
        raise ApiError(400, f"the request body is not valid JSON: {exc}") from None
    except RecursionError:  # the parser recurses once per level: far deeper than allowed
        raise ApiError(400, f"the request body nests more than {MAX_DEPTH} levels deep") from None
    if not isinstance(body, dict):
        raise ApiError(400, "the request body must be a JSON object")
    _check_value(body)
    return body


def _media_type(request: Request) -> str:
    return request.headers.get("content-type", "").split(";", 1)[0].strip().lower()


async def _json_body(request: Request, limit: int = MAX_BODY) -> dict[str, Any]:
    # A JSON body must say so: a page on another site can send text/plain (or a form) without
    # asking first, but not application/json. (Its size is refused first, as it is known first.)
    raw = await _read_body(request, limit, f"the request body is larger than {limit} bytes")
    if _media_type(request) != "application/json":
        raise ApiError(415, "send the request body as JSON with 'Content-Type: application/json'")
    return _parse_json(raw)


_INT = re.compile(rf"-?[0-9]{{1,{MAX_DIGITS}}}")
_FLAGS = {
    "1": True,
    "true": True,
    "yes": True,
    "on": True,
    "0": False,
    "false": False,
    "no": False,
    "off": False,
}


def _int(value: Any, name: str) -> int | None:
    """An optional integer: a JSON integer, or the digits of a query parameter (None if absent)."""
    if value is None or value == "":
        return None
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 10**MAX_DIGITS:
        return value
    if isinstance(value, str) and _INT.fullmatch(value):
        return int(value)
    shown = value if not isinstance(value, str) or len(value) <= 40 else value[:40] + "..."
    raise ApiError(400, f"'{name}' must be an integer of at most {MAX_DIGITS} digits, not {shown!r}")


def _flag(request: Request, name: str) -> bool:
    """A yes/no query parameter (absent or empty is no)."""
    v = request.query_params.get(name)
    if v is None or v == "":
        return False
    flag = _FLAGS.get(v.lower())
    if flag is None:
        raise ApiError(400, f"'{name}' must be 1 or 0 (true or false), not {v[:40]!r}")
    return flag


def _seen(body: dict[str, Any]) -> int:
    """The version the request has seen (required by every change)."""
    seen = _int(body.get("seen"), "seen")
    if seen is None:
        raise ApiError(400, "'seen' is required")
    return seen


def _action_texts(body: dict[str, Any]) -> list[str]:
    if "actions" in body:
        texts = body["actions"]
        if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
            raise ApiError(400, "'actions' must be a list of action texts")
        return texts
    if "action" in body:
        if not isinstance(body["action"], str):
            raise ApiError(400, "'action' must be a string such as 'move XXIV 0409-0608'")
        return [body["action"]]
    raise ApiError(400, "give 'action' (one action text) or 'actions' (a list)")


async def _uploaded_record(request: Request) -> tuple[str, dict[str, Any]]:
    """The record's text and the fields sent with it (mode, side, level), from a multipart
    form, a JSON object or a plain-text body (fields in the query)."""
    ctype = request.headers.get("content-type", "")
    too_big = f"the record is larger than {MAX_RECORD_BYTES} bytes"
    if ctype.startswith("application/json"):
        body = await _json_body(request, MAX_UPLOAD)
        text = body.get("record")
        if not isinstance(text, str):
            raise ApiError(400, "give the record's text as 'record'")
        if len(text.encode("utf-8", "surrogatepass")) > MAX_RECORD_BYTES:
            raise ApiError(400, too_big)
        return text, {k: body[k] for k in RECORD_FIELDS if k in body}
    if not ctype.startswith("multipart/form-data"):
        raw = await _read_body(request, MAX_RECORD_BYTES, too_big)
        return _decode_record(raw), {k: v for k, v in request.query_params.items() if k in RECORD_FIELDS}
    raw = await _read_body(request, MAX_UPLOAD, too_big)

    async def receive() -> Message:  # the form parser reads the body already read (and bounded)
        return {"type": "http.request", "body": raw, "more_body": False}

    try:
        form = await Request(request.scope, receive).form(
            max_files=1, max_fields=20, max_part_size=MAX_UPLOAD
        )
    except (HTTPException, MultiPartException) as exc:
        why = exc.detail if isinstance(exc, HTTPException) else exc.message
        raise ApiError(400, f"cannot read the uploaded form: {why}") from None
    try:
        f = form.get("file") or form.get("record")
        if f is None:
            raise ApiError(400, "the form has no 'file' field holding the record")
        data = f.encode("utf-8") if isinstance(f, str) else await f.read(MAX_RECORD_BYTES + 1)
        if len(data) > MAX_RECORD_BYTES:
            raise ApiError(400, too_big)
        return _decode_record(data), {k: v for k in RECORD_FIELDS if isinstance(v := form.get(k), str)}
    finally:
        await form.close()


def _decode_record(raw: bytes) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ApiError(400, "the record is not UTF-8 text") from None


def _split_host(value: str) -> tuple[str, int | None] | None:
    """``name[:port]`` (``[v6]:port`` for IPv6) as (lower-case name, port), None if malformed."""
    name, port = value.strip().lower(), ""
    if name.startswith("["):
        end = name.find("]")
        if end < 0:
            return None
        name, rest = name[1:end], name[end + 1 :]
        if rest:
            if not rest.startswith(":"):
                return None
            port = rest[1:]
    elif name.count(":") == 1:
        name, port = name.split(":")
    elif ":" in name:
        return None
    if port and not (port.isdigit() and len(port) <= 5):
        return None
    name = name.rstrip(".")
    return (name, int(port) if port else None) if name else None


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class _SameSite:
    """Refuses what a page of another site could send (ASGI middleware, before any route):

    - a Host name that is not this server's (421): a DNS-rebinding page reaches a loopback
      server under its own name. IP literals, ``localhost``, the address the server reports for
      the connection and the configured names are this server's (``*`` allows any);
    - a change (POST...) whose ``Origin`` is neither this server (the Host it was sent to) nor
      a configured origin (403). Requests without Origin (curl, scripts) are not cross-site.
    """

    def __init__(self, app: ASGIApp, hosts: Iterable[str], origins: Iterable[str]) -> None:
        self.app = app
        self.hosts = frozenset(h.strip().lower().strip("[]").rstrip(".") for h in hosts if h.strip())
        self.origins = frozenset(o.strip().lower().rstrip("/") for o in origins if o.strip())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            refused = self._refusal(scope)
            if refused is not None:
                status, message = refused
                await JSONResponse({"error": message, "status": status}, status_code=status)(
                    scope, receive, send
                )
                return
        await self.app(scope, receive, send)

    def _refusal(self, scope: Scope) -> tuple[int, str] | None:
        headers = Headers(scope=scope)
        host_header = headers.get("host")
        host = _split_host(host_header) if host_header is not None else None
        if host_header is not None:
            if host is None:
                return 400, "the Host header is malformed"
            server = scope.get("server")
            own = server[0].lower() if server else None
            if not (_is_ip(host[0]) or host[0] in self.hosts or host[0] == own or "*" in self.hosts):
                shown = host[0] if len(host[0]) <= 60 else host[0][:60] + "..."
                return 421, (
                    f"this server does not answer to the name {shown!r}; use its address (such as "
                    f"127.0.0.1), or start it with --allow-host {shown}"
                )
        if scope["method"] in SAFE_METHODS:
            return None
        origin = headers.get("origin")
        if origin is None or origin.lower().rstrip("/") in self.origins or "*" in self.origins:
            return None
        if host is not None and _same_origin(origin, host):
            return None
        shown = origin if len(origin) <= 80 else origin[:80] + "..."
        return 403, (
            f"cross-site request refused: the page at {shown!r} is not this server; start the server "
            f"with --allow-origin to allow another site"
        )


def _same_origin(origin: str, host: tuple[str, int | None]) -> bool:
    """Whether ``Origin`` names the host (and port) the request was sent to."""
    try:
        parts = urlsplit(origin)
        port = parts.port
    except ValueError:
        return False
    default = {"http": 80, "https": 443}.get(parts.scheme)
    if default is None or parts.hostname is None:
        return False  # "null" (a sandboxed or file page), or no web origin at all
    name = parts.hostname.rstrip(".")
    return name == host[0] and (port or default) == (host[1] or default)


def create_app(
    data_dir: str | Path | None = None,
    *,
    ai_delay: float = 0.0,
    resume: bool = True,
    allowed_hosts: Iterable[str] = (),
    allowed_origins: Iterable[str] = (),
    body_timeout: float = BODY_TIMEOUT,
    ai_time_limit: float | None = AI_TIME_LIMIT,
    default_game: str | None = None,
    default_edition: str | None = None,
) -> Starlette:
    """The web app storing its games in ``data_dir`` (default ./data).

    ``allowed_hosts``: names the server answers to besides IP literals and ``localhost``;
    ``allowed_origins``: other sites (``https://example.org``) whose pages may change games;
    ``body_timeout``: seconds a request body may take to arrive;
    ``ai_time_limit``: seconds a search level may think over one decision (None: its own budget);
    ``default_game``, ``default_edition``: what the lobby offers first (any registered game).
    """
    store = Store(data_dir if data_dir is not None else "data")
    service = GameService(
        store,
        ai_delay=ai_delay,
        ai_time_limit=ai_time_limit,
        default_game=default_game,
        default_edition=default_edition,
    )

    # -- pages ------------------------------------------------------------------------------

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers=PAGE_HEADERS)

    async def game_page(request: Request) -> Response:
        # One client page plays every game from the game's views (an unknown game id gets the
        # same page, which says the game is not found).
        return HTMLResponse(await run_in_threadpool(_page_text, "board.html"), headers=PAGE_HEADERS)

    async def health(request: Request) -> Response:
        return JSONResponse({"ok": True})

    # -- API --------------------------------------------------------------------------------

    async def meta(request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(service.meta))

    async def list_games(request: Request) -> Response:
        return JSONResponse({"games": await run_in_threadpool(service.list_games)})

    async def create_game(request: Request) -> Response:
        body = await _json_body(request)
        out = await run_in_threadpool(service.create, body)
        return JSONResponse(out, status_code=201)

    async def get_game(request: Request) -> Response:
        gid = request.path_params["gid"]
        q = request.query_params
        after = _int(q.get("after"), "after")
        wait = min(float(_int(q.get("wait"), "wait") or 0), MAX_WAIT)
        flags = {k: _flag(request, k) for k in ("svg", "numbers", "legal")}  # 400 before any wait
        await run_in_threadpool(service.session, gid)  # 404 (or 410) before any wait
        if after is not None and wait > 0:
            # The service's version survives the session leaving its cache (the session's own
            # row would stop changing, and the poll would wait to its deadline). It is a dict
            # lookup under a short lock once service.session has seen the game, as it just has.
            deadline = time.monotonic() + wait
            while service.version(gid) == after and time.monotonic() < deadline:
                await asyncio.sleep(POLL_TICK)
                if await request.is_disconnected():
                    return Response(status_code=204)
        out = await run_in_threadpool(
            service.view,
            gid,
            _token(request),
            **flags,
        )
        return JSONResponse(out)

    async def delete_game(request: Request) -> Response:
        # The secret link's token in the header (a DELETE carries no body).
        out = await run_in_threadpool(service.delete, request.path_params["gid"], _token(request))
        return JSONResponse(out)

    async def legal(request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(service.legal, request.path_params["gid"]))

    async def preview(request: Request) -> Response:
        q = request.query_params
        target = q.get("target")
        if not target:
            raise ApiError(400, "'target' (the defender's hex) is required")
        attackers = [a for a in (q.get("attackers") or "").split(",") if a]
        return JSONResponse(
            await run_in_threadpool(service.preview, request.path_params["gid"], target, attackers)
        )

    async def overlays(request: Request) -> Response:
        q = request.query_params
        step = _int(q.get("step"), "step")
        gid = request.path_params["gid"]
        return JSONResponse(await run_in_threadpool(service.overlays, gid, q.get("side") or None, step))

    async def reference(request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(service.rules_reference, request.path_params["gid"]))

    async def message(request: Request) -> Response:
        body = await _json_body(request)
        gid = request.path_params["gid"]
        out = await run_in_threadpool(service.post_message, gid, _token(request, body), body.get("text"))
        return JSONResponse(out)

    async def hex_info(request: Request) -> Response:
        hid = request.query_params.get("hex")
        if not hid:
            raise ApiError(400, "'hex' (CCRR) is required")
        return JSONResponse(await run_in_threadpool(service.hex_info, request.path_params["gid"], hid))

    async def change(
        request: Request, call: Callable[..., dict[str, Any]], *read: Callable[[dict[str, Any]], Any]
    ) -> Response:
        """A request that changes the game: ``call`` is service.act or service.undo, given the
        game, the token, what the ``read`` functions take from the body, and ``seen``."""
        gid = request.path_params["gid"]
        await run_in_threadpool(service.session, gid)  # 404 before anything else
        body = await _json_body(request)
        args = [f(body) for f in read]
        out = await run_in_threadpool(
            call,
            gid,
            _token(request, body),
            *args,
            _seen(body),
            svg=bool(body.get("svg")),
            legal=bool(body.get("legal")),
        )
        return JSONResponse(out)

    async def actions(request: Request) -> Response:
        return await change(request, service.act, _action_texts)

    async def undo(request: Request) -> Response:
        return await change(request, service.undo)

    async def record(request: Request) -> Response:
        gid = request.path_params["gid"]
        text = await run_in_threadpool(service.record_text, gid)
        return PlainTextResponse(
            text,
            headers={"Content-Disposition": f'attachment; filename="typhoon-{gid}.txt"'},
        )

    async def game_log(request: Request) -> Response:
        return JSONResponse({"log": await run_in_threadpool(service.full_log, request.path_params["gid"])})

    async def replay(request: Request) -> Response:
        q = request.query_params
        step = _int(q.get("step"), "step")
        out = await run_in_threadpool(
            service.replay_step, request.path_params["gid"], step, numbers=_flag(request, "numbers")
        )
        return JSONResponse(out)

    async def map_svg(request: Request) -> Response:
        q = request.query_params
        step = _int(q.get("step"), "step")
        svg = await run_in_threadpool(
            service.map_svg, request.path_params["gid"], step, numbers=_flag(request, "numbers")
        )
        return Response(svg, media_type="image/svg+xml")

    async def upload(request: Request) -> Response:
        text, params = await _uploaded_record(request)
        if not text.strip():
            raise ApiError(400, "the record is empty")
        out = await run_in_threadpool(service.upload, text, params)
        return JSONResponse(out, status_code=201)

    # -- errors -----------------------------------------------------------------------------

    async def api_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ApiError)
        return JSONResponse({"error": exc.message, "status": exc.status, **exc.extra}, status_code=exc.status)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": exc.detail, "status": exc.status_code}, status_code=exc.status_code)
        return PlainTextResponse(f"{exc.status_code} {exc.detail}", status_code=exc.status_code)

    async def server_error(request: Request, exc: Exception) -> Response:
        # The details (and the traceback) go to the log, never to the user.
        log.exception("unexpected error on %s", request.url.path, exc_info=exc)
        return JSONResponse(
            {"error": "server error: the request failed on the server (the fault is logged)", "status": 500},
            status_code=500,
        )

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if resume:
            await run_in_threadpool(service.resume)
        try:
            yield
        finally:
            await run_in_threadpool(service.close)
            store.close()

    g = "/api/games/{gid:str}"
    routes = [
        Route("/", index),
        Route("/g/{gid:str}", game_page),
        Route("/healthz", health),
        Route("/api/meta", meta),
        Route("/api/games", list_games, methods=["GET"]),
        Route("/api/games", create_game, methods=["POST"]),
        Route(g, get_game),
        Route(g, delete_game, methods=["DELETE"]),
        Route(g + "/legal", legal),
        Route(g + "/preview", preview),
        Route(g + "/hex", hex_info),
        Route(g + "/overlays", overlays),
        Route(g + "/reference", reference),
        Route(g + "/actions", actions, methods=["POST"]),
        Route(g + "/undo", undo, methods=["POST"]),
        Route(g + "/messages", message, methods=["POST"]),
        Route(g + "/record", record),
        Route(g + "/log", game_log),
        Route(g + "/replay", replay),
        Route(g + "/map.svg", map_svg),
        Route("/api/records", upload, methods=["POST"]),
        Mount("/static", _Static(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        middleware=[
            Middleware(_SameSite, hosts=(*DEFAULT_HOSTS, *allowed_hosts), origins=allowed_origins),
            Middleware(GZipMiddleware, minimum_size=2000, compresslevel=5),
        ],
        exception_handlers={ApiError: api_error, HTTPException: http_error, Exception: server_error},
        lifespan=lifespan,
    )
    # No redirect (Starlette's adds or drops a trailing slash) that would name the request's Host.
    app.router.redirect_slashes = False
    app.state.service = service
    app.state.store = store
    app.state.body_timeout = body_timeout
    return app
