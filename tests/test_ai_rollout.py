"""Issue 17 item 4: the search's roll-outs share the heuristic's plans (PlanCache) and stay
exactly the roll-outs of the plain heuristic; the shorter horizon is opt-in."""

from __future__ import annotations

from dataclasses import replace

from typhoon.game import CHANCE, Game
from typhoon.games.bfm.ai import HeuristicPlayer, SearchConfig, SearchPlayer
from typhoon.games.bfm.ai.heuristic import scorer_for
from typhoon.games.bfm.ai.movement import plan_moves
from typhoon.games.bfm.ai.rollout import PlanCache, play_rollout
from typhoon.games.bfm.ai.search import _dice
from typhoon.games.bfm.state import State

TINY = SearchConfig(rollouts=8, candidates=3)


def first_movement(seed: int = 4) -> State:
    """The first German movement phase, both sides set up by the heuristic."""
    g = Game(seed=seed)
    h = HeuristicPlayer(seed)
    while g.state.phase_spec.kind != "movement":
        if g.current_player() == CHANCE:
            g.roll()
        else:
            g.play(h.choose(g.state, g.legal_actions()))
    return g.state


def test_cached_rollouts_equal_plain_ones() -> None:
    s = first_movement()
    plan = plan_moves(s, scorer_for(s))
    cache = PlanCache()
    plain = [play_rollout(s, plan, _dice(7, k)) for k in range(6)]
    cached = [play_rollout(s, plan, _dice(7, k), cache) for k in range(6)]
    again = [play_rollout(s, plan, _dice(7, k), cache) for k in range(6)]
    assert cached == plain and again == plain
    # The second pass found every plan and every pure decision already made.
    assert cache.hits > cache.misses > 0


def test_search_plays_the_same_with_and_without_the_cache() -> None:
    s = first_movement()
    a = SearchPlayer(5, config=TINY).make_movement_plan(s)
    b = SearchPlayer(5, config=replace(TINY, plan_cache=False)).make_movement_plan(s)
    assert a.steps == b.steps


def test_turn_horizon_is_a_score_and_stops_earlier() -> None:
    s = first_movement()
    plan = plan_moves(s, scorer_for(s))
    for k in range(3):
        v = play_rollout(s, plan, _dice(3, k), PlanCache(), horizon="turn")
        assert 0.0 <= v <= 1.0
    # The opponent's turn is not planned: fewer plans made than with the full horizon.
    short, full = PlanCache(), PlanCache()
    play_rollout(s, plan, _dice(3, 0), short, horizon="turn")
    play_rollout(s, plan, _dice(3, 0), full)
    assert len(short.moves) + len(short.attacks) < len(full.moves) + len(full.attacks)
    p = SearchPlayer(2, config=replace(TINY, horizon="turn"))
    assert p.make_movement_plan(s).steps
