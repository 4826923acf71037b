"""``typhoon serve``: play in the browser (Starlette app run by uvicorn)."""

from __future__ import annotations

import argparse
import os
import socket
import sys
from pathlib import Path

from typhoon.errors import OptionError


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "serve",
        help="play in the browser: start the web server and print its URL",
        description="Start the web server: Battle for Moscow and The Moscow Campaign (all 24 scenarios, on a "
        "reconstructed map) in the browser, against the computer or another player. Prints the URL.",
    )
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
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn
    except ImportError:  # pragma: no cover - a dependency of the package
        raise OptionError("the web server needs uvicorn (pip install uvicorn)") from None
    from typhoon.web.app import create_app

    if not 0 <= args.port <= 65535:
        raise OptionError("--port must be 0..65535")
    data = Path(args.data).expanduser()
    try:
        app = create_app(data, ai_delay=max(0.0, args.ai_delay))
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
    config = uvicorn.Config(app, log_level=args.log_level, lifespan="on", timeout_graceful_shutdown=3)
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    print("Typhoon stopped.", file=sys.stderr)
    return 0
