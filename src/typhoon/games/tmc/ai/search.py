"""The TMC ``search`` levels: phase planning with the engine as forward model, sized for a game
of hundreds of unit decisions a turn.

At the first decision of each movement phase and of each combat declaration:

1. Candidates: the heuristic's plan and plans drawn with noise on its hex scores and on the
   weights of its rules of thumb (movement), or on the battles' values and the minimum
   expected VP (combat), plus "no attack".
2. Roll-outs: each candidate is played on copies of the state (``apply_unchecked``), then both
   sides by the heuristic up to the horizon - the end of the planning side's player turn
   (``horizon="turn"``) or the start of its next one (``"opponent"``) - with the dice fixed per
   roll-out index so candidates meet the same luck. The position reached is scored by
   :func:`typhoon.games.tmc.ai.evaluate.german_score`.
3. Successive halving over the budget of roll-outs; the best survivor is played.

Set-up, and every decision inside a battle, are the heuristic's.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import Any

from typhoon.ai.halving import Candidate, attack_candidates, successive_halving
from typhoon.games.tmc import engine
from typhoon.games.tmc.actions import ROLLS
from typhoon.games.tmc.ai.combat import AttackPlan, plan_attacks
from typhoon.games.tmc.ai.evaluate import german_score
from typhoon.games.tmc.ai.heuristic import TmcHeuristic, phase_key
from typhoon.games.tmc.ai.movement import Planner, Weights
from typhoon.games.tmc.rules import GERMAN
from typhoon.games.tmc.state import MOVE, State

_MAX_ROLLOUT_ACTIONS = 5000


@dataclass(frozen=True)
class TmcSearchConfig:
    rollouts: int = 8  # roll-outs per phase plan, all candidates together
    candidates: int = 4  # plans compared per phase
    horizon: str = "turn"  # "turn": end of own player turn; "opponent": start of the next one
    time_limit: float | None = None  # seconds per plan (None: reproducible)


def tmc_config(rollouts: int, candidates: int, time_limit: float | None = None) -> TmcSearchConfig:
    """The TMC budget for a framework search level's budget (typhoon.ai.budget, sized for
    roll-outs of a few dozen actions): a TMC roll-out (a player turn, a few hundred actions) is
    far longer, so a quarter of the roll-outs, and the deeper horizon only for the strong levels."""
    return TmcSearchConfig(
        rollouts=max(4, rollouts // 4),
        candidates=max(3, min(8, candidates // 2 + 1)),
        horizon="opponent" if rollouts >= 128 else "turn",
        time_limit=time_limit,
    )


@dataclass
class SearchReport:
    key: tuple[int, int]
    phase: str
    candidates: int
    rollouts: int
    seconds: float
    best_label: str
    best_value: float
    baseline_value: float | None


class TmcSearch(TmcHeuristic):
    def __init__(
        self, seed: int | None = None, *, name: str = "search", config: TmcSearchConfig | None = None
    ) -> None:
        super().__init__(seed, name=name)
        self.config = config or TmcSearchConfig()
        self.reports: list[SearchReport] = []
        self.rollouts_done = 0
        self.search_seconds = 0.0

    def decide(self, s: State, actions: Any) -> Any:
        a, why = super().decide(s, actions)
        r = self.reports[-1] if self.reports else None
        if r is not None and r.key == (s.turn, s.phase) and len(actions) > 1 and self.explaining:
            why += (
                f" [search: {r.candidates} {r.phase} plans, {r.rollouts} roll-outs; chosen '{r.best_label}'"
                f" at {r.best_value:.2f}]"
            )
        return a, why

    # -- candidates ----------------------------------------------------------------------------

    def make_planner(self, s: State) -> Planner:
        base = super().make_planner(s)
        if s.step != MOVE or len(base.plan.targets) < 2:
            return base
        side = s.side
        cands = [Candidate(base, "heuristic plan")]
        seen = {base.signature()}
        tries = 0
        while len(cands) < self.config.candidates and tries < 3 * self.config.candidates:
            tries += 1
            k = len(cands)
            noise = (0.5, 1.0, 2.0)[k % 3]
            w = _perturb(self.weights[side], self.rng, 0.3 if k % 2 else 0.0)
            p = Planner(s, weights=w, noise=noise, rng=self.rng, notes=self.explaining)
            sig = p.signature()
            if sig in seen:
                continue
            seen.add(sig)
            cands.append(Candidate(p, f"variant {k} (noise {noise})"))
        best = self._search(s, cands, "movement")
        assert isinstance(best, Planner)
        return best.fork()

    def make_attack_plan(self, s: State) -> AttackPlan:
        base = super().make_attack_plan(s)
        cands, _ = attack_candidates(
            base,
            AttackPlan([]),
            lambda k: plan_attacks(
                s, noise=(0.5, 1.5, 3.0)[k % 3], rng=self.rng, min_ev=(0.0, 0.5, 1.5)[k % 3]
            ),
            _attack_sig,
            self.config.candidates,
        )
        best = self._search(s, cands, "combat")
        assert isinstance(best, AttackPlan)
        return best

    # -- successive halving --------------------------------------------------------------------

    def _search(self, s: State, cands: list[Candidate], phase: str) -> Planner | AttackPlan:
        if len(cands) == 1:
            return cands[0].plan
        t0 = time.perf_counter()
        cfg = self.config
        side = s.side
        dice_seed = self.rng.randrange(2**31)
        deadline = None if cfg.time_limit is None else t0 + cfg.time_limit
        live, used = successive_halving(
            cands,
            cfg.rollouts,
            lambda plan, k: rollout(s, plan, _dice(dice_seed, k), cfg.horizon),
            side == GERMAN,
            deadline,
        )
        best = live[0]
        dt = time.perf_counter() - t0
        self.rollouts_done += used
        self.search_seconds += dt
        self.reports.append(
            SearchReport(
                (s.turn, s.phase),
                phase,
                len(cands),
                used,
                dt,
                best.label,
                best.mean,
                cands[0].mean if cands[0].n else None,
            )
        )
        return best.plan


def _attack_sig(plan: AttackPlan) -> tuple[Any, ...]:
    return tuple(sorted((b.target, tuple(sorted(b.attackers))) for b in plan.battles))


def _perturb(w: Weights, rng: random.Random, sigma: float) -> Weights:
    if sigma <= 0:
        return w
    return replace(w, **{f.name: getattr(w, f.name) * math.exp(rng.gauss(0.0, sigma)) for f in fields(w)})


def _dice(seed: int, k: int) -> list[int]:
    r = random.Random(seed * 1000003 + k)
    return [r.randint(1, 6) for _ in range(256)]


def rollout(s: State, plan: Planner | AttackPlan, dice: list[int], horizon: str = "turn") -> float:
    """Play ``plan`` from ``s``, then both sides by the heuristic up to the horizon; the
    German score of the position reached."""
    side = s.side
    turn0 = s.turn
    players = [TmcHeuristic(0, explain=False), TmcHeuristic(0, explain=False)]
    planner = players[side]
    if isinstance(plan, Planner):
        planner._planner = (phase_key(s), plan.fork())
    else:
        planner._attacks = ((s.turn, s.phase), plan)
    t = s
    i = 0
    for _ in range(_MAX_ROLLOUT_ACTIONS):
        if t.result is not None:
            break
        if horizon == "turn" and (t.side != side or t.turn != turn0):
            break
        if horizon != "turn" and t.turn > turn0 and t.side == side:
            break
        if t.is_chance:
            t = engine.apply_unchecked(t, ROLLS[dice[i % len(dice)] - 1])
            i += 1
            continue
        who = t.current_player()
        acts = engine.legal_actions(t)
        a, _ = players[who].decide(t, acts)
        t = engine.apply_unchecked(t, a)
    return german_score(t)


def make_tmc_search(
    level: str, rollouts: int, candidates: int, time_limit: float | None
) -> Callable[[int | None], TmcSearch]:
    cfg = tmc_config(rollouts, candidates, time_limit)
    return lambda seed: TmcSearch(seed, name=level, config=cfg)


__all__ = ["TmcSearch", "TmcSearchConfig", "make_tmc_search", "rollout", "tmc_config"]
