"""The Moscow Campaign combat phase (games/tmc/combat_phase.py) on hand-worked positions of a
small synthetic map (tests/tmc/combat_world.py). Geometry used below (neighbours):
0404: 0304 0305 0403 0405 0504 0505 · 0504: 0403 0404 0503 0505 0603 0604 ·
0505: 0404 0405 0504 0506 0604 0605 · 0403: 0303 0304 0402 0404 0503 0504 ·
0705: 0604 0605 0704 0706 0804 0805. Rail runs along row 5 (0105-1005).
Default turn GT 18 (freeze: no halving, no GT 1-4 shift, rivers and lakes frozen).
"""

from __future__ import annotations

from fractions import Fraction

from typhoon.games.tmc.actions import END, Advance, Attack, Disrupt, Ignore, Lose, Odds, Retreat
from typhoon.games.tmc.combat_phase import Battle, battle
from typhoon.games.tmc.rules import GERMAN, GERMAN_MECH, SOVIET, SOVIET_COMBAT
from typhoon.games.tmc.state import CHANCE, State

from .combat_world import act, declare, hx, legal, make_map, roll, run, unit, where, world

STOP = Advance(None, "")


def retreats(s: State) -> list[Retreat]:
    """The legal actions, all of which must be retreats here."""
    out = [a for a in legal(s) if isinstance(a, Retreat)]
    assert len(out) == len(legal(s))
    return out


def _battle_event(events: list) -> dict:  # type: ignore[type-arg]
    return next(e.data for e in events if e.kind == "battle")


# -- declaration ---------------------------------------------------------------------------------


def test_declare_attackers_adjacent_to_every_defending_hex() -> None:
    """§5 (standard SPI, kept): one attack may take in several defending hexes; every attacker
    must be adjacent to every defending hex of its attack."""
    s = world({"PZ1": "0404", "I1": "0403"}, {"R1": "0504", "R2": "0505"})
    assert set(legal(s)) == {
        Attack("0504", ("PZ1",)),
        Attack("0505", ("PZ1",)),
        Attack("0504", ("I1",)),
        END,
    }
    s, _ = act(s, Attack("0504", ("PZ1",)))
    assert set(legal(s)) == {Attack("0504", ("I1",)), Attack("0505", ()), END}
    s2, _ = act(s, Attack("0504", ("I1",)))  # I1 (0403) is not adjacent to 0505
    assert Attack("0505", ()) not in legal(s2)
    s3, ev = act(s, Attack("0505", ()))  # now an attack on both hexes; I1 cannot join it,
    b = battle(s3)  # so the engine closed it and the declarations (forced Ends)
    assert b.hexes == (hx("0504"), hx("0505")) and len(b.defenders) == 2
    assert _battle_event(ev)["defence"] == "4"


def test_each_unit_and_hex_once_per_phase() -> None:
    """§5: each unit attacks at most once and each defending hex is attacked at most once."""
    s = world({"PZ1": "0404", "I1": "0403", "I2": "0405"}, {"R1": "0504", "R2": "0505"})
    s, _ = run(s, Attack("0504", ("PZ1",)), END)
    acts = legal(s)
    assert all(a.units != ("PZ1",) for a in acts if isinstance(a, Attack))
    assert Attack("0504", ("I1",)) not in acts and Attack("0505", ("I2",)) in acts


def test_eb_bracket_disrupted_entrained_cannot_attack() -> None:
    """§13.1 EB never attacks; §13.2 [#] only stacked with a plain unit, not with only an EB
    ([Q31]); §7 [Q14] disrupted and [Q56] entrained units do not attack."""
    s = world({"I1": "0505"}, {"G1": "0504", "R1": "0504", "G2": "0604", "SEB": "0604"}, phase=SOVIET_COMBAT)
    attackers = {a.units[0] for a in legal(s) if isinstance(a, Attack)}
    assert attackers == {"G1", "R1"}
    s = world({"I1": "0505"}, {"R1": "0504", "R2": "0604"}, phase=SOVIET_COMBAT)
    s.disrupted[unit(s, "R1")] = 19
    s.entrained |= 1 << unit(s, "R2")
    assert legal(s) == [END]


def test_lone_bracket_cannot_be_attacked_lone_eb_can() -> None:
    """§13.2: a lone [#] unit cannot be attacked normally; §13.1: a lone EB can."""
    s = world({"PZ1": "0404"}, {"G1": "0504", "SEB": "0505"})
    assert set(legal(s)) == {Attack("0505", ("PZ1",)), END}


