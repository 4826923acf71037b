"""Weather by game turn (rules_en.md §18, §5.9, §26 note C; readings [Q46]-[Q49])."""

from __future__ import annotations

import copy
from fractions import Fraction

import pytest

from typhoon.datafile import read_package_json
from typhoon.errors import DataError
from typhoon.games.tmc import weather as w

HALF = Fraction(1, 2)
ONE = Fraction(1)


def test_period_names_per_turn() -> None:
    """§18: GT 1-4 none listed, 5 rain, 6-15 mud, 16-31 freeze, 23-31 winter in addition."""
    expected = {1: (), 4: (), 5: ("rain",), 6: ("mud",), 15: ("mud",), 16: ("freeze",), 22: ("freeze",)}
    expected |= {23: ("freeze", "winter"), 31: ("freeze", "winter")}
    for gt, names in expected.items():
        assert tuple(n for n in w.weather_names(gt) if n != "fair") == names, gt


def test_german_column_shift_only_on_turns_1_to_4() -> None:
    """§5.9, §6: every German attack is shifted one column up on GT 1-4 only."""
    assert [w.german_column_shift(gt) for gt in range(1, 8)] == [1, 1, 1, 1, 0, 0, 0]
    assert w.german_column_shift(31) == 0


def test_german_attack_factor_by_turn() -> None:
    """§18: rain (GT 5), mud (6-15) and winter (23-31) halve German attacks; fair/freeze do not."""
    for gt in (1, 4, 16, 22):
        assert w.german_attack_factor(gt, mechanised=False) == ONE, gt
    for gt in (5, 6, 15, 23, 31):
        assert w.german_attack_factor(gt, mechanised=False) == HALF, gt
        assert w.german_attack_factor(gt, mechanised=True) == HALF, gt


def test_winter_attack_halving_option_q47() -> None:
    """[Q47]: default halves all German attacks in winter; option off: only mechanised units."""
    off = {"winter_halves_all_german_attacks": False}
    assert w.german_attack_factor(23, mechanised=False, **off) == ONE
    assert w.german_attack_factor(23, mechanised=True, **off) == HALF
    # The option governs winter only: rain and mud still halve every German attack.
    assert w.german_attack_factor(5, mechanised=False, **off) == HALF
    assert w.german_attack_factor(10, mechanised=False, **off) == HALF


def test_german_defence_factor_mud_option_q46() -> None:
    """§18 mud halves German 'combat strength': [Q46] default attack and defence; option off = attack only."""
    assert [w.german_defence_factor(gt) for gt in (4, 5, 6, 15, 16, 23)] == [ONE, ONE, HALF, HALF, ONE, ONE]
    assert w.german_defence_factor(10, mud_halves_german_defence=False) == ONE


def test_movement_factors() -> None:
    """§18: rain halves German MA; mud limits Germans to one hex ([Q48], MA not halved) and halves
    Soviet MA; winter halves German mechanised MA only."""
    assert w.german_ma_factor(5, mechanised=False) == HALF
    assert w.german_ma_factor(5, mechanised=True) == HALF
    assert w.german_ma_factor(10, mechanised=True) == ONE
    assert w.german_hex_limit(10) == 1
    assert w.german_hex_limit(5) is None and w.german_hex_limit(16) is None
    assert w.german_ma_factor(23, mechanised=True) == HALF
    assert w.german_ma_factor(23, mechanised=False) == ONE
    assert w.german_ma_factor(22, mechanised=True) == ONE
    assert [w.soviet_ma_factor(gt) for gt in (5, 6, 15, 16, 23)] == [ONE, HALF, HALF, ONE, ONE]


def test_freeze_from_turn_16() -> None:
    """§18, §26 note C: lakes and rivers frozen from GT 16 on."""
    assert not w.rivers_and_lakes_frozen(15)
    assert all(w.rivers_and_lakes_frozen(gt) for gt in range(16, 32))


def test_turn_outside_the_game_is_refused() -> None:
    with pytest.raises(ValueError):
        w.german_attack_factor(32, mechanised=False)
    with pytest.raises(ValueError):
        w.rivers_and_lakes_frozen(0)


def _raw() -> dict:  # type: ignore[type-arg]
    return read_package_json("typhoon.games.tmc", "weather.json")  # type: ignore[no-any-return]


def test_data_file_has_seed_provenance() -> None:
    assert w.load_weather().provenance["status"] == "seed"


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d["periods"][1]["effects"].update(german_attack="2"),
        lambda d: d["periods"][1]["effects"].update(snow="1/2"),
        lambda d: d["periods"][1].update(last=40),
        lambda d: d["periods"][2]["options"].update(german_attack="mud_halves_german_defence"),
        lambda d: d["provenance"].update(status="guess"),
        lambda d: d.pop("periods"),
    ],
)
def test_malformed_data_is_a_data_error(mutate) -> None:  # type: ignore[no-untyped-def]
    data = copy.deepcopy(_raw())
    mutate(data)
    with pytest.raises(DataError):
        w.WeatherTable(data)
