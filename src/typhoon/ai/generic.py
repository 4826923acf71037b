"""The framework's own players, for a game whose AI module offers only ``evaluate``.

Both read the game through its :class:`~typhoon.games.GameModule` (``legal_actions``,
``apply_unchecked``, ``chance_outcomes``) and the module's ``evaluate(state, side)`` (in
[-1, 1], 1: won); a finished game is scored by its result, a chance node by the expectation
over its outcomes.

- ``heuristic`` (:class:`OnePlyPlayer`): one ply. Each legal action is applied, and the
  position reached is scored by ``evaluate`` for the side choosing; when it is a chance node
  (an attack's die roll) every outcome is expanded with its probability (nested chance nodes
  up to :data:`MAX_CHANCE_DEPTH` deep). The best expected value is played; ties are broken by
  the player's seeded generator.
- ``search`` levels (:class:`RolloutSearchPlayer`): Monte Carlo roll-outs over the heuristic's
  best ``candidates`` actions, compared by successive halving (:mod:`typhoon.ai.halving`)
  within ``rollouts`` roll-outs per decision. A roll-out applies the candidate, then plays both
  sides by the one-ply heuristic (or by the module's optional ``rollout_policy(state, actions,
  rng)``), the dice drawn from ``chance_outcomes``, for at most ``horizon`` decisions or to the
  end of the game, and scores the position reached by ``evaluate`` (the result, if over).
  Roll-out ``k`` of every candidate uses the same generator seed (common random numbers), so
  candidates meet the same luck; the budget counts roll-outs, so a game is the same whatever
  the machine, and ``time_limit`` can cut a decision short.

Both are sound for any game of the kit (only legal actions, no knowledge of the rules) and
cheap: the heuristic costs one evaluation per action and outcome, a search decision about
``rollouts × horizon`` heuristic decisions.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from typhoon.ai.budget import Budget
from typhoon.ai.halving import Candidate, successive_halving
from typhoon.games import GameModule

CHANCE = -1  # current_player(): a die roll is due
MAX_CHANCE_DEPTH = 4  # chance nodes expanded one after the other before a position is scored
TIE = 1e-9

Evaluate = Callable[[Any, int], float]
RolloutPolicy = Callable[[Any, Sequence[Any], random.Random], Any]


def outcome_value(game: GameModule, state: Any, side: int, evaluate: Evaluate) -> float | None:
    """The finished game's value for ``side`` (1 won, -1 lost, 0 drawn), None while it goes on."""
    if not state.is_terminal:
        return None
    result = state.result
    if result in game.sides:
        return 1.0 if result == game.sides[side] else -1.0
    if result == "draw":
        return 0.0
    return float(evaluate(state, side))  # a result word of the game's own: its evaluation knows


def expected_value(game: GameModule, state: Any, side: int, evaluate: Evaluate, depth: int = 0) -> float:
    """``evaluate`` of ``state`` for ``side``, expanded over the outcomes of chance nodes."""
    done = outcome_value(game, state, side, evaluate)
    if done is not None:
        return done
    if state.current_player() == CHANCE and depth < MAX_CHANCE_DEPTH:
        outcomes = game.chance_outcomes(state)
        total = sum(p for _, p in outcomes)
        if total > 0:
            return (
                sum(
                    p * expected_value(game, game.apply_unchecked(state, o), side, evaluate, depth + 1)
                    for o, p in outcomes
                )
                / total
            )
    return float(evaluate(state, side))


def one_ply_values(game: GameModule, state: Any, actions: Sequence[Any], evaluate: Evaluate) -> list[float]:
    """The expected evaluation after each action, for the side choosing."""
    side = state.current_player()
    return [expected_value(game, game.apply_unchecked(state, a), side, evaluate) for a in actions]


def _best(values: Sequence[float], rng: random.Random) -> tuple[int, int]:
    """The index of a best value (ties broken by ``rng``) and how many tie for best."""
    top = max(values)
    ties = [i for i, v in enumerate(values) if v >= top - TIE]
    return (ties[rng.randrange(len(ties))] if len(ties) > 1 else ties[0]), len(ties)


class OnePlyPlayer:
    """The generic ``heuristic`` level: the best expected evaluation one action ahead."""

    def __init__(
        self, game: GameModule, evaluate: Evaluate, seed: int | None = None, *, name: str = "heuristic"
    ):
        self.game = game
        self.evaluate = evaluate
        self.name = name
        self.rng = random.Random(seed)
        self._why = "No decision yet."

    def choose(self, state: Any, actions: Sequence[Any]) -> Any:
        if len(actions) == 1:
            self._why = "the only legal action"
            return actions[0]
        if state.current_player() < 0:  # a driver asked for a die roll: any outcome is as good
            self._why = "a chance outcome, at random"
            return actions[self.rng.randrange(len(actions))]
        values = one_ply_values(self.game, state, actions, self.evaluate)
        i, ties = _best(values, self.rng)
        tied = f"; {ties} actions tie, one drawn at random" if ties > 1 else ""
        self._why = (
            f"{self.game.action_to_text(actions[i])}: expected evaluation {values[i]:+.2f}"
            f" (one ply, best of {len(actions)} legal actions{tied})"
        )
        return actions[i]

    def explain(self) -> str:
        return self._why


