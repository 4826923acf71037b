"""Map and counter facts of both editions, pinned against the reference transcription.

Reference: bfm_data.md (sections 1-3, 8 and 12), transcribed here by hand so that the engine's
data files are checked against an independent copy (the project does not read ../shared).
Seed 002, «Набор игры» (counter list) and «Как играть» (seven turns, turns 3 and 4 mud).
"""

from __future__ import annotations

import pytest

from typhoon.games.bfm.rules import GERMAN, SOVIET

from .helpers import GDW, VPG, hexes, ref_distance, ref_hexes, ref_neighbours, rules_for


def ids(m, hexes) -> set[str]:  # type: ignore[no-untyped-def]
    return {m.grid.ids[h] for h in hexes}


def pairs(m, pairs_) -> set[frozenset[str]]:  # type: ignore[no-untyped-def]
    return {frozenset((m.grid.ids[a], m.grid.ids[b])) for a, b in pairs_}


FOREST_GDW = hexes(
    "0201 0202 0207 0208 0301 0308 0401 0405 0408 0409 0510 0604 0701 0702 0703 0704 0708 0806 "
    "0901 0902 0905 0906 1201 1303 1404"
)
FOREST_VPG_EXTRA = hexes("0109 0203 0209 0210 0309 0311 0511")
FORTIFICATIONS = hexes(
    "0501 0502 0503 0504 0505 0506 0507 0801 0802 0803 0804 0805 1001 1002 1003 1004 1102 1104 "
    "1105 1106 1107 1203"
)
CITIES = {
    "0204": "Smolensk",
    "0307": "Roslavl",
    "0509": "Bryansk",
    "0601": "Rzhev",
    "0603": "Vyazma",
    "0803": "Mozhaisk",
    "0805": "Kaluga",
    "0809": "Orel",
    "1103": "Moscow",
    "1107": "Tula",
    "1405": "Ryazan",
}
RIVERS_GDW_TEXT = """
0105|0106 0105|0205 0204|0205 0205|0305 0305|0306 0305|0405 0403|0504 0404|0405 0404|0504 0404|0505
0503|0504 0503|0603 0504|0604 0505|0506 0505|0604 0505|0605 0603|0604 0604|0704 0604|0705 0605|0705
0705|0706 0706|0805 0805|0806 0806|0906 0806|0907 0807|0907 0807|0908 0808|0908 0904|0905 0905|1004
0906|0907 0906|1006 0908|0909 0909|1008 0909|1009 0910|1009 0910|1010 1001|1101 1001|1102 1002|1102
1002|1103 1003|1103 1004|1005 1005|1006 1005|1105 1005|1106 1103|1104 1104|1203 1105|1106 1105|1205
1203|1204 1204|1205 1204|1304 1204|1305 1304|1305 1305|1404 1404|1405
"""
RIVERS_GDW = {frozenset(p.split("|")) for p in RIVERS_GDW_TEXT.split()}
RIVERS_VPG = RIVERS_GDW | {frozenset(("0405", "0505")), frozenset(("0911", "1010"))}

