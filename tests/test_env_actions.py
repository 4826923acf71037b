"""The research action space: exact masks, encode/decode round trips, layout invariants."""

from __future__ import annotations

import random
import subprocess
import sys
import textwrap
from collections.abc import Iterator

import pytest

np = pytest.importorskip("numpy")

from typhoon.games.bfm.actions import Move, Retreat  # noqa: E402
from typhoon.games.bfm.engine import apply_unchecked, legal_actions, new_game  # noqa: E402
from typhoon.games.bfm.env.actions import (  # noqa: E402
    EDITIONS,
    LAYOUT,
    NUM_ACTIONS,
    NUM_HEXES,
    RETREAT_LONG,
    RETREAT_SHORT,
    SETUP_STANDARD,
    TO,
    EncodingError,
    codec_for,
    describe_layout,
)
from typhoon.games.bfm.rules import load_rules  # noqa: E402
from typhoon.games.bfm.state import RETREAT, State  # noqa: E402

pytestmark = pytest.mark.rl


def random_states(edition: str, games: int, seed: int) -> Iterator[State]:
    for g in range(games):
        rng = random.Random(seed + g)
        s = new_game(edition)
        while s.result is None:
            yield s
            acts = legal_actions(s)
            s = apply_unchecked(s, acts[rng.randrange(len(acts))])


def check_state(s: State, sample: int | None = None) -> None:
    """Codes distinct, mask exact, and encode/decode round trips (on ``sample`` random
    actions plus every move through a city, or on all actions)."""
    codec = codec_for(s.rules)
    acts = legal_actions(s)
    codes = codec.legal_codes(s)
    assert len(codes) == len(acts)
    assert len(set(codes.tolist())) == len(acts), "two legal actions share a code"
    assert ((codes >= 0) & (codes < NUM_ACTIONS)).all()
    mask = codec.mask(s)
    assert mask.dtype == np.int8 and mask.shape == (NUM_ACTIONS,)
    assert int(mask.sum()) == len(acts)
    assert sorted(np.flatnonzero(mask).tolist()) == sorted(codes.tolist())
    pairs = list(zip(acts, codes.tolist()))
    if sample is not None and len(pairs) > sample:
        rng = random.Random(len(pairs))
        pairs = rng.sample(pairs, sample) + [(a, c) for a, c in pairs if isinstance(a, Move) and a.via]
    for a, c in pairs:
        assert codec.encode(s, a) == c
        assert codec.decode(s, c) == a
        assert codec.legal_action(s, c) is a


@pytest.mark.parametrize("edition", EDITIONS)
def test_mask_equals_legal_actions_on_random_trajectories(edition: str) -> None:
    n = 0
    for s in random_states(edition, games=3, seed=100):
        check_state(s, sample=12)
        n += 1
    assert n > 500


def test_layout_blocks_partition_the_space() -> None:
    pos = 0
    for _name, start, size in describe_layout():
        assert start == pos and size > 0
        pos += size
    assert pos == NUM_ACTIONS == LAYOUT.size
    assert LAYOUT.block_of(0) == "ROLL" and LAYOUT.block_of(NUM_ACTIONS - 1) == "MOVE_VIA"
    with pytest.raises(EncodingError):
        LAYOUT.block_of(NUM_ACTIONS)


def test_the_space_is_the_same_for_both_editions() -> None:
    a, b = (codec_for(load_rules(ed)) for ed in EDITIONS)
    # the same hex has the same padded index in both editions
    for hid, p in a.hid_pad.items():
        assert b.hid_pad[hid] == p
    assert set(b.hid_pad) - set(a.hid_pad) == {f"{c:02d}11" for c in range(1, 15, 2)}
    assert len(a.hid_pad) == 140 and len(b.hid_pad) == 147
    assert max(b.hid_pad.values()) < NUM_HEXES


def test_setup_codes_and_text() -> None:
    s = new_game("gdw1986")
    codec = codec_for(s.rules)
    assert codec.text(s, SETUP_STANDARD) == "setup standard"
    code = codec.encode(s, legal_actions(s)[1])
    assert TO <= code < TO + len(LAYOUT.units) * NUM_HEXES
    assert codec.text(s, code).startswith("place ")


