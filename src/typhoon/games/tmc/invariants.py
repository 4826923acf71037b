"""Consistency checks on a Moscow Campaign state, for tests and soak runs.

``problems(s)`` returns a list of problems (empty when the state is sound); ``vp_problems``
compares two successive states (VP never decrease)."""

from __future__ import annotations

from typhoon.games.tmc.rules import GERMAN, SOVIET, STACK_LIMIT
from typhoon.games.tmc.state import MOVE, OFF, RELOCATE, State


def problems(s: State) -> list[str]:
    rules = s.rules
    ids = rules.grid.ids
    out: list[str] = []
    occ = [0, 0]
    seen: dict[int, list[int]] = {}
    for u, spec in enumerate(rules.units):
        h = s.loc[u]
        if h == OFF:
            if (s.entrained >> u) & 1 or (s.flipped >> u) & 1 or u in s.disrupted:
                out.append(f"{spec.id} is off the map with on-map markers")
            continue
        if not (rules.grid.valid >> h) & 1:
            out.append(f"{spec.id} is on a slot that is not a hex")
            continue
        if (s.eliminated >> u) & 1:
            out.append(f"{spec.id} is on the map and eliminated")
        if not (s.arrived >> u) & 1:
            out.append(f"{spec.id} is on the map but never arrived")
        occ[spec.side] |= 1 << h
        seen.setdefault(h, []).append(u)
    if s.lost & ~s.eliminated:
        out.append("a unit is lost without being eliminated")
    if occ[GERMAN] & occ[SOVIET]:
        out.append("a German and a Soviet unit share a hex")
    if occ != s.occ:
        out.append("occupancy bitsets disagree with unit locations")
    stacks = {h: tuple(sorted(us)) for h, us in s.stacks.items()}
    if stacks != {h: tuple(sorted(us)) for h, us in seen.items()}:
        out.append("stack lists disagree with unit locations")
    kind = rules.phases[s.phase].kind
    # §10: at most 3 per hex at the end of every movement phase and throughout combat. Leg
    # ends keep it during movement too, so it holds everywhere except mid-retreat bookkeeping.
    if kind in ("movement", "setup") or s.combat is None:
        for h, us in s.stacks.items():
            if len(us) > STACK_LIMIT:
                out.append(f"{ids[h]} holds {len(us)} units")
    held = s.rail_normal | s.rail_german | s.rail_soviet
    if s.rail_normal & s.rail_german or s.rail_normal & s.rail_soviet or s.rail_german & s.rail_soviet:
        out.append("rail state masks overlap")
    if held & ~rules.rail_mask:
        out.append("rail state on a hex without rail")
    if s.rail_cut & held:
        out.append("a cut marker on rail that is not destroyed")
    if s.entrained & ~rules.side_unit_mask[SOVIET]:
        out.append("a German unit is entrained")
    if s.kg & ~rules.kg_capable_mask:
        out.append("a unit that cannot become a KG is one")
    if kind == "movement" and s.step in (MOVE, RELOCATE) and s.flipped:
        flipped_units = {d for p in s.overruns for d in p.defenders}
        if any((s.flipped >> u) & 1 and u not in flipped_units for u in range(len(rules.units))):
            out.append("a flipped unit has no pending overrun")
    if s.vp[0] < 0 or s.vp[1] < 0:
        out.append("negative victory points")
    if s.is_terminal and s.result not in ("german", "soviet", "draw"):
        out.append(f"unknown result {s.result!r}")
    return out


def vp_problems(before: State, after: State) -> list[str]:
    out = []
    for side in (GERMAN, SOVIET):
        if after.vp[side] < before.vp[side]:
            out.append(f"side {side} VP fell from {before.vp[side]} to {after.vp[side]}")
    return out


def phase_problems(s: State) -> list[str]:
    """Slower checks, run by ``typhoon soak`` once per phase: supply (§11) recomputed unit by
    unit by a plain search and compared with the engine's."""
    from typhoon.games.tmc.supply_check import supply_problems

    return supply_problems(s)
