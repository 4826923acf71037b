"""Overrun declaration during movement (rules_en.md §14; [Q7], [Q33]-[Q35]); resolution is the
COMBAT helper's overrun.py, reached at the end of the movement phase."""

from __future__ import annotations

from typhoon.games.tmc import engine
from typhoon.games.tmc.actions import END, JoinOverrun, Move, Overrun, Roll
from typhoon.games.tmc.state import OVERRUN

from .engine_fixtures import dests, hx, make_map, make_rules, position, unit

ROSTER = [
    unit("GB1", "german", 10, 10, kind="armour"),
    unit("GB2", "german", 10, 10, kind="armour"),
    unit("GB3", "german", 4, 10, kind="armour"),
    unit("G1", "german", 2, 5),
    unit("S1", "soviet", 2, 4),
    unit("S2", "soviet", 2, 4),
]


def test_overrun_offered_at_eleven_to_one_with_gt1_shift() -> None:
    """§14.1, §14.6: adjacent units at 11-1 may overrun; in GT 1-4 a German 10-1 counts (20:2).
    One 10-CF unit alone (5-1, 6-1 shifted) may not; the minimal group is offered."""
    r = make_rules(ROSTER, make_map(), last=6)
    s = position(r, {"GB1": "0404", "GB2": "0405", "G1": "0305", "S1": "0505", "S2": "1010"})
    ovr = [a for a in engine.legal_actions(s) if isinstance(a, Overrun)]
    assert ovr == [Overrun("0505", ("GB1", "GB2"))]
    # GT 5 (rain: German attack halved, no shift): 10:2 = 5-1, no overrun.
    s5 = position(r, {"GB1": "0404", "GB2": "0405", "G1": "0305", "S1": "0505", "S2": "1010"}, turn=5)
    assert not [a for a in engine.legal_actions(s5) if isinstance(a, Overrun)]


def test_overrun_flips_defenders_hex_pass_through_only_and_participants_stop() -> None:
    """§14.1-14.2, [Q7], [Q34]: the defenders are flipped (no ZOC, hex empty for passing through
    but not for stopping); the overrunning units move no further; others may join (§14.5)."""
    r = make_rules(ROSTER, make_map(), last=6)
    s = position(r, {"GB1": "0404", "GB2": "0405", "GB3": "0304", "G1": "0305", "S1": "0505", "S2": "1010"})
    t, ev = engine.apply(s, Overrun("0505", ("GB1", "GB2")))
    s1 = r.unit_index["S1"]
    assert (t.flipped >> s1) & 1
    assert any(e.kind == "overrun" for e in ev)
    movers = {a.unit for a in engine.legal_actions(t) if a.kind == "move"}
    assert "GB1" not in movers and "GB2" not in movers
    d = dests(t, "G1")
    assert "0505" not in d  # may not end there
    assert "0605" in d  # 0305-0405... through 0505 (no ZOC now): 3 hexes, MA 5
    # GB3 moves adjacent and joins
    t2, _ = engine.apply(t, Move("GB3", "0304", "0504"))
    assert JoinOverrun("GB3", "0505") in engine.legal_actions(t2)
    t3, _ = engine.apply(t2, JoinOverrun("GB3", "0505"))
    assert t3.overruns[0].attackers == tuple(sorted(r.unit_index[x] for x in ("GB1", "GB2", "GB3")))


def test_overrun_resolved_at_end_of_movement_phase() -> None:
    """§14.3: at the end of the movement phase each overrun is resolved with one die roll on the
    11-1 column (German CRT 11-1: De on 4-6); the defenders are no longer flipped afterwards."""
    r = make_rules(ROSTER, make_map(), last=6)
    s = position(r, {"GB1": "0404", "GB2": "0405", "G1": "0305", "S1": "0505", "S2": "1010"})
    t, _ = engine.apply(s, Overrun("0505", ("GB1", "GB2")))
    t, _ = engine.apply(t, END)
    assert t.step == OVERRUN and t.is_chance
    t, ev = engine.apply(t, Roll(6))
    s1 = r.unit_index["S1"]
    assert t.loc[s1] < 0 and (t.eliminated >> s1) & 1
    while t.phase_spec.key == "german_movement":
        acts = engine.legal_actions(t)
        t, _ = engine.apply(t, acts[-1])
    assert t.flipped == 0
    if t.phase_spec.key == "german_combat":
        assert t.overruns  # kept for the combat phase: its participants may not attack it (§14.2)
    assert t.vp[0] >= 2  # S1's 2 CF (§23)
    assert hx(r, "0505") not in t.stacks or r.units[t.stacks[hx(r, "0505")][0]].side == 0
