"""The AI's combat arithmetic agrees with the engine's odds, retreat paths and exact preview."""

from __future__ import annotations

import random

import pytest

from typhoon.games.bfm.ai.board import board_of
from typhoon.games.bfm.ai.combat import _candidates, battle_value
from typhoon.games.bfm.ai.scoring import GermanScorer
from typhoon.games.bfm.combat_phase import RETREAT_LENGTH, compute_odds, retreat_paths_of
from typhoon.games.bfm.engine import apply_unchecked, legal_actions, new_game
from typhoon.games.bfm.preview import preview_units
from typhoon.games.bfm.rules import GERMAN, SOVIET
from typhoon.games.bfm.state import DECLARE, State
from typhoon.mechanics.retreat import retreat_paths


def _adjacent(s: State, d: int, side: int) -> list[int]:
    nm = s.rules.map.grid.neighbour_mask
    return [a for a in s.on_map(side) if (nm[s.loc[d]] >> s.loc[a]) & 1]


@pytest.mark.parametrize("edition", ["gdw1986", "vpg2009"])
def test_columns_and_elimination_match_the_preview(edition: str) -> None:
    rng = random.Random(3)
    checked = 0
    for _game in range(6):
        s = new_game(edition)
        while s.result is None and checked < 400:
            if s.phase_spec.kind == "combat" and s.cstep == DECLARE and not s.battles:
                side = s.side
                b = board_of(s.rules)
                for d in s.on_map(1 - side):
                    adj = _adjacent(s, d, side)
                    if not adj:
                        continue
                    trapped = not retreat_paths_of(s, d)
                    # Every attacker set the AI values, on the engine's column; none left out.
                    cands = {mask: v for _, mask, v in _candidates(s, d, adj, b, 0.0, trapped)}
                    for mask in range(1, 1 << len(adj)):
                        atk = [adj[i] for i in range(len(adj)) if (mask >> i) & 1]
                        col = compute_odds(s, d, atk).final
                        assert (mask in cands) == (col >= 1)
                        if col >= 1:
                            assert cands[mask].column == col
                    atk = adj[: rng.randint(1, len(adj))]
                    col = compute_odds(s, d, atk).final
                    if col < 1 or (s.rules.stand_fast_mask >> s.loc[d]) & 1:
                        continue
                    v = battle_value(s, d, atk, col, trapped)
                    pv = preview_units(s, d, atk)
                    assert v.p_elim == pytest.approx(float(pv.defender_outcomes.get("eliminated", 0)))
                    assert v.p_vacate == pytest.approx(float(pv.hex_vacated))
                    checked += 1
            acts = legal_actions(s)
            s = apply_unchecked(s, acts[rng.randrange(len(acts))])
    assert checked > 50


@pytest.mark.parametrize("edition", ["gdw1986", "vpg2009"])
def test_planned_battles_agree_with_the_engine(edition: str) -> None:
    """The German panzer phase values battles against German units where the plan puts them
    (its own odds and retreat test, memoised). Asked about the position as it stands, it
    must give the engine's answer; asked about other positions, the uncached mechanics'."""
    rng = random.Random(5)
    checked = trapped_seen = 0
    for game in range(4):
        s = new_game(edition)
        while s.result is None:
            if s.phase_spec.key == "german_panzer_movement" and s.stack < 0:
                sc = GermanScorer(s, before_combat=True)
                grid = s.rules.map.grid
                for d in s.on_map(SOVIET):
                    t = s.loc[d]
                    atk = _adjacent(s, d, GERMAN)
                    want = 0.0
                    col = compute_odds(s, d, atk).final if atk else 0
                    trapped = not retreat_paths_of(s, d)
                    if atk and col >= 1:
                        want = max(0.0, battle_value(s, d, atk, col, trapped).ev)
                    assert sc.target_value(d, s.occ[GERMAN]) == pytest.approx(want)
                    assert sc._no_retreat(t, s.occ[GERMAN]) == trapped
                    trapped_seen += trapped
                    # Hypothetical German positions: the memo never mixes two answers.
                    near = list(grid.hexes)
                    for _ in range(6):
                        occ = s.occ[GERMAN]
                        for h in rng.sample(near, 12):
                            if s.at[h] < 0:
                                occ |= 1 << h
                        forbidden = occ | grid.expand(occ)
                        occupied = s.occ[SOVIET] & ~(1 << t)
                        paths = retreat_paths(
                            t, RETREAT_LENGTH, grid.neighbours, grid.distance, forbidden, occupied
                        )
                        assert sc._no_retreat(t, occ) == (not paths)
                    checked += 1
            acts = legal_actions(s)
            s = apply_unchecked(s, acts[rng.randrange(len(acts))])
            if game and s.turn > 3:
                break
    assert checked > 50
    assert trapped_seen > 0
