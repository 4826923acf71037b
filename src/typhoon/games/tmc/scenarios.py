"""The 24 scenarios of The Moscow Campaign (rules_en.md §27) and their forces, validated on load.

Data files (all in data/):
- units.json: the counters (oob.py).
- oob.json: the starting forces, German A-F and Soviet 1-3 (§27.2), each a list of units with a
  start hex. The hexes are generated from historical lat/lon anchors by
  ``python -m typhoon.games.tmc.oobgen`` against the map (§25 legality); they are a
  RECONSTRUCTION of the lost deployment chart.
- reinforcements.json: German schedule U and options V-Z (§27.3), Soviet schedule (§22).
- scenarios.json: the §27.1 table.

``load_scenario(n)`` gives scenario n's units (starting forces with their hexes, then the
reinforcements whose turn lies inside the scenario's range, [Q61]), start line and options.
``setup_violations(map, setup, units)`` checks one starting force against §25 on a map.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Protocol

from typhoon.errors import DataError
from typhoon.games.tmc.oob import (
    KG_MIN_CF,
    CfForm,
    Provenance,
    UnitCatalogue,
    UnitSpec,
    derive,
    parse_provenance,
    parse_units,
    read_data,
)
from typhoon.hexgrid import HexGrid, bits

START_LINES = ("september", "november", "december")
GERMAN_OOBS = ("A", "B", "C", "D", "E", "F")
SOVIET_OOBS = ("1", "2", "3")
OPTIONS = ("U", "V", "W", "X", "Y", "Z")
LAST_TURN = 31
STACK_LIMIT = 3  # §10.1
SOVIET_DEPTH = 8  # §25.6
SOVIET_DEEP_UNITS = 10  # §25.6: any 10 Soviet units may be placed anywhere east
# The game grid (geography.md §3): 78 columns x 63 rows, even columns shifted down.
GRID = HexGrid(78, 63, 63, "even")


@dataclass(frozen=True)
class Placement:
    unit: str
    hex: str  # CCRR


@dataclass(frozen=True)
class DatedStrength:
    """A starting unit's strength at its OOB's date where the counter's (its strength at first
    appearance) no longer fits, e.g. a panzer division worn down by mid-November (issue 14,
    reconstruction revision 2). The units.json band of this strength gives the CF it plays with."""

    unit: str
    men: int
    tanks: int
    cf: int
    basis: str


@dataclass(frozen=True)
class Setup:
    """One starting force (§27.2): German A-F or Soviet 1-3."""

    code: str
    side: str
    start_line: str
    title: str
    base: str | None  # B = A + France, C = A + AG South, E = D + France
    placements: tuple[Placement, ...]
    provenance: Provenance
    dated: Mapping[str, DatedStrength] = field(default_factory=dict)  # a derived OOB's includes its base's

    @property
    def hexes(self) -> dict[str, str]:
        return {p.unit: p.hex for p in self.placements}


@dataclass(frozen=True)
class Reinforcement:
    turn: int  # game turn (GT) of arrival, [Q1]
    unit: str
    option: str  # "U".."Z" for German entries, "soviet" for Soviet ones


@dataclass(frozen=True)
class ScenarioSpec:
    """One row of the §27.1 table."""

    number: int
    title: str
    first_turn: int
    last_turn: int
    start_line: str
    soviet_oob: str
    german_oob: str
    options: tuple[str, ...]
    german_replacements: bool


@dataclass(frozen=True)
class ScenarioUnit(CfForm):
    """A counter as it takes part in one scenario."""

    id: str
    name: str
    side: str
    type: str
    cf: int
    ma: int
    cf_form: str
    mechanised: bool
    arrive: int  # 0 = in the starting forces; otherwise the GT it arrives as a reinforcement
    setup: str | None  # start hex (CCRR) of a starting unit, None for reinforcements
    fixed: bool  # a German EB unit on its designated hex (§25.7)
    option: str | None  # reinforcement option ("U".."Z"/"soviet") for reinforcements
    kg: str | None  # id of its KG counter (§8), if it has one

    # Aliases the engine reads (rules.Rules._unit).
    @property
    def kind(self) -> str:
        return self.type

    @property
    def mech(self) -> bool:
        return self.mechanised


@dataclass(frozen=True)
class Scenario:
    number: int
    title: str
    first_turn: int
    last_turn: int
    start_line: str
    soviet_oob: str
    german_oob: str
    options: tuple[str, ...]
    german_replacements: bool
    units: tuple[ScenarioUnit, ...]  # starting forces first (Soviet, German), then arrivals by turn
    reinforcements: tuple[Reinforcement, ...]  # only turns inside first_turn..last_turn ([Q61])

    @property
    def start(self) -> dict[str, str]:
        """Unit id -> start hex of every starting unit."""
        return {u.id: u.setup for u in self.units if u.setup is not None}

    @property
    def kg_counters(self) -> dict[str, str]:
        return {u.id: u.kg for u in self.units if u.kg}


@dataclass(frozen=True)
class Catalogue:
    units: UnitCatalogue
    setups: dict[str, Setup]
    reinforcements: dict[str, tuple[Reinforcement, ...]]  # "U".."Z" and "soviet"
    scenarios: dict[int, ScenarioSpec]
    provenance: dict[str, Provenance]


# -- parsing ---------------------------------------------------------------------------------


def _turn(where: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= LAST_TURN:
        raise DataError(f"{where}: game turn must be an integer 1..{LAST_TURN}, not {value!r}")
    return value


def _unit(units: UnitCatalogue, where: str, uid: Any, side: str) -> UnitSpec:
    u = units.units.get(uid) if isinstance(uid, str) else None
    if u is None:
        raise DataError(f"{where}: unknown unit id {uid!r}")
    if u.side != side:
        raise DataError(f"{where}: unit {uid} is {u.side}, not {side}")
    if u.is_kg:
        raise DataError(f"{where}: {uid} is a KG counter; KGs only replace units in play (§8)")
    return u


def _dated(where: str, raw: Any, units: UnitCatalogue, placed: set[str]) -> dict[str, DatedStrength]:
    """An OOB's ``dated_strengths`` block: {provenance, units: {id: {men?, tanks?, basis}}}."""
    if raw is None:
        return {}
    where = f"{where}: dated_strengths"
    if not isinstance(raw, Mapping) or not isinstance(raw.get("units"), Mapping):
        raise DataError(f"{where}: needs a 'units' object")
    parse_provenance(where, raw.get("provenance"))
    out: dict[str, DatedStrength] = {}
    for uid, e in raw["units"].items():
        w = f"{where}: {uid}"
        if uid not in placed:
            raise DataError(f"{w}: not a starting unit of this OOB")
        u = units.units[uid]
        if not isinstance(e, Mapping) or not isinstance(e.get("basis"), str) or not e["basis"]:
            raise DataError(f"{w}: needs an object with a 'basis' (the historical source)")
        men, tanks = e.get("men", u.men), e.get("tanks", u.tanks)
        for name, v in (("men", men), ("tanks", tanks)):
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise DataError(f"{w}: {name} must be an integer >= 0, not {v!r}")
        band = derive(units.bands, u.side, u.type, men, tanks)
        # The counter is the unit at its first appearance; a later date only wears it down, and
        # MA, CF form and the mechanised flag belong to the type, not the strength.
        if (band.ma, band.cf_form, band.mechanised) != (u.ma, u.cf_form, u.mechanised) or band.cf > u.cf:
            raise DataError(
                f"{w}: dated strength gives {band.cf}-{band.ma}, not a worn {u.label} ({band.strength})"
            )
        out[uid] = DatedStrength(uid, men, tanks, band.cf, e["basis"])
    return out


