"""The ruleset of one Moscow Campaign scenario with its options: data, not code.

A Rules object fixes everything that does not change during a game: the map, the counters
(printed CF and MA, class flags, arrival turn, set-up hex), the scenario's turn range, start
line and German replacement rule, the sequence of play, and one named option for every
[Qn] reading of rules_en.md that changes play (data/options.json). Rules objects are
immutable and cached, so every state of a game shares one.

``load_rules(edition, options)`` builds the real game from the MAP helper's map
(``tmcmap.load_map()``) and the OOB helper's scenario (``scenarios.load_scenario(n)``);
``Rules.from_data(map, scenario, options)`` builds one from in-memory data (tests use small
synthetic maps). The edition is the scenario number as a string, "1".."24".

Movement points are integers in ticks of 1/120 MP (``TICKS``): halvings multiply ([Q10],
[Q49]: MA 5 quartered is 1.25 MP = 150 ticks, halved again for entraining 75), rail movement
costs 1/30 MP = 4 ticks per hex ([Q55]), so every fraction the rules produce is exact.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

from typhoon.datafile import read_package_json
from typhoon.datafile import resolve_options as _resolve_options
from typhoon.errors import DataError, OptionError
from typhoon.hexgrid import HexGrid

GERMAN = 0
SOVIET = 1
SIDE_NAMES = ("german", "soviet")
SIDE_INDEX = {"german": GERMAN, "soviet": SOVIET}

TICKS = 120  # movement-point ticks per MP (1/120 MP resolution)
RAIL_TICKS_PER_HEX = TICKS // 30  # §20.4: 30 hexes per MP [Q55]
KG_CF = 2  # §8: a Kampfgruppe is a mechanised 2-8
KG_MA = 8
STACK_LIMIT = 3  # §10
ENTRAIN_LIMIT = 9  # §20.2
DEFAULT_EDITION = "1"  # scenario 1: the short historical September battle (GT 1-8)
SCENARIOS = tuple(str(n) for n in range(1, 25))
START_LINES = ("september", "november", "december")

# Unit classes as printed (§1, [Q2]): mechanised = armour + motorised (+ KG).
MECH_KINDS = frozenset({"armour", "armor", "panzer", "tank", "motorised", "motorized", "mechanised", "kg"})


class MapLike(Protocol):
    """What the engine reads from a map (the MAP helper's TmcMap; see the team brief)."""

    @property
    def grid(self) -> HexGrid: ...
    @property
    def forest_mask(self) -> int: ...
    @property
    def moscow(self) -> tuple[int, ...]: ...
    @property
    def moscow_mask(self) -> int: ...
    @property
    def river_mask(self) -> Sequence[int]: ...
    @property
    def lake_mask(self) -> Sequence[int]: ...
    @property
    def rail_neighbours(self) -> Sequence[Sequence[int]]: ...
    @property
    def rail_mask(self) -> int: ...
    @property
    def defence_lines(self) -> Sequence[Any]: ...
    @property
    def edges(self) -> Mapping[str, int]: ...
    @property
    def german_entry(self) -> int: ...
    @property
    def soviet_entry(self) -> Sequence[int]: ...
    @property
    def start_lines(self) -> Mapping[str, Sequence[int]]: ...
    @property
    def west_of(self) -> Mapping[str, int]: ...
    @property
    def east_of(self) -> Mapping[str, int]: ...
    @property
    def repaired_rail(self) -> Mapping[str, int]: ...


@dataclass(frozen=True)
class UnitSpec:
    """One counter. ``cf``/``ma`` are printed values; KG conversion is state (``State.kg``)."""

    index: int
    id: str
    name: str
    side: int
    cf: int  # printed combat factor
    ma: int  # printed movement allowance
    kind: str  # armour, motorised, infantry, cavalry, eb, ... as the OOB gives it
    mech: bool  # armour/motorised: mechanised movement phase, forest cost 3, winter MA half
    eb: bool  # (#) railroad engineer §13.1/§17: no ZOC, defence only, rail-bound
    bracket: bool  # [#] §13.2: attacks only stacked with an ordinary unit; lone: removed by moving through
    arrive: int  # game turn of arrival as a reinforcement; 0 = in the scenario's starting forces
    setup: int  # hex index of its standard (reconstructed) set-up hex, -1 if none
    fixed: bool  # must set up on ``setup`` (German EB designated hexes, §25.7)

    @property
    def kg_capable(self) -> bool:
        """§8, [Q19]: a German mechanised unit of printed CF 4 or more becomes a KG instead of dying."""
        return self.side == GERMAN and self.mech and self.cf >= 4 and not self.eb


@dataclass(frozen=True)
class PhaseSpec:
    key: str
    name: str
    side: int
    kind: str  # setup | movement | combat
    movers: str = ""  # movement phases: "all" or "mech" (German mechanised movement phase)


# §25 (set-up, Soviet first) and §2 (sequence of play).
PHASES: tuple[PhaseSpec, ...] = (
    PhaseSpec("setup_soviet", "Soviet set-up", SOVIET, "setup"),
    PhaseSpec("setup_german", "German set-up", GERMAN, "setup"),
    PhaseSpec("german_movement", "German first movement phase", GERMAN, "movement", "all"),
    PhaseSpec("german_combat", "German combat phase", GERMAN, "combat"),
    PhaseSpec("german_mechanised", "German mechanised movement phase", GERMAN, "movement", "mech"),
    PhaseSpec("soviet_movement", "Soviet movement phase", SOVIET, "movement", "all"),
    PhaseSpec("soviet_combat", "Soviet combat phase", SOVIET, "combat"),
)
PHASE_INDEX = {p.key: i for i, p in enumerate(PHASES)}
FIRST_TURN_PHASE = PHASE_INDEX["german_movement"]
GERMAN_MOVEMENT = PHASE_INDEX["german_movement"]
GERMAN_COMBAT = PHASE_INDEX["german_combat"]
GERMAN_MECH = PHASE_INDEX["german_mechanised"]
SOVIET_MOVEMENT = PHASE_INDEX["soviet_movement"]
SOVIET_COMBAT = PHASE_INDEX["soviet_combat"]


@dataclass(frozen=True)
class OptionSpec:
    name: str
    default: str
    choices: tuple[str, ...]
    q: str  # the [Qn] of rules_en.md it comes from
    note: str


def _read_json(name: str) -> Any:
    return read_package_json("typhoon.games.tmc", name)


@lru_cache(maxsize=1)
def _option_table() -> dict[str, OptionSpec]:
    data = _read_json("options.json")
    out: dict[str, OptionSpec] = {}
    try:
        for o in data["options"]:
            spec = OptionSpec(
                str(o["name"]),
                str(o["default"]),
                tuple(str(c) for c in o["choices"]),
                str(o["q"]),
                str(o["note"]),
            )
            if spec.default not in spec.choices:
                raise DataError(f"options.json: {spec.name}: default {spec.default!r} is not a choice")
            if spec.name in out:
                raise DataError(f"options.json: option {spec.name} listed twice")
            out[spec.name] = spec
    except (KeyError, TypeError) as exc:
        raise DataError(f"options.json: malformed ({type(exc).__name__}: {exc})") from None
    return out


def editions() -> dict[str, str]:
    """Edition key (scenario number) -> title."""
    return {n: f"The Moscow Campaign, scenario {n}" for n in SCENARIOS}


def option_specs(edition: str = DEFAULT_EDITION) -> dict[str, OptionSpec]:
    if edition not in SCENARIOS:
        raise OptionError(f"unknown scenario {edition!r}; choose 1..24")
    return dict(_option_table())


def resolve_options(given: Mapping[str, str] | None) -> dict[str, str]:
    # "scenario" is accepted and skipped: the edition names the scenario.
    return _resolve_options(_option_table(), given or {}, "The Moscow Campaign", ("scenario",))


def _get(obj: Any, *names: str, default: Any = None) -> Any:
    """Field of a dict or attribute of an object, under the first of several names."""
    for n in names:
        if isinstance(obj, Mapping):
            if n in obj:
                return obj[n]
        elif hasattr(obj, n):
            return getattr(obj, n)
    return default


class Rules:
    """One scenario with a fixed set of option values. Build with :func:`load_rules` or
    :meth:`from_data`."""

    def __init__(self, edition: str, game_map: MapLike, scenario: Any, options: Mapping[str, str] | None):
        self.edition = edition
        self.options = resolve_options(options)
        self.option_specs = _option_table()
        self.map = game_map
        self.grid: HexGrid = game_map.grid
        self.phases = PHASES
        try:
            self._build(scenario)
        except (KeyError, TypeError, ValueError) as exc:
            raise DataError(f"scenario {edition}: malformed ({type(exc).__name__}: {exc})") from None

    @classmethod
    def from_data(
        cls, game_map: MapLike, scenario: Any, options: Mapping[str, str] | None = None, edition: str = "test"
    ) -> Rules:
        """Rules from in-memory data: a map object and a scenario (dict or object with
        number/first_turn/last_turn/start_line/german_replacements/units)."""
        return cls(edition, game_map, scenario, options)

    def opt(self, name: str) -> str:
        return self.options[name]

    def flag(self, name: str) -> bool:
        return self.options[name] == "yes"

    def _build(self, sc: Any) -> None:
        grid = self.grid
        self.title = str(_get(sc, "title", "name", default=f"The Moscow Campaign, scenario {self.edition}"))
        self.first_turn = int(_get(sc, "first_turn", "first_gt"))
        self.last_turn = int(_get(sc, "last_turn", "last_gt"))
        if not 1 <= self.first_turn <= self.last_turn <= 31:
            raise DataError(
                f"scenario {self.edition}: turn range {self.first_turn}-{self.last_turn} outside 1-31"
            )
        self.start_line = str(_get(sc, "start_line"))
        if self.start_line not in START_LINES:
            raise DataError(f"scenario {self.edition}: unknown start line {self.start_line!r}")
        self.german_replacements = bool(_get(sc, "german_replacements", "replacements", default=False))
        units = []
        seen: set[str] = set()
        for i, u in enumerate(_get(sc, "units")):
            units.append(self._unit(i, u, grid))
            if units[-1].id in seen:
                raise DataError(f"scenario {self.edition}: unit {units[-1].id} listed twice")
            seen.add(units[-1].id)
        self.units: tuple[UnitSpec, ...] = tuple(units)
        self.unit_index = {u.id: u.index for u in self.units}
        self.side_units: tuple[tuple[int, ...], tuple[int, ...]] = (
            tuple(u.index for u in self.units if u.side == GERMAN),
            tuple(u.index for u in self.units if u.side == SOVIET),
        )
        self.side_unit_mask = (
            sum(1 << u for u in self.side_units[GERMAN]),
            sum(1 << u for u in self.side_units[SOVIET]),
        )
        self.mech_mask = sum(1 << u.index for u in self.units if u.mech)
        self.eb_mask = sum(1 << u.index for u in self.units if u.eb)
        self.bracket_mask = sum(1 << u.index for u in self.units if u.bracket)
        self.kg_capable_mask = sum(1 << u.index for u in self.units if u.kg_capable)
        # §21/[Q59]: German 2-5 units (printed CF 2, MA 5, not EB) may come back as replacements.
        self.replaceable_mask = sum(
            1 << u.index for u in self.units if u.side == GERMAN and u.cf == 2 and u.ma == 5 and not u.eb
        )
        self.reinforcements: dict[int, tuple[int, ...]] = {}
        for u in self.units:
            if u.arrive:
                self.reinforcements.setdefault(u.arrive, ())
                self.reinforcements[u.arrive] += (u.index,)
        # Map-derived facts used every phase.
        m = self.map
        self.all_hexes = grid.valid
        self.rail_mask = m.rail_mask
        line = self.start_line
        self.start_line_hexes: tuple[int, ...] = tuple(m.start_lines[line])
        self.start_line_mask = grid.mask(self.start_line_hexes)
        self.west_mask = m.west_of[line]
        self.east_mask = m.east_of[line]
        # §16.1: rail west of the start line destroyed except the bold lines (German-repaired);
        # rail on or east of the line normal.
        self.initial_repaired_german = m.repaired_rail.get(line, 0) & self.rail_mask
        self.initial_normal = self.rail_mask & ~self.west_mask & ~self.initial_repaired_german
        # Defence lines (§19): every front hexside gets a global index.
        sides: list[tuple[int, int, int]] = []  # (line, outer, inner)
        self.dl_index: dict[tuple[int, int], int] = {}
        line_masks: list[int] = []
        for li, dl in enumerate(m.defence_lines):
            lm = 0
            for outer, inner in _get(dl, "sides"):
                k = len(sides)
                sides.append((li, int(outer), int(inner)))
                self.dl_index[(int(outer), int(inner))] = k
                lm |= 1 << k
            line_masks.append(lm)
        self.dl_sides: tuple[tuple[int, int, int], ...] = tuple(sides)
        self.dl_line_masks: tuple[int, ...] = tuple(line_masks)
        self.dl_names: tuple[str, ...] = tuple(
            str(_get(dl, "name", default=f"line{i}")) for i, dl in enumerate(m.defence_lines)
        )
        self.dl_from_mask: int = grid.mask(o for _, o, _ in sides)
        self.soviet_entry: tuple[int, ...] = tuple(m.soviet_entry)
        self.german_entry: int = m.german_entry
        self.forest_nonmech_cost = 2 if self.opt("forest_reading") == "mp2_nodrm" else 1
        self.lake_pairs_any = any(m.lake_mask[h] for h in grid.hexes)

    def _unit(self, i: int, u: Any, grid: HexGrid) -> UnitSpec:
        uid = str(_get(u, "id"))
        side_raw = _get(u, "side")
        side = SIDE_INDEX.get(side_raw, side_raw) if isinstance(side_raw, str) else int(side_raw)
        if side not in (GERMAN, SOVIET):
            raise DataError(f"unit {uid}: unknown side {side_raw!r}")
        kind = str(_get(u, "kind", "type", "unit_type", default="infantry")).lower()
        cf = int(_get(u, "cf", "strength", "attack"))
        ma = int(_get(u, "ma", "move", "movement"))
        eb = bool(_get(u, "eb", default=kind == "eb"))
        bracket = bool(_get(u, "bracket", "bracketed", default=False))
        mech = bool(_get(u, "mech", "mechanised", "mechanized", default=kind in MECH_KINDS))
        arrive = int(_get(u, "arrive", "arrival_turn", "turn", default=0) or 0)
        hx = _get(u, "setup", "setup_hex", "hex", default=None)
        setup = -1
        if hx:
            if str(hx) not in grid.index:
                raise DataError(f"unit {uid}: set-up hex {hx} is not on the map")
            setup = grid.index[str(hx)]
        fixed = bool(_get(u, "fixed", "designated", default=False))
        if cf < 0 or ma < 1:
            raise DataError(f"unit {uid}: impossible values CF {cf} MA {ma}")
        if eb and mech:
            raise DataError(f"unit {uid}: an EB unit cannot be mechanised")
        return UnitSpec(
            i,
            uid,
            str(_get(u, "name", default=uid)),
            side,
            cf,
            ma,
            kind,
            mech,
            eb,
            bracket,
            arrive,
            setup,
            fixed,
        )

    # -- convenience -----------------------------------------------------------------------

    def describe(self) -> str:
        opts = ", ".join(f"{k}={v}" for k, v in sorted(self.non_default_options().items()))
        return f"{self.title} [scenario {self.edition}" + (f"; {opts}]" if opts else "]")

    def non_default_options(self) -> dict[str, str]:
        return {k: v for k, v in self.options.items() if v != self.option_specs[k].default}


@lru_cache(maxsize=64)
def _cached(edition: str, items: tuple[tuple[str, str], ...]) -> Rules:
    from typhoon.games.tmc.scenarios import load_scenario
    from typhoon.games.tmc.tmcmap import load_map

    return Rules(edition, load_map(), load_scenario(int(edition)), dict(items))


def load_rules(edition: str = DEFAULT_EDITION, options: Mapping[str, str] | None = None) -> Rules:
    """The (shared, immutable) Rules object of a scenario with the given option values."""
    edition = str(edition)
    if edition not in SCENARIOS:
        raise OptionError(f"unknown scenario {edition!r}; The Moscow Campaign has scenarios 1..24")
    resolve_options(options)  # fail early, with the option's name
    items = tuple(sorted((str(k), str(v)) for k, v in (options or {}).items() if k != "scenario"))
    return _cached(edition, items)
