"""Issue 17 item 4: the pure-Python shortcuts of the search's roll-outs give the answers of the
code they replace (the retreat question memoised, the plan cache kept for a turn, replacement
values with shared lookups)."""

from __future__ import annotations

import random

import pytest

from typhoon.game import CHANCE, Game
from typhoon.games.bfm.actions import Action, End, Rebuild, Reinforce, Restore
from typhoon.games.bfm.ai import HeuristicPlayer, SearchConfig, SearchPlayer
from typhoon.games.bfm.ai.board import board_of
from typhoon.games.bfm.ai.combat import no_retreat_now
from typhoon.games.bfm.ai.replacements import replacement_value
from typhoon.games.bfm.combat_phase import retreat_paths_of
from typhoon.games.bfm.rules import GERMAN, SOVIET
from typhoon.games.bfm.state import State

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


def _reference_value(s: State, a: Action, on_map: int) -> float:
    """replacement_value as it was written before the listing's lookups were shared."""
    rules = s.rules
    b = board_of(rules)
    grid = rules.map.grid
    side = s.side

    def german_near(h: int, radius: int) -> int:
        return (grid.within(h, radius) & s.occ[GERMAN]).bit_count()

    if isinstance(a, End):
        return 0.0
    if isinstance(a, Restore):
        u = rules.unit_index[a.unit]
        spec = rules.units[u]
        h = s.loc[u]
        gain = float(spec.full - spec.half)
        if side == SOVIET:
            gain += 1.5 * min(german_near(h, 2), 3) + 2.0 * b.shift[SOVIET][h] * (german_near(h, 3) > 0)
            if (b.moscow_mask >> h) & 1:
                gain += 2.0 + 0.5 * s.turn
            elif grid.neighbour_mask[h] & b.moscow_mask:
                gain += 0.2 * s.turn
        else:
            gain *= 1.5 if spec.panzer else 1.0
            gain += 0.5 * min(german_near(h, 1), 1)
        return gain
    if isinstance(a, Rebuild | Reinforce):
        spec = rules.units[rules.unit_index[a.unit]]
        h = grid.index[a.hex]
        gain = float(spec.half if isinstance(a, Rebuild) else spec.full) + 0.2 * spec.move
        if side == SOVIET:
            gain += 0.6 * max(0, 14 - on_map)
            if (b.moscow_mask >> h) & 1:
                gain += 2.5
            gain -= 0.15 * b.mcost[h]
            if german_near(h, 1):
                gain -= 3.0
        else:
            gain *= 1.3 if spec.panzer else 0.8
            gain -= 0.1 * b.mcost[h]
        if isinstance(a, Reinforce):
            gain += 100.0
        return gain
    return -1.0


@pytest.mark.parametrize("edition", ["gdw1986", "vpg2009"])
def test_replacement_values_are_the_written_rule(edition: str) -> None:
    """Every legal action of every replacement phase of noisy heuristic games: the value the
    shared-lookup code gives is the reference's, to the last bit."""
    seen = set()
    for seed in range(3):
        g = Game("bfm", edition, {}, seed=seed)
        players = [HeuristicPlayer(seed, noise=1.0), HeuristicPlayer(seed + 1, noise=1.0)]
        while not g.is_over:
            if g.current_player() == CHANCE:
                g.roll()
                continue
            s = g.state
            acts = g.legal_actions()
            if s.phase_spec.kind == "replacement":
                on_map = len(s.on_map(s.side))
                for a in acts:
                    assert replacement_value(s, a, on_map) == _reference_value(s, a, on_map)
                    assert replacement_value(s, a) == _reference_value(s, a, on_map)
                    seen.add(type(a).__name__)
            g.play(players[g.current_player()].choose(s, acts))
    assert {"Restore", "Rebuild", "End"} <= seen
