"""Successive halving over candidate plans (or actions), shared by the search players of every
game (the framework's generic search and the games' own).

Each round gives every live candidate the same number of roll-outs (roll-out ``k`` uses the
same dice for every candidate, so candidates are compared on common random numbers), then
keeps the better half; the last round spends what is left of the budget."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass
class Candidate:
    plan: Any
    label: str
    total: float = 0.0
    n: int = 0

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else 0.0


def successive_halving(
    cands: Sequence[Candidate],
    budget: int,
    score: Callable[[Any, int], float],
    for_first: bool,
    deadline: float | None = None,
) -> tuple[list[Candidate], int]:
    """Spend about ``budget`` roll-outs; ``score(plan, k)`` plays roll-out ``k`` of a plan and
    returns the first side's score (0..1); ``for_first``: the first side is choosing (else
    ``1 - score`` is maximised). Returns the surviving candidates, best first,
    and the number of roll-outs played. ``deadline`` (a ``time.perf_counter()`` value) cuts
    the search short."""
    live = list(cands)
    rounds = max(1, (len(live) - 1).bit_length())
    used = 0
    k_done = 0
    for r in range(rounds):
        per = max(1, budget // (rounds * len(live)))
        if r == rounds - 1:
            per = max(per, (budget - used) // len(live))
        for k in range(k_done, k_done + per):
            for c in live:
                v = score(c.plan, k)
                c.total += v if for_first else 1.0 - v
                c.n += 1
                used += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
        k_done += per
        live.sort(key=lambda c: -c.mean)
        if deadline is not None and time.perf_counter() > deadline:
            break
        if len(live) > 1 and r < rounds - 1:
            live = live[: max(1, (len(live) + 1) // 2)]
    return live, used


def attack_candidates(
    base: Any,
    no_attack: Any,
    variant: Callable[[int], Any],
    sig: Callable[[Any], tuple[Any, ...]],
    limit: int,
) -> tuple[list[Candidate], set[tuple[Any, ...]]]:
    """Candidate attack plans of a combat phase: the heuristic plan, no attack at all (when the
    heuristic attacks), then distinct ``variant(k)`` plans up to ``limit`` candidates (at most
    3 × ``limit`` tries). Returns the candidates and the signatures seen."""
    out = [Candidate(base, "heuristic battles")]
    seen = {sig(base)}
    if base.battles:
        out.append(Candidate(no_attack, "no attack"))
        seen.add(())
    tries = 0
    while len(out) < limit and tries < 3 * limit:
        tries += 1
        k = len(out)
        plan = variant(k)
        s = sig(plan)
        if s in seen:
            continue
        seen.add(s)
        out.append(Candidate(plan, f"variant {k} ({len(plan.battles)} battles)"))
    return out, seen
