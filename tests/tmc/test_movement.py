"""Movement phases on small synthetic maps (rules_en.md §3, §4, §10, §13.2, §18, §19, §26)."""

from __future__ import annotations

import pytest

from typhoon.errors import IllegalActionError
from typhoon.games.tmc import engine
from typhoon.games.tmc.actions import END, Move
from typhoon.games.tmc.flow import mark_supply
from typhoon.games.tmc.movement_phase import allowance, remaining
from typhoon.games.tmc.rules import TICKS

from .engine_fixtures import dests, hx, make_map, make_rules, position, unit, within

ROSTER = [
    unit("G1", "german", 2, 5),
    unit("G2", "german", 2, 5),
    unit("G3", "german", 2, 5),
    unit("G4", "german", 2, 5),
    unit("GP", "german", 6, 10, kind="armour"),
    unit("GE", "german", 1, 4, kind="eb", eb=True),
    unit("S1", "soviet", 2, 4),
    unit("S2", "soviet", 2, 4),
    unit("ST", "soviet", 3, 6, kind="tank"),
    unit("SB", "soviet", 1, 4, bracket=True),
    unit("SE", "soviet", 1, 4, kind="eb", eb=True),
]


def rules(**kw):  # type: ignore[no-untyped-def]
    return make_rules(ROSTER, kw.pop("game_map", None) or make_map(), **kw)


def test_clear_terrain_costs_one_mp_per_hex() -> None:
    """§3, TEC §26: clear hexes cost 1 MP; a 2-5 reaches every hex within 5 and no farther."""
    r = rules()
    s = position(r, {"G1": "0305"})
    assert dests(s, "G1") == within(r, "0305", 1, 5)


def test_forest_costs_mechanised_three_non_mechanised_one() -> None:
    """TEC §26 note B, [Q71]: forest/swamp costs non-mechanised 1 MP, mechanised 3 MP."""
    forest = tuple(f"{c:02d}{r:02d}" for c in range(1, 13) for r in range(1, 11))
    r = rules(game_map=make_map(forest=forest))
    s = position(r, {"G1": "0305", "GP": "0308"})
    assert dests(s, "G1") == within(r, "0305", 1, 5)
    assert dests(s, "GP") == within(r, "0308", 1, 3)  # MA 10 / 3 MP per hex = 3 hexes


def test_soviet_tank_pays_mechanised_forest_cost() -> None:
    """TEC §26 note B: Soviet tank and motorised units pay the mechanised costs."""
    forest = tuple(f"{c:02d}{r:02d}" for c in range(1, 13) for r in range(1, 11))
    r = rules(game_map=make_map(forest=forest))
    s = position(r, {"ST": "0905"}, phase="soviet_movement")
    assert dests(s, "ST") == within(r, "0905", 1, 2)


def test_enemy_zoc_costs_three_to_enter_two_to_leave() -> None:
    """§4.2-4.5: +3 MP entering an EZOC hex, +2 leaving one; EZOC does not stop movement.
    G1 (MA 5) at 0305; Soviet S1 at 0505 (ZOC: 0504 0405 0406 0506 0605 0604... its neighbours).
    Entering 0405 (in EZOC) costs 1+3 = 4; leaving it again costs 2 more, so nothing beyond."""
    r = rules()
    s = position(r, {"G1": "0305", "S1": "0505"})
    d = dests(s, "G1")
    assert "0405" in d  # 4 MP
    assert "0505" not in d  # enemy-occupied, §3.1
    # From 0405 (EZOC) to 0504 (EZOC) would cost 4 + 2 + 1 + 3 = 10 > 5.
    assert "0504" not in d
    # Entering an EZOC hex and going on: 0404 is not in S1's ZOC; 0405 -> 0404 costs 4+2+1 = 7 > 5.
    g = r.grid
    zoc = g.neighbour_mask[hx(r, "0505")]
    for hid in d:
        h = hx(r, hid)
        if (zoc >> h) & 1:
            # every EZOC hex reached is entered directly from outside the ZOC
            assert g.distance(hx(r, "0305"), h) <= 2


