"""The Moscow Campaign map (data/map.json, a reconstruction): geography facts, rules needs
(rules_en.md §11, §16, §19, §22, §23, §25) and validation of corrupt data."""

import copy
import json
import time
from pathlib import Path

import pytest

from typhoon.errors import DataError
from typhoon.games.tmc.tmcmap import MAP_JSON, TmcMap, load_map
from typhoon.hexgrid import bits

GEOGRAPHY = Path(MAP_JSON).with_name("geography.json")


@pytest.fixture(scope="module")
def m() -> TmcMap:
    return load_map()


@pytest.fixture(scope="module")
def raw() -> dict:
    return json.loads(MAP_JSON.read_text(encoding="utf-8"))


def side(m: TmcMap, a: str, b: str) -> tuple[int, int]:
    x, y = m.idx(a), m.idx(b)
    return (min(x, y), max(x, y))


def neighbour(m: TmcMap, hid: str, direction: str) -> int:
    return m.grid.neighbours_by_dir[m.idx(hid)][("N", "NE", "SE", "S", "SW", "NW").index(direction)]


def test_load_time_and_status(m: TmcMap) -> None:
    t = time.perf_counter()
    TmcMap.load(MAP_JSON)
    print(f"map.json loads in {1000 * (time.perf_counter() - t):.0f} ms")
    assert m.status == "reconstruction"
    assert m.grid.count == 78 * 63 == 4914
    prov = m.provenance
    assert prov["generator"] == "python -m typhoon.games.tmc.mapgen"
    assert prov["extent"] == {"west": 30.4, "east": 40.5, "south": 52.25, "north": 57.65}
    for name, layer in prov["layers"].items():
        assert layer["status"] == "reconstruction", name
        assert layer["confidence"] in ("high", "medium", "low"), name


def test_every_place_lies_in_the_hex_its_coordinates_project_to(m: TmcMap, raw: dict) -> None:
    """geography.md §3: every city in its projected hex, equal to hex_proposed where given."""
    geo = json.loads(GEOGRAPHY.read_text(encoding="utf-8"))
    assert len(geo["cities"]) == 181
    on_map = 0
    for c in geo["cities"]:
        h = m.hex_at(c["lat"], c["lon"])
        if c["hex_proposed"] is None:
            assert h == -1, c["name"]
            assert c["name"] in raw["off_map"]
            continue
        on_map += 1
        assert m.hid(h) == c["hex_proposed"], c["name"]
        assert m.places[c["name"]] == h
        assert c["name"] in m.cities[h].split("/")
    assert on_map == len(m.places) == 173


@pytest.mark.parametrize(
    ("place", "hid"),
    [("Moscow", "5723"), ("Kaluga", "4637"), ("Tula", "5741"), ("Rzhev", "3117"), ("Vyazma", "3129"),
     ("Smolensk", "1434"), ("Orel", "4555"), ("Bryansk", "3152"), ("Kalinin", "4310"), ("Orsha", "0137")],
)  # fmt: skip
def test_sample_hexes_of_geography_md(m: TmcMap, place: str, hid: str) -> None:
    """geography.md §3 sample table."""
    assert m.hid(m.places[place]) == hid


def test_shared_hexes(m: TmcMap) -> None:
    """geography.md §1: Dmitrov and Yakhroma share 5616; Kimry and Savelovo share 5510."""
    assert set(m.cities[m.idx("5616")].split("/")) == {"Dmitrov", "Yakhroma"}
    assert set(m.cities[m.idx("5510")].split("/")) == {"Kimry", "Savelovo"}


