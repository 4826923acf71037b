"""Roll-outs for the search (issue 17 item 4): the heuristic as roll-out policy, made cheaper.

Most of a roll-out is the heuristic planning phases (``plan_moves`` and ``plan_attacks``), and
the roll-outs of one searched decision reach the same positions again and again: every
roll-out of a candidate plays the same moves up to its first die, and the combat results
are few, so the positions after them repeat too. A noise-free heuristic's plan depends on
nothing but the position, so :class:`PlanCache` keeps each plan by the full state key
(:meth:`State.key`) for the length of one searched decision and hands it out again: the
same plans, the same roll-outs, the same play, in less time.

``horizon="turn"`` (opt-in, weaker model, cheaper) stops a roll-out when the planning side's
own turn ends instead of after the opponent's whole turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from typhoon.games.bfm.actions import Roll
from typhoon.games.bfm.ai.combat import AttackPlan
from typhoon.games.bfm.ai.evaluate import german_score
from typhoon.games.bfm.ai.heuristic import HeuristicPlayer, plan_key, scorer_for
from typhoon.games.bfm.ai.movement import MovePlan
from typhoon.games.bfm.ai.native_plan import native_plan
from typhoon.games.bfm.engine import apply_unchecked, legal_actions
from typhoon.games.bfm.state import DECLARE, State

ROLLS = tuple(Roll(d) for d in range(1, 7))
HORIZONS = ("opponent", "turn")


class PlanCache:
    """Phase plans of the noise-free heuristic by position, for one searched decision."""

    def __init__(self, native: bool = True) -> None:
        self.moves: dict[tuple[Any, ...], MovePlan] = {}
        self.attacks: dict[tuple[Any, ...], AttackPlan] = {}
        # The position after a decision that is a pure function of the position (replacements,
        # and the steps of a battle after the declarations): legal listing, choice and move skipped.
        self.after: dict[tuple[Any, ...], State] = {}
        # Past the candidate's phase: the position at the next die (or the horizon) from here.
        self.segments: dict[tuple[Any, ...], State] = {}
        self.hits = 0
        self.misses = 0
        # Movement plans from the native core (typhoon.games.bfm.ai.native_plan) where it is
        # available: the same plans, faster. False: always the Python planner.
        self.native = native


class CachedHeuristic(HeuristicPlayer):
    """The roll-out heuristic (no noise, no reasons), its plans shared through ``cache``."""

    def __init__(self, cache: PlanCache):
        super().__init__(0, explain=False)
        self.cache = cache

    def make_movement_plan(self, s: State) -> MovePlan:
        key = s.key()
        plan = self.cache.moves.get(key)
        if plan is None:
            self.cache.misses += 1
            # The same plan as the Python heuristic's, from the native core where it can
            # (Soviet and German after-combat movement; see native_plan).
            plan = native_plan(s, scorer_for(s, self.weights[s.side])) if self.cache.native else None
            if plan is None:
                plan = super().make_movement_plan(s)
            self.cache.moves[key] = plan
        else:
            self.cache.hits += 1
        return plan

    def make_attack_plan(self, s: State) -> AttackPlan:
        key = s.key()
        plan = self.cache.attacks.get(key)
        if plan is None:
            self.cache.misses += 1
            plan = self.cache.attacks[key] = super().make_attack_plan(s)
        else:
            self.cache.hits += 1
        return plan


def play_rollout(
    s: State,
    plan: MovePlan | AttackPlan,
    dice: Sequence[int],
    cache: PlanCache | None = None,
    horizon: str = "opponent",
) -> float:
    """Play ``plan`` from ``s``, then both sides by the heuristic until the planning side's
    next turn begins (``horizon="turn"``: until its own turn ends) or the game ends; the
    German expected score there. ``cache``: share the heuristic's plans with other roll-outs
    of the same decision (the same result, faster)."""
    if horizon not in HORIZONS:
        raise ValueError(f"unknown roll-out horizon {horizon!r}: one of {', '.join(HORIZONS)}")
    side = s.side
    target = (s.turn + 1, side) if horizon == "opponent" else None
    if cache is None:
        players = [HeuristicPlayer(0, explain=False), HeuristicPlayer(0, explain=False)]
    else:
        players = [CachedHeuristic(cache), CachedHeuristic(cache)]
    planner = players[side]
    if isinstance(plan, MovePlan):
        planner._move_plan = (plan_key(s), plan)
    else:
        planner._attack_plan = (plan_key(s), plan)
    turn = s.turn
    root = (s.turn, s.phase)

    def over(t: State) -> bool:
        if t.result is not None:
            return True
        if target is None:
            return t.side != side or t.turn != turn
        return (t.turn, t.side) >= target

    def step(t: State) -> State:
        return apply_unchecked(t, players[t.current_player()].choose(t, legal_actions(t)))

    roll_i = 0
    t = s
    while t.result is None:
        if t.is_chance:
            t = apply_unchecked(t, ROLLS[dice[roll_i % len(dice)] - 1])
            roll_i += 1
            continue
        if over(t):
            break
        if cache is None:
            t = step(t)
            continue
        k = t.key()
        if (t.turn, t.phase) != root:
            # Past the candidate's own phase everything up to the next die is the noise-free
            # heuristic's, a function of the position: play it once per decision.
            nxt = cache.segments.get(k)
            if nxt is None:
                cache.misses += 1
                nxt = step(t)
                while not nxt.is_chance and not over(nxt):
                    nxt = step(nxt)
                cache.segments[k] = nxt
            else:
                cache.hits += 1
            t = nxt
            continue
        pure = t.cstep != DECLARE if t.phase_spec.kind == "combat" else t.phase_spec.kind == "replacement"
        if not pure:
            t = step(t)
            continue
        nxt = cache.after.get(k)
        if nxt is None:
            nxt = cache.after[k] = step(t)
        else:
            cache.hits += 1
        t = nxt
    return german_score(t)


__all__ = ["HORIZONS", "CachedHeuristic", "PlanCache", "play_rollout"]
