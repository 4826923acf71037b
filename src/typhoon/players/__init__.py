"""Players: anything that, given the state and the legal actions, chooses one.

Humans (terminal, browser), AIs and external programs all implement :class:`Player`.
``make_player("random", seed=1)`` builds a player by level name; AI levels register
themselves in ``LEVELS``.
"""

from __future__ import annotations

from typhoon.players.base import LEVELS, Player, RandomPlayer
from typhoon.players.levels import make_player, player_names

__all__ = ["LEVELS", "Player", "RandomPlayer", "make_player", "player_names"]
