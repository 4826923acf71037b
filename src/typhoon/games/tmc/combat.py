"""Combat rules of The Moscow Campaign as pure functions over explicit inputs.

rules_en.md §5 (general), §6 (CRTs), §7 (results), §8 (Kampfgruppe), §9 (advance), §10
(stacking on retreat), §11.3 (out of supply), §12 (retreat), §13 (special units), §18 (weather),
§19 (defence lines), §20.8 (entrained defenders), §23 (VP for eliminations), with the readings
[Q8]–[Q37], [Q46], [Q47], [Q50], [Q51], [Q62], [Q66] (see docs/TMC_COMBAT.md).

Nothing here reads a game state: the combat phase (combat_phase.py) and the overrun rules
(overrun.py) gather the facts (units, hexes, supply, weather) and call these functions, and
tests call them on hand-made positions.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any, NamedTuple, Protocol

from typhoon.datafile import read_package_json
from typhoon.errors import DataError
from typhoon.games.tmc import weather
from typhoon.mechanics.combat import modified_row, parse_ratio, ratio_column, shift_column
from typhoon.mechanics.retreat import one_hex_retreats

GERMAN = 0
SOVIET = 1
SIDE_NAMES = ("german", "soviet")

# Result codes as the CRT prints them (data/crt.json).
AE, AR, BR, EX, HALF_EX, DE, DR, DE_AD = "Ae", "Ar", "Br", "Ex", "1/2Ex", "De", "Dr", "De,Ad"
RESULTS = (AE, AR, BR, EX, HALF_EX, DE, DR, DE_AD)
RESULT_WORDS = {
    AE: "attacker eliminated",
    AR: "attacker retreats",
    BR: "both retreat",
    EX: "exchange",
    HALF_EX: "half exchange",
    DE: "defender eliminated",
    DR: "defender retreats",
    DE_AD: "defender eliminated, attacker disrupted",
}
ADVANCE_RESULTS = frozenset({EX, HALF_EX, DE, DR, DE_AD})  # §9.3; never after Ae, Ar, Br

TERRAIN_DRM = -2  # §5.6, §26: every terrain modifier is -2 and they are not cumulative [Q11]
KG_CF = 2  # §8.1: a Kampfgruppe is a mechanised 2-8
KG_MIN_CF = 4  # §8.1, [Q19]: printed CF 4 or more

# Counter strength styles (§13): plain, [#] bracketed special units, (#) railroad engineers.
PLAIN, BRACKET, EB = "plain", "bracket", "eb"


# -- inputs ----------------------------------------------------------------------------------


class CombatUnit(Protocol):
    """What the combat rules need to know about a counter (printed values only)."""

    @property
    def side(self) -> int: ...
    @property
    def cf(self) -> int: ...
    @property
    def cf_kind(self) -> str: ...  # PLAIN, BRACKET or EB
    @property
    def mechanised(self) -> bool: ...  # armour, motorised, KG ([Q2])
    @property
    def kg(self) -> bool: ...


class Piece(NamedTuple):
    """A plain record satisfying :class:`CombatUnit` (tests, previews)."""

    side: int
    cf: int
    cf_kind: str = PLAIN
    mechanised: bool = False
    kg: bool = False


class CombatMap(Protocol):
    """The map facts combat needs (TmcMap provides them)."""

    @property
    def forest_mask(self) -> int: ...
    @property
    def river_mask(self) -> Sequence[int]: ...
    @property
    def lake_mask(self) -> Sequence[int]: ...
    @property
    def defence_front(self) -> Sequence[int]: ...


class Conditions(NamedTuple):
    """Weather facts of one game turn that change combat (§18, §5.9)."""

    turn: int
    rain: bool = False  # GT 5: German attacks halved
    mud: bool = False  # GT 6-15: German combat strength halved [Q46]
    frozen: bool = False  # GT 16+: rivers and lakes are clear hexsides
    winter: bool = False  # GT 23+: German attacks halved [Q47]
    german_shift: int = 0  # GT 1-4: German attacks one column up (§5.9)


@lru_cache(maxsize=64)
def conditions_for_turn(turn: int) -> Conditions:
    """The combat conditions of a game turn from the weather table (weather.py, data/weather.json);
    memoised (an immutable value of the turn alone: overrun odds ask for it after every move)."""
    names = weather.weather_names(turn)
    return Conditions(
        turn,
        rain="rain" in names,
        mud="mud" in names,
        frozen=weather.rivers_and_lakes_frozen(turn),
        winter="winter" in names,
        german_shift=weather.german_column_shift(turn),
    )


class CombatOptions(NamedTuple):
    """Rule parameters for the readings that are options (data/options.json)."""

    ignorable_result: str = DR  # [Q8]
    mud_halves_german_defence: bool = True  # [Q46]
    winter_halves_all_german_attacks: bool = True  # [Q47]
    kg_ex_credit_full: bool = False  # [Q18]: False = printed CF - 2
    eb_enables_bracket: bool = False  # [Q31]

    @classmethod
    def from_options(cls, options: Mapping[str, str]) -> CombatOptions:
        """From the engine's option values (names and choices as in data/options.json)."""
        ignorable = options.get("ignorable_result", DR)
        if ignorable not in (DR, BR):
            raise DataError(f"ignorable_result must be Dr or Br, not {ignorable!r}")
        winter = options.get("winter_halves_all_german_attacks")
        if winter is None:  # weather.json spells it winter_attack_halving = all | mechanised
            winter = "no" if options.get("winter_attack_halving") == "mechanised" else "yes"
        return cls(
            ignorable_result=ignorable,
            mud_halves_german_defence=options.get("mud_halves_german_defence", "yes") == "yes",
            winter_halves_all_german_attacks=winter == "yes",
            kg_ex_credit_full=options.get("kg_ex_credit", "cf_minus_2") == "full",
            eb_enables_bracket=options.get("eb_enables_bracket", "no") == "yes",
        )


