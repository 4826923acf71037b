"""Terminal play of any registered game: a command loop over any text streams, help texts.

    from typhoon.tui import make_session
    make_session(game, {0: None, 1: make_player("random", 1)}, out=sys.stdout).run(sys.stdin)

Front end only: every rule question is asked of the engine (legal actions, preview, events).
The session is game-blind; a game's own terminal extras (a text map, ...) are a subclass in its
package, named by its kit (``FrontEnds.terminal``).
"""

from __future__ import annotations

from typhoon.tui.session import Session, make_session

__all__ = ["Session", "make_session"]
