"""``typhoon serve``: play in the browser (Starlette app run by uvicorn)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import re
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote_plus

from typhoon.cli.common import add_edition_option, add_game_option
from typhoon.errors import OptionError

if TYPE_CHECKING:
    import uvicorn

MAX_CONNECTIONS = 200  # connections (and requests in flight) at once; more are answered 503
KEEP_ALIVE = 5  # seconds an idle keep-alive connection stays open
HEAD_TIMEOUT = 10.0  # seconds a request's line and headers may take to arrive
MAX_HEAD = 16 * 1024  # bytes of a request's line and headers (h11's buffer)
BODY_TIMEOUT = 30.0  # seconds a request's body may take to arrive (the app answers 408)


def _names(value: str) -> list[str]:
    return [v.strip() for v in value.split(",") if v.strip()]


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "serve",
        help="play in the browser: start the web server and print its URL",
        description="Start the web server: every registered game in the browser, against the computer or "
        "another player. Prints the URL. --game and --edition choose what the lobby offers first.",
    )
    add_game_option(p)
    add_edition_option(p)
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 picks a free one)")
    p.add_argument(
        "--data",
        metavar="DIR",
        default=os.environ.get("TYPHOON_DATA", "data"),
        help="folder holding the games database (default ./data, or $TYPHOON_DATA)",
    )
    p.add_argument(
        "--ai-delay", type=float, default=0.0, metavar="SECONDS", help="pause after each AI action"
    )
    p.add_argument(
        "--log-level", default="warning", choices=["critical", "error", "warning", "info", "debug"]
    )
    p.add_argument(
        "--allow-host",
        metavar="NAME",
        action="append",
        default=_names(os.environ.get("TYPHOON_ALLOW_HOSTS", "")),
        help="a host name the server answers to (repeatable; also $TYPHOON_ALLOW_HOSTS, comma-separated). "
        "IP addresses, localhost and the --host name always are; other names are refused, against DNS rebinding "
        "(* allows any name)",
    )
    p.add_argument(
        "--allow-origin",
        metavar="URL",
        action="append",
        default=_names(os.environ.get("TYPHOON_ALLOW_ORIGINS", "")),
        help="another site (such as https://example.org) whose pages may create and play games here "
        "(repeatable; also $TYPHOON_ALLOW_ORIGINS); by default only this server's own pages may",
    )
    p.add_argument(
        "--max-connections",
        type=int,
        default=MAX_CONNECTIONS,
        metavar="N",
        help=f"connections served at once; more are answered 503 (default {MAX_CONNECTIONS})",
    )
    p.add_argument(
        "--body-timeout",
        type=float,
        default=BODY_TIMEOUT,
        metavar="SECONDS",
        help=f"time a request body may take to arrive; slower ones get 408 (default {BODY_TIMEOUT:g})",
    )
    p.add_argument(
        "--ai-time-limit",
        type=float,
        default=None,
        metavar="SECONDS",
        help="time a search level may think over one decision; 0 for the level's own budget (default 10)",
    )
    p.set_defaults(func=run)


# A query parameter of a logged path (a token may come as ``?token=``, its name even
# percent-encoded, as the app decodes it).
_PARAM = re.compile(r"([?&;])([^=&;#\s]*)=([^&;#\s]*)")


def _redact_param(m: re.Match[str]) -> str:
    if unquote_plus(m.group(2)).strip().lower() == "token":
        return f"{m.group(1)}{m.group(2)}=[redacted]"
    return m.group(0)


def redact(text: str) -> str:
    """``text`` with the value of every ``token=`` query parameter replaced."""
    return _PARAM.sub(_redact_param, text) if "=" in text else text


class RedactTokens(logging.Filter):
    """Replaces tokens in the request paths of access-log records (uvicorn logs the path with
    its query string as an argument of the record)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.msg, str):
            record.msg = redact(record.msg)
        return True


