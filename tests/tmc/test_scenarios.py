"""The 24 scenarios, the starting forces and the reinforcement schedules (scenarios.py)."""

from __future__ import annotations

import copy
import json
from importlib import resources
from types import SimpleNamespace
from typing import Any

import pytest

from typhoon.errors import DataError
from typhoon.games.tmc import oobgen
from typhoon.games.tmc.oob import Provenance, load_units
from typhoon.games.tmc.scenarios import (
    Placement,
    Setup,
    build_catalogue,
    deep_units,
    load_catalogue,
    load_scenario,
    setup_violations,
    uncoverable_line_hexes,
)
from typhoon.hexgrid import HexGrid

# rules_en.md §27.1, typed from the table: number -> (GT range, start line, Soviet OOB, German OOB,
# options, German replacements).
TABLE = {
    1: ((1, 8), "september", "1", "A", "U", False),
    2: ((1, 8), "september", "1", "A", "UV", False),
    3: ((1, 8), "september", "1", "A", "UW", False),
    4: ((1, 8), "september", "1", "B", "UX", False),
    5: ((1, 8), "september", "1", "A", "UVW", False),
    6: ((1, 8), "september", "1", "B", "UVX", False),
    7: ((1, 8), "september", "1", "B", "UVWX", False),
    8: ((1, 8), "september", "1", "A", "UWX", False),
    9: ((1, 8), "september", "1", "A", "U", True),
    10: ((1, 8), "september", "1", "C", "U", True),
    11: ((1, 31), "september", "1", "A", "U", False),
    12: ((1, 31), "september", "1", "A", "UV", False),
    13: ((1, 31), "september", "1", "A", "UWX", True),
    14: ((1, 31), "september", "1", "C", "U", True),
    15: ((16, 23), "november", "2", "D", "U", False),
    16: ((16, 23), "november", "2", "E", "UY", False),
    17: ((16, 31), "november", "2", "D", "U", False),
    18: ((16, 31), "november", "2", "E", "UY", False),
    19: ((16, 23), "november", "2", "D", "U", True),
    20: ((16, 31), "november", "2", "D", "U", True),
    21: ((24, 31), "december", "3", "F", "U", False),
    22: ((24, 31), "december", "3", "F", "UZ", False),
    23: ((24, 31), "december", "3", "F", "U", True),
    24: ((24, 31), "december", "3", "F", "UZ", True),
}

CAT = load_catalogue()


def _docs() -> dict[str, Any]:
    out = {}
    for name in ("units", "oob", "reinforcements", "scenarios"):
        text = resources.files("typhoon.games.tmc").joinpath("data", f"{name}.json").read_text("utf-8")
        out[name] = json.loads(text)
    return out


DOCS = _docs()


@pytest.mark.parametrize("number", sorted(TABLE))
def test_scenario_table_row_by_row(number):
    """rules_en.md §27.1: every scenario's turns, start line, OOBs, options and replacement flag."""
    (first, last), line, sov, ger, opts, rep = TABLE[number]
    s = load_scenario(number)
    assert (s.first_turn, s.last_turn, s.start_line) == (first, last, line)
    assert (s.soviet_oob, s.german_oob, s.options, s.german_replacements) == (sov, ger, tuple(opts), rep)
    assert s.title


def test_replacement_scenarios_are_the_starred_ones():
    """rules_en.md §21: the German replacement rule is used in scenarios 9, 10, 13, 14, 19, 20, 23, 24."""
    assert {n for n in range(1, 25) if load_scenario(n).german_replacements} == {
        9,
        10,
        13,
        14,
        19,
        20,
        23,
        24,
    }


def test_scenario_units_are_both_starting_forces_plus_in_range_arrivals():
    """rules_en.md §25.1, §22.4 and [Q61]: starting forces from the two OOBs; only reinforcements whose
    GT lies inside the scenario's range arrive."""
    s = load_scenario(15)  # GT 16-23, November: OOB 2 + D
    start = {u.id for u in s.units if u.arrive == 0}
    oob_units = {p.unit for p in CAT.setups["2"].placements} | {p.unit for p in CAT.setups["D"].placements}
    assert start == oob_units
    assert all(16 <= u.arrive <= 23 for u in s.units if u.arrive)
    assert "S112TD" in {u.id for u in s.units if u.arrive == 17}  # Soviet GT 17 arrival
    assert "S316RD" in start and "S342RD" not in {u.id for u in s.units}  # arrived GT 4; arrives GT 25
    s1 = load_scenario(1)  # GT 1-8: the 1st SS Brigade (U, GT 12) is outside the range
    assert "G1SSMot" not in {u.id for u in s1.units}
    assert "G1SSMot" in {u.id for u in load_scenario(11).units if u.arrive == 12}