# bfm_data.md section 3: rail lines as hex chains; "(off-map X)" marks where a line leaves the map.
RAIL_GDW = """
east 1406 1405 1305 1204 1203
east 1401 1302 1201
east 1402 1303 1202 1103
east 1403 1304 1203
north 0901 1001 1002
north 1301 1201
south 0510 0509
south 0810 0809
west 0102 0201 0302 0401 0502 0601
west 0105 0204
west 0110 0209 0310 0409 0509
- 0204 0205 0306 0307 0407 0508 0509
- 0204 0305 0404 0504 0603
- 0509 0608 0708 0707 0806 0805 0905 0904 1003
- 0509 0609 0710 0809
- 0601 0602 0603
- 0601 0702 0802 0902 1002
- 0603 0704 0803 0903 1003
- 0809 0909 1008 1108 1107 1106 1105 1104 1103
- 1002 1103
- 1003 1103
- 1103 1102 1201
- 1103 1203
"""
RAIL_VPG = """
east 1401 1302 1201
east 1402 1303 1202 1103
east 1403 1304 1203
east 1406 1405 1305 1204 1203
north 0901 1001 1002
north 1301 1201
south 0511 0510 0509
west 0102 0201 0302 0401 0502 0601
west 0105 0204
west 0110 0209 0310 0409 0509
- 0204 0205 0306 0307 0407 0508 0509
- 0204 0305 0404 0504 0603
- 0509 0608 0708 0707 0806 0805 0905 0904 1003
- 0509 0609 0710 0809 0909 1008 1108 1107 1106 1105 1104 1103
- 0601 0602 0603
- 0601 0702 0802 0902 1002
- 0603 0704 0803 0903 1003
- 1002 1103
- 1003 1103
- 1103 1102 1201
- 1103 1203
"""
JUNCTIONS_GDW = {
    "0204": 3,
    "0509": 5,
    "0601": 3,
    "0603": 3,
    "0809": 3,
    "1002": 3,
    "1003": 3,
    "1103": 6,
    "1201": 3,
    "1203": 3,
}
JUNCTIONS_VPG = {k: v for k, v in JUNCTIONS_GDW.items() if k != "0809"}


def rail_chains(text: str) -> tuple[set[frozenset[str]], set[tuple[str, str]]]:
    links: set[frozenset[str]] = set()
    exits: set[tuple[str, str]] = set()
    for line in text.strip().splitlines():
        head, *chain = line.split()
        if head != "-":
            exits.add((chain[0], head))
        for a, b in zip(chain, chain[1:]):
            links.add(frozenset((a, b)))
    return links, exits


SETUP_SOVIET_GDW = hexes("0301 0302 0303 0304 0405 0504 0505 0506 0507 0508 0509 0510 0803")
SETUP_SOVIET_VPG = hexes("0301 0302 0303 0304 0405 0503 0506 0507 0508 0509 0510 0511 0608 0803")
SETUP_GERMAN_GDW = hexes(
    "0103 0104 0106 0107 0201 0202 0203 0204 0205 0206 0209 0210 0305 0306 0307 0309 0310 0406 "
    "0407 0408 0409 0410"
)
SETUP_GERMAN_VPG = (SETUP_GERMAN_GDW - {"0107"}) | {"0404"}


@pytest.mark.parametrize(("edition", "count"), [(GDW, 140), (VPG, 147)])
def test_hex_count(edition: str, count: int) -> None:
    """bfm_data §1: GDW 14 columns x 10 rows = 140 hexes; VPG adds an 11th row to the odd
    columns (0111 ... 1311) = 147 hexes."""
    m = rules_for(edition).map
    assert m.grid.count == count
    assert ids(m, m.grid.hexes) == ref_hexes(edition)
    if edition == VPG:
        assert ids(m, m.grid.hexes) - ref_hexes(GDW) == {
            "0111",
            "0311",
            "0511",
            "0711",
            "0911",
            "1111",
            "1311",
        }


@pytest.mark.parametrize("edition", [GDW, VPG])
def test_neighbours_and_distance(edition: str) -> None:
    """bfm_data §1: flat-topped hexes, odd columns high ("odd-q"): 0201 touches 0101 (NW) and
    0102 (SW). Every hex's neighbours and distances agree with the reference geometry."""
    m = rules_for(edition).map
    g = m.grid
    assert ref_neighbours("0201") == {"0101", "0102", "0202", "0301", "0302"}
    for h in g.hexes:
        assert ids(m, g.neighbours[h]) == ref_neighbours(g.ids[h], edition), g.ids[h]
    for a in ("0101", "0509", "1103", "1410", "0710"):
        for b in ("0204", "1103", "1405", "0110", "1301"):
            assert g.distance(g.index[a], g.index[b]) == ref_distance(a, b, edition)


