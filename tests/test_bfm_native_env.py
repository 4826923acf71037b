"""The research environments over Battle for Moscow's native core (issue 17, item 6): a match
stepped by the C core gives the same observations, masks, players, dice, rewards and history
as one on the Python engine (``TYPHOON_NO_NATIVE=1``), at every step."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from typhoon.env import bench  # noqa: E402
from typhoon.env.match import Match  # noqa: E402
from typhoon.games.bfm import native  # noqa: E402
from typhoon.games.bfm.env.actions import EncodingError  # noqa: E402
from typhoon.record import Record  # noqa: E402

pytestmark = [
    pytest.mark.rl,
    pytest.mark.skipif(not native.available(), reason=native.why_unavailable() or "native"),
]


def _pair(monkeypatch: pytest.MonkeyPatch, edition: str) -> tuple[Match, Match]:
    """(native match, Python match) of the same edition."""
    fast = Match(edition, game="bfm")
    monkeypatch.setenv("TYPHOON_NO_NATIVE", "1")
    slow = Match(edition, game="bfm")
    monkeypatch.delenv("TYPHOON_NO_NATIVE")
    assert fast._native is not None and slow._native is None
    return fast, slow


@pytest.mark.parametrize("edition", ["gdw1986", "vpg2009"])
def test_native_match_equals_python_match_at_every_step(
    monkeypatch: pytest.MonkeyPatch, edition: str
) -> None:
    fast, slow = _pair(monkeypatch, edition)
    steps = 0
    for seed in (3, 4):
        fast.reset(seed)
        slow.reset(seed)
        rng = random.Random(seed)
        while not slow.over:
            assert fast.to_act == slow.to_act and not fast.over
            for side in (0, 1):
                assert np.array_equal(fast.observe(side), slow.observe(side))
            mask = fast.mask()
            assert np.array_equal(mask, slow.mask())
            codes = np.flatnonzero(mask)
            code = int(codes[rng.randrange(len(codes))])
            fast.play(code)
            slow.play(code)
            steps += 1
        assert fast.over and fast.scores() == slow.scores() and fast.rolls_drawn == slow.rolls_drawn
        assert fast.state == slow.state
        assert fast.history == slow.history
        assert Record.from_game(fast.to_game()).to_text() == Record.from_game(slow.to_game()).to_text()
    assert steps > 400


def test_reading_the_state_mid_game_keeps_both_in_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Python state, legal codes (engine order) and history are worked out on demand,
    in the middle of a game too, and the match plays on identically afterwards."""
    fast, slow = _pair(monkeypatch, "gdw1986")
    fast.reset(8)
    slow.reset(8)
    rng = random.Random(8)
    for i in range(300):
        if i % 37 == 0:
            assert fast.state == slow.state
            assert fast.legal_codes().tolist() == slow.legal_codes().tolist()
            assert fast.history == slow.history
            acts = slow.legal_actions()
            a = acts[rng.randrange(len(acts))]
            assert fast.action_of(slow.code_of(a)) == a
            fast.play_action(a)
            slow.play_action(a)
        else:
            codes = np.flatnonzero(slow.mask())
            code = int(codes[rng.randrange(len(codes))])
            fast.play(code)
            slow.play(code)
    assert fast.state == slow.state and fast.history == slow.history


def test_illegal_code_is_an_encoding_error(monkeypatch: pytest.MonkeyPatch) -> None:
    fast, _slow = _pair(monkeypatch, "gdw1986")
    fast.reset(1)
    before = fast.state
    with pytest.raises(EncodingError):
        fast.play(6)  # End is not legal in the set-up
    with pytest.raises(EncodingError):
        fast.play(-3)
    assert fast.state == before and fast.history == []


def test_pettingzoo_env_steps_natively() -> None:
    """The PettingZoo env of bfm plays whole games through the core (its figure: docs/BFM_NATIVE.md)."""
    steps, _dt, games = bench.pettingzoo_steps(0.5, game="bfm")
    assert steps > 100 and games >= 1
