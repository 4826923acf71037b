"""The tiny game's AI module (``FrontEnds.ai``): only ``evaluate``, so every AI level is the
framework's generic one (typhoon.ai.generic) - what a new game gets by writing one function."""

from __future__ import annotations

from .engine import State
from .rules import SIDE_OF

THREAT = 0.5  # the side to move with an enemy next to it attacks: half a unit expected


def _can_attack(s: State, side: int) -> bool:
    for u in s.units_of(side):
        h = s.loc[u]
        for n in (h - 1, h + 1):
            other = s.unit_at(n) if n >= 0 else -1
            if other >= 0 and SIDE_OF[other] != side:
                return True
    return False


def evaluate(s: State, side: int) -> float:
    """Material (units left, mine minus theirs) plus the threat of the side to move, squashed
    into [-1, 1]; a finished game is its result."""
    if s.result is not None:
        if s.result == "draw":
            return 0.0
        return 1.0 if s.result == ("german", "soviet")[side] else -1.0
    diff = float(len(s.units_of(side)) - len(s.units_of(1 - side)))
    mover = s.current_player()
    if mover in (0, 1) and _can_attack(s, mover):
        diff += THREAT if mover == side else -THREAT
    return max(-0.95, min(0.95, diff / 3.0))
