"""AI players say why: odds and expected losses for attacks, the plan a move belongs to."""

from __future__ import annotations

from typhoon.game import Game
from typhoon.games.bfm.actions import Attack, Move
from typhoon.games.bfm.ai import HeuristicPlayer, SearchConfig, SearchPlayer
from typhoon.games.bfm.ai.combat import plan_attacks
from typhoon.players import make_player


def _to_german_combat(seed: int = 11) -> Game:
    g = Game(seed=seed)
    g.play_text("setup standard")
    g.play_text("setup standard")
    ai = HeuristicPlayer(1)
    while g.state.phase_spec.key != "german_combat":
        g.play(ai.choose(g.state, g.legal_actions()))
    return g


def test_heuristic_explains_attack_with_odds() -> None:
    g = _to_german_combat()
    ai = HeuristicPlayer(1)
    a = ai.choose(g.state, g.legal_actions())
    assert isinstance(a, Attack)
    text = ai.explain()
    assert text.startswith("attack:")
    assert ":1" in text  # the odds column
    assert "expected losses" in text
    assert "Odds" in text and "against" in text  # the engine's odds worked out step by step


def test_heuristic_explains_move_and_plan() -> None:
    g = Game(seed=4)
    g.play_text("setup standard")
    g.play_text("setup standard")
    ai = HeuristicPlayer(1)
    a = ai.choose(g.state, g.legal_actions())
    assert isinstance(a, Move)
    text = ai.explain()
    assert a.unit in text
    assert "phase plan" in text


def test_search_explains_its_choice() -> None:
    g = Game(seed=4)
    g.play_text("setup standard")
    g.play_text("setup standard")
    ai = SearchPlayer(2, config=SearchConfig(rollouts=6, candidates=3))
    ai.choose(g.state, g.legal_actions())
    text = ai.explain()
    assert "search:" in text and "roll-outs" in text and "expected German score" in text


def test_attack_plan_values_are_sane() -> None:
    g = _to_german_combat()
    plan = plan_attacks(g.state)
    assert plan.battles
    for bt in plan.battles:
        v = bt.value
        assert 1 <= v.column <= 6
        assert 0.0 <= v.p_elim <= v.p_vacate <= 1.0 + 1e-9
        assert v.ev > 0
    used = [a for bt in plan.battles for a in bt.attackers]
    assert len(used) == len(set(used)), "a unit attacks at most once"


def test_every_level_has_explain() -> None:
    for level in ("random", "heuristic", "search:fast"):
        p = make_player(level, 1)
        assert callable(getattr(p, "explain", None))
        assert isinstance(p.explain(), str)  # type: ignore[attr-defined]
