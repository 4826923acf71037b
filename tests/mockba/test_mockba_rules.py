"""MOCKBA rules, one test (or more) per rule, on hand-built positions. "Seed" cites seed 000
(shared/seeds/000_8408c38f8cc1bc90.txt) by its section title; "pack" the reference pack's
rules_en.md / gaps.md; "Qn" its open questions. docs/MOCKBA_RULE_INDEX.md maps rules to tests."""

from __future__ import annotations

from typing import Any

import pytest

from typhoon.errors import IllegalActionError
from typhoon.games.mockba.engine import (
    apply,
    fort_shift,
    legal_actions,
    move_options,
    movement_points,
    odds,
    rail_options,
    result_of,
    retreat_paths,
    strengths,
    traces_supply,
    unit_cf,
    victory_points,
    zoc,
)
from typhoon.games.mockba.notation import action_from_text
from typhoon.games.mockba.rules import GERMAN, SOVIET, hex_id, hex_index, load_rules
from typhoon.games.mockba.state import ELIM, OFF, PHASE_INDEX, PHASES, Battle, State

from .world import at, bit, moves, play, texts, uid, world

H = hex_index


def _river_side() -> tuple[str, str]:
    """A river hexside between two clear hexes, no road, no rail, no city, in the south."""
    r = load_rules()
    for a, b in sorted(r.rivers):
        clean = all(
            r.terrain[x] == "clear" and not r.rail_hexes >> x & 1 and not r.city_hexes >> x & 1
            for x in (a, b)
        )
        if (
            clean
            and (a, b) not in r.road
            and 30 <= a % r.rows <= 38
            and a not in r.forts
            and b not in r.forts
        ):
            return hex_id(a), hex_id(b)
    raise AssertionError("no river hexside found")


RA, RB = _river_side()


# ----------------------------------------------------------------------------- the test ground
def test_test_ground_is_clear_open_country() -> None:
    r = load_rules()
    for c in range(17, 21):
        for row in range(33, 40):
            h = H(f"{c:02d}{row:02d}")
            assert r.terrain[h] == "clear" and not r.rail_hexes >> h & 1 and not r.city_hexes >> h & 1
            assert all(r.pair(h, n) not in r.rivers and r.pair(h, n) not in r.road for n in r.nbrs[h])


# ----------------------------------------------------------------------------- movement (seed)
def test_clear_terrain_costs_one_mf() -> None:
    """Seed TEC: open terrain 1 MF: a 4-3 infantry division moves 3 hexes in the open, not 4."""
    s = world({"G9A.inf1": "1836"})
    m = moves(s, "G9A.inf1")
    assert "1839" in m and "1536" in m  # 3 hexes
    assert "1840" not in m and "1436" not in m  # 4 hexes


def test_road_costs_half_and_rough_two_for_motorised_and_river_extra_by_calendar() -> None:
    """Seed TEC: main road 0.5 MF; rough 1 MF for infantry/cavalry, 2 for Pz-Tk-Mec; a river
    hexside +1 MF, turns 4 and 5 +2 (calendar). Costs are kept in half MF."""
    r = load_rules()
    a, b = next(iter(sorted(r.road)))
    assert dict(r.steps(False, 1)[a])[b] in (1, 1 + 2)  # road (+ a river at a bridge)
    rough = next(h for h in range(len(r.terrain)) if r.terrain[h] == "rough")
    src = next(
        n for n in r.nbrs[rough] if r.pair(n, rough) not in r.rivers and r.pair(n, rough) not in r.road
    )
    assert dict(r.steps(False, 1)[src])[rough] == 2
    assert dict(r.steps(True, 1)[src])[rough] == 4
    ra, rb = H(RA), H(RB)
    assert dict(r.steps(False, 1)[ra])[rb] == 2 + 2
    assert dict(r.steps(False, 2)[ra])[rb] == 2 + 4
    assert [t["river"] for t in r.calendar[1:]][3:5] == [2, 2]


def test_lakes_are_impassable() -> None:
    """Seed TEC: lakes impassable: no step into a lake hex exists."""
    r = load_rules()
    lakes = {h for h in range(len(r.terrain)) if r.terrain[h] == "lake"}
    assert lakes
    assert all(n not in lakes for row in r.steps(True, 1) for n, _ in row)


def test_road_move_goes_twice_as_far() -> None:
    """Seed: movement via the main road costs 0.5 MF: a 4-3 on the highway with no river reaches
    6 road hexes away."""
    r = load_rules()
    hw = [h for pair in sorted(r.road) for h in pair]
    # A stretch of 7 road hexes with no river, no city and nothing else on it.
    chain = _road_chain(r)
    start, end = chain[0], chain[6]
    s = world({"G9A.inf1": hex_id(start)}, turn=2)
    assert hex_id(end) in moves(s, "G9A.inf1")
    assert hw


def _road_chain(r: object) -> list[int]:
    rr = load_rules()
    adj: dict[int, list[int]] = {}
    for a, b in rr.road:
        if (a, b) in rr.rivers:
            continue
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)
    for start in sorted(adj):
        path = [start]
        while len(path) < 7:
            nxt = [n for n in adj.get(path[-1], []) if n not in path]
            if not nxt:
                break
            path.append(nxt[0])
        if len(path) == 7:
            return path
    raise AssertionError("no road stretch")


def test_entering_an_enemy_zoc_ends_the_move() -> None:
    """Seed: a ground unit must end its move on entering an enemy ZOC (the six adjacent hexes):
    1839 is reached only through 1837-1838, both next to the Soviet unit on 1938."""
    free = world({"G9A.inf1": "1836"})
    assert "1839" in moves(free, "G9A.inf1")
    s = world({"G9A.inf1": "1836", "16A.rif1": "1938"})
    m = moves(s, "G9A.inf1")
    assert "1837" in m and "1838" in m and "1839" not in m  # 1838 via 1738, but no further
    assert zoc(s, SOVIET) == sum(1 << n for n in s.rules.nbrs[H("1938")])


def test_units_never_enter_enemy_units() -> None:
    """Seed: units may never be moved onto or over enemy units."""
    s = world({"G3P.pz1": "1836", "16A.rif1": "1937"})
    assert "1937" not in moves(s, "G3P.pz1")


def test_only_armour_moves_zoc_to_zoc_at_one_extra_mf() -> None:
    """Seed: only armoured units (Panzer 7-6, Tank 2-4) move from enemy ZOC to ZOC, +1 MF;
    a motorised 5-6 may not (exploitation: no German infantry shift)."""
    units = {"G3P.pz1": "1837", "G3P.mot1": "1837", "16A.rif1": "1938", "16A.rif2": "1737"}
    s = world(units, phase="g_exploit", turn=2)
    assert "1838" in moves(s, "G3P.pz1")
    assert not moves(s, "G3P.mot1")  # every neighbour of 1837 is in the Soviet ZOC
    costs = move_options(s, uid(s, "G3P.pz1"))
    assert costs[H("1838")] == 2 + 2  # clear 1 MF + ZOC to ZOC 1 MF


