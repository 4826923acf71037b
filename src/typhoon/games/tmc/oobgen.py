"""Build the start hexes of data/oob.json from its historical lat/lon anchors.

    python -m typhoon.games.tmc.oobgen           # rewrite data/oob.json's placements
    python -m typhoon.games.tmc.oobgen --check   # exit 1 if they are stale or break §25

oob.json holds, per order of battle (German A-F, Soviet 1-3), groups of units (a corps or an
army) with a lat/lon anchor for every unit: points on the geography.json front line of that
date pushed 10-24 km into the own side, or rear-area centres. This script turns the anchors
into legal hexes on the current map (data/map.json, TmcMap), so the data can be rebuilt
whenever the map changes. It is deterministic (no randomness, stable tie-breaks).

Placement (rules_en.md §25): derived OOBs (B, C, E) keep their base OOB's hexes and add their
extra units. Otherwise: (1) the start line is walked north to south and every hex not yet in
own ZOC gets the own-side land neighbour that covers most uncovered line hexes, filled with the
unit anchored nearest to it (reserve units count 30 km farther, deep ones 80 km) (§25.4,
[Q68]); (2) every other unit goes to the own-side land hex nearest its anchor, a hex costing
4 km more per unit already there (spreads stacks), never above 3 (§25.3); Soviet units
anchored deeper than 8 hexes use the 10 free placements of §25.6 (farthest first), the rest
are pulled to within 8 hexes; (3) EB units go to the nearest rail hex of their kind (German:
German-repaired rail, §25.7; Soviet: rail, [Q69], using any §25.6 exceptions left). Steps (1)
and (2) prefer hexes the side can supply at the start (§11 on the map with no enemy, issue 14
revision 4): a covering hex in supply before one that covers more, and a hex out of supply counts
10 km (one hex) farther from an anchor. Start-line hexes that touch no own-side land hex cannot be
covered by anyone and are skipped (scenarios.uncoverable_line_hexes). Without a map the anchors
are only projected (no legality, no supply).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from typhoon.errors import DataError
from typhoon.games.tmc.oob import UnitCatalogue, load_units
from typhoon.hexgrid import HexGrid, bit_list

DATA = Path(__file__).parent / "data"
OOB_JSON = DATA / "oob.json"
MAP_JSON = DATA / "map.json"
STACK_LIMIT = 3
SOVIET_DEPTH = 8
SOVIET_DEEP_UNITS = 10
STACK_PENALTY_KM = 4.0
# A hex the side cannot supply at the start counts this much farther from a unit's anchor: one
# hex, so a unit steps into supply next door but is not pulled back from its sector where the
# whole wing is out of supply (December's Tula-Yelets wing, docs/TMC_MAP.md; 20 km moved two
# December units two hexes back and cost the Yefremov counter-attack, docs/TMC_AI.md). Issue 14
# revision 4.
SUPPLY_PENALTY_KM = 10.0
# A reserve (deep) unit is taken to cover the line only if it is 30 (80) km nearer than a front unit.
ROLE_PENALTY_KM = {"front": 0.0, "reserve": 30.0, "deep": 80.0}

# geography.md §3 (used only when no map is available).
DEFAULT_PROJECTION = {"west": 30.40, "north": 57.65, "km_per_deg_lon": 63.93, "km_per_deg_lat": 111.25}
KM_PER_HEX = 9.6


class Geometry:
    """Hex centres in km and the point -> hex projection of geography.md §3."""

    def __init__(self, grid: HexGrid, projection: dict[str, float], km_per_hex: float = KM_PER_HEX):
        self.grid = grid
        self.p = projection
        self.side = km_per_hex / math.sqrt(3)
        self.km_per_hex = km_per_hex
        self.centre: dict[int, tuple[float, float]] = {}
        for h in grid.hexes:
            c, r = grid.coords[h]
            q = c - 1
            self.centre[h] = (q * 1.5 * self.side, (r - 1) * km_per_hex + (km_per_hex / 2 if q % 2 else 0.0))

    def xy(self, lat: float, lon: float) -> tuple[float, float]:
        return (lon - self.p["west"]) * self.p["km_per_deg_lon"], (self.p["north"] - lat) * self.p[
            "km_per_deg_lat"
        ]

    def nearest(self, lat: float, lon: float) -> int:
        """The hex whose centre is nearest the point (clamps points off the map to its edge)."""
        x, y = self.xy(lat, lon)
        return min(self.grid.hexes, key=lambda h: (math.dist((x, y), self.centre[h]), h))

    def km(self, lat: float, lon: float, h: int) -> float:
        return math.dist(self.xy(lat, lon), self.centre[h])


class Placer:
    """Places one order of battle on a map (or, with no map, only spreads stacks)."""

    def __init__(self, game_map: Any | None, geo: Geometry, units: UnitCatalogue):
        self.m = game_map
        self.geo = geo
        self.g = geo.grid
        self.units = units

    def place(self, setup: dict[str, Any], fixed: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
        g, m = self.g, self.m
        side, line = setup["side"], setup["start_line"]
        entries: list[tuple[str, str, float, float]] = []  # unit, role, lat, lon
        for grp in setup["groups"]:
            for e in grp["units"]:
                entries.append((e["unit"], grp.get("role", "front"), float(e["at"][0]), float(e["at"][1])))
        count: dict[int, int] = {}
        placed: list[tuple[str, str]] = list(fixed)
        for _, hid in fixed:
            count[g.index[hid]] = count.get(g.index[hid], 0) + 1
        if m is None:
            land = g.valid
            line_mask = 0
            near = g.valid
            supplied = g.valid
        else:
            supplied = start_supply(m, side, line)
            line_mask = g.mask(m.start_lines[line])
            own = m.west_of[line] if side == "german" else m.east_of[line]
            land = own & ~m.lake_hexes & ~line_mask
            near = line_mask
            for _ in range(SOVIET_DEPTH):
                near |= g.expand(near)
        deep_left = SOVIET_DEEP_UNITS if side == "soviet" else 0
        if side == "soviet" and m is not None:
            deep_left -= sum(1 for _, hid in fixed if not (near >> g.index[hid]) & 1)
        anchor = {u: (lat, lon) for u, _, lat, lon in entries}

        def put(uid: str, h: int) -> None:
            count[h] = count.get(h, 0) + 1
            placed.append((uid, g.ids[h]))

        def best(uid: str, cands: int, penalty: float = STACK_PENALTY_KM) -> int:
            lat, lon = anchor[uid]
            hexes = [h for h in bit_list(cands) if count.get(h, 0) < STACK_LIMIT]
            if not hexes:
                raise DataError(f"oobgen: no legal hex left for {uid} ({setup['title']})")
            return min(
                hexes,
                key=lambda h: (
                    self.geo.km(lat, lon, h)
                    + penalty * count.get(h, 0)
                    + (0.0 if (supplied >> h) & 1 else SUPPLY_PENALTY_KM),
                    h,
                ),
            )

        # (0) City garrisons first, each on the own-side land hex nearest its anchor (the city):
        # a town the side historically held at the date, which the line walk would leave empty.
        for uid, role, _, _ in entries:
            if role == "garrison":
                put(uid, best(uid, land, penalty=0.0))
        rest = [(uid, role) for uid, role, _, _ in entries if role not in ("eb", "garrison")]
        ebs = [uid for uid, role, _, _ in entries if role == "eb"]
        # (1) Start-line ZOC coverage, north to south (EB units have no ZOC, §4.1).
        if m is not None:
            zoc = 0
            for uid, hid in placed:
                if not self.units.units[uid].eb:
                    zoc |= 1 << g.index[hid]
            covered = g.expand(zoc)
            pool = list(rest)
            for lh in m.start_lines[line]:
                if (covered >> lh) & 1:
                    continue
                cands = [h for h in bit_list(g.neighbour_mask[lh] & land) if count.get(h, 0) < STACK_LIMIT]
                if not cands or not pool:
                    continue  # reported by the legality check
                h = max(
                    cands,
                    key=lambda c: (
                        (supplied >> c) & 1,
                        bin(g.neighbour_mask[c] & line_mask & ~covered).count("1"),
                        -c,
                    ),
                )
                x, y = self.geo.centre[h]
                uid, role = min(
                    pool,
                    key=lambda e: (
                        math.dist(self.geo.xy(*anchor[e[0]]), (x, y)) + ROLE_PENALTY_KM.get(e[1], 100.0),
                        e[0],
                    ),
                )
                pool.remove((uid, role))
                put(uid, h)
                covered |= g.neighbour_mask[h]
            rest = pool

        # (2) Everyone else near the anchor; Soviet deep units use the 10 exceptions (farthest first).
        def depth(e: tuple[str, str]) -> float:
            lat, lon = anchor[e[0]]
            return -min(self.geo.km(lat, lon, h) for h in bit_list(line_mask)) if line_mask else 0.0

        if side == "soviet" and m is not None:
            rest.sort(key=lambda e: (depth(e), e[0]))
        for uid, _ in rest:
            h = best(uid, land)
            if side == "soviet" and m is not None and not (near >> h) & 1:
                if deep_left > 0:
                    deep_left -= 1
                else:
                    h = best(uid, land & near)
            put(uid, h)
        # (3) EB units on the rail hex nearest their anchor: German on German-repaired rail (§25.7),
        # Soviet on rail ([Q69]) within 8 hexes unless a §25.6 exception is left.
        for uid in ebs:
            if m is None:
                put(uid, best(uid, land))
                continue
            rail = land & (m.repaired_rail.get(line, 0) if side == "german" else m.rail_mask)
            h = best(uid, rail, penalty=40.0)
            if side == "soviet" and not (near >> h) & 1:
                if deep_left > 0:
                    deep_left -= 1
                else:
                    h = best(uid, rail & near, penalty=40.0)
            put(uid, h)
        return placed


def start_supply(m: Any, side: str, line: str) -> int:
    """Hexes where a unit of ``side`` would be in supply at the start of a scenario on ``line``
    with no enemy on the map (§11; rail as at the start, §16.1: German-repaired lines for the
    Germans, normal rail on and east of the line for the Soviets)."""
    from typhoon.games.tmc.supply import german_supply_on_map, soviet_supply_on_map

    repaired = m.repaired_rail.get(line, 0) & m.rail_mask
    if side == "german":
        return int(german_supply_on_map(m, repaired_german=repaired, cut=0, soviet_occ=0).in_supply)
    normal = m.rail_mask & ~m.west_of[line] & ~repaired
    return int(
        soviet_supply_on_map(
            m,
            normal=normal,
            repaired_soviet=0,
            cut=0,
            destroyed=0,
            german_occ=0,
            german_zoc_units=0,
            soviet_occ=0,
            start_line=line,
        ).in_supply
    )


def map_geometry() -> tuple[Any | None, Geometry, str]:
    """The current map (or None), its geometry, and a build note."""
    try:
        from typhoon.games.tmc.tmcmap import TmcMap

        if not MAP_JSON.exists():
            raise DataError("data/map.json is missing")
        m = TmcMap.load(MAP_JSON)
    except (ImportError, DataError) as exc:
        grid = HexGrid(78, 63, 63, "even")
        return (
            None,
            Geometry(grid, DEFAULT_PROJECTION),
            f"no map ({exc}): anchors projected only, §25 unchecked",
        )
    proj = m.projection or DEFAULT_PROJECTION
    sha = hashlib.sha256(MAP_JSON.read_bytes()).hexdigest()
    return m, Geometry(m.grid, proj, m.km_per_hex), f"map.json sha256 {sha}"


def build(doc: dict[str, Any], game_map: Any | None, geo: Geometry, note: str) -> dict[str, Any]:
    """oob.json with fresh placements and a build report."""
    from typhoon.games.tmc.scenarios import parse_setups, setup_violations

    units = load_units()
    placer = Placer(game_map, geo, units)
    setups = doc["setups"]
    order = sorted(setups, key=lambda c: (setups[c].get("base") is not None, c))
    for code in order:
        s = setups[code]
        fixed = [tuple(p) for p in setups[s["base"]]["placements"]] if s.get("base") else []
        s["placements"] = [list(p) for p in placer.place(s, fixed)]  # type: ignore[arg-type]
    report: dict[str, Any] = {"generator": "python -m typhoon.games.tmc.oobgen", "map": note}
    if game_map is not None:
        parsed = parse_setups(doc, units)
        report["legal"] = {c: not setup_violations(game_map, parsed[c], units) for c in sorted(parsed)}
        report["violations"] = {
            c: setup_violations(game_map, parsed[c], units) for c in sorted(parsed) if not report["legal"][c]
        }
    else:
        report["legal"] = None
    doc["build"] = report
    return doc


def dumps(doc: dict[str, Any]) -> str:
    """oob.json text with every list of scalars ([lat, lon], [unit, hex]) on one line."""
    text = json.dumps(doc, indent=1, ensure_ascii=False)
    return _SCALAR_LIST.sub(lambda mt: "[" + re.sub(r",\n\s*", ", ", mt.group(1)) + "]", text) + "\n"


_SCALAR = r'(?:"[^"\n]*"|-?[\d.]+|null|true|false)'
_SCALAR_LIST = re.compile(r"\[\n\s*(" + _SCALAR + r"(?:,\n\s*" + _SCALAR + r")*)\n\s*\]")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m typhoon.games.tmc.oobgen", description=__doc__.split("\n")[0]
    )
    ap.add_argument("--check", action="store_true", help="only check: exit 1 if oob.json is stale or illegal")
    ap.add_argument("--no-map", action="store_true", help="ignore data/map.json (projection only)")
    args = ap.parse_args(argv)
    doc = json.loads(OOB_JSON.read_text("utf-8"))
    if args.no_map:
        game_map, geo, note = (
            None,
            Geometry(HexGrid(78, 63, 63, "even"), DEFAULT_PROJECTION),
            "no map (--no-map)",
        )
    else:
        game_map, geo, note = map_geometry()
    new = dumps(build(doc, game_map, geo, note))
    legal = doc["build"]["legal"]
    for code, vs in doc["build"].get("violations", {}).items():
        for v in vs:
            print(f"OOB {code}: {v}", file=sys.stderr)
    if args.check:
        stale = new != OOB_JSON.read_text("utf-8")
        if stale:
            print("data/oob.json is stale: run python -m typhoon.games.tmc.oobgen", file=sys.stderr)
        return 1 if stale or (legal is not None and not all(legal.values())) else 0
    OOB_JSON.write_text(new, "utf-8")
    print(f"wrote {OOB_JSON} ({note}); legal: {legal}")
    return 0 if legal is None or all(legal.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