def parse_setups(doc: Any, units: UnitCatalogue) -> dict[str, Setup]:
    if not isinstance(doc, Mapping) or not isinstance(doc.get("setups"), Mapping):
        raise DataError("oob.json: needs a 'setups' object")
    raw_all = doc["setups"]
    missing = [c for c in GERMAN_OOBS + SOVIET_OOBS if c not in raw_all]
    if missing:
        raise DataError(f"oob.json: missing orders of battle {', '.join(missing)} (§27.2)")
    setups: dict[str, Setup] = {}
    for code, raw in raw_all.items():
        where = f"oob.json: OOB {code}"
        if code not in GERMAN_OOBS + SOVIET_OOBS:
            raise DataError(f"{where}: unknown code (German A-F, Soviet 1-3)")
        side = "german" if code in GERMAN_OOBS else "soviet"
        if raw.get("side") != side:
            raise DataError(f"{where}: side must be {side}")
        line = raw.get("start_line")
        if line not in START_LINES:
            raise DataError(f"{where}: unknown start line {line!r}")
        placements: list[Placement] = []
        seen: set[str] = set()
        stack: dict[str, int] = {}
        for entry in raw.get("placements", []):
            if not isinstance(entry, Sequence) or isinstance(entry, str) or len(entry) != 2:
                raise DataError(f"{where}: a placement must be [unit, hex], not {entry!r}")
            uid, hid = entry
            _unit(units, where, uid, side)
            if uid in seen:
                raise DataError(f"{where}: unit {uid} is placed twice")
            seen.add(uid)
            if not isinstance(hid, str) or hid not in GRID:
                raise DataError(f"{where}: unit {uid}: {hid!r} is not a hex of the 78x63 map")
            stack[hid] = stack.get(hid, 0) + 1
            if stack[hid] > STACK_LIMIT:
                raise DataError(f"{where}: more than {STACK_LIMIT} units in hex {hid} (§10, §25.3)")
            placements.append(Placement(uid, hid))
        grouped = set()
        for g in raw.get("groups", []):
            for e in g.get("units", []):
                grouped.add(e.get("unit"))
        base = raw.get("base")
        setups[code] = Setup(
            code,
            side,
            line,
            str(raw.get("title", "")),
            base,
            tuple(placements),
            parse_provenance(where, raw.get("provenance")),
            _dated(where, raw.get("dated_strengths"), units, seen),
        )
        base_units = {e[0] for e in raw_all[base].get("placements", [])} if base in raw_all else set()
        if grouped != seen - base_units:
            raise DataError(
                f"{where}: placements do not match the groups (stale): run python -m typhoon.games.tmc.oobgen"
            )
        n_eb = sum(1 for p in placements if units.units[p.unit].eb)
        want = 3 if side == "german" else 12
        if n_eb != want:
            raise DataError(f"{where}: needs {want} {side} EB units (§17.1, §27.2), has {n_eb}")
    for code, s in setups.items():
        if s.base is None:
            continue
        b = setups.get(s.base)
        if b is None or b.side != s.side or b.start_line != s.start_line or b.base is not None:
            raise DataError(
                f"oob.json: OOB {code}: base {s.base!r} is not a plain OOB of the same side and line"
            )
        if not set(b.hexes.items()) <= set(s.hexes.items()):
            raise DataError(f"oob.json: OOB {code} must contain OOB {s.base} unchanged")
        if b.dated:  # E = D + France: D's units at D's date
            setups[code] = replace(s, dated={**b.dated, **s.dated})
    return setups