DEFAULT_OPTIONS = CombatOptions()


# -- the CRTs --------------------------------------------------------------------------------


class Crt(NamedTuple):
    """Both combat results tables (data/crt.json): ``tables[side][row index][column]``."""

    columns: tuple[str, ...]
    ratios: tuple[tuple[int, int], ...]
    rows: tuple[int, ...]
    tables: tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...]]
    provenance: Mapping[str, Any]

    @property
    def top(self) -> int:
        """Index of the highest column (11-1)."""
        return len(self.columns) - 1

    def result(self, side: int, column: int, row: int) -> str:
        """The result for an attack by ``side`` at column index ``column`` on modified die row ``row``."""
        return self.tables[side][row - self.rows[0]][column]

    def column_results(self, side: int, column: int) -> tuple[str, ...]:
        return tuple(r[column] for r in self.tables[side])

    def row(self, die: int, drm: int) -> int:
        """The row a die plus modifiers indexes, clamped to the table (§5.6)."""
        return modified_row(die, drm, self.rows[0], self.rows[-1])


def parse_crt(doc: Any) -> Crt:
    """Validate a crt.json document (raises DataError with the reason)."""
    try:
        prov = doc["provenance"]
        if not isinstance(prov, dict) or not prov.get("status"):
            raise DataError("crt.json: provenance with a status is required")
        columns = tuple(str(c) for c in doc["columns"])
        ratios = tuple(parse_ratio(c) for c in columns)
        if any(
            ratios[i][0] * ratios[i + 1][1] >= ratios[i + 1][0] * ratios[i][1] for i in range(len(ratios) - 1)
        ):
            raise DataError("crt.json: columns must be in increasing order of odds")
        rows = tuple(int(r) for r in doc["rows"])
        if list(rows) != list(range(rows[0], rows[0] + len(rows))):
            raise DataError("crt.json: rows must be consecutive modified die rolls")
        known = set(doc["results"])
        if not known <= set(RESULTS):
            raise DataError(f"crt.json: unknown result codes {sorted(known - set(RESULTS))}")
        tables = []
        for side in SIDE_NAMES:
            t = doc["tables"][side]
            if len(t) != len(rows) or any(len(r) != len(columns) for r in t):
                raise DataError(
                    f"crt.json: the {side} table must be {len(rows)} rows of {len(columns)} results"
                )
            for r in t:
                for cell in r:
                    if cell not in known:
                        raise DataError(f"crt.json: {side} table has unknown result {cell!r}")
            tables.append(tuple(tuple(str(c) for c in r) for r in t))
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise DataError(f"crt.json: malformed ({type(exc).__name__}: {exc})") from None
    return Crt(columns, ratios, rows, (tables[0], tables[1]), prov)


@lru_cache(maxsize=1)
def load_crt() -> Crt:
    return parse_crt(read_package_json("typhoon.games.tmc", "crt.json"))


# -- strengths -------------------------------------------------------------------------------


