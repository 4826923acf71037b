"""Rules audit: combat and overrun cases that had no test citing them (rules_en.md §5.1, §8.5,
§14 with [Q33] in the mechanised phase); see docs/TMC_RULE_INDEX.md.

Synthetic map of tests/tmc/combat_world.py; 0504 touches 0403 0404 0503 0505 0603 0604.
"""

from __future__ import annotations

from typhoon.games.tmc.actions import END, Advance, Attack, Odds, Overrun
from typhoon.games.tmc.combat_phase import battle
from typhoon.games.tmc.rules import GERMAN_COMBAT, GERMAN_MECH
from typhoon.games.tmc.state import OVERRUN

from .combat_world import act, declare, legal, roll, run, unit, where, world


def test_attacking_is_voluntary_s51() -> None:
    """§5.1: no unit is obliged to attack: with PZ1 next to R1 the German player may end the
    combat phase without declaring anything, and R1 stays where it is."""
    s = world({"PZ1": "0404"}, {"R1": "0504"})
    acts = legal(s)
    assert Attack("0504", ("PZ1",)) in acts and END in acts
    t, ev = act(s, END)
    assert t.phase != GERMAN_COMBAT
    assert where(t, "R1") == "0504" and where(t, "PZ1") == "0404"
    assert not any(e.kind == "battle" for e in ev)


def test_kampfgruppe_is_eliminated_for_good_s85() -> None:
    """§8.5, §23: a KG (CF 2 < 4) that suffers an elimination result is really eliminated and
    scores the Soviets 3 VP per KG CF (6). KG PZ1 (2) attacks R1 (2) at 1-1 in GT 18; roll 1,
    German CRT 1-1 row 1: Ae."""
    s = world({"PZ1": "0404"}, {"R1": "0504"})
    pz = unit(s, "PZ1")
    s.kg |= 1 << pz
    s._cache = {}
    s._legal = None
    assert s.cf(pz) == 2
    s, _ = declare(s, ("0504", ("PZ1",)))
    assert battle(s).column == 1  # 1-1
    s, _ = run(s, Odds("1-1"))  # no Dr on the 1-1 column: no ignore question (§5.5)
    s, ev = roll(s, 1)
    assert where(s, "PZ1") == "off" and (s.eliminated >> pz) & 1
    assert not (s.kg >> pz) & 1 or s.loc[pz] < 0  # no second KG
    # (the phase then ends by itself and the empty German front scores too: read the event)
    assert [e.data["vp"] for e in ev if e.kind == "eliminated" and e.data.get("unit") == "PZ1"] == [6]


def test_overrun_in_the_mechanised_phase_q33() -> None:
    """§14, [Q33]: overruns may be made in every movement phase, the German mechanised phase
    included: PZ1 (6) + PZ2 (5) against R1 (entrained: 1) = 11-1 in GT 18. It is resolved at the
    end of that phase (§14.3; roll 4: De) and the participants may advance (§14.4); no combat
    phase follows in that player turn (the Soviet movement phase comes next)."""
    s = world({"PZ1": "0404", "PZ2": "0403"}, {"R1": "0504"}, phase=GERMAN_MECH)
    s.entrained |= 1 << unit(s, "R1")
    s._cache = {}
    s._legal = None
    ovr = Overrun("0504", ("PZ1", "PZ2"))
    assert ovr in legal(s)
    s, _ = act(s, ovr)
    if s.step != OVERRUN:  # other moves were still possible: end the phase by hand
        s, _ = act(s, END)
    assert s.step == OVERRUN and s.is_chance
    assert battle(s).overrun and battle(s).column == 11
    s, _ = roll(s, 4)
    assert where(s, "R1") == "off"
    s, _ = act(s, Advance("PZ1", "0504"))
    s, ev = run(s, Advance(None, ""))
    assert where(s, "PZ1") == "0504"
    phases = [e.data["phase"] for e in ev if e.kind == "phase"]
    assert phases[:1] == ["soviet_movement"]


def test_hopeless_attack_is_resolved_on_one_to_two_s53() -> None:
    """§5.3: odds below 1-2 count as 1-2: the attack may still be made, and that column is all
    Ae. I3 (2) against S5 (5) in GT 18 = 2:5."""
    s = world({"I3": "0404"}, {"S5": "0504"})
    assert Attack("0504", ("I3",)) in legal(s)
    s, _ = declare(s, ("0504", ("I3",)))
    assert battle(s).top == 0 and battle(s).column == 0  # 1-2: the only column, chosen by itself
    s, _ = roll(s, 6)
    assert where(s, "I3") == "off" and where(s, "S5") == "0504"


def test_bracket_attacker_left_alone_adds_no_strength_s132() -> None:
    """§13.2: a [#] unit uses its CF in attack only while stacked with a unit of ordinary CF -
    judged when its attack is resolved. R1 and the [#] G1 stand in 0504; R1 attacks I1 (2:3,
    1-2: Ae, eliminated), then G1's declared attack on I3 is resolved with G1 alone: 0 : 2,
    the 1-2 column (with R1 still there it would have been 2:2, 1-1)."""
    from typhoon.games.tmc.rules import SOVIET_COMBAT

    s = world({"I1": "0404", "I3": "0604"}, {"R1": "0504", "G1": "0504"}, phase=SOVIET_COMBAT)
    s, _ = declare(s, ("0404", ("R1",)), ("0604", ("G1",)))
    assert battle(s).attackers == (unit(s, "R1"),) and battle(s).column == 0
    s, _ = roll(s, 3)
    assert where(s, "R1") == "off"
    b = battle(s)
    assert b.attackers == (unit(s, "G1"),)
    assert b.attack == 0 and b.top == 0
