"""Victory points and levels (rules_en.md §23, §24; readings [Q62]-[Q67])."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from typhoon.games.tmc.victory import (
    LEVELS,
    elimination_vp,
    end_of_game_vp,
    far_west_hexes,
    far_west_vp,
    holds_moscow,
    holds_moscow_in_supply,
    moscow_capture_vp,
    moscow_proximity_vp,
    victory_level,
    vp_ratio,
)
from typhoon.hexgrid import HexGrid

G = HexGrid(30, 20, 20, "even")
MOSCOW = (G.idx("2010"), G.idx("2011"), G.idx("2110"))
MM = G.mask(MOSCOW)


def m(*hids: str) -> int:
    return G.mask(G.idx(x) for x in hids)


# --- §24 levels ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("g", "s", "level"),
    [
        (10, 10, "soviet_decisive"),  # 1:1 or less
        (5, 10, "soviet_decisive"),
        (11, 10, "soviet_substantial"),  # more than 1:1
        (20, 10, "soviet_substantial"),  # 2:1 exactly
        (21, 10, "soviet_marginal"),
        (30, 10, "soviet_marginal"),  # 3:1 exactly: Soviet marginal [Q67]
        (31, 10, "german_marginal"),  # more than 3:1
        (40, 10, "german_marginal"),  # 4:1 exactly: German marginal [Q67]
        (41, 10, "german_substantial"),  # more than 4:1
        (59, 10, "german_substantial"),  # below 6:1
        (60, 10, "german_decisive"),  # 6:1 exactly: German decisive [Q67]
        (0, 0, "soviet_decisive"),  # 0:0 counts as 1:1 [Q67]
        (1, 0, "german_decisive"),  # G > 0, S = 0: infinite ratio [Q67]
        (0, 5, "soviet_decisive"),
        (Fraction(61, 2), 10, "german_marginal"),  # 30.5 > 3 x 10: exact, no float rounding
    ],
)
def test_victory_levels_q67(g: int, s: int, level: str) -> None:
    """§24 ratio table with exact boundaries, [Q67]."""
    assert victory_level(g, s) == level


def test_negative_vp_refused() -> None:
    with pytest.raises(ValueError):
        victory_level(-1, 0)


# --- elimination VP (§23, [Q62], [Q66]) -----------------------------------------------------------


def test_elimination_vp() -> None:
    """§23: 1/CF non-mechanised (EB units too), 2/CF armour and motorised (also under 4 CF, [Q66]),
    3/CF for a KG; KG conversion of a 6-CF panzer = (6 - 2) x 2 = 8, the KG dying later = 6 ([Q62])."""
    assert elimination_vp(3, mechanised=False) == 3
    assert elimination_vp(1, mechanised=False) == 1  # an EB unit (1)
    assert elimination_vp(5, mechanised=True) == 10
    assert elimination_vp(3, mechanised=True) == 6  # [Q66]: no KG below 4 CF, 2/CF
    assert elimination_vp(6, mechanised=True, how="kg_conversion") == 8
    assert elimination_vp(4, mechanised=True, how="kg_conversion") == 4
    assert elimination_vp(2, mechanised=True, kg=True) == 6
    with pytest.raises(ValueError):
        elimination_vp(3, mechanised=True, how="kg_conversion")
    with pytest.raises(ValueError):
        elimination_vp(6, mechanised=False, how="kg_conversion")
    with pytest.raises(ValueError):
        elimination_vp(6, mechanised=True, how="surrendered")


# --- Moscow --------------------------------------------------------------------------------------


def test_holding_moscow_definition() -> None:
    """§23 (*): own unit in at least one Moscow hex and no enemy unit in any Moscow hex; enemy
    ZOC does not matter."""
    assert holds_moscow(m("2010"), m("2012"), MM)  # Soviet next door: ZOC only
    assert not holds_moscow(m("2010"), m("2110"), MM)  # Soviet still in another Moscow hex
    assert not holds_moscow(m("1910"), 0, MM)


def test_holding_moscow_in_supply_q64() -> None:
    """[Q64]: at least one of the side's units in Moscow must be in supply."""
    assert holds_moscow_in_supply(m("2010", "2011"), 0, MM, m("2011"))
    assert not holds_moscow_in_supply(m("2010", "2011"), 0, MM, m("1910"))