def install_log_redaction() -> None:
    """Redact tokens from uvicorn's access log (idempotent). Installed after uvicorn has
    configured its logging, on the logger and on each of its handlers."""
    logger = logging.getLogger("uvicorn.access")
    for target in (logger, *logger.handlers):
        if not any(isinstance(f, RedactTokens) for f in target.filters):
            target.addFilter(RedactTokens())


def _bounded_h11() -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol with a deadline for a request's head: uvicorn times an idle
    connection out, but not one that trickles its headers a byte at a time."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class BoundedH11(H11Protocol):
        head_timeout = HEAD_TIMEOUT
        _head_timer: asyncio.TimerHandle | None = None

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            # A part of a request head is buffered: it must be complete in time.
            waiting = self.conn.their_state is h11.IDLE and bool(self.conn.trailing_data[0])
            if waiting and self._head_timer is None:
                self._head_timer = self.loop.call_later(self.head_timeout, self._head_too_slow)
            elif not waiting and self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _head_too_slow(self) -> None:
            self._head_timer = None
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                self.transport.close()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None
            super().connection_lost(exc)

    return BoundedH11


def server_config(
    app: Any, *, log_level: str = "warning", max_connections: int = MAX_CONNECTIONS
) -> uvicorn.Config:
    """The uvicorn settings: bounded connections, head size and time, keep-alive; tokens
    redacted from the access log."""
    import uvicorn

    config = uvicorn.Config(
        app,
        log_level=log_level,
        lifespan="on",
        timeout_graceful_shutdown=3,
        http=_bounded_h11(),
        limit_concurrency=max_connections,
        timeout_keep_alive=KEEP_ALIVE,
        h11_max_incomplete_event_size=MAX_HEAD,
    )
    install_log_redaction()  # after Config, which configures uvicorn's loggers
    return config


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn
    except ImportError:  # pragma: no cover - a dependency of the package
        raise OptionError("the web server needs uvicorn (pip install uvicorn)") from None
    from typhoon.web.app import create_app

    if not 0 <= args.port <= 65535:
        raise OptionError("--port must be 0..65535")
    if args.max_connections < 1:
        raise OptionError("--max-connections must be at least 1")
    if args.ai_time_limit is not None and args.ai_time_limit < 0:
        raise OptionError("--ai-time-limit must be 0 (no limit) or more seconds")
    if not args.body_timeout > 0:
        raise OptionError("--body-timeout must be more than 0 seconds")
    # Without the flag the app's own default applies; 0 means no limit.
    limit: dict[str, Any] = (
        {} if args.ai_time_limit is None else {"ai_time_limit": args.ai_time_limit or None}
    )
    data = Path(args.data).expanduser()
    try:
        app = create_app(
            data,
            ai_delay=max(0.0, args.ai_delay),
            allowed_hosts=[args.host, *args.allow_host],
            allowed_origins=args.allow_origin,
            body_timeout=args.body_timeout,
            default_game=args.game,
            default_edition=args.edition,
            **limit,
        )
    except OSError as exc:
        raise OptionError(f"cannot use data folder {data}: {exc}") from None
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    # IPPROTO_TCP matters: asyncio turns Nagle off (TCP_NODELAY) only on sockets that say they
    # are TCP; without it every keep-alive answer waits ~40 ms for a delayed ACK.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((args.host, args.port))
    except OSError as exc:
        sock.close()
        raise OptionError(f"cannot listen on {args.host}:{args.port}: {exc.strerror}") from None
    sock.listen(128)
    sock.set_inheritable(True)
    port = sock.getsockname()[1]
    shown = f"[{args.host}]" if family == socket.AF_INET6 else args.host
    if args.host in ("0.0.0.0", "::"):
        shown = "127.0.0.1"
    print(
        f"Typhoon is running at http://{shown}:{port}/  (games in {data.resolve()}; Ctrl+C stops it)",
        flush=True,
    )
    server = uvicorn.Server(
        server_config(app, log_level=args.log_level, max_connections=args.max_connections)
    )
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    print("Typhoon stopped.", file=sys.stderr)
    return 0
