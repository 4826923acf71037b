"""Masks from the engine's stable parts (issue 17 item 5): the action codes the codecs keep per
part of a :class:`typhoon.games.driver.LegalList` (one unit's memoised moves, rail actions or
relocations) must equal, at every state, the codes of the legal list encoded one action at a
time by a codec with nothing remembered, and the parts must be the head of the legal list."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from typhoon.env.codec import PartCodes  # noqa: E402
from typhoon.env.match import Match  # noqa: E402
from typhoon.games.driver import LegalList  # noqa: E402


def _cold_codes(fresh: Any, s: Any, acts: list[Any]) -> list[int]:
    """The codes of ``acts`` one by one, every by-value memo of the reference codec emptied."""
    for memo in ("_move_codes", "_via_codes"):
        got = getattr(fresh, memo, None)
        if got is not None:
            got.clear()
    return [int(fresh.encode(s, a)) for a in acts]


def _walk(game: str, edition: str, seed: int, steps: int, fresh: Any) -> tuple[int, int]:
    """Random play through a Match; returns (states checked, states whose list had parts)."""
    m = Match(edition, game=game)
    m.reset(seed)
    rng = random.Random(seed)
    checked = with_parts = 0
    while not m.over and checked < steps:
        s = m.state
        acts = m.module.legal_actions(s)
        codes = m.legal_codes()
        assert codes.tolist() == _cold_codes(fresh, s, acts), (game, edition, seed, checked)
        mask = m.mask()
        assert int(mask.sum()) == len(acts)
        parts = getattr(acts, "parts", None)
        if parts:
            with_parts += 1
            head = [a for p in parts for a in p]
            assert len(head) <= len(acts)
            assert all(x is y for x, y in zip(head, acts, strict=False))
            assert all(p for p in parts)  # empty parts are never listed
        m.play(int(codes[rng.randrange(len(codes))]))
        checked += 1
    return checked, with_parts


@pytest.mark.parametrize("edition", ["gdw1986", "vpg2009"])
def test_bfm_mask_from_parts_equals_the_legal_list_encoded_one_by_one(edition: str) -> None:
    from typhoon.games.bfm.env.actions import ActionCodec

    fresh = ActionCodec(Match(edition, game="bfm").rules)
    total = parted = 0
    for seed in range(4):
        n, p = _walk("bfm", edition, seed, 10_000, fresh)
        total += n
        parted += p
    assert total > 1500 and parted > 500  # whole games, most states in movement phases


@pytest.mark.parametrize(("scenario", "seed"), [("1", 3), ("2", 5)])
def test_tmc_mask_from_parts_equals_the_legal_list_encoded_one_by_one(scenario: str, seed: int) -> None:
    from typhoon.games.tmc.env.actions import TmcActionCodec

    fresh = TmcActionCodec(Match(scenario, game="tmc").rules)
    n, parted = _walk("tmc", scenario, seed, 700, fresh)
    assert n == 700 and parted > 300


def test_part_codes_are_kept_by_identity_not_by_value() -> None:
    """Two equal parts are coded separately; a part is coded once while it lives; a legal
    list without parts is left to the caller."""
    calls: list[int] = []

    def enc(part: list[int]) -> list[int]:
        calls.append(len(part))
        return [x * 10 for x in part]

    def rest(actions: Any) -> list[int]:
        return [-1 for _ in actions]

    pc = PartCodes()
    a, b = [1, 2], [1, 2]
    acts = LegalList()
    acts.add_part(a)
    acts.add_part([])
    acts.add_part(b)
    acts.append(7)
    assert acts.parts == [a, b] and acts.parts[1] is b
    got = pc.codes(acts, enc, rest)
    assert got is not None and got.tolist() == [10, 20, 10, 20, -1]
    assert calls == [2, 2]
    again = pc.codes(acts, enc, rest)
    assert again is not None and again.tolist() == got.tolist() and calls == [2, 2]
    again[0] = 99  # the caller's array is its own
    third = pc.codes(acts, enc, rest)
    assert third is not None and third[0] == 10
    assert pc.codes([1, 2, 3], enc, rest) is None
    only = LegalList()
    only.add_part(a)
    out = pc.codes(only, enc, rest)
    assert out is not None and out.tolist() == [10, 20]
    out[0] = 5
    assert np.array_equal(pc.codes(only, enc, rest), np.array([10, 20]))
