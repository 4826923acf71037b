"""The engine side of the protocol: a built-in player served over stdin/stdout
(``typhoon engine --player LEVEL``). It keeps the last ``position`` and answers each ``go``
from it; the history lines (``played``, ``die``, ``event``, ``gameover``) and the other
host lines need no answer. A position it cannot read is answered with ``info error ...`` (the host logs it) and a
move the host refuses; nothing stops the engine but ``quit`` or the end of its input."""

from __future__ import annotations

import sys
from typing import IO, Any

from typhoon.errors import TyphoonError
from typhoon.games import game_module
from typhoon.protocol.messages import VERSION, one_line


def serve(player: Any, stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    """Run ``player`` (a typhoon Player) as a protocol engine until ``quit`` or end of input."""
    inp = stdin if stdin is not None else sys.stdin
    outp = stdout if stdout is not None else sys.stdout

    def out(line: str) -> None:
        outp.write(line + "\n")
        outp.flush()

    position = ""
    for raw in inp:
        line = raw.rstrip("\r\n")
        word, _, rest = line.partition(" ")
        if word == "typhoon":
            if rest.strip() != str(VERSION):
                print(
                    f"typhoon engine: the host speaks protocol {rest.strip()!r}, this is {VERSION}",
                    file=sys.stderr,
                )
            out(f"ready typhoon-{getattr(player, 'name', 'player')}")
        elif word == "position":
            position = rest
        elif word in ("go", "refused"):  # after a refusal, think again
            try:
                module = game_module(position.split(" ", 1)[0])
                state = module.position_from_text(position)
                action = player.choose(state, module.legal_actions(state))
            except (TyphoonError, ValueError, IndexError) as exc:
                # No move to give: say why, and answer something the host refuses (then forfeits).
                out(f"info error cannot move in this position: {one_line(str(exc))[:200]}")
                out("move none")
                continue
            out("move " + module.action_to_text(action))
        elif word == "quit":
            break
    return 0
