"""Rules audit: sequence-of-play, rail and EB cases that had no test citing them (rules_en.md
§2, §15 for the Soviet player turn, §16.2.3, §17 German EB, §20.1, §20.3, §20.5, §21 no
carry-over, §22.2); see docs/TMC_RULE_INDEX.md.

Synthetic 12 x 10 map of engine_fixtures: start line column 06, rail along row 05 (German-
repaired 0105-0505, normal east of the line), Moscow 1105 1106 1205.
"""

from __future__ import annotations

from typhoon.games.tmc import engine
from typhoon.games.tmc.actions import END, Detrain, Entrain, Move, RailMove
from typhoon.games.tmc.movement_phase import remaining
from typhoon.games.tmc.rules import GERMAN, SOVIET, TICKS

from .engine_fixtures import (
    RAIL_ROW_05,
    REPAIRED_WEST,
    dests,
    hx,
    line_units,
    make_map,
    make_rules,
    position,
    unit,
    within,
)

RAIL = RAIL_ROW_05
REPAIRED = REPAIRED_WEST


LINES = line_units("german", 4, "G") + line_units("soviet", 8, "S")


def _map():  # type: ignore[no-untyped-def]
    return make_map(rails=(RAIL,), repaired=REPAIRED)


def test_soviet_front_gaps_score_for_the_germans_at_end_of_soviet_turn_s15() -> None:
    """§15.1, §15.3, [Q39]: the continuous-front check is made for the Soviets too, at the end of
    their own player turn (end of the Soviet combat phase): the full Soviet column 08 scores
    nothing; without S10 one gap hex scores the Germans 1 VP."""
    r = make_rules(LINES, _map(), last=2)
    full = position(r, {u["id"]: u["setup"] for u in LINES}, phase="soviet_combat")
    t, _ = engine.apply(full, END)
    assert t.vp[GERMAN] == full.vp[GERMAN]
    gap = position(r, {u["id"]: u["setup"] for u in LINES if u["id"] != "S10"}, phase="soviet_combat")
    t2, ev = engine.apply(gap, END)
    assert t2.vp[GERMAN] == gap.vp[GERMAN] + 1
    assert [e.data["side"] for e in ev if e.kind == "front"] == ["soviet"]


def test_german_eb_is_never_replaced_s17_q59() -> None:
    """§17 (German EB units cannot be replaced), §21, [Q59]: in a replacement scenario an
    eliminated German EB unit - even one printed (2)-5 and listed before the infantry - never
    comes back; the eliminated 2-5 infantry G2 does. With only the EB eliminated nothing comes
    back (no carry-over)."""
    roster = [unit("GEB", "german", 2, 5, kind="eb", eb=True)] + LINES
    r = make_rules(roster, _map(), last=3, replacements=True)
    geb, g2 = r.unit_index["GEB"], r.unit_index["G2"]
    placements = {u["id"]: u["setup"] for u in LINES if u["id"] != "G2"}
    s = position(r, placements, phase="soviet_combat")
    s.lost &= ~((1 << geb) | (1 << g2))  # both eliminated, neither out of the game
    t, ev = engine.apply(s, END)
    assert t.turn == 2 and t.phase_spec.key == "german_movement"
    assert [e.data["unit"] for e in ev if e.kind == "replacement"] == ["G2"]
    assert (t.eliminated >> geb) & 1 and not (t.eliminated >> g2) & 1
    only_eb = position(r, {u["id"]: u["setup"] for u in LINES}, phase="soviet_combat")
    only_eb.lost &= ~(1 << geb)
    t2, ev2 = engine.apply(only_eb, END)
    assert not any(e.kind == "replacement" for e in ev2) and (t2.eliminated >> geb) & 1


def test_german_reinforcements_enter_only_in_the_first_movement_phase_s22() -> None:
    """§2, §22.2: German reinforcements enter in the first movement phase, not in the
    mechanised movement phase (even a mechanised one)."""
    roster = LINES + [unit("GR", "german", 4, 10, kind="armour", arrive=1)]
    r = make_rules(roster, _map(), last=2)
    placed = {u["id"]: u["setup"] for u in LINES}
    first = position(r, placed)
    assert any(a.kind == "enter" and a.unit == "GR" for a in engine.legal_actions(first))
    mech = position(r, placed, phase="german_mechanised")
    assert not any(a.kind == "enter" for a in engine.legal_actions(mech))


ROSTER = [
    unit("G1", "german", 2, 5),
    unit("GE", "german", 1, 4, kind="eb", eb=True),
    unit("S1", "soviet", 2, 4),
    unit("SX", "soviet", 2, 12, kind="cavalry"),
    unit("SE", "soviet", 1, 4, kind="eb", eb=True),
]


def test_only_the_soviets_have_rail_movement_s201() -> None:
    """§20.1: the Germans never entrain: a German unit and a German EB unit standing on normal
    and German-repaired rail in the German movement phase are offered no Entrain."""
    r = make_rules(ROSTER, _map())
    s = position(r, {"G1": "0905", "GE": "0305", "S1": "1210"})
    acts = engine.legal_actions(s)
    assert any(a.kind == "move" for a in acts)
    assert not any(a.kind in ("entrain", "railmove", "detrain") for a in acts)


