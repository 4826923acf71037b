"""What a Moscow Attacked! state must be for the engine to play it, checked without the engine:
read by position_from_text (a damaged position is refused) and by the invariants."""

from __future__ import annotations

from .state import DISPERSED, ELIM, OFF, PHASES, READY, SPENT, State


def structural_problems(s: State) -> list[str]:
    out: list[str] = []
    r = s.rules
    n = len(r.terrain)
    for u, h in enumerate(s.loc):
        sp = r.units[u]
        if h not in (OFF, ELIM) and not 0 <= h < n:
            out.append(f"{sp.id} on no hex ({h})")
        if sp.is_air and h != OFF:
            out.append(f"air unit {sp.id} on the map")
        if s.status[u] not in (READY, SPENT, DISPERSED):
            out.append(f"{sp.id} has status {s.status[u]}")
    here: dict[int, list[int]] = {}
    for u, h in enumerate(s.loc):
        if h >= 0:
            here.setdefault(h, []).append(u)
    limit = int(r.opt("stacking"))
    for h, units in here.items():
        if len({r.units[u].side for u in units}) > 1:
            out.append(f"both sides on hex {h}")
        # 5 (reconstruction): at most `stacking` ground units, one army-level, per hex; a battle
        # in progress may hold an advance or retreat mid-way
        if s.battle is None and (len(units) > limit or sum(r.units[u].army_level for u in units) > 1):
            out.append(f"over-stacked hex {h}")
    if not 0 <= s.phase < len(PHASES):
        out.append(f"phase {s.phase} out of range")
    if s.repl < 0:
        out.append("negative replacement factors")
    if s.base != -1 and not (0 <= s.base < n and r.places >> s.base & 1):
        out.append(f"the Strategic Bombers' base {s.base} is not a city or town")
    return out
