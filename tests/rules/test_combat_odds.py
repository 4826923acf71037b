"""Combat odds (seed 002, «Бой» steps 1-3, «Максимальное и минимальное соотношения», «Влияние
местности», «Пример боя», «Грязь»).

The seed's combat example (figure not available) rebuilt on the GDW map around the Vyazma line
fortification 0504 (even columns drawn half a hex lower; X fortification, F forest)::

          03            04            05            06
       0303                        0503 X
                     0403 XLVII                 0603 XIII (Vyazma)
       0304                        0504 X 24A
                     0404 V                     0604 F
       0305                        0505 X VI
                     0405 F                     0605

River hexsides around 0504: 0403|0504, 0404|0504, 0503|0504, 0504|0604; none on 0504|0505 or
0504|0603. 24A is a half-strength army (4). Attackers: XLVII panzer corps (9) in 0403 and V
corps (6) in 0404, both across the river; in the second attack also VI corps at half strength
(2) in 0505, not across it. XIII in Vyazma does not attack (it only closes the last hex).
"""

from __future__ import annotations

import pytest

from .helpers import battle_data, fight, phase, pos, result_of, step, steps, where

EXAMPLE_1 = {"G": "XLVII@0403,V@0404,XIII@0603", "S": "24A@0504/h", "t": 2}
EXAMPLE_2 = {"G": "XLVII@0403,V@0404,VI@0505/h,XIII@0603", "S": "24A@0504/h", "t": 2}


def test_combat_example_1() -> None:
    """Seed 002, «Пример боя», first attack: 15 against 4 is 3:1 (fractions dropped); one
    column left for the river (every attacker is across it) and one for the fortification:
    final odds 1:1. On the 1:1 column a 6 is AL (the attacker loses a step)."""
    s, events = fight(pos(**EXAMPLE_1), "0504", "XLVII", "V")
    d = battle_data(events)
    assert (d["attack"], d["defense"], d["column"], d["final"]) == (15, 4, 3, 1)
    assert len(d["shifts"]) == 2
    assert any("river" in x for x in d["shifts"]) and any("fortification" in x for x in d["shifts"])
    s, events = fight(s, "0504", die=6)
    assert result_of(events) == "AL"


def test_combat_example_2_gives_3_to_1() -> None:
    """Seed 002, «Пример боя», second attack: as the first plus a German infantry unit of
    strength 2 that is NOT across the river: 17 against 4 is 4:1; the river no longer shifts
    (not all attackers are across it), the fortification does: the rules give 3:1.

    The Russian translation says the final odds are "1 к 1": by its own rules (one column for
    the fortification, none for the river) 4:1 becomes 3:1, so '1:1' is a slip of the
    translation. On the 3:1 column a 6 is DRL (at 1:1 it would be AL)."""
    s, events = fight(pos(**EXAMPLE_2), "0504", "XLVII", "V", "VI")
    d = battle_data(events)
    assert (d["attack"], d["defense"], d["column"], d["final"]) == (17, 4, 4, 3)
    assert d["shifts"] == ["fortification"]
    s, events = fight(s, "0504", die=6)
    assert result_of(events) == "DRL"
    assert where(s, "24A") is None  # a half-strength army that loses a step is eliminated


def test_combat_example_2_surrounded_defender_eliminated_on_retreat() -> None:
    """Seed 002, «Пример боя»: "the Soviet unit will be eliminated if it has to retreat,
    because it is surrounded by enemy zones of control": every hex next to 0504 holds a
    German unit (0403 0404 0505 0603) or is in a German zone (0503, 0604). A DR (die 1 on
    3:1) eliminates it, and an attacker may then advance."""
    s, events = fight(pos(**EXAMPLE_2), "0504", "XLVII", "V", "VI", die=1)
    assert result_of(events) == "DR"
    assert where(s, "24A") is None
    assert step(s) == "advance"


