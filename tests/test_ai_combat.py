"""The AI's combat arithmetic agrees with the engine's odds and exact preview."""

from __future__ import annotations

import random

import pytest

from typhoon.ai.combat import battle_value, can_retreat, final_column
from typhoon.games.bfm.combat_phase import compute_odds
from typhoon.games.bfm.engine import apply_unchecked, legal_actions, new_game
from typhoon.games.bfm.preview import preview_units
from typhoon.games.bfm.state import DECLARE


@pytest.mark.parametrize("edition", ["gdw1986", "vpg2009"])
def test_columns_and_elimination_match_the_preview(edition: str) -> None:
    rng = random.Random(3)
    checked = 0
    for _game in range(6):
        s = new_game(edition)
        while s.result is None and checked < 400:
            if s.phase_spec.kind == "combat" and s.cstep == DECLARE and not s.battles:
                side = s.side
                nm = s.rules.map.grid.neighbour_mask
                for d in s.rules.side_units[1 - side]:
                    if s.loc[d] < 0:
                        continue
                    atk = [
                        a
                        for a in s.rules.side_units[side]
                        if s.loc[a] >= 0 and (nm[s.loc[d]] >> s.loc[a]) & 1
                    ]
                    if not atk:
                        continue
                    atk = atk[: rng.randint(1, len(atk))]
                    col = final_column(s, d, atk)
                    assert col == compute_odds(s, d, atk).final
                    if col < 1 or (s.rules.stand_fast_mask >> s.loc[d]) & 1:
                        continue
                    v = battle_value(s, d, atk, col, not can_retreat(s, d))
                    pv = preview_units(s, d, atk)
                    assert v.p_elim == pytest.approx(float(pv.defender_outcomes.get("eliminated", 0)))
                    assert v.p_vacate == pytest.approx(float(pv.hex_vacated))
                    checked += 1
            acts = legal_actions(s)
            s = apply_unchecked(s, acts[rng.randrange(len(acts))])
    assert checked > 50
