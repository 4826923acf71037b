"""The observations' fast paths (issue 17) against their plain forms: hex planes written
through a strided view (``BitPlanes.write_planes``) against the gathered planes, whole
observations with and without the strided view at every state of random walks, the unit
planes' cap in float32, and The Moscow Campaign's ZOC source hexes (by unit) against a walk
over the stacks."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from typhoon.env.match import Match  # noqa: E402


def _random_masks(size: int, rng: random.Random, n: int) -> list[int]:
    out = [0, (1 << size) - 1]
    while len(out) < n:
        out.append(rng.getrandbits(size) & rng.getrandbits(size))
    return out


@pytest.mark.parametrize(("game", "edition"), [("tmc", "1"), ("bfm", "gdw1986"), ("bfm", "vpg2009")])
def test_write_planes_equals_the_gathered_planes(game: str, edition: str) -> None:
    obs = Match(edition, game=game).obs
    size = obs.nbytes * 8
    rng = random.Random(7)
    masks = _random_masks(size, rng, 19)
    want = obs._hex_planes(masks).astype(np.float32)
    got = np.full(want.shape, 7.0, dtype=np.float32)
    obs.write_planes(got, masks)
    assert np.array_equal(got, want)
    if game == "tmc":
        assert obs._stripes() is not None  # the strided path is the one tested here
    strided = np.full((want.shape[0], want.shape[1] * 2), 7.0, dtype=np.float32)[:, ::2]
    obs.write_planes(strided, masks)  # not contiguous: the gathered path
    assert np.array_equal(strided, want)


def _walk_states(game: str, edition: str, seed: int, steps: int) -> list[object]:
    m = Match(edition, game=game)
    m.reset(seed)
    rng = random.Random(seed)
    states = []
    while not m.over and len(states) < steps:
        states.append(m.state)
        codes = m.legal_codes()
        m.play(int(codes[rng.randrange(len(codes))]))
    return states


@pytest.mark.parametrize(("scenario", "seed"), [("1", 11), ("2", 12)])
def test_tmc_observation_is_the_same_without_the_strided_view(scenario: str, seed: int) -> None:
    from typhoon.games.tmc.env.observation import TmcObservationCodec

    m = Match(scenario, game="tmc")
    fast = m.obs
    plain = TmcObservationCodec(m.rules)
    plain._stripes_memo = None  # every plane through the gathered path
    for s in _walk_states("tmc", scenario, seed, 400):
        for side in (0, 1):
            assert np.array_equal(fast.observe(s, side), plain.observe(s, side))


def test_capping_in_float32_equals_capping_in_float64() -> None:
    rng = np.random.default_rng(3)
    sums = np.concatenate(
        [rng.random(20_000) * 2.0, np.array([1.0, np.nextafter(1.0, 2.0), np.nextafter(1.0, 0.0), 0.0])]
    )
    want = np.minimum(sums, 1.0).astype(np.float32)
    got = sums.astype(np.float32)
    got[got > 1.0] = 1.0
    assert np.array_equal(got, want)


@pytest.mark.parametrize(("scenario", "seed"), [("1", 21), ("2", 22)])
def test_tmc_zoc_units_mask_equals_the_walk_over_stacks(scenario: str, seed: int) -> None:
    def by_stacks(s: object, side: int) -> int:
        out = 0
        excluded = s.rules.eb_mask | s.flipped  # type: ignore[attr-defined]
        for h, us in s.stacks.items():  # type: ignore[attr-defined]
            for u in us:
                if not (excluded >> u) & 1:
                    if s.rules.units[u].side == side:  # type: ignore[attr-defined]
                        out |= 1 << h
                    break
        return out

    for s in _walk_states("tmc", scenario, seed, 1200):
        for side in (0, 1):
            assert s.zoc_units_mask(side) == by_stacks(s, side)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("scenario", "seed", "hold"), [("1", 31, False), ("2", 32, False), ("1", 33, True)])
def test_tmc_pooled_observations_equal_fresh_ones_and_never_change_a_held_array(
    scenario: str, seed: int, hold: bool
) -> None:
    """The match rewrites a pooled observation in place (only what differs) once nobody else
    holds it: at every state of a random walk each side's observation equals a fresh one, and
    arrays still held (by the caller, or through a view) keep their values."""
    m = Match(scenario, game="tmc")
    m.reset(seed)
    fresh = type(m.obs)(m.rules)
    rng = random.Random(seed)
    keep = random.Random(seed + 1)  # its own generator: the walk is the same either way
    held: list[tuple[np.ndarray, np.ndarray]] = []  # (array or view kept, its values then)
    reused = 0
    seen: set[int] = set()
    movers: set[int] = set()
    for step in range(600):
        if m.over:
            break
        s = m.state
        if s.rules.phases[s.phase].kind == "movement":
            movers.add(s.side)
        for side in (0, 1) if not hold or step % 3 else (1,):
            got = m.observe(side)
            reused += id(got) in seen
            seen.add(id(got))
            assert not got.flags.writeable
            assert np.array_equal(got, fresh.observe(s, side)), (scenario, seed, step, side)
            if hold and keep.random() < 0.1:
                kept = got[FIRST_KEPT] if keep.random() < 0.5 else got  # a view holds its base
                held.append((kept, kept.copy()))
            del got
        codes = m.legal_codes()
        m.play(int(codes[rng.randrange(len(codes))]))
    assert reused > 300 and movers == {0, 1}  # the pool was used, both sides moved
    for kept, then in held:
        assert np.array_equal(kept, then)


FIRST_KEPT = 40  # a unit-plane channel (it changes as units move)
