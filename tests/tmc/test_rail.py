"""Soviet rail movement, arrivals and EB relocation (rules_en.md §17, §20, §22.3; [Q42]-[Q45], [Q53]-[Q58])."""

from __future__ import annotations

import pytest

from typhoon.errors import IllegalActionError
from typhoon.games.tmc import engine
from typhoon.games.tmc.actions import END, Arrive, Detrain, Entrain, Move, RailMove, Relocate
from typhoon.games.tmc.movement_phase import remaining
from typhoon.games.tmc.rules import TICKS

from .engine_fixtures import RAIL_ROW_05, dests, hx, make_map, make_rules, position, unit

RAIL = RAIL_ROW_05
BRANCH = tuple(f"10{r:02d}" for r in range(5, 11))  # south from 1005 to the south edge

ROSTER = (
    [
        unit("G1", "german", 2, 5),
        unit("G2", "german", 2, 5),
    ]
    + [unit(f"S{i}", "soviet", 2, 4) for i in range(1, 12)]
    + [
        unit("SE", "soviet", 1, 4, kind="eb", eb=True),
        unit("SR1", "soviet", 3, 4, arrive=1),
        unit("SR2", "soviet", 3, 4, arrive=1),
    ]
)


def rules(**kw):  # type: ignore[no-untyped-def]
    gm = kw.pop("game_map", None) or make_map(rails=(RAIL, BRANCH))
    return make_rules(ROSTER, gm, **kw)


def soviet(r, placements, **kw):  # type: ignore[no-untyped-def]
    return position(r, placements, phase="soviet_movement", **kw)


