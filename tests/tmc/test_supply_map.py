"""Supply, front and victory masks on the real (reconstructed) map at each start line
(rules_en.md §11, §16.1, §15, §23 [Q65]); counts and timings are printed (run with -s)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from typhoon.games.tmc import front, supply, victory
from typhoon.games.tmc.rules import MapLike
from typhoon.games.tmc.tmcmap import TmcMap, load_map


def _standard_setup(scenario: str) -> Any:
    """Scenario ``scenario``'s standard set-up placed on the map, at its first game-turn."""
    from typhoon.games.tmc.rules import GERMAN, SOVIET, load_rules
    from typhoon.games.tmc.setup_phase import setup_units
    from typhoon.games.tmc.state import State

    rules = load_rules(scenario)
    s = State(rules)
    for side in (SOVIET, GERMAN):
        for u in setup_units(rules, side):
            if rules.units[u].setup >= 0:
                s.put(u, rules.units[u].setup)
    s.turn = rules.first_turn
    return s


@pytest.fixture(scope="module")
def tmap() -> TmcMap:
    return load_map()


def _start(tmap: TmcMap, line: str) -> tuple[int, int, int]:
    """§16.1: at the start the bold lines are German-repaired, other rail west of the start line
    destroyed, rail east of it (and on it) normal."""
    rep = tmap.repaired_rail[line] & tmap.rail_mask
    normal = tmap.rail_mask & ~tmap.west_of[line] & ~rep
    return rep, normal, tmap.rail_mask & ~normal & ~rep


@pytest.mark.parametrize("line", ["september", "november", "december"])
def test_supply_at_scenario_start_without_units(tmap: TmcMap, line: str) -> None:
    """§11.1, §16.1: every German-repaired hex at the start reaches the W/S edge along rail; §11.2:
    Moscow is in Soviet supply; with no Soviet rail west of the line yet, the [Q24] readings agree."""
    rep, normal, destroyed = _start(tmap, line)
    t0 = time.perf_counter()
    ger = supply.german_supply_on_map(tmap, repaired_german=rep, cut=0, soviet_occ=0)
    t1 = time.perf_counter()
    empty_map: dict[str, Any] = dict(
        normal=normal,
        repaired_soviet=0,
        cut=0,
        destroyed=destroyed,
        german_occ=0,
        german_zoc_units=0,
        soviet_occ=0,
        start_line=line,
    )
    sov = supply.soviet_supply_on_map(tmap, **empty_map)
    t2 = time.perf_counter()
    strict = supply.soviet_supply_on_map(tmap, **empty_map, west_of_start_line="strict")
    far = victory.far_west_hexes(tmap.grid, tmap.start_lines[line], tmap.west_of[line])
    print(
        f"\n{line}: German repaired rail {rep.bit_count()} (connected {ger.rail.bit_count()}), German "
        f"supply {ger.in_supply.bit_count()} hexes in {1000 * (t1 - t0):.2f} ms; Soviet rail "
        f"{normal.bit_count()} (connected {sov.rail.bit_count()}), supply {sov.in_supply.bit_count()} hexes "
        f"in {1000 * (t2 - t1):.2f} ms; far-west VP hexes {far.bit_count()}"
    )
    assert ger.rail == rep
    assert ger.in_supply & rep == rep
    assert tmap.moscow_mask & sov.in_supply == tmap.moscow_mask
    if line == "september":  # the railheads are 34+ hexes from Moscow (in December only 12)
        assert not ger.in_supply & tmap.moscow_mask
    assert sov.rail & ~normal == 0
    assert strict.in_supply == sov.in_supply  # no Soviet rail west of the line at the start ([Q24])
    assert far and not far & ~tmap.west_of[line]


def test_full_front_and_no_front_on_the_real_map(tmap: TmcMap) -> None:
    """§15, [Q38]: no units: every hex of a north-south chain is a gap (at least the 63 rows);
    units on every start-line hex: no gap."""
    g = tmap.grid
    north, south = tmap.edges["north"], tmap.edges["south"]
    assert front.path_gaps(g.expand, g.all_mask, north, south, 0) >= 63
    line = g.mask(tmap.start_lines["september"])
    t0 = time.perf_counter()
    gaps = front.front_gaps(g, line, line, north=north, south=south)
    print(
        f"\nfront along the September start line: {gaps} gaps in {1000 * (time.perf_counter() - t0):.2f} ms"
    )
    assert gaps == 0