def test_one_hex_minimum_but_never_ezoc_to_ezoc() -> None:
    """§3.2, [Q4]: a unit that has not moved may always enter one adjacent hex, except directly
    from one enemy-ZOC hex to another. GP (MA 10) in mud is limited to one hex anyway; here a
    German 2-5 out of supply (MA 2.5) in enemy ZOC next to forest."""
    r = rules(game_map=make_map(forest=("0306",)))
    s = position(r, {"G1": "0405", "S1": "0505", "G4": "0101"})
    s.supply = [0, -1]  # Germans out of supply: MA 2.5
    mark_supply(s)
    s._cache = {}
    s._legal = None
    assert allowance(s, r.unit_index["G1"]) == 5 * TICKS // 2
    d = dests(s, "G1")
    # 0405's neighbours: 0404 0505 0506 0406 0306 0305; S1's ZOC: 0504 0604 0605 0506 0405 0404.
    # 0306 (not in S1's ZOC): cost 1 + 2 (leaving EZOC) = 3 > 2.5 -> only by the one-hex minimum
    assert "0306" in d and "0406" in d and "0305" in d
    # 0404 and 0506 are in S1's ZOC: EZOC -> EZOC never by the minimum (cost 1+2+3 = 6 > 2.5)
    assert "0404" not in d and "0506" not in d
    s2, _ = engine.apply(s, Move("G1", "0405", "0306"))
    assert remaining(s2, r.unit_index["G1"]) == 0
    assert "G1" not in {a.unit for a in engine.legal_actions(s2) if a.kind == "move"}


def test_lake_hexside_blocks_until_freeze() -> None:
    """§3.3, §18, TEC note C: no movement across a lake hexside until GT 16 (then clear)."""
    r = rules(game_map=make_map(lakes=(("0305", "0306"),)), last=20)
    s = position(r, {"G1": "0305"})
    g = r.grid
    assert "0306" in dests(s, "G1")  # around the lake: 0305 -> 0205/0405 -> 0306 (2 MP)
    # the direct crossing is not used: with MA 1 left nothing across the lake is reachable
    s.spent[r.unit_index["G1"]] = 4 * TICKS
    s._cache = {}
    s._legal = None
    assert "0306" not in dests(s, "G1")
    s16 = position(r, {"G1": "0305"}, turn=16)
    s16.spent[r.unit_index["G1"]] = 4 * TICKS
    s16._cache = {}
    s16._legal = None
    assert "0306" in dests(s16, "G1")
    assert g.adjacent(hx(r, "0305"), hx(r, "0306"))


def test_enemy_units_block_and_lone_bracket_unit_is_removed_by_entering() -> None:
    """§3.1: no entering enemy-occupied hexes; §13.2, [Q32]: a lone [#] unit is eliminated when
    an enemy unit enters its hex (paying only terrain and EZOC costs); it scores its VP (§23)."""
    r = rules()
    s = position(r, {"GP": "0305", "SB": "0505", "S1": "0508"})
    assert "0508" not in dests(s, "GP")
    assert "0505" in dests(s, "GP")
    t, events = engine.apply(s, Move("GP", "0305", "0505"))
    sb = r.unit_index["SB"]
    assert t.loc[sb] < 0 and (t.eliminated >> sb) & 1
    assert t.vp[0] == s.vp[0] + 1  # 1 VP per CF, non-mechanised
    assert t.stacks[hx(r, "0505")] == (r.unit_index["GP"],)
    assert any(e.kind == "eliminated" for e in events)


def test_stacking_leg_may_pass_but_not_end_on_a_full_hex() -> None:
    """§10, [Q22]: at most 3 units per hex at the end of the phase; passing through is allowed."""
    r = rules()
    s = position(r, {"G1": "0305", "G2": "0405", "G3": "0405", "G4": "0405"})
    d = dests(s, "G1")
    assert "0405" not in d
    assert "0505" in d  # through (or around) the full hex
    with pytest.raises(IllegalActionError):
        engine.apply(s, Move("G1", "0305", "0405"))


def test_mud_germans_one_hex_soviets_half() -> None:
    """§18 mud (GT 6-15), [Q48]: German units enter one hex per movement phase; Soviet MA halved."""
    r = rules(last=8)
    s = position(r, {"GP": "0305", "G4": "0101"}, turn=6)
    assert dests(s, "GP") == within(r, "0305", 1, 1)
    t, _ = engine.apply(s, Move("GP", "0305", "0405"))
    assert "GP" not in {a.unit for a in engine.legal_actions(t) if a.kind == "move"}
    s2 = position(r, {"S1": "0905"}, turn=6, phase="soviet_movement")
    assert allowance(s2, r.unit_index["S1"]) == 2 * TICKS
    assert dests(s2, "S1") == within(r, "0905", 1, 2)


def test_rain_halves_german_ma_and_winter_halves_mechanised() -> None:
    """§18: rain (GT 5) halves German MA; winter (GT 23+) halves German mechanised MA only."""
    r = rules(last=25)
    s = position(r, {"G1": "0305", "GP": "0308"}, turn=5)
    assert allowance(s, r.unit_index["G1"]) == 5 * TICKS // 2
    assert allowance(s, r.unit_index["GP"]) == 5 * TICKS
    w = position(r, {"G1": "0305", "GP": "0308"}, turn=23)
    assert allowance(w, r.unit_index["G1"]) == 5 * TICKS
    assert allowance(w, r.unit_index["GP"]) == 5 * TICKS