def test_start_hexes_and_fixed_german_eb():
    """rules_en.md §25.7: the German EB units start on their designated hexes (fixed)."""
    s = load_scenario(1)
    assert s.start == CAT.setups["1"].hexes | CAT.setups["A"].hexes
    fixed = {u.id for u in s.units if u.fixed}
    assert fixed == {"GEB1", "GEB2", "GEB3"}
    assert s.kg_counters["G7Pz"] == "KG-G7Pz"


def test_reinforcement_options_are_cumulative():
    """rules_en.md §27.3: each listed option adds its units to the historical schedule U."""

    def german_arrivals(n: int) -> set[str]:
        return {u.id for u in load_scenario(n).units if u.side == "german" and u.arrive}

    u_only = german_arrivals(1)
    assert u_only == {r.unit for r in CAT.reinforcements["U"] if r.turn <= 8}
    v = {r.unit for r in CAT.reinforcements["V"]}
    w = {r.unit for r in CAT.reinforcements["W"]}
    x = {r.unit for r in CAT.reinforcements["X"]}
    assert german_arrivals(2) == u_only | v
    assert german_arrivals(5) == u_only | v | w
    assert german_arrivals(7) == u_only | v | w | x
    assert {u.option for u in load_scenario(7).units if u.side == "german" and u.arrive} == set("UVWX")
    # The Soviet schedule never changes (§22.4).
    soviet = {(u.id, u.arrive) for u in load_scenario(1).units if u.side == "soviet" and u.arrive}
    assert soviet == {(u.id, u.arrive) for u in load_scenario(7).units if u.side == "soviet" and u.arrive}


def test_reinforcement_options_fall_in_their_phase():
    """rules_en.md §27.3: V, W, X serve the September offensive, Y November, Z December."""
    phase = {"V": (1, 8), "W": (1, 8), "X": (1, 8), "Y": (16, 23), "Z": (24, 31)}
    for opt, (a, b) in phase.items():
        turns = [r.turn for r in CAT.reinforcements[opt]]
        assert turns and all(a <= t <= b for t in turns), opt
    assert all(1 <= r.turn <= 31 for r in CAT.reinforcements["soviet"])


def test_derived_oobs_extend_their_base():
    """rules_en.md §27.2: B = A + units from France, C = A + AG South mobile units, E = D + France."""
    for code, base, kinds in (
        ("B", "A", {"infantry"}),
        ("C", "A", {"armour", "motorised"}),
        ("E", "D", {"infantry"}),
    ):
        s, b = CAT.setups[code].hexes, CAT.setups[base].hexes
        assert b.items() <= s.items()
        extra = set(s) - set(b)
        assert len(extra) == 4
        assert {CAT.units.units[u].type for u in extra} == kinds
    # OOB C's extra units are the same counters as option V; no scenario uses both.
    assert set(CAT.setups["C"].hexes) - set(CAT.setups["A"].hexes) == {
        r.unit for r in CAT.reinforcements["V"]
    }
    assert not any(s.german_oob == "C" and "V" in s.options for s in CAT.scenarios.values())


@pytest.mark.parametrize("code", ["A", "B", "C", "D", "E", "F"])
def test_every_german_oob_has_three_eb(code):
    """rules_en.md §27.2 / §17.1: every German OOB places 3 EB units."""
    assert sum(CAT.units.units[p.unit].eb for p in CAT.setups[code].placements) == 3


@pytest.mark.parametrize("code", ["A", "B", "C", "D", "E", "F", "1", "2", "3"])
def test_starting_setups_are_legal_on_the_map(code):
    """rules_en.md §25 (sides of the start line and not on it, stacking, every start-line hex in own
    ZOC [Q68], Soviet 8-hex rule with <= 10 exceptions [Q69], German EB on German-repaired rail)."""
    from typhoon.games.tmc.tmcmap import load_map

    m = load_map()
    setup = CAT.setups[code]
    assert setup_violations(m, setup, CAT.units) == []
    if setup.side == "soviet":
        assert len(deep_units(m, setup)) <= 10
    else:
        rail = m.repaired_rail[setup.start_line]
        for p in setup.placements:
            if CAT.units.units[p.unit].eb:
                assert (rail >> m.grid.index[p.hex]) & 1, p


