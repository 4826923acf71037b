"""Issue 17 item 5: the movement listing (step MOVE) is a ``LazyLegal`` whose per-unit parts
(moves; rail moves then detrain, or entrain) are made only when read, with lengths from the
destination bitsets and single actions made alone by index. Along random walks, a lazy list
read only through its cheap paths (len, reading by index before any part is made, ``in`` and
``index`` of legal and illegal actions, slices) must equal the eager list (every part made
and concatenated), which must equal a construction from the reference search; the walked
state's own list (parts reused across the phase's states) must equal it too."""

from __future__ import annotations

import random
from typing import Any

import pytest

from typhoon.games.driver import LazyLegal, LazyPart
from typhoon.games.tmc import movement_phase, moving
from typhoon.games.tmc.actions import Detrain, Entrain, Move, RailMove
from typhoon.games.tmc.engine import apply, apply_unchecked, chance_outcomes, legal_actions, new_game
from typhoon.games.tmc.env.actions import tmc_codec_for
from typhoon.games.tmc.state import MOVE, State


def _cold(s: State) -> Any:
    t = s.copy()
    t._cache = {}
    t._legal = None
    return movement_phase.legal(t), t


def _reference_moves(t: State) -> list[Any]:
    """Every unit's moves in order, from the reference search (full hexes left out)."""
    full = moving.full_hexes(t)
    out: list[Any] = []
    for u in t.rules.side_units[t.side]:
        if movement_phase.may_move(t, u):
            r = movement_phase.reach_reference(t, u)
            out.extend(m for m, d in zip(r.moves, r.dsts) if not (full >> d) & 1)
    return out


def _illegal(t: State, acts: list[Any], rng: random.Random) -> list[Any]:
    """Actions near legal ones that are not legal here (and a few of other shapes)."""
    ids = t.rules.grid.ids
    out: list[Any] = [None, 7, "move", (), (3, "x"), ("no such unit", "x", "y", "move")]
    legal = set(acts)
    for a in rng.sample(acts, min(20, len(acts))):
        if isinstance(a, Move | RailMove):
            for h in rng.sample(range(len(ids)), 5):
                b = a._replace(dst=ids[h])
                if b not in legal:
                    out.append(b)
            out.append(tuple(a))  # a plain tuple equal to a legal action: legal by equality
        elif isinstance(a, Entrain):
            out.append(Detrain(a.unit))
        elif isinstance(a, Detrain):
            out.append(Entrain(a.unit))
    for u in rng.sample(t.rules.side_units[1 - t.side], 5):  # the other side's units
        uid = t.rules.units[u].id
        out.append(Move(uid, ids[0], ids[1]))
    return out


def _check(s: State, rng: random.Random) -> int:
    lazy, t = _cold(s)
    assert isinstance(lazy, LazyLegal)
    eager_lazy, _ = _cold(s)
    eager = list(eager_lazy)  # every part made (by its make function) and concatenated
    n = len(eager)
    # cheap paths first, before any part of `lazy` is made
    assert len(lazy) == n and bool(lazy) == (n > 0)
    assert all(p._got is None for p in lazy._src)
    for p in lazy._src:
        assert isinstance(p, LazyPart) and p.n > 0
    order = list(range(n))
    rng.shuffle(order)
    for i in order[:200]:
        assert lazy[i] == eager[i]
        assert lazy[i - n] == eager[i]
    with pytest.raises(IndexError):
        lazy[n]
    with pytest.raises(IndexError):
        lazy[-n - 1]
    lazy2, _ = _cold(s)  # membership and index on unmade parts
    for i in order[:100]:
        a = eager[i]
        assert a in lazy2
        assert lazy2.index(a) == i
    for b in _illegal(t, eager, rng):
        assert (b in lazy2) == (b in eager), b
        if b not in eager:
            with pytest.raises(ValueError):
                lazy2.index(b)
    # the made parts: each its promised length and key, the same object when read again
    for p in lazy2._src:
        got = p.get()
        assert len(got) == p.n and got is p.get()
        assert all(a[0] == p.key for a in got)
    lazy3, _ = _cold(s)
    lo, hi = sorted(rng.sample(range(n + 1), 2)) if n else (0, 0)
    assert lazy3[lo:hi] == eager[lo:hi]
    assert lazy3[::-1] == eager[::-1]
    assert list(reversed(lazy3)) == eager[::-1]
    assert lazy3 == eager and eager == lazy3 and lazy3 == lazy and lazy3 + [] == eager
    # the parts' concatenation is the head; the head's moves are the reference's
    head = [a for p in lazy.parts for a in p]
    assert head == eager[: len(head)]
    moves = [a for a in eager if isinstance(a, Move)]
    assert moves == _reference_moves(t)
    # the walked state's own list (parts reused across states) is the same
    own = legal_actions(s)
    assert len(own) == n and list(own) == eager
    # the environment's codes (moves coded from the destinations, parts kept by identity)
    codec = tmc_codec_for(s.rules)
    assert codec.legal_codes(s).tolist() == codec.codes_of(s, eager)
    return n