def test_no_attack_across_unfrozen_lake() -> None:
    """§3.3, §18: no combat across a lake hexside until GT 16."""
    m = make_map(lakes=[("0404", "0504")])
    s = world({"PZ1": "0404"}, {"R1": "0504"}, turn=3, m=m)
    assert legal(s) == [END]
    s = world({"PZ1": "0404"}, {"R1": "0504"}, turn=16, m=m)
    assert Attack("0504", ("PZ1",)) in legal(s)


# -- odds ----------------------------------------------------------------------------------------


def test_odds_lowering_and_gt1_4_shift() -> None:
    """§5.3/§5.4/§5.9: 6 against 2 is 3-1 (GT 18) or 4-1 in GT 3; the attacker may pick any
    lower column."""
    s = world({"PZ1": "0404"}, {"R1": "0504"})
    s, _ = act(s, Attack("0504", ("PZ1",)))
    assert legal(s) == [Odds(c) for c in ("1-2", "1-1", "2-1", "3-1")]
    s = world({"PZ1": "0404"}, {"R1": "0504"}, turn=3)
    s, _ = act(s, Attack("0504", ("PZ1",)))
    assert legal(s)[-1] == Odds("4-1")
    s, ev = act(s, Odds("1-1"))
    assert battle(s).column == 1 and any(e.kind == "odds" for e in ev)
    assert s.is_chance  # 1-1 has no Dr within reach: nothing to declare


def test_mud_halves_german_attack_and_defence_q46() -> None:
    """§18 mud (GT 10), [Q46]: PZ1 6 attacks at 3 against 2 (1-1); three Soviet 2s attack a
    German 3 defending at 1.5 (6 : 1.5 = 4-1)."""
    s = world({"PZ1": "0404"}, {"R1": "0504"}, turn=10)
    s, ev = act(s, Attack("0504", ("PZ1",)))
    assert _battle_event(ev)["attack"] == "3" and _battle_event(ev)["column"] == "1-1"
    s = world({"I1": "0505"}, {"R1": "0504", "R2": "0604", "R3": "0605"}, turn=10, phase=SOVIET_COMBAT)
    s, ev = declare(s, ("0505", ("R1", "R2", "R3")))
    assert _battle_event(ev)["defence"] == "3/2" and _battle_event(ev)["column"] == "4-1"


def test_supply_judged_at_combat_and_entrained_defender() -> None:
    """§11.3 out of supply halves (judged at the moment of combat, §11); §20.8 entrained
    defenders are halved; both together quarter ([Q10])."""
    s = world({"PZ1": "0404"}, {"R1": "0505"})
    s.rail_normal = 0  # no Soviet supply rail left: R1 out of supply now
    s, ev = act(s, Attack("0505", ("PZ1",)))
    assert _battle_event(ev)["defence"] == "1" and _battle_event(ev)["column"] == "6-1"
    s = world({"PZ1": "0404"}, {"R1": "0505"})
    s.rail_normal = 0
    s.entrained |= 1 << unit(s, "R1")
    s, ev = act(s, Attack("0505", ("PZ1",)))
    assert _battle_event(ev)["defence"] == "1/2" and _battle_event(ev)["column"] == "11-1"


# -- terrain -------------------------------------------------------------------------------------


def test_forest_drm() -> None:
    """§26: -2 to the attacker's die when the defender is in forest/swamp."""
    s = world({"PZ1": "0404"}, {"R1": "0504"}, m=make_map(forest=["0504"]))
    s, ev = act(s, Attack("0504", ("PZ1",)))
    assert _battle_event(ev)["drm"] == -2


def test_river_drm_only_if_all_attackers_across() -> None:
    """§5.7: -2 only if every attacker attacks across a river hexside (GT 3: rivers not frozen)."""
    m = make_map(rivers=[("0404", "0504"), ("0403", "0504")])
    s = world({"PZ1": "0404", "I1": "0403", "I2": "0503"}, {"R1": "0504"}, turn=3, m=m)
    _, ev = declare(s, ("0504", ("PZ1", "I1")))
    assert _battle_event(ev)["drm"] == -2
    _, ev = declare(s, ("0504", ("PZ1", "I1", "I2")))
    assert _battle_event(ev)["drm"] == 0