def parse_reinforcements(doc: Any, units: UnitCatalogue) -> dict[str, tuple[Reinforcement, ...]]:
    if not isinstance(doc, Mapping) or not isinstance(doc.get("german"), Mapping):
        raise DataError("reinforcements.json: needs 'german' (options U-Z) and 'soviet'")
    out: dict[str, tuple[Reinforcement, ...]] = {}
    german = doc["german"]
    if sorted(german) != list(OPTIONS):
        raise DataError(f"reinforcements.json: German options must be exactly {', '.join(OPTIONS)} (§27.3)")
    tables: list[tuple[str, str, Any]] = [(k, "german", german[k]) for k in OPTIONS]
    tables.append(("soviet", "soviet", doc.get("soviet")))
    for key, side, table in tables:
        where = f"reinforcements.json: {key}"
        if not isinstance(table, Mapping) or not isinstance(table.get("entries"), list):
            raise DataError(f"{where}: needs an 'entries' list")
        parse_provenance(where, table.get("provenance"))
        entries: list[Reinforcement] = []
        seen: set[str] = set()
        for e in table["entries"]:
            if not isinstance(e, Mapping):
                raise DataError(f"{where}: every entry must be {{turn, unit}}")
            u = _unit(units, where, e.get("unit"), side)
            t = _turn(f"{where}: {u.id}", e.get("turn"))
            if u.id in seen:
                raise DataError(f"{where}: unit {u.id} arrives twice")
            seen.add(u.id)
            entries.append(Reinforcement(t, u.id, key))
        out[key] = tuple(sorted(entries, key=lambda r: (r.turn, r.unit)))
    return out