@pytest.mark.parametrize(("edition", "count"), [(GDW, 25), (VPG, 32)])
def test_forests(edition: str, count: int) -> None:
    """bfm_data §2: GDW has 25 forest hexes; VPG the same 25 plus 0109 0203 0209 0210 0309
    0311 0511 = 32. Every other hex is clear."""
    m = rules_for(edition).map
    want = FOREST_GDW if edition == GDW else FOREST_GDW | FOREST_VPG_EXTRA
    assert len(want) == count
    assert ids(m, m.forest) == want
    assert all(m.is_forest(h) == (m.grid.ids[h] in want) for h in m.grid.hexes)


@pytest.mark.parametrize("edition", [GDW, VPG])
def test_fortifications(edition: str) -> None:
    """bfm_data §2: 22 fortification hexes, identical in both editions (Vyazma, Mozhaisk and
    Moscow lines); never on a forest; Moscow 1103 itself is not one, nor is 1202."""
    m = rules_for(edition).map
    assert len(FORTIFICATIONS) == 22
    assert ids(m, m.fortification) == FORTIFICATIONS
    assert not FORTIFICATIONS & ids(m, m.forest)
    assert not m.is_fortification(m.idx("1103"))
    assert not m.is_fortification(m.idx("1202")) and not m.is_forest(m.idx("1202"))


@pytest.mark.parametrize("edition", [GDW, VPG])
def test_cities(edition: str) -> None:
    """bfm_data §2: 11 cities on the same hexes in both editions; all start Soviet except
    Smolensk and Roslavl (German set-up hexes). Seed 002, «Пополнения»: all cities start
    Soviet except those already occupied by a German unit."""
    m = rules_for(edition).map
    got = {m.grid.ids[c.hex]: c.name for c in m.cities}
    assert got == CITIES
    control = {m.grid.ids[c.hex]: c.initial_control for c in m.cities}
    assert {h for h, side in control.items() if side == "german"} == {"0204", "0307"}
    assert ids(m, m.moscow) == {"1103"}
    if edition == VPG:
        assert ids(m, m.major_cities) == {"1103", "1107"}
    else:
        assert ids(m, m.major_cities) == set()


@pytest.mark.parametrize(("edition", "count"), [(GDW, 57), (VPG, 59)])
def test_rivers(edition: str, count: int) -> None:
    """bfm_data §3-4: 57 river hexsides on the GDW map, 59 on VPG (adds 0405|0505 and
    0911|1010). Rivers are hexsides between adjacent hexes."""
    m = rules_for(edition).map
    want = RIVERS_GDW if edition == GDW else RIVERS_VPG
    assert len(want) == count
    assert pairs(m, m.rivers) == want
    for p in want:
        a, b = sorted(p)
        assert b in ref_neighbours(a, edition)
        assert m.river_between(m.idx(a), m.idx(b)) and m.river_between(m.idx(b), m.idx(a))
    assert not m.river_between(m.idx("0504"), m.idx("0505"))


@pytest.mark.parametrize(
    ("edition", "chains", "junctions"), [(GDW, RAIL_GDW, JUNCTIONS_GDW), (VPG, RAIL_VPG, JUNCTIONS_VPG)]
)
def test_rail_network(edition: str, chains: str, junctions: dict[str, int]) -> None:
    """bfm_data §3 and §5: the rail lines as hex chains (every link between consecutive hexes
    of a chain, and no other), where they leave the map, and the junction hexes with their
    number of links. GDW has the Orel spur 0809-0810; VPG runs the Bryansk line on through
    0511 instead."""
    m = rules_for(edition).map
    links, exits = rail_chains(chains)
    assert pairs(m, m.rail) == links
    assert {(m.grid.ids[h], d) for h, d in m.rail_exits} == exits
    degree: dict[str, int] = {}
    for link in links:
        for h in link:
            degree[h] = degree.get(h, 0) + 1
    assert {h: d for h, d in degree.items() if d >= 3} == junctions
    for h, d in junctions.items():
        assert len(m.rail_neighbours[m.idx(h)]) == d
    rail_hexes = {h for link in links for h in link}
    assert ids(m, [h for h in m.grid.hexes if m.is_rail(h)]) == rail_hexes
    if edition == GDW:
        assert frozenset(("0809", "0810")) in links
        assert "0511" not in rail_hexes
    else:
        assert "0810" not in rail_hexes
        assert frozenset(("0510", "0511")) in links
    # The whole network is one piece: every rail hex is connected to Moscow by rail.
    comps = m.rail_components()
    assert len(comps) == 1


