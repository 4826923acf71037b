"""Hand-built Moscow Attacked! positions for the tests: a fresh game with only the named units on the map."""

from __future__ import annotations

from typing import Any

from typhoon.games.ma.engine import legal_actions, new_game
from typhoon.games.ma.rules import hex_index
from typhoon.games.ma.state import ELIM, OFF, PHASE_INDEX, READY, State


def world(
    units: dict[str, str],
    *,
    phase: str = "g_prepared",
    turn: int = 1,
    edition: str = "basic",
    options: dict[str, str] | None = None,
    status: dict[str, int] | None = None,
    keep_off: bool = True,
    **kw: Any,
) -> State:
    """Only ``units`` (id -> hex) on the map; every other ground unit eliminated (or kept off the
    map if it has not arrived), air units off-board as usual."""
    s = new_game(edition, options)
    r = s.rules
    loc = []
    for sp in r.units:
        if sp.id in units:
            loc.append(hex_index(units[sp.id]))
        elif sp.is_air or (keep_off and sp.turn > 0):
            loc.append(OFF)
        else:
            loc.append(ELIM)
    st = [READY] * len(loc)
    for name, v in (status or {}).items():
        st[r.unit_index[name]] = v
    return s.replace(loc=tuple(loc), status=tuple(st), phase=PHASE_INDEX[phase], turn=turn, **kw)


def texts(s: State) -> list[str]:
    from typhoon.games.ma.notation import action_to_text

    return [action_to_text(a) for a in legal_actions(s)]


def play(s: State, *actions: str) -> State:
    from typhoon.games.ma.engine import apply
    from typhoon.games.ma.notation import action_from_text

    for a in actions:
        s, _ = apply(s, action_from_text(a))
    return s


def at(s: State, unit: str) -> str | None:
    from typhoon.games.ma.rules import hex_id

    h = s.loc[s.rules.unit_index[unit]]
    return hex_id(h) if h >= 0 else None
