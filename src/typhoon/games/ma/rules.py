"""Moscow Attacked! (L. R. Coatney 2002, rev. 2005) rules data: editions, options, the map, the
order of battle, the calendar and the tables, read from the package's own JSON files (data/) and
validated on load. Nothing here reads the shared reference pack at run time.

Provenance: every data item carries ``provenance`` (seed / source / analogue / reconstruction) as
the reference pack marks it; docs/MA_RULES.md lists every reading.
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
DEFAULT_EDITION = "basic"
ROWS = "ABCDEFGHIJKLM"
COLS = 10
WEATHERS = ("good", "mud", "frost", "snow")

# Every reconstruction choice of rules_en.md section 16 (and a few more) as a named option.
OPTION_SPECS: dict[str, dict[str, Any]] = {
    "dispersed_shift": {
        "default": "half",
        "choices": ["half", "any"],
        "note": "Q2: +1 column vs a stack when at least half its defense factors are Dispersed (2005 text) "
        "or when any defender is Dispersed (older copy)",
    },
    "mud_soviet_ma": {
        "default": "3",
        "choices": ["3", "printed"],
        "note": "Q3: in Mud Soviet units move 3 ('all others' = 3') or keep their printed allowance",
    },
    "separator_columns": {
        "default": "lower",
        "choices": ["lower"],
        "note": "Q4: odds between printed CRT columns use the lower column",
    },
    "d_ae": {
        "default": "both",
        "choices": ["both", "ae"],
        "note": "Q5: D/AE = D on the defender and AE on the attacker, or AE only",
    },
    "frost_overrun": {
        "default": "yes",
        "choices": ["yes", "no"],
        "note": "Q6: armour overrun in Hard Frost (Hard Frost = Good)",
    },
    "exchange": {
        "default": "no_retreat_r1",
        "choices": ["no_retreat_r1", "none"],
        "note": "Q7: an exchange is offered only for R1 under No Retreat/surrounded",
    },
    "edge_exits": {
        "default": "half",
        "choices": ["half", "own_edge"],
        "note": "Q8: a north/south-edge road or rail exit supplies the side on whose half of the map it lies "
        "(columns 1-5 German, 6-10 Soviet), or only west (German) / east (Soviet) exits count",
    },
    "replacement_cost": {
        "default": "defense",
        "choices": ["defense", "attack"],
        "note": "Q9: a replacement army costs its defense factor (or its attack factor)",
    },
    "campaign_end": {
        "default": "draw",
        "choices": ["draw", "soviet"],
        "note": "Q10: a Campaign game that ends with neither victory condition met",
    },
    "moscow_shift": {
        "default": "-3",
        "choices": ["-3", "-2"],
        "note": "MA-T1 (reconstruction, rules_en.md 3.4): the column shift for defending Moscow, -3 with "
        "the cap on terrain shifts lowered to -3 for Moscow only (default since 4 December: with -2 "
        "Moscow fell in 38 of 40 heuristic campaign games, history never; docs/MA_CALIBRATION.md), "
        "or -2 (the pack's proposal, data/tables.json)",
    },
    "stacking": {
        "default": "3",
        "choices": ["3", "2"],
        "note": "rules_en.md 5: at most 3 ground units (or 2, after TRP), at most 1 army-level, per hex",
    },
    "bomber_base": {
        "default": "track",
        "choices": ["track", "free"],
        "note": "8.1, 8.4 (reconstruction): the Strategic Bombers fly only while their base city (chosen at "
        "set-up, changed in a Russian Replacement phase) is Soviet-held, or ignore the base (unlimited range)",
    },
    "air": {
        "default": "on",
        "choices": ["on", "off"],
        "note": "rules_en.md 8 (analogue Moscow Defended!): ground support, interception, air resupply",
    },
}


def editions() -> dict[str, str]:
    return {k: v["title"] for k, v in _calendar()["editions"].items()}


def option_specs(edition: str) -> Mapping[str, Any]:
    return option_specs_of(OPTION_SPECS)


def _load(name: str) -> dict[str, Any]:
    return read_noted_json("typhoon.games.ma", name, "Moscow Attacked!", ("source",))


@cache
def _calendar() -> dict[str, Any]:
    return _load("calendar.json")


def hex_index(hid: str) -> int:
    """``I7`` -> row 8 * 10 + column 6; raises KeyError for a hex not on the map."""
    if len(hid) < 2 or hid[0] not in ROWS or not hid[1:].isdigit() or not 1 <= int(hid[1:]) <= COLS:
        raise KeyError(hid)
    return ROWS.index(hid[0]) * COLS + int(hid[1:]) - 1


def hex_id(h: int) -> str:
    return f"{ROWS[h // COLS]}{h % COLS + 1}"


def _neighbours(h: int) -> tuple[int, ...]:
    r, c = divmod(h, COLS)
    out = [(r, c - 1), (r, c + 1)]
    # Odd-index rows are shifted half a hex east (map_draft.json meta.grid).
    d = (-1, 0) if r % 2 == 0 else (0, 1)
    for dr in (-1, 1):
        out += [(r + dr, c + d[0]), (r + dr, c + d[1])]
    return tuple(rr * COLS + cc for rr, cc in out if 0 <= rr < len(ROWS) and 0 <= cc < COLS)


@dataclass(frozen=True)
class UnitSpec:
    id: str
    name: str
    side: int
    echelon: str  # army, panzer_group, korps, division, group, brigade, air
    kind: str  # infantry, armor, mixed, cavalry, parachute, shock, air
    setup: int  # hex index, or -1 (off-board or later)
    turn: int  # entry turn (0 = at start)
    attack: int
    defense: int
    movement: int
    supporting: bool  # a German army/korps: mandatory-attack protection (rules_en.md 7.2)

    @property
    def is_air(self) -> bool:
        return self.kind == "air"

    @property
    def is_armor(self) -> bool:
        return self.kind in ("armor", "cavalry")

    @property
    def army_level(self) -> bool:
        return self.echelon in ("army", "panzer_group")


@dataclass(frozen=True, eq=False)  # one cached object per edition and options
class Rules:
    edition: str
    last_turn: int
    options: dict[str, str]
    units: tuple[UnitSpec, ...]
    unit_index: dict[str, int]
    weather: tuple[str, ...]  # by turn, index 0 unused
    dates: tuple[str, ...]
    reinforcements: tuple[tuple[int, ...], ...]  # by turn
    terrain: tuple[str, ...]  # by hex
    place: tuple[str | None, ...]
    place_class: tuple[str | None, ...]
    edges: tuple[frozenset[str], ...]
    nbrs: tuple[tuple[int, ...], ...]
    major_river: frozenset[tuple[int, int]]
    rail_links: frozenset[tuple[int, int]]
    road_links: frozenset[tuple[int, int]]
    highway_links: frozenset[tuple[int, int]]
    rail_hexes: int  # bitset
    exits: tuple[tuple[int, str], ...]  # (hex, edge) where a road or rail line leaves the map
    rail_exits_east: int  # bitset of rail hexes leaving the east edge
    places: int  # bitset of city/town hexes
    crt_ratios: tuple[tuple[int, int], ...]
    crt: dict[int, tuple[str, ...]]
    columns: tuple[str, ...]
    tables: dict[str, Any] = field(repr=False)

    def opt(self, name: str) -> str:
        return self.options[name]

    def describe(self) -> str:
        return f"Moscow Attacked! {editions()[self.edition]} (reconstructed map and counters)"


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def _check(cond: bool, msg: str) -> None:
    if not cond:
        raise DataError(f"Moscow Attacked! data: {msg}")


@cache
def _base() -> dict[str, Any]:
    mp, oob, tab, cal = _load("map.json"), _load("units.json"), _load("tables.json"), _calendar()
    n = len(ROWS) * COLS
    terrain: list[str] = [""] * n
    place: list[str | None] = [None] * n
    pclass: list[str | None] = [None] * n
    edges: list[frozenset[str]] = [frozenset()] * n
    try:
        for hx in mp["hexes"]:
            h = hex_index(hx["id"])
            _check(hx["terrain"] in tab["terrain"], f"hex {hx['id']}: unknown terrain {hx['terrain']!r}")
            _check("provenance" in hx, f"hex {hx['id']}: no provenance")
            terrain[h], place[h], pclass[h], edges[h] = (
                hx["terrain"],
                hx["place"],
                hx["place_class"],
                frozenset(hx["edge"]),
            )
        _check(all(terrain), "the map does not cover every hex A1-M10")
        nbrs = tuple(_neighbours(h) for h in range(n))

        def link(a: str, b: str) -> tuple[int, int]:
            x, y = hex_index(a), hex_index(b)
            _check(y in nbrs[x], f"{a} and {b} are not adjacent")
            return _pair(x, y)

        major = frozenset(link(*r["hexes"]) for r in mp["rivers"] if r["class"] == "major_river")
        rail: set[tuple[int, int]] = set()
        road: set[tuple[int, int]] = set()
        hw: set[tuple[int, int]] = set()
        rail_hexes = 0
        exits: list[tuple[int, str]] = []
        east = 0
        for line in mp["railways"]:
            hs = line["hexes"]
            rail |= {link(a, b) for a, b in zip(hs, hs[1:], strict=False)}
            for x in hs:
                rail_hexes |= 1 << hex_index(x)
        for name, at in mp["exit_hexes"]["railways"].items():
            line = next(r for r in mp["railways"] if r["name"] == name)
            for x, edge in zip(at, line["exits"], strict=True):
                exits.append((hex_index(x), edge))
                if edge == "east":
                    east |= 1 << hex_index(x)
        for line in mp["roads"]:
            hs = line["hexes"]
            ls = {link(a, b) for a, b in zip(hs, hs[1:], strict=False)}
            road |= ls
            if line["highway"]:
                hw |= ls
        for name, at in mp["exit_hexes"]["roads"].items():
            line = next(r for r in mp["roads"] if r["name"] == name)
            exits += [(hex_index(x), e) for x, e in zip(at, line["exits"], strict=True)]
        units: list[UnitSpec] = []
        for u in oob["units"]:
            _check("provenance" in u, f"unit {u['id']}: no provenance")
            _check(u["side"] in SIDE_NAMES, f"unit {u['id']}: bad side")
            air = u["kind"] == "air"
            if not air:
                for k in ("attack", "defense", "movement"):
                    _check(isinstance(u[k], int) and u[k] >= 1, f"unit {u['id']}: bad {k}")
            units.append(
                UnitSpec(
                    u["id"],
                    u["name"],
                    SIDE_NAMES.index(u["side"]),
                    u["echelon"],
                    u["kind"],
                    hex_index(u["setup"]) if u["setup"] else -1,
                    int(u["turn"]),
                    u["attack"] or 0,
                    u["defense"] or 0,
                    u["movement"] or 0,
                    bool(u["supporting"]),
                )
            )
        index = {u.id: i for i, u in enumerate(units)}
        _check(len(index) == len(units), "duplicate unit ids")
        turns = cal["turns"]
        _check([t["turn"] for t in turns] == list(range(1, len(turns) + 1)), "calendar turns out of order")
        _check(all(t["weather"] in WEATHERS for t in turns), "unknown weather in the calendar")
        reinf = [()] + [tuple(index[x] for x in t["reinforcements"]) for t in turns]
        for t in turns:
            for x in t["reinforcements"]:
                _check(units[index[x]].turn == t["turn"], f"{x}: entry turn differs from the calendar")
        crt = tab["crt"]
        rows = {int(k): tuple(v) for k, v in crt["rows"].items()}
        _check(sorted(rows) == [1, 2, 3, 4, 5, 6], "CRT needs rows 1-6")
        _check(all(len(r) == len(crt["columns"]) for r in rows.values()), "CRT row length")
    except (KeyError, TypeError, ValueError, StopIteration) as exc:
        raise DataError(f"Moscow Attacked! data: bad entry ({exc!r})") from exc
    places = 0
    for h in range(n):
        if pclass[h]:
            places |= 1 << h
    return {
        "units": tuple(units),
        "unit_index": index,
        "weather": ("",) + tuple(t["weather"] for t in turns),
        "dates": ("",) + tuple(t["dates"] for t in turns),
        "reinforcements": tuple(reinf),
        "terrain": tuple(terrain),
        "place": tuple(place),
        "place_class": tuple(pclass),
        "edges": tuple(edges),
        "nbrs": nbrs,
        "major_river": major,
        "rail_links": frozenset(rail),
        "road_links": frozenset(road),
        "highway_links": frozenset(hw),
        "rail_hexes": rail_hexes,
        "exits": tuple(exits),
        "rail_exits_east": east,
        "places": places,
        "crt_ratios": tuple(tuple(r) for r in crt["ratios"]),
        "crt": rows,
        "columns": tuple(crt["columns"]),
        "tables": tab,
    }


@lru_cache(maxsize=64)
def _rules(edition: str, opts: tuple[tuple[str, str], ...]) -> Rules:
    eds = _calendar()["editions"]
    return Rules(edition=edition, last_turn=int(eds[edition]["last_turn"]), options=dict(opts), **_base())


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
    return _rules(ed, tuple(sorted(resolved.items())))