def parse_scenarios(doc: Any, setups: dict[str, Setup]) -> dict[int, ScenarioSpec]:
    if not isinstance(doc, Mapping) or not isinstance(doc.get("scenarios"), list):
        raise DataError("scenarios.json: needs a 'scenarios' list")
    out: dict[int, ScenarioSpec] = {}
    for raw in doc["scenarios"]:
        n = raw.get("number") if isinstance(raw, Mapping) else None
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 24:
            raise DataError(f"scenarios.json: scenario number must be 1..24, not {n!r}")
        if n in out:
            raise DataError(f"scenarios.json: scenario {n} listed twice")
        where = f"scenarios.json: scenario {n}"
        first = _turn(f"{where}: first_turn", raw.get("first_turn"))
        last = _turn(f"{where}: last_turn", raw.get("last_turn"))
        if first > last:
            raise DataError(f"{where}: bad turn range {first}-{last}")
        line = raw.get("start_line")
        if line not in START_LINES:
            raise DataError(f"{where}: unknown start line {line!r}")
        for key, side in (("soviet_oob", "soviet"), ("german_oob", "german")):
            code = raw.get(key)
            s = setups.get(code) if isinstance(code, str) else None
            if s is None or s.side != side:
                raise DataError(f"{where}: unknown {side} OOB {code!r}")
            if s.start_line != line:
                raise DataError(f"{where}: OOB {code} starts on the {s.start_line} line, not {line}")
        opts = raw.get("options")
        if not isinstance(opts, list) or "U" not in opts or any(o not in OPTIONS for o in opts):
            raise DataError(
                f"{where}: options must include U and be among {', '.join(OPTIONS)}, not {opts!r}"
            )
        if len(set(opts)) != len(opts):
            raise DataError(f"{where}: an option is listed twice")
        rep = raw.get("german_replacements")
        if not isinstance(rep, bool):
            raise DataError(f"{where}: german_replacements must be true or false")
        out[n] = ScenarioSpec(
            n,
            str(raw.get("title") or f"Scenario {n}"),
            first,
            last,
            line,
            raw["soviet_oob"],
            raw["german_oob"],
            tuple(o for o in OPTIONS if o in opts),
            rep,
        )
    if sorted(out) != list(range(1, 25)):
        raise DataError(f"scenarios.json: needs scenarios 1..24, has {sorted(out)}")
    return out


