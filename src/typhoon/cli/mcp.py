"""``typhoon mcp``: an MCP server on stdin/stdout, so a language-model client can play against
the built-in AI (typhoon.agents.mcp_server; needs ``pip install 'typhoon[mcp]'``)."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "mcp",
        help="an MCP server on stdin/stdout: a language-model client plays against the AI",
        description="Serve Typhoon's tools (new_game, position, map_around, legal_actions, "
        "preview_attack, act) over the Model Context Protocol on stdin/stdout.",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from typhoon.agents.mcp_server import run_stdio

    return run_stdio()
