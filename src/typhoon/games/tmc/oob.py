"""The Moscow Campaign's counters (data/units.json): one UnitSpec per counter, validated on load.

The SPI counter mix is lost, so every counter is a RECONSTRUCTION (docs/TMC_OOB.md). Printed
CF, MA, CF form and the mechanised flag are not free data: units.json carries a banding table
that derives them from each unit's estimated historical strength (men, tanks), and the loader
refuses a counter whose printed values disagree with its band. Anchors from the rules:
German infantry are the "2-5" units of §21, a KG is a mechanised 2-8 (§8), EB units have a
CF in parentheses (§13.1; 3 German, 12 Soviet, §17), [#] units a CF in brackets (§13.2).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from typhoon.datafile import read_package_json
from typhoon.errors import DataError

SIDES = ("german", "soviet")
CF_FORMS = ("plain", "paren", "bracket")
CONFIDENCES = ("high", "medium", "low")
PROVENANCE_STATUSES = ("seed", "reconstruction")
# Unit types each side may have; mechanised ones follow [Q2] (armour + motorised, and the KG).
TYPES = {
    "german": ("infantry", "armour", "motorised", "cavalry", "security", "eb", "kg"),
    "soviet": ("infantry", "rifle_brigade", "militia", "motorised", "armour", "cavalry", "eb"),
}
MECHANISED_TYPES = frozenset({"armour", "motorised", "kg"})
EB_COUNT = {"german": 3, "soviet": 12}  # §17.1
KG_CF, KG_MA = 2, 8  # §8.1
KG_MIN_CF = 4  # §8.1, [Q19]: printed CF 4 or more
UNIT_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9-]{0,23}$")


@dataclass(frozen=True)
class Provenance:
    status: str  # "seed" | "reconstruction"
    confidence: str  # high | medium | low
    basis: str


@dataclass(frozen=True)
class Band:
    """One row of the derivation table: units of this side and type with at least these
    strengths get these printed values (first matching row wins, rows ordered strongest first)."""

    side: str
    type: str
    min_men: int
    min_tanks: int
    cf: int
    ma: int
    cf_form: str
    mechanised: bool
    strength: str  # the historical strength the row stands for, in words

    def matches(self, side: str, type_: str, men: int, tanks: int) -> bool:
        return side == self.side and type_ == self.type and men >= self.min_men and tanks >= self.min_tanks


class CfForm:
    """What a counter's CF form says about the unit (for UnitSpec and scenarios.ScenarioUnit)."""

    __slots__ = ()
    cf_form: str

    @property
    def eb(self) -> bool:
        """(#) railroad-engineer unit, §13.1 / §17."""
        return self.cf_form == "paren"

    @property
    def bracket(self) -> bool:
        """[#] unit, §13.2."""
        return self.cf_form == "bracket"


@dataclass(frozen=True)
class UnitSpec(CfForm):
    """One counter as printed. ``kg_of`` names the unit a KG counter stands in for (§8)."""

    id: str
    side: str
    name: str
    type: str
    cf: int
    ma: int
    cf_form: str
    mechanised: bool
    men: int
    tanks: int
    provenance: Provenance
    kg_of: str | None = None

    @property
    def is_kg(self) -> bool:
        return self.type == "kg"

    @property
    def kg_capable(self) -> bool:
        """§8.1, [Q19]: a German mechanised unit of printed CF 4+ becomes a KG instead of dying."""
        return self.side == "german" and self.mechanised and self.cf >= KG_MIN_CF and not self.is_kg

    @property
    def replaceable(self) -> bool:
        """§21, [Q59]: a German 2-5 unit may come back as a replacement."""
        return self.side == "german" and self.cf == 2 and self.ma == 5 and self.cf_form == "plain"

    @property
    def label(self) -> str:
        """CF-MA as printed: 2-5, (1)-5, [1]-4."""
        cf = {"plain": "{}", "paren": "({})", "bracket": "[{}]"}[self.cf_form].format(self.cf)
        return f"{cf}-{self.ma}"


@dataclass(frozen=True)
class UnitCatalogue:
    units: dict[str, UnitSpec]
    bands: tuple[Band, ...]
    provenance: Provenance
    kg: dict[str, str]  # unit id -> id of the KG counter that replaces it (§8)


def read_data(name: str) -> Any:
    """A JSON data file of this package (DataError if missing or not JSON)."""
    return read_package_json("typhoon.games.tmc", name)


def parse_provenance(where: str, raw: Any) -> Provenance:
    if not isinstance(raw, Mapping):
        raise DataError(f"{where}: provenance must be an object")
    status, conf, basis = raw.get("status"), raw.get("confidence"), raw.get("basis")
    if status not in PROVENANCE_STATUSES:
        raise DataError(f"{where}: provenance status must be one of {PROVENANCE_STATUSES}, not {status!r}")
    if conf not in CONFIDENCES:
        raise DataError(f"{where}: provenance confidence must be one of {CONFIDENCES}, not {conf!r}")
    if not isinstance(basis, str) or not basis:
        raise DataError(f"{where}: provenance needs a basis")
    return Provenance(status, conf, basis)