def test_defence_line_drm_german_only_q51() -> None:
    """§19.2, [Q51]: German attacks across intact front hexsides get -2; Soviet attacks across
    the same hexside do not (§19.1); a destroyed hexside gives nothing (§19.3)."""
    m = make_map(front=[("0404", "0504")])
    s = world({"PZ1": "0404"}, {"R1": "0504"}, m=m)
    _, ev = act(s, Attack("0504", ("PZ1",)))
    assert _battle_event(ev)["drm"] == -2
    s.dl_destroyed = 1
    s._cache = {}
    _, ev = act(s, Attack("0504", ("PZ1",)))
    assert _battle_event(ev)["drm"] == 0
    s = world({"PZ1": "0404"}, {"R1": "0504"}, m=m, phase=SOVIET_COMBAT)
    _, ev = act(s, Attack("0404", ("R1",)))
    assert _battle_event(ev)["drm"] == 0


# -- ignore Dr -----------------------------------------------------------------------------------


def _six_to_one(options: dict[str, str] | None = None) -> State:
    """PZ1 + I3 (0404) + I5 (0403) = 12 against R1 (2) in 0504: 6-1 (Ar Br Br Dr Ex Ex De,Ad
    De,Ad on rows -1..6). R1 could retreat to 0603 or 0604 (0505 is in German ZOC)."""
    s = world({"PZ1": "0404", "I3": "0404", "I5": "0403"}, {"R1": "0504"}, options=options)
    s, _ = declare(s, ("0504", ("PZ1", "I3", "I5")))
    s, _ = act(s, Odds("6-1"))
    return s


def test_ignore_dr_rerolls_q8() -> None:
    """§5.5, [Q8]: declared before the roll, a Dr is ignored and the die rolled again until
    another result comes up (here Ex on the second roll)."""
    s = _six_to_one()
    assert set(legal(s)) == {Ignore(True), Ignore(False)}
    s, _ = act(s, Ignore(True))
    s, ev = roll(s, 2)  # row 2: Dr - ignored
    assert s.is_chance and any(e.data.get("ignored") for e in ev)
    assert where(s, "R1") == "0504"
    s, ev = roll(s, 3)  # row 3: Ex
    assert where(s, "R1") == "off"
    assert battle(s).result == "Ex"


def test_without_declaration_dr_applies() -> None:
    """§5.5: without the declaration, the Dr stands and the attacker routes the retreat (§12.1)."""
    s = _six_to_one()
    s, _ = act(s, Ignore(False))
    s, _ = roll(s, 2)
    assert battle(s).stage == 5 and s.current_player() == GERMAN
    assert set(legal(s)) == {Retreat("R1", "0603"), Retreat("R1", "0604")}


def test_ignorable_result_option_br() -> None:
    """[Q8] option ignorable_result=Br: Br (row 1) is rerolled, Dr (row 2) then applies."""
    s = _six_to_one({"ignorable_result": "Br"})
    s, _ = act(s, Ignore(True))
    s, _ = roll(s, 1)
    assert s.is_chance
    s, _ = roll(s, 2)
    assert battle(s).result == "Dr"


# -- results -------------------------------------------------------------------------------------


def test_ae_eliminates_and_panzer_becomes_kg() -> None:
    """§7 Ae; §8.1: PZ1 (6) becomes a KG in its own hex ([Q16]); Soviets +2 x (6-2) = 8 VP.
    I3 eliminated outright: Soviets +2 (1/CF, §23)."""
    s = world({"PZ1": "0404", "I3": "0403"}, {"R1": "0504", "R2": "0504", "T1": "0504"})
    s, _ = declare(s, ("0504", ("PZ1", "I3")))
    s, _ = act(s, Odds("1-1"))  # 8 against 7; 1-1 has no Dr: no ignore question
    s, _ = roll(s, 1)
    assert where(s, "PZ1") == "0404" and (s.kg >> unit(s, "PZ1")) & 1
    assert where(s, "I3") == "off"
    assert s.vp == [0, 10]
    assert s.cf(unit(s, "PZ1")) == 2