def test_combat_example_2_in_mud() -> None:
    """Seed 002, «Грязь»: in mud the attack strength of every unit is halved (GDW), fractions
    kept: the second example's 17 becomes 8.5, 8.5 against 4 is 2:1 before terrain; the
    fortification then makes it 1:1. The defender is not halved."""
    s, events = fight(pos(**{**EXAMPLE_2, "t": 3}), "0504", "XLVII", "V", "VI")
    d = battle_data(events)
    assert (d["attack"], d["defense"], d["column"], d["final"]) == (8.5, 4, 2, 1)
    assert d["shifts"] == ["fortification"]


def test_fractions_dropped() -> None:
    """«Бой», step 2: divide, dropping fractions: 16 against 4 is 4:1, 15 against 4 is 3:1
    (here a clear hex, no river: no shifts)."""
    base = {"S": "16A@1208/h", "t": 2}
    _, ev16 = fight(pos(G="XXIV@1108,XXXIV@1109", **base), "1208", "XXIV", "XXXIV")
    _, ev15 = fight(pos(G="XXIV@1108,V@1109/h", **base), "1208", "XXIV", "V")
    assert (battle_data(ev16)["attack"], battle_data(ev16)["final"]) == (16, 4)
    d = battle_data(ev15)  # 12 + 3 = 15 against 4: 3:1
    assert (d["attack"], d["column"], d["final"], d["shifts"]) == (15, 3, 3, [])


def test_odds_capped_at_6_to_1_before_shifts() -> None:
    """«Максимальное и минимальное соотношения»: in step 2 odds above 6:1 count as 6:1; the
    terrain shifts come after (step 3). 28 against 4 in a forest (1303) is 7:1, capped to
    6:1, then one left for the forest: 5:1 (not 6:1)."""
    s = pos(G="XXIV@1202,XLI@1302,XXXIV@1403", S="16A@1303/h", t=2)
    _, events = fight(s, "1303", "XXIV", "XLI", "XXXIV")
    d = battle_data(events)
    assert (d["attack"], d["column"], d["final"], d["shifts"]) == (28, 6, 5, ["forest"])


def test_below_1_to_1_after_shifts_no_effect() -> None:
    """«Максимальное и минимальное соотношения»: if after step 3 the odds are below 1:1, the
    attack has no effect on either side: 4 against 4 in a forest is 1:1 shifted to below 1:1;
    no die is rolled and nothing happens."""
    s = pos(G="XXXIV@1202,XXIV@0101", S="16A@1303/h,3A@1410/h", t=2)
    s2, events = fight(s, "1303", "XXXIV")
    assert [e.data.get("result") for e in events if e.kind == "result"] == ["none"]
    assert not any(e.kind == "roll" for e in events)
    assert where(s2, "16A") == "1303" and steps(s2, "16A") == 1
    assert where(s2, "XXXIV") == "1202" and steps(s2, "XXXIV") == 2
    assert phase(s2) == "german_movement"  # the only battle is over, so is the phase


def test_below_1_to_1_before_shifts_no_effect() -> None:
    """«Максимальное и минимальное соотношения»: 3 against 4 is below 1:1 already: no effect."""
    s = pos(G="V@1108/h,XXIV@0101", S="16A@1208/h", t=2)
    s2, events = fight(s, "1208", "V")
    assert battle_data(events)["column"] == 0
    assert not any(e.kind == "roll" for e in events)
    assert where(s2, "16A") == "1208" and where(s2, "V") == "1108"


def test_moscow_shift_and_river_cumulative() -> None:
    """«Влияние местности»: a defender in Moscow shifts one column left; if all attackers are
    also across a river, two columns. Moscow (1103) has river hexsides to 1002 and 1003 but not
    to 1202. 24 against 4 (6:1): from 1002+1003 -> 4:1; from 1002+1202 -> 5:1."""
    both = pos(G="XXIV@1002,XLI@1003", S="16A@1103/h", t=2)
    _, ev = fight(both, "1103", "XXIV", "XLI")
    d = battle_data(ev)
    assert (d["column"], d["final"], len(d["shifts"])) == (6, 4, 2)
    one = pos(G="XXIV@1002,XLI@1202", S="16A@1103/h", t=2)
    _, ev = fight(one, "1103", "XXIV", "XLI")
    d = battle_data(ev)
    assert (d["column"], d["final"], d["shifts"]) == (6, 5, ["Moscow"])


