"""Rules audit: movement cases that had no test citing them (rules_en.md §3.2, §4.1, §4.4,
§10.2, §13.2, §19.4, [Q3], [Q5], [Q43], [Q52]); see docs/TMC_RULE_INDEX.md.

Synthetic 12 x 10 map of engine_fixtures (start line column 06, even columns half a hex down:
0405's neighbours are 0404 0406 0305 0306 0505 0506; 0505's are 0504 0506 0404 0405 0604 0605).
"""

from __future__ import annotations

from typhoon.games.tmc import engine
from typhoon.games.tmc.actions import Entrain, Move, RailMove
from typhoon.games.tmc.movement_phase import allowance, remaining
from typhoon.games.tmc.rules import TICKS

from .engine_fixtures import dests, hx, make_map, make_rules, position, unit, within

ROSTER = [
    unit("G1", "german", 2, 5),
    unit("G2", "german", 2, 5),
    unit("G3", "german", 2, 5),
    unit("GP", "german", 6, 10, kind="armour"),
    unit("GE", "german", 1, 4, kind="eb", eb=True),
    unit("S1", "soviet", 2, 4),
    unit("SB", "soviet", 1, 4, bracket=True),
    unit("SE", "soviet", 1, 4, kind="eb", eb=True),
]


def rules(**kw):  # type: ignore[no-untyped-def]
    return make_rules(ROSTER, kw.pop("game_map", None) or make_map(), **kw)


def _refresh(s):  # type: ignore[no-untyped-def]
    s._cache = {}
    s._legal = None
    return s


def test_ezoc_to_ezoc_allowed_when_paid_plus_five_s44() -> None:
    """§4.4: moving directly from one EZOC hex to another costs +5 (+2 leaving, +3 entering) but
    is allowed when the unit can pay: GP (MA 10) at 0405 in S1's ZOC enters 0404 (also in S1's
    ZOC) for 1 + 2 + 3 = 6 MP and has 4 left."""
    r = rules()
    s = position(r, {"GP": "0405", "S1": "0505"})
    assert "0404" in dests(s, "GP")
    t, _ = engine.apply(s, Move("GP", "0405", "0404"))
    assert t.spent[r.unit_index["GP"]] == 6 * TICKS
    assert remaining(t, r.unit_index["GP"]) == 4 * TICKS


def test_river_hexsides_cost_nothing_to_cross_q5() -> None:
    """[Q5]: river hexsides have no MP cost: a 2-5 ringed by river hexsides still reaches every
    hex within 5 (GT 3, rivers not frozen)."""
    gm = make_map()
    g = gm.grid
    h = g.index["0305"]
    for n in g.neighbours[h]:
        gm.river_mask[h] |= 1 << n
        gm.river_mask[n] |= 1 << h
    r = rules(game_map=gm)
    s = position(r, {"G1": "0305"}, turn=3)
    assert dests(s, "G1") == within(r, "0305", 1, 5)


def test_eb_unit_has_no_zoc_for_movement_s41() -> None:
    """§4.1, §13.1: EB units exert no ZOC: a German 2-5 moving beside the Soviet EB unit SE
    pays no EZOC cost and reaches every hex within 5 except SE's own hex (§3.1)."""
    r = rules()
    s = position(r, {"G1": "0305", "SE": "0505"})
    assert dests(s, "G1") == within(r, "0305", 1, 5) - {"0505"}
    t, _ = engine.apply(s, Move("G1", "0305", "0405"))
    assert t.spent[r.unit_index["G1"]] == TICKS


def test_lone_bracket_unit_has_a_zoc_s132() -> None:
    """§13.2: a [#] unit does exert a ZOC (the mover removing it still pays the EZOC costs):
    GP entering 0405, next to the lone SB at 0505, pays 1 + 3 = 4 MP."""
    r = rules()
    s = position(r, {"GP": "0305", "SB": "0505"})
    t, _ = engine.apply(s, Move("GP", "0305", "0405"))
    assert t.spent[r.unit_index["GP"]] == 4 * TICKS
    assert t.loc[r.unit_index["SB"]] == hx(r, "0505")  # adjacent only: not removed


def test_eb_counts_for_stacking_s102() -> None:
    """§10.2: EB units count toward the 3-unit limit: with G1, G2 and GE in 0305 no fourth unit
    may end a move there."""
    r = rules()
    s = position(r, {"G1": "0305", "G2": "0305", "GE": "0305", "G3": "0303"})
    assert "0305" not in dests(s, "G3")
    assert "0304" in dests(s, "G3")


def _column_line() -> tuple[tuple[str, str], ...]:
    """Every hexside between column 04 (outer, west) and column 05 (inner, east)."""
    g = make_map().grid
    out = []
    for row in range(1, 11):
        h = g.index[f"04{row:02d}"]
        out.extend((g.ids[h], g.ids[n]) for n in g.neighbours[h] if g.coords[n][0] == 5)
    return tuple(out)