def test_german_non_armour_shifts_one_hex_zoc_to_zoc_in_the_first_movement_only() -> None:
    """Seed: German unarmoured units starting in an enemy ZOC may, in the first movement phase,
    move to an adjacent hex in a ZOC and stop; not in the exploitation phase; Soviets never."""
    units = {"G9A.inf1": "1837", "16A.rif1": "1938", "16A.rif2": "1737"}
    first = moves(world(units, phase="g_move"), "G9A.inf1")
    assert "1838" in first and not first & {"1839", "1739"}  # one hex, then stop
    assert not moves(world(units, phase="g_exploit", turn=2), "G9A.inf1")
    sov = world({"16A.rif3": "1837", "G9A.inf1": "1938", "G9A.inf2": "1737"}, phase="s_move")
    assert not moves(sov, "16A.rif3")


def test_a_unit_may_always_move_one_hex() -> None:
    """Seed: a unit can move at least 1 hex even with insufficient MF: turn 5 a 4-3 has MF 2
    (calendar), crossing a river costs 1 + 2."""
    s = world({"G9A.inf1": RA}, turn=5)
    assert movement_points(s, uid(s, "G9A.inf1")) == 4  # half MF
    assert RB in moves(s, "G9A.inf1")


def test_german_mf_reductions_follow_the_calendar_and_spare_mf_2() -> None:
    """Seed calendar: German MF reduction per MF type in the first movement and exploitation
    phases; a unit with an MF of 2 is not reduced."""
    s = world({"G9A.inf1": "1836", "G3P.pz1": "1834", "G9A.bde1": "1934"}, turn=5)
    cal = s.rules.calendar[5]["german_mf_reduction"]["first"]
    assert movement_points(s, uid(s, "G9A.inf1")) == 2 * (3 - cal["3"])
    assert movement_points(s, uid(s, "G3P.pz1")) == 2 * (6 - cal["6"])
    assert movement_points(s, uid(s, "G9A.bde1")) == 4
    e = world({"G9A.inf1": "1836"}, phase="g_exploit", turn=3)
    assert movement_points(e, uid(e, "G9A.inf1")) == 2 * (
        3 - s.rules.calendar[3]["german_mf_reduction"]["exploitation"]["3"]
    )
    sov = world({"16A.rif1": "1836"}, phase="s_move", turn=5)
    assert movement_points(sov, uid(sov, "16A.rif1")) == 6  # Soviets are never reduced (Q7)


def test_stacking_german_three_divisions_and_a_regiment() -> None:
    """Seed: German stacking 3 divisions and 1 regiment; 2 brigades = 1 division."""
    three = {"G9A.inf1": "1836", "G9A.inf2": "1836", "G9A.inf3": "1836"}
    s = world({**three, "G9A.inf4": "1837", "G2P.reg1": "1835"})
    assert "1836" not in moves(s, "G9A.inf4")
    assert "1836" in moves(s, "G2P.reg1")
    two = world({"G9A.inf1": "1836", "G9A.inf2": "1836", "G9A.bde1": "1836", "G9A.inf4": "1837"})
    assert "1836" not in moves(two, "G9A.inf4")  # 2.5 divisions + 1 division > 3


def test_stacking_soviet_four_divisions_two_brigades_one_division() -> None:
    """Seed: Soviet stacking 4 divisions; 2 brigades count as 1 division."""
    four = {f"16A.rif{i}": "1836" for i in range(1, 5)}
    s = world({**four, "16A.rif5": "1837", "3A.tank1": "1835"}, phase="s_move")
    assert "1836" not in moves(s, "16A.rif5") and "1836" not in moves(s, "3A.tank1")
    tanks = {"16A.rif1": "1836", "16A.rif2": "1836", "16A.rif3": "1836", "3A.tank1": "1836"}
    t = world({**tanks, "13A.tank1": "1837", "16A.rif4": "1835"}, phase="s_move")
    assert "1836" in moves(t, "13A.tank1") and "1836" not in moves(t, "16A.rif4")


def test_dig_in_instead_of_moving_makes_a_2_0() -> None:
    """Seed: Soviet infantry with a CF of 1 may dig in instead of moving (CF 2, MF 0), also in the
    exploitation phase; not other units."""
    s = world({"16A.rif1": "1836", "3A.smot1": "1834"}, phase="s_move")
    assert "dig 16A.rif1" in texts(s) and "dig 3A.smot1" not in texts(s)
    d = play(s, "dig 16A.rif1")
    u = uid(d, "16A.rif1")
    assert unit_cf(d, u) == 2 and movement_points(d, u) == 0
    assert not moves(d, "16A.rif1") and "dig 16A.rif1" not in texts(d)
    ex = world({"16A.rif1": "1836"}, phase="s_exploit")
    assert "dig 16A.rif1" in texts(ex)


# ----------------------------------------------------------------------------- rail (seed)
KURSK_LINE = ("2232", "2233", "2234", "2235", "2236", "2237", "2238")


def test_soviet_rail_movement_is_unlimited_along_the_line() -> None:
    """Seed: travel by rail (Soviet only): unlimited."""
    s = world({"16A.rif1": "2232"}, phase="s_move")
    assert "rail 16A.rif1 2238" in texts(s) and "rail 16A.rif1 2912" in texts(s)
    g = world({"G9A.inf1": "2232"})
    assert not [t for t in texts(g) if t.startswith("rail")]


def test_rail_never_through_german_units_zoc_or_cut_hexes() -> None:
    """Seed: Soviet rail movement never over interrupted rail hexes, German units or their ZOC."""
    base = {"16A.rif1": "2232"}
    s = world(base, phase="s_move", cut=1 << H("2235"))
    dest = {t.split()[2] for t in texts(s) if t.startswith("rail 16A.rif1")}
    assert "2234" in dest and "2236" not in dest
    z = world({**base, "G9A.inf1": "2035"}, phase="s_move")
    zd = set(hex_id(h) for h in rail_options(z, uid(z, "16A.rif1")))
    assert not any(H(x) in z.rules.nbrs[H("2035")] for x in zd)


def test_rail_capacity_12_both_phases_and_interdiction_two_per_point() -> None:
    """Seed: at most 12 units by rail per turn (both movement phases together); each German air
    point of interdiction: 2 fewer."""
    s = world({"16A.rif1": "2232", "16A.rif2": "2233"}, phase="s_move", rail_left=1)
    s = play(s, "rail 16A.rif1 2238")
    assert s.rail_left == 0 and not [t for t in texts(s) if t.startswith("rail")]
    g = world({"G9A.inf1": "0236"}, phase="g_air")
    g2 = play(g, "interdict")
    assert g2.rail_left == g.rail_left - 2 and g2.air_g == g.air_g - 1
    assert g.rail_left == 12


