"""Supply (rules_en.md §11, [Q23]-[Q27]) cross-checked during random play: the engine's bitset
supply agrees, unit by unit, with a plain per-unit search written from the rule text
(typhoon.games.tmc.supply_check), at every phase of the first game turns of a September, a
November and a December scenario; and the check does report a disagreement."""

from __future__ import annotations

import random

import pytest

from typhoon.games.tmc import engine, supply_check
from typhoon.games.tmc.supply import Supply


@pytest.mark.parametrize("scenario", ["1", "15", "21"])
def test_engine_supply_matches_a_plain_search_in_random_play(scenario: str) -> None:
    rng = random.Random(int(scenario))
    s = engine.new_game(scenario)
    first = s.rules.first_turn
    seen: set[tuple[int, int]] = set()
    while not s.is_terminal and s.turn < first + 2:
        if (s.turn, s.phase) not in seen:
            seen.add((s.turn, s.phase))
            assert supply_check.supply_problems(s) == []
        acts = engine.legal_actions(s)
        ends = [a for a in acts if a.kind == "end"]
        a = ends[0] if ends and rng.random() < 0.2 else rng.choice(acts)
        s, _ = engine.apply(s, a)
    assert len(seen) >= 5


def test_the_check_reports_a_wrong_engine_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """If the engine said no hex is in supply, every unit the plain search finds in supply is
    reported (at the start of scenario 1 most units of both sides are in supply)."""
    s = engine.new_game("1")
    s, _ = engine.apply(s, engine.legal_actions(s)[0])  # Soviet set-up (standard)
    s, _ = engine.apply(s, engine.legal_actions(s)[0])  # German set-up (standard)
    assert s.turn == 1 and supply_check.supply_problems(s) == []
    monkeypatch.setattr(supply_check, "supply_now", lambda state, side: Supply(0, 0))
    problems = supply_check.supply_problems(s)
    assert len(problems) > 100 and "engine says out of supply, the plain search in" in problems[0]
