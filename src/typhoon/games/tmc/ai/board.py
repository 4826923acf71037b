"""What the TMC AI knows about the board: static facts per ruleset (distance to Moscow, terrain)
and per-position facts computed once per plan (supply, ZOC, unit strengths, threat maps).

Everything is bitsets over hex indices or flat lists indexed by hex, so scoring a destination is
a few list look-ups.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from typhoon.games.tmc import combat
from typhoon.games.tmc.combat_phase import piece
from typhoon.games.tmc.rules import GERMAN, SOVIET, Rules
from typhoon.games.tmc.state import State
from typhoon.hexgrid import bit_list

FAR = 99  # distance used for "no such hex nearby"


@dataclass(frozen=True)
class Board:
    """Facts of one ruleset that never change during a game."""

    rules: Rules
    dist_moscow: tuple[int, ...]  # hex distance to the nearest Moscow hex (FAR off the map)
    forest: int
    river_count: tuple[int, ...]  # river hexsides of each hex (0..6)
    west_mask: int  # hexes west of the start line


_BOARDS: dict[int, tuple[Rules, Board]] = {}


def layers(grid: Any, seeds: int, limit: int) -> list[int]:
    """Ring bitsets: layers[k] = hexes at distance exactly k from ``seeds`` (k <= limit)."""
    out = [seeds]
    seen = seeds
    for _ in range(limit):
        nxt = grid.expand(out[-1]) & ~seen
        if not nxt:
            break
        out.append(nxt)
        seen |= nxt
    return out


def distance_map(grid: Any, seeds: int, limit: int = FAR) -> list[int]:
    """Per hex index: distance to the nearest hex of ``seeds`` (FAR beyond ``limit``)."""
    d = [FAR] * grid.size
    if not seeds:
        return d
    for k, ring in enumerate(layers(grid, seeds, limit)):
        for h in bit_list(ring):
            d[h] = k
    return d


def board_of(rules: Rules) -> Board:
    got = _BOARDS.get(id(rules))
    if got is not None and got[0] is rules:
        return got[1]
    m = rules.map
    grid = rules.grid
    dm = distance_map(grid, m.moscow_mask)
    rc = [0] * grid.size
    for h in grid.hexes:
        rc[h] = bin(m.river_mask[h]).count("1")
    b = Board(rules, tuple(dm), m.forest_mask, tuple(rc), rules.west_mask)
    _BOARDS[id(rules)] = (rules, b)
    return b


# -- per-position facts ------------------------------------------------------------------------


def elim_vp(s: State, u: int) -> int:
    """VP the opponent scores if ``u`` is removed by a combat result now (a KG conversion for a
    German mechanised unit of CF 4+, §8)."""
    p = piece(s, u)
    if combat.becomes_kg(p):
        return combat.kg_conversion_vp(p)[1]
    return combat.elimination_vp(p)[1]


def vp_per_cf(s: State, u: int) -> float:
    cf = s.cf(u)
    return elim_vp(s, u) / cf if cf else 1.0


class Situation:
    """Facts of one position from the point of view of ``side``, built once per plan."""

    def __init__(self, s: State, side: int, supply_now: bool = False) -> None:
        from typhoon.games.tmc import flow

        self.s = s
        self.side = side
        self.enemy = 1 - side
        self.board = board_of(s.rules)
        self.grid = s.rules.grid
        self.cond = combat.conditions_for_turn(max(s.turn, 1))
        self.opts = combat.CombatOptions.from_options(s.rules.options)
        self.crt = combat.load_crt()
        if supply_now or min(s.supply) < 0:
            self.supply = [flow.german_supply_mask(s), flow.soviet_supply_mask(s)]
        else:
            self.supply = list(s.supply)
        self.own_occ = s.occ[side]
        self.enemy_occ = s.occ[self.enemy]
        self.enemy_zoc = s.zoc(self.enemy)
        self.own_zoc = s.zoc(side)
        self._enemy_dist: list[int] | None = None
        self._threat: list[float] | None = None

    # strengths --------------------------------------------------------------------------------

    def in_supply_at(self, side: int, h: int) -> bool:
        return bool((self.supply[side] >> h) & 1)

    def attack_of(self, u: int, at: int | None = None) -> Fraction:
        s = self.s
        h = s.loc[u] if at is None else at
        side = s.rules.units[u].side
        return combat.attack_strength(piece(s, u), self.in_supply_at(side, h), self.cond, self.opts)

    def defence_of(self, u: int, at: int | None = None) -> Fraction:
        s = self.s
        h = s.loc[u] if at is None else at
        side = s.rules.units[u].side
        return combat.defence_strength(
            piece(s, u),
            self.in_supply_at(side, h),
            self.cond,
            entrained=bool((s.entrained >> u) & 1),
            opts=self.opts,
        )

    def hex_defence(self, h: int) -> Fraction:
        return sum((self.defence_of(u) for u in self.s.stacks.get(h, ())), Fraction(0))

    def hex_vp(self, h: int) -> int:
        return sum(elim_vp(self.s, u) for u in self.s.stacks.get(h, ()))

    # maps -------------------------------------------------------------------------------------

    def enemy_dist(self) -> list[int]:
        """Per hex: distance to the nearest enemy unit (capped at 12)."""
        if self._enemy_dist is None:
            self._enemy_dist = distance_map(self.grid, self.enemy_occ, 12)
        return self._enemy_dist

    def threat(self) -> list[float]:
        """Per hex: enemy attack strength that could reach a hex next to it next turn (every
        enemy unit counts within its movement allowance, halved for mud/rain)."""
        if self._threat is None:
            s = self.s
            t = [0.0] * self.grid.size
            for u in s.rules.side_units[self.enemy]:
                h = s.loc[u]
                if h < 0 or s.rules.units[u].eb or s.cf(u) <= 0:
                    continue
                r = max(2, min(7, s.ma(u) // 2 + 1))
                a = float(self.attack_of(u))
                for x in bit_list(self.grid.within(h, r)):
                    t[x] += a
            self._threat = t
        return self._threat

    def retreat_room(self, h: int, side: int) -> int:
        """Hexes a unit of ``side`` on ``h`` could retreat to (enemy occupancy and ZOC as now)."""
        s = self.s
        m = self.grid.neighbour_mask[h]
        if not self.cond.frozen:
            m &= ~s.rules.map.lake_mask[h]
        enemy_occ = s.occ[1 - side]
        ezoc = s.zoc(1 - side)
        return m & ~enemy_occ & ~(ezoc & ~s.occ[side])


def side_name(side: int) -> str:
    return "German" if side == GERMAN else "Soviet"


__all__ = [
    "FAR",
    "GERMAN",
    "SOVIET",
    "Board",
    "Situation",
    "board_of",
    "distance_map",
    "elim_vp",
    "layers",
    "piece",
    "side_name",
    "vp_per_cf",
]