def build_catalogue(units_doc: Any, oob_doc: Any, reinforcements_doc: Any, scenarios_doc: Any) -> Catalogue:
    """Validate the four data documents together (DataError on the first problem)."""
    units = parse_units(units_doc)
    setups = parse_setups(oob_doc, units)
    reinf = parse_reinforcements(reinforcements_doc, units)
    specs = parse_scenarios(scenarios_doc, setups)
    cat = Catalogue(
        units,
        setups,
        reinf,
        specs,
        {
            "oob": parse_provenance("oob.json", oob_doc.get("provenance")),
            "reinforcements": parse_provenance("reinforcements.json", reinforcements_doc.get("provenance")),
            "scenarios": parse_provenance("scenarios.json", scenarios_doc.get("provenance")),
        },
    )
    for n in specs:
        scenario_from(cat, n)  # every scenario must assemble without a unit appearing twice
    return cat


@lru_cache(maxsize=1)
def load_catalogue() -> Catalogue:
    """All TMC order-of-battle data, validated once."""
    return build_catalogue(
        read_data("units.json"),
        read_data("oob.json"),
        read_data("reinforcements.json"),
        read_data("scenarios.json"),
    )


def scenario_from(cat: Catalogue, number: int) -> Scenario:
    spec = cat.scenarios.get(number)
    if spec is None:
        raise DataError(f"no scenario {number}; The Moscow Campaign has scenarios 1..24")
    where = f"scenario {number}"
    out: list[ScenarioUnit] = []
    seen: dict[str, str] = {}

    def add(
        u: UnitSpec, arrive: int, hx: str | None, option: str | None, source: str, cf: int | None = None
    ) -> None:
        if u.id in seen:
            raise DataError(f"{where}: unit {u.id} appears twice ({seen[u.id]} and {source})")
        seen[u.id] = source
        fixed = u.side == "german" and u.eb and hx is not None
        cf = u.cf if cf is None else cf
        kg = cat.units.kg.get(u.id) if cf >= KG_MIN_CF else None  # §8.1: CF 4+ becomes a KG
        out.append(
            ScenarioUnit(
                u.id, u.name, u.side, u.type, cf, u.ma, u.cf_form, u.mechanised, arrive, hx, fixed, option, kg,
            )
        )  # fmt: skip

    for code in (spec.soviet_oob, spec.german_oob):
        dated = cat.setups[code].dated
        for p in cat.setups[code].placements:
            d = dated.get(p.unit)
            add(cat.units.units[p.unit], 0, p.hex, None, f"OOB {code}", None if d is None else d.cf)
    arrivals = [r for r in cat.reinforcements["soviet"]]
    for opt in spec.options:
        arrivals += cat.reinforcements[opt]
    kept = sorted(
        (r for r in arrivals if spec.first_turn <= r.turn <= spec.last_turn),
        key=lambda r: (r.turn, r.option, r.unit),
    )
    for r in kept:
        add(cat.units.units[r.unit], r.turn, None, r.option, f"reinforcement {r.option} GT {r.turn}")
    return Scenario(
        spec.number,
        spec.title,
        spec.first_turn,
        spec.last_turn,
        spec.start_line,
        spec.soviet_oob,
        spec.german_oob,
        spec.options,
        spec.german_replacements,
        tuple(out),
        tuple(kept),
    )


def load_scenario(number: int) -> Scenario:
    """Scenario ``number`` (1..24) of §27.1 with its units, start hexes and reinforcements."""
    return scenario_from(load_catalogue(), number)


# -- set-up legality on a map (§25) ------------------------------------------------------------


class SetupMap(Protocol):
    """What the §25 check needs of a map (TmcMap has it; tests use small stand-ins)."""

    @property
    def grid(self) -> HexGrid: ...
    @property
    def start_lines(self) -> Mapping[str, Sequence[int]]: ...
    @property
    def west_of(self) -> Mapping[str, int]: ...
    @property
    def east_of(self) -> Mapping[str, int]: ...
    @property
    def lake_hexes(self) -> int: ...
    @property
    def rail_mask(self) -> int: ...
    @property
    def repaired_rail(self) -> Mapping[str, int]: ...