def test_decode_errors() -> None:
    s = new_game("gdw1986")
    codec = codec_for(s.rules)
    with pytest.raises(EncodingError):
        codec.decode(s, NUM_ACTIONS)
    with pytest.raises(EncodingError):
        codec.decode(s, -1)
    with pytest.raises(EncodingError):
        codec.legal_action(s, RETREAT_SHORT)  # no retreat in the set-up
    for bad in (-1, NUM_ACTIONS, 2**70):
        with pytest.raises(EncodingError):
            codec.legal_action(s, bad)
    with pytest.raises(EncodingError):
        codec.decode(s, RETREAT_SHORT)
    # hex 0111 exists only in VPG
    with pytest.raises(EncodingError):
        codec.decode(s, TO + 10)


def _retreat_state(edition: str) -> State:
    for s in random_states(edition, games=40, seed=7):
        if s.cstep == RETREAT and any(isinstance(a, Retreat) and len(a.path) > 2 for a in legal_actions(s)):
            return s
    raise AssertionError("no long retreat in 40 random games")  # pragma: no cover


@pytest.mark.parametrize("edition", EDITIONS)
def test_long_and_short_retreats_round_trip(edition: str) -> None:
    s = _retreat_state(edition)
    check_state(s)
    codec = codec_for(s.rules)
    codes = codec.legal_codes(s)
    longs = sorted(c for c in codes.tolist() if c >= RETREAT_LONG and c < RETREAT_LONG + 4096)
    assert longs == list(range(RETREAT_LONG, RETREAT_LONG + len(longs)))  # ranks 0..n-1
    path = next(a.path for a in legal_actions(s) if isinstance(a, Retreat) and len(a.path) > 2)
    for bad in (Retreat(path[::-1]), Retreat((path[0], "9999")), Retreat((path[1], path[0]))):
        with pytest.raises(EncodingError):
            codec.encode(s, bad)


def test_short_retreat_shapes_are_the_eighteen_two_hex_paths() -> None:
    rules = load_rules("gdw1986")
    codec = codec_for(rules)
    grid = rules.map.grid
    origin = grid.index["0705"]  # well inside the map
    paths = set()
    for shape in range(18):
        d1, turn = divmod(shape, 3)
        p1 = codec.nbd[origin][d1]
        p2 = codec.nbd[p1][(d1 + turn - 1) % 6]
        assert grid.distance(origin, p1) == 1 and grid.distance(origin, p2) == 2
        assert codec._short_shape(origin, [p1, p2]) == shape
        paths.add((p1, p2))
    assert len(paths) == 18
    ring2 = [h for h in grid.hexes if grid.distance(origin, h) == 2]
    every = {(p1, p2) for p2 in ring2 for p1 in grid.neighbours[p2] if grid.distance(origin, p1) == 1}
    assert paths == every


def test_move_via_codes_name_unit_destination_and_cities() -> None:
    found = 0
    for s in random_states("gdw1986", games=6, seed=3):
        for a in legal_actions(s):
            if isinstance(a, Move) and a.via:
                codec = codec_for(s.rules)
                code = codec.encode(s, a)
                assert LAYOUT.block_of(code) == "MOVE_VIA"
                assert codec.decode(s, code) == a
                found += 1
        if found > 50:
            break
    assert found > 50


def test_core_imports_without_the_rl_extra() -> None:
    code = textwrap.dedent(
        """
        import sys
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in ("numpy", "gymnasium", "pettingzoo", "pyspiel", "open_spiel"):
                    raise ImportError("blocked " + name)
                return None
        sys.meta_path.insert(0, Block())
        import typhoon, typhoon.cli, typhoon.game, typhoon.env
        from typhoon.bench import all_figures
        try:
            import typhoon.games.bfm.env.actions
        except ImportError:
            pass
        else:
            raise SystemExit("typhoon.games.bfm.env.actions imported without numpy")
        assert "numpy" not in sys.modules
        print("ok")
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
