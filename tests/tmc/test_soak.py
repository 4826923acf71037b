"""Random-play soak over every scenario with the invariants checked after every action.

The short one (normal suite) plays each scenario's first game turn with a random player that
ends a phase with probability 0.25 whenever it may; the full-length one (slow) plays every
scenario to the end with uniform random choices."""

from __future__ import annotations

import random

import pytest

from typhoon.games.tmc import engine, invariants
from typhoon.games.tmc.notation import position_from_text, position_to_text


def _play(scenario: str, seed: int, end_bias: float, max_turns: int | None) -> engine.State:
    rng = random.Random(seed)
    s = engine.new_game(scenario)
    first = s.rules.first_turn
    steps = 0
    while not s.is_terminal:
        if max_turns is not None and s.turn >= first + max_turns:
            break
        acts = engine.legal_actions(s)
        assert acts, f"no legal action in {position_to_text(s)}"
        ends = [a for a in acts if a.kind == "end"]
        a = ends[0] if ends and rng.random() < end_bias else rng.choice(acts)
        t, _ = engine.apply(s, a)
        probs = invariants.problems(t) + invariants.vp_problems(s, t)
        assert not probs, (scenario, steps, a, probs)
        s = t
        steps += 1
    return s


@pytest.mark.parametrize("scenario", [str(n) for n in range(1, 25)])
def test_first_game_turn_random_play(scenario: str) -> None:
    s = _play(scenario, int(scenario), 0.25, 1)
    assert s.turn >= s.rules.first_turn
    assert position_from_text(position_to_text(s)) == s


@pytest.mark.slow
@pytest.mark.parametrize("scenario", [str(n) for n in range(1, 25)])
def test_full_game_random_play(scenario: str) -> None:
    s = _play(scenario, 100 + int(scenario), 0.02, None)
    assert s.is_terminal and s.result in ("german", "soviet") and s.level
