"""The Moscow Campaign weather by game turn (rules_en.md §18, §5.9, §26 note C), as exact factors.

The table lives in data/weather.json (provenance "seed"). Periods may overlap (winter, GT 23-31,
comes on top of freeze, GT 16-31) and overlapping factors multiply. Every accessor takes the game
turn and, where an ambiguity reading is parameterised, the option value explicitly:

- ``mud_halves_german_defence`` ([Q46], default True): mud halves German defence as well as attack.
- ``winter_halves_all_german_attacks`` ([Q47], default True): winter halves every German attack;
  False: only mechanised units' attacks.
(The same names as the options in data/options.json, there with values "yes"/"no".)

Factors multiply with the other halvings (out of supply, entrained) the caller applies ([Q10], [Q49]).
Soviet combat strength is never changed by weather; only Soviet MA in mud.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from typhoon.datafile import read_package_json
from typhoon.errors import DataError

ONE = Fraction(1)

# Effect key -> kind of value it takes.
_FACTORS = ("german_ma", "german_mechanised_ma", "german_attack", "german_defence", "soviet_ma")
_INTS = ("german_column_shift", "german_hexes_per_phase")
_FLAGS = ("frozen",)
_OPTIONS = {
    "mud_halves_german_defence": "german_defence",
    "winter_halves_all_german_attacks": "german_attack",
}


@dataclass(frozen=True)
class WeatherPeriod:
    name: str
    first: int
    last: int
    rule: str
    factors: dict[str, Fraction]
    ints: dict[str, int]
    flags: frozenset[str]
    options: dict[str, str]  # effect key -> the option that governs it

    def covers(self, gt: int) -> bool:
        return self.first <= gt <= self.last


def _fraction(text: Any, where: str) -> Fraction:
    if not isinstance(text, str):
        raise DataError(f"{where}: a factor must be a string such as '1/2', not {text!r}")
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise DataError(f"{where}: {text!r} is not a fraction") from None
    if not 0 < value <= 1:
        raise DataError(f"{where}: factor {text} must lie in (0, 1]")
    return value


class WeatherTable:
    """The weather chart: which periods apply on each game turn and what they change."""

    def __init__(self, data: Any, origin: str = "weather.json"):
        try:
            self.provenance: dict[str, Any] = dict(data["provenance"])
            self.first_turn = int(data["first_turn"])
            self.last_turn = int(data["last_turn"])
            raw_periods = list(data["periods"])
        except (KeyError, TypeError, ValueError) as exc:
            raise DataError(f"{origin}: malformed ({type(exc).__name__}: {exc})") from None
        if self.provenance.get("status") not in ("seed", "reconstruction"):
            raise DataError(f"{origin}: provenance status must be 'seed' or 'reconstruction'")
        periods = []
        for p in raw_periods:
            try:
                name, first, last = str(p["name"]), int(p["first"]), int(p["last"])
                effects, rule = dict(p["effects"]), str(p.get("rule", ""))
                options = {str(k): str(v) for k, v in dict(p.get("options", {})).items()}
            except (KeyError, TypeError, ValueError) as exc:
                raise DataError(f"{origin}: malformed period ({type(exc).__name__}: {exc})") from None
            where = f"{origin} period {name}"
            if not self.first_turn <= first <= last <= self.last_turn:
                raise DataError(f"{where}: turns {first}-{last} outside {self.first_turn}-{self.last_turn}")
            factors, ints, flags = {}, {}, set()
            for key, value in effects.items():
                if key in _FACTORS:
                    factors[key] = _fraction(value, f"{where}.{key}")
                elif key in _INTS:
                    if not isinstance(value, int) or value < 0:
                        raise DataError(f"{where}.{key}: must be a non-negative integer")
                    ints[key] = value
                elif key in _FLAGS:
                    if value is not True:
                        raise DataError(f"{where}.{key}: must be true when present")
                    flags.add(key)
                else:
                    raise DataError(f"{where}: unknown effect {key!r}")
            for key, option in options.items():
                if key not in effects or _OPTIONS.get(option) != key:
                    raise DataError(f"{where}: option {option!r} cannot govern effect {key!r}")
            periods.append(WeatherPeriod(name, first, last, rule, factors, ints, frozenset(flags), options))
        for gt in range(self.first_turn, self.last_turn + 1):
            for key in _INTS:  # integer effects do not combine; two periods giving one is a data error
                if sum(1 for p in periods if p.covers(gt) and key in p.ints) > 1:
                    raise DataError(f"{origin}: two periods give {key} on GT {gt}")
        self.periods: tuple[WeatherPeriod, ...] = tuple(periods)
        # Per turn: the periods in force, and integer effects by key (the table never changes;
        # the movement rules ask on every unit's reach).
        self._active_memo: dict[int, tuple[WeatherPeriod, ...]] = {}
        self._int_memo: dict[tuple[int, str], int | None] = {}
        self._factor_memo: dict[tuple[int, str], Fraction] = {}

    def _active(self, gt: int) -> tuple[WeatherPeriod, ...]:
        got = self._active_memo.get(gt)
        if got is None:
            if not self.first_turn <= gt <= self.last_turn:
                raise ValueError(f"game turn {gt} is outside {self.first_turn}-{self.last_turn}")
            got = self._active_memo[gt] = tuple(p for p in self.periods if p.covers(gt))
        return got

    def names(self, gt: int) -> tuple[str, ...]:
        """Names of the weather periods in force on turn ``gt`` (e.g. ('freeze', 'winter'))."""
        return tuple(p.name for p in self._active(gt))

    def _factor(self, gt: int, key: str, applies: dict[str, bool] | None = None) -> Fraction:
        if applies is None:
            got = self._factor_memo.get((gt, key))
            if got is None:
                got = self._factor_memo[gt, key] = self._factor_of(gt, key, None)
            return got
        return self._factor_of(gt, key, applies)

    def _factor_of(self, gt: int, key: str, applies: dict[str, bool] | None) -> Fraction:
        f = ONE
        for p in self._active(gt):
            if key in p.factors:
                option = p.options.get(key)
                if option is not None and applies is not None and not applies.get(option, True):
                    continue
                f *= p.factors[key]
        return f

    def _int(self, gt: int, key: str) -> int | None:
        memo = self._int_memo
        if (gt, key) in memo:
            return memo[gt, key]
        got = None
        for p in self._active(gt):
            if key in p.ints:
                got = p.ints[key]
                break
        memo[gt, key] = got
        return got

    def german_column_shift(self, gt: int) -> int:
        """Odds columns every German attack (and overrun) is shifted up (§5.9: +1 on GT 1-4)."""
        return self._int(gt, "german_column_shift") or 0

    def german_attack_factor(
        self, gt: int, *, mechanised: bool, winter_halves_all_german_attacks: bool = True
    ) -> Fraction:
        """Multiplier of a German unit's attack strength (§18: rain, mud, winter; [Q47])."""
        applies = {"winter_halves_all_german_attacks": winter_halves_all_german_attacks or mechanised}
        return self._factor(gt, "german_attack", applies)

    def german_defence_factor(self, gt: int, *, mud_halves_german_defence: bool = True) -> Fraction:
        """Multiplier of a German unit's defence strength (§18 mud, [Q46])."""
        return self._factor(gt, "german_defence", {"mud_halves_german_defence": mud_halves_german_defence})

    def german_ma_factor(self, gt: int, *, mechanised: bool) -> Fraction:
        """Multiplier of a German unit's MA (§18: rain halves all; winter halves mechanised).
        Mud does not halve German MA; it caps the move at one hex ([Q48], :meth:`german_hex_limit`)."""
        f = self._factor(gt, "german_ma")
        if mechanised:
            f *= self._factor(gt, "german_mechanised_ma")
        return f

    def german_hex_limit(self, gt: int) -> int | None:
        """Most hexes a German unit may move in one movement phase (§18 mud: 1), or None."""
        return self._int(gt, "german_hexes_per_phase")

    def soviet_ma_factor(self, gt: int) -> Fraction:
        """Multiplier of a Soviet unit's MA (§18 mud: halved; also for rail-movement costs, [Q49])."""
        return self._factor(gt, "soviet_ma")

    def rivers_and_lakes_frozen(self, gt: int) -> bool:
        """From GT 16 lake and river hexsides count as clear in every respect (§18, §26 note C)."""
        return any("frozen" in p.flags for p in self._active(gt))