def test_moscow_shift_for_german_defender() -> None:
    """«Влияние местности»: the Moscow shift is for any defender in Moscow ("(только
    советские)" qualifies only the fortification). Soviet 16A (8) and 3A (8) attack a
    half-strength XXXV (4) in Moscow from 1202 and 1102: 16 against 4 is 4:1, Moscow makes it
    3:1."""
    s = pos(G="XXXV@1103/h", S="16A@1202,3A@1102", t=2, ph="soviet_combat", ctl="0204,0307,1103")
    _, ev = fight(s, "1103", "16A", "3A")
    d = battle_data(ev)
    assert (d["attack"], d["column"], d["final"], d["shifts"]) == (16, 4, 3, ["Moscow"])


def test_fortification_only_for_soviet_defender() -> None:
    """«Влияние местности»: fortifications shift the odds only for a Soviet defender. A German
    corps in Mozhaisk (0803, fortification, no river around it) attacked from 0903 and 0804
    gets no shift."""
    s = pos(G="XXXV@0803/h", S="16A@0903,3A@0804", t=2, ph="soviet_combat", ctl="0204,0307,0803")
    _, ev = fight(s, "0803", "16A", "3A")
    d = battle_data(ev)
    assert (d["column"], d["final"], d["shifts"]) == (4, 4, [])


def test_forest_shift_for_german_defender_and_river() -> None:
    """«Влияние местности»: forest shifts for either side's defender; river when every
    attacker is across it. German XXXV (8) in the forest 0806 is attacked across the rivers
    0805|0806 and 0806|0906 by two full armies (16 against 8 = 2:1): forest and river make it
    below 1:1 -- no effect. From 0805 and 0707 (0707|0806 is not a river) it is 1:1."""
    across = pos(G="XXXV@0806", S="16A@0805,3A@0906", t=2, ph="soviet_combat")
    _, ev = fight(across, "0806", "16A", "3A")
    d = battle_data(ev)
    assert (d["column"], d["final"], len(d["shifts"])) == (2, 0, 2)
    assert not any(e.kind == "roll" for e in ev)
    mixed = pos(G="XXXV@0806", S="16A@0805,3A@0707", t=2, ph="soviet_combat")
    _, ev = fight(mixed, "0806", "16A", "3A")
    d = battle_data(ev)
    assert (d["column"], d["final"], d["shifts"]) == (2, 1, ["forest"])


def test_half_strength_values_used() -> None:
    """«Набор игры»: a unit fights with the strength of the side showing: full XXIV 12, half
    XLI 6 against a full army (8): 18 against 8 is 2:1."""
    s = pos(G="XXIV@1108,XLI@1109/h", S="16A@1208", t=2)
    _, ev = fight(s, "1208", "XXIV", "XLI")
    d = battle_data(ev)
    assert (d["attack"], d["defense"], d["final"]) == (18, 8, 2)


@pytest.mark.parametrize(("turn", "attack"), [(3, 8.0), (4, 8.0), (5, 16.0)])
def test_mud_halves_every_attacker_gdw(turn: int, attack: float) -> None:
    """«Грязь» (GDW): in turns 3 and 4 every unit's attack strength is halved, fractions kept:
    XLVII 9 -> 4.5 and VII 7 -> 3.5 make 8 against 4 = 2:1 (halving after adding would be
    the same here; dropping fractions per unit would give 4 + 3 = 7, 1:1). Infantry are halved
    too in GDW."""
    s = pos(G="XLVII@1108,VII@1109", S="16A@1208/h", t=turn)
    _, ev = fight(s, "1208", "XLVII", "VII")
    d = battle_data(ev)
    assert d["attack"] == attack and d["defense"] == 4
    assert d["final"] == min(int(attack // 4), 6)
