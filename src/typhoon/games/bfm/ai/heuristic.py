"""The ``heuristic`` level: rules of thumb a good player uses, for either side.

Each phase is planned once, when the player is first asked in it, and then played move by
move (the plan is made again if the position is not the one it was made for):

- set-up: the standard arrangement;
- replacements: :mod:`typhoon.games.bfm.ai.replacements`;
- movement: a whole-phase plan from :mod:`typhoon.games.bfm.ai.movement` with the side's scorer from
  :mod:`typhoon.games.bfm.ai.scoring`;
- combat: battles chosen by expected value (:func:`typhoon.games.bfm.ai.combat.plan_attacks`), then
  the resolution decisions of :mod:`typhoon.games.bfm.ai.combat`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from typhoon.games.bfm import movement_phase
from typhoon.games.bfm.actions import END, Action, Attack, Move, Place, SetupStandard
from typhoon.games.bfm.ai.board import board_of
from typhoon.games.bfm.ai.combat import (
    AttackPlan,
    PlannedBattle,
    choose_advance,
    choose_loss,
    choose_resolve,
    choose_retreat,
    choose_stand_fast,
    plan_attacks,
)
from typhoon.games.bfm.ai.movement import MovePlan, move_action, plan_moves
from typhoon.games.bfm.ai.replacements import choose_replacement
from typhoon.games.bfm.ai.scoring import GermanScorer, SovietScorer, Weights
from typhoon.games.bfm.preview import preview_units
from typhoon.games.bfm.rules import GERMAN
from typhoon.games.bfm.setup_phase import standard_setup
from typhoon.games.bfm.state import ADVANCE, CHOOSE, DECLARE, LOSS, RETREAT, STAND, State

PlanKey = tuple[int, int, tuple[int, ...]]


def plan_key(s: State) -> PlanKey:
    """The position a plan is made for: turn, phase and every unit's hex."""
    return (s.turn, s.phase, tuple(s.loc))


def scorer_for(s: State, w: Weights | None = None) -> GermanScorer | SovietScorer:
    spec = s.phase_spec
    if spec.side == GERMAN:
        return GermanScorer(s, w, before_combat=spec.movers == "panzer")
    return SovietScorer(s, w)