def test_minimum_move_covers_defence_line_and_destroys_it_q52() -> None:
    """§19.3, [Q52]: a German 2-5 out of supply (MA 2.5) at 0405 cannot pay 1 + 2 MP to cross
    the front hexside 0405/0505, yet the one-hex minimum (§3.2) lets it cross, and the hexside
    is destroyed."""
    r = rules(game_map=make_map(defence=(("Line", _column_line()),)))
    s = position(r, {"G1": "0405", "G2": "0101"})
    s.supply = [0, -1]  # Germans out of supply: MA halved (§11.3)
    from typhoon.games.tmc.flow import mark_supply

    mark_supply(s)
    _refresh(s)
    g1 = r.unit_index["G1"]
    assert allowance(s, g1) == 5 * TICKS // 2
    assert "0505" in dests(s, "G1")
    t, _ = engine.apply(s, Move("G1", "0405", "0505"))
    k = r.dl_index[(hx(r, "0405"), hx(r, "0505"))]
    assert (t.dl_destroyed >> k) & 1
    assert remaining(t, g1) == 0


def test_moving_out_from_the_inside_of_a_line_is_not_affected_s194() -> None:
    """§19.4: German movement from the inside (rear) of a defence line is not affected: G1 at 0505
    (inner side) reaches every hex within 5, westward across the line included, and destroys
    nothing."""
    r = rules(game_map=make_map(defence=(("Line", _column_line()),)))
    s = position(r, {"G1": "0505", "G2": "0101"})
    assert dests(s, "G1") == within(r, "0505", 1, 5)
    t, _ = engine.apply(s, Move("G1", "0505", "0105"))
    assert t.spent[r.unit_index["G1"]] == 4 * TICKS
    assert t.dl_destroyed == 0


def test_mechanised_phase_is_a_movement_phase_q3() -> None:
    """[Q3]: the mechanised movement phase is a movement phase: supply is judged at its start
    (§11; no German rail on this map, so GP is out of supply and moves at half MA) and in mud
    (§18, GT 10) a German unit enters only one hex in it."""
    r = rules(last=12)
    s = position(r, {"GP": "0305", "G1": "0101"}, phase="german_mechanised", supply_all=False)
    gp = r.unit_index["GP"]
    assert (s.oos >> gp) & 1
    assert allowance(s, gp) == 5 * TICKS
    m = position(r, {"GP": "0305", "G1": "0101"}, turn=10, phase="german_mechanised")
    assert dests(m, "GP") == within(r, "0305", 1, 1)


def test_rail_and_eb_units_cross_lake_hexsides_along_the_rail_q43() -> None:
    """§3.3, [Q43]: EB units and rail movement may cross a lake hexside where the rail does (GT 1,
    lakes not frozen); an ordinary unit may not cross it directly."""
    rail = tuple(f"{c:02d}05" for c in range(1, 13))
    gm = make_map(rails=(rail,), lakes=(("0305", "0405"), ("0905", "1005")))
    r = rules(game_map=gm)
    s = position(r, {"GE": "0305", "S1": "1205"})
    assert "0405" in dests(s, "GE")
    t, _ = engine.apply(s, Move("GE", "0305", "0405"))
    assert t.spent[r.unit_index["GE"]] == TICKS  # straight across, one hex
    so = position(r, {"S1": "1205", "G1": "0101"}, phase="soviet_movement")
    so, _ = engine.apply(so, Entrain("S1"))
    rail_dsts = {a.dst for a in engine.legal_actions(so) if a.kind == "railmove"}
    assert "0805" in rail_dsts  # 1205 -> 1105 -> 1005 -x lake x- 0905 -> 0805
    so, _ = engine.apply(so, RailMove("S1", "1205", "0805"))
    assert so.loc[r.unit_index["S1"]] == hx(r, "0805")


def test_city_hexes_have_no_terrain_effect_q72() -> None:
    """[Q72]: cities (Moscow included) cost 1 MP like clear terrain and give no die-roll
    modifier: a Soviet 2-4 reaches Moscow 1105 and beyond at 1 MP a hex; an attack on Moscow
    from 1005 has drm 0."""
    from typhoon.games.tmc.combat import GERMAN, Conditions, terrain_drm

    r = rules()
    s = position(r, {"S1": "0905", "G1": "0101"}, phase="soviet_movement")
    t, _ = engine.apply(s, Move("S1", "0905", "1105"))
    assert t.spent[r.unit_index["S1"]] == 2 * TICKS
    drm = terrain_drm(r.map, [hx(r, "1105")], [hx(r, "1005")], GERMAN, Conditions(3))  # type: ignore[arg-type]
    assert drm.value == 0


def test_mixed_terrain_pays_the_highest_cost_q73() -> None:
    """[Q73], TEC §26: a hex with several terrain types costs the highest of them (rail gives no
    ordinary-movement bonus): the armour GP entering the forest rail hex 0405 pays 3 MP, the
    2-5 G1 entering it pays 1 (non-mechanised forest cost)."""
    rail = tuple(f"{c:02d}05" for c in range(1, 6))
    r = rules(game_map=make_map(forest=("0405",), rails=(rail,), repaired=rail))
    s = position(r, {"GP": "0305", "G1": "0306"})
    t, _ = engine.apply(s, Move("GP", "0305", "0405"))
    assert t.spent[r.unit_index["GP"]] == 3 * TICKS
    t2, _ = engine.apply(t, Move("G1", "0306", "0405"))
    assert t2.spent[r.unit_index["G1"]] == TICKS
