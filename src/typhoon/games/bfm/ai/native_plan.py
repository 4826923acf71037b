"""Movement plans in the native core, for the search's roll-outs (issue 17 item 4).

A roll-out spends about half its time in :func:`typhoon.games.bfm.ai.movement.plan_moves`
with the Soviet scorer and the German after-combat scorer (:mod:`typhoon.games.bfm.ai.scoring`):
the greedy loop re-scores a few hundred (unit, hex) pairs after every placement. The native
core (``_bfmcore.plan_greedy``, in ``native/bfmcore.c``) runs that loop and those two scores
in C: the same floating-point operations in the same order (the same doubles; built with
``-ffp-contract=off``), the same tie-breaking by table order. Everything the scorer worked out
from the position (approach costs, gates, threats, panzer reach) is taken from the Python
scorer as it stands; the C side only adds up.

:func:`native_plan` returns None where it cannot answer exactly as ``plan_moves`` would (the
core not built or ``TYPHOON_NO_NATIVE=1``, a German panzer-phase scorer, noise, notes wanted,
a scorer already given placements): the caller then plans in Python. tests/test_ai_native_plan.py
compares the two plan by plan, and whole searches with and without the core.
"""

from __future__ import annotations

from typing import Any

from typhoon.games.bfm import native
from typhoon.games.bfm.ai.board import planner_tables
from typhoon.games.bfm.ai.combat import ELIM_BONUS, MY_W
from typhoon.games.bfm.ai.movement import MovePlan, Scorer, movers, staying_occ
from typhoon.games.bfm.ai.scoring import GermanScorer, SovietScorer
from typhoon.games.bfm.movement_phase import options
from typhoon.games.bfm.rules import GERMAN, SOVIET
from typhoon.games.bfm.state import State


def _taken(s: State, side: int) -> int:
    """Hexes of the cities ``side`` does not control (``city_controller_at(h) != side``)."""
    m = 0
    for i, c in enumerate(s.rules.map.cities):
        if s.controller(i) != side:
            m |= 1 << c.hex
    return m


def native_plan(s: State, scorer: Scorer) -> MovePlan | None:
    """``plan_moves(s, scorer, notes=False)`` (no noise) computed by the native core, or None
    where the core cannot give exactly that plan (then plan in Python)."""
    if not native.available():
        return None
    if isinstance(scorer, SovietScorer):
        kind = 0
    elif isinstance(scorer, GermanScorer) and not scorer.before_combat and not scorer.planned:
        kind = 1
    else:
        return None
    if not getattr(scorer, "local", False) or scorer.radius not in (1, 2) or scorer.s is not s:
        return None
    b = scorer.b
    rules = s.rules
    side = s.side
    units = movers(s)
    plan0 = staying_occ(s, units)
    if scorer.plan_occ != plan0:  # placements already told to the scorer
        return None
    loc, steps = s.loc, s.steps
    specs = rules.units
    rows = []
    for u in units:
        spec = specs[u]
        st = steps[u]
        rows.append(
            (
                loc[u],
                options(s, u).dmask | (1 << loc[u]),
                spec.strength(st),
                spec.loss(st),
                st,
                int(spec.panzer),
            )
        )
    index = {u: i for i, u in enumerate(units)}
    order = [index[u] for u in set(units)]  # the order plan_moves' set of movers iterates
    w = scorer.w
    inputs: dict[str, Any] = {
        "kind": kind,
        "radius": scorer.radius,
        "plan": plan0,
        "enemy": s.occ[1 - side],
        "unplaced": s.occ[side] & ~plan0,
        "plan_occ": scorer.plan_occ,
        "w_cohesion": w.cohesion,
        "w_exposure": w.exposure,
        "elim_bonus": ELIM_BONUS,
        "city_v": scorer.city_v,
    }
    if isinstance(scorer, SovietScorer):
        inputs.update(
            my_w=MY_W[SOVIET],
            taken=_taken(s, SOVIET),
            vacate=scorer.vacate_value,
            final=int(scorer.final),
            garrison_v=scorer.garrison_v,
            retake_v=scorer.retake_moscow_v,
            ring_v=scorer.ring_v,
            w_terrain=w.terrain,
            w_river=w.river,
            w_cover=w.cover,
            cover_occ=scorer.cover_occ,
            ger_occ=scorer.ger_occ,
            ger_zoc=scorer.ger_zoc,
            dg=scorer.dg,
            inf_adj=scorer.inf_adj,
            gate=scorer.gate,
            panzers=[(b.within_mask(h, scorer.reach), st) for h, st in scorer.panzers],
        )
    else:
        inputs.update(
            my_w=MY_W[GERMAN],
            taken=_taken(s, GERMAN),
            vacate=scorer._vacate_value,
            prog_w=scorer.prog_w,
            moscow_v=scorer.moscow_v,
            w_contact=w.contact,
            late=scorer.late,
            sov_occ=scorer.sov_occ,
            sov_block=scorer.sov_block,
            threat=scorer.threat,
        )
    steps_, stays, placed, value = native.core_module().plan_greedy(planner_tables(b), rows, order, inputs)
    plan = MovePlan(
        steps=[(units[i], h) for i, h in steps_],
        stays=[units[i] for i in stays],
        notes={units[i]: "" for i in placed},
        value=value,
    )
    dest = dict(plan.steps)
    for i in placed:  # the scorer told of the placements, as plan_moves tells it
        u = units[i]
        scorer.assign(u, dest.get(u, loc[u]))
    return plan


__all__ = ["native_plan"]
