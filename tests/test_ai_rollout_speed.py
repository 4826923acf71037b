"""Issue 17 item 4: the pure-Python shortcuts of the search's roll-outs give the answers of the
code they replace (the retreat question memoised, the plan cache kept for a turn)."""

from __future__ import annotations

import random

import pytest

from typhoon.game import CHANCE, Game
from typhoon.games.bfm.ai import HeuristicPlayer, SearchConfig, SearchPlayer
from typhoon.games.bfm.ai.combat import no_retreat_now
from typhoon.games.bfm.combat_phase import retreat_paths_of
from typhoon.games.bfm.rules import GERMAN, SOVIET

OPTION = "retreat_extension"


@pytest.mark.parametrize(
    ("edition", "options"),
    [("gdw1986", {}), ("vpg2009", {}), ("gdw1986", {OPTION: "two_beyond_occupied"})],
)
def test_no_retreat_now_is_the_engines_answer(edition: str, options: dict[str, str]) -> None:
    """Every unit of both sides along random games, asked twice (the second answer from the
    memo): the engine's ``not retreat_paths_of``."""
    checked = trapped = 0
    for seed in range(2):
        g = Game("bfm", edition, options, seed=seed)
        rng = random.Random(seed)
        while not g.state.is_terminal and len(g.history) < 300:
            if g.current_player() == CHANCE:
                g.roll()
                continue
            s = g.state
            if len(g.history) % 7 == 0:
                for side in (GERMAN, SOVIET):
                    for d in s.on_map(side):
                        want = not retreat_paths_of(s, d)
                        assert no_retreat_now(s, d) == want
                        assert no_retreat_now(s, d) == want
                        checked += 1
                        trapped += want
            g.play(rng.choice(g.legal_actions()))
    assert checked > 300 and trapped > 0


def test_the_plan_cache_lives_for_one_turn_and_side() -> None:
    """Decisions of one side in one turn share the plan cache; a new turn starts afresh; the
    play is the play of a player whose cache is new at every decision."""
    tiny = SearchConfig(rollouts=8, candidates=3)

    def game(fresh: bool) -> tuple[list[object], list[float], int]:
        me = SearchPlayer(3, config=tiny)
        other = HeuristicPlayer(4)
        g = Game("bfm", "gdw1986", {}, seed=3)
        acts: list[object] = []
        caches = set()
        while not g.is_over and g.state.turn <= 2:
            who = g.current_player()
            if who == CHANCE:
                g.roll()
                continue
            if fresh:
                me._cache = None
            a = (me if who == GERMAN else other).choose(g.state, g.legal_actions())
            if me._cache is not None:
                caches.add(id(me._cache[1]))
            acts.append(a)
            g.play(a)
        return acts, [r.best_value for r in me.reports], len(caches)

    kept, fresh = game(False), game(True)
    assert kept[:2] == fresh[:2]
    assert len(kept[1]) >= 3  # several searched decisions
    assert kept[2] < fresh[2]  # fewer caches made: shared within a turn