def test_ar_attackers_retreat_routed_by_defender() -> None:
    """§7 Ar, §12.1: the defending player chooses; §12.3: not into EZOC unless a friendly
    unit is there (0403 is open to PZ1 while I3 stands in it); [Q29]: no direction is imposed
    (0403, still next to R1, is offered beside hexes farther away)."""
    s = world({"PZ1": "0404", "I3": "0403"}, {"R1": "0504"})
    s, _ = declare(s, ("0504", ("PZ1", "I3")))
    s, _ = run(s, Odds("4-1"), Ignore(False))
    s, _ = roll(s, 1)  # 4-1 row 1: Ar
    assert s.current_player() == SOVIET
    pz = {a.hex for a in retreats(s) if a.unit == "PZ1"}
    assert pz == {"0304", "0305", "0405", "0403"}
    i3 = {a.hex for a in retreats(s) if a.unit == "I3"}
    assert i3 == {"0303", "0304", "0402", "0404"}  # 0503: R1's ZOC; 0404: EZOC but PZ1 is there
    s, _ = act(s, Retreat("I3", "0303"))
    assert {a.hex for a in retreats(s)} == {"0304", "0305", "0405"}


def test_br_defender_then_attacker_no_advance() -> None:
    """§7 Br: the defender retreats first (routed by the attacker), then the attackers (routed by
    the defender); §9.2: no advance."""
    s = world({"PZ1": "0404", "I3": "0403"}, {"R1": "0504"})
    s, _ = declare(s, ("0504", ("PZ1", "I3")))
    s, _ = run(s, Odds("4-1"), Ignore(False))
    s, _ = roll(s, 3)  # row 3: Br
    assert s.current_player() == GERMAN and {a.unit for a in retreats(s)} == {"R1"}
    s, _ = act(s, Retreat("R1", "0604"))
    assert s.current_player() == SOVIET and {a.unit for a in retreats(s)} == {"PZ1", "I3"}
    s, _ = act(s, Retreat("PZ1", "0305"))
    s, _ = act(s, Retreat("I3", "0402"))
    assert s.combat is None and s.phase == GERMAN_MECH  # combat over, nobody advanced
    assert where(s, "PZ1") == "0305" and where(s, "R1") == "0604"


def test_dr_then_advance_destroys_rail() -> None:
    """§7 Dr, §9: attackers advance into the vacated hex up to stacking; an advance counts as
    entering (§16: a German unit entering normal rail destroys it, [Q21], [Q40])."""
    s = world({"PZ1": "0404", "I3": "0405"}, {"R1": "0505"})
    s, _ = declare(s, ("0505", ("PZ1", "I3")))
    s, _ = run(s, Odds("4-1"), Ignore(False))
    s, _ = roll(s, 5)  # row 5: Dr
    assert {a.hex for a in retreats(s)} == {"0604", "0605"}  # 0506 is in I3's ZOC
    s, _ = act(s, Retreat("R1", "0604"))
    assert set(legal(s)) == {Advance("PZ1", "0505"), Advance("I3", "0505"), STOP}
    assert (s.rail_normal >> hx("0505")) & 1
    s, _ = act(s, Advance("PZ1", "0505"))
    assert where(s, "PZ1") == "0505"
    assert not (s.rail_normal >> hx("0505")) & 1 and (s.rail_cut >> hx("0505")) & 1
    assert set(legal(s)) == {Advance("I3", "0505"), STOP}
    s, _ = act(s, STOP)
    assert s.combat is None and where(s, "I3") == "0405"


def test_defenders_eliminated_score_vp_s23() -> None:
    """§7 De,Ad (German 6-1, row 6); §23: 1 VP/CF for infantry, 2 VP/CF for a tank; the
    disruption quota is the defenders' printed 2 + 3."""
    s = world({"PZ1": "0404", "PZ2": "0403", "I5": "0503"}, {"R1": "0504", "T1": "0504"})
    s.rail_normal = 0  # out of supply: 5 CF defend as 2.5 -> 15 : 2.5 = 6-1
    s, _ = declare(s, ("0504", ("PZ1", "PZ2", "I5")))
    s, _ = run(s, Odds("6-1"), Ignore(False))
    s, _ = roll(s, 6)  # 6-1 row 6: De,Ad
    assert s.vp[GERMAN] == 2 + 6
    assert battle(s).result == "De,Ad" and battle(s).owed == 5


