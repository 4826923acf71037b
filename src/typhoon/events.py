"""Events: what an action did, in words and as data, for logs, front ends and players."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    kind: str  # e.g. "move", "battle", "roll", "result", "retreat", "phase", "game_over"
    text: str
    data: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.text
