"""What both ends of the engine protocol share: the version, the limits, the error, and how a
game's history is reported to an engine (``played`` / ``die`` / ``event`` / ``gameover``)."""

from __future__ import annotations

from typing import Any

from typhoon.errors import TyphoonError
from typhoon.games import GameModule, module_of_state

VERSION = 1
MAX_RETRIES = 3  # refused answers allowed for one move; the next refusal forfeits
DEFAULT_BUDGET_MS = 5000  # the time budget of one move, sent with `go`
GRACE_S = 10.0  # added to the budget before the host gives up on an answer
HANDSHAKE_S = 10.0  # to answer `typhoon 1` with `ready`
STDERR_LINES = 200  # an engine's stderr lines kept (the latest) for the log and errors
MAX_LINE = 1 << 20  # a longer line from an engine breaks the protocol


class EngineError(TyphoonError):
    """The engine crashed, hung, or broke the protocol; its side forfeits. ``side`` is the
    side it was playing (0 German, 1 Soviet) when known."""

    def __init__(self, message: str, side: int | None = None):
        super().__init__(message)
        self.side = side

    def __reduce__(self) -> tuple[Any, ...]:  # survives a process pool
        return (EngineError, (str(self), self.side))


def one_line(text: str) -> str:
    """Text made safe for one protocol line."""
    return " ".join(str(text).split())


def module_of(state: Any) -> GameModule:
    """The game module of a state (the tiny test game's too, whose package is outside typhoon)."""
    return module_of_state(state)


def options_line(state: Any) -> str:
    opts = state.rules.options
    return "options " + (",".join(f"{k}={v}" for k, v in sorted(opts.items())) or "-")


def history_lines(game: Any, entry: Any) -> list[str]:
    """How one entry of a game's history (:class:`typhoon.game.Entry`) is reported: the
    action as ``played SIDE ACTION`` or ``die N``, each event as ``event KIND TEXT``, and
    ``gameover RESULT`` when it ended the game."""
    module = game.module
    if entry.actor < 0:
        outcomes = module.chance_outcomes(entry.before)
        n = next((k + 1 for k, (a, _) in enumerate(outcomes) if a == entry.action), 0)
        lines = [f"die {n} {one_line(module.action_to_text(entry.action))}"]
    else:
        lines = [f"played {module.sides[entry.actor]} {one_line(module.action_to_text(entry.action))}"]
    lines += [f"event {e.kind} {one_line(e.text)}" for e in entry.events]
    if game.is_over and entry is game.history[-1]:
        lines.append(f"gameover {game.result}")
    return lines
