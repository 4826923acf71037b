"""Moscow Attacked!'s search levels (issue 12, the search:fast v heuristic match that never
finished): a cancelled attack is not declared again that phase (``cancel`` restores the position
exactly, so declare-then-cancel was an endless loop), a decision's roll-outs are bounded in steps
whatever the horizon, and ``explain()`` names what was searched."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from typhoon.games.ma import ai
from typhoon.games.ma.engine import apply, legal_actions, new_game
from typhoon.games.ma.rules import GERMAN
from typhoon.games.ma.rules import hex_index as _hex
from typhoon.games.ma.state import State


def _first_german_combat() -> State:
    """The first German combat decision with no battle declared, both sides by the heuristic."""
    rng = random.Random(1)
    h = ai.MaHeuristicPlayer(1)
    s = new_game()
    while not (s.current_player() == GERMAN and s.phase_spec.kind == "combat" and s.battle is None):
        acts = legal_actions(s)
        a = acts[rng.randrange(len(acts))] if s.current_player() < 0 else h.choose(s, acts)
        s, _ = apply(s, a)
    return s


def _small(p: ai.MaSearchPlayer, **kw: Any) -> ai.MaSearchPlayer:
    p.config = replace(p.config, **{"rollouts": 4, "candidates": 2, **kw})
    return p


def test_a_cancelled_attack_is_not_declared_again_this_phase() -> None:
    s = _first_german_combat()
    acts = legal_actions(s)
    declare = next(a for a in acts if a.kind == "attack")
    t, _ = apply(s, declare)
    assert t.battle is not None and any(a.kind == "cancel" for a in legal_actions(t))
    p = _small(ai.MaSearchPlayer("search:fast", 0), candidates=99)  # the short list: every action
    seen: list[list[Any]] = []

    def cancel_or_first(state: Any, actions: Any) -> tuple[Any, str]:
        seen.append(list(actions))
        return next((a for a in actions if a.kind == "cancel"), actions[0]), "forced"

    p.inner.decide = cancel_or_first  # type: ignore[method-assign]
    assert p.choose(t, legal_actions(t)).kind == "cancel"
    back, _ = apply(t, next(a for a in legal_actions(t) if a.kind == "cancel"))
    assert back == s  # the loop: cancel restores the position exactly
    p.choose(back, legal_actions(back))
    offered = seen[-1]
    # Every declaration on the cancelled target is gone from what the search weighs; the rest stays.
    assert all(a.kind != "attack" or _hex(a.target) != _hex(declare.target) for a in offered)
    assert any(a.kind == "attack" for a in offered) or any(a.kind == "end" for a in offered)
    # The ban is for this phase only (its key holds turn and phase; a new phase clears it).
    assert p.called_off == {(s.turn, s.phase, _hex(declare.target))}


def test_a_forced_cancel_is_remembered_too() -> None:
    # typhoon.ai.shortlist: after() runs on a forced (one-action) decision as on a searched one, so
    # a battle that can only be called off is not declared again this phase.
    s = _first_german_combat()
    declare = next(a for a in legal_actions(s) if a.kind == "attack")
    t, _ = apply(s, declare)
    cancel = next(a for a in legal_actions(t) if a.kind == "cancel")
    p = _small(ai.MaSearchPlayer("search:fast", 0))
    assert p.choose(t, [cancel]) == cancel
    assert p.called_off == {(s.turn, s.phase, _hex(declare.target))}
    assert all(a.kind != "attack" or a.target != declare.target for a in p.shortlist(s, legal_actions(s), 99))


def test_while_72_attacks_are_owed_the_last_declaration_is_fought_not_called_off() -> None:
    # Rule 7.2 (rules_en.md): while a mandatory attack is owed ``end`` is not legal. Called-off
    # attacks are dropped while other declarations remain; once every declaration left was called
    # off, one is declared again (nothing else is legal) and must be fought: its ``cancel`` is no
    # candidate. Before, the ban was lifted while attacks were owed, and seed 2 declared and called
    # off the same five attacks in turn (tests/test_ai_progress.py found it).
    s = _first_german_combat()
    owed = [a for a in legal_actions(s) if a.kind == "attack"]  # as if only owed attacks were legal (7.2)
    p = ai.MaSearchPlayer("search:fast", 0)
    p._phase = (s.turn, s.phase)
    first = _hex(owed[0].target)
    p.called_off.add((s.turn, s.phase, first))
    kept = p.shortlist(s, owed, 99)
    assert kept and all(_hex(a.target) != first for a in kept)  # another attack is tried first
    assert not p._fight
    p.called_off |= {(s.turn, s.phase, _hex(a.target)) for a in owed}
    assert p.shortlist(s, owed, 99) == p.rank(s, owed, 99)  # every one called off: all come back
    assert p._fight
    t, _ = apply(s, owed[0])
    acts = legal_actions(t)
    assert any(a.kind == "cancel" for a in acts)
    if any(a.kind != "cancel" for a in acts):
        assert all(a.kind != "cancel" for a in p.shortlist(t, acts, 99))


def test_a_decision_takes_a_bounded_number_of_rollout_steps() -> None:
    # An unbounded horizon would play every roll-out to the end of the game (hundreds of steps):
    # the step cap must bind.
    s = _first_german_combat()
    p = _small(ai.MaSearchPlayer("search:fast", 0), horizon=10**6)
    p.choose(s, legal_actions(s))
    used = p.rollouts_done
    assert used > 0
    assert 0 < p.inner.max_steps <= used * ai.ROLLOUT_STEPS  # type: ignore[attr-defined]
    assert p.inner.steps_done <= used * ai.ROLLOUT_STEPS  # type: ignore[attr-defined]


def test_explain_names_what_was_searched_and_when_the_heuristic_decided_alone() -> None:
    s = _first_german_combat()
    p = _small(ai.MaSearchPlayer("search:fast", 0))
    a = p.choose(s, legal_actions(s))
    why = p.explain()
    assert "search: 2 candidate actions" in why and "roll-outs" in why
    assert why.startswith(p.game.action_to_text(a))
    # Past the per-phase limit the heuristic decides alone, and says so.
    p._searches = ai.PHASE_SEARCHES
    b = p.choose(s, legal_actions(s))
    assert b == p.heuristic.choose(s, legal_actions(s))
    assert "the heuristic's choice" in p.explain() and str(ai.PHASE_SEARCHES) in p.explain()


def test_a_small_search_plays_a_whole_game_to_its_end() -> None:
    # Issue 12: the match never finished. A whole game, search (German) v heuristic, ends: a
    # heuristic game has about 430 actions, dice included.
    rng = random.Random(3)
    p = _small(ai.MaSearchPlayer("search:fast", 3), horizon=4)
    h = ai.MaHeuristicPlayer(4)
    s = new_game()
    for _ in range(3000):
        if s.is_terminal:
            break
        acts = legal_actions(s)
        who = s.current_player()
        a = acts[rng.randrange(len(acts))] if who < 0 else (p if who == GERMAN else h).choose(s, acts)
        assert a in acts
        s, _ = apply(s, a)
    assert s.is_terminal and s.result in ("german", "soviet", "draw")


def test_movement_is_the_heuristics_own_choice() -> None:
    # Search weighs combat decisions only (ai.searched): a move is the heuristic's, and says so.
    rng = random.Random(1)
    h = ai.MaHeuristicPlayer(1)
    s = new_game()
    while not (
        s.current_player() == GERMAN and s.phase_spec.kind == "movement" and len(legal_actions(s)) > 1
    ):
        acts = legal_actions(s)
        a = acts[rng.randrange(len(acts))] if s.current_player() < 0 else h.choose(s, acts)
        s, _ = apply(s, a)
    p = ai.MaSearchPlayer("search:fast", 0)
    a = p.choose(s, legal_actions(s))
    assert a == h.choose(s, legal_actions(s)) and p.rollouts_done == 0
    assert p.explain().endswith("the heuristic's choice (not a combat decision)")
