"""Overruns (rules_en.md §14, [Q33]-[Q37]): declared in a movement phase (movement_phase.py),
resolved at its end by games/tmc/overrun.py with one roll on the 11-1 column of the mover's CRT
(German 11-1: Ex on rows -1..1, De,Ad on 2-3, De on 4-6; Soviet: Ex -1, 1/2Ex 0-1, De 2-6).
Synthetic map of tests/tmc/combat_world.py; 0504 touches 0403 0404 0503 0505 0603 0604."""

from __future__ import annotations

from typhoon.games.tmc.actions import END, Advance, Attack, Disrupt, Lose, Overrun
from typhoon.games.tmc.combat_phase import battle
from typhoon.games.tmc.rules import GERMAN_MOVEMENT, SOVIET, SOVIET_COMBAT, SOVIET_MOVEMENT
from typhoon.games.tmc.state import OVERRUN, State

from .combat_world import act, legal, make_map, roll, unit, where, world

STOP = Advance(None, "")
OVR = Overrun("0504", ("PZ1", "I5"))


def _german(turn: int = 3, forest: tuple[str, ...] = ()) -> State:
    """PZ1 (6) + I5 (4) next to R1, entrained (defends at 1): 10 : 1, in GT 1-4 shifted to 11-1."""
    s = world(
        {"PZ1": "0404", "I5": "0403"},
        {"R1": "0504"},
        turn=turn,
        phase=GERMAN_MOVEMENT,
        m=make_map(forest=forest),
    )
    s.entrained |= 1 << unit(s, "R1")
    return s


def _resolve(s: State) -> State:
    s, ev = act(s, OVR)  # nothing else can move: the engine ends the phase (forced End)
    assert [e.kind for e in ev][:1] == ["overrun"]
    assert s.step == OVERRUN and s.is_chance and s.current_player() == -1
    assert not s.flipped  # face up again for the resolution
    return s


def test_gt1_4_shift_makes_ten_to_one_an_overrun_q35() -> None:
    """§14.6, [Q35]: a German 10-1 in GT 1-4 counts as 11-1; in GT 5+ it does not."""
    assert OVR in legal(_german(3))
    assert not any(isinstance(a, Overrun) for a in legal(_german(18)))


def test_overrun_de_and_advance_s144() -> None:
    """§14.3-§14.4: roll 4 on German 11-1 is De; the participants may advance; then the
    combat phase follows."""
    s = _resolve(_german())
    assert battle(s).column == 11 and battle(s).overrun
    s, _ = roll(s, 4)
    assert where(s, "R1") == "off" and s.vp[0] == 2
    assert set(legal(s)) == {Advance("PZ1", "0504"), Advance("I5", "0504"), STOP}
    s, _ = act(s, Advance("PZ1", "0504"))
    s, ev = act(s, STOP)
    assert where(s, "PZ1") == "0504"
    phases = [e.data["phase"] for e in ev if e.kind == "phase"]
    assert phases[0] == "german_combat"  # then, nothing to attack, the mechanised phase


def test_overrun_de_ad_disruption() -> None:
    """Roll 2 on German 11-1: De,Ad; the attacker disrupts at least R1's printed 2; the
    disrupted unit may not advance (§9.3)."""
    s = _resolve(_german())
    s, _ = roll(s, 2)
    assert set(legal(s)) == {Disrupt("PZ1"), Disrupt("I5")}
    s, _ = act(s, Disrupt("I5"))
    assert unit(s, "I5") in s.disrupted
    assert set(legal(s)) == {Advance("PZ1", "0504"), STOP}


def test_overrun_terrain_drm_applies_s143() -> None:
    """§14.3: terrain applies as a drm: R1 in forest (-2), roll 3 -> row 1: Ex; the attacker
    chooses a loss of at least 2 printed CF."""
    s = _resolve(_german(forest=("0504",)))
    assert battle(s).drm == -2
    s, _ = roll(s, 3)
    assert battle(s).result == "Ex"
    assert set(legal(s)) == {Lose("PZ1"), Lose("I5")}
    s, _ = act(s, Lose("I5"))
    assert where(s, "I5") == "off" and where(s, "R1") == "off"


def test_lone_bracket_not_overrun_lone_eb_is_q37() -> None:
    """[Q37]: a lone [#] unit is not overrun (it is removed by moving through); a lone EB is."""
    s = world({"PZ1": "0404", "I5": "0403"}, {"G2": "0504"}, turn=3, phase=GERMAN_MOVEMENT)
    assert not any(isinstance(a, Overrun) for a in legal(s))
    s = world({"PZ1": "0404", "I5": "0403"}, {"SEB": "0504"}, turn=3, phase=GERMAN_MOVEMENT)
    assert OVR in legal(s)


def _soviet(die: int) -> State:
    """Nine Soviet 2s around PZ1 (mud GT 10, out of supply: 6 -> 1.5): 18 : 1.5 = 12-1 -> 11-1.
    T1 stands next to 0505 too but is not needed (not part of the minimal group)."""
    sov = {f"R{i}": h for i, h in zip(range(1, 10), ["0504"] * 3 + ["0604"] * 3 + ["0605"] * 3, strict=True)}
    s = world({"PZ1": "0505"}, sov | {"T1": "0506"}, turn=10, phase=SOVIET_MOVEMENT)
    s.supply = [0, -1]  # Germans out of supply as judged at the phase start
    nine = Overrun("0505", tuple(f"R{i}" for i in range(1, 10)))
    assert nine in legal(s)  # minimal: eight 2s reach only 16 : 1.5 = 10-1
    assert Overrun("0505", tuple(f"R{i}" for i in range(1, 9))) not in legal(s)
    s, _ = act(s, nine)
    s.supply = [0, -1]
    s.rail_german = 0  # still out of supply when the overrun is resolved
    s, _ = act(s, END)
    s, _ = roll(s, die)
    return s


def test_soviet_overrun_kg_stays_q36() -> None:
    """[Q36]: Soviet 11-1 roll 3 = De: PZ1 becomes a KG (+8 VP), stays face up in its hex,
    which is not vacated; in the combat phase that follows, a unit that did not overrun (T1)
    may attack it."""
    s = _soviet(3)
    k = unit(s, "PZ1")
    assert (s.kg >> k) & 1 and where(s, "PZ1") == "0505" and not (s.flipped >> k) & 1
    assert s.vp[SOVIET] == 8
    assert s.phase == SOVIET_COMBAT
    assert Attack("0505", ("T1",)) in legal(s)


def test_soviet_overrun_half_ex() -> None:
    """Soviet 11-1 roll 1 = 1/2Ex: PZ1 -> KG; the Soviets lose at least half its printed 6 (§8.3)."""
    s = _soviet(1)
    assert battle(s).result == "1/2Ex" and battle(s).owed == 3
    s, _ = act(s, Lose("R1"))
    s, _ = act(s, Lose("R2"))
    assert s.phase == SOVIET_COMBAT  # KG holds the hex: no advance


def test_overrun_participants_may_not_attack_that_hex_s142() -> None:
    """§14.2: units that carried out the overrun may attack other hexes in the following combat
    phase, not the overrun hex (here the KG left in it, [Q36])."""
    s = _soviet(3)
    assert Attack("0505", ("R1",)) not in legal(s)
