"""MOCKBA AI pieces (the AI contract of the game kit): ``evaluate(state, side)`` in [-1, 1].

Cheap and deterministic: the victory points the German holds so far (seed: +1 a calendar city
captured in time and held, Moscow 8; -1 a city whose deadline has passed without it, or
recaptured), measured against the undefined 5, blended with the balance of combat factors on the
map. A city whose deadline is still to come and is not yet taken counts 0.
"""

from __future__ import annotations

from typing import Any

from .engine import base_cf
from .rules import GERMAN, SIDE_NAMES

DRAW_SCORE = 5


def provisional_points(s: Any) -> int:
    total = 0
    for h, deadline, pts in s.rules.victory:
        if s.taken >> h & 1 and s.control >> h & 1:
            total += pts
        elif s.turn > deadline or s.taken >> h & 1:
            total -= 1
    return int(total)


def _strength(s: Any, side: int) -> int:
    return sum(base_cf(s, u) for u, h in enumerate(s.loc) if h >= 0 and s.rules.units[u].side == side)


def evaluate(s: Any, side: int) -> float:
    if s.result is not None:
        if s.result == "draw":
            return 0.0
        return 1.0 if s.result == SIDE_NAMES[side] else -1.0
    vp = max(-1.0, min(1.0, (provisional_points(s) - DRAW_SCORE + 5 * (10 - s.turn) / 10) / 12))
    g, so = _strength(s, GERMAN), _strength(s, 1 - GERMAN)
    bal = (g - so) / max(1, g + so)
    v = max(-0.99, min(0.99, 0.7 * vp + 0.3 * bal))
    return v if side == GERMAN else -v