def setup_violations(m: SetupMap, setup: Setup, units: UnitCatalogue) -> list[str]:
    """Every way ``setup`` breaks rules_en.md §25 on map ``m`` (empty list = legal).

    Checks: own side of the start line and not on it (§25.5), not in water, stacking (§25.3),
    every start-line hex in own ZOC (§25.4, [Q68] both sides; EB units have no ZOC, §4.1) except
    those no own-side hex touches (:func:`uncoverable_line_hexes`),
    Soviet units within 8 hexes of the line except at most 10 ([Q69]), German EB units on
    German-repaired rail (§25.7, §16.1), Soviet EB units on rail hexes ([Q69]).
    """
    g = m.grid
    line = setup.start_line
    line_mask = g.mask(m.start_lines[line])
    own = m.west_of[line] if setup.side == "german" else m.east_of[line]
    near = line_mask
    for _ in range(SOVIET_DEPTH):
        near |= g.expand(near)
    out: list[str] = []
    count: dict[int, int] = {}
    zoc_sources = 0
    deep = []
    for p in setup.placements:
        u = units.units[p.unit]
        h = g.index.get(p.hex, -1)
        if h < 0:
            out.append(f"{u.id}: {p.hex} is not on the map")
            continue
        bit = 1 << h
        if bit & line_mask:
            out.append(f"{u.id}: on start-line hex {p.hex} (§25.5)")
        elif not bit & own:
            out.append(
                f"{u.id}: {p.hex} is not {'west' if u.side == 'german' else 'east'} of the {line} line (§25.5)"
            )
        if bit & m.lake_hexes:
            out.append(f"{u.id}: {p.hex} is a lake hex")
        count[h] = count.get(h, 0) + 1
        if u.side == "soviet" and not bit & near:
            deep.append(u.id)
        if u.eb:
            if u.side == "german" and not bit & m.repaired_rail.get(line, 0):
                out.append(f"{u.id}: German EB not on German-repaired rail at {p.hex} (§25.7, §16.1)")
            if u.side == "soviet" and not bit & m.rail_mask:
                out.append(f"{u.id}: Soviet EB not on a rail hex at {p.hex} ([Q69])")
        else:
            zoc_sources |= bit
    for h, n in count.items():
        if n > STACK_LIMIT:
            out.append(f"{g.ids[h]}: {n} units, more than {STACK_LIMIT} (§25.3)")
    if len(deep) > SOVIET_DEEP_UNITS:
        out.append(
            f"{len(deep)} Soviet units more than {SOVIET_DEPTH} hexes from the line, at most 10 (§25.6)"
        )
    uncovered = line_mask & ~g.expand(zoc_sources) & ~uncoverable_line_hexes(m, line, setup.side)
    for h in bits(uncovered):
        out.append(f"start-line hex {g.ids[h]} not in {setup.side} ZOC (§25.4, [Q68])")
    return out


def uncoverable_line_hexes(m: SetupMap, line: str, side: str) -> int:
    """Start-line hexes with no land neighbour on ``side``'s side of the line: no legal set-up can
    put them in that side's ZOC, so §25.4 is read as "every start-line hex that can be covered".
    (A line hex whose only neighbours on that side are water or other line hexes.)"""
    g = m.grid
    own = (m.west_of[line] if side == "german" else m.east_of[line]) & ~m.lake_hexes
    out = 0
    for h in m.start_lines[line]:
        if not g.neighbour_mask[h] & own:
            out |= 1 << h
    return out


def deep_units(m: SetupMap, setup: Setup) -> list[str]:
    """Soviet units of ``setup`` more than 8 hexes from its start line (the §25.6 exceptions)."""
    g = m.grid
    near = g.mask(m.start_lines[setup.start_line])
    for _ in range(SOVIET_DEPTH):
        near |= g.expand(near)
    return [p.unit for p in setup.placements if not (near >> g.index[p.hex]) & 1]