def test_ex_attacker_chooses_losses_q15_and_advance() -> None:
    """§7 Ex: defenders eliminated; the attacker removes participants of at least the
    defenders' printed CF (2), his choice ([Q15]); survivors may advance."""
    s = _six_to_one()
    s, _ = act(s, Ignore(False))
    s, _ = roll(s, 3)  # Ex
    assert where(s, "R1") == "off"
    assert set(legal(s)) == {Lose("PZ1"), Lose("I3"), Lose("I5")}
    s, ev = act(s, Lose("I3"))
    assert where(s, "I3") == "off" and s.vp == [2, 2]
    assert set(legal(s)) == {Advance("PZ1", "0504"), Advance("I5", "0504"), STOP}


def _ex_kg_setup(options: dict[str, str] | None = None) -> State:
    """R1+R2+R3 (printed 6) entrained and out of supply defend at 1.5; PZ1 + I1 (9) = 6-1, Ex."""
    s = world({"PZ1": "0404", "I1": "0405"}, {"R1": "0505", "R2": "0505", "R3": "0505"}, options=options)
    s.rail_normal = 0
    for r in ("R1", "R2", "R3"):
        s.entrained |= 1 << unit(s, r)
    s, _ = declare(s, ("0505", ("PZ1", "I1")))
    s, _ = run(s, Odds("6-1"), Ignore(False))
    s, _ = roll(s, 3)
    return s


def test_ex_kg_conversion_credit_q18() -> None:
    """§8.1, [Q18]: choosing PZ1 (6) as a loss makes it a KG and counts 6 - 2 = 4 toward the
    quota of 6, so I1 must go too; the KG may advance (§8.4)."""
    s = _ex_kg_setup()
    assert battle(s).owed == 6
    s, ev = act(s, Lose("PZ1"))
    assert (s.kg >> unit(s, "PZ1")) & 1 and where(s, "PZ1") == "0404"
    # 2 still owed: I1 (the only candidate left) goes as a forced decision
    assert where(s, "I1") == "off" and battle(s).owed == -1
    assert set(legal(s)) == {Advance("PZ1", "0505"), STOP}
    assert s.vp[SOVIET] == 8 + 3


def test_ex_kg_full_credit_option_q18() -> None:
    """[Q18] option kg_ex_credit=full: the KG conversion counts the full 6; I1 survives."""
    s = _ex_kg_setup({"kg_ex_credit": "full"})
    s, _ = act(s, Lose("PZ1"))
    assert where(s, "I1") == "0405" and battle(s).stage == 6


def test_quota_beyond_attackers_takes_all_q12() -> None:
    """[Q12]: S5+R1+R2 (printed 9, entrained, out of supply: 2.25) against PZ1 + PZ2 (11) in
    GT 3: 4-1 shifted to 5-1, row 5 Ex. The conversions count 4 + 3 = 7 < 9, so both attackers
    become KGs without a choice."""
    s = world({"PZ1": "0404", "PZ2": "0405"}, {"S5": "0505", "R1": "0505", "R2": "0505"}, turn=3)
    s.rail_normal = 0
    for r in ("S5", "R1", "R2"):
        s.entrained |= 1 << unit(s, r)
    s, ev = declare(s, ("0505", ("PZ1", "PZ2")))
    assert _battle_event(ev)["column"] == "5-1"
    s, _ = run(s, Odds("5-1"), Ignore(False))
    s, _ = roll(s, 5)
    assert (s.kg >> unit(s, "PZ1")) & 1 and (s.kg >> unit(s, "PZ2")) & 1
    assert isinstance(s.combat, Battle) and s.combat.stage == 6  # advancing
    assert set(legal(s)) == {Advance("PZ1", "0505"), Advance("PZ2", "0505"), STOP}


def test_soviet_ex_quota_printed_cf_of_german_mech_s83() -> None:
    """§8.3: Soviets attack PZ1 (6, mud: defends at 3) at 18 : 3 = 6-1; Ex makes PZ1 a KG
    (+8 VP) and the Soviet quota is its printed 6: three 2-CF units. The KG holds the hex:
    no advance ([Q16])."""
    sov = {f"R{i}": h for i, h in zip(range(1, 10), ["0504"] * 3 + ["0604"] * 3 + ["0605"] * 3, strict=True)}
    s = world({"PZ1": "0505"}, sov, turn=10, phase=SOVIET_COMBAT)
    s, ev = declare(s, ("0505", tuple(f"R{i}" for i in range(1, 10))))
    assert _battle_event(ev)["column"] == "6-1"
    s, _ = run(s, Odds("6-1"), Ignore(False))
    s, _ = roll(s, 3)  # Soviet 6-1 row 3: Ex
    assert (s.kg >> unit(s, "PZ1")) & 1 and where(s, "PZ1") == "0505"
    assert battle(s).owed == 6 and s.vp[SOVIET] == 8
    s, _ = run(s, Lose("R1"), Lose("R4"))
    assert s.vp[GERMAN] == 4 and battle(s).owed == 2  # 1 VP per Soviet infantry CF (§23)
    s, ev = act(s, Lose("R7"))
    assert s.combat is None  # KG still in 0505: nothing to advance into
    assert not any(e.kind == "advance" for e in ev)


