"""MOCKBA AI (KIT2.md "The AI contract", issue 13): the game's own heuristic and search levels
play both sides through the framework's level names, only legal actions, and the heuristic beats
the random player."""

from __future__ import annotations

import pytest

import typhoon.ai  # noqa: F401  (registers the framework's levels)
from typhoon.game import CHANCE, Game
from typhoon.games.mockba import ai
from typhoon.games.mockba.engine import apply, legal_actions, odds
from typhoon.players import make_player

from .world import world


def _play(
    levels: tuple[str, str], seed: int, most: int | None = None, sides: list[int] | None = None
) -> Game:
    g = Game("mockba", None, {}, seed=seed)
    players = [make_player(levels[0], seed=seed), make_player(levels[1], seed=seed)]
    steps = 0
    while not g.is_over and (most is None or steps < most):
        p = g.current_player()
        if p == CHANCE:
            g.roll()
            continue
        legal = g.legal_actions()
        a = players[p].choose(g.state, legal)
        assert a in legal
        s = g.state
        if a.kind == "fire" and s.battle is not None and levels[p] == "heuristic":
            # the heuristic fires at its side's threshold column or better (German 2:1, Soviet 3:1)
            assert odds(s, s.battle)[0] >= ai.ATTACK_COLUMN[p]
        g.play(a)
        steps += 1
        if sides is not None:
            sides[p] += 1
    return g


def test_heuristic_plays_both_sides_legally() -> None:
    sides = [0, 0]
    _play(("heuristic", "heuristic"), 3, most=500, sides=sides)
    assert min(sides) >= 20  # the German turn 1 and part of the Soviet one


def test_search_level_decides_from_the_heuristic_shortlist() -> None:
    """docs/MOCKBA_AI.md: search weighs combat decisions, from the heuristic's short list."""
    s = world({"G9A.inf1": "1836", "16A.rif1": "1937"}, phase="g_combat")
    p = make_player("search:fast", seed=1)
    legal = legal_actions(s)
    a = p.choose(s, legal)
    assert a in legal and "search:" in p.explain()
    h = ai.MockbaHeuristicPlayer(1)
    short = h.ranked(s, legal, most=2)
    assert len(short) == 2 and short[0] == h.choose(s, legal)


def test_search_never_redeclares_an_attack_it_had_to_call_off() -> None:
    """docs/MOCKBA_AI.md: an attack called off is not declared again that phase. Without the
    memory the search declared an attack whose only follow-up was a forced cancel, for ever (seed
    1, turn 5: thousands of declare/cancel pairs, and the 20-game match never ended)."""
    s0 = world({"G9A.inf1": "1836", "16A.rif1": "1937"}, phase="g_combat")
    p = ai.MockbaSearchPlayer("search:fast", seed=1)
    declare = next(a for a in legal_actions(s0) if a.kind == "attack" and a.target == "1937")
    assert declare in p.shortlist(s0, legal_actions(s0), 4)
    s1, _ = apply(s0, declare)
    cancel = next(a for a in legal_actions(s1) if a.kind == "cancel")
    assert p.choose(s1, [cancel]) == cancel  # forced: it must still be remembered
    assert all(a.kind != "attack" for a in p.shortlist(s0, legal_actions(s0), 4))


def test_search_level_leaves_other_decisions_to_the_heuristic() -> None:
    """docs/MOCKBA_AI.md: a move or air decision is the heuristic's (a roll-out of a few decisions
    after one unit's move is mostly the same side's further moves: noise for 0.25-0.5 s)."""
    g = Game("mockba", None, {}, seed=1)
    p = make_player("search:fast", seed=1)
    legal = g.legal_actions()
    assert not ai.searched(g.state) and len(legal) > 1
    a = p.choose(g.state, legal)
    assert a == ai.MockbaHeuristicPlayer(1).choose(g.state, legal)
    assert "the heuristic's choice" in p.explain()


def test_heuristic_declares_a_good_attack_and_fires_it() -> None:
    s = world({"G9A.inf1": "1836", "16A.rif1": "1937"}, phase="g_combat")  # 4:1 (test_preview_words)
    h = ai.MockbaHeuristicPlayer(0)
    a = h.choose(s, legal_actions(s))
    assert a.kind == "attack" and a.target == "1937"
    s, _ = apply(s, a)
    assert h.choose(s, legal_actions(s)).kind in ("fire", "air")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("levels", "winner"), [(("heuristic", "random"), "german"), (("random", "heuristic"), "soviet")]
)
def test_heuristic_beats_random(levels: tuple[str, str], winner: str) -> None:
    """docs/MOCKBA_RULES.md "Speed and AI": the heuristic wins at least three games in four."""
    wins = sum(_play(levels, seed).state.result == winner for seed in (1, 2, 3, 4))
    assert wins >= 3