def test_oob_json_is_fresh_for_the_current_map():
    """oob.json's hexes are what `python -m typhoon.games.tmc.oobgen` builds from the anchors on the
    current map.json; if the map changes, rerun it."""
    assert oobgen.main(["--check"]) == 0


# -- §25 checks on a small hand-made map ---------------------------------------------------


def _mini_map() -> Any:
    """7x6 map, start line = column 4 (0401-0406), Germans west (columns 1-3), Soviets east (5-7);
    rail along row 3, German-repaired west of the line."""
    g = HexGrid(7, 6, 6, "even")
    col = lambda c: g.mask(g.index[f"{c:02d}{r:02d}"] for r in range(1, 7))  # noqa: E731
    row3 = {c: g.index[f"{c:02d}03"] for c in range(1, 8)}
    return SimpleNamespace(
        grid=g,
        start_lines={"september": tuple(g.index[f"04{r:02d}"] for r in range(1, 7))},
        west_of={"september": col(1) | col(2) | col(3)},
        east_of={"september": col(5) | col(6) | col(7)},
        lake_hexes=0,
        rail_mask=g.mask(row3.values()),
        repaired_rail={"september": g.mask(row3[c] for c in (1, 2, 3))},
    )


def _setup(side: str, placements: list[tuple[str, str]]) -> Setup:
    prov = Provenance("reconstruction", "low", "test")
    return Setup("T", side, "september", "test", None, tuple(Placement(u, h) for u, h in placements), prov)


def test_mini_map_german_coverage_hand_worked():
    """§25.4/[Q68]: odd columns are high, so 0302 touches 0401 and 0402, 0305 touches 0404 and 0405;
    0403 and 0406 stay uncovered. An EB unit gives no ZOC (§4.1)."""
    m = _mini_map()
    v = setup_violations(
        m, _setup("german", [("G35Inf", "0302"), ("G5Inf", "0305"), ("GEB1", "0303")]), CAT.units
    )
    assert sorted(v) == [
        "start-line hex 0403 not in german ZOC (§25.4, [Q68])",
        "start-line hex 0406 not in german ZOC (§25.4, [Q68])",
    ]
    ok = [("G35Inf", "0302"), ("G5Inf", "0305"), ("G6Inf", "0303"), ("G8Inf", "0306"), ("GEB1", "0303")]
    assert setup_violations(m, _setup("german", ok), CAT.units) == []


def test_mini_map_sides_line_stacking_and_eb():
    """§25.5 (own side, not on the line), §25.3 (stacking), §25.7 (German EB on repaired rail)."""
    m = _mini_map()
    base = [("G35Inf", "0302"), ("G5Inf", "0305"), ("G6Inf", "0303"), ("G8Inf", "0306")]
    bad = base + [("G26Inf", "0402"), ("G28Inf", "0502"), ("GEB1", "0201")]
    bad += [("G86Inf", "0101"), ("G87Inf", "0101"), ("G129Inf", "0101"), ("G161Inf", "0101")]
    v = setup_violations(m, _setup("german", bad), CAT.units)
    assert "G26Inf: on start-line hex 0402 (§25.5)" in v
    assert "G28Inf: 0502 is not west of the september line (§25.5)" in v
    assert "GEB1: German EB not on German-repaired rail at 0201 (§25.7, §16.1)" in v
    assert "0101: 4 units, more than 3 (§25.3)" in v
    assert len(v) == 4


def test_mini_map_soviet_depth_rule():
    """§25.6/[Q69]: on a 7-column map nothing is more than 8 hexes from the line, so a Soviet set-up
    covering the line is legal; a Soviet EB must stand on rail."""
    m = _mini_map()
    ok = [("S316RD", "0502"), ("S32RD", "0505"), ("S78RD", "0503"), ("S93RD", "0506")]
    assert setup_violations(m, _setup("soviet", ok), CAT.units) == []
    v = setup_violations(m, _setup("soviet", ok + [("SEB1", "0601")]), CAT.units)
    assert v == ["SEB1: Soviet EB not on a rail hex at 0601 ([Q69])"]
    assert deep_units(m, _setup("soviet", ok)) == []