# --- cross-check against a plain per-unit search -------------------------------------------------


def _reference(tmap: MapLike, edge: int, usable: int, blocked: int, reach: int, start: int) -> bool:
    """§11, [Q23] by hand: rail hexes joined along rail links to ``edge``; then a breadth-first
    search from the unit's hex, never entering a blocked hex, at most ``reach`` steps."""
    g = tmap.grid
    rail = set()
    todo = [h for h in g.hexes if (edge & usable) >> h & 1]
    while todo:
        h = todo.pop()
        if h in rail:
            continue
        rail.add(h)
        todo += [n for n in tmap.rail_neighbours[h] if usable >> n & 1 and n not in rail]
    dist = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for h in frontier:
            if h in rail:
                return True
            if dist[h] == reach:
                continue
            for n in g.neighbours[h]:
                if n not in dist and not blocked >> n & 1:
                    dist[n] = dist[h] + 1
                    nxt.append(n)
        frontier = nxt
    return False


@pytest.mark.parametrize("line", ["september", "december"])
def test_bitset_supply_agrees_with_a_plain_search(tmap: TmcMap, line: str) -> None:
    """§11.1, §11.2, §11.4, [Q23]: on the real map with scattered units of both sides (every 7th /
    11th hex near the start line) and a few cut rail hexes, every unit's supply from the bitset
    computation equals a per-unit breadth-first search."""
    g = tmap.grid
    rep, normal, destroyed = _start(tmap, line)
    line_mask = g.mask(tmap.start_lines[line])
    near = line_mask
    for _ in range(8):
        near |= g.expand(near)
    west, east = tmap.west_of[line] & near, tmap.east_of[line] & near
    ger_occ = g.mask(h for i, h in enumerate(g.hexes) if i % 7 == 0 and west >> h & 1)
    sov_occ = g.mask(h for i, h in enumerate(g.hexes) if i % 11 == 0 and east >> h & 1)
    cut_rail = g.mask([h for h in g.hexes if rep >> h & 1][::40])
    ger = supply.german_supply_on_map(tmap, repaired_german=rep, cut=cut_rail, soviet_occ=sov_occ)
    sov = supply.soviet_supply_on_map(
        tmap,
        normal=normal,
        repaired_soviet=0,
        cut=0,
        destroyed=destroyed,
        german_occ=ger_occ,
        german_zoc_units=ger_occ,
        soviet_occ=sov_occ,
        start_line=line,
    )
    w_s = supply.edge_rail(tmap, supply.GERMAN_EDGES)
    n_s_e = supply.edge_rail(tmap, supply.SOVIET_EDGES)
    sov_blocked = ger_occ | (g.expand(ger_occ) & ~sov_occ)
    counts = [0, 0]
    for h in g.hexes:
        if ger_occ >> h & 1:
            expected = _reference(tmap, w_s, rep & ~cut_rail & ~sov_occ, sov_occ, 12, h)
            assert ger.has(h) == expected, g.ids[h]
            counts[0] += expected
        if sov_occ >> h & 1:
            expected = _reference(tmap, n_s_e, normal & ~sov_blocked, sov_blocked, 6, h)
            assert sov.has(h) == expected, g.ids[h]
            counts[1] += expected
    print(
        f"\n{line}: German units in supply {counts[0]}/{ger_occ.bit_count()}, "
        f"Soviet {counts[1]}/{sov_occ.bit_count()}"
    )
    assert 0 < counts[0] < ger_occ.bit_count() or 0 < counts[1] < sov_occ.bit_count()  # both answers occur