def test_entrain_after_moving_and_move_on_after_detraining_s203_s205() -> None:
    """§20.3: a unit entrains on a rail hex it reached by ordinary movement; §20.5: MP left after
    detraining may be used for ordinary movement. SX (MA 12) moves 1204 -> 1205 (1 MP), entrains
    (6), rides 4 rail hexes to 0805 (4/30), detrains (3): 1 26/30 MP left, enough for one more
    clear hex. (TEC §26 note A: the rail hex 1205 entered by ordinary movement costs 1 MP.)"""
    r = make_rules(ROSTER, _map())
    s = position(r, {"SX": "1204", "G1": "0101"}, phase="soviet_movement")
    sx = r.unit_index["SX"]
    s, _ = engine.apply(s, Move("SX", "1204", "1205"))
    assert Entrain("SX") in engine.legal_actions(s)
    s, _ = engine.apply(s, Entrain("SX"))
    assert remaining(s, sx) == 5 * TICKS
    s, _ = engine.apply(s, RailMove("SX", "1205", "0805"))
    s, _ = engine.apply(s, Detrain("SX"))
    assert remaining(s, sx) == 2 * TICKS - 4 * (TICKS // 30)
    assert dests(s, "SX") == within(r, "0805", 1, 1)


def test_friendly_eb_removes_a_cut_marker_s1623() -> None:
    """§16.2.3: when a friendly EB unit enters a cut hex the cut marker is removed (and the hex
    is repaired, §16.1.4): the Soviet EB on cut Soviet rail at 0905; the German EB on German
    rail at 0405 cut by the Soviets."""
    r = make_rules(ROSTER, _map())
    s = position(r, {"SE": "1005", "G1": "0101"}, phase="soviet_movement")
    h = hx(r, "0905")
    s.rail_normal &= ~(1 << h)
    s.rail_cut |= 1 << h
    s._cache = {}
    s._legal = None
    t, _ = engine.apply(s, Move("SE", "1005", "0905"))
    assert not (t.rail_cut >> h) & 1 and (t.rail_soviet >> h) & 1
    g = position(r, {"GE": "0305", "S1": "1210"})
    k = hx(r, "0405")
    g.rail_german &= ~(1 << k)
    g.rail_cut |= 1 << k
    g._cache = {}
    g._legal = None
    t2, _ = engine.apply(g, Move("GE", "0305", "0405"))
    assert not (t2.rail_cut >> k) & 1 and (t2.rail_german >> k) & 1
    assert t2.vp == g.vp and t.vp[SOVIET] == s.vp[SOVIET]


def test_soviet_arrival_needs_usable_rail_and_no_german_next_to_it_s223_s209() -> None:
    """§22.3 with §16.1.5, §20.9, §20.10, [Q58]: reinforcements come by train, so the east-edge
    entry hex must carry rail movement (normal, uncut) and have no German unit in or next to it
    - a German EB unit (no ZOC) next to it bars it too. Entry hexes 1205 and 1208."""
    roster = ROSTER + [unit("SR", "soviet", 3, 4, arrive=1)]
    r = make_rules(roster, make_map(rails=(RAIL, ("1108", "1208")), repaired=REPAIRED))

    def arrivals(s):  # type: ignore[no-untyped-def]
        return {a.hex for a in engine.legal_actions(s) if a.kind == "arrive"}

    s = position(r, {"S1": "0910", "G1": "0101"}, phase="soviet_movement")
    assert arrivals(s) == {"1205", "1208"}
    cut = position(r, {"S1": "0910", "G1": "0101"}, phase="soviet_movement")
    h = hx(r, "1205")
    cut.rail_normal &= ~(1 << h)
    cut.rail_cut |= 1 << h
    cut._cache = {}
    cut._legal = None
    assert arrivals(cut) == {"1208"}
    eb = position(r, {"S1": "0910", "G1": "0101", "GE": "1209"}, phase="soviet_movement")
    assert arrivals(eb) == {"1205"}  # 1209 touches 1208; an EB has no ZOC but is a unit


def test_german_reinforcement_may_enter_a_lone_bracket_hex_q32() -> None:
    """§22.2 with §13.2, [Q32]: a German reinforcement may enter the west-edge hex of a lone
    Soviet [#] unit, removing it (1 VP); the hexes in its ZOC stay barred."""
    roster = [*LINES, unit("SB", "soviet", 1, 4, bracket=True), unit("GR", "german", 2, 5, arrive=1)]
    r = make_rules(roster, _map(), last=2)
    s = position(r, {"SB": "0104", "S2": "0802"})
    enters = {a.hex for a in engine.legal_actions(s) if a.kind == "enter"}
    assert "0104" in enters and "0103" not in enters and "0105" not in enters
    t, ev = engine.apply(s, next(a for a in engine.legal_actions(s) if a.kind == "enter" and a.hex == "0104"))
    assert t.loc[r.unit_index["SB"]] < 0 and t.loc[r.unit_index["GR"]] == hx(r, "0104")
    assert t.vp[GERMAN] == s.vp[GERMAN] + 1
    assert any(e.kind == "eliminated" for e in ev)