def test_half_ex_odd_quota_q13() -> None:
    """[Q13]: 1/2Ex against printed 5 (I1 3 + I3 2) costs exactly 2.5: one 2-CF unit is not
    enough, a second is needed. Mud: the Germans defend at 2.5; 18 : 2.5 = 7-1, row 4."""
    sov = {f"R{i}": h for i, h in zip(range(1, 10), ["0504"] * 3 + ["0604"] * 3 + ["0605"] * 3, strict=True)}
    s = world({"I1": "0505", "I3": "0505"}, sov, turn=10, phase=SOVIET_COMBAT)
    s, ev = declare(s, ("0505", tuple(f"R{i}" for i in range(1, 10))))
    assert _battle_event(ev)["column"] == "7-1"
    s, _ = act(s, Odds("7-1"))  # no Dr on reachable rows: no ignore question
    s, _ = roll(s, 4)
    assert battle(s).result == "1/2Ex" and battle(s).owed == Fraction(5, 2)
    s, _ = act(s, Lose("R1"))
    assert battle(s).owed == Fraction(1, 2) and battle(s).stage == 3
    s, _ = act(s, Lose("R2"))
    assert battle(s).stage == 6


def test_de_ad_disruption_q14() -> None:
    """§7 De,Ad: R1 (entrained: 1) eliminated; PZ1 + I1 = 9-1, row 2; the attacker disrupts
    units of at least 2 printed CF; a disrupted unit does not advance and stays disrupted until
    GT n+1 ([Q14])."""
    s = world({"PZ1": "0404", "I1": "0403"}, {"R1": "0504"})
    s.entrained |= 1 << unit(s, "R1")
    s, _ = declare(s, ("0504", ("PZ1", "I1")))
    s, _ = act(s, Odds("9-1"))  # Dr only on row 0: out of reach, no ignore question
    s, _ = roll(s, 2)
    assert set(legal(s)) == {Disrupt("PZ1"), Disrupt("I1")}
    s, _ = act(s, Disrupt("I1"))
    assert s.disrupted == {unit(s, "I1"): 19}
    assert set(legal(s)) == {Advance("PZ1", "0504"), STOP}


# -- retreat details -----------------------------------------------------------------------------


def test_kg_when_no_retreat_q28_and_hex_not_vacated_q16() -> None:
    """§8.2, [Q28]: PZ1 surrounded (every neighbour Soviet or in Soviet ZOC) must retreat on
    Dr: it becomes a KG in place; the hex is not vacated, no advance ([Q16])."""
    sov = {f"R{i}": h for i, h in zip(range(1, 10), ["0504"] * 3 + ["0506"] * 3 + ["0605"] * 3, strict=True)}
    s = world({"PZ1": "0505"}, sov, turn=10, phase=SOVIET_COMBAT)
    s, _ = declare(s, ("0505", tuple(f"R{i}" for i in range(1, 10))))
    s, _ = run(s, Odds("6-1"), Ignore(False))
    s, ev = roll(s, 2)  # Soviet 6-1 row 2: Dr
    assert (s.kg >> unit(s, "PZ1")) & 1 and where(s, "PZ1") == "0505"
    assert s.combat is None and s.vp[SOVIET] == 8


def test_overstack_on_retreat_eliminates_s103() -> None:
    """§10.3, §12.5: R1's only hex outside German ZOC-without-friends is 0603, which already
    holds 3 Soviet units: R1 is eliminated. With only 2 there it may retreat into 0603
    (EZOC hex with a friendly unit, §12.3)."""
    g = {"PZ1": "0404", "I1": "0505", "I2": "0503"}
    s = world(g, {"R1": "0504", "R2": "0603", "R3": "0603", "R4": "0603"})
    s, _ = declare(s, ("0504", ("PZ1", "I1", "I2")))
    s, _ = run(s, Odds("6-1"), Ignore(False))
    s, _ = roll(s, 2)  # Dr
    assert where(s, "R1") == "off" and s.vp[GERMAN] == 2
    s = world(g, {"R1": "0504", "R2": "0603", "R3": "0603"})
    s, _ = declare(s, ("0504", ("PZ1", "I1", "I2")))
    s, _ = run(s, Odds("6-1"), Ignore(False))
    s, _ = roll(s, 2)
    assert where(s, "R1") == "0603"  # the only choice, taken by the engine


