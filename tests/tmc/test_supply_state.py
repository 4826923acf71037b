"""Supply, front and victory on a game State (rules_en.md §11, §13.1, §14, §15, §23, §24; [Q7],
[Q24], [Q34], [Q62]-[Q65]).

A synthetic 20 x 12 map (even columns shifted down) with one rail line along row 6 (0106 on the
west edge to 2006 on the east edge), start line "september" = column 10, the German bold line
0106-0506 (so at the start 0106-0506 is German-repaired, 0606-0906 destroyed, 1006-2006 normal,
§16.1) and Moscow = 1805 1806 1905.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from typhoon.games.tmc import front, supply, victory
from typhoon.games.tmc.rules import GERMAN, SOVIET, Rules
from typhoon.games.tmc.state import State
from typhoon.hexgrid import HexGrid

G = HexGrid(20, 12, 12, "even")


def m(*hids: str) -> int:
    return G.mask(G.idx(x) for x in hids)


def cols(first: int, last: int) -> int:
    return G.mask(G.idx(f"{c:02d}{r:02d}") for c in range(first, last + 1) for r in range(1, 13))


def row6(first: int, last: int) -> int:
    return m(*(f"{c:02d}06" for c in range(first, last + 1)))


def _map() -> Any:
    chain = [G.idx(f"{c:02d}06") for c in range(1, 21)]
    links: list[list[int]] = [[] for _ in range(G.size)]
    for a, b in zip(chain, chain[1:]):
        links[a].append(b)
        links[b].append(a)
    north = G.mask(h for h in G.hexes if G.coords[h][1] == 1)
    south = G.mask(h for h in G.hexes if G.coords[h][1] == 12)
    moscow = (G.idx("1805"), G.idx("1806"), G.idx("1905"))
    return SimpleNamespace(
        grid=G,
        forest_mask=0,
        moscow=moscow,
        moscow_mask=G.mask(moscow),
        river_mask=[0] * G.size,
        lake_mask=[0] * G.size,
        rail_neighbours=[tuple(x) for x in links],
        rail_mask=row6(1, 20),
        defence_lines=(),
        edges={"north": north, "south": south, "west": cols(1, 1), "east": cols(20, 20)},
        rail_edge={"west": m("0106"), "east": m("2006"), "north": 0, "south": 0},
        german_entry=cols(1, 1),
        soviet_entry=(G.idx("2006"),),
        start_lines={"september": tuple(G.idx(f"10{r:02d}") for r in range(1, 13))},
        west_of={"september": cols(1, 9)},
        east_of={"september": cols(11, 20)},
        repaired_rail={"september": row6(1, 5)},
    )


UNITS = [
    {"id": "g_inf", "side": "german", "kind": "infantry", "cf": 2, "ma": 5},
    {"id": "g_inf2", "side": "german", "kind": "infantry", "cf": 3, "ma": 5},
    {"id": "g_eb", "side": "german", "kind": "eb", "cf": 1, "ma": 5},
    {"id": "g_pz", "side": "german", "kind": "armour", "cf": 6, "ma": 8},
    {"id": "s_inf", "side": "soviet", "kind": "infantry", "cf": 4, "ma": 4},
    {"id": "s_inf2", "side": "soviet", "kind": "infantry", "cf": 4, "ma": 4},
]
SCENARIO = {"first_turn": 1, "last_turn": 8, "start_line": "september", "units": UNITS}


def state(options: dict[str, str] | None = None, **at: str) -> State:
    rules = Rules.from_data(_map(), SCENARIO, options)
    s = State(rules)
    for uid, hid in at.items():
        s.put(rules.unit_index[uid], G.idx(hid))
    return s


def test_initial_rail_states_and_german_supply() -> None:
    """§16.1, §11.1: the bold line 0106-0506 is German-repaired; a German unit 12 hexes from 0506 is
    in supply, 13 is not."""
    s = state(g_inf="1705", g_inf2="1805")
    assert s.rail_german == row6(1, 5)
    sup = supply.supply_now(s, GERMAN)
    assert sup.rail == row6(1, 5)
    assert sup.has(G.idx("1705")) and not sup.has(G.idx("1805"))


def test_soviet_supply_german_eb_has_no_zoc() -> None:
    """§11.4.3, §13.1: a German infantry unit at 1505 puts the rail hex 1506 in German ZOC: Soviet
    rail then reaches the east edge only from 1606-2006 and a Soviet unit at 1010 (within 6 of
    1006-1306, not of 1606) is out of supply. A German EB unit at 1505 has no ZOC and cuts nothing;
    a Soviet unit on 1506 keeps the line open against the infantry."""
    base = supply.supply_now(state(s_inf="1010"), SOVIET)
    assert base.rail == row6(10, 20)
    assert base.has(G.idx("1010"))
    cut = supply.supply_now(state(s_inf="1010", g_inf="1505"), SOVIET)
    assert cut.rail == row6(16, 20)
    assert not cut.has(G.idx("1010"))
    eb = supply.supply_now(state(s_inf="1010", g_eb="1505"), SOVIET)
    assert eb.rail == row6(10, 20) and eb.has(G.idx("1010"))
    held = supply.supply_now(state(s_inf="1010", s_inf2="1506", g_inf="1505"), SOVIET)
    assert held.rail == row6(10, 20) and held.has(G.idx("1010"))


def test_overrun_flipped_units_block_nothing_q34() -> None:
    """[Q7], [Q34]: a German unit flipped by a pending overrun has no ZOC and its hex counts as empty."""
    s = state(s_inf="1010", g_inf="1505")
    s.flipped |= 1 << s.rules.unit_index["g_inf"]
    s._cache = {}
    sup = supply.supply_now(s, SOVIET)
    assert sup.rail == row6(10, 20) and sup.has(G.idx("1010"))


def test_soviet_repaired_rail_west_of_start_line_option_q24() -> None:
    """[Q24]: Soviet EB units repaired 0606-0906 west of the start line. Default (descriptive): a
    Soviet unit at 0304 (3 from 0606) is in supply; option no (strict): rail west of column 10 does
    not count and 0304 (7 from 1006) is out."""
    for option, expected in (("yes", True), ("no", False)):
        s = state({"soviet_supply_west_of_start_line": option}, s_inf="0304")
        s.rail_soviet = row6(6, 9)
        assert supply.supply_now(s, SOVIET).has(G.idx("0304")) is expected, option


def test_front_on_state_counts_eb_hex_without_zoc() -> None:
    """§15, [Q39]: front.front_gaps with State.zoc_units_mask: an EB unit covers its own hex only.
    Units on 0502 0505 0508 cover 0501-0509; the EB unit on 0511 covers 0511 only: gaps 0510 and
    0512 (2). Without it: 0510-0512 (3)."""
    edges = _map().edges
    s = state(g_inf="0502", g_inf2="0505", g_pz="0508", g_eb="0511")
    gaps = front.front_gaps(
        G, s.occ[GERMAN], s.zoc_units_mask(GERMAN), north=edges["north"], south=edges["south"]
    )
    assert gaps == 2
    s = state(g_inf="0502", g_inf2="0505", g_pz="0508")
    assert front.front_gaps(G, s.occ[GERMAN], s.zoc_units_mask(GERMAN)) == 3


def test_unit_elimination_vp_on_state_q62() -> None:
    """[Q62]: a 6-CF panzer becoming a KG scores 8; the KG dying later 6; an EB unit 1 per CF."""
    s = state(g_pz="0505", g_eb="0506")
    pz = s.rules.unit_index["g_pz"]
    assert victory.unit_elimination_vp(s, pz, "kg_conversion") == 8
    s.kg |= 1 << pz
    assert victory.unit_elimination_vp(s, pz) == 6
    assert victory.unit_elimination_vp(s, s.rules.unit_index["g_eb"]) == 1


def test_final_result_on_state() -> None:
    """§23, §24: a German unit in Moscow (1805, out of supply: 13 from 0506) scores 10 but no 50;
    a German unit at 1705 (1 from Moscow, in supply) 10. Soviet 0 VP, German 20: German decisive."""
    s = state(g_inf="1805", g_inf2="1705")
    result, level, awards = victory.final_result(s)
    assert (GERMAN, 20, "German units within 5 hexes of Moscow") in awards
    assert sum(n for side, n, _ in awards if side == GERMAN) == 20
    assert result == "german" and level == "German decisive victory"
    s.vp = [0, 10]
    assert victory.final_result(s)[1] == "Soviet substantial victory"  # 20 : 10 = 2:1


def test_final_result_soviet_holds_moscow_and_far_west() -> None:
    """§23: the Soviets hold Moscow with a unit on 1806, a normal rail hex joined to the east edge
    (in supply): 50 VP to the Soviets; 0 : 50 is a Soviet decisive victory."""
    s = state(s_inf="1806")
    result, level, awards = victory.final_result(s)
    assert (SOVIET, 50, "holding Moscow in supply at game end") in awards
    assert result == "soviet" and level == "Soviet decisive victory"