@dataclass
class SearchReport:
    candidates: int
    rollouts: int
    seconds: float
    best_label: str
    best_value: float  # expected score (0..1) of the chosen action for the side choosing
    baseline_label: str  # the heuristic's choice
    baseline_value: float | None


class RolloutSearchPlayer:
    """The generic ``search`` levels: roll-outs over the heuristic's best actions."""

    def __init__(
        self,
        game: GameModule,
        evaluate: Evaluate,
        seed: int | None = None,
        *,
        name: str = "search",
        config: Budget | None = None,
        rollout_policy: RolloutPolicy | None = None,
    ):
        self.game = game
        self.evaluate = evaluate
        self.name = name
        self.config = config or Budget()
        self.rng = random.Random(seed)
        self.rollout_policy = rollout_policy
        self.reports: list[SearchReport] = []
        self.rollouts_done = 0
        self.search_seconds = 0.0
        self._why = "No decision yet."

    def choose(self, state: Any, actions: Sequence[Any]) -> Any:
        if len(actions) == 1:
            self._why = "the only legal action"
            return actions[0]
        if state.current_player() < 0:
            self._why = "a chance outcome, at random"
            return actions[self.rng.randrange(len(actions))]
        a, self._why = self.decide(state, actions)
        return a

    def explain(self) -> str:
        return self._why

    def decide(self, state: Any, actions: Sequence[Any]) -> tuple[Any, str]:
        cfg = self.config
        values = one_ply_values(self.game, state, actions, self.evaluate)
        # The heuristic's best first (ties in random order), then the next best.
        keys = [(-v, self.rng.random()) for v in values]
        order = sorted(range(len(actions)), key=keys.__getitem__)
        text = self.game.action_to_text
        cands = [Candidate(i, text(actions[i])) for i in order[: max(1, cfg.candidates)]]
        if len(cands) == 1:
            return actions[order[0]], f"{cands[0].label}: the heuristic's choice"
        side = state.current_player()
        seed = self.rng.randrange(2**31)
        t0 = time.perf_counter()
        deadline = None if cfg.time_limit is None else t0 + cfg.time_limit
        live, used = successive_halving(
            cands, cfg.rollouts, lambda i, k: self.rollout(state, actions[i], side, seed, k), True, deadline
        )
        best = live[0]
        dt = time.perf_counter() - t0
        self.rollouts_done += used
        self.search_seconds += dt
        base = cands[0]
        self.reports.append(
            SearchReport(
                len(cands), used, dt, best.label, best.mean, base.label, base.mean if base.n else None
            )
        )
        why = (
            f"{best.label} [search: {len(cands)} candidate actions, {used} roll-outs of up to"
            f" {cfg.horizon} decisions; expected score {best.mean:.2f}"
        )
        if best is not base and base.n:
            why += f"; the heuristic's choice {base.label} {base.mean:.2f}"
        return actions[best.plan], why + "]"

    def rollout(self, state: Any, action: Any, side: int, seed: int, k: int) -> float:
        """Roll-out ``k`` of ``action``: its score for ``side``, 0..1 (1: won)."""
        game = self.game
        rng = random.Random(seed * 1000003 + k)
        t = game.apply_unchecked(state, action)
        decisions = 0
        while not t.is_terminal and decisions < self.config.horizon:
            if t.current_player() == CHANCE:
                t = game.apply_unchecked(t, _draw(game, t, rng))
                continue
            acts = game.legal_actions(t)
            if self.rollout_policy is not None:
                a = self.rollout_policy(t, acts, rng)
            elif len(acts) == 1:
                a = acts[0]
            else:
                a = acts[_best(one_ply_values(game, t, acts, self.evaluate), rng)[0]]
            t = game.apply_unchecked(t, a)
            decisions += 1
        return (1.0 + expected_value(game, t, side, self.evaluate)) / 2.0


def _draw(game: GameModule, state: Any, rng: random.Random) -> Any:
    """A chance outcome drawn with its probability."""
    outcomes = game.chance_outcomes(state)
    if not outcomes:
        acts = game.legal_actions(state)
        return acts[rng.randrange(len(acts))]
    x = rng.random() * sum(p for _, p in outcomes)
    for o, p in outcomes:
        x -= p
        if x < 0:
            return o
    return outcomes[-1][0]


__all__ = ["OnePlyPlayer", "RolloutSearchPlayer", "SearchReport", "expected_value", "one_ply_values"]
