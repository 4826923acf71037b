"""Issue 17 items 2 and 5 (Battle for Moscow): the movement listing keeps per-unit moves across a
phase's states (and memoises them by surroundings and by destinations across phases); it must
list exactly what a cold listing lists, in the same order, at every state.

A warm listing is the engine's own (phase cache and memos as play left them); a cold one is
taken on a copy with the phase cache dropped and empty memos. If an invalidation were too
narrow (a unit's moves kept after something they depend on changed), the two would differ.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from typing import Any

import pytest

from typhoon.games.bfm import engine, movement_phase
from typhoon.games.bfm.rules import load_rules
from typhoon.games.bfm.state import State


def _cold_legal(s: State) -> tuple[list[Any], dict[int, tuple[Any, ...]]]:
    """The legal list and every movable unit's moves, worked out from nothing."""
    t = s.copy()
    t._cache = {}
    t._legal = None
    saved = movement_phase._MEMO, movement_phase._VIAS
    movement_phase._MEMO, movement_phase._VIAS = {}, {}
    try:
        acts = list(movement_phase.legal(t))
        units = {
            u: _unit_facts(movement_phase.options(t, u))
            for u in range(len(s.rules.units))
            if movement_phase.movable(t, u)
        }
    finally:
        movement_phase._MEMO, movement_phase._VIAS = saved
    return acts, units


def _unit_facts(um: movement_phase.UnitMoves) -> tuple[Any, ...]:
    return (list(um.moves), list(um.dsts), um.dmask, um.anymask)


def _walk(edition: str, seed: int) -> Iterator[State]:
    rng = random.Random(seed)
    s = engine.new_game(edition)
    while s.result is None:
        yield s
        acts = engine.legal_actions(s)
        s = engine.apply_unchecked(s, acts[rng.randrange(len(acts))])


@pytest.mark.parametrize(("edition", "seed"), [("gdw1986", 12), ("gdw1986", 18), ("vpg2009", 14)])
def test_warm_listing_equals_cold_listing(edition: str, seed: int) -> None:
    checked = captures = 0
    for s in _walk(edition, seed):
        if s.rules.phases[s.phase].kind != "movement":
            continue
        warm = engine.legal_actions(s)
        warm_units = {
            u: _unit_facts(movement_phase.options(s, u))
            for u in range(len(s.rules.units))
            if movement_phase.movable(s, u)
        }
        cold, cold_units = _cold_legal(s)
        assert warm == cold, (s.turn, s.phase)
        assert warm_units == cold_units, (s.turn, s.phase)
        checked += 1
        captures += any(getattr(a, "via", ()) for a in warm)
    assert checked > 100
    assert captures > 0  # some states offered moves through enemy cities (the via path ran)


def test_without_cuts_exactly_the_excluded_destinations() -> None:
    """UnitMoves.without cuts runs out of the destination-ordered list by slices; it must keep
    exactly the moves a per-move test keeps, in order (moves out and back included)."""
    rng = random.Random(5)
    seen_via = 0
    for s in _walk("gdw1986", 21):
        if s.rules.phases[s.phase].kind != "movement" or rng.random() < 0.7:
            continue
        for u in range(len(s.rules.units)):
            if not movement_phase.movable(s, u):
                continue
            um = movement_phase.options(s, u)
            seen_via += len(set(um.dsts)) < len(um.dsts)
            ds = sorted(set(um.dsts))
            for _ in range(4):
                bad = 0
                for d in rng.sample(ds, min(len(ds), rng.randrange(4))):
                    bad |= 1 << d
                bad |= rng.getrandbits(8) << rng.randrange(160)  # hexes that are no destination
                want = [m for m, d in zip(um.moves, um.dsts) if not (bad >> d) & 1]
                assert um.without(bad) == want
    assert seen_via > 0  # a unit with several moves to one hex (different cities passed)


@pytest.mark.parametrize("edition", ["gdw1986", "vpg2009"])
def test_expand_of_one_hex_is_its_neighbours(edition: str) -> None:
    """The mud rule's moves are read from ``expand`` of the unit's hex: it must be exactly
    the hex's neighbours on the map."""
    grid = load_rules(edition).map.grid
    for h in range(grid.size):
        if (grid.valid >> h) & 1:
            assert grid.expand(1 << h) == grid.mask(grid.neighbours[h]), grid.ids[h]


# SHA-256 of every legal list (repr, in order) along fixed-seed random walks, taken on the
# engine before the incremental-listing change (HEAD 2026-12-03).
PINNED = [("gdw1986", 500, 6, "087d42cb0a49df48"), ("vpg2009", 600, 4, "8458df10382b1c69")]


@pytest.mark.parametrize(("edition", "seed", "games", "digest"), PINNED)
def test_legal_lists_unchanged(edition: str, seed: int, games: int, digest: str) -> None:
    h = hashlib.sha256()
    for i in range(games):
        for s in _walk(edition, seed + i):
            h.update(repr(engine.legal_actions(s)).encode())
    assert h.hexdigest()[:16] == digest
