"""Static evaluation of a TMC position: the German player's expected score in [0, 1].

The victory level (§24) is set by the ratio of German to Soviet VP (German marginal from
more than 3:1), so the evaluation estimates both totals at the end of the game and maps the
log of their ratio through a logistic curve centred on 3:1:

- VP scored so far (``State.vp``: eliminations, front gaps, the Moscow capture);
- the end-of-game awards if the game ended now (victory.py: German units near Moscow, Moscow
  held in supply, Soviet units far west), weighted by how close the end is;
- units out of supply count as half lost (their elimination VP to the opponent);
- open front gaps score again every remaining player turn (§15).
"""

from __future__ import annotations

import math

from typhoon.games.tmc import front, victory
from typhoon.games.tmc.ai.board import elim_vp
from typhoon.games.tmc.rules import GERMAN, SOVIET
from typhoon.games.tmc.state import State
from typhoon.games.tmc.supply import supply_now

SHARPNESS = 2.5  # logistic slope per unit of log(G/S)
WIN_RATIO = 3.0  # §24: German marginal victory needs more than 3:1


def level_score(german_vp: float, soviet_vp: float) -> float:
    """German score for totals: 0.5 at 3:1, toward 1 at 6:1 and beyond, toward 0 at 1:1."""
    z = SHARPNESS * (math.log((german_vp + 1.0) / (soviet_vp + 1.0)) - math.log(WIN_RATIO))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def vp_estimate(s: State) -> tuple[float, float]:
    """(German, Soviet) VP expected at the end of the game, from this position."""
    if s.result is not None:
        return float(s.vp[GERMAN]), float(s.vp[SOVIET])
    rules = s.rules
    g = float(s.vp[GERMAN])
    so = float(s.vp[SOVIET])
    left = max(0, rules.last_turn - max(s.turn, rules.first_turn))  # whole turns after this one
    span = max(1, rules.last_turn - rules.first_turn + 1)
    eog = victory.end_of_game_vp_of(s)
    weight = 1.0 - 0.5 * left / span  # the end is further off: the position may still change
    g += weight * eog.german
    so += weight * eog.soviet
    sup = (supply_now(s, GERMAN).in_supply, supply_now(s, SOVIET).in_supply)
    for side in (GERMAN, SOVIET):
        lost = 0.0
        for u in rules.side_units[side]:
            h = s.loc[u]
            if h >= 0 and not (sup[side] >> h) & 1:
                lost += 0.5 * elim_vp(s, u)
        if side == GERMAN:
            so += lost
        else:
            g += lost
    m = rules.map
    grid = rules.grid
    for side in (GERMAN, SOVIET):
        gaps = front.front_gaps(
            grid,
            s.occ[side],
            s.zoc_units_mask(side),
            north=m.edges.get("north"),
            south=m.edges.get("south"),
            method=rules.opt("front_gap_count"),
        )
        future = gaps * min(left + 1, 3) * 0.5  # gaps get closed; count a few turns at half
        if side == GERMAN:
            so += future
        else:
            g += future
    return g, so


def german_score(s: State) -> float:
    g, so = vp_estimate(s)
    return level_score(g, so)


__all__ = ["german_score", "level_score", "vp_estimate"]
