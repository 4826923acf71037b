"""Features of a position for the static evaluation (German point of view).

Few and cheap: who holds Moscow, how close the German spearheads are, how much strength
each side has on the map and around Moscow, and the cities held. The weights that turn them
into a winning chance are fitted on self-play games (see :mod:`typhoon.games.bfm.ai.evaluate`).
"""

from __future__ import annotations

from typhoon.games.bfm.ai.board import board_of
from typhoon.games.bfm.rules import GERMAN, SOVIET
from typhoon.games.bfm.state import State

NAMES = (
    "bias",
    "g_moscow",  # Moscow German-controlled
    "g_in_moscow",  # a German unit in Moscow
    "s_in_moscow",  # Soviet strength in Moscow / 8
    "g_min_cost",  # movement points from the nearest German unit to Moscow / 10
    "g_close",  # German strength weighted by nearness to Moscow / 50
    "s_ring",  # Soviet strength within 3 hexes of Moscow, weighted by nearness / 40
    "s_total",  # Soviet strength on the map / 100
    "s_units",  # Soviet units on the map / 17
    "g_total",  # German strength on the map / 150
    "g_panzer",  # German panzer strength on the map / 90
    "g_cities",  # cities held by the German / 11
    "s_block",  # Soviet strength nearer Moscow than the nearest German / 60
)


def features(s: State) -> list[float]:
    rules = s.rules
    b = board_of(rules)
    moscow = b.moscow
    mcost = b.mcost
    mdist = b.mdist
    g_moscow = 1.0 if s.city_controller_at(moscow) == GERMAN else 0.0
    occupant = s.at[moscow]
    g_in = s_in = 0.0
    if occupant >= 0:
        if rules.units[occupant].side == GERMAN:
            g_in = 1.0
        else:
            s_in = s.strength(occupant) / 8.0
    g_min = 99
    g_close = g_total = g_pz = 0.0
    for u in rules.side_units[GERMAN]:
        h = s.loc[u]
        if h < 0:
            continue
        st = s.strength(u)
        c = mcost[h]
        if c < g_min:
            g_min = c
        g_total += st
        if rules.units[u].panzer:
            g_pz += st
        if c < 8:
            g_close += st * (8 - c) / 8
    s_ring = s_total = s_block = 0.0
    s_units = 0
    for u in rules.side_units[SOVIET]:
        h = s.loc[u]
        if h < 0:
            continue
        st = s.strength(u)
        s_total += st
        s_units += 1
        d = mdist[h]
        if d <= 3:
            s_ring += st * (4 - d) / 4
        if mcost[h] < g_min:
            s_block += st
    cities = s.control.bit_count()
    return [
        1.0,
        g_moscow,
        g_in,
        s_in,
        min(g_min, 20) / 10.0,
        g_close / 50.0,
        s_ring / 40.0,
        s_total / 100.0,
        s_units / 17.0,
        g_total / 150.0,
        g_pz / 90.0,
        cities / 11.0,
        s_block / 60.0,
    ]


__all__ = ["NAMES", "features"]
