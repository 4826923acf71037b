"""The Typhoon engine protocol, version 1 (docs/PROTOCOL.md): line-based text over an engine's
stdin/stdout, so a program in any language can play any registered game.

Host side (:mod:`typhoon.protocol.host`): :class:`EngineClient` runs and talks to an engine
process. Engine side (:mod:`typhoon.protocol.engine`): :func:`serve` runs a built-in player
behind the protocol (``typhoon engine --player LEVEL``).
"""

from __future__ import annotations

from typhoon.protocol.engine import serve
from typhoon.protocol.host import EngineClient
from typhoon.protocol.messages import MAX_RETRIES, VERSION, EngineError

__all__ = ["MAX_RETRIES", "VERSION", "EngineClient", "EngineError", "serve"]
