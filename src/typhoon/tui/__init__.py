"""Terminal play: a text map of the hex grid, a command loop over any text streams, help texts.

    from typhoon.tui import Session
    Session(game, humans={0}, players={1: make_player("random", 1)}, out=sys.stdout).run(sys.stdin)

Front end only: every rule question is asked of the engine (legal actions, preview, events).
"""

from __future__ import annotations

from typhoon.games.bfm.termmap import render_map
from typhoon.tui.session import Session

__all__ = ["Session", "render_map"]