def _eb_attack(s: State) -> State:
    s, _ = declare(s, ("0705", ("PZ1", "I1")))  # 9 against 1: 9-1, lowered to 6-1
    s, _ = run(s, Odds("6-1"), Ignore(False))
    s, _ = roll(s, 2)  # 6-1 row 2: Dr
    return s


def test_eb_retreats_along_rail_only_s173() -> None:
    """§17.3: SEB (1) in 0705 retreats only along normal/repaired rail: of its rail neighbours
    0605 is in German ZOC, so 0805 (non-rail hexes such as 0706 are never offered); with 0805
    destroyed it is eliminated (+1 VP, [Q62])."""
    s = _eb_attack(world({"PZ1": "0604", "I1": "0704"}, {"SEB": "0705"}))
    assert where(s, "SEB") == "0805"
    s = world({"PZ1": "0604", "I1": "0704"}, {"SEB": "0705"})
    s.rail_normal &= ~(1 << hx("0805"))
    s = _eb_attack(s)
    assert where(s, "SEB") == "off" and s.vp[GERMAN] == 1


def test_split_retreat_q30() -> None:
    """[Q30]: units of one hex may retreat to different hexes, the opponent deciding unit by
    unit. 12 against R1 + R2 (4) = 3-1, row 6: Dr."""
    s = world({"PZ1": "0404", "I3": "0404", "I5": "0403"}, {"R1": "0504", "R2": "0504"})
    s, _ = declare(s, ("0504", ("PZ1", "I3", "I5")))
    s, _ = run(s, Odds("3-1"), Ignore(False))
    s, _ = roll(s, 6)
    assert set(legal(s)) == {
        Retreat("R1", "0603"),
        Retreat("R1", "0604"),
        Retreat("R2", "0603"),
        Retreat("R2", "0604"),
    }
    s, _ = act(s, Retreat("R1", "0603"))
    assert set(legal(s)) == {Retreat("R2", "0603"), Retreat("R2", "0604")}
    s, _ = act(s, Retreat("R2", "0604"))
    assert where(s, "R1") == "0603" and where(s, "R2") == "0604"


def test_retreat_again_when_attacked_again_s124() -> None:
    """§12.4: R1 retreats (Dr) into 0604 beside R3 (its only hex: 0603 and 0505 are in German
    ZOC without Soviet units); the second attack, on 0604, then meets both."""
    g = {"PZ1": "0404", "I3": "0404", "I5": "0403", "PZ2": "0704", "I1": "0705"}
    s = world(g, {"R1": "0504", "R3": "0604"})
    s, _ = declare(s, ("0504", ("PZ1", "I3", "I5")), ("0604", ("PZ2", "I1")))
    s, _ = run(s, Odds("6-1"), Ignore(False))
    s, _ = roll(s, 2)  # Dr, retreat forced into 0604
    assert where(s, "R1") == "0604"
    s, _ = act(s, STOP)
    b = battle(s)
    assert b.hexes == (hx("0604"),) and set(b.defenders) == {unit(s, "R1"), unit(s, "R3")}


def test_current_player_at_chance_and_soviet_attack_retreat() -> None:
    """§12.1: for a Soviet Dr the Soviet (attacking) player routes the German retreat; the
    die roll is a chance node."""
    s = world({"I3": "0505"}, {"R1": "0504", "R2": "0504", "R3": "0604"}, phase=SOVIET_COMBAT)
    s, _ = declare(s, ("0505", ("R1", "R2", "R3")))
    s, _ = run(s, Odds("3-1"), Ignore(False))
    assert s.current_player() == CHANCE
    s, _ = roll(s, 6)  # Soviet 3-1 row 6: Dr
    assert s.current_player() == SOVIET
    assert set(legal(s)) == {Retreat("I3", "0405"), Retreat("I3", "0506")}


