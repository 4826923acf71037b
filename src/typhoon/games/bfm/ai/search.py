"""The ``search`` levels: phase planning with the engine as forward model.

A turn here is dozens of unit actions, so the search does not look at actions one by one.
At the first decision of each of its movement phases and combat declarations it plans the
whole phase:

1. Candidates: the heuristic's plan, and plans drawn from the heuristic with noise on its
   scores and on the weights of its rules of thumb (different fronts, different battles).
2. Each candidate is played out on copies of the state (``apply_unchecked``): the rest of
   the phase and of the turn, then the opponent's whole turn, both sides by the heuristic,
   the dice fixed in advance (determinised: roll-out k of every candidate uses the same
   dice, so candidates are compared on equal luck). The position reached is scored by the
   static evaluation (:mod:`typhoon.games.bfm.ai.evaluate`), or by the result if the game ended.
3. Successive halving: all candidates get a few roll-outs, the better half twice as many,
   and so on until the budget is spent; the best survivor is played.

The budget is a number of roll-outs per phase plan (``rollouts``), so a game is the same
whatever the machine; ``time_limit`` (seconds) can cut a plan short for interactive play.
Replacements, set-up and the decisions inside a battle are the heuristic's.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

from typhoon.ai.budget import SEARCH_LEVELS
from typhoon.ai.halving import Candidate, attack_candidates, successive_halving
from typhoon.games.bfm.actions import Action
from typhoon.games.bfm.ai.combat import AttackPlan, plan_attacks
from typhoon.games.bfm.ai.heuristic import HeuristicPlayer, scorer_for
from typhoon.games.bfm.ai.movement import MovePlan, plan_moves
from typhoon.games.bfm.ai.rollout import PlanCache, play_rollout
from typhoon.games.bfm.ai.scoring import Weights
from typhoon.games.bfm.rules import GERMAN
from typhoon.games.bfm.state import DECLARE, State


@dataclass(frozen=True)
class SearchConfig:
    rollouts: int = 64  # roll-outs per phase plan
    candidates: int = 8  # plans compared per phase
    time_limit: float | None = None  # seconds per plan, None: no limit (reproducible)
    # Roll-outs (typhoon.games.bfm.ai.rollout): share the heuristic's phase plans between the
    # roll-outs of one decision (the same play, faster; False: every roll-out plans afresh),
    # and how far a roll-out goes ("opponent": through the opponent's turn; "turn": to the
    # end of the planning side's own turn, cheaper and a weaker model).
    plan_cache: bool = True
    horizon: str = "opponent"


# The named levels are a time per turn, not a number: the per-decision plan cache
# (rollout.PlanCache, issue 17 item 4) made a roll-out 2.2-2.6x cheaper (`typhoon bench --only ai`:
# search:fast 77 -> 168 roll-outs/s, search 81 -> 209), so they spend twice the roll-outs in
# about the time they took before. The ladder search:16 ... search:512 names its budget.
TIME_LEVELS = ("search:fast", "search", "search:strong")
ROLLOUT_SCALE = 2

# The framework's search levels (typhoon.ai.budget), each with its budget.
LEVEL_CONFIGS = {
    level: SearchConfig(
        rollouts=b.rollouts * (ROLLOUT_SCALE if level in TIME_LEVELS else 1), candidates=b.candidates
    )
    for level, b in SEARCH_LEVELS.items()
}


@dataclass
class SearchReport:
    key: tuple[int, int]  # turn, phase
    phase: str
    candidates: int
    rollouts: int
    seconds: float
    best_label: str
    best_value: float  # expected score for the side planning
    baseline_value: float | None  # the heuristic's own plan
    baseline_label: str


class SearchPlayer(HeuristicPlayer):
    def __init__(self, seed: int | None = None, *, name: str = "search", config: SearchConfig | None = None):
        super().__init__(seed, name=name)
        self.config = config or SearchConfig()
        self.reports: list[SearchReport] = []
        self.rollouts_done = 0
        self.search_seconds = 0.0
        self._last_report: SearchReport | None = None
        self._cache: tuple[tuple[Any, ...], PlanCache] | None = None

    # -- plans: searched instead of taken from the heuristic ---------------------------------

    def make_movement_plan(self, s: State) -> MovePlan:
        plan = self._search(s, self._move_candidates(s), "movement")
        assert isinstance(plan, MovePlan)
        return plan

    def make_attack_plan(self, s: State) -> AttackPlan:
        plan = self._search(s, self._attack_candidates(s), "combat")
        assert isinstance(plan, AttackPlan)
        return plan

    def decide(self, s: State, actions: Sequence[Action]) -> tuple[Action, str]:
        a, why = super().decide(s, actions)
        kind = s.phase_spec.kind
        planned = kind == "movement" or (kind == "combat" and s.cstep == DECLARE)
        r = self._last_report
        if planned and r is not None and r.key == (s.turn, s.phase) and len(actions) > 1:
            side = "German" if s.side == GERMAN else "Soviet"
            why += (
                f" [search: {r.candidates} {r.phase} plans, {r.rollouts} roll-outs;"
                f" chosen '{r.best_label}' with expected {side} score {r.best_value:.2f}"
            )
            if r.baseline_value is not None and r.best_label != r.baseline_label:
                why += f"; the heuristic's plan {r.baseline_value:.2f}"
            why += "]"
        return a, why

    # -- candidates ------------------------------------------------------------------------

    def _move_candidates(self, s: State) -> list[Candidate]:
        side = s.side
        out = [Candidate(plan_moves(s, scorer_for(s, self.weights[side])), "heuristic plan")]
        seen = {_sig(out[0].plan)}
        tries = 0
        while len(out) < self.config.candidates and tries < 3 * self.config.candidates:
            tries += 1
            k = len(out)
            noise = (0.4, 0.8, 1.5, 2.5)[k % 4]
            w = _perturb(self.weights[side], self.rng, 0.25 if k % 2 else 0.0)
            plan = plan_moves(s, scorer_for(s, w), rng=self.rng, noise=noise)
            sig = _sig(plan)
            if sig in seen:
                continue
            seen.add(sig)
            out.append(Candidate(plan, f"variant {k} (noise {noise})"))
        return out

    def _attack_candidates(self, s: State) -> list[Candidate]:
        base = plan_attacks(s)

        def variant(k: int) -> AttackPlan:
            noise = (0.5, 1.0, 2.0, 4.0)[k % 4]
            return plan_attacks(s, noise=noise, rng=self.rng, min_ev=-0.5 if k % 3 == 0 else 0.05)

        out, seen = attack_candidates(base, AttackPlan([]), variant, _sig, self.config.candidates)
        # Dropping one battle of the heuristic plan (a weak attack may cost more than it wins).
        for i in range(len(base.battles)):
            if len(out) >= self.config.candidates + 2:
                break
            plan = AttackPlan([b for j, b in enumerate(base.battles) if j != i])
            sig = _sig(plan)
            if sig not in seen:
                seen.add(sig)
                out.append(
                    Candidate(
                        plan, f"without the battle against {s.rules.units[base.battles[i].defender].id}"
                    )
                )
        return out

    # -- successive halving ----------------------------------------------------------------

    def _search(self, s: State, cands: list[Candidate], phase: str) -> MovePlan | AttackPlan:
        if len(cands) == 1:
            self._last_report = None
            return cands[0].plan
        t0 = time.perf_counter()
        cfg = self.config
        side = s.side
        dice_seed = self.rng.randrange(2**31)
        deadline = None if cfg.time_limit is None else t0 + cfg.time_limit
        cache = self._plan_cache(s) if cfg.plan_cache else None
        live, used = successive_halving(
            cands,
            cfg.rollouts,
            lambda plan, k: play_rollout(s, plan, _dice(dice_seed, k), cache, cfg.horizon),
            side == GERMAN,
            deadline,
        )
        best = live[0]
        dt = time.perf_counter() - t0
        self.rollouts_done += used
        self.search_seconds += dt
        base = cands[0]
        report = SearchReport(
            key=(s.turn, s.phase),
            phase=phase,
            candidates=len(cands),
            rollouts=used,
            seconds=dt,
            best_label=best.label,
            best_value=best.mean,
            baseline_value=base.mean if base.n else None,
            baseline_label=base.label,
        )
        self.reports.append(report)
        self._last_report = report
        return best.plan

    def _plan_cache(self, s: State) -> PlanCache:
        key = (s.rules.edition, tuple(sorted(s.rules.options.items())), s.turn, s.side, self.config.horizon)
        if self._cache is None or self._cache[0] != key:
            self._cache = (key, PlanCache())
        return self._cache[1]


def _sig(plan: MovePlan | AttackPlan) -> tuple[Any, ...]:
    if isinstance(plan, MovePlan):
        return tuple(sorted(plan.steps))
    return tuple(sorted((b.defender, tuple(sorted(b.attackers))) for b in plan.battles))


def _perturb(w: Weights, rng: random.Random, sigma: float) -> Weights:
    if sigma <= 0:
        return w
    changes = {f.name: getattr(w, f.name) * math.exp(rng.gauss(0.0, sigma)) for f in fields(w)}
    return replace(w, **changes)


def _dice(seed: int, k: int) -> list[int]:
    r = random.Random(seed * 1000003 + k)
    return [r.randint(1, 6) for _ in range(64)]


def rollout(s: State, plan: MovePlan | AttackPlan, dice: Sequence[int]) -> float:
    """Play ``plan`` from ``s``, then both sides by the heuristic until the planning side's
    next turn begins (or the game ends); the German expected score there."""
    return play_rollout(s, plan, dice)


def make_search_player(level: str) -> Callable[[int | None], SearchPlayer]:
    cfg = LEVEL_CONFIGS[level]
    return lambda seed: SearchPlayer(seed, name=level, config=cfg)


__all__ = ["LEVEL_CONFIGS", "SearchConfig", "SearchPlayer", "make_search_player", "rollout"]
