"""Issue 16 point 2: the MCP server's tools, driven end to end by the official SDK's own client
(in memory, and over stdio by spawning ``python -m typhoon mcp``). No model is needed: the test
plays the part of the language model."""

from __future__ import annotations

import re
import sys
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp")

from mcp import Client  # noqa: E402
from mcp.client.stdio import StdioServerParameters  # noqa: E402

from asyncrun import run_in_own_thread  # noqa: E402
from typhoon.agents.mcp_server import build_server  # noqa: E402

TOOLS = {"new_game", "position", "map_around", "legal_actions", "preview_attack", "act"}


def _text(result: Any) -> str:
    return "\n".join(c.text for c in result.content if getattr(c, "type", "") == "text")


async def _call(client: Client, tool: str, **args: Any) -> tuple[bool, str]:
    r = await client.call_tool(tool, args)
    return bool(r.is_error), _text(r)


async def _play_bfm(client: Client) -> None:
    names = {t.name for t in (await client.list_tools()).tools}
    assert names >= TOOLS
    err, text = await _call(client, "new_game", game="bfm", side="german", level="heuristic", seed=3)
    assert not err, text
    gid = re.search(r"game_id: (\w+)", text).group(1)  # type: ignore[union-attr]
    assert "AI (heuristic): setup standard" in text  # the Soviet AI set up first
    assert "German set-up" in text
    # An illegal action is refused with the reason and changes nothing.
    err, text = await _call(client, "act", game_id=gid, action="move XXIV 0909")
    assert err and text
    err, text = await _call(client, "act", game_id=gid, action="setup standard")
    assert not err, text
    assert "German panzer movement phase" in text
    err, text = await _call(client, "legal_actions", game_id=gid, contains="XXIV")
    assert not err and re.search(r"^move XXIV \d{4}", text, re.M), text
    err, text = await _call(client, "map_around", game_id=gid, hex="0409", radius=1)
    assert not err and "XXIV Panzer Corps" in text and text.count("neighbours:") == 7
    err, text = await _call(client, "position", game_id=gid)
    assert not err and "Turn 1 of 7" in text and "XXIV" in text
    # Odds of XXIV (0409) and XLVII (0408) against 3rd Army in 0509 (adjacent to both).
    err, text = await _call(client, "preview_attack", game_id=gid, target="0509", attackers=["XXIV", "XLVII"])
    assert not err, text
    assert "final odds" in text and "die:" in text
    err, text = await _call(client, "preview_attack", game_id=gid, target="0507", attackers=["XIII", "XIII"])
    assert err and "named twice" in text
    err, text = await _call(client, "act", game_id=gid, action="end")  # end the panzer movement phase
    assert not err and "You: end" in text and "It is your decision." in text, text
    err, text = await _call(client, "position", game_id="nope")
    assert err and "no game" in text
    err, text = await _call(client, "new_game", game="bfm", level="cmd:echo hi")
    assert err and "unknown level" in text  # a client can never start a program


def test_mcp_tools_end_to_end_in_memory() -> None:
    async def main() -> None:
        async with Client(build_server()) as client:
            await _play_bfm(client)
            err, text = await _call(
                client, "new_game", game="tmc", edition="24", side="soviet", level="random", seed=1
            )
            assert not err and "TMC scenario 24" in text, text
            gid = re.search(r"game_id: (\w+)", text).group(1)  # type: ignore[union-attr]
            err, text = await _call(client, "legal_actions", game_id=gid)
            assert not err and "legal action(s)" in text

    run_in_own_thread(lambda: anyio.run(main))


def test_mcp_server_over_stdio_spawned_as_typhoon_mcp() -> None:
    params = StdioServerParameters(command=sys.executable, args=["-m", "typhoon", "mcp"])

    async def main() -> None:
        async with Client(params) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            assert names >= TOOLS
            err, text = await _call(client, "new_game", game="bfm", side="soviet", level="random", seed=1)
            assert not err and "you play the soviet side" in text
            gid = re.search(r"game_id: (\w+)", text).group(1)  # type: ignore[union-attr]
            err, text = await _call(client, "act", game_id=gid, action="setup standard")
            assert not err and "AI (random)" in text

    run_in_own_thread(lambda: anyio.run(main))
