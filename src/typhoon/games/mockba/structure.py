"""What a MOCKBA state must be for the engine to play it, checked without the engine: read by
position_from_text (a damaged position is refused) and by the invariants."""

from __future__ import annotations

from .state import ELIM, GERMAN, OFF, PHASES, SOVIET, State

# Battle steps and the results each may hold ("" before the die is rolled).
_BEFORE_ROLL = frozenset(("declare", "support", "roll", "drop_roll", "blow_roll"))
_RESULT_STEPS = frozenset(("retreat", "d3", "loss", "penalty", "advance"))
STEPS = _BEFORE_ROLL | _RESULT_STEPS
RESULTS = frozenset(("AE", "AR", "A1", "A2", "EX", "D1", "D2", "D3", "DR", "DE"))


def structural_problems(s: State) -> list[str]:
    out: list[str] = []
    r = s.rules
    n = len(r.terrain)
    sides: dict[int, set[int]] = {}
    for u, h in enumerate(s.loc):
        sp = r.units[u]
        if h not in (OFF, ELIM) and not 0 <= h < n:
            out.append(f"{sp.id} on no hex ({h})")
            continue
        if h >= 0:
            sides.setdefault(h, set()).add(sp.side)
            if r.terrain[h] == "lake":
                out.append(f"{sp.id} on a lake")
        if s.dug >> u & 1 and not (sp.can_dig and h >= 0):
            out.append(f"{sp.id} dug in but cannot be")
        if s.red >> u & 1 and (sp.reduced == 0 or h < 0):
            out.append(f"{sp.id} reduced but has no reduced side or is off the map")
        # Free set-up: the Soviet sets up first, then the German (pack 2.2-2.3).
        placed_side = s.setup < 0 or (s.setup == 1 and sp.side == SOVIET)
        if h == OFF and sp.turn == 0 and placed_side:
            out.append(f"{sp.id} set up but off the map")
        if s.setup >= 0 and h != OFF and (sp.turn > 0 or (s.setup == 0 and sp.side == GERMAN)):
            out.append(f"{sp.id} on the map before its side sets up")
    for h, ss in sides.items():
        if len(ss) > 1:
            out.append(f"both sides on hex {h}")
    if not 0 <= s.phase < len(PHASES) + (s.result is not None):
        out.append(f"phase {s.phase} out of range")
    if s.cut & ~r.rail_hexes:
        out.append("an interruption off the railway")
    if s.rebuilt_armour > int(r.tables["rebuild"]["armour_max"]):
        out.append("more than 2 armoured units rebuilt")
    if (s.blown | s.tried) >> len(r.bridges) or ((s.blown | s.tried) and r.opt("opt3_bridges") != "on"):
        out.append("a bridge marker off the bridges or without optional rule 3")
    if s.setup >= 0:
        if s.setup > 1 or s.turn != 1 or s.phase != 0 or s.battle is not None or s.result is not None:
            out.append("a set-up phase outside the start of turn 1")
        if r.opt("setup") != "free":
            out.append("a set-up phase without the free set-up option")
    b = s.battle
    if b is not None:
        if s.result is not None:
            out.append("a battle in a finished game")
        if b.step == "blow_roll" and (len(b.attackers) != 1 or s.phase_spec.key != "s_combat"):
            out.append("a bridge try that is not one Soviet unit in the first combat phase")
        if s.phase_spec.kind != "combat" and b.step != "drop_roll":
            out.append("a battle outside a combat phase")
        if (b.result == "") != (b.step in _BEFORE_ROLL):
            out.append(f"battle step {b.step} with result {b.result!r}")
        if b.step == "retreat" and (not b.groups or not 1 <= b.length <= 3):
            out.append("a retreat with no hex to retreat from or no length")
        if b.step in ("loss", "penalty") and not b.attackers:
            out.append(f"battle step {b.step} with no attacker")
        for u in b.attackers:
            if r.units[u].side != s.side:
                out.append(f"{r.units[u].id} attacks its own side")
    return out
