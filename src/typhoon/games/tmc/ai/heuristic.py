"""The TMC ``heuristic`` player: rules of thumb for either side.

- set-up: the standard (reconstructed) deployment;
- movement phases: a whole-phase plan (:class:`~typhoon.games.tmc.ai.movement.Planner`) made at the
  phase's first decision and played leg by leg (made again if the phase changed under it);
- combat declarations: battles by expected VP (:func:`~typhoon.games.tmc.ai.combat.plan_attacks`);
- inside a battle (and an overrun's resolution): :mod:`typhoon.games.tmc.ai.combat`.

Every decision is one of the legal actions it was given.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from typhoon.games.tmc.actions import END, SETUP_STANDARD, Action
from typhoon.games.tmc.ai.combat import (
    AttackPlan,
    choose_advance,
    choose_ignore,
    choose_loss,
    choose_odds,
    choose_retreat,
    next_declaration,
    plan_attacks,
)
from typhoon.games.tmc.ai.movement import DEFAULT_WEIGHTS, Planner, Weights
from typhoon.games.tmc.state import State

PhaseKey = tuple[int, int, int]

_BATTLE_CHOOSERS = {
    "odds": choose_odds,
    "ignore": choose_ignore,
    "lose": choose_loss,
    "disrupt": choose_loss,
    "retreat": choose_retreat,
    "advance": choose_advance,
}


def phase_key(s: State) -> PhaseKey:
    return (s.turn, s.phase, s.step)


class TmcHeuristic:
    """``noise`` (standard deviation of the scores, in VP-like units) varies its plans, for
    search candidates and diverse games."""

    def __init__(
        self,
        seed: int | None = None,
        *,
        name: str = "heuristic",
        weights: tuple[Weights, Weights] | None = None,
        noise: float = 0.0,
        explain: bool = True,
    ) -> None:
        self.name = name
        self.rng = random.Random(seed)
        self.weights = weights or DEFAULT_WEIGHTS
        self.noise = noise
        self.explaining = explain
        self._planner: tuple[PhaseKey, Planner] | None = None
        self._attacks: tuple[tuple[int, int], AttackPlan] | None = None
        self._why = "No decision yet."

    # -- the Player protocol -------------------------------------------------------------------

    def choose(self, state: Any, actions: Sequence[Any]) -> Any:
        a, why = self.decide(state, actions)
        self._why = why
        return a

    def explain(self) -> str:
        return self._why

    # -- decisions -----------------------------------------------------------------------------

    def decide(self, s: State, actions: Sequence[Action]) -> tuple[Action, str]:
        if len(actions) == 1:
            return actions[0], "the only legal action"
        kind = actions[0].kind
        spec = s.phase_spec
        if spec.kind == "setup":
            if SETUP_STANDARD in actions:
                return SETUP_STANDARD, "the standard set-up"
            return actions[0], "set-up: the first listed placement"
        chooser = _BATTLE_CHOOSERS.get(kind)
        if chooser is not None:
            a, why = chooser(s, actions)
        elif spec.kind == "combat":
            a, why = self._declare(s, actions)
        else:
            return self.planner(s).next_action(s, actions)  # only legal actions by construction
        if a not in actions:  # a combat step this AI does not know: never an illegal action
            return actions[0], "the first legal action (unexpected combat step)"
        return a, why

    # movement ----------------------------------------------------------------------------------

    def planner(self, s: State) -> Planner:
        key = phase_key(s)
        if self._planner is not None and self._planner[0] == key:
            return self._planner[1]
        p = self.make_planner(s)
        self._planner = (key, p)
        return p

    def make_planner(self, s: State) -> Planner:
        return Planner(s, weights=self.weights[s.side], noise=self.noise, rng=self.rng, notes=self.explaining)

    # combat ------------------------------------------------------------------------------------

    def attack_plan(self, s: State) -> AttackPlan:
        key = (s.turn, s.phase)
        if self._attacks is not None and self._attacks[0] == key:
            return self._attacks[1]
        plan = self.make_attack_plan(s)
        self._attacks = (key, plan)
        return plan

    def make_attack_plan(self, s: State) -> AttackPlan:
        return plan_attacks(s, noise=self.noise, rng=self.rng, min_ev=self.weights[s.side].attack_min_ev)

    def _declare(self, s: State, actions: Sequence[Action]) -> tuple[Action, str]:
        plan = self.attack_plan(s)
        a = next_declaration(s, actions, plan)
        if a == END:
            return END, f"declarations done: {len(plan.battles)} battle(s), expected {plan.value:+.1f} VP"
        if not self.explaining:
            return a, ""
        ids = s.rules.grid.ids
        for b in plan.battles:
            if ids[b.target] == getattr(a, "target", None):
                att = ", ".join(s.rules.units[u].id for u in b.attackers)
                return a, f"attack {ids[b.target]} with {att} (expected {b.ev:+.1f} VP)"
        return a, "attack"


__all__ = ["TmcHeuristic", "phase_key"]