def test_entrain_costs_half_ma_rail_thirty_hexes_per_mp_detrain_quarter_rounded_up() -> None:
    """§20.3-20.5, [Q54], [Q55]: entrain = half MA (exact), 1/30 MP per rail hex, detrain = a
    quarter of MA rounded up to whole MP. S1 (MA 4): entrain 2 MP, 4 rail hexes = 4/30 MP,
    detrain 1 MP; 26/30 MP left."""
    r = rules()
    s = soviet(r, {"S1": "1205", "G1": "0101"})
    u = r.unit_index["S1"]
    s, _ = engine.apply(s, Entrain("S1"))
    assert (s.entrained >> u) & 1 and remaining(s, u) == 2 * TICKS
    assert "S1" not in {a.unit for a in engine.legal_actions(s) if a.kind == "move"}  # [Q56]
    rail_dsts = {a.dst for a in engine.legal_actions(s) if a.kind == "railmove" and a.unit == "S1"}
    assert {"0805", "1010", "0605"} <= rail_dsts  # along both lines; not off the rail
    assert "0505" not in rail_dsts  # west of the start line: destroyed at the start (§16.1.2)
    assert "1106" not in rail_dsts
    s, _ = engine.apply(s, RailMove("S1", "1205", "0805"))
    assert remaining(s, u) == 2 * TICKS - 4 * (TICKS // 30)
    s, _ = engine.apply(s, Detrain("S1"))
    assert not (s.entrained >> u) & 1
    assert remaining(s, u) == TICKS - 4 * (TICKS // 30)
    # 26/30 MP left: not enough for a clear hex, and the one-hex minimum is only for a unit
    # that has not moved yet ([Q4])
    assert not dests(s, "S1")


def test_rail_partial_mp_option_whole_mps() -> None:
    """[Q55] option rail_partial_mp=no: each started 30 hexes costs a whole MP."""
    r = rules(options={"rail_partial_mp": "no"})
    s = soviet(r, {"S1": "1205", "G1": "0101"})
    s, _ = engine.apply(s, Entrain("S1"))
    s, _ = engine.apply(s, RailMove("S1", "1205", "0805"))
    assert remaining(s, r.unit_index["S1"]) == TICKS


def test_no_entraining_or_rail_movement_next_to_enemy_units() -> None:
    """§20.9, [Q58]: no entraining, rail movement or detraining in or adjacent to an enemy-occupied
    hex; rail movement never enters such hexes."""
    r = rules()
    s = soviet(r, {"S1": "1205", "S2": "0905", "G1": "0804"})
    acts = engine.legal_actions(s)
    assert Entrain("S1") in acts
    assert Entrain("S2") not in acts  # 0905 is adjacent to G1 at 0804
    s, _ = engine.apply(s, Entrain("S1"))
    rail_dsts = {a.dst for a in engine.legal_actions(s) if a.kind == "railmove"}
    assert "1005" in rail_dsts and "0905" not in rail_dsts and "0505" not in rail_dsts


def test_rail_movement_stops_at_cut_or_destroyed_rail() -> None:
    """§16.1.5, §16.2.2, §20.10: no rail movement through cut or destroyed rail (normal rail only)."""
    r = rules()
    s = soviet(r, {"S1": "1205", "G1": "0101"})
    h = hx(r, "0905")
    s.rail_normal &= ~(1 << h)
    s.rail_cut |= 1 << h
    s._cache = {}
    s._legal = None
    s, _ = engine.apply(s, Entrain("S1"))
    rail_dsts = {a.dst for a in engine.legal_actions(s) if a.kind == "railmove"}
    assert "1005" in rail_dsts and "0905" not in rail_dsts and "0805" not in rail_dsts


def test_nine_entrainings_per_phase_count_arrivals() -> None:
    """§20.2, §20.6, [Q53]: at most 9 units entrain per movement phase; each reinforcement
    arriving entrained counts toward the 9."""
    r = rules()
    placements = {f"S{i}": f"{c:02d}05" for i, c in zip(range(1, 12), (7, 7, 7, 8, 8, 8, 9, 9, 9, 11, 11))}
    placements["G1"] = "0101"
    s = soviet(r, placements)
    # two reinforcements arrive entrained (2 of 9)
    s, _ = engine.apply(s, Arrive("SR1", "1205"))
    s, _ = engine.apply(s, Arrive("SR2", "1205"))
    assert s.entrainings == 2
    for i in range(1, 8):
        s, _ = engine.apply(s, Entrain(f"S{i}"))
    assert s.entrainings == 9
    acts = engine.legal_actions(s)
    assert not any(a.kind == "entrain" for a in acts)
    with pytest.raises(IllegalActionError):
        engine.apply(s, Entrain("S8"))


def test_reinforcements_arrive_entrained_not_into_german_zoc_and_may_wait() -> None:
    """§22.3, [Q57], [Q60]: Soviet reinforcements arrive entrained on east-edge rail hexes, never
    into a German ZOC, at full MA; they may be delayed (End is legal with them waiting)."""
    r = rules()
    s = soviet(r, {"S1": "0905", "G1": "1106"})  # G1's ZOC covers 1205 (east-edge rail hex)
    arrive_hexes = {a.hex for a in engine.legal_actions(s) if a.kind == "arrive"}
    assert "1205" not in arrive_hexes
    assert END in engine.legal_actions(s)
    s2 = soviet(r, {"S1": "0905", "G1": "0101"})
    t, _ = engine.apply(s2, Arrive("SR1", "1205"))
    u = r.unit_index["SR1"]
    assert (t.entrained >> u) & 1 and remaining(t, u) == 4 * TICKS


def test_soviet_eb_relocation_to_normal_rail_only() -> None:
    """§17, [Q45]: at the start of the Soviet movement phase an EB unit may be put on any normal
    rail hex (not destroyed, not Soviet-repaired [Q42]); then the moves begin."""
    r = rules()
    s = soviet(r, {"SE": "1205", "G1": "0101"}, relocate=True)
    assert s.step == 0
    acts = engine.legal_actions(s)
    targets = {a.hex for a in acts if isinstance(a, Relocate)}
    assert "0805" in targets and "1010" in targets
    assert "0505" not in targets  # west of the start line: destroyed at the start (§16.1.2)
    assert not any(a.kind == "move" for a in acts)
    t, _ = engine.apply(s, Relocate("SE", "0805"))
    assert t.loc[r.unit_index["SE"]] == hx(r, "0805")
    assert t.step == 1  # the only EB has been relocated: the step ends by itself


def test_eliminated_soviet_eb_returns_in_moscow_unless_germans_hold_it() -> None:
    """§17, [Q45]: an eliminated Soviet EB returns in Moscow at the start of the next Soviet
    movement phase; if the Germans hold Moscow it is lost for good."""
    r = rules()
    base = position(r, {"G1": "0101", "S1": "0905"}, phase="german_mechanised")
    base.arrived |= 1 << r.unit_index["SE"]
    base.eliminated |= 1 << r.unit_index["SE"]
    base.lost &= ~(1 << r.unit_index["SE"])
    t, _ = engine.apply(base, END)
    se = r.unit_index["SE"]
    assert t.loc[se] in r.map.moscow
    held = position(r, {"G1": "1105", "S1": "0905"}, phase="german_mechanised")
    held.arrived |= 1 << se
    held.eliminated |= 1 << se
    held.lost &= ~(1 << se)
    u, _ = engine.apply(held, END)
    assert u.loc[se] < 0 and (u.lost >> se) & 1


def test_entrained_unit_cannot_move_normally_and_stays_entrained() -> None:
    """§20.7, [Q56]: an entrained unit may end its move entrained; it makes no ordinary moves."""
    r = rules()
    s = soviet(r, {"S1": "1205", "S2": "1210", "G1": "0101"})
    s, _ = engine.apply(s, Entrain("S1"))
    with pytest.raises(IllegalActionError):
        engine.apply(s, Move("S1", "1205", "1105"))