def test_supply_judged_at_phase_start_stays_for_the_phase() -> None:
    """§11: supply for movement is judged at the start of the phase; a unit out of supply then
    keeps its halved MA even after moving next to a rail line."""
    r = rules()
    s = position(r, {"G1": "0305", "G2": "0101"})
    s.supply = [1 << hx(r, "0405"), -1]  # only 0405 supplied
    mark_supply(s)
    s._cache = {}
    s._legal = None
    g1 = r.unit_index["G1"]
    assert allowance(s, g1) == 5 * TICKS // 2
    t, _ = engine.apply(s, Move("G1", "0305", "0405"))
    assert allowance(t, g1) == 5 * TICKS // 2
    assert remaining(t, g1) == 5 * TICKS // 2 - TICKS


def test_out_of_supply_halves_and_halvings_multiply() -> None:
    """§11.3, [Q10]/[Q49]: out of supply halves MA; with rain the halvings multiply (1/4)."""
    r = rules(last=6)
    s = position(r, {"G1": "0305"}, turn=5)
    s.supply = [0, -1]
    mark_supply(s)
    s._cache = {}
    assert allowance(s, r.unit_index["G1"]) == 5 * TICKS // 4  # 1.25 MP


def _column_line(cols: int = 12, rows: int = 10) -> tuple[tuple[str, str], ...]:
    """Every hexside between column 04 (outer, west) and column 05 (inner, east)."""
    from typhoon.hexgrid import HexGrid

    g = HexGrid(cols, rows, rows, "even")
    out = []
    for r in range(1, rows + 1):
        h = g.index[f"04{r:02d}"]
        for n in g.neighbours[h]:
            if g.coords[n][0] == 5:
                out.append((g.ids[h], g.ids[n]))
    return tuple(out)


def test_defence_line_costs_two_and_is_destroyed_then_collapses_after_five() -> None:
    """§19.3: a German unit pays +2 MP the first time it crosses a front hexside, which is then
    destroyed; §19.5: five destroyed hexsides of a line destroy the rest of it."""
    sides = _column_line()
    gm = make_map(defence=(("Mozhaisk", sides),))
    r = rules(game_map=gm)
    s = position(r, {"G1": "0405", "G4": "0101"})
    k = r.dl_index[(hx(r, "0405"), hx(r, "0505"))]
    d = dests(s, "G1")
    # crossing costs 3 (1 + 2): then 2 more hexes east; 0805 is 4 hexes away
    assert "0505" in d and "0705" in d and "0805" not in d
    t, ev = engine.apply(s, Move("G1", "0405", "0505"))
    assert (t.dl_destroyed >> k) & 1
    assert t.spent[r.unit_index["G1"]] == 3 * TICKS
    assert any(e.kind == "defence_line" for e in ev)
    # Once destroyed, the hexside costs nothing extra (§19.3): G4 crossing it later pays 1.
    # Destroy three more by hand, then a fifth crossing collapses the whole line.
    for a, b in sides[:3]:
        t.dl_destroyed |= 1 << r.dl_index[(hx(r, a), hx(r, b))]
    assert t.dl_count(0) == 4
    u = position(r, {"G2": "0410", "G4": "0101"})
    u.dl_destroyed = t.dl_destroyed
    u._cache = {}
    u._legal = None
    u2, ev2 = engine.apply(u, Move("G2", "0410", "0510"))
    assert u2.dl_destroyed == r.dl_line_masks[0]
    assert bin(u2.dl_destroyed).count("1") == len(sides)
    assert any("falls" in e.text for e in ev2)


def test_soviet_units_ignore_defence_lines() -> None:
    """§19.1: defence lines affect only German movement and combat."""
    gm = make_map(defence=(("L", (("0805", "0705"),)),))
    r = rules(game_map=gm)
    s = position(r, {"S1": "0805"}, phase="soviet_movement")
    assert "0505" in dests(s, "S1")  # 3 hexes west, 1 MP each, MA 4


def test_mechanised_phase_moves_only_mechanised_units_and_not_disrupted() -> None:
    """§2 A.3: only German mechanised units move in the mechanised movement phase; §7 De,Ad:
    a disrupted unit may not move."""
    r = rules()
    s = position(r, {"G1": "0305", "GP": "0308"}, phase="german_mechanised")
    movers = {a.unit for a in engine.legal_actions(s) if a.kind == "move"}
    assert movers == {"GP"}
    s2 = position(r, {"G1": "0305", "GP": "0308"})
    s2.disrupted[r.unit_index["GP"]] = 2
    s2._legal = None
    movers2 = {a.unit for a in engine.legal_actions(s2) if a.kind == "move"}
    assert movers2 == {"G1"}