@pytest.mark.parametrize("seed", [3, 11])
def test_lazy_listing_equals_eager_along_random_walks(seed: int) -> None:
    rng = random.Random(seed)
    s = new_game("1")
    checked = rail_seen = 0
    steps = 0
    while not s.is_terminal and steps < 1800:
        steps += 1
        if s.is_chance:
            outs = chance_outcomes(s)
            s = apply_unchecked(s, outs[rng.randrange(len(outs))][0])
            continue
        acts = legal_actions(s)
        if s.phase_spec.kind == "movement" and s.step == MOVE and rng.random() < 0.15:
            _check(s, rng)
            checked += 1
            rail_seen += any(isinstance(a, RailMove | Entrain | Detrain) for a in acts)
        elif s.phase_spec.kind == "movement" and rng.random() < 0.3:
            codec = tmc_codec_for(s.rules)
            assert codec.legal_codes(s).tolist() == codec.codes_of(s, list(acts))
        a = acts[rng.randrange(len(acts))]
        # the checked apply looks the action up with index (the lazy list's key lookup)
        s = apply(s, a)[0] if steps % 3 == 0 else apply_unchecked(s, a)
    assert checked > 20 and rail_seen > 3, (checked, rail_seen)


def test_lazy_list_of_plain_parts() -> None:
    parts = [
        LazyPart(2, "a", lambda x: [("a", 1), ("a", 2)], None),
        LazyPart(1, "b", lambda x: [("b", 3)], None),
    ]
    lz = LazyLegal(parts, ["end", ("c", 4)])
    ref = [("a", 1), ("a", 2), ("b", 3), "end", ("c", 4)]
    assert len(lz) == 5 and lz[2] == ("b", 3) and parts[0]._got is None  # made only the part read
    assert lz == ref and list(lz) == ref and lz[1:4] == ref[1:4]
    assert "end" in lz and lz.index(("c", 4)) == 4 and ("a", 3) not in lz and ("c", 4) in lz
    assert lz.parts == [[("a", 1), ("a", 2)], [("b", 3)]]
    assert not LazyLegal([], []) and LazyLegal([], []) == []


def test_lazy_setup_listing_and_its_codes() -> None:
    """Set-up: the lazy listing equals a plain construction at every placement of random
    set-ups, read by index before any Place is made, by ``in`` and by ``index``; the
    environment's codes (Place coded from the hexes) equal the codes action by action."""
    from typhoon.games.tmc import setup_phase
    from typhoon.games.tmc.actions import SETUP_STANDARD, Place

    rng = random.Random(5)
    for _ in range(2):
        s = new_game("1")
        n_checked = 0
        while not s.is_terminal and s.phase_spec.kind == "setup":
            if s.is_chance:
                outs = chance_outcomes(s)
                s = apply_unchecked(s, outs[rng.randrange(len(outs))][0])
                continue
            t = s.copy()
            t._cache = {}
            lazy = setup_phase.legal(t)
            assert isinstance(lazy, LazyLegal)
            ref: list[Any] = []
            if not t.placed and all(
                t.rules.units[u].setup >= 0 for u in setup_phase.setup_units(t.rules, t.side)
            ):
                ref.append(SETUP_STANDARD)
            u = setup_phase.next_unit(t)
            if u >= 0:
                uid = t.rules.units[u].id
                ref.extend(Place(uid, t.rules.grid.ids[h]) for h in setup_phase.place_hexes(t, u))
            assert len(lazy) == len(ref)
            for i in rng.sample(range(len(ref)), min(30, len(ref))):
                assert lazy[i] == ref[i]
            assert all(p._got is None or p.n == 1 for p in lazy.lazy_parts)
            for a in rng.sample(ref, min(10, len(ref))):
                assert a in lazy and lazy.index(a) == ref.index(a)
            assert Place("nobody", "0101") not in lazy
            assert lazy == ref and list(legal_actions(s)) == ref
            codec = tmc_codec_for(s.rules)
            assert codec.legal_codes(s).tolist() == codec.codes_of(s, ref)
            n_checked += 1
            acts = legal_actions(s)
            s = apply(s, acts[rng.randrange(len(acts))])[0]
        assert n_checked > 20
