"""Victory points and victory levels of The Moscow Campaign (rules_en.md §23, §24; [Q62]-[Q67]).

NOTE for the COMBAT and ENGINE helpers: elimination VP are applied where units are eliminated
(combat results, overstack on retreat, no retreat, lone-[#] removal, overrun): call
:func:`elimination_vp` there (or combat.elimination_vp, which applies the same schedule) and credit
the result to the OTHER side of the unit's owner. This module only computes numbers; it keeps no
tallies. Front-gap VP (§15) come from front.py.

What the engine calls and when:
- every elimination / KG conversion: ``unit_elimination_vp(state, u, how)`` (before removing the
  unit) or ``elimination_vp(cf, mechanised=..., kg=..., how=...)``;
- end of every Soviet combat phase, until awarded once: ``moscow_capture_vp(...)`` (50 to the
  Germans, [Q64]; flow.py does this itself with the same definition);
- game end: ``final_result(state)`` -> (result, level text, awards to add), built on
  ``end_of_game_vp`` and ``victory_level``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from typhoon.hexgrid import HexGrid

if TYPE_CHECKING:  # annotations only (the engine's state module imports nothing from here)
    from typhoon.games.tmc.state import State

KG_CF = 2  # the Kampfgruppe counter is a mechanised 2-8 (§8)
MOSCOW_VP = 50
NEAR_MOSCOW_VP = 10  # within 3 hexes
FAIRLY_NEAR_MOSCOW_VP = 5  # 4-5 hexes
FAR_WEST_VP = 10  # per hex 11+ hexes west of the start line
FAR_WEST_DISTANCE = 11

ELIMINATION_HOW = ("eliminated", "kg_conversion")

# §24 levels, from the Soviet side up (thresholds in victory_level: G <= S, 2S, 3S, 4S, < 6S, else).
LEVELS = (
    "soviet_decisive",
    "soviet_substantial",
    "soviet_marginal",
    "german_marginal",
    "german_substantial",
    "german_decisive",
)


def elimination_vp(cf: int, *, mechanised: bool, kg: bool = False, how: str = "eliminated") -> int:
    """VP the opponent scores when a unit of printed CF ``cf`` is eliminated or becomes a KG
    (§23, [Q62], [Q66]): 1 per CF non-mechanised (EB units and [#] units included), 2 per CF
    armour/motorised (any CF, [Q66]), 3 per CF for a KG eliminated; a German mechanised unit of
    4+ CF that becomes a KG (``how="kg_conversion"``) scores 2 x (CF - 2)."""
    if cf < 0:
        raise ValueError(f"negative CF {cf}")
    if how == "eliminated":
        if kg:
            return 3 * cf
        return 2 * cf if mechanised else cf
    if how == "kg_conversion":
        if kg or not mechanised or cf < 4:
            raise ValueError("only a mechanised unit of 4 or more CF becomes a KG (§8)")
        return 2 * (cf - KG_CF)
    raise ValueError(f"how must be one of {ELIMINATION_HOW}")


def holds_moscow(own_occ: int, enemy_occ: int, moscow_mask: int) -> bool:
    """§23 definition: at least one own unit in a Moscow hex and no enemy unit in any Moscow hex
    (enemy ZOC does not matter). ``*_occ`` = hexes holding at least one unit of that side."""
    return bool(own_occ & moscow_mask) and not enemy_occ & moscow_mask


def holds_moscow_in_supply(own_occ: int, enemy_occ: int, moscow_mask: int, own_in_supply: int) -> bool:
    """Holding Moscow with at least one own unit in Moscow in supply ([Q64]); ``own_in_supply`` =
    the side's Supply.in_supply bitset."""
    return holds_moscow(own_occ, enemy_occ, moscow_mask) and bool(own_occ & moscow_mask & own_in_supply)


def moscow_capture_vp(
    already_awarded: bool, german_occ: int, soviet_occ: int, moscow_mask: int, german_in_supply: int
) -> int:
    """50 to the Germans, once per game ([Q64]), when at the end of a Soviet combat phase they hold
    Moscow in supply; 0 otherwise. The caller records that it was awarded."""
    if already_awarded:
        return 0
    return MOSCOW_VP if holds_moscow_in_supply(german_occ, soviet_occ, moscow_mask, german_in_supply) else 0


def moscow_proximity_vp(grid: HexGrid, german_unit_hexes: Iterable[int], moscow: Iterable[int]) -> int:
    """§23, [Q63]: every German unit (KG and EB included, one entry per unit, not per hex) scores
    10 VP at hex distance <= 3 from the nearest Moscow hex and 5 VP at distance 4 or 5."""
    ms = tuple(moscow)
    total = 0
    for h in german_unit_hexes:
        d = min(grid.distance(h, m) for m in ms)
        if d <= 3:
            total += NEAR_MOSCOW_VP
        elif d <= 5:
            total += FAIRLY_NEAR_MOSCOW_VP
    return total


def far_west_hexes(grid: HexGrid, line_hexes: Iterable[int], west_of_line: int) -> int:
    """Bitset of the hexes that score the Soviet 10 VP when held by an in-supply Soviet unit ([Q65]):
    west of the start line and at hex distance >= 11 from every start-line hex."""
    near = grid.mask(line_hexes)
    frontier = near
    for _ in range(FAR_WEST_DISTANCE - 1):
        frontier = grid.expand(frontier) & ~near
        near |= frontier
    return west_of_line & ~near


def far_west_vp(soviet_occ: int, soviet_in_supply: int, far_west: int) -> int:
    """10 VP per hex of ``far_west`` holding an in-supply Soviet unit (per hex, not per unit)."""
    return FAR_WEST_VP * (soviet_occ & soviet_in_supply & far_west).bit_count()


@dataclass(frozen=True)
class EndOfGameVP:
    """The end-of-game parts of the §23 schedule (elimination, gap and capture VP are scored during play)."""

    german_near_moscow: int
    german_moscow: int
    soviet_moscow: int
    soviet_far_west: int

    @property
    def german(self) -> int:
        return self.german_near_moscow + self.german_moscow

    @property
    def soviet(self) -> int:
        return self.soviet_moscow + self.soviet_far_west


def end_of_game_vp(
    grid: HexGrid,
    *,
    german_unit_hexes: Iterable[int],
    german_occ: int,
    soviet_occ: int,
    german_in_supply: int,
    soviet_in_supply: int,
    moscow: Iterable[int],
    far_west: int,
) -> EndOfGameVP:
    """§23 at game end: German units near Moscow, Moscow held in supply (50 to that side) and
    Soviet in-supply units far west of the start line (``far_west`` from :func:`far_west_hexes`)."""
    ms = tuple(moscow)
    mm = grid.mask(ms)
    return EndOfGameVP(
        german_near_moscow=moscow_proximity_vp(grid, german_unit_hexes, ms),
        german_moscow=MOSCOW_VP
        if holds_moscow_in_supply(german_occ, soviet_occ, mm, german_in_supply)
        else 0,
        soviet_moscow=MOSCOW_VP
        if holds_moscow_in_supply(soviet_occ, german_occ, mm, soviet_in_supply)
        else 0,
        soviet_far_west=far_west_vp(soviet_occ, soviet_in_supply, far_west),
    )


def victory_level(german_vp: int | Fraction, soviet_vp: int | Fraction) -> str:
    """§24 level from German VP : Soviet VP, compared exactly (G <= k*S), [Q67] zero cases:
    0:0 counts as 1:1 (Soviet decisive); G > 0 with S = 0 is German decisive."""
    g, s = german_vp, soviet_vp
    if g < 0 or s < 0:
        raise ValueError("victory points cannot be negative")
    if g <= s:
        return LEVELS[0]
    if g <= 2 * s:
        return LEVELS[1]
    if g <= 3 * s:
        return LEVELS[2]
    if g <= 4 * s:
        return LEVELS[3]
    if g < 6 * s:
        return LEVELS[4]
    return LEVELS[5]


def vp_ratio(german_vp: int | Fraction, soviet_vp: int | Fraction) -> float:
    """German VP per Soviet VP: the number §24's levels cut (at 1, 2, 3, 4 and 6), so ordering
    games by it orders them by level first. [Q67]'s zero cases keep that order: 0:0 is 0 (Soviet
    decisive), G > 0 with S = 0 is 1e9 x G (German decisive, beyond any finite ratio)."""
    if soviet_vp:
        return float(german_vp) / float(soviet_vp)
    return 1e9 * float(german_vp)


# --- On a game State (the ENGINE helper's state.py) ---------------------------------------------

LEVEL_TEXT = {
    "soviet_decisive": "Soviet decisive victory",
    "soviet_substantial": "Soviet substantial victory",
    "soviet_marginal": "Soviet marginal victory",
    "german_marginal": "German marginal victory",
    "german_substantial": "German substantial victory",
    "german_decisive": "German decisive victory",
}


def unit_elimination_vp(state: State, u: int, how: str = "eliminated") -> int:
    """:func:`elimination_vp` for unit ``u`` of ``state`` as it stands: call it BEFORE the unit is
    removed or marked as a KG (a KG conversion counts the printed CF; a KG counter counts 3/CF)."""
    kg = bool((state.kg >> u) & 1)
    return elimination_vp(state.cf(u), mechanised=state.is_mech(u), kg=kg, how=how)


def end_of_game_vp_of(state: State) -> EndOfGameVP:
    """The §23 end-of-game VP of ``state`` (supply judged as the position stands)."""
    from typhoon.games.tmc.rules import GERMAN, SOVIET
    from typhoon.games.tmc.supply import supply_now

    rules = state.rules
    far = far_west_hexes(rules.grid, rules.start_line_hexes, rules.west_mask)
    return end_of_game_vp(
        rules.grid,
        german_unit_hexes=[state.loc[u] for u in state.on_map(GERMAN)],
        german_occ=state.occ[GERMAN],
        soviet_occ=state.occ[SOVIET],
        german_in_supply=supply_now(state, GERMAN).in_supply,
        soviet_in_supply=supply_now(state, SOVIET).in_supply,
        moscow=rules.map.moscow,
        far_west=far,
    )


def final_result(state: State) -> tuple[str, str, list[tuple[int, int, str]]]:
    """Game end (§23, §24): (result "german"/"soviet", level text, awards) where awards are
    (side, VP, why) still to be added to ``state.vp`` (the caller adds them and reports them)."""
    from typhoon.games.tmc.rules import GERMAN, SOVIET

    vp = end_of_game_vp_of(state)
    awards = [
        (GERMAN, vp.german_near_moscow, "German units within 5 hexes of Moscow"),
        (GERMAN, vp.german_moscow, "holding Moscow in supply at game end"),
        (SOVIET, vp.soviet_moscow, "holding Moscow in supply at game end"),
        (SOVIET, vp.soviet_far_west, "in-supply units 11+ hexes west of the start line"),
    ]
    german = state.vp[GERMAN] + vp.german
    soviet = state.vp[SOVIET] + vp.soviet
    level = victory_level(german, soviet)
    return ("german" if level.startswith("german") else "soviet"), LEVEL_TEXT[level], awards