def test_eb_units_move_only_along_rail() -> None:
    """§17.2, [Q44]: EB units move only from rail hex to rail hex along rail lines (any state)."""
    rail_line = ("0205", "0305", "0405", "0505", "0605", "0705")
    r = rules(game_map=make_map(rails=(rail_line,)))
    s = position(r, {"GE": "0305"})
    assert dests(s, "GE") == {"0205", "0405", "0505", "0605", "0705"}


def test_german_unit_entering_soviet_rail_destroys_and_cuts_it() -> None:
    """§16.1.3, §16.2, [Q40]: a German unit entering normal (Soviet) rail destroys it (cut)."""
    rail_line = tuple(f"{c:02d}05" for c in range(6, 13))
    r = rules(game_map=make_map(rails=(rail_line,)))
    s = position(r, {"G1": "0705", "G4": "0101"})
    h = hx(r, "0805")
    assert (s.rail_normal >> h) & 1
    t, _ = engine.apply(s, Move("G1", "0705", "0805"))
    assert not (t.rail_normal >> h) & 1 and (t.rail_cut >> h) & 1
    assert (t.rail_destroyed() >> h) & 1


def test_german_eb_converts_rail_to_german_repaired() -> None:
    """§16.1.4, [Q41]: a German EB entering destroyed or normal rail makes it German-repaired."""
    rail_line = tuple(f"{c:02d}05" for c in range(1, 10))
    r = rules(game_map=make_map(rails=(rail_line,), repaired=("0105", "0205")))
    s = position(r, {"GE": "0205"})
    h3, h4, h7 = hx(r, "0305"), hx(r, "0405"), hx(r, "0705")
    assert (s.rail_destroyed() >> h3) & 1  # west of the start line, not bold: destroyed (§16.1.2)
    assert (s.rail_normal >> h7) & 1
    t, _ = engine.apply(s, Move("GE", "0205", "0405"))
    assert (t.rail_german >> h3) & 1 and (t.rail_german >> h4) & 1


def test_soviet_eb_repair_is_soviet_repaired_by_default() -> None:
    """§16.1.4, [Q42]: a Soviet EB repair gives Soviet-repaired rail (option: normal)."""
    rail_line = tuple(f"{c:02d}05" for c in range(1, 13))
    gm = make_map(rails=(rail_line,))
    for option, field in (("no", "rail_soviet"), ("yes", "rail_normal")):
        r = rules(game_map=gm, options={"soviet_repair_restores_normal": option})
        s = position(r, {"SE": "0705", "S2": "1210"}, phase="soviet_movement")
        t, _ = engine.apply(s, Move("SE", "0705", "0505"))
        assert (getattr(t, field) >> hx(r, "0505")) & 1


def test_soviet_unit_entering_german_rail_destroys_it() -> None:
    """§16.1.3, [Q40]: a Soviet unit entering German-repaired rail destroys it (cut marker)."""
    rail_line = tuple(f"{c:02d}05" for c in range(1, 8))
    r = rules(game_map=make_map(rails=(rail_line,), repaired=("0105", "0205", "0305", "0405", "0505")))
    s = position(r, {"S1": "0705", "S2": "1210"}, phase="soviet_movement")
    t, _ = engine.apply(s, Move("S1", "0705", "0505"))
    h = hx(r, "0505")
    assert not (t.rail_german >> h) & 1 and (t.rail_cut >> h) & 1


def test_move_leaves_the_rest_of_the_allowance_for_another_leg() -> None:
    """Movement by legs: MP spent are kept per unit; a second leg uses what is left (§3)."""
    r = rules()
    s = position(r, {"G1": "0305"})
    t, _ = engine.apply(s, Move("G1", "0305", "0505"))
    assert remaining(t, r.unit_index["G1"]) == 3 * TICKS
    assert dests(t, "G1") == within(r, "0505", 1, 3)


def test_german_reinforcement_enters_on_west_edge_not_into_ezoc() -> None:
    """§22.2: German reinforcements enter in the first movement phase on west-edge hexes, not
    directly into an EZOC; the first hex costs its MP; [Q60] they may not be held back."""
    roster = ROSTER + [unit("GR", "german", 2, 5, arrive=2)]
    r = make_rules(roster, make_map(), last=3)
    s = position(r, {"S1": "0205"}, turn=2)
    enters = {a.hex for a in engine.legal_actions(s) if a.kind == "enter"}
    g = r.grid
    west = {g.ids[h] for h in g.hexes if g.coords[h][0] == 1}
    zoc = {g.ids[h] for h in g.neighbours[hx(r, "0205")]}
    assert enters == west - zoc
    assert END not in engine.legal_actions(s)
    t, _ = engine.apply(s, next(a for a in engine.legal_actions(s) if a.kind == "enter" and a.hex == "0101"))
    assert remaining(t, r.unit_index["GR"]) == 4 * TICKS
    assert END in engine.legal_actions(t)