def test_moscow_is_a_three_hex_city_and_rail_hub(m: TmcMap) -> None:
    """rules_en.md §23: Moscow is a multi-hex city (capture = a unit in one Moscow hex, none of
    the enemy's in the others). geography.md §1: 5723, 5622, 5623; 11 radial lines."""
    assert [m.hid(h) for h in m.moscow] == ["5622", "5623", "5723"]
    for a in m.moscow:
        assert (m.city_mask >> a) & 1 and m.cities[a].startswith("Moscow")
        assert all(m.grid.adjacent(a, b) for b in m.moscow if b != a)
        assert not m.is_forest(a) and not m.is_lake(a)
    radial = [n for n, ch in m.rail_lines.items() if n.startswith("Moscow-")]
    assert len(radial) == 11
    for name in radial:
        assert set(m.rail_lines[name]) & set(m.moscow), name
    assert m.moscow_mask & m.rail_mask


def test_rail_network_is_one_connected_1941_net(m: TmcMap) -> None:
    """Every line reaches Moscow through the net; lateral lines connect (one component)."""
    comps = m.rail_components()
    assert len(comps) == 1
    assert len(m.rail_lines) == 30 + 11  # geography.json lines + off-map continuations
    for chain in m.rail_lines.values():
        assert all(m.grid.adjacent(a, b) for a, b in zip(chain, chain[1:]))
    # Junctions are shared: Vyazma and Bryansk are on four lines each.
    vyazma, bryansk = m.places["Vyazma"], m.places["Bryansk"]
    assert sum(vyazma in ch for ch in m.rail_lines.values()) == 4
    assert sum(bryansk in ch for ch in m.rail_lines.values()) == 4


def test_rail_edge_exits(m: TmcMap) -> None:
    """rules_en.md §11: German supply from W/S edge rail, Soviet from N/S/E edge rail; §22.3
    Soviet reinforcements at east-edge rail hexes."""
    ids = {e: {m.hid(h) for h in bits(mask)} for e, mask in m.rail_edge.items()}
    assert "0137" in ids["west"]  # Orsha, Minsk main line
    assert "3201" in ids["north"]  # October railway towards Bologoye
    assert "4563" in ids["south"]  # Kursk line
    assert "7818" in ids["east"]  # Vladimir, Gorky line
    assert [m.hid(h) for h in m.soviet_entry] == ["7818", "7825", "7838", "7855"]
    for e, mask in m.rail_edge.items():
        assert mask & ~m.edges[e] == 0 and mask & ~m.rail_mask == 0
    assert m.german_entry & ~m.edges["west"] == 0
    # West edge north of the Minsk highway's entry at Orsha (stand-in for "north of the CRT").
    assert max(m.grid.coords[h][1] for h in bits(m.german_entry)) == 37


def vertices(m: TmcMap, a: int, b: int) -> list[frozenset[int]]:
    """The two corners of hexside a|b, each named by the hexes meeting there."""
    common = sorted(set(m.grid.neighbours[a]) & set(m.grid.neighbours[b]))
    out = [frozenset((a, b, c)) for c in common]
    while len(out) < 2:  # a corner on the map border
        out.append(frozenset((a, b, -1 - len(out))))
    return out