def test_soviet_depth_rule_counts_units_beyond_8_hexes():
    """§25.6: at most 10 Soviet units more than 8 hexes from the start line (real map, real OOB 1)."""
    from typhoon.games.tmc.tmcmap import load_map

    m = load_map()
    s1 = CAT.setups["1"]
    far = m.grid.ids[max(m.east_of["september"].bit_length() - 1, 0)]  # the easternmost hex
    moved = [Placement(p.unit, far) if i < 11 else p for i, p in enumerate(s1.placements)]
    # 11 units in one hex also overstacks; the depth message must be there regardless.
    v = setup_violations(
        m, Setup("1", "soviet", "september", "", None, tuple(moved), s1.provenance), CAT.units
    )
    assert any("more than 8 hexes from the line, at most 10 (§25.6)" in x for x in v)


def test_uncoverable_line_hexes_touch_no_own_side_land():
    """§25.4 is read as 'every start-line hex that can be covered': a line hex with no own-side
    land neighbour (the map's line is two hexes thick in places) is skipped, nothing else."""
    from typhoon.games.tmc.tmcmap import load_map

    m = load_map()
    for line in ("september", "november", "december"):
        for side, own in (("german", m.west_of[line]), ("soviet", m.east_of[line])):
            skip = uncoverable_line_hexes(m, line, side)
            for h in m.start_lines[line]:
                touches = bool(m.grid.neighbour_mask[h] & own & ~m.lake_hexes)
                assert touches != bool((skip >> h) & 1)


# -- corrupt data ------------------------------------------------------------------------------


def _build(mutate) -> None:  # type: ignore[no-untyped-def]
    docs = copy.deepcopy(DOCS)
    mutate(docs)
    build_catalogue(docs["units"], docs["oob"], docs["reinforcements"], docs["scenarios"])