class HeuristicPlayer:
    """Plays by rules of thumb; ``noise`` (standard deviation, in strength points) makes it
    vary its choices, for diverse training games or search roll-outs."""

    def __init__(
        self,
        seed: int | None = None,
        *,
        name: str = "heuristic",
        weights: tuple[Weights, Weights] | None = None,
        noise: float = 0.0,
        explain: bool = True,
    ):
        self.name = name
        self.explaining = explain  # off in search roll-outs: reasons cost time
        self.rng = random.Random(seed)
        self.weights = weights or (Weights(), Weights())
        self.noise = noise
        # Plans with the position they were made for (turn, phase, unit locations).
        self._move_plan: tuple[PlanKey, MovePlan] | None = None
        self._attack_plan: tuple[PlanKey, AttackPlan] | None = None
        self._why = "No decision yet."

    # -- the Player protocol ---------------------------------------------------------------

    def choose(self, state: Any, actions: Sequence[Any]) -> Any:
        a, why = self.decide(state, actions)
        self._why = why
        return a

    def explain(self) -> str:
        return self._why

    # -- decisions --------------------------------------------------------------------------

    def decide(self, s: State, actions: Sequence[Action]) -> tuple[Action, str]:
        if len(actions) == 1:
            return actions[0], "the only legal action"
        kind = s.phase_spec.kind
        if kind == "setup":
            return self._setup(s, actions)
        if kind == "replacement":
            return choose_replacement(s, actions)
        if kind == "movement":
            return self._movement(s, actions)
        return self._combat(s, actions)

    def _setup(self, s: State, actions: Sequence[Action]) -> tuple[Action, str]:
        for a in actions:
            if isinstance(a, SetupStandard):
                return a, "the standard set-up: a sound arrangement for the opening"
        # Set-up already begun (by hand): follow the standard arrangement where it is free,
        # else the strongest unit left to the free hex nearest Moscow (the front line).
        rules = s.rules
        ids = rules.map.grid.ids
        wanted = {Place(rules.units[u].id, ids[h]) for u, h in standard_setup(rules)[s.side] if s.at[h] < 0}
        for a in actions:
            if isinstance(a, Place) and a in wanted:
                return a, f"place {a.unit} in {a.hex}, as in the standard set-up"
        b = board_of(rules)
        best = max(
            (a for a in actions if isinstance(a, Place)),
            key=lambda a: (rules.units[rules.unit_index[a.unit]].full, -b.mcost[rules.map.grid.index[a.hex]]),
        )
        return best, f"place {best.unit} in {best.hex}: the strongest unit left to the hex nearest the front"

    # movement ------------------------------------------------------------------------------

    def movement_plan(self, s: State) -> MovePlan:
        """This phase's plan, made now if there is none for this position."""
        if self._move_plan is not None and _plan_fits(s, *self._move_plan):
            return self._move_plan[1]
        plan = self.make_movement_plan(s)
        self._move_plan = (plan_key(s), plan)
        return plan

    def make_movement_plan(self, s: State) -> MovePlan:
        return plan_moves(
            s, scorer_for(s, self.weights[s.side]), rng=self.rng, noise=self.noise, notes=self.explaining
        )

    def _movement(self, s: State, actions: Sequence[Action]) -> tuple[Action, str]:
        if s.stack >= 0:
            return self._move_off(s, actions)
        plan = self.movement_plan(s)
        steps = plan.remaining(s)
        for u, h in steps:
            a = move_action(s, actions, u, h)
            if a is not None:
                if not self.explaining:
                    return a, ""
                n_left = len(steps) - 1
                return a, f"{s.rules.units[u].id} {plan.notes.get(u, '')} (phase plan: {n_left} more move(s))"
        return END if END in actions else actions[0], "end the phase: every unit is where the plan wants it"

    def _move_off(self, s: State, actions: Sequence[Action]) -> tuple[Action, str]:
        sc = scorer_for(s, self.weights[s.side])
        index = s.rules.map.grid.index
        u = s.stack
        best = max((a for a in actions if isinstance(a, Move)), key=lambda a: sc.score(u, index[a.dst]))
        return best, f"{s.rules.units[u].id} must leave the hex it shares"

    # combat --------------------------------------------------------------------------------

    def attack_plan(self, s: State) -> AttackPlan:
        """This combat phase's battles, chosen now if there are none for this position."""
        key = plan_key(s)
        if self._attack_plan is not None and self._attack_plan[0] == key:
            return self._attack_plan[1]
        plan = self.make_attack_plan(s)
        self._attack_plan = (key, plan)
        return plan

    def make_attack_plan(self, s: State) -> AttackPlan:
        return plan_attacks(s, noise=self.noise, rng=self.rng)

    def _combat(self, s: State, actions: Sequence[Action]) -> tuple[Action, str]:
        step = s.cstep
        if step == DECLARE:
            plan = self.attack_plan(s)
            a = next((x for x in plan.actions(s) if x in actions), None)
            if a is not None:
                if not self.explaining:
                    return a, ""
                assert isinstance(a, Attack)
                u = s.rules.unit_index[a.unit]
                bt = next(b for b in plan.battles if u in b.attackers)
                return a, _attack_reason(s, bt, plan)
            total = plan.value
            n = len(plan.battles)
            return END, f"declarations done: {n} battle(s), expected gain {total:.1f} strength points"
        if step == CHOOSE:
            return choose_resolve(s, actions)
        if step == RETREAT:
            return choose_retreat(s, actions)
        if step == LOSS:
            return choose_loss(s, actions)
        if step == ADVANCE:
            return choose_advance(s, actions)
        if step == STAND:
            return choose_stand_fast(s, actions)
        return actions[0], "no choice to make"


def _attack_reason(s: State, bt: PlannedBattle, plan: AttackPlan) -> str:
    """Why this attack: the exact odds and outcome chances (the engine's preview), the
    expected losses, and the other battles of the plan."""
    pv = preview_units(s, bt.defender, bt.attackers)
    text = f"attack: {bt.describe(s)}. Odds {pv.odds.text()}."
    outs = ", ".join(f"{k.replace('_', ' ')} {float(p):.0%}" for k, p in pv.defender_outcomes.items())
    text += f" Defender: {outs}."
    others = [b for b in plan.battles if b is not bt]
    if others:
        ids = s.rules.map.grid.ids
        text += " Other battles of the plan: " + "; ".join(
            f"{s.rules.units[b.defender].id} in {ids[s.loc[b.defender]]} at {b.value.column}:1"
            for b in others
        )
        text += "."
    return text


def _plan_fits(s: State, key: PlanKey, plan: MovePlan) -> bool:
    """Is ``s`` the position the plan was made for, after some of its moves?"""
    turn, phase, start = key
    if (s.turn, s.phase) != (turn, phase):
        return False
    dest = dict(plan.steps)
    for u, h in enumerate(s.loc):
        if h == start[u]:
            continue
        if dest.get(u) != h or movement_phase.movable(s, u):
            return False
    return True


__all__ = ["HeuristicPlayer", "plan_key", "scorer_for"]