def test_german_units_cut_rail_and_a_soviet_unit_staying_a_phase_repairs_it() -> None:
    """Seed: a German unit entering a Soviet railway hex interrupts it; a Soviet unit that stays on
    an interrupted rail hex for a whole movement phase repairs it."""
    s = play(world({"G9A.inf1": "2133"}), "move G9A.inf1 2233")
    assert s.cut >> H("2233") & 1
    sov = world({"16A.rif1": "2233"}, phase="s_move", cut=1 << H("2233"))
    after = play(sov, "end")
    assert not after.cut >> H("2233") & 1
    moved = play(world({"16A.rif1": "2233"}, phase="s_move", cut=1 << H("2233")), "move 16A.rif1 2133", "end")
    assert moved.cut >> H("2233") & 1


# ----------------------------------------------------------------------------- supply (seed)
def test_german_supply_from_the_west_edge() -> None:
    """Seed: for the Germans, supply comes from the hexes on the western edge of the map."""
    s = world({"G9A.inf1": "0436", "G9A.inf2": "3236"})
    assert traces_supply(s, uid(s, "G9A.inf1"))
    assert s.rules.west_edge >> H("0136") & 1 and not s.rules.west_edge >> H("0236") & 1


def test_german_unit_surrounded_by_zoc_is_out_of_supply_and_friendly_units_open_the_route() -> None:
    """Seed: supply route free of enemy units or ZOC; friendly units in enemy ZOC do not block."""
    ring = {"16A.rif1": "1835", "16A.rif2": "1937", "16A.rif3": "1737", "16A.rif4": "2035"}
    s = world({"G9A.inf1": "1836", **ring})
    assert not traces_supply(s, uid(s, "G9A.inf1"))
    r = s.rules
    # Open a corridor of German units to the west edge along row 36 (even columns) / 37.
    path = _corridor(s, H("1836"))
    units = {"G9A.inf1": "1836", **ring}
    for i, h in enumerate(path[1:], start=2):
        units[f"G4A.inf{i}" if i <= 11 else f"G2A.inf{i - 10}"] = hex_id(h)
    opened = world(units)
    assert traces_supply(opened, uid(opened, "G9A.inf1"))
    assert r.west_edge >> path[-1] & 1


