"""Players by level name: the random level (:mod:`typhoon.players.base`), the AI levels
(registered by :mod:`typhoon.ai` when it is imported) and external engines (``cmd:...``).

This module sits above both the player interface and the AI package, so the AI package can
register its levels in :data:`typhoon.players.base.LEVELS` without a circle of imports.
"""

from __future__ import annotations

import contextlib

from typhoon.errors import OptionError
from typhoon.games import own_levels
from typhoon.players import base
from typhoon.players.base import Player


def _load_levels() -> None:
    # AI levels live in typhoon.ai; importing it registers them. The core works without it.
    with contextlib.suppress(ImportError):
        import typhoon.ai  # noqa: F401


def player_names(game: str | None = None) -> list[str]:
    """The level names; for ``game`` (a key), only those that play it: a game-own level
    (``typhoon.games.own_levels``) is left out of every other game."""
    _load_levels()
    names = sorted(base.LEVELS)
    if game is None:
        return names
    own = own_levels()
    return [n for n in names if game in own.get(n, [game])]


def make_player(name: str, seed: int | None = None) -> Player:
    """A player by level name, e.g. 'random', or 'cmd:<command line>' for an external engine
    (docs/PROTOCOL.md). Raises OptionError for an unknown name."""
    _load_levels()
    levels = base.LEVELS  # read at each call: tests swap the table
    if name in levels:
        return levels[name](seed)
    if name.startswith("cmd:") and name[4:].strip():
        from typhoon.players.external import ExternalPlayer  # the protocol is imported only when used

        return ExternalPlayer(name[4:].strip())
    raise OptionError(f"unknown player {name!r}; players: {', '.join(sorted(levels))}")


__all__ = ["make_player", "player_names"]
