"""Issue 17 item 4: the roll-outs' movement plans from the native core are the Python
planner's plans (same moves, same order, same value to the last bit), and the search plays the
same with and without the core."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

import pytest

from typhoon.game import CHANCE, Game
from typhoon.games.bfm import native
from typhoon.games.bfm.ai import HeuristicPlayer, SearchConfig, SearchPlayer
from typhoon.games.bfm.ai.board import approach_cost, approach_cost_py, board_of, planner_input
from typhoon.games.bfm.ai.heuristic import scorer_for
from typhoon.games.bfm.ai.movement import plan_moves
from typhoon.games.bfm.ai.native_plan import native_plan
from typhoon.games.bfm.ai.rollout import PlanCache, play_rollout
from typhoon.games.bfm.ai.scoring import Weights
from typhoon.games.bfm.ai.search import _dice, _perturb
from typhoon.games.bfm.state import State

pytestmark = pytest.mark.skipif(not native.available(), reason=native.why_unavailable() or "native core")


def movement_phases(edition: str, seed: int, noise: float) -> Iterator[State]:
    """Every movement-phase start of a game of two noisy heuristics (varied positions)."""
    g = Game("bfm", edition, {}, seed=seed)
    players = [
        HeuristicPlayer(seed, noise=noise, explain=False),
        HeuristicPlayer(seed + 1, noise=noise, explain=False),
    ]
    seen = None
    while not g.is_over:
        s = g.state
        if g.current_player() == CHANCE:
            g.roll()
            continue
        if s.phase_spec.kind == "movement" and (s.turn, s.phase) != seen:
            seen = (s.turn, s.phase)
            yield s
        g.play(players[g.current_player()].choose(s, g.legal_actions()))


def same_plan(s: State, w: Weights | None = None) -> bool | None:
    fast = native_plan(s, scorer_for(s, w))
    if fast is None:
        return None
    slow = plan_moves(s, scorer_for(s, w), notes=False)
    assert fast.steps == slow.steps
    assert fast.stays == slow.stays
    assert list(fast.notes.items()) == list(slow.notes.items())
    assert fast.value == slow.value  # the same doubles, not nearly
    return True


@pytest.mark.parametrize(("edition", "seed"), [("gdw1986", 1), ("vpg2009", 2), ("gdw1986", 3)])
def test_native_plans_equal_python_plans(edition: str, seed: int) -> None:
    rng = random.Random(seed)
    done = 0
    for s in movement_phases(edition, seed, noise=1.0):
        if same_plan(s):
            done += 1
            # Weights as the search perturbs them.
            same_plan(s, _perturb(Weights(), rng, 0.25))
    assert done >= 15  # Soviet and German after-combat phases of the whole game


def test_panzer_phase_and_noise_stay_in_python() -> None:
    for s in movement_phases("gdw1986", 4, noise=0.0):
        if s.phase_spec.movers == "panzer":
            assert native_plan(s, scorer_for(s)) is None
            return
    raise AssertionError("no panzer movement phase")


def test_rollouts_equal_with_and_without_the_core() -> None:
    s = next(x for x in movement_phases("gdw1986", 5, 0.0) if x.side == 1)
    plan = plan_moves(s, scorer_for(s))
    fast, slow = PlanCache(), PlanCache(native=False)
    a = [play_rollout(s, plan, _dice(9, k), fast) for k in range(4)]
    b = [play_rollout(s, plan, _dice(9, k), slow) for k in range(4)]
    assert a == b


def test_search_plays_the_same_without_the_core(monkeypatch: pytest.MonkeyPatch) -> None:
    tiny = SearchConfig(rollouts=12, candidates=3)

    def game(seed: int) -> tuple[list[object], list[float]]:
        me = SearchPlayer(seed, config=tiny)
        other = HeuristicPlayer(seed + 1)
        g = Game("bfm", "gdw1986", {}, seed=seed)
        acts: list[object] = []
        while not g.is_over and g.state.turn <= 2:
            who = g.current_player()
            if who == CHANCE:
                g.roll()
                continue
            p = me if who == 1 else other
            a = p.choose(g.state, g.legal_actions())
            acts.append(a)
            g.play(a)
        return acts, [r.best_value for r in me.reports]

    with_core = game(6)
    monkeypatch.setenv("TYPHOON_NO_NATIVE", "1")
    assert not native.available()
    without = game(6)
    assert with_core == without
    assert len(with_core[1]) >= 2


def test_search_config_without_cache_matches() -> None:
    s = next(movement_phases("vpg2009", 7, 0.0))
    tiny = SearchConfig(rollouts=8, candidates=3)
    a = SearchPlayer(5, config=tiny).make_movement_plan(s)
    b = SearchPlayer(5, config=replace(tiny, plan_cache=False)).make_movement_plan(s)
    assert a.steps == b.steps


@pytest.mark.parametrize("edition", ["gdw1986", "vpg2009"])
def test_native_approach_cost_equals_python(edition: str) -> None:
    """Random sources and blocked hexes, several limits: the core's costs are the Python ones."""
    rules = Game("bfm", edition, {}, seed=0).state.rules
    hexes = list(rules.map.grid.hexes)
    rng = random.Random(edition)
    for k in range(300):
        sources = sum(1 << h for h in rng.sample(hexes, rng.randint(1, 14)))
        blocked = sum(1 << h for h in rng.sample(hexes, rng.randint(0, 40))) if k % 3 else 0
        limit = (40, 14, 7, 3)[k % 4]
        want = approach_cost_py(rules, sources, blocked, limit)
        assert approach_cost(rules, sources, blocked, limit) == want


def test_planner_tables_refuse_bad_input_with_typed_errors() -> None:
    """The native planner's loader: a missing key, a list of the wrong length and a value of the
    wrong type each raise a Python error (no crash, no tables); the board's own input loads."""
    b = board_of(Game("bfm", seed=1).state.rules)
    good = planner_input(b)
    core = native.core_module()
    assert core.plan_tables(good) is not None
    missing = {k: v for k, v in good.items() if k != "mcost"}
    with pytest.raises(KeyError, match="mcost"):
        core.plan_tables(missing)
    for key in ("nmask", "shift_german", "probs"):
        with pytest.raises(ValueError, match=f"{key}: .* values expected"):
            core.plan_tables({**good, key: good[key][:-1]})
    for key, bad in (
        ("mcost", ["x"] * good["size"]),
        ("probs", [None] * 42),
        ("river", [1.5] * good["size"]),
    ):
        with pytest.raises(TypeError):
            core.plan_tables({**good, key: bad})
    with pytest.raises(TypeError):
        core.plan_tables([])