def _int(where: str, value: Any, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise DataError(f"{where} must be an integer >= {low}, not {value!r}")
    return value


def _bands(raw: Any) -> tuple[Band, ...]:
    if not isinstance(raw, list) or not raw:
        raise DataError("units.json: 'bands' must be a non-empty list")
    out = []
    for i, b in enumerate(raw):
        where = f"units.json: band {i}"
        if not isinstance(b, Mapping):
            raise DataError(f"{where} must be an object")
        side, type_ = b.get("side"), b.get("type")
        if side not in SIDES or type_ not in TYPES[side]:
            raise DataError(f"{where}: unknown side/type {side!r}/{type_!r}")
        form = b.get("cf_form")
        if form not in CF_FORMS:
            raise DataError(f"{where}: cf_form must be one of {CF_FORMS}")
        mech = b.get("mechanised")
        if mech is not (type_ in MECHANISED_TYPES):
            raise DataError(
                f"{where}: mechanised must be {type_ in MECHANISED_TYPES} for type {type_} ([Q2])"
            )
        out.append(
            Band(
                side,
                type_,
                _int(f"{where}: min_men", b.get("min_men"), 0),
                _int(f"{where}: min_tanks", b.get("min_tanks"), 0),
                _int(f"{where}: cf", b.get("cf"), 0),
                _int(f"{where}: ma", b.get("ma"), 1),
                form,
                mech,
                str(b.get("strength", "")),
            )
        )
    return tuple(out)


def derive(bands: tuple[Band, ...], side: str, type_: str, men: int, tanks: int) -> Band:
    """The band (printed CF/MA/form) of a unit of this side, type and strength."""
    for b in bands:
        if b.matches(side, type_, men, tanks):
            return b
    raise DataError(f"units.json: no band for a {side} {type_} of {men} men and {tanks} tanks")


def parse_units(doc: Any) -> UnitCatalogue:
    """Validate a units.json document (DataError naming the unit and the problem)."""
    if not isinstance(doc, Mapping) or not isinstance(doc.get("units"), list):
        raise DataError("units.json: needs a 'units' list")
    prov = parse_provenance("units.json", doc.get("provenance"))
    bands = _bands(doc.get("bands"))
    units: dict[str, UnitSpec] = {}
    for raw in doc["units"]:
        if not isinstance(raw, Mapping):
            raise DataError("units.json: every unit must be an object")
        uid = raw.get("id")
        if not isinstance(uid, str) or not UNIT_ID.match(uid):
            raise DataError(f"units.json: bad unit id {uid!r} (letters, digits and '-', no spaces, <= 24)")
        if uid in units:
            raise DataError(f"units.json: unit {uid} listed twice")
        where = f"units.json: unit {uid}"
        side, type_ = raw.get("side"), raw.get("type")
        if side not in SIDES:
            raise DataError(f"{where}: unknown side {side!r}")
        if type_ not in TYPES[side]:
            raise DataError(f"{where}: unknown {side} type {type_!r}")
        name = raw.get("name")
        if not isinstance(name, str) or not name:
            raise DataError(f"{where}: needs a name")
        cf = _int(f"{where}: cf", raw.get("cf"), 0)
        ma = _int(f"{where}: ma", raw.get("ma"), 1)
        form = raw.get("cf_form")
        if form not in CF_FORMS:
            raise DataError(f"{where}: cf_form must be one of {CF_FORMS}, not {form!r}")
        mech = raw.get("mechanised")
        if not isinstance(mech, bool):
            raise DataError(f"{where}: mechanised must be true or false")
        strength = raw.get("strength", {})
        if not isinstance(strength, Mapping):
            raise DataError(f"{where}: strength must be an object")
        men = _int(f"{where}: strength.men", strength.get("men", 0), 0)
        tanks = _int(f"{where}: strength.tanks", strength.get("tanks", 0), 0)
        band = derive(bands, side, type_, men, tanks)
        if (cf, ma, form, mech) != (band.cf, band.ma, band.cf_form, band.mechanised):
            raise DataError(
                f"{where}: printed {cf}-{ma} {form} mech={mech} disagrees with its band "
                f"{band.cf}-{band.ma} {band.cf_form} mech={band.mechanised} ({band.strength})"
            )
        kg_of = raw.get("kg_of")
        if (type_ == "kg") != (kg_of is not None):
            raise DataError(
                f"{where}: a KG counter (and only a KG counter) names the unit it replaces in kg_of"
            )
        units[uid] = UnitSpec(
            uid,
            side,
            name,
            type_,
            cf,
            ma,
            form,
            mech,
            men,
            tanks,
            parse_provenance(where, raw.get("provenance")),
            kg_of,
        )
    _check_kgs(units)
    for side, n in EB_COUNT.items():
        got = sum(1 for u in units.values() if u.side == side and u.eb)
        if got != n:
            raise DataError(f"units.json: {side} needs exactly {n} EB units (§17.1), found {got}")
    for u in units.values():
        if u.eb != (u.type == "eb"):
            raise DataError(f"units.json: unit {u.id}: only EB units have a CF in parentheses (§13.1)")
    kg = {u.kg_of: u.id for u in units.values() if u.kg_of}
    return UnitCatalogue(units, bands, prov, kg)


def _check_kgs(units: dict[str, UnitSpec]) -> None:
    covered: dict[str, str] = {}
    for u in units.values():
        if not u.is_kg:
            continue
        if (u.side, u.cf, u.ma, u.mechanised) != ("german", KG_CF, KG_MA, True):
            raise DataError(f"units.json: KG {u.id} must be a German mechanised {KG_CF}-{KG_MA} (§8)")
        parent = units.get(u.kg_of or "")
        if parent is None or not parent.kg_capable:
            raise DataError(
                f"units.json: KG {u.id} replaces {u.kg_of!r}, not a German mechanised unit of CF 4+"
            )
        if parent.id in covered:
            raise DataError(f"units.json: {parent.id} has two KG counters ({covered[parent.id]}, {u.id})")
        covered[parent.id] = u.id
    for u in units.values():
        if u.kg_capable and u.id not in covered:
            raise DataError(f"units.json: {u.id} (mechanised, CF {u.cf}) has no KG counter (§8, [Q20])")


@lru_cache(maxsize=1)
def load_units() -> UnitCatalogue:
    """The game's counters (data/units.json), validated once."""
    return parse_units(read_data("units.json"))
