"""The ruleset of one Battle for Moscow edition with its options: data, not code.

Everything the engine needs to know about an edition (map, counters, CRT, sequence of play,
turn track, the rule flags where the editions differ, and the options with their defaults) is
read from the JSON files beside this module and validated here. Rules objects are immutable
and cached, so every state of a game shares one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from typhoon.datafile import read_package_json, resolve_options
from typhoon.errors import DataError, OptionError
from typhoon.hexmap import SIDES, HexMap

GERMAN = 0
SOVIET = 1
SIDE_NAMES = ("german", "soviet")
SIDE_INDEX = {"german": GERMAN, "soviet": SOVIET}

RESULTS = ("NE", "DR", "DRL", "AL", "DE", "EX")
DEFAULT_EDITION = "gdw1986"
FIRST_SHOCK = "1SA"


@dataclass(frozen=True)
class UnitSpec:
    index: int
    id: str
    name: str
    side: int
    panzer: bool
    full: int
    half: int
    move: int

    def strength(self, steps: int) -> int:
        return self.full if steps == 2 else self.half if steps == 1 else 0

    def loss(self, steps: int) -> int:
        """Strength points lost by taking one step off a unit with ``steps`` steps (EX rule)."""
        return self.full - self.half if steps == 2 else self.half


@dataclass(frozen=True)
class PhaseSpec:
    key: str
    name: str
    side: int
    kind: str  # setup | replacement | movement | combat
    movers: str  # all | panzer | rail ('' when not a movement phase)


@dataclass(frozen=True)
class OptionSpec:
    name: str
    default: str
    choices: tuple[str, ...]
    note: str
    # A reading added after records existed: left out of Rules.options (so of records and
    # position keys) while at its default, so games at the default read exactly as before.
    quiet_default: bool = False


def _read_json(name: str) -> Any:
    return read_package_json("typhoon.games.bfm", name)


def editions() -> dict[str, str]:
    """Edition key -> title."""
    data = _read_json("editions.json")
    return {k: v["title"] for k, v in data["editions"].items()}


def option_specs(edition: str = DEFAULT_EDITION) -> dict[str, OptionSpec]:
    data = _read_json("editions.json")
    if edition not in data["editions"]:
        raise OptionError(f"unknown edition {edition!r}; choose one of {sorted(data['editions'])}")
    return _option_specs(data["editions"][edition])


def _option_specs(ed: Mapping[str, Any]) -> dict[str, OptionSpec]:
    out = {}
    for name, spec in ed.get("options", {}).items():
        choices = tuple(str(c) for c in spec["choices"])
        default = str(spec["default"])
        if default not in choices:
            raise DataError(f"option {name}: default {default!r} is not among its choices")
        out[name] = OptionSpec(
            name, default, choices, str(spec.get("note", "")), bool(spec.get("quiet_default", False))
        )
    return out


class Rules:
    """One edition of Battle for Moscow with a fixed set of option values."""

    def __init__(self, edition: str, options: Mapping[str, str]):
        data = _read_json("editions.json")
        if edition not in data["editions"]:
            raise OptionError(f"unknown edition {edition!r}; choose one of {sorted(data['editions'])}")
        ed = data["editions"][edition]
        self.edition = edition
        self.title: str = ed["title"]
        try:
            self.option_specs = _option_specs(ed)
            self.options = self._resolve_options(options)
            self._build(data, ed)
        except (KeyError, TypeError, ValueError) as exc:
            raise DataError(f"editions.json ({edition}): malformed ({type(exc).__name__}: {exc})") from None

    def _resolve_options(self, given: Mapping[str, str]) -> dict[str, str]:
        values = resolve_options(self.option_specs, given, f"edition {self.edition}")
        return {
            k: v
            for k, v in values.items()
            if not (self.option_specs[k].quiet_default and v == self.option_specs[k].default)
        }

    def opt(self, name: str, fallback: str = "") -> str:
        spec = self.option_specs.get(name)
        return self.options.get(name, spec.default if spec is not None else fallback)

    def _build(self, data: Mapping[str, Any], ed: Mapping[str, Any]) -> None:
        self.map = HexMap(_read_json(ed["map"]), origin=ed["map"])
        grid = self.map.grid
        # Phases: the two set-up steps, then the edition's sequence of play.
        phase_data = data["phases"]
        keys = ["setup_soviet", "setup_german", *ed["sequence"]]
        phases = []
        for key in keys:
            p = phase_data[key]
            if p["side"] not in SIDES:
                raise DataError(f"phase {key}: unknown side {p['side']!r}")
            if p["kind"] not in ("setup", "replacement", "movement", "combat"):
                raise DataError(f"phase {key}: unknown kind {p['kind']!r}")
            phases.append(PhaseSpec(key, p["name"], SIDE_INDEX[p["side"]], p["kind"], p.get("movers", "")))
        self.phases: tuple[PhaseSpec, ...] = tuple(phases)
        self.first_turn_phase = 2  # index of the first phase of a game turn
        skip = set(ed.get("skip_on_turn_1", []))
        if self.opt("turn1_combat_first") == "yes":
            skip |= {"german_replacement", "german_panzer_movement"}
        for key in skip:
            if key not in keys:
                raise DataError(f"skip_on_turn_1 names unknown phase {key!r}")
        self.skip_on_turn_1 = frozenset(i for i, p in enumerate(self.phases) if p.key in skip)
        # Turn track.
        turns = ed["turns"]
        self.last_turn = len(turns)
        self.turn_labels = {int(t["turn"]): str(t["label"]) for t in turns}
        self.mud_turns = frozenset(int(t["turn"]) for t in turns if t.get("mud"))
        if sorted(self.turn_labels) != list(range(1, self.last_turn + 1)):
            raise DataError("turn track must number turns 1..n")
        self.mud_halves = ed["mud_halves_attack_of"]
        if self.mud_halves not in ("all", "panzer"):
            raise DataError("mud_halves_attack_of must be 'all' or 'panzer'")
        # Counters.
        self.units = self._load_units()
        self.unit_index = {u.id: u.index for u in self.units}
        self.side_units: tuple[tuple[int, ...], tuple[int, ...]] = (
            tuple(u.index for u in self.units if u.side == GERMAN),
            tuple(u.index for u in self.units if u.side == SOVIET),
        )
        self.side_unit_mask = tuple(sum(1 << i for i in s) for s in self.side_units)
        self.panzer_mask = sum(1 << u.index for u in self.units if u.panzer)
        self.first_shock = self.unit_index.get(FIRST_SHOCK, -1)
        self.first_shock_mode: str = ed["first_shock"]
        if self.first_shock_mode not in ("replacement", "reinforcement"):
            raise DataError("first_shock must be 'replacement' or 'reinforcement'")
        self.first_shock_turn = int(ed["first_shock_turn"])
        self.first_shock_full = self.opt("first_shock_strength", "half") == "full"
        # Combat.
        self.crt = self._load_crt()
        shifts = tuple(ed["defender_shifts"])
        for s in shifts:
            if s not in ("forest", "moscow", "major_city", "soviet_fortification"):
                raise DataError(f"unknown defender shift {s!r}")
        m = self.map
        # defender_shift[side][hex]: columns shifted left for a defender of that side there.
        self.defender_shift: tuple[tuple[int, ...], tuple[int, ...]] = tuple(  # type: ignore[assignment]
            tuple(
                ("forest" in shifts and m.is_forest(h))
                + ("moscow" in shifts and m.is_moscow(h))
                + ("major_city" in shifts and (m.major_city_mask >> h) & 1)
                + ("soviet_fortification" in shifts and side == SOVIET and m.is_fortification(h))
                for h in range(grid.size)
            )
            for side in (GERMAN, SOVIET)
        )
        self.defender_shift_reasons = shifts
        self.stand_fast_mask = grid.mask(self.map.idx(h) for h in ed.get("stand_fast_hexes", []))
        self.victory: str = ed["victory"]
        if self.victory not in ("moscow", "moscow_and_city"):
            raise DataError(f"unknown victory rule {self.victory!r}")
        # Replacements.
        sov = self.opt("soviet_replacements", "5")
        schedule: tuple[int, ...]
        if sov == "oberlabs":
            schedule = (5, 5, 4, 4, 5, 5, 5)
        else:
            schedule = (int(sov),) * self.last_turn
        self.soviet_replacements = {t: schedule[t - 1] for t in range(1, self.last_turn + 1)}
        first = int(ed["german_replacements_from_turn"])
        if self.opt("german_replacements", "every_turn") == "turns_2_4_6":
            gturns = {2, 4, 6}
        else:
            gturns = set(range(first, self.last_turn + 1))
        self.german_replacements = {t: (1 if t in gturns else 0) for t in range(1, self.last_turn + 1)}
        # Setup.
        if len(self.map.setup[SIDE_NAMES[GERMAN]]) > len(self.side_units[GERMAN]):
            raise DataError("more German set-up hexes than German units")

    def _load_units(self) -> tuple[UnitSpec, ...]:
        data = _read_json("units.json")
        units = []
        half_7_4 = int(self.opt("half_strength_7_4", "4"))
        xxii = self.opt("xxii_corps", "8-4")
        seen = set()
        for i, u in enumerate(data["units"]):
            uid = str(u["id"])
            if uid in seen:
                raise DataError(f"units.json: unit {uid} listed twice")
            seen.add(uid)
            side = SIDE_INDEX.get(u["side"])
            if side is None:
                raise DataError(f"units.json: unit {uid} has unknown side {u['side']!r}")
            if u["type"] not in ("panzer", "infantry"):
                raise DataError(f"units.json: unit {uid} has unknown type {u['type']!r}")
            full, half, move = int(u["full"]), int(u["half"]), int(u["move"])
            if uid == "XXII" and xxii == "7-4":
                full, half = 7, 4
            if side == GERMAN and full == 7 and u["type"] == "infantry":
                half = half_7_4
            if not (0 < half < full) or move < 1:
                raise DataError(f"units.json: unit {uid} has impossible values {full}/{half}-{move}")
            units.append(
                UnitSpec(i, uid, str(u.get("name", uid)), side, u["type"] == "panzer", full, half, move)
            )
        return tuple(units)

    def _load_crt(self) -> tuple[tuple[str, ...], ...]:
        data = _read_json("crt.json")
        cols = data["columns"]
        if cols != ["1:1", "2:1", "3:1", "4:1", "5:1", "6:1"]:
            raise DataError("crt.json: columns must be 1:1 .. 6:1")
        rows = []
        for die in range(1, 7):
            row = list(data["rows"][str(die)])
            if len(row) != 6 or any(r not in RESULTS for r in row):
                raise DataError(f"crt.json: row {die} must hold six of {RESULTS}")
            rows.append(row)
        cell = self.opt("crt_4to1_die3", "EX")
        rows[2][3] = cell
        # crt[die][column]: die 1..6, column 1..6 (index 0 unused) for direct lookup.
        return tuple([("",) * 7] + [("", *r) for r in rows])

    # -- convenience -----------------------------------------------------------------------

    def is_mud(self, turn: int) -> bool:
        return turn in self.mud_turns

    def halved_in_mud(self, unit: int) -> bool:
        return self.mud_halves == "all" or self.units[unit].panzer

    def describe(self) -> str:
        opts = ", ".join(f"{k}={v}" for k, v in sorted(self.options.items()))
        return f"{self.title} [{self.edition}; {opts}]"

    def non_default_options(self) -> dict[str, str]:
        return {k: v for k, v in self.options.items() if v != self.option_specs[k].default}


@lru_cache(maxsize=64)
def _cached(edition: str, items: tuple[tuple[str, str], ...]) -> Rules:
    return Rules(edition, dict(items))


def load_rules(edition: str = DEFAULT_EDITION, options: Mapping[str, str] | None = None) -> Rules:
    """The (shared, immutable) Rules object of an edition with the given option values."""
    items = tuple(sorted((str(k), str(v)) for k, v in (options or {}).items()))
    return _cached(edition, items)
