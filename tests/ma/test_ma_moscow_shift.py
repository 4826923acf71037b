"""MA-T1 (reference pack gaps.md; rules_en.md 3.4, reconstruction): the column shift for defending
Moscow is an option, ``moscow_shift``: -3 with the cap on terrain shifts lowered to -3 for Moscow
only (the default since the calibration of 4 December, docs/MA_CALIBRATION.md), or -2 (the pack's
proposal and its cap)."""

from __future__ import annotations

from typhoon.games.ma.engine import MOSCOW, odds
from typhoon.games.ma.rules import hex_index
from typhoon.games.ma.state import Battle

from .world import world


def _moscow_odds(shift: str | None) -> tuple[int, list[str]]:
    options = {"moscow_shift": shift} if shift else None
    s = world({"24A": "I7", "4PzGp": "I6", "46PzK": "I6", "9A": "H6"}, phase="g_operational", options=options)
    r = s.rules
    attackers = tuple(r.unit_index[u] for u in ("4PzGp", "46PzK", "9A"))
    return odds(s, Battle(MOSCOW, attackers))


def test_moscow_is_attacked_three_columns_lower_by_default() -> None:
    # 12 attack factors against 24A's 4: 3:1, three columns down for the capital: 1:1.
    col, why = _moscow_odds(None)
    assert why[0] == "12:4 -> 3:1" and "-3 terrain (3.4)" in why
    assert col == 7 - 3


def test_moscow_two_columns_lower_with_the_packs_value() -> None:
    col, why = _moscow_odds("-2")
    assert "-2 terrain (3.4)" in why and col == 7 - 2


def test_the_option_changes_no_other_hex() -> None:
    # Vyazma (a city across a river from H2) is attacked at the same odds under both readings.
    seen = []
    for shift in ("-2", "-3"):
        s = world({"32A": "H3", "4A": "H2"}, phase="g_operational", options={"moscow_shift": shift})
        seen.append(odds(s, Battle(hex_index("H3"), (s.rules.unit_index["4A"],))))
    assert seen[0] == seen[1] and "-2 terrain (3.4)" in seen[0][1]
