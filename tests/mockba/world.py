"""Hand-built MOCKBA positions for the tests: a fresh game with only the named units on the map.

Test ground: the hexes 1834-1939 (south of Bryansk-Orel) are clear, with no river, rail, road or
city near them (checked in test_mockba_rules.py); 0232-0239 lie on the west edge.
"""

from __future__ import annotations

from typing import Any

from typhoon.games.mockba.engine import apply, legal_actions, new_game
from typhoon.games.mockba.notation import action_from_text, action_to_text
from typhoon.games.mockba.rules import hex_id, hex_index
from typhoon.games.mockba.state import ELIM, OFF, PHASE_INDEX, State


def world(
    units: dict[str, str],
    *,
    phase: str = "g_move",
    turn: int = 1,
    options: dict[str, str] | None = None,
    keep_off: bool = True,
    **kw: Any,
) -> State:
    """Only ``units`` (id -> hex) on the map; every other unit eliminated (or off the map if it has
    not arrived yet); no interrupted rail unless ``cut`` is given."""
    s = new_game(None, options)
    r = s.rules
    loc = []
    for sp in r.units:
        if sp.id in units:
            loc.append(hex_index(units[sp.id]))
        elif keep_off and sp.turn > 0:
            loc.append(OFF)
        else:
            loc.append(ELIM)
    kw.setdefault("cut", 0)
    return s.replace(loc=tuple(loc), phase=PHASE_INDEX[phase], turn=turn, **kw)


def uid(s: State, name: str) -> int:
    return s.rules.unit_index[name]


def bit(s: State, *names: str) -> int:
    out = 0
    for n in names:
        out |= 1 << uid(s, n)
    return out


def texts(s: State) -> list[str]:
    return [action_to_text(a) for a in legal_actions(s)]


def play(s: State, *actions: str) -> State:
    for a in actions:
        s, _ = apply(s, action_from_text(a))
    return s


def at(s: State, unit: str) -> str | None:
    h = s.loc[uid(s, unit)]
    return hex_id(h) if h >= 0 else None


def moves(s: State, unit: str) -> set[str]:
    return {t.split()[2] for t in texts(s) if t.startswith(f"move {unit} ")}


__all__ = ["ELIM", "OFF", "at", "bit", "moves", "play", "texts", "uid", "world"]