def test_moscow_capture_award_once_q64() -> None:
    """§23, [Q64]: 50 VP to the Germans at the end of a Soviet combat phase when they hold Moscow in
    supply; once per game."""
    assert moscow_capture_vp(False, m("2010"), 0, MM, m("2010")) == 50
    assert moscow_capture_vp(True, m("2010"), 0, MM, m("2010")) == 0
    assert moscow_capture_vp(False, m("2010"), m("2011"), MM, m("2010")) == 0
    assert moscow_capture_vp(False, m("2010"), 0, MM, 0) == 0


def test_german_units_near_moscow_q63() -> None:
    """§23, [Q63]: per unit, hex distance to the nearest Moscow hex: <= 3 -> 10, 4-5 -> 5, 6+ -> 0.
    A stack counts per unit (hexes listed once per unit)."""
    d = {hid: min(G.distance(G.idx(hid), x) for x in MOSCOW) for hid in ("1710", "1610", "1510", "1410")}
    assert d == {"1710": 3, "1610": 4, "1510": 5, "1410": 6}
    at = [G.idx(x) for x in ("2010", "1710", "1710", "1610", "1510", "1410")]
    assert moscow_proximity_vp(G, at, MOSCOW) == 10 + 10 + 10 + 5 + 5 + 0


def test_far_west_hexes_q65() -> None:
    """§23, [Q65]: start line = column 15, west of it columns 1-14; a hex scores when its distance
    to the nearest line hex is >= 11: columns 1-4 (distance 11-14), not column 5 (10)."""
    line = [G.idx(f"15{r:02d}") for r in range(1, 21)]
    west = G.mask(G.idx(f"{c:02d}{r:02d}") for c in range(1, 15) for r in range(1, 21))
    far = far_west_hexes(G, line, west)
    assert far >> G.idx("0410") & 1 and far >> G.idx("0101") & 1
    assert not far >> G.idx("0510") & 1
    assert not far & ~west
    soviet = m("0410", "0411", "0510")
    assert far_west_vp(soviet, m("0410", "0510"), far) == 10  # 0411 out of supply, 0510 too near
    assert far_west_vp(soviet, soviet, far) == 20  # per hex, whatever the stack size


def test_end_of_game_vp() -> None:
    """§23 end-of-game parts together: Germans hold Moscow in supply (50) with units at distance
    0 and 4 (10 + 5); a far-west Soviet unit in supply scores 10."""
    line = [G.idx(f"15{r:02d}") for r in range(1, 21)]
    west = G.mask(G.idx(f"{c:02d}{r:02d}") for c in range(1, 15) for r in range(1, 21))
    far = far_west_hexes(G, line, west)
    ger = m("2010", "1610")
    sov = m("0310")
    vp = end_of_game_vp(
        G,
        german_unit_hexes=[G.idx("2010"), G.idx("1610")],
        german_occ=ger,
        soviet_occ=sov,
        german_in_supply=ger,
        soviet_in_supply=sov,
        moscow=MOSCOW,
        far_west=far,
    )
    assert (vp.german, vp.soviet) == (65, 10)
    assert vp.german_moscow == 50 and vp.soviet_moscow == 0


@given(st.integers(0, 400), st.integers(0, 400), st.integers(0, 400), st.integers(0, 400))
def test_vp_ratio_orders_games_by_level_first(g1: int, s1: int, g2: int, s2: int) -> None:
    """§24: the level is a function of G : S; the paired-match margin (vp_ratio) must never put a
    game of a lower level above one of a higher level, [Q67]'s zero cases included."""
    rank1, rank2 = LEVELS.index(victory_level(g1, s1)), LEVELS.index(victory_level(g2, s2))
    if rank1 > rank2:
        assert vp_ratio(g1, s1) > vp_ratio(g2, s2)


def test_result_margin_of_a_finished_game() -> None:
    from typhoon.games.tmc.engine import new_game, result_margin

    s = new_game("1")
    s.vp = [99, 90]
    assert result_margin(s) == pytest.approx(1.1)
    s.vp = [5, 0]
    assert result_margin(s) > 1e6  # German decisive ([Q67]) beats any finite ratio