@pytest.mark.parametrize("step", [3, 5, 9, 17])
def test_front_bitset_count_agrees_with_explicit_search(tmap: TmcMap, step: int) -> None:
    """[Q38]: the layered bitset count equals the cost of the cheapest chain found by an explicit
    0-1 breadth-first search, on scattered units of the real map (every ``step``-th hex of a band)."""
    g = tmap.grid
    north, south = tmap.edges["north"], tmap.edges["south"]
    band = g.mask(h for h in g.hexes if 30 <= g.coords[h][0] <= 40)
    units = g.mask(h for i, h in enumerate(g.hexes) if i % step == 0 and band >> h & 1)
    covered = front.covered_hexes(g.expand, units, units)
    k = front.path_gaps(g.expand, g.all_mask, north, south, covered)
    chain = front.gap_hexes(g, covered, north, south)
    assert k == len(chain)
    assert all(not covered >> h & 1 for h in chain)


@pytest.mark.parametrize("scenario", ["1", "15", "21"])
def test_supply_at_scenario_start_with_the_standard_deployment(scenario: str) -> None:
    """§11 at the start of a September (1), November (15) and December (21) scenario with the
    standard deployment: every unit's supply from supply_now equals the per-unit search; the
    in-supply counts are printed (run with -s)."""
    from typhoon.games.tmc.rules import GERMAN, SOVIET

    s = _standard_setup(scenario)
    rules = s.rules
    tmap = rules.map
    t0 = time.perf_counter()
    sups = supply.supply_now(s, GERMAN), supply.supply_now(s, SOVIET)
    dt = time.perf_counter() - t0
    ger_occ, sov_occ = s.occ[GERMAN], s.occ[SOVIET]
    sov_blocked = ger_occ | (s.zoc(GERMAN) & ~sov_occ)
    ref = (
        (supply.edge_rail(tmap, supply.GERMAN_EDGES), s.rail_german & ~sov_occ, sov_occ, 12),
        (
            supply.edge_rail(tmap, supply.SOVIET_EDGES),
            (s.rail_normal | s.rail_soviet) & ~sov_blocked,
            sov_blocked,
            6,
        ),
    )
    counts = []
    for side in (GERMAN, SOVIET):
        units = s.on_map(side)
        edge, usable, blocked, reach = ref[side]
        for u in units:
            assert sups[side].has(s.loc[u]) == _reference(tmap, edge, usable, blocked, reach, s.loc[u])
        counts.append((sum(sups[side].has(s.loc[u]) for u in units), len(units)))
    print(
        f"\nscenario {scenario} ({rules.start_line}, GT {rules.first_turn}): German units in supply "
        f"{counts[0][0]}/{counts[0][1]}, Soviet {counts[1][0]}/{counts[1][1]} ({1000 * dt:.2f} ms for both)"
    )
    assert counts[0][0] > 0 and counts[1][0] > 0


def test_scenario_1_units_out_of_supply_at_the_start_are_the_known_limits() -> None:
    """Issue 14 revision 4 (docs/TMC_OOB.md §4, docs/TMC_MAP.md "What is uncertain"): oobgen
    prefers hexes the side can supply, which brought S107MRD from 1724 to 1823. The five units
    still out of supply in scenario 1's standard set-up are pinned so the count cannot silently
    grow: the German XXIII Corps at 1702-1707 (Army Group North's neighbour sector, supplied from
    off the map; no German-repaired rail within 12 hexes of start-line hexes 1801-1807) and
    S244RD at 1725, the only Soviet-side land hex next to start-line hex 1625 (§25.4 wants that
    hex in Soviet ZOC), 7 hexes from Soviet rail (§11.2: 6)."""
    from typhoon.games.tmc.rules import GERMAN, SOVIET
    from typhoon.hexgrid import bit_list

    s = _standard_setup("1")
    rules = s.rules
    g = rules.grid
    out = {}
    for side in (GERMAN, SOVIET):
        sup = supply.supply_now(s, side)
        out |= {rules.units[u].id: g.ids[s.loc[u]] for u in s.on_map(side) if not sup.has(s.loc[u])}
    assert out == {
        "G253Inf": "1702",
        "G251Inf": "1704",
        "G102Inf": "1706",
        "G256Inf": "1707",
        "S244RD": "1725",
    }
    tmap = rules.map
    line = g.mask(tmap.start_lines["september"])
    east_land = tmap.east_of["september"] & ~tmap.lake_hexes & ~line
    assert [g.ids[h] for h in bit_list(g.neighbour_mask[g.index["1625"]] & east_land)] == ["1725"]
