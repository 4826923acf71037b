"""A player that is an external program speaking the engine protocol (docs/PROTOCOL.md):
``make_player("cmd:python3 examples/engines/random_engine.py")``.

The process starts at the first move, so that building players (e.g. to check names) costs
nothing. A driver that calls :meth:`observe` after each action (``typhoon.selfplay.play_game``
does) has the game's history reported to the engine before its next move.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from typing import Any

from typhoon.protocol.host import EngineClient
from typhoon.protocol.messages import DEFAULT_BUDGET_MS, GRACE_S, history_lines

MAX_PENDING = 100_000  # history lines kept for an engine that has not moved for a long time


def _env_budget() -> int:
    try:
        return max(1, int(os.environ.get("TYPHOON_ENGINE_BUDGET_MS", DEFAULT_BUDGET_MS)))
    except ValueError:
        return DEFAULT_BUDGET_MS


class ExternalPlayer:
    def __init__(self, command: str, timeout: float = GRACE_S, budget_ms: int | None = None):
        self.command = command
        self.timeout = timeout
        self.budget_ms = budget_ms if budget_ms is not None else _env_budget()
        self._client: EngineClient | None = None
        self._pending: list[str] = []
        self.name = "cmd:" + command

    @property
    def client(self) -> EngineClient | None:
        return self._client

    def observe(self, game: Any) -> None:
        """Called by the driver after each action of ``game`` (die rolls included)."""
        if game.history:
            self._pending.extend(history_lines(game, game.history[-1]))
            del self._pending[:-MAX_PENDING]

    def choose(self, state: Any, actions: Sequence[Any]) -> Any:
        if self._client is None:
            self._client = EngineClient(self.command, self.timeout, budget_ms=self.budget_ms)
        history, self._pending = self._pending, []
        return self._client.choose(state, actions, history=history)

    def close(self) -> None:
        if self._client is not None:
            history, self._pending = self._pending, []
            self._client.close(history)
            self._client = None

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # at interpreter exit the finalizer kills it anyway
            self.close()

    def explain(self) -> str:
        return f"Chosen by the external engine {self.command!r}."