def side_components(m: TmcMap, sides) -> int:
    sides = list(sides)
    parent = list(range(len(sides)))

    def find(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    at: dict[frozenset[int], list[int]] = {}
    for i, (a, b) in enumerate(sides):
        for v in vertices(m, a, b):
            at.setdefault(v, []).append(i)
    for group in at.values():
        for j in group[1:]:
            parent[find(j)] = find(group[0])
    return len({find(i) for i in range(len(sides))})


@pytest.mark.parametrize(
    "river",
    [
        "Dnieper",
        "Desna",
        "Oka",
        "Moskva",
        "Ugra",
        "Nara",
        "Protva",
        "Lama",
        "Ruza",
        "Vop",
        "Moscow-Volga canal",
    ],
)
def test_rivers_are_continuous_hexside_chains(m: TmcMap, river: str) -> None:
    assert side_components(m, m.rivers[river]) == 1


def test_volga_continues_through_the_moscow_sea(m: TmcMap) -> None:
    """The Volga's hexsides break where the reservoir's lake hexsides take over (geography.md §1)."""
    assert side_components(m, m.rivers["Volga"]) == 2
    assert side_components(m, set(m.rivers["Volga"]) | set(m.lake_sides)) < 2 + side_components(
        m, m.lake_sides
    )


@pytest.mark.parametrize(
    ("town", "bank"), [("Kaluga", "N"), ("Serpukhov", "N"), ("Kashira", "S"), ("Ryazan", "S")]
)
def test_town_banks_of_the_oka(m: TmcMap, town: str, bank: str) -> None:
    """geography.md §1: Kaluga and Serpukhov on the north bank, Kashira and Ryazan on the south:
    the Oka hexside lies between the town and the hex across the river (S or N of it)."""
    h = m.places[town]
    across = neighbour(m, m.hid(h), "S" if bank == "N" else "N")
    assert (min(h, across), max(h, across)) in m.rivers["Oka"]
    assert (m.river_mask[h] >> across) & 1


def test_lakes_give_lake_hexsides(m: TmcMap) -> None:
    """geography.md §4: Seliger and the Moscow Sea give lake hexsides; no movement across (§3.3)."""
    lakes = json.loads(MAP_JSON.read_text())["lakes"]
    assert len(lakes["Lake Seliger"]) >= 2 and len(lakes["Ivankovo reservoir ('Moscow Sea')"]) >= 4
    for h in [m.idx(h) for hs in lakes.values() for h in hs]:
        assert m.is_lake(h)
        assert all((m.lake_mask[h] >> n) & 1 for n in m.grid.neighbours[h] if not m.is_lake(n))
    for a, b in m.lake_sides:
        assert (m.lake_mask[a] >> b) & 1 and (m.lake_mask[b] >> a) & 1
        assert not (m.is_lake(a) and m.is_lake(b))
    assert len(m.lake_sides) >= 40


def test_forest(m: TmcMap) -> None:
    assert 600 <= bin(m.forest_mask).count("1") <= 1000
    assert m.forest_mask & m.lake_hexes == 0
    assert m.forest_mask & m.moscow_mask == 0
    assert m.is_forest(m.idx("1920"))  # Okovsky forest between Nelidovo and Bely


@pytest.mark.parametrize("line", ["september", "november", "december"])
def test_start_lines_run_edge_to_edge_and_split_the_map(m: TmcMap, line: str) -> None:
    """rules_en.md §25.5: Germans set up west of the start line, Soviets east of it."""
    chain = m.start_lines[line]
    assert m.grid.coords[chain[0]][1] == 1 and m.grid.coords[chain[-1]][1] == 63
    assert all(m.grid.adjacent(a, b) for a, b in zip(chain, chain[1:]))
    west, east, on = m.west_of[line], m.east_of[line], m.grid.mask(chain)
    assert west & east == 0 and west | east | on == m.grid.all_mask
    assert m.grid.expand(west) & east == 0
    assert m.moscow_mask & ~east == 0
    assert (west >> m.places["Smolensk"]) & 1 and (west >> m.places["Orsha"]) & 1
    assert (east >> m.places["Tula"]) & 1 and (east >> m.places["Ryazan"]) & 1


def test_start_line_history(m: TmcMap) -> None:
    """30 Sep: Vyazma, Bryansk, Orel Soviet; mid-Nov and 5 Dec: Kalinin, Rzhev, Vyazma, Orel German."""
    p = m.places
    for town in ("Vyazma", "Bryansk", "Orel", "Kalinin", "Rzhev"):
        assert (m.east_of["september"] >> p[town]) & 1, town
    for line in ("november", "december"):
        for town in ("Vyazma", "Bryansk", "Orel", "Kalinin", "Rzhev", "Mozhaisk", "Kaluga"):
            assert (m.west_of[line] >> p[town]) & 1, (line, town)
    assert (m.west_of["december"] >> p["Mikhailov"]) & 1  # geography.json: Mikhailov German on 5 Dec
    assert (m.east_of["november"] >> p["Mikhailov"]) & 1
    assert len(m.start_lines["september"]) < len(m.start_lines["november"]) < len(m.start_lines["december"])
    # The Tula pocket of 5 Dec is open to the north through Revyakino (the override in mapgen).
    for town in ("Tula", "Revyakino"):
        assert (m.east_of["december"] >> p[town]) & 1, town
    for town in ("Yasnaya Polyana", "Shchekino", "Dedilovo", "Venev"):
        assert (m.west_of["december"] >> p[town]) & 1, town


@pytest.mark.parametrize("line", ["september", "november", "december"])
def test_repaired_rail_runs_from_the_west_or_south_edge_to_the_railheads(m: TmcMap, line: str) -> None:
    """rules_en.md §11.1.2, §16.1.2: bold (repaired) lines from the W or S edge to the dated railhead."""
    repaired = m.repaired_rail[line]
    assert repaired & ~(m.rail_mask & m.west_of[line]) == 0
    sources = repaired & (m.rail_edge["west"] | m.rail_edge["south"])
    assert sources
    reach = sources
    frontier = list(bits(sources))
    while frontier:
        h = frontier.pop()
        for n in m.rail_neighbours[h]:
            if (repaired >> n) & 1 and not (reach >> n) & 1:
                reach |= 1 << n
                frontier.append(n)
    assert reach == repaired
    for h in m.railheads[line]:
        assert min(m.grid.distance(h, s) for s in m.start_lines[line]) >= 2


def test_railheads_by_date(m: TmcMap) -> None:
    """The reconstruction's railheads (mapgen.REPAIRED_ROUTES): beyond Smolensk and at Roslavl
    (30 Sep); Gzhatsk, Kaluga, Staritsa, Mtsensk (Nov); Mozhaisk, Kaluga, Staritsa, Mtsensk (Dec);
    Bryansk and Rzhev are on the way, not tips."""
    p = m.places
    assert p["Roslavl"] in m.railheads["september"]
    assert (m.repaired_rail["september"] >> p["Smolensk"]) & 1
    assert not (m.repaired_rail["september"] >> p["Vyazma"]) & 1
    assert set(m.railheads["november"]) == {p["Gzhatsk"], p["Kaluga"], p["Staritsa"], p["Mtsensk"]}
    assert set(m.railheads["december"]) == {p["Mozhaisk"], p["Kaluga"], p["Staritsa"], p["Mtsensk"]}


def test_defence_lines(m: TmcMap) -> None:
    """rules_en.md §19: five lines; German units crossing outer -> inner cross a front hexside."""
    assert [d.key for d in m.defence_lines] == [
        "rzhev_vyazma_forward", "rzhev_vyazma_rear", "mozhaisk", "moscow_zone", "moscow_city"]  # fmt: skip
    assert [d.key for d in m.optional_defence_lines] == ["oka"]
    moscow = m.moscow[0]
    for d in m.defence_lines + m.optional_defence_lines:
        # One chain of hexsides each; the Oka line leaves its Aleksin-Serpukhov stretch to the
        # Moscow zone belt, so it falls in two pieces.
        pieces = side_components(m, [(min(a, b), max(a, b)) for a, b in d.sides])
        assert pieces == (2 if d.optional else 1), d.key
        for outer, inner in d.sides:
            assert m.grid.adjacent(outer, inner)
            assert (m.defence_front[outer] >> inner) & 1 == (not d.optional)
            assert not (m.defence_front[inner] >> outer) & 1, (d.key, m.hid(outer), m.hid(inner))
        if d.key != "oka":  # the outer side faces west, away from Moscow
            closer = sum(m.grid.distance(i, moscow) <= m.grid.distance(o, moscow) for o, i in d.sides)
            assert closer >= 0.9 * len(d.sides), d.key
    city = m.defence_lines[-1]
    assert {i for _o, i in city.sides} == set(m.moscow) and len(city.sides) == 12
    # The Oka line faces south: Kaluga's hex is inside it.
    oka = m.optional_defence_lines[0]
    assert all(m.grid.coords[o][1] >= m.grid.coords[i][1] - 1 for o, i in oka.sides)


# -- validation -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d["forest"].append("7999"), "7999 is not on the 4914-hex grid"),
        (lambda d: d["forest"].append("x1"), "not a CCRR"),
        (lambda d: d["rail_lines"].update({"Bad": ["0101", "0303"]}), "0101 and 0303 follow each other but are not adjacent"),
        (lambda d: d["rivers"]["Oka"].append(d["rivers"]["Oka"][0]), "listed twice"),
        (lambda d: d["rivers"]["Oka"].append(["0101", "0505"]), "not adjacent"),
        (lambda d: d["defence_lines"][0]["sides"].append(["3030", "3232"]), "not adjacent"),
        (lambda d: d.update(moscow=["5622", "5623", "5723", "4040"]), "Moscow hex 4040 is not a city"),
        (lambda d: d["start_lines"]["november"].update(hexes=d["start_lines"]["november"]["hexes"][:50]),
         "start line november is not connected north to south"),
        (lambda d: d["start_lines"]["september"]["west_of"].remove("0101"), "does not separate"),
        (lambda d: d["start_lines"]["december"]["repaired_rail"].append("7818"), "repaired rail"),
        (lambda d: d["soviet_entry"].append("0101"), "not a rail hex on the east edge"),
        (lambda d: d["german_entry"].append("4040"), "not on the west edge"),
        (lambda d: d["lake_hexsides"].pop(0), "without a lake hexside"),
        (lambda d: d["rail_exits"].append({"line": "Smolensk-Rudnya-Vitebsk", "hex": "0101", "edge": "west"}),
         "not an end of rail line"),
        (lambda d: d.pop("grid"), "malformed"),
        (lambda d: d["start_lines"].update(october=d["start_lines"]["november"]), "unknown start line 'october'"),
    ],
)  # fmt: skip
def test_corrupt_map_is_refused(raw: dict, mutate, message: str) -> None:
    data = copy.deepcopy(raw)
    mutate(data)
    with pytest.raises(DataError, match=message):
        TmcMap.from_dict(data)