def bracket_usable(stack: Iterable[CombatUnit], opts: CombatOptions = DEFAULT_OPTIONS) -> bool:
    """§13.2, [Q31]: a [#] unit may attack only while stacked with a unit of ordinary CF
    (not an EB unit, unless the option says an EB counts)."""
    return any(u.cf_kind == PLAIN or (opts.eb_enables_bracket and u.cf_kind == EB) for u in stack)


def may_attack(
    u: CombatUnit,
    stackmates: Iterable[CombatUnit],
    *,
    entrained: bool = False,
    disrupted: bool = False,
    opts: CombatOptions = DEFAULT_OPTIONS,
) -> bool:
    """Whether a unit may take part in an attack: EB units never attack (§13.1), nor disrupted
    (§7, [Q14]) or entrained units ([Q56]); a [#] unit only with a plain stackmate (§13.2)."""
    if u.cf_kind == EB or entrained or disrupted or u.cf <= 0:
        return False
    if u.cf_kind == BRACKET:
        return bracket_usable(stackmates, opts)
    return True


def attack_factor(
    u: CombatUnit, in_supply: bool, cond: Conditions, opts: CombatOptions = DEFAULT_OPTIONS
) -> Fraction:
    """Product of the halvings of a unit's attack ([Q10]: they multiply, fractions kept)."""
    f = Fraction(1)
    if not in_supply:  # §11.3
        f /= 2
    if u.side == GERMAN:
        if cond.rain:  # §18 rain: attack strength halved
            f /= 2
        if cond.mud:  # §18 mud: combat strength halved [Q46]
            f /= 2
        if cond.winter and (opts.winter_halves_all_german_attacks or u.mechanised):  # [Q47]
            f /= 2
    return f


def defence_factor(
    u: CombatUnit,
    in_supply: bool,
    cond: Conditions,
    *,
    entrained: bool = False,
    opts: CombatOptions = DEFAULT_OPTIONS,
) -> Fraction:
    """Product of the halvings of a unit's defence: out of supply (§11.3), German in mud
    ([Q46] option), entrained (§20.8)."""
    f = Fraction(1)
    if not in_supply:
        f /= 2
    if u.side == GERMAN and cond.mud and opts.mud_halves_german_defence:
        f /= 2
    if entrained:
        f /= 2
    return f


def attack_strength(
    u: CombatUnit, in_supply: bool, cond: Conditions, opts: CombatOptions = DEFAULT_OPTIONS
) -> Fraction:
    return u.cf * attack_factor(u, in_supply, cond, opts)


def defence_strength(
    u: CombatUnit,
    in_supply: bool,
    cond: Conditions,
    *,
    entrained: bool = False,
    opts: CombatOptions = DEFAULT_OPTIONS,
) -> Fraction:
    """EB units defend with their CF even alone (§13.1); [#] units defend with theirs whenever
    they can be attacked (a lone [#] cannot be, §13.2)."""
    return u.cf * defence_factor(u, in_supply, cond, entrained=entrained, opts=opts)


# -- odds and modifiers ----------------------------------------------------------------------


def odds_index(crt: Crt, attack: Fraction, defence: Fraction, attacker_side: int, cond: Conditions) -> int:
    """Column index of an attack: rounded down to a listed column in the defender's favour
    ([Q9]), below 1-2 counted as 1-2 and above 11-1 as 11-1 (§5.3), then one column up for the
    Germans in GT 1-4 (§5.9), never beyond 11-1."""
    col = ratio_column(attack, defence, crt.ratios)
    if attacker_side == GERMAN:
        col = shift_column(col, cond.german_shift, len(crt.columns))
    return col


class Drm(NamedTuple):
    value: int
    reason: str  # "" when none


def terrain_drm(
    m: CombatMap,
    defender_hexes: Sequence[int],
    attacker_hexes: Sequence[int],
    attacker_side: int,
    cond: Conditions,
    intact_front: Sequence[int] | None = None,
) -> Drm:
    """The single terrain modifier of an attack (§5.6, §26, [Q11]): -2 if a defending hex is
    forest/swamp, or if every attacking unit attacks across a river hexside (§5.7; not from GT 16),
    or (German attacks only) across an intact defence-line front hexside (§19.2, [Q51]);
    never more than -2.

    ``attacker_hexes`` holds one entry per attacking unit (repeats are harmless); every attacker
    is adjacent to every defending hex, and each of those hexsides must qualify.
    ``intact_front[h]``: the front-hexside neighbours of h whose hexside is not destroyed
    (defaults to the map's ``defence_front``)."""
    if any((m.forest_mask >> d) & 1 for d in defender_hexes):
        return Drm(TERRAIN_DRM, "forest/swamp")
    if not attacker_hexes or not defender_hexes:
        return Drm(0, "")
    if not cond.frozen and all((m.river_mask[a] >> d) & 1 for a in attacker_hexes for d in defender_hexes):
        return Drm(TERRAIN_DRM, "river (all attackers across)")
    if attacker_side == GERMAN:
        front = m.defence_front if intact_front is None else intact_front
        if all((front[a] >> d) & 1 for a in attacker_hexes for d in defender_hexes):
            return Drm(TERRAIN_DRM, "defence line (all attackers across its front)")
    return Drm(0, "")