@lru_cache(maxsize=1)
def load_weather() -> WeatherTable:
    """The packaged weather table (data/weather.json), read once."""
    data = read_package_json("typhoon.games.tmc", "weather.json")
    return WeatherTable(data)


# Module-level accessors over the packaged table.


def german_column_shift(gt: int) -> int:
    return load_weather().german_column_shift(gt)


def german_attack_factor(
    gt: int, *, mechanised: bool, winter_halves_all_german_attacks: bool = True
) -> Fraction:
    return load_weather().german_attack_factor(
        gt, mechanised=mechanised, winter_halves_all_german_attacks=winter_halves_all_german_attacks
    )


def german_defence_factor(gt: int, *, mud_halves_german_defence: bool = True) -> Fraction:
    return load_weather().german_defence_factor(gt, mud_halves_german_defence=mud_halves_german_defence)


def german_ma_factor(gt: int, *, mechanised: bool) -> Fraction:
    return load_weather().german_ma_factor(gt, mechanised=mechanised)


def german_hex_limit(gt: int) -> int | None:
    return load_weather().german_hex_limit(gt)


def soviet_ma_factor(gt: int) -> Fraction:
    return load_weather().soviet_ma_factor(gt)


def rivers_and_lakes_frozen(gt: int) -> bool:
    return load_weather().rivers_and_lakes_frozen(gt)


def weather_names(gt: int) -> tuple[str, ...]:
    return load_weather().names(gt)