@pytest.mark.parametrize(
    ("edition", "soviet", "german"),
    [(GDW, SETUP_SOVIET_GDW, SETUP_GERMAN_GDW), (VPG, SETUP_SOVIET_VPG, SETUP_GERMAN_VPG)],
)
def test_setup_hexes(edition: str, soviet: set[str], german: set[str]) -> None:
    """bfm_data §2: GDW 13 Soviet (hammer & sickle) and 22 German (cross) set-up hexes; VPG 14
    Soviet and 22 German (0404 instead of 0107)."""
    m = rules_for(edition).map
    assert ids(m, m.setup["soviet"]) == soviet
    assert ids(m, m.setup["german"]) == german
    assert (len(soviet), len(german)) == ((13, 22) if edition == GDW else (14, 22))


def test_edges_gdw() -> None:
    """bfm_data §1: GDW German edge = west column 0101-0110, Soviet edge = east column
    1401-1410 (north/south edge hexes do not count; reading marked UNVERIFIED there)."""
    m = rules_for(GDW).map
    assert ids(m, m.edges["german"]) == {f"01{r:02d}" for r in range(1, 11)}
    assert ids(m, m.edges["soviet"]) == {f"14{r:02d}" for r in range(1, 11)}


def test_edges_vpg() -> None:
    """bfm_data §1: VPG German edge = 0101-0111; Soviet edge = the 17 red-bordered hexes:
    1101 1201 1301 (north), 1401-1410 (east), 1010 1111 1210 1311 (south)."""
    m = rules_for(VPG).map
    assert ids(m, m.edges["german"]) == {f"01{r:02d}" for r in range(1, 12)}
    want = {"1101", "1201", "1301", "1010", "1111", "1210", "1311"} | {f"14{r:02d}" for r in range(1, 11)}
    assert len(want) == 17
    assert ids(m, m.edges["soviet"]) == want


# -- counters -------------------------------------------------------------------------------

GERMAN_COUNTERS = {
    # id: (panzer, full, half, move)  -- bfm_data §12 (1996 counter sheet)
    "XXIV": (True, 12, 6, 6),
    "XLI": (True, 12, 6, 6),
    "LVII": (True, 12, 6, 6),
    "XLVI": (True, 10, 5, 6),
    "XLVII": (True, 9, 4, 6),
    "LVI": (True, 9, 4, 6),
    "XL": (True, 8, 4, 6),
    "XLVIII": (True, 8, 4, 6),
    "XXII": (False, 8, 4, 4),
    "XXXV": (False, 8, 4, 4),
    "VII": (False, 7, 4, 4),
    "VIII": (False, 7, 4, 4),
    "IX": (False, 7, 4, 4),
    "V": (False, 6, 3, 4),
    "XIII": (False, 6, 3, 4),
    "XX": (False, 6, 3, 4),
    "XXVII": (False, 6, 3, 4),
    "LIII": (False, 6, 3, 4),
    "VI": (False, 5, 2, 4),
    "XII": (False, 5, 2, 4),
    "XXXIV": (False, 4, 2, 4),
    "XLII": (False, 4, 2, 4),
}
SOVIET_ARMIES = [3, 5, 10, 13, 16, 19, 20, 24, 29, 30, 32, 33, 40, 43, 49, 50]