def test_a_tiny_synthetic_map_needs_only_a_grid_and_moscow() -> None:
    """Other modules' tests build small maps with TmcMap.from_dict."""
    tiny = {
        "grid": {"columns": 4, "rows_odd_columns": 4, "rows_even_columns": 4, "shifted_down": "even"},
        "cities": {"0202": "Moscow", "0203": "Moscow"},
        "moscow": ["0202", "0203"],
        "rail_lines": {"A": ["0102", "0202", "0302"]},
        "start_lines": {"september": {"hexes": ["0101", "0102", "0103", "0104"], "west_of": [],
                                      "repaired_rail": [], "railheads": []}},
    }  # fmt: skip
    m = TmcMap.from_dict(tiny)
    assert m.rail_neighbours[m.idx("0202")] == (m.idx("0102"), m.idx("0302"))
    assert bin(m.east_of["september"]).count("1") == 16 - 4
    assert m.defence_lines == () and m.lake_hexes == 0 and m.hex_at(55.0, 37.0) == -1


def test_load_reports_the_file(tmp_path: Path, raw: dict) -> None:
    data = copy.deepcopy(raw)
    data["forest"].append("9999")
    p = tmp_path / "broken_map.json"
    p.write_text(json.dumps(data))
    with pytest.raises(DataError, match="broken_map.json: 'forest': hex 9999"):
        TmcMap.load(p)
    p.write_text("[1, 2]")
    with pytest.raises(DataError, match="one JSON object"):
        TmcMap.load(p)
