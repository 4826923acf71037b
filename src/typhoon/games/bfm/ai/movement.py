"""Movement planning for the AI players: a whole movement phase as one plan.

Every unit that may move gets a destination (possibly its own hex). The plan is built
greedily: the (unit, hex) pair with the best score is fixed first, then the scores near it
are worked out again, and so on. Scores depend on where the units already placed stand
(zones of control, flanks, attack strength), so only pairs near the last placed unit change.
A hex may be chosen only if it is empty or its unit has already been given a move; playing
the moves in the order they were fixed then never needs a unit to step off a shared hex.

Scorers hold the side's rules of thumb (see :mod:`typhoon.games.bfm.ai.scoring`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from typhoon.games.bfm import movement_phase
from typhoon.games.bfm.actions import Action, Move
from typhoon.games.bfm.state import State
from typhoon.hexgrid import bit_list, bits


class Scorer(Protocol):
    """Rules of thumb for one side's movement phase. ``score`` may depend on the units
    already placed (told through ``assign``), but only on those within ``radius`` hexes."""

    radius: int
    # Optional ``local: bool``: True if a score depends on nothing but the placements within
    # ``radius`` of its hex (then a placement re-scores only near its destination, not near
    # the hex the unit left: those scores cannot have changed). False or absent: both.

    def score(self, u: int, h: int) -> float: ...

    def assign(self, u: int, h: int) -> None: ...

    def note(self, u: int, h: int) -> str: ...


@dataclass
class MovePlan:
    steps: list[tuple[int, int]] = field(default_factory=list)  # (unit, destination), play order
    stays: list[int] = field(default_factory=list)
    notes: dict[int, str] = field(default_factory=dict)
    value: float = 0.0

    def remaining(self, s: State) -> list[tuple[int, int]]:
        return [(u, h) for u, h in self.steps if movement_phase.movable(s, u)]


def movers(s: State) -> list[int]:
    """The phasing side's units that may still move this phase (in the side's unit order)."""
    rules = s.rules
    return [u for u in rules.side_units[s.side] if s.loc[u] >= 0 and movement_phase.movable(s, u)]


def staying_occ(s: State, units: list[int]) -> int:
    """Hexes of the phasing side's units other than ``units`` (the movers): where the side
    stands whatever the plan."""
    occ = s.occ[s.side]
    for u in units:
        occ &= ~(1 << s.loc[u])
    return occ


def destinations(s: State, u: int) -> list[int]:
    """Hexes unit ``u`` can end on this phase (its own included, in hex order), friendly
    units ignored."""
    return bit_list(movement_phase.options(s, u).dmask | (1 << s.loc[u]))


def plan_moves(
    s: State,
    scorer: Scorer,
    *,
    rng: random.Random | None = None,
    noise: float = 0.0,
    notes: bool = True,
) -> MovePlan:
    """A destination for every unit that can move. ``noise`` adds Gaussian noise to every
    score (search uses it to draw varied plans); ``notes``: write why each unit goes where
    it goes (off in roll-outs, for speed)."""
    grid = s.rules.map.grid
    side = s.side
    units = movers(s)
    unit_set = set(units)
    start = {u: s.loc[u] for u in units}
    enemy = s.occ[1 - side]
    plan = staying_occ(s, units)  # movers are placed afresh
    occupied_by_unplaced = s.occ[side] & ~plan
    dests: dict[int, list[int]] = {u: destinations(s, u) for u in units}
    jitter: dict[tuple[int, int], float] = {}
    if rng is not None and noise > 0:
        for u in units:
            for h in dests[u]:
                jitter[(u, h)] = rng.gauss(0.0, noise)
    result = MovePlan()
    radius = scorer.radius
    local = bool(getattr(scorer, "local", False))

    def allowed(u: int, h: int) -> bool:
        if (plan >> h) & 1 or (enemy >> h) & 1:
            return False
        return h == start[u] or not (occupied_by_unplaced >> h) & 1

    scores: dict[tuple[int, int], float] = {}
    by_hex: dict[int, list[tuple[int, int]]] = {}
    for u in units:
        for h in dests[u]:
            by_hex.setdefault(h, []).append((u, h))
            if allowed(u, h):
                scores[(u, h)] = scorer.score(u, h) + jitter.get((u, h), 0.0)

    def place(u: int, h: int, note: str) -> None:
        nonlocal plan, occupied_by_unplaced
        if h != start[u]:
            result.steps.append((u, h))
        else:
            result.stays.append(u)
        result.notes[u] = note
        plan |= 1 << h
        scorer.assign(u, h)
        occupied_by_unplaced &= ~(1 << start[u])
        unit_set.discard(u)
        for hh in dests[u]:
            scores.pop((u, hh), None)
        # Re-score pairs whose destination is near the hexes that changed. The hex left
        # changes no score of a local scorer (movers are not in its occupied hexes), only
        # whether other units may end there.
        near = grid.within(h, radius) | (1 << start[u] if local else grid.within(start[u], radius))
        xs = _near_lists.get(near)
        if xs is None:
            if len(_near_lists) >= _NEAR_LIMIT:
                _near_lists.clear()
            xs = _near_lists[near] = tuple(bits(near))
        score = scorer.score
        for x in xs:
            pairs = by_hex.get(x)
            if pairs is None:
                continue
            for pair in pairs:
                uu, hh = pair
                if uu not in unit_set:
                    continue
                # allowed(uu, hh), inlined
                if not ((plan >> hh) & 1 or (enemy >> hh) & 1) and (
                    hh == start[uu] or not (occupied_by_unplaced >> hh) & 1
                ):
                    scores[pair] = score(uu, hh) + (jitter.get(pair, 0.0) if jitter else 0.0)
                else:
                    scores.pop(pair, None)

    while unit_set:
        if not scores:
            # Only a unit's own hex can be left (always allowed unless taken): stay.
            u = next(iter(unit_set))
            place(u, start[u], "stays")
            continue
        # The first best pair in the table's order (as max() would pick it, but faster).
        val = max(scores.values())
        u, h = next(k for k, v in scores.items() if v == val)
        result.value += val
        place(u, h, scorer.note(u, h) if notes else "")
    return result


# Re-scoring areas: a mask of hexes -> its hexes in hex order (a pure function of the mask,
# shared by every plan). Bounded.
_near_lists: dict[int, tuple[int, ...]] = {}
_NEAR_LIMIT = 50_000


def move_action(s: State, legal: Sequence[Action], u: int, h: int) -> Move | None:
    """The legal move of ``u`` to ``h`` that takes the most enemy cities on the way."""
    dst = s.rules.map.grid.ids[h]
    best: Move | None = None
    # The unit's own moves (a few dozen) rather than the whole legal list (hundreds); the
    # legal list is built from them in the same order, so ties fall the same way.
    for a in movement_phase.options(s, u).moves:
        if a.dst == dst and (best is None or len(a.via) > len(best.via)):
            best = a
    if best is None or best not in legal:
        return None
    return best


__all__ = ["MovePlan", "Scorer", "destinations", "move_action", "movers", "plan_moves", "staying_occ"]
