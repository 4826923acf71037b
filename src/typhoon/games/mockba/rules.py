"""MOCKBA (International Team 1984) rules data: the edition, options, the map, the order of battle,
the calendar and the tables, read from the package's own JSON files (data/) and validated on load.
Nothing here reads the shared reference pack at run time.

Provenance: every data file carries ``provenance`` and a ``source`` note (seed 000 / the reference
pack's reconstruction); docs/MOCKBA_RULES.md lists every reading.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

from typhoon.datafile import option_specs_of, read_noted_json
from typhoon.errors import DataError, OptionError

SIDE_NAMES = ("german", "soviet")
GERMAN, SOVIET = 0, 1
DEFAULT_EDITION = "standard"

# Every choice where the seed is unclear or the pack names alternatives, as a named option.
OPTION_SPECS: dict[str, dict[str, Any]] = {
    "crt": {
        "default": "a",
        "choices": ["a", "b"],
        "note": "gaps.md MO-C1: CRT rows 3-6 by continuation A (each row the last moved one column left) "
        "or B (row 3 keeps the A1/A2 alternation: 1:2 = A1)",
    },
    "victory_cities": {
        "default": "seed17",
        "choices": ["seed17", "pack18"],
        "note": "seed: 10 cities, Moscow 8, 17 points in all (the pack's list without Kursk), or the "
        "pack's MO-V1 ten cities plus Moscow (18 points)",
    },
    "score_five": {
        "default": "draw",
        "choices": ["draw", "soviet", "german"],
        "note": "Q6: the seed defines no result for a final score of 5 (pack: a draw)",
    },
    "air_point": {
        "default": "cf",
        "choices": ["cf", "none"],
        "note": "Q2 / MO-A1: an air point in ground support adds 1 CF (or air support has no effect)",
    },
    "t1_followup": {
        "default": "all",
        "choices": ["all", "others"],
        "note": "seed 'The game turn': after the 2nd Panzer Army's second steps 3-4 on turn 1, steps 5-6 "
        "for all armies (pack 4.1) or only for 'the units of the other armies'",
    },
    "followup_targets": {
        "default": "defenders",
        "choices": ["defenders", "any"],
        "note": "seed 'Follow-up Combat Phase': all units adjacent to the defender's units may attack them "
        "again: only units attacked in the first combat phase, or any enemy unit",
    },
    "german_cf_panzer": {
        "default": "armour_mech",
        "choices": ["armour_mech", "armour"],
        "note": "calendar 'GER CF reduction Panzer': panzer and motorised divisions, or panzer only",
    },
    "setup": {
        "default": "standard",
        "choices": ["standard", "free"],
        "note": "seed 'Game preparation' (pack 2.2-2.4): the fixed lay-out of the map generator, or the "
        "seed's free set-up before turn 1 (Soviet first, then German, one unit at a time)",
    },
    "opt1_dug_in_zoc": {
        "default": "off",
        "choices": ["off", "on"],
        "note": "optional rule 1: dug-in infantry has no ZOC",
    },
    "opt2_river_zoc": {
        "default": "off",
        "choices": ["off", "on"],
        "note": "optional rule 2: turns 1-7, no ZOC across a river hexside",
    },
    "opt3_bridges": {
        "default": "off",
        "choices": ["off", "on"],
        "note": "optional rule 3 (reading UNVERIFIED, the seed's text is garbled): instead of attacking, a Soviet "
        "unit at a bridge may try to blow it when a German unit is within 5 hexes: 5-6, only 6 with a "
        "German unit at the bridge; a blown bridge carries no road or railway over its river",
    },
    "opt4_followup_loss": {
        "default": "off",
        "choices": ["off", "on"],
        "note": "optional rule 4: a defender that loses a unit in a follow-up combat with a terrain advantage "
        "costs the attacker one reduction",
    },
    "opt5_rebuild": {
        "default": "off",
        "choices": ["off", "on"],
        "note": "optional rule 5 (Moskva): the 11 rebuilt are counted in divisions (a brigade is half)",
    },
    "opt6_para": {
        "default": "off",
        "choices": ["off", "on"],
        "note": "optional rule 6: a Soviet para unit from turn 4, dropped while Soviet air is not wholly "
        "suppressed; supplied that turn; die 4-6 reduced on landing; no first movement",
    },
    "opt7_das_reich": {
        "default": "off",
        "choices": ["off", "on"],
        "note": "optional rule 7: Das Reich is 6-6",
    },
}


# Options added after records were made: left out of Rules.options (so out of every record and
# position text) while at their default, so existing records read and replay unchanged.
QUIET_AT_DEFAULT = frozenset(("setup", "opt3_bridges"))


def editions() -> dict[str, str]:
    return {k: v["title"] for k, v in _calendar()["editions"].items()}


def option_specs(edition: str) -> Mapping[str, Any]:
    return option_specs_of(OPTION_SPECS)


def _load(name: str) -> dict[str, Any]:
    return read_noted_json("typhoon.games.mockba", name, "MOCKBA", ("source", "provenance"))


@cache
def _calendar() -> dict[str, Any]:
    return _load("calendar.json")


@cache
def _map() -> dict[str, Any]:
    return _load("map.json")


def _grid() -> tuple[int, int]:
    g = _map()["grid"]
    return int(g["columns"]), int(g["rows"])


def hex_index(hid: str) -> int:
    """``CCRR`` (1-based) -> (column - 1) * rows + (row - 1); KeyError for a hex not on the map."""
    return _index()[hid]


@cache
def _index() -> dict[str, int]:
    return {h: i for i, h in enumerate(_ids())}


@cache
def _ids() -> tuple[str, ...]:
    cols, rows = _grid()
    return tuple(f"{h // rows + 1:02d}{h % rows + 1:02d}" for h in range(cols * rows))


def hex_id(h: int) -> str:
    return _ids()[h]


def _neighbours(h: int, cols: int, rows: int) -> tuple[int, ...]:
    c, r = divmod(h, rows)
    offs = (
        ((0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0))
        if c & 1
        else ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1))
    )
    return tuple((c + dc) * rows + r + dr for dc, dr in offs if 0 <= c + dc < cols and 0 <= r + dr < rows)


@dataclass(frozen=True)
class UnitSpec:
    id: str
    army: str
    type: str
    side: int
    kind: str  # infantry, mech, armor, cavalry
    size: str  # division, brigade, regiment
    cf: int
    reduced: int  # 0: no reduced side (Soviet 1-CF infantry, seed)
    mf: int
    turn: int  # entry turn (0 = set up)
    deploy: str  # front, reserve, edge, city
    setup: int  # hex index or -1

    @property
    def armoured(self) -> bool:
        """Seed: only armoured units (Panzer 7-6, Tank 2-4) move or retreat ZOC to ZOC."""
        return self.kind == "armor"

    @property
    def motorised(self) -> bool:
        """TEC: rough costs 2 MF for Pz-Tk-Mec."""
        return self.kind in ("armor", "mech")

    @property
    def can_dig(self) -> bool:
        """Seed: Soviet infantry with a CF of 1 may dig in (back 2-0)."""
        return self.side == SOVIET and self.kind == "infantry" and self.cf == 1

    @property
    def halves(self) -> int:
        return 2 if self.size == "division" else 1


@dataclass(frozen=True, eq=False)  # one cached object per edition and options
class Rules:
    edition: str
    last_turn: int
    options: dict[str, str]
    cols: int
    rows: int
    units: tuple[UnitSpec, ...]
    unit_index: dict[str, int]
    nbrs: tuple[tuple[int, ...], ...]
    terrain: tuple[str, ...]  # clear, rough, lake
    rivers: frozenset[tuple[int, int]]
    road: frozenset[tuple[int, int]]
    rail_links: dict[int, tuple[int, ...]]
    rail_hexes: int  # bitset
    rail_exits: dict[str, int]  # edge -> bitset
    cities: dict[str, int]
    city_hexes: int
    forts: dict[int, frozenset[int]]  # fort hex -> its front hexes
    front: tuple[int, ...]
    german_zone: int
    seliger: int  # bitset of Lake Seliger hexes
    reserve_hexes: dict[str, int]
    west_edge: int
    bridges: tuple[tuple[int, int], ...]  # optional rule 3: river hexsides (data/bridges.json)
    bridge_index: dict[tuple[int, int], int]
    setup_zones: dict[str, int]  # army -> bitset of its free set-up hexes (pack 2.2-2.3, docs)
    front_bits: int  # the front-line hexes (pack 2.2: "at least 3 units on the front line")
    soviet_edge: int  # east edge and north edge east of the railway (seed supply)
    edge_hexes: int
    victory: tuple[tuple[int, int, int], ...]  # (hex, deadline turn, points)
    crt: dict[int, tuple[str, ...]]
    columns: tuple[str, ...]
    calendar: tuple[dict[str, Any], ...]  # index 0 unused
    second_panzer: frozenset[str]
    tables: dict[str, Any] = field(repr=False)
    _cache: dict[Any, Any] = field(default_factory=dict, repr=False)

    def steps(self, motorised: bool, river: int, blown: int = 0) -> tuple[tuple[tuple[int, int], ...], ...]:
        """Per hex, (neighbour, cost in half MF) of every step into a land hex (TEC, seed): road 1/2,
        clear 1, rough 1 (2 for Pz-Tk-Mec), a river hexside + the calendar's cost; no road over a
        blown bridge (``blown``: bitset of bridge indices, optional rule 3)."""
        key = ("steps", motorised, river, blown)
        if key not in self._cache:
            ter = self.tables["terrain"]
            out = []
            for a, ns in enumerate(self.nbrs):
                row = []
                for b in ns:
                    t = self.terrain[b]
                    if t == "lake":
                        continue
                    p = self.pair(a, b)
                    if p in self.road and not (
                        blown and p in self.bridge_index and blown >> self.bridge_index[p] & 1
                    ):
                        c = int(ter["road"]["cost"])
                    elif t == "rough" and motorised:
                        c = int(ter["rough"]["mech_cost"])
                    else:
                        c = int(ter["clear"]["cost"])
                    if p in self.rivers:
                        c += 2 * river
                    row.append((b, c))
                out.append(tuple(row))
            self._cache[key] = tuple(out)
        return self._cache[key]  # type: ignore[no-any-return]

    def stack_limit(self, side: int) -> tuple[int, int]:
        """(half-divisions, free regiments) a hex may hold for the side (seed stacking)."""
        key = ("lim", side)
        if key not in self._cache:
            lim = self.tables["stacking"][SIDE_NAMES[side]]
            self._cache[key] = (int(lim["halves"]), int(lim["regiments"]))
        return self._cache[key]  # type: ignore[no-any-return]

    def opt(self, name: str) -> str:
        got = self.options.get(name)
        return got if got is not None else str(OPTION_SPECS[name]["default"])

    def cf(self, u: int) -> int:
        sp = self.units[u]
        if sp.type == "dr" and self.options["opt7_das_reich"] == "on":
            return 6
        return sp.cf

    def pair(self, a: int, b: int) -> tuple[int, int]:
        return (a, b) if a < b else (b, a)

    def describe(self) -> str:
        return f"MOCKBA {editions()[self.edition]} (reconstructed map, calendar and counters)"


def _check(cond: bool, msg: str) -> None:
    if not cond:
        raise DataError(f"MOCKBA data: {msg}")


def _bits(hexes: list[int]) -> int:
    out = 0
    for h in hexes:
        out |= 1 << h
    return out


@cache
def _base() -> dict[str, Any]:
    mp, oob, tab, cal = _map(), _load("units.json"), _load("tables.json"), _calendar()
    brd = _load("bridges.json")
    cols, rows = _grid()
    n = cols * rows
    nbrs = tuple(_neighbours(h, cols, rows) for h in range(n))
    try:
        terrain = ["clear"] * n
        for x in mp["rough"]:
            terrain[hex_index(x)] = "rough"
        for x in mp["lake"]:
            terrain[hex_index(x)] = "lake"

        def link(a: str, b: str) -> tuple[int, int]:
            x, y = hex_index(a), hex_index(b)
            _check(y in nbrs[x], f"{a} and {b} are not adjacent")
            return (x, y) if x < y else (y, x)

        rivers = frozenset(link(a, b) for a, b, _ in mp["rivers"])
        hw = mp["highway"]
        road = frozenset(link(a, b) for a, b in zip(hw, hw[1:], strict=False) if a != b)
        adj: dict[int, set[int]] = {}
        rail_hexes = 0
        for line in mp["rails"]:
            hs = line["hexes"]
            for a, b in zip(hs, hs[1:], strict=False):
                x, y = link(a, b)
                adj.setdefault(x, set()).add(y)
                adj.setdefault(y, set()).add(x)
            rail_hexes |= _bits([hex_index(x) for x in hs])
        rail_exits = {e: _bits([hex_index(x) for x in hs]) for e, hs in mp["rail_exits"].items()}
        cities = {k: hex_index(v) for k, v in mp["cities"].items()}
        forts = {hex_index(k): frozenset(hex_index(x) for x in v) for k, v in mp["forts"].items()}
        west = _bits(list(range(rows)))
        east = _bits([(cols - 1) * rows + r for r in range(rows)])
        ncol = int(mp["north_source_from_column"]) - 1
        north_src = _bits([c * rows for c in range(ncol, cols)])
        edge = (
            west
            | east
            | _bits([c * rows for c in range(cols)])
            | _bits([c * rows + rows - 1 for c in range(cols)])
        )
        types = oob["types"]
        units: list[UnitSpec] = []
        for a in oob["armies"]:
            _check("provenance" in a, f"army {a['army']}: no provenance")
            for t, k in a["units"].items():
                ty = types[t]
                _check(ty["side"] == a["side"], f"army {a['army']}: {t} of the wrong side")
                for i in range(1, k + 1):
                    uid = f"{a['army']}.{t}{i}"
                    setup = mp["setup"].get(uid)
                    _check((setup is not None) == (a["turn"] == 0), f"{uid}: set-up hex")
                    units.append(
                        UnitSpec(
                            uid,
                            a["army"],
                            t,
                            SIDE_NAMES.index(a["side"]),
                            ty["kind"],
                            ty["size"],
                            int(ty["cf"]),
                            int(ty["reduced"]),
                            int(ty["mf"]),
                            int(a["turn"]),
                            a["deploy"],
                            hex_index(setup) if setup else -1,
                        )
                    )
        index = {u.id: i for i, u in enumerate(units)}
        bridges = tuple(sorted(link(*x["hexes"]) for x in brd["bridges"]))
        _check(all(p in rivers for p in bridges), "a bridge off a river hexside")
        zones = _setup_zones(units, oob["armies"], mp, nbrs, terrain, rows)
        _check(len(index) == len(units), "duplicate unit ids")
        turns = cal["turns"]
        _check([t["turn"] for t in turns] == list(range(1, len(turns) + 1)), "calendar turns out of order")
        crt = tab["crt"]
        rows_ = {int(k): tuple(v) for k, v in crt["rows"].items()}
        _check(sorted(rows_) == [1, 2, 3, 4, 5, 6], "CRT needs rows 1-6")
        _check(all(len(r) == len(crt["columns"]) for r in rows_.values()), "CRT row length")
    except (KeyError, TypeError, ValueError) as exc:
        raise DataError(f"MOCKBA data: bad entry ({exc!r})") from exc
    return {
        "cols": cols,
        "rows": rows,
        "units": tuple(units),
        "unit_index": index,
        "nbrs": nbrs,
        "terrain": tuple(terrain),
        "rivers": rivers,
        "road": road,
        "rail_links": {h: tuple(sorted(v)) for h, v in adj.items()},
        "rail_hexes": rail_hexes,
        "rail_exits": rail_exits,
        "cities": cities,
        "city_hexes": _bits(list(cities.values())),
        "forts": forts,
        "front": tuple(hex_index(x) for x in mp["front"]),
        "german_zone": _bits([hex_index(x) for x in mp["german"]]),
        "seliger": _bits([hex_index(x) for x in mp["seliger"]]),
        "reserve_hexes": {k: hex_index(v) for k, v in mp["reserve_hexes"].items()},
        "west_edge": west,
        "setup_zones": zones,
        "bridges": bridges,
        "bridge_index": {p: i for i, p in enumerate(bridges)},
        "front_bits": _bits([hex_index(x) for x in mp["front"]]),
        "soviet_edge": east | north_src,
        "edge_hexes": edge,
        "calendar": ({},) + tuple(turns),
        "second_panzer": frozenset(oob["second_panzer_army"]),
        "tables": tab,
    }


def _setup_zones(
    units: list[UnitSpec],
    armies: list[dict[str, Any]],
    mp: dict[str, Any],
    nbrs: tuple[tuple[int, ...], ...],
    terrain: list[str],
    rows: int,
) -> dict[str, int]:
    """Free set-up hexes per army (the seed's printed marks are lost; reading, docs/MOCKBA_RULES.md):
    Soviet front armies: hexes east of the front line (not German) at most 6 hexes from a front-line
    hex (2.2); reserve armies 31, 32, 49: their army hex (MO-S1) and its neighbours (2.2); German
    armies (2.3): the German zone inside the army's band of rows, the "imaginary lines west of the
    map" being east-west lines: a band runs from the northernmost to the southernmost row of the
    army's fixed lay-out, widened to meet its neighbours (so bands overlap where the diagonal front
    puts two armies on one row, and cover every row)."""
    land = [t != "lake" for t in terrain]
    german = {hex_index(x) for x in mp["german"]}
    dist = {hex_index(x): 0 for x in mp["front"]}
    todo = list(dist)
    for d in range(1, 7):  # breadth first, 6 rings from the front line
        nxt = []
        for h in todo:
            for n in nbrs[h]:
                if n not in dist:
                    dist[n] = d
                    nxt.append(n)
        todo = nxt
    east = _bits([h for h in dist if h not in german and land[h]])
    out: dict[str, int] = {}
    band: list[tuple[str, int, int]] = []
    for a in armies:
        if a["turn"] != 0:
            continue
        name = a["army"]
        if a["deploy"] == "reserve":
            rh = hex_index(mp["reserve_hexes"][name])
            out[name] = _bits([h for h in (rh, *nbrs[rh]) if land[h]])
        elif a["side"] == "soviet":
            out[name] = east
        else:
            rws = [u.setup % rows for u in units if u.army == name]
            band.append((name, min(rws), max(rws)))
    for k, (name, lo, hi) in enumerate(band):
        if k == 0:
            lo = 0
        else:
            lo = min(lo, band[k - 1][2] + 1)
        hi = rows - 1 if k == len(band) - 1 else max(hi, band[k + 1][1] - 1)
        out[name] = _bits([h for h in german if lo <= h % rows <= hi and land[h]])
    return out


@lru_cache(maxsize=64)
def _rules(edition: str, opts: tuple[tuple[str, str], ...]) -> Rules:
    base = _base()
    options = dict(opts)
    cal = _calendar()
    tab = base["tables"]
    crt = {int(k): tuple(v) for k, v in tab["crt"]["rows"].items()}
    if options["crt"] == "b":
        crt.update({int(k): tuple(v) for k, v in tab["crt"]["alternative_b"].items()})
    cities = base["cities"]
    vic = tuple(
        (cities[name], int(t), int(cal["moscow_points"]) if name == "Moscow" else 1)
        for name, t in cal["victory_cities"][options["victory_cities"]]
    )
    return Rules(
        edition=edition,
        last_turn=int(cal["editions"][edition]["last_turn"]),
        options=options,
        victory=vic,
        crt=crt,
        columns=tuple(tab["crt"]["columns"]),
        **base,
    )


def load_rules(edition: str | None = None, options: Mapping[str, str] | None = None) -> Rules:
    ed = edition or DEFAULT_EDITION
    if ed not in editions():
        raise OptionError(f"unknown edition {ed!r}; choose one of {sorted(editions())}")
    resolved = {k: v["default"] for k, v in OPTION_SPECS.items()}
    for k, v in (options or {}).items():
        if k not in OPTION_SPECS:
            raise OptionError(f"unknown option {k!r}; options: {', '.join(sorted(OPTION_SPECS))}")
        if str(v) not in OPTION_SPECS[k]["choices"]:
            raise OptionError(f"option {k}: {v!r} is not one of {OPTION_SPECS[k]['choices']}")
        resolved[k] = str(v)
    quiet = {k for k in QUIET_AT_DEFAULT if resolved[k] == OPTION_SPECS[k]["default"]}
    return _rules(ed, tuple(sorted((k, v) for k, v in resolved.items() if k not in quiet)))