def ignore_allowed(crt: Crt, side: int, column: int, drm: int, ignorable: str) -> bool:
    """Whether declaring the ignorable result (§5.5, [Q8]) can matter and cannot loop forever:
    some die roll gives it and some other die roll gives something else."""
    results = {crt.result(side, column, crt.row(d, drm)) for d in range(1, 7)}
    return ignorable in results and len(results) > 1


# -- results ---------------------------------------------------------------------------------


def becomes_kg(u: CombatUnit) -> bool:
    """§8.1, [Q19]: a German mechanised unit of printed CF 4 or more is replaced by a KG
    instead of being eliminated (a KG itself is eliminated for good, §8.5)."""
    return u.side == GERMAN and u.mechanised and not u.kg and u.cf >= KG_MIN_CF


def loss_quota(result: str, defenders: Iterable[CombatUnit]) -> Fraction:
    """What an Ex, 1/2Ex or De,Ad costs the attacker, in printed CF (§7): the defenders'
    printed CF (a German mechanised defender that became a KG counts its full printed CF,
    §8.3), half of it for 1/2Ex, kept exact ([Q13])."""
    total = Fraction(sum(u.cf for u in defenders))
    if result == HALF_EX:
        return total / 2
    if result in (EX, DE_AD):
        return total
    return Fraction(0)


def loss_credit(u: CombatUnit, opts: CombatOptions = DEFAULT_OPTIONS) -> Fraction:
    """What removing an attacking unit counts toward an Ex/1/2Ex quota: its printed CF; a
    conversion to KG counts printed CF - 2 by default, the full CF as an option ([Q18])."""
    if becomes_kg(u) and not opts.kg_ex_credit_full:
        return Fraction(u.cf - KG_CF)
    return Fraction(u.cf)


def elimination_vp(u: CombatUnit) -> tuple[int, int]:
    """(scoring side, VP) for eliminating ``u`` (§23, [Q62], [Q66]): 3/CF for a KG (to the
    Soviets), 2/CF for mechanised units, 1/CF otherwise (EB and [#] units included)."""
    per = 3 if u.kg else 2 if u.mechanised else 1
    return 1 - u.side, per * u.cf


def kg_conversion_vp(u: CombatUnit) -> tuple[int, int]:
    """(scoring side, VP) for a German unit becoming a KG: 2 per CF beyond the KG's 2 (§8.6)."""
    return SOVIET, 2 * (u.cf - KG_CF)


# -- retreat ---------------------------------------------------------------------------------


def retreat_hexes(
    m: CombatMap,
    neighbour_mask: Sequence[int],
    origin: int,
    cond: Conditions,
    *,
    friendly_occ: int,
    enemy_occ: int,
    enemy_zoc: int,
    full: int,
    rail: tuple[int, ...] | None = None,
    rail_usable: int = 0,
) -> list[int]:
    """The hexes a unit in ``origin`` may retreat to (§12, [Q28]): one adjacent hex, not
    enemy-occupied, not in an enemy ZOC unless a friendly unit is there, not across an unfrozen
    lake hexside, not where it would break the stacking limit (``full``: hexes already holding
    3 units). An EB unit (``rail`` = its rail neighbours) retreats only along rail into
    repaired or normal rail (``rail_usable``, §17.3), lake hexsides included (§3.3)."""
    if rail is not None:
        reachable = 0
        for n in rail:
            reachable |= 1 << n
        reachable &= rail_usable
    else:
        reachable = neighbour_mask[origin]
        if not cond.frozen:
            reachable &= ~m.lake_mask[origin]
    forbidden = enemy_occ | (enemy_zoc & ~friendly_occ)
    return one_hex_retreats(reachable, forbidden, full)