def _corridor(s: object, start: int) -> list[int]:
    rr = load_rules()
    path = [start]
    while path[-1] // rr.rows > 0:
        h = path[-1]
        path.append(
            min((n for n in rr.nbrs[h] if n // rr.rows < h // rr.rows), key=lambda n: abs(n % rr.rows - 35))
        )
    return path


def test_soviet_supply_route_at_most_20_hexes() -> None:
    """Seed: a Soviet supply route from the farthest point of a continuous railway or board-edge
    hex may never be longer than 20 hexes."""
    s = world({"16A.rif1": "0236", "16A.rif2": "3236"}, phase="s_move", cut=load_rules().rail_hexes)
    assert traces_supply(s, uid(s, "16A.rif2"))
    far = not traces_supply(s, uid(s, "16A.rif1"))
    assert far  # the west edge is more than 20 hexes from every Soviet source and live rail


def test_soviet_sources_east_edge_and_north_edge_east_of_the_railway() -> None:
    """Seed: Soviet supply comes via the east edge and the north edge east of the railway line (the
    Moscow-Kalinin line's exit column on the reconstructed map)."""
    import json
    from importlib import resources

    r = load_rules()
    mp = json.loads(
        resources.files("typhoon.games.mockba").joinpath("data", "map.json").read_text(encoding="utf-8")
    )
    col = int(mp["north_source_from_column"])
    assert r.soviet_edge >> H(f"{col:02d}01") & 1 and not r.soviet_edge >> H(f"{col - 1:02d}01") & 1
    assert all(r.soviet_edge >> H(f"{r.cols:02d}{row:02d}") & 1 for row in range(1, r.rows + 1))
    assert not r.soviet_edge >> H("0101") & 1


def test_soviet_supply_through_unbroken_railway() -> None:
    """Seed: the Soviets draw supply via unbroken, unoccupied railways leaving the map north, east or
    south; an interrupted rail hex stops it."""
    s = world({"16A.rif1": "2232"}, phase="s_move")
    assert traces_supply(s, uid(s, "16A.rif1"))
    from typhoon.games.mockba.engine import soviet_rail_net

    net = soviet_rail_net(s)
    assert net >> H("2232") & 1
    # Orel (2231) and Kursk (2240) interrupted: the line between them joins no exit any more.
    assert soviet_rail_net(world({}, cut=1 << H("2231"))) >> H("2236") & 1  # still by Kursk
    cut = world({"16A.rif1": "2232"}, phase="s_move", cut=1 << H("2240") | 1 << H("2231"))
    assert not soviet_rail_net(cut) >> H("2236") & 1


def test_lake_seliger_supplies_one_soviet_unit() -> None:
    """Seed: the Soviets may supply 1 unit on the west side of Lake Seliger through this lake
    (reading: when a hex by the lake is in Soviet supply, one unit by the lake is supplied)."""
    from typhoon.games.mockba.engine import BIG, _seliger_unit

    r = load_rules()
    lake = r.seliger.bit_length() - 1
    near = [n for n in r.nbrs[lake] if r.terrain[n] != "lake"]
    a, b = near[0], near[1]
    s = world({"16A.rif1": hex_id(b), "16A.rif2": hex_id(b)}, phase="s_move")
    dist = [BIG] * len(r.terrain)
    dist[a] = 0
    assert _seliger_unit(s, dist) == uid(s, "16A.rif1")  # one unit only
    assert _seliger_unit(s, [BIG] * len(r.terrain)) == -1  # nothing by the lake in supply


def test_supply_determination_marks_and_control_reduces() -> None:
    """Seed steps 2 and 7: units that cannot trace supply are marked; at the end of the player turn
    marked units that still cannot are reduced (Soviet 1-CF infantry destroyed); markers removed."""
    ring = {"16A.rif1": "1835", "16A.rif2": "1937", "16A.rif3": "1737", "16A.rif4": "2035"}
    s = world({"G9A.inf1": "1836", "G3P.pz1": "1836", **ring}, phase="g_air", turn=5)
    s = play(s, "end")
    assert s.oos & bit(s, "G9A.inf1", "G3P.pz1") == bit(s, "G9A.inf1", "G3P.pz1")
    s = s.replace(phase=PHASE_INDEX["g_control"] - 1)  # the exploitation phase (turn 5: none) -> control
    s = s.replace(phase=PHASE_INDEX["g_followup"])
    s = play(s, "end")
    assert s.red & bit(s, "G9A.inf1", "G3P.pz1") == bit(s, "G9A.inf1", "G3P.pz1")
    assert not s.oos & bit(s, "G9A.inf1")


def test_air_supply_costs_two_a_division_one_a_reduced_or_smaller_unit() -> None:
    """Seed: the German may resupply out-of-supply units by air: 2 points a division, 1 a reduced
    division or smaller unit; they count as supplied that turn."""
    ring = {"16A.rif1": "1835", "16A.rif2": "1937", "16A.rif3": "1737", "16A.rif4": "2035"}
    s = world({"G9A.inf1": "1836", "G9A.bde1": "1836", **ring}, phase="g_air")
    assert {"airsupply G9A.inf1", "airsupply G9A.bde1"} <= set(texts(s))
    a = play(s, "airsupply G9A.inf1")
    assert a.air_g == s.air_g - 2 and traces_supply(a, uid(a, "G9A.inf1"))
    b = play(a, "airsupply G9A.bde1")
    assert b.air_g == a.air_g - 1
    red = world({"G9A.inf1": "1836", **ring}, phase="g_air", red=bit(s, "G9A.inf1"))
    assert play(red, "airsupply G9A.inf1").air_g == red.air_g - 1


def test_counter_air_costs_two_german_points_per_soviet_point() -> None:
    """Seed: cancelling a Soviet air point costs the German 2 air points."""
    s = world({"G9A.inf1": "0236"}, phase="g_air")
    assert (s.air_g, s.air_s) == (10, 3)  # calendar turn 1 (seed)
    c = play(s, "counterair")
    assert (c.air_g, c.air_s) == (8, 2)
    c = play(c, "counterair", "counterair")
    assert c.air_s == 0 and "counterair" not in texts(c)


# ----------------------------------------------------------------------------- combat (seed)
def _battle(s: State, target: str, *attackers: str) -> Battle:
    return Battle(H(target), tuple(uid(s, a) for a in attackers))


def test_attacks_only_on_adjacent_hexes_each_unit_once_a_phase() -> None:
    """Seed: combat between adjacent units; a unit never attacks more than once a phase."""
    four = {f"16A.rif{i}": "1937" for i in range(1, 5)}
    s = world({"G9A.inf1": "1836", "G9A.inf2": "1836", **four, "16A.rif5": "1839"}, phase="g_combat")
    t = texts(s)
    assert "attack G9A.inf1 1937" in t and not [x for x in t if x.endswith(" 1839")]
    s = play(s, "attack G9A.inf1 1937", "fire", "support no", "roll 1")  # 4:4 = 1:1, die 1: AR
    assert s.battle is None and s.red & bit(s, "G9A.inf1")
    assert not [x for x in texts(s) if x.startswith("attack G9A.inf1")]
    assert [x for x in texts(s) if x.startswith("attack G9A.inf2")]


def test_odds_rounded_for_the_defender_and_limited_to_1_3_7_1() -> None:
    """Seed: ratio rounded in favour of the defender; never above 7:1 nor below 1:3; an attack
    below 1:3 may not be made."""
    s = world({"G9A.inf1": "1836", "16A.rif1": "1937"}, phase="g_combat")
    r = s.rules
    assert r.columns[odds(s, _battle(s, "1937", "G9A.inf1"))[0]] == "4:1"
    three = world(
        {"G9A.inf1": "1836", "16A.rif1": "1937", "16A.rif2": "1937", "16A.rif3": "1937"}, phase="g_combat"
    )
    assert r.columns[odds(three, _battle(three, "1937", "G9A.inf1"))[0]] == "1:1"  # 4:3 -> 1:1
    big = world({f"G3P.pz{i}": "1836" for i in (1, 2, 3)} | {"16A.rif1": "1937"}, phase="g_combat")
    assert r.columns[odds(big, _battle(big, "1937", "G3P.pz1", "G3P.pz2", "G3P.pz3"))[0]] == "7:1"
    weak = {"16A.rif1": "1836", "G9A.inf1": "1937"}
    sov = world(weak, phase="s_combat")
    assert odds(sov, _battle(sov, "1937", "16A.rif1"))[0] == -1  # 1:4
    three_to_one = world({"16A.rif1": "1836", "3A.smot1": "1836", "G9A.inf1": "1937"}, phase="s_combat")
    assert (
        r.columns[odds(three_to_one, _battle(three_to_one, "1937", "16A.rif1", "3A.smot1"))[0]] == "1:2"
    )  # 3:4
    two = world({"16A.rif1": "1836", "G9A.inf1": "1937", "G9A.inf2": "1937"}, phase="s_combat")
    assert odds(two, _battle(two, "1937", "16A.rif1"))[0] == -1  # 1:8
    d = play(two, "attack 16A.rif1 1937")
    assert "fire" not in texts(d)


def test_river_halves_attack_rounded_up_and_never_below_one() -> None:
    """Seed: units attacking across a river are halved, rounded up (3 / 2 = 2); an attacking unit is
    never below 1 CF."""
    s = world({"G9A.inf1": RA, "G9A.bde1": RA, "16A.rif1": RB}, phase="g_combat")
    att, _ = strengths(s, _battle(s, RB, "G9A.inf1", "G9A.bde1"))
    assert att == 2 + 2  # 4 -> 2, 3 -> 2
    sov = world({"16A.rif1": RA, "G9A.inf1": RB}, phase="s_combat")
    assert strengths(sov, _battle(sov, RB, "16A.rif1"))[0] == 1  # 1 / 2 rounds up to 1


def test_armour_attacking_rough_is_halved() -> None:
    """Seed TEC: Pz-Tk attacking rough terrain: x 1/2; infantry not."""
    r = load_rules()
    rough = next(
        h
        for h in range(len(r.terrain))
        if r.terrain[h] == "rough"
        and any(r.terrain[n] == "clear" and r.pair(n, h) not in r.rivers for n in r.nbrs[h])
        and not r.city_hexes >> h & 1
    )
    src = next(n for n in r.nbrs[rough] if r.terrain[n] == "clear" and r.pair(n, rough) not in r.rivers)
    s = world({"G3P.pz1": hex_id(src), "G9A.inf1": hex_id(src), "16A.rif1": hex_id(rough)}, phase="g_combat")
    assert strengths(s, _battle(s, hex_id(rough), "G3P.pz1"))[0] == 4
    assert strengths(s, _battle(s, hex_id(rough), "G9A.inf1"))[0] == 4


def test_non_entrenched_infantry_doubled_in_cities() -> None:
    """Seed TEC: city: infantry DF x 2 (non-entrenched only); armour not doubled."""
    r = load_rules()
    orel = r.cities["Orel"]
    src = next(n for n in r.nbrs[orel] if r.pair(n, orel) not in r.rivers and r.terrain[n] != "lake")
    units = {"G9A.inf1": hex_id(src), "16A.rif1": hex_id(orel), "3A.tank1": hex_id(orel)}
    s = world(units, phase="g_combat")
    assert strengths(s, _battle(s, hex_id(orel), "G9A.inf1"))[1] == 2 + 2
    dug = s.replace(dug=bit(s, "16A.rif1"))
    assert strengths(dug, _battle(dug, hex_id(orel), "G9A.inf1"))[1] == 2 + 2  # dug-in 2, not doubled


def test_german_cf_reduction_by_calendar() -> None:
    """Seed calendar: reduction of German combat factors per unit type (Panzer / other)."""
    s = world({"G3P.pz1": "1836", "G9A.inf1": "1836", "G3P.mot1": "1836"}, turn=9)
    red = s.rules.calendar[9]["german_cf_reduction"]
    assert unit_cf(s, uid(s, "G3P.pz1")) == 7 - red["panzer"]
    assert unit_cf(s, uid(s, "G9A.inf1")) == 4 - red["other"]
    assert unit_cf(s, uid(s, "G3P.mot1")) == 5 - red["panzer"]  # option german_cf_panzer=armour_mech
    o = world({"G3P.mot1": "1836"}, turn=9, options={"german_cf_panzer": "armour"})
    assert unit_cf(o, uid(o, "G3P.mot1")) == 5 - red["other"]


def test_air_support_one_point_per_attacking_unit_and_one_per_defended_hex() -> None:
    """Seed: the attacker gives at most 1 air factor per attacking unit, then the defender at most 1
    per attacked hex; an air point is +1 CF (Q2 / MO-A1)."""
    s = world({"G9A.inf1": "1836", "16A.rif1": "1937", "16A.rif2": "1937"}, phase="g_combat")
    s = play(s, "attack G9A.inf1 1937", "air")
    assert "air" not in texts(s)  # one attacking unit: one point
    assert s.battle is not None and strengths(s, s.battle) == (5, 2)
    s = play(s, "fire")
    assert s.current_player() == SOVIET and set(texts(s)) == {"support yes", "support no"}
    y = play(s, "support yes")
    assert y.battle is not None and y.battle.dair == 1 and y.air_s == 2 and strengths(y, y.battle) == (5, 3)
    assert y.air_g == 9


def test_fortification_shifts_two_from_the_front_one_mixed_none_from_the_flank() -> None:
    """Seed: Soviets in fortifications attacked wholly against the fortification: 2 columns left;
    front and side: 1; from the side or behind: none."""
    r = load_rules()
    fort = next(
        f
        for f, fr in sorted(r.forts.items())
        if len(fr) >= 1 and len([n for n in r.nbrs[f] if n not in fr and r.terrain[n] != "lake"]) >= 1
    )
    front = sorted(r.forts[fort])[0]
    flank = next(n for n in r.nbrs[fort] if n not in r.forts[fort] and r.terrain[n] != "lake")
    units = {"G9A.inf1": hex_id(front), "G9A.inf2": hex_id(flank), "16A.rif1": hex_id(fort)}
    s = world(units, phase="g_combat")
    assert fort_shift(s, _battle(s, hex_id(fort), "G9A.inf1")) == 2
    assert fort_shift(s, _battle(s, hex_id(fort), "G9A.inf1", "G9A.inf2")) == 1
    assert fort_shift(s, _battle(s, hex_id(fort), "G9A.inf2")) == 0
    sov = world({"16A.rif1": hex_id(front), "G9A.inf1": hex_id(fort)}, phase="s_combat")
    assert fort_shift(sov, _battle(sov, hex_id(fort), "16A.rif1")) == 0  # Soviet attacks: none


def test_fortification_shift_applied_after_the_7_1_cap() -> None:
    """Seed: fortification shifts only once the final ratio is fixed (never greater than 7:1)."""
    r = load_rules()
    fort = sorted(r.forts)[0]
    front = sorted(r.forts[fort])[0]
    units = {f"G3P.pz{i}": hex_id(front) for i in (1, 2, 3)} | {"16A.rif1": hex_id(fort)}
    s = world(units, phase="g_combat")
    b = _battle(s, hex_id(fort), "G3P.pz1", "G3P.pz2", "G3P.pz3")
    col, why = odds(s, b)
    att, dfs = strengths(s, b)
    assert att >= 8 * dfs  # above 7:1 before the cap
    assert r.columns[col] == "5:1" and "fortification" in why[-1]


def test_german_units_have_no_zoc_into_a_fortification_they_face() -> None:
    """Seed: German units have no ZOC against a Soviet fortification hex if they are in front of it."""
    r = load_rules()
    fort = sorted(r.forts)[0]
    front = sorted(r.forts[fort])[0]
    s = world({"G9A.inf1": hex_id(front)})
    assert not zoc(s, GERMAN) >> fort & 1
    flank = next(n for n in r.nbrs[fort] if n not in r.forts[fort] and r.terrain[n] != "lake")
    f = world({"G9A.inf1": hex_id(flank)})
    assert zoc(f, GERMAN) >> fort & 1


def _fight(units: dict[str, str], die: int, attackers: tuple[str, ...], target: str, **kw: Any) -> State:
    s = world(units, phase=str(kw.pop("phase", "g_combat")), **kw)
    for a in attackers:
        s = play(s, f"attack {a} {target}")
    s = play(s, "fire")
    if s.battle is not None and s.battle.step == "support":
        s = play(s, "support no")
    return play(s, f"roll {die}")


def test_crt_rows_one_and_two_of_the_seed() -> None:
    """Seed CRT: 1/3 ... 7/1 with die 1: AE AE AR A1 EX D1 D2 D3 DR; die 2: AE AR A2 EX D1 D2 D3 DR DE."""
    r = load_rules()
    assert r.crt[1] == ("AE", "AE", "AR", "A1", "EX", "D1", "D2", "D3", "DR")
    assert r.crt[2] == ("AE", "AR", "A2", "EX", "D1", "D2", "D3", "DR", "DE")
    assert r.crt[3][0] == "AR"


def test_ae_eliminates_and_ar_reduces_the_attackers() -> None:
    """Seed results: AE all attacking units eliminated; AR all reduced."""
    units = {
        "G9A.inf1": "1836",
        "16A.rif1": "1937",
        "16A.rif2": "1937",
        "16A.rif3": "1937",
        "16A.rif4": "1937",
    }
    s = _fight(units, 1, ("G9A.inf1",), "1937")  # 4:4 = 1:1, die 1: AR
    assert s.red & bit(s, "G9A.inf1")
    units2 = {"G9A.bde1": "1836", **{f"16A.rif{i}": "1937" for i in range(1, 4)}, "3A.tank1": "1937"}
    s2 = _fight(units2, 1, ("G9A.bde1",), "1937")  # 3:5 -> 1:2, die 1: AE
    assert at(s2, "G9A.bde1") is None


def test_dr_reduces_and_destroys_reduced_and_one_cf_infantry() -> None:
    """Seed: DR all defending units reduced; already-reduced units and Soviet 1-CF infantry are
    destroyed on reduction."""
    units = {"G3P.pz1": "1836", "3A.smot1": "1937", "16A.rif1": "1937"}
    s = _fight(units, 6, ("G3P.pz1",), "1937")  # 7:3 = 2:1, die 6: DR
    assert at(s, "16A.rif1") is None and at(s, "3A.smot1") == "1937"
    assert s.red & bit(s, "3A.smot1")


def test_de_and_advance_after_combat() -> None:
    """Seed: DE all defenders eliminated; the attacker may occupy the vacated hex with attacking
    units (even from ZOC to ZOC)."""
    units = {"G3P.pz1": "1836", "G3P.pz2": "1836", "16A.rif1": "1937"}
    s = _fight(units, 3, ("G3P.pz1", "G3P.pz2"), "1937")  # 14:1 -> 7:1, die 3: DE
    assert at(s, "16A.rif1") is None
    assert "advance G3P.pz1 1937" in texts(s)
    s = play(s, "advance G3P.pz1 1937", "stay")
    assert at(s, "G3P.pz1") == "1937" and s.battle is None


def test_ex_defender_eliminated_attacker_loses_the_terrain_modified_cf() -> None:
    """Seed: EX all defenders eliminated; the attacker loses as many CFs as the defender had,
    modified for terrain (a city doubles infantry)."""
    r = load_rules()
    orel = r.cities["Orel"]
    src = next(n for n in r.nbrs[orel] if r.pair(n, orel) not in r.rivers and r.terrain[n] != "lake")
    units = {"G9A.inf1": hex_id(src), "G9A.inf2": hex_id(src), "16A.rif1": hex_id(orel)}
    del units
    units4 = {
        "G9A.inf1": hex_id(src),
        "G9A.inf2": hex_id(src),
        "16A.rif1": hex_id(orel),
        "16A.rif2": hex_id(orel),
    }
    s = _fight(units4, 2, ("G9A.inf1", "G9A.inf2"), hex_id(orel))  # 8:4 = 2:1, die 2: EX
    assert at(s, "16A.rif1") is None and at(s, "16A.rif2") is None
    assert s.battle is not None and s.battle.step == "loss" and s.battle.losses == 4
    s = play(s, "lose G9A.inf1")
    assert s.battle is not None and s.battle.losses == 2
    s = play(s, "lose G9A.inf1")  # reduced -> eliminated: 2 more
    assert at(s, "G9A.inf1") is None and (s.battle is None or s.battle.step == "advance")


def test_d1_defender_retreats_or_reduces_all() -> None:
    """Seed: D1 the defender withdraws all his units 1 hex, toward his supply sources if possible;
    instead he may reduce all of them (all or none)."""
    units = {"G9A.inf1": "1836", "16A.rif1": "1937"}
    s = _fight(units, 1, ("G9A.inf1",), "1937")  # 4:1, die 1: D1
    assert s.current_player() == SOVIET
    opts = texts(s)
    assert "reduce" in opts
    ends = {t.split()[1] for t in opts if t.startswith("retreat")}
    assert ends and all(H(e) // 40 > H("1937") // 40 for e in ends)  # east, toward Soviet supply
    r = play(s, sorted(t for t in opts if t.startswith("retreat"))[0])
    assert at(r, "16A.rif1") != "1937" and "advance G9A.inf1 1937" in texts(r)


def test_d3_the_attacker_picks_the_route() -> None:
    """Seed: D3 3 hexes, and the attacker decides where the defender withdraws."""
    units = {"G3P.pz1": "1836", "3A.smot1": "1937"}
    s = _fight(units, 4, ("G3P.pz1",), "1937")  # 7:2 = 3:1, die 4: D3
    assert s.current_player() == SOVIET and set(texts(s)) == {"retreat -", "reduce"}
    s = play(s, "retreat -")
    assert s.current_player() == GERMAN
    paths = [t for t in texts(s) if t.startswith("retreat ")]
    assert paths and all(len(t.split()[1].split("-")) == 3 for t in paths) and "reduce" not in texts(s)


def test_a1_attackers_retreat() -> None:
    """Seed: A1/A2 the attacker withdraws all his units 1 or 2 hexes."""
    units = {"G9A.inf1": "1836", "16A.rif1": "1937", "16A.rif2": "1937"}
    s = _fight(units, 1, ("G9A.inf1",), "1937")  # 4:2 = 2:1, die 1: A1
    assert s.current_player() == GERMAN
    opts = [t for t in texts(s) if t.startswith("retreat")]
    assert opts and all(H(t.split()[1]) // 40 < H("1836") // 40 for t in opts)  # west, toward supply
    s = play(s, opts[0])
    assert at(s, "G9A.inf1") != "1836" and s.battle is None


def test_retreat_through_enemy_zoc_only_over_friendly_units_unless_armoured() -> None:
    """Seed: non-armoured units retreat through enemy ZOC only over friendly units; armour may."""
    s = world({"G9A.inf1": "1836", "16A.rif1": "1937", "16A.rif2": "1735", "16A.rif3": "1737"})
    u = uid(s, "G9A.inf1")
    paths = retreat_paths(s, (u,), H("1836"), 1)
    zc = zoc(s, SOVIET)
    assert all(not zc >> p[-1] & 1 for p in paths)
    a = world({"G3P.pz1": "1836", "16A.rif1": "1937", "16A.rif2": "1735", "16A.rif3": "1737"})
    apaths = retreat_paths(a, (uid(a, "G3P.pz1"),), H("1836"), 1)
    assert any(zc >> p[-1] & 1 for p in apaths)


def test_no_retreat_route_means_reduction() -> None:
    """Seed: instead of retreating a player may reduce all units (one or the other); with no route
    the units are reduced (reading)."""
    from typhoon.games.mockba.engine import _resolve

    wall = {
        "16A.rif1": "1937",
        "16A.rif2": "1835",
        "16A.rif3": "1737",
        "16A.rif4": "1736",
        "16A.rif5": "1936",
        "16A.rif6": "1837",
    }
    s = world({"G9A.inf1": "1836", "G9A.inf2": "1836", **wall}, phase="s_combat")
    assert not retreat_paths(s, (uid(s, "G9A.inf1"), uid(s, "G9A.inf2")), H("1836"), 1)
    b = Battle(H("1836"), (uid(s, "16A.rif1"),), result="D1")
    after = _resolve(s, b, [])
    assert after.red & bit(s, "G9A.inf1", "G9A.inf2") == bit(s, "G9A.inf1", "G9A.inf2")
    assert at(after, "G9A.inf1") == "1836"


def test_advance_into_a_fortification_only_if_the_defender_was_eliminated() -> None:
    """Seed: in fortifications the vacant hex may only be occupied if the defender is eliminated."""
    r = load_rules()
    fort = sorted(r.forts)[0]
    front = sorted(r.forts[fort])[0]
    units = {f"G3P.pz{i}": hex_id(front) for i in (1, 2, 3)} | {"16A.rif1": hex_id(fort)}
    s = world(units, phase="g_combat")
    b = Battle(fort, tuple(uid(s, f"G3P.pz{i}") for i in (1, 2, 3)))
    from typhoon.games.mockba.engine import _advance_options

    assert (
        _advance_options(
            s.replace(loc=tuple(ELIM if i == uid(s, "16A.rif1") else x for i, x in enumerate(s.loc))), b
        )
        == []
    )
    from dataclasses import replace as dreplace

    gone = s.replace(loc=tuple(ELIM if i == uid(s, "16A.rif1") else x for i, x in enumerate(s.loc)))
    assert _advance_options(gone, dreplace(b, eliminated=True))


def test_follow_up_attackers_may_not_exploit() -> None:
    """Seed: units that attacked in the follow-up phase (inverted explosion marker) may not move in
    the exploitation phase; units that attacked in the first combat phase may attack again."""
    units = {
        "G3P.pz1": "1836",
        "G3P.pz2": "1834",
        "16A.rif1": "1937",
        "16A.rif2": "1937",
        "16A.rif3": "1937",
        "16A.rif4": "1937",
    }
    s = world(units, phase="g_followup", turn=2)
    s = s.replace(hit=bit(s, "16A.rif1"))
    s = play(s, "attack G3P.pz1 1937", "fire", "support no", "roll 3")  # 7:4 = 1:1 die 3: EX
    while s.battle is not None:
        t = texts(s)
        s = play(s, "stay" if "stay" in t else t[0])
    s = play(s, "end")
    assert s.phase_spec.key == "g_exploit"
    assert not moves(s, "G3P.pz1") and moves(s, "G3P.pz2")


def test_follow_up_attacks_the_defenders_units_again() -> None:
    """Seed: in the follow-up combat phase all units adjacent to the defender's units may attack
    them again (reading: the units attacked in the first combat phase; option followup_targets)."""
    units = {"G9A.inf1": "1836", "G9A.inf2": "1836", "16A.rif1": "1937", "16A.rif2": "1835"}
    s = world(units, phase="g_combat", turn=2)
    s = play(s, "attack G9A.inf1 1937", "fire", "support no", "roll 1")  # 4:1, die 1: D1
    while s.battle is not None:
        tx = texts(s)
        s = play(
            s,
            sorted(x for x in tx if x.startswith("retreat"))[0]
            if any(x.startswith("retreat") for x in tx)
            else "stay",
        )
    s = play(s, "end")
    assert s.phase_spec.key == "g_followup"
    targets = {x.split()[2] for x in texts(s) if x.startswith("attack")}
    where = at(s, "16A.rif1")
    assert "1835" not in targets and (where in targets or not targets)
    anyt = s.replace(rules=load_rules(options={"followup_targets": "any"}))
    assert "1835" in {x.split()[2] for x in texts(anyt) if x.startswith("attack")}


def test_no_german_follow_up_or_exploitation_on_turns_5_6_8_9_10() -> None:
    """Seed: the German has no follow-up combat phase and no exploitation phase in turns 5, 6, 8,
    9 and 10; the Soviet always has them (Q7)."""
    for turn in range(1, 11):
        s = world({"G9A.inf1": "0236", "16A.rif1": "3236"}, phase="g_combat", turn=turn)
        s = play(s, "end")
        expect = "g_control" if turn in (5, 6, 8, 9, 10) else ("g_move2p" if turn == 1 else "g_followup")
        if expect == "g_control":
            assert s.phase_spec.key == "s_reinforce"  # control is automatic
        else:
            assert s.phase_spec.key == expect
    sv = play(world({"16A.rif1": "3236"}, phase="s_combat", turn=6), "end")
    assert sv.phase_spec.key == "s_followup"


def test_turn_one_second_panzer_army_repeats_movement_and_combat() -> None:
    """Seed: on game turn 1, after step 4 the 2nd Panzer Army repeats steps 3 and 4; then steps 5
    and 6 (pack 4.1: for all armies; option t1_followup=others: the other armies only)."""
    s = world({"G2P.pz1": "1836", "G9A.inf1": "1834", "16A.rif1": "3236"}, phase="g_move2p")
    assert moves(s, "G2P.pz1") and not moves(s, "G9A.inf1")
    keys = [p.key for p in PHASES]
    assert keys.index("g_move2p") == keys.index("g_combat") + 1
    o = world({"G2P.pz1": "1836", "G9A.inf1": "1834"}, phase="g_exploit", options={"t1_followup": "others"})
    assert not moves(o, "G2P.pz1") and moves(o, "G9A.inf1")


def test_retreated_units_add_no_strength_but_share_the_fate() -> None:
    """Seed (Q4): a unit may be attacked again after units retreated onto it; those do not add their
    strength."""
    s = world({"G9A.inf1": "1836", "16A.rif1": "1937", "3A.smot1": "1937"}, phase="g_combat")
    s2 = s.replace(retreated=bit(s, "3A.smot1"))
    assert strengths(s2, _battle(s2, "1937", "G9A.inf1"))[1] == 1
    assert strengths(s, _battle(s, "1937", "G9A.inf1"))[1] == 3


# ----------------------------------------------------------------------------- reinforcements
def test_reinforcements_enter_by_rail_or_map_edge_and_may_be_late() -> None:
    """Seed: reinforcements with an army designation enter by a railway line or a map-edge hex;
    they may also enter later than indicated."""
    s = world({}, phase="s_reinforce", turn=2)
    ent = {t.split()[2] for t in texts(s) if t.startswith("reinforce 5A.rif1 ")}
    r = s.rules
    assert ent and all((r.soviet_edge | sum(r.rail_exits.values())) >> H(h) & 1 for h in ent)
    late = world({}, phase="s_reinforce", turn=4)
    assert [t for t in texts(late) if t.startswith("reinforce 5A.rif1 ")]
    assert "end" in texts(s)


def test_militia_deploy_on_friendly_cities() -> None:
    """Seed: militia infantry (1-2) and associated armour are deployed on friendly cities."""
    s = world({"G9A.inf1": hex_id(load_rules().cities["Orel"])}, phase="s_reinforce", turn=3)
    spots = {t.split()[2] for t in texts(s) if t.startswith("reinforce MIL.mil1 ")}
    r = s.rules
    assert spots <= {hex_id(h) for h in r.cities.values()} and hex_id(r.cities["Orel"]) not in spots
    assert hex_id(r.cities["Moscow"]) in spots


def test_rebuilding_from_turn_3_at_most_two_armoured_units() -> None:
    """Seed: rebuilt units (from turn 3) on friendly cities; no more than 2 armoured units rebuilt."""
    early = world({}, phase="s_reinforce", turn=2)
    assert not [t for t in texts(early) if t.startswith("rebuild")]
    s = world({}, phase="s_reinforce", turn=3)
    assert [t for t in texts(s) if t.startswith("rebuild 3A.tank1 ")]
    full = world({}, phase="s_reinforce", turn=3, rebuilt_armour=2)
    assert not [t for t in texts(full) if t.startswith("rebuild 3A.tank1 ")]
    assert [t for t in texts(full) if t.startswith("rebuild 16A.rif1 ")]


def test_rebuild_allowance_per_turn_and_optional_rule_5_in_divisions() -> None:
    """Calendar (reconstruction): 2 rebuilt a turn from turn 3, 11 in all; optional rule 5
    (Moskva) counts divisions, a brigade half."""
    s = world({}, phase="s_reinforce", turn=3)
    moscow = hex_id(s.rules.cities["Moscow"])
    s = play(s, f"rebuild 16A.rif1 {moscow}", f"rebuild 16A.rif2 {moscow}")
    assert not [t for t in texts(s) if t.startswith("rebuild")]
    o = world({}, phase="s_reinforce", turn=3, options={"opt5_rebuild": "on"})
    o = play(o, f"rebuild 3A.tank1 {moscow}", f"rebuild 13A.tank1 {moscow}", f"rebuild 16A.rif1 {moscow}")
    assert o.rebuilt == 4 and not [t for t in texts(o) if t.startswith("rebuild")]


# ----------------------------------------------------------------------------- victory
def test_victory_points_one_a_city_moscow_eight_seventeen_in_all() -> None:
    """Seed: +1 for each calendar city captured in time, Moscow 8, 17 in all; -1 for each city not
    captured in time or recaptured."""
    s = world({})
    r = s.rules
    assert len(r.victory) == 10 and sum(p for _, _, p in r.victory) == 17
    assert victory_points(s) == -10
    every = sum(1 << h for h, _, _ in r.victory)
    assert victory_points(s.replace(taken=every, control=every)) == 17
    assert victory_points(s.replace(taken=every, control=0)) == -10  # all recaptured
    pack = world({}, options={"victory_cities": "pack18"})
    assert sum(p for _, _, p in pack.rules.victory) == 18


def test_a_city_counts_only_if_captured_by_its_deadline() -> None:
    """Seed: cities the German must have conquered before or on the indicated turn."""
    r = load_rules()
    orel = r.cities["Orel"]  # deadline turn 1
    src = next(n for n in r.nbrs[orel] if r.terrain[n] != "lake")
    s = play(world({"G9A.inf1": hex_id(src)}, turn=1), f"move G9A.inf1 {hex_id(orel)}")
    assert s.taken >> orel & 1 and s.control >> orel & 1
    late = play(world({"G9A.inf1": hex_id(src)}, turn=2), f"move G9A.inf1 {hex_id(orel)}")
    assert not late.taken >> orel & 1 and late.control >> orel & 1


def test_final_score_results() -> None:
    """Seed: 1-4 Soviet victory, 6-17 German; 5 not defined (option score_five, default draw)."""
    s = world({})
    assert [result_of(s, x) for x in (-3, 0, 1, 4, 5, 6, 17)] == [
        "soviet",
        "soviet",
        "soviet",
        "soviet",
        "draw",
        "german",
        "german",
    ]
    g = world({}, options={"score_five": "german"})
    assert result_of(g, 5) == "german"


def test_game_ends_after_turn_ten_with_the_score() -> None:
    """Seed: MOCKBA has 10 game turns."""
    s = world({"G9A.inf1": "0236", "16A.rif1": "3236"}, phase="s_control", turn=10)
    s = s.replace(phase=PHASE_INDEX["s_exploit"])
    s = play(s, "end")
    assert s.result == "soviet" and s.score == -10


# ----------------------------------------------------------------------------- optional rules
def test_optional_1_dug_in_infantry_has_no_zoc() -> None:
    """Optional rule 1: Soviet dug-in infantry does not possess ZOC."""
    base = world({"16A.rif1": "1938"})
    dug = base.replace(dug=bit(base, "16A.rif1"))
    assert zoc(dug, SOVIET)
    o = world({"16A.rif1": "1938"}, options={"opt1_dug_in_zoc": "on"})
    assert not zoc(o.replace(dug=bit(o, "16A.rif1")), SOVIET)


def test_optional_2_no_zoc_across_rivers_turns_1_to_7() -> None:
    """Optional rule 2: during turns 1-7, units have no ZOC to the other side of a river."""
    on = {"opt2_river_zoc": "on"}
    s = world({"16A.rif1": RA}, options=on, turn=7)
    assert not zoc(s, SOVIET) >> H(RB) & 1
    assert zoc(world({"16A.rif1": RA}, options=on, turn=8), SOVIET) >> H(RB) & 1
    assert zoc(world({"16A.rif1": RA}, turn=3), SOVIET) >> H(RB) & 1


def test_optional_4_follow_up_loss_with_terrain_advantage_costs_a_reduction() -> None:
    """Optional rule 4: if the defender loses a unit in a follow-up combat phase and had the terrain
    advantage, the attacker must reduce one attacking unit."""
    units = {"G3P.pz1": RA, "G3P.pz2": RA, "16A.rif1": RB}
    hit = 1 << load_rules().unit_index["16A.rif1"]  # attacked in the first combat phase
    s = _fight(
        units,
        3,
        ("G3P.pz1", "G3P.pz2"),
        RB,
        phase="g_followup",
        turn=2,
        hit=hit,
        options={"opt4_followup_loss": "on"},
    )
    assert s.battle is not None and s.battle.step == "penalty"
    s = play(s, "lose G3P.pz1")
    assert s.red & bit(s, "G3P.pz1")
    off = _fight(units, 3, ("G3P.pz1", "G3P.pz2"), RB, phase="g_followup", turn=2, hit=hit)
    assert off.battle is None or off.battle.step != "penalty"


def test_optional_6_para_unit_dropped_from_turn_4() -> None:
    """Optional rule 6: on turn 4 the Soviet receives 1 para unit, dropped in a turn when his air
    force is not completely suppressed; supplied during the drop; die 4-6: reduced on landing; no
    move in the first movement phase."""
    on = {"opt6_para": "on"}
    assert not [t for t in texts(world({}, phase="s_reinforce", turn=4)) if t.startswith("drop")]
    assert not [t for t in texts(world({}, phase="s_reinforce", turn=3, options=on)) if t.startswith("drop")]
    assert not [
        t for t in texts(world({}, phase="s_reinforce", turn=4, options=on, air_s=0)) if t.startswith("drop")
    ]
    s = world(
        {"G9A.inf1": "1735", "G9A.inf2": "1737", "G9A.inf3": "1935"}, phase="s_reinforce", turn=4, options=on
    )
    assert "drop 1836" in texts(s) and "drop 1735" not in texts(s)
    s = play(s, "drop 1836")
    assert s.current_player() == -1
    s = play(s, "roll 5")
    assert at(s, "PARA.para1") == "1836" and s.red & bit(s, "PARA.para1")
    assert traces_supply(s, uid(s, "PARA.para1"))
    m = play(s, "end")
    assert m.phase_spec.key == "s_move" and not moves(m, "PARA.para1")
    good = play(world({}, phase="s_reinforce", turn=4, options=on), "drop 1836", "roll 3")
    assert not good.red & bit(good, "PARA.para1")


def test_optional_7_das_reich_is_6_6() -> None:
    """Optional rule 7: the Das Reich division of the 4th Panzer Army is a 6-6."""
    s = world({"G4P.dr1": "1836"}, turn=2)
    assert unit_cf(s, uid(s, "G4P.dr1")) == 5
    o = world({"G4P.dr1": "1836"}, turn=2, options={"opt7_das_reich": "on"})
    assert unit_cf(o, uid(o, "G4P.dr1")) == 6


# ----------------------------------------------------------------------------- errors
def test_illegal_actions_raise_and_change_nothing() -> None:
    s = world({"G9A.inf1": "1836"})
    with pytest.raises(IllegalActionError):
        apply(s, action_from_text("move G9A.inf1 3240"))
    assert at(s, "G9A.inf1") == "1836"
    assert legal_actions(s)
    assert OFF == -1 and GERMAN == 0
