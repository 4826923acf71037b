"""MOCKBA optional rule 3, bridges (option ``opt3_bridges``, default off; issue 13): the pack's
rules_en.md 12 row 3 (reading UNVERIFIED: "instead of attacking, the Soviet may try to blow a
bridge if a German unit is within 5 hexes of it: success on 5-6, or only on 6 if a German unit is
adjacent to the bridge"), the bridges of gaps.md MO-M1, the seed's blown-bridge markers (1).
docs/MOCKBA_RULES.md "Optional rules" has the readings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from typhoon.errors import IllegalActionError
from typhoon.games import game_module
from typhoon.games.mockba import mapgen
from typhoon.games.mockba.engine import (
    apply,
    bridge_need,
    distance,
    legal_actions,
    new_game,
    rail_links,
    rail_options,
)
from typhoon.games.mockba.env.codec import MockbaActionCodec
from typhoon.games.mockba.invariants import phase_problems, problems
from typhoon.games.mockba.notation import (
    action_from_text,
    action_to_text,
    position_from_text,
    position_to_text,
)
from typhoon.games.mockba.rules import hex_id, hex_index, load_rules
from typhoon.games.mockba.state import END, Blow, Roll, State
from typhoon.games.mockba.words import hex_words

from .world import texts, world

ON = {"opt3_bridges": "on"}
DATA = Path(mapgen.__file__).parent / "data"
A, B = "1309", "1408"  # the Volga railway bridge at Rzhev (clear hexes, Soviet side)


def _bridge(s: State, a: str = A, b: str = B) -> int:
    r = s.rules
    return r.bridge_index[r.pair(hex_index(a), hex_index(b))]


def _at(dist: int) -> str:
    """A land hex at exactly ``dist`` hexes from the bridge (the nearer of its two hexes)."""
    r = load_rules(None, ON)
    a, b = hex_index(A), hex_index(B)
    h = next(
        h
        for h in range(len(r.terrain))
        if min(distance(r, h, a), distance(r, h, b)) == dist and r.terrain[h] != "lake"
    )
    return hex_id(h)


def test_bridges_are_data_derived_from_the_map() -> None:
    """gaps.md MO-M1: bridges at the Minsk highway and the main rail lines over the Dnieper, Vop,
    Vazuza, Ugra, Oka, Desna and Volga; data/bridges.json (provenance reconstruction) is exactly
    mapgen.bridges of map.json, and every bridge is such a river hexside."""
    got = json.loads((DATA / "bridges.json").read_text(encoding="utf-8"))
    mp = json.loads((DATA / "map.json").read_text(encoding="utf-8"))
    assert got == mapgen.bridges(mp) and got["provenance"] == "reconstruction"
    r = load_rules(None, ON)
    assert len(r.bridges) == len(got["bridges"]) > 20
    assert all(p in r.rivers and (p in r.road or p[1] in r.rail_links.get(p[0], ())) for p in r.bridges)
    assert {x["river"] for x in got["bridges"]} <= set(mapgen.BRIDGE_RIVERS)
    highway = [x for x in got["bridges"] if "Minsk-Moscow highway" in x["crossing"]]
    assert {x["river"] for x in highway} == {"Dnieper", "Vop"}


def test_off_by_default_and_out_of_records() -> None:
    """Optional: no bridge action without the option, and the option stays out of the rules'
    options (so out of every record) at its default."""
    s = world({"16A.rif1": A, "G9A.inf1": _at(3)}, phase="s_combat")
    assert not [a for a in legal_actions(s) if a.kind == "blow"]
    assert "opt3_bridges" not in new_game().rules.options
    assert load_rules(None, ON).options["opt3_bridges"] == "on"


def test_blow_needs_a_german_within_five_hexes() -> None:
    """12.3: the try is allowed only if a German unit is within 5 hexes of the bridge."""
    s5 = world({"16A.rif1": A, "G9A.inf1": _at(5)}, phase="s_combat", options=ON)
    assert f"blow 16A.rif1 {B}" in texts(s5) and bridge_need(s5, _bridge(s5)) == 5
    s6 = world({"16A.rif1": A, "G9A.inf1": _at(6)}, phase="s_combat", options=ON)
    assert f"blow 16A.rif1 {B}" not in texts(s6) and bridge_need(s6, _bridge(s6)) == 0
    with pytest.raises(IllegalActionError):
        apply(s6, Blow("16A.rif1", B))


def test_blow_succeeds_on_five_or_six() -> None:
    """12.3: success on 5-6 (die 4 fails; the roll is a chance outcome)."""
    s = world({"16A.rif1": A, "G9A.inf1": _at(4)}, phase="s_combat", options=ON)
    s, _ = apply(s, Blow("16A.rif1", B))
    assert s.current_player() == -1 and legal_actions(s) == [Roll(d) for d in range(1, 7)]
    fail, _ = apply(s, Roll(4))
    assert fail.blown == 0 and fail.battle is None
    ok, ev = apply(s, Roll(5))
    assert ok.blown == 1 << _bridge(s) and any("blown" in e.text for e in ev)


def test_only_six_with_a_german_at_the_bridge() -> None:
    """12.3: only 6 if a German unit is adjacent to the bridge (reading: on one of the two hexes
    the bridge's hexside borders; here across the river)."""
    s = world({"16A.rif1": A, "G9A.inf1": B}, phase="s_combat", options=ON)
    assert bridge_need(s, _bridge(s)) == 6
    s, _ = apply(s, Blow("16A.rif1", B))
    assert apply(s, Roll(5))[0].blown == 0
    assert apply(s, Roll(6))[0].blown == 1 << _bridge(s)


def test_instead_of_attacking() -> None:
    """12.3 'instead of attacking' (reading): in the Soviet first combat phase only; the unit that
    tries may not attack in that phase; a bridge is tried once a phase; the German never blows."""
    s = world({"16A.rif1": A, "16A.rif2": A, "G9A.inf1": B}, phase="s_combat", options=ON)
    assert "attack 16A.rif1 " + B in texts(s)
    s, _ = apply(s, Blow("16A.rif1", B))
    s, _ = apply(s, Roll(1))
    t = texts(s)
    assert "attack 16A.rif1 " + B not in t and "attack 16A.rif2 " + B in t
    assert not [x for x in t if x.startswith("blow")]  # tried this phase
    nxt, _ = apply(s, END)
    assert nxt.tried == 0
    fu = world({"16A.rif1": A, "G9A.inf1": B}, phase="s_followup", options=ON)
    assert not [x for x in texts(fu) if x.startswith("blow")]
    g = world({"16A.rif1": A, "G9A.inf1": B}, phase="g_combat", options=ON)
    assert not [x for x in texts(g) if x.startswith("blow")]


def test_a_blown_bridge_carries_no_road_or_railway() -> None:
    """Reading of a blown bridge (seed markers): the highway's 1/2 MF and the railway no longer
    cross the river at that hexside (river cost and rail movement/supply as without them)."""
    r = load_rules(None, ON)
    road = r.pair(hex_index("0917"), hex_index("1016"))  # the highway's Dnieper bridge
    i = r.bridge_index[road]
    cost = dict(r.steps(False, 1)[road[0]])[road[1]]
    blown_cost = dict(r.steps(False, 1, 1 << i)[road[0]])[road[1]]
    assert (cost, blown_cost) == (1 + 2, 2 + 2)  # half MF: road 1/2 + river 1, then clear 1 + river 1
    s = world({"16A.rif1": A}, phase="s_move", options=ON, rail_left=12)
    assert hex_index(B) in rail_options(s, s.rules.unit_index["16A.rif1"])
    cut = s.replace(blown=1 << _bridge(s))
    assert hex_index(B) not in rail_options(cut, s.rules.unit_index["16A.rif1"])
    assert hex_index(B) not in rail_links(cut)[hex_index(A)]


def test_bridges_in_the_views_notation_and_codec() -> None:
    """The bridges on the SVG map, the blown marker in its layer and the hex words; the blow
    action reads back, encodes and is clicked on the hex across the bridge; positions with blown
    bridges read back."""
    fe = game_module("mockba").front_ends
    s = world({"16A.rif1": A, "G9A.inf1": _at(3)}, phase="s_combat", options=ON)
    a = Blow("16A.rif1", B)
    assert action_from_text(action_to_text(a)) == a
    codec = MockbaActionCodec(s.rules)
    assert codec.decode(s, codec.encode(s, a)) == a
    lv = fe.legal_view(s, legal_actions(s), action_to_text)
    (blow,) = [x for x in lv["actions"] if x["kind"] == "blow"]
    assert blow["hexes"] == [A, B] and blow["units"] == ["16A.rif1"]
    mid, _ = apply(s, a)
    json.dumps(fe.state_view(mid))
    assert position_from_text(position_to_text(mid)) == mid and not problems(mid)
    done, _ = apply(mid, Roll(6))
    svg = fe.render_map(done, True)
    assert 'class="bridge"' in svg and 'class="blown"' in svg
    assert "(blown)" in hex_words(done, hex_index(A))
    assert position_from_text(position_to_text(done)) == done and not phase_problems(done)
    assert 'class="blown"' not in fe.render_map(s, True)
