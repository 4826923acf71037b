"""Issue 17: The Moscow Campaign's engine speed work must not change a single legal list nor a
single action. The digests below were taken before the first optimisation of this pass (the way
tests/test_speed_identity.py pins the records): every legal list (in order, as the actions'
``repr``: kind, unit, hexes, path) and every chance distribution of fixed-seed random walks.
The walks also check that a listing from warm phase caches equals a cold one (caches cleared),
so an incremental cache that keeps a stale per-unit list fails here even where the walk's
digest would not."""

from __future__ import annotations

import hashlib
import random

import pytest

from typhoon.games.tmc.engine import apply_unchecked, chance_outcomes, legal_actions, new_game


def legal_digest(
    scenario: str, seed: int, limit: int, busy: bool = False, cold_every: int = 0
) -> tuple[str, int]:
    """Digest of the legal lists of one random walk of at most ``limit`` positions; ``busy``:
    the walk ends a phase only one time in ten when it has anything else to do (full movement
    phases: rail moves, overruns, many moves per phase); ``cold_every``: every n-th position,
    the listing is also made with the phase caches cleared and must be equal."""
    rng = random.Random(seed)
    s = new_game(scenario)
    h = hashlib.sha256()
    n = 0
    while not s.is_terminal and n < limit:
        if s.is_chance:
            outs = chance_outcomes(s)
            h.update(repr([(a, round(p, 9)) for a, p in outs]).encode())
            s = apply_unchecked(s, outs[rng.randrange(len(outs))][0])
        else:
            acts = legal_actions(s)
            h.update(repr(acts).encode())
            if cold_every and n % cold_every == 0:
                t = s.copy()
                t._cache = {}
                t._legal = None
                assert legal_actions(t) == acts, f"warm and cold listings differ at position {n}"
            pick = acts
            if busy and len(acts) > 1 and rng.random() < 0.9:
                pick = [a for a in acts if a.kind != "end"] or acts
            s = apply_unchecked(s, pick[rng.randrange(len(pick))])
        n += 1
    h.update(repr((s.result, s.turn, s.phase, s.step)).encode())
    return h.hexdigest()[:16], n


# (scenario, seed, position limit, busy, cold check every n) -> (digest, positions walked).
PINNED_LEGAL: list[tuple[str, int, int, bool, int, tuple[str, int]]] = [
    ("1", 21, 500, False, 5, ("2ede16dd304ccacc", 500)),
    ("1", 22, 500, True, 3, ("0b840b29ee09a8a5", 500)),
    ("2", 23, 400, True, 4, ("80a514998a76e36a", 400)),
]

# Whole games (slow: seconds each).
PINNED_SLOW: list[tuple[str, int, int, bool, int, tuple[str, int]]] = [
    ("1", 24, 100_000, False, 0, ("c10b84053c235186", 3466)),
    ("1", 25, 100_000, True, 50, ("dd6fe33e4908ff36", 3806)),
]


@pytest.mark.parametrize(("scenario", "seed", "limit", "busy", "cold", "pinned"), PINNED_LEGAL)
def test_fixed_seed_tmc_legal_lists_unchanged(
    scenario: str, seed: int, limit: int, busy: bool, cold: int, pinned: tuple[str, int]
) -> None:
    assert legal_digest(scenario, seed, limit, busy, cold) == pinned


@pytest.mark.slow
@pytest.mark.parametrize(("scenario", "seed", "limit", "busy", "cold", "pinned"), PINNED_SLOW)
def test_fixed_seed_tmc_whole_games_legal_lists_unchanged(
    scenario: str, seed: int, limit: int, busy: bool, cold: int, pinned: tuple[str, int]
) -> None:
    assert legal_digest(scenario, seed, limit, busy, cold) == pinned