def test_advance_across_defence_line_destroys_hexside_q50() -> None:
    """[Q50]: a German advance across an intact front hexside destroys it. (I1 attacks from
    0403, not across the line, so no -2: §5.7.)"""
    m = make_map(front=[("0404", "0504")])
    s = world({"PZ1": "0404", "I1": "0403"}, {"R1": "0504"}, m=m)
    s.entrained |= 1 << unit(s, "R1")
    s, ev = declare(s, ("0504", ("PZ1", "I1")))
    assert _battle_event(ev)["drm"] == 0
    s, _ = act(s, Odds("9-1"))
    s, _ = roll(s, 6)  # 9-1 row 6: De
    assert battle(s).result == "De" and s.dl_destroyed == 0
    s, _ = act(s, Advance("PZ1", "0504"))
    assert s.dl_destroyed == 1


def test_overstack_retreat_makes_kg_q17() -> None:
    """[Q17], §8.2: PZ1's only free neighbour 0404 is full of German units: instead of being
    eliminated by the overstack it becomes a KG in place (+8 VP to the Soviets)."""
    sov = {f"R{i}": h for i, h in zip(range(1, 10), ["0504"] * 3 + ["0506"] * 3 + ["0605"] * 3, strict=True)}
    s = world({"PZ1": "0505", "I1": "0405", "I2": "0405", "I3": "0405"}, sov, turn=10, phase=SOVIET_COMBAT)
    # 0405 (three Germans) is the only hex not in Soviet ZOC-without-Germans; it is full.
    s, _ = declare(s, ("0505", tuple(f"R{i}" for i in range(1, 10))))
    s, _ = run(s, Odds("6-1"), Ignore(False))
    s, _ = roll(s, 2)  # Dr
    assert (s.kg >> unit(s, "PZ1")) & 1 and where(s, "PZ1") == "0505" and s.vp[SOVIET] == 8


def test_advance_up_to_stacking_limit_q21() -> None:
    """§10, [Q21]: after De any number of surviving attackers advance one hex, up to 3 units."""
    s = world({"PZ1": "0404", "I3": "0404", "I5": "0403", "I1": "0503"}, {"R1": "0504"})
    s.entrained |= 1 << unit(s, "R1")  # defends at 1: 15 : 1 = 11-1
    s, _ = declare(s, ("0504", ("PZ1", "I3", "I5", "I1")))
    s, _ = act(s, Odds("11-1"))
    s, _ = roll(s, 6)  # De
    s, _ = run(s, Advance("PZ1", "0504"), Advance("I3", "0504"))
    assert set(legal(s)) == {Advance("I5", "0504"), Advance("I1", "0504"), STOP}
    s, ev = act(s, Advance("I5", "0504"))
    assert s.combat is None and where(s, "I1") == "0503"  # 0504 full: the advance ends


def test_bracket_stack_without_plain_unit_defends() -> None:
    """§13.2: [#] units stacked only with [#] units can be attacked and defend with their CF."""
    s = world({"PZ1": "0404"}, {"G1": "0504", "G2": "0504"})
    s, ev = declare(s, ("0504", ("PZ1",)))
    assert _battle_event(ev)["defence"] == "3"


def test_retreat_into_full_hex_is_the_opponents_choice_q28() -> None:
    """§10.3, §12.1, [Q28]: the attacker routes the Dr; a hex already holding 3 friendly units
    is offered beside the free one, and choosing it eliminates the retreating unit instead
    ("eliminated rather than illegal"). German 4-1, row 5: Dr."""
    g = {"PZ1": "0404", "I1": "0505"}
    sov = {"R1": "0504", "R2": "0603", "R3": "0603", "R4": "0603"}
    s = world(g, sov)
    s, _ = declare(s, ("0504", ("PZ1", "I1")))
    s, _ = run(s, Odds("4-1"), Ignore(False))
    s, _ = roll(s, 5)
    assert set(retreats(s)) == {Retreat("R1", "0503"), Retreat("R1", "0603")}
    t, _ = act(s, Retreat("R1", "0603"))
    assert where(t, "R1") == "off" and t.vp[GERMAN] == s.vp[GERMAN] + 2
    assert [where(t, r) for r in ("R2", "R3", "R4")] == ["0603"] * 3
    t, _ = act(s, Retreat("R1", "0503"))
    assert where(t, "R1") == "0503" and t.vp[GERMAN] == s.vp[GERMAN]