def _table(rules) -> dict[str, tuple[int, bool, int, int, int]]:  # type: ignore[no-untyped-def]
    return {u.id: (u.side, u.panzer, u.full, u.half, u.move) for u in rules.units}


def test_counters_gdw() -> None:
    """Seed 002, «Набор игры», and bfm_data §12: 22 German corps (8 panzer corps with movement
    6, 14 infantry corps with movement 4) and 17 Soviet armies (16 8-4/4-4 infantry armies and
    1st Shock Army 10-4/5-4). XXII is 8-4 (the seed lists it among the 7-4 corps: a slip; the
    counter sheets print 8-4); the 7-4 corps' half side is 4 in GDW."""
    r = rules_for(GDW)
    table = _table(r)
    want = {uid: (GERMAN, *v) for uid, v in GERMAN_COUNTERS.items()}
    want["1SA"] = (SOVIET, False, 10, 5, 4)
    for n in SOVIET_ARMIES:
        want[f"{n}A"] = (SOVIET, False, 8, 4, 4)
    assert table == want
    assert len(r.side_units[GERMAN]) == 22 and len(r.side_units[SOVIET]) == 17
    assert sum(1 for u in r.units if u.panzer) == 8
    assert all(not u.panzer for u in r.units if u.side == SOVIET)


def test_counters_vpg_defaults() -> None:
    """bfm_data §12: oberlabs' VPG data give the 7-4 corps a half side of 3 (the engine's VPG
    default, UNVERIFIED in the reference); everything else as GDW."""
    r = rules_for(VPG)
    table = _table(r)
    for uid in ("VII", "VIII", "IX"):
        assert table[uid] == (GERMAN, False, 7, 3, 4)
    assert table["XXII"] == (GERMAN, False, 8, 4, 4)
    gdw = _table(rules_for(GDW))
    assert {k: v for k, v in table.items() if k not in ("VII", "VIII", "IX")} == {
        k: v for k, v in gdw.items() if k not in ("VII", "VIII", "IX")
    }


@pytest.mark.parametrize(
    ("edition", "options", "xxii", "half74"),
    [
        (GDW, {"half_strength_7_4": "3"}, (8, 4), 3),
        (GDW, {"xxii_corps": "7-4"}, (7, 4), 4),
        (GDW, {"xxii_corps": "7-4", "half_strength_7_4": "3"}, (7, 3), 3),
        (VPG, {"half_strength_7_4": "4"}, (8, 4), 4),
    ],
)
def test_counter_options(edition: str, options: dict[str, str], xxii: tuple[int, int], half74: int) -> None:
    """Options for the counters the sources disagree on (bfm_data §12): ``xxii_corps=7-4``
    follows the seed's list (XXII among the 7-4 corps), ``half_strength_7_4`` picks 4 (1996
    sheet) or 3 (LaTeX sheet, oberlabs)."""
    r = rules_for(edition, **options)
    t = _table(r)
    assert t["XXII"][2:4] == xxii
    for uid in ("VII", "VIII", "IX"):
        assert t[uid][2:4] == (7, half74)


@pytest.mark.parametrize("edition", [GDW, VPG])
def test_turn_track(edition: str) -> None:
    """Seed 002, «Как играть»: seven turns; turns 3 and 4 are two weeks each because of mud
    (Oct III/IV, Nov I/II); bfm_data §8 gives the labels."""
    r = rules_for(edition)
    assert r.last_turn == 7
    assert r.mud_turns == {3, 4}
    if edition == GDW:
        assert r.turn_labels == {
            1: "Oct I",
            2: "Oct II",
            3: "Oct III/IV",
            4: "Nov I/II",
            5: "Nov III",
            6: "Nov IV",
            7: "Dec I",
        }