def _scen(d: dict[str, Any], n: int) -> dict[str, Any]:
    return next(s for s in d["scenarios"]["scenarios"] if s["number"] == n)


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (
            lambda d: d["oob"]["setups"]["A"]["placements"].append(["G999Inf", "0101"]),
            "unknown unit id 'G999Inf'",
        ),
        (
            lambda d: d["oob"]["setups"]["A"]["placements"].append(
                list(d["oob"]["setups"]["A"]["placements"][0])
            ),
            "is placed twice",
        ),
        (
            lambda d: [p.__setitem__(1, "0101") for p in d["oob"]["setups"]["1"]["placements"][:4]],
            "more than 3 units in hex 0101",
        ),
        (
            lambda d: d["oob"]["setups"]["A"]["placements"][0].__setitem__(1, "7999"),
            "not a hex of the 78x63 map",
        ),
        (lambda d: d["oob"]["setups"]["A"]["placements"].pop(5), "stale"),
        (lambda d: d["oob"]["setups"]["A"]["placements"].append(["S316RD", "0101"]), "is soviet, not german"),
        (lambda d: _scen(d, 3).update(german_oob="G"), "unknown german OOB 'G'"),
        (lambda d: _scen(d, 15).update(soviet_oob="1"), "starts on the september line, not november"),
        (lambda d: _scen(d, 3).update(first_turn=9), "bad turn range 9-8"),
        (lambda d: _scen(d, 3).update(last_turn=32), "game turn must be an integer 1..31"),
        (lambda d: _scen(d, 3).update(options=["V"]), "options must include U"),
        (lambda d: d["scenarios"]["scenarios"].pop(), "needs scenarios 1..24"),
        (
            lambda d: d["reinforcements"]["german"]["U"]["entries"].append({"turn": 0, "unit": "G81Inf"}),
            "1..31",
        ),
        (
            lambda d: d["reinforcements"]["soviet"]["entries"].append({"turn": 5, "unit": "S4TB"}),
            "unit S4TB arrives twice",
        ),
        (
            lambda d: d["reinforcements"]["german"]["U"]["entries"].append({"turn": 3, "unit": "G35Inf"}),
            "scenario 1: unit G35Inf appears twice",
        ),
        (lambda d: d["reinforcements"]["german"].pop("Z"), "exactly U, V, W, X, Y, Z"),
        (
            lambda d: d["oob"]["setups"]["D"]["dated_strengths"]["units"]["G3Pz"].update(tanks=400),
            "gives 7-10, not a worn 5-10",
        ),
        (
            lambda d: d["oob"]["setups"]["D"]["dated_strengths"]["units"]["G2Pz"].pop("basis"),
            "needs an object with a 'basis'",
        ),
        (
            lambda d: d["oob"]["setups"]["D"]["dated_strengths"]["units"].update(
                G13Pz={"tanks": 9, "basis": "x"}
            ),
            "G13Pz: not a starting unit of this OOB",
        ),
    ],
)
def test_corrupt_scenario_data_raises_data_error(mutate, message):  # type: ignore[no-untyped-def]
    """Data is validated on load: unknown ids, double placements, overstacks, unknown OOBs, bad turn
    ranges, units arriving twice are refused with a clear DataError."""
    with pytest.raises(DataError, match=message.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[")):
        _build(mutate)


def test_unknown_scenario_number():
    with pytest.raises(DataError, match="scenarios 1..24"):
        load_scenario(25)


def test_units_used_are_known_counters():
    """Every unit id in a scenario is a units.json counter of the right side; no KG counter starts."""
    units = load_units().units
    for n in range(1, 25):
        for u in load_scenario(n).units:
            assert units[u.id].side == u.side and u.type != "kg"


@pytest.mark.parametrize("scenario", ["15", "21"])
def test_kalinin_starts_german_held_in_november_and_december(scenario: str) -> None:
    """Reconstruction revision (issue 14; docs/TMC_OOB.md §4, role "garrison"): Kalinin was German
    from 14 October to 16 December 1941, so the November and December set-ups put a German
    division in the city (the line walk had left it empty, and the Soviets walked in)."""
    from typhoon.games.tmc import engine
    from typhoon.games.tmc.actions import SetupStandard

    s = engine.new_game(scenario)
    while s.phase_spec.kind == "setup":
        s, _ = engine.apply(s, SetupStandard())
    kalinin = s.rules.map.places["Kalinin"]
    assert (s.occ[0] >> kalinin) & 1, "no German unit in Kalinin"


@pytest.mark.parametrize("scenario", ["15", "21"])
def test_the_tula_workers_regiment_starts_in_tula(scenario: str) -> None:
    """Reconstruction revision (issue 14, TMC_AI.md revision 5; docs/TMC_OOB.md §4, role
    "garrison"): the Tula Workers' Regiment was formed in Tula on 23 October 1941 and held the
    city itself; the line walk had put it on the 50th Army's line south-east of the city."""
    from typhoon.games.tmc import engine
    from typhoon.games.tmc.actions import SetupStandard

    s = engine.new_game(scenario)
    while s.phase_spec.kind == "setup":
        s, _ = engine.apply(s, SetupStandard())
    tula = s.rules.map.places["Tula"]
    regiment = next(u.index for u in s.rules.units if u.id == "STulaWR")
    assert s.loc[regiment] == tula
    assert len(s.stacks[tula]) >= 2  # with the 50th Army's division(s) there


def test_german_panzer_divisions_in_the_november_oob_are_weaker_than_on_30_september() -> None:
    """Issue 14 revision 2 (docs/TMC_OOB.md §3, "Dated strengths"): the November (D, E) and December (F) German
    set-ups give each panzer division its dated tank strength, read into the units.json bands;
    the counters keep their 30 September strength in the September scenarios. Mid-November
    most panzer divisions were under 50 tanks (4-10), the 2nd and 5th Pz (fresh in late
    September) 50-99 (5-10); by early December all were under 50."""
    sept = {u.id: u.cf for u in load_scenario(1).units if u.side == "german" and u.type == "armour"}
    for number, fives in ((15, {"G2Pz", "G5Pz"}), (16, {"G2Pz", "G5Pz"}), (21, set())):
        sc = load_scenario(number)
        pz = {u.id: u for u in sc.units if u.side == "german" and u.type == "armour" and u.arrive == 0}
        assert len(pz) == 14
        for uid, u in pz.items():
            assert u.cf == (5 if uid in fives else 4), (number, uid, u.cf)
            assert u.cf < sept[uid], (number, uid)
            assert u.kg is not None  # still 4+: becomes a KG, §8.1
    assert sept["G2Pz"] == 7  # the counter as printed (30 September); 4-10 in December
    # a German unit arriving later keeps its counter's strength (it is fresh on arrival)
    assert all(
        u.cf == CAT.units.units[u.id].cf for u in load_scenario(15).units if u.arrive or u.side == "soviet"
    )
