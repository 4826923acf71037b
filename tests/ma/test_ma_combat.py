"""Combat (rules_en.md section 7, the designer's CRT page mosatcrt.htm; seed 001 for weather and
supply effects) on hand-worked positions around B6, a clear hex with no river or place."""

from __future__ import annotations

import pytest

from typhoon.errors import IllegalActionError
from typhoon.games.ma.engine import apply, in_supply, legal_actions, odds
from typhoon.games.ma.notation import action_from_text
from typhoon.games.ma.rules import hex_index
from typhoon.games.ma.state import DISPERSED, ELIM, SPENT, State

from .world import at, play, texts, world

PANZERS = {"4PzGp": "B5", "46PzK": "B5"}  # 5-2-6 + 3-2-6 armour = 8 attack


def _attack(s: State, target: str, *units: str) -> State:
    return play(s, *(f"attack {u} {target}" for u in units), "fire")


def _unit(s: State, name: str) -> int:
    return s.rules.unit_index[name]


def test_the_board_is_what_the_tests_assume() -> None:
    s = world({**PANZERS, "43A": "B6"})
    r = s.rules
    b6 = hex_index("B6")
    assert r.terrain[b6] == "clear" and r.place[b6] is None
    assert in_supply(s, _unit(s, "4PzGp")) and in_supply(s, _unit(s, "43A"))


def test_odds_round_to_the_lower_printed_column() -> None:
    """7.3 / Q4: 8 against 3 (2.67) is 2:1; attacks below 1:5 are not allowed."""
    s = play(world({**PANZERS, "43A": "B6"}), "attack 4PzGp B6", "attack 46PzK B6")
    assert s.battle is not None
    col, _ = odds(s, s.battle)
    assert s.rules.columns[col] == "2:1"
    weak = play(world({"35ID": "B5", "10A": "B6"}, turn=5), "attack 35ID B6")  # 1 vs 4 -> 1:4
    assert weak.battle is not None
    assert weak.rules.columns[odds(weak, weak.battle)[0]] == "1:4"


def test_below_one_to_five_cannot_fire() -> None:
    s = play(world({"35ID": "B5", "50A": "B6", "10A": "B6"}, turn=5), "attack 35ID B6")  # 1 vs 8
    assert "fire" not in texts(s)


def test_r2_with_armour_overrun_is_de() -> None:
    """7.9: armour 8 >= 2 x 3 infantry defense in Good weather: R2 becomes DE."""
    s = _attack(world({**PANZERS, "43A": "B6"}), "B6", "4PzGp", "46PzK")
    s, ev = apply(s, action_from_text("roll 6"))  # 2:1, die 6 = R2
    assert any(e.kind == "overrun" for e in ev)
    assert s.loc[_unit(s, "43A")] == ELIM


def test_no_overrun_in_mud_r2_retreat_rules() -> None:
    """Seed: no armour overrun in Mud. 7.7: the retreat never enters a hex next to a hex the
    attack came from (B5: so not A6, C6) and goes farther from B6; the attacker picks 0-2 hexes."""
    s = _attack(world({**PANZERS, "43A": "B6"}, turn=2), "B6", "4PzGp", "46PzK")
    s = play(s, "roll 6")
    assert s.battle is not None and s.battle.step == "retreat"
    options = texts(s)
    assert "retreat -" in options
    firsts = {t.split()[1].split("-")[0] for t in options if t != "retreat -"}
    assert firsts == {"B7", "A7", "C7"}
    assert all(len(t.split()[1].split("-")) <= 2 for t in options)
    s = play(s, "retreat B7-B8")
    assert at(s, "43A") == "B8" and s.status[_unit(s, "43A")] == DISPERSED
    # 7.12: in Mud only 1 hex of advance, into the vacated hex.
    assert set(texts(s)) == {"advance 4PzGp B6", "advance 46PzK B6", "end"}


def test_soviet_no_retreat_order_turns_r2_into_de() -> None:
    """7.8: the Soviet front-wide No Retreat! order: R2 -> DE."""
    s = world({**PANZERS, "43A": "B6"}, turn=2, noretreat="all")
    s = play(_attack(s, "B6", "4PzGp", "46PzK"), "roll 6")
    assert s.loc[_unit(s, "43A")] == ELIM


def test_surrounded_r1_becomes_d_with_an_exchange_offered() -> None:
    """7.8: no retreat possible: R1 -> D, and an exchange may be made (7.10)."""
    units = {**PANZERS, "43A": "B6", "2PzDiv": "B7", "6PzDiv": "A7", "17PzDiv": "C7"}
    s = _attack(world(units, turn=2), "B6", "4PzGp", "46PzK")
    s = play(s, "roll 3")  # 2:1, die 3 = R1
    assert set(texts(s)) == {"exchange yes", "exchange no"}
    declined = play(s, "exchange no")
    assert declined.status[_unit(declined, "43A")] == DISPERSED and at(declined, "43A") == "B6"
    took = play(s, "exchange yes")
    assert took.loc[_unit(took, "43A")] == ELIM
    assert texts(took) == ["lose 4PzGp", "lose 46PzK"]  # 3 defense factors to pay


def test_r1_defender_may_fall_back_one_more_hex_dispersed() -> None:
    s = _attack(world({**PANZERS, "43A": "B6"}, turn=2), "B6", "4PzGp", "46PzK")
    s = play(s, "roll 3", "retreat B7")
    assert s.current_player() == 1  # the defender decides
    assert "stay" in texts(s)
    s2 = play(s, "stay")
    assert s2.status[_unit(s2, "43A")] == SPENT
    s3 = play(s, "retreat B8")
    assert at(s3, "43A") == "B8" and s3.status[_unit(s3, "43A")] == DISPERSED


def test_attacker_elimination_ae_takes_factors_equal_to_the_defense() -> None:
    """7.6 AE: attackers with factors equal to the defense are eliminated, the others Dispersed."""
    s = _attack(world({**PANZERS, "50A": "B6", "10A": "B6"}, turn=5), "B6", "4PzGp", "46PzK")  # 8:8 = 1:1
    s = play(s, "roll 1")
    assert set(texts(s)) == {"lose 4PzGp", "lose 46PzK"}
    s = play(s, "lose 46PzK")  # 3 < 8: another unit must go
    assert texts(s) == ["lose 4PzGp"]


def test_ad_disperses_attackers() -> None:
    s = _attack(world({**PANZERS, "50A": "B6", "10A": "B6"}, turn=5), "B6", "4PzGp", "46PzK")  # 1:1
    s = play(s, "roll 2", "disperse 4PzGp")  # AD; 5 < 8: both
    s = play(s, "disperse 46PzK")
    assert s.battle is None
    assert s.status[_unit(s, "4PzGp")] == DISPERSED == s.status[_unit(s, "46PzK")]


def test_breakdown_in_operational_attacks() -> None:
    """7.11: German armour attacking in the operational phase is Dispersed on a die of 1."""
    s = _attack(world({**PANZERS, "43A": "B6"}, phase="g_operational", turn=2), "B6", "4PzGp", "46PzK")
    s, ev = apply(s, action_from_text("roll 1"))  # 2:1 die 1: no effect
    assert any(e.kind == "breakdown" for e in ev)
    assert s.status[_unit(s, "4PzGp")] == DISPERSED


def test_br_is_de_in_operational_attacks_and_a_bonus_attack_in_prepared() -> None:
    big = {"4PzGp": "B5", "46PzK": "B5", "2PzGp": "C6"}  # 13 attack
    prep = _attack(world({**big, "33A": "B6"}, turn=2), "B6", "4PzGp", "46PzK", "2PzGp")  # 13:2 -> 5:1
    assert prep.battle is not None and prep.rules.columns[prep.battle.column] == "5:1"
    prep = play(prep, "roll 6", "end")  # BR, no advance
    assert prep.status[_unit(prep, "4PzGp")] == 0  # ready to attack once more
    ops = _attack(world({**big, "33A": "B6"}, phase="g_operational", turn=2), "B6", "4PzGp", "46PzK", "2PzGp")
    ops = play(ops, "roll 6", "end")
    assert ops.status[_unit(ops, "4PzGp")] == SPENT


def test_dispersed_defenders_shift_one_column_and_lose_terrain() -> None:
    """4.2 (2005 text): +1 column when at least half the defense factors are Dispersed."""
    s = play(world({**PANZERS, "43A": "B6"}, status={"43A": DISPERSED}), "attack 4PzGp B6", "attack 46PzK B6")
    assert s.battle is not None
    assert s.rules.columns[odds(s, s.battle)[0]] == "3:1"


def test_soviet_snow_bonus_except_against_a_city() -> None:
    """Seed: Soviet ground attacks +1 column in Snow unless the Germans defend in a city or town."""
    s = play(world({"1ShockA": "B5", "35ID": "B6"}, phase="s_prepared", turn=5), "attack 1ShockA B6")
    assert s.battle is not None
    assert s.rules.columns[odds(s, s.battle)[0]] == "5:1"  # 4:1 + 1


def test_mandatory_attacks_on_german_armies_and_korps() -> None:
    """7.2: every UnDispersed German army/korps next to a Soviet unit that attacked must be attacked."""
    units = {"1ShockA": "B5", "35ID": "B6", "12K": "A5", "10A": "A6"}
    s = world(units, phase="s_prepared", turn=5)
    s = play(_attack(s, "B6", "1ShockA"), "roll 2")  # 12K (A5) is next to B5
    while s.battle is not None:
        s = play(s, texts(s)[-1])
    assert "end" not in texts(s)
    assert "attack 10A A5" in texts(s)


def test_illegal_action_leaves_the_state_alone() -> None:
    s = world({**PANZERS, "43A": "B6"})
    before = s.copy()
    with pytest.raises(IllegalActionError):
        apply(s, action_from_text("attack 4PzGp C9"))
    assert s == before and legal_actions(s) == legal_actions(before)


def test_unsupplied_attackers_lose_one_from_the_die() -> None:
    """Seed (supply): attacks by unsupplied units have the die reduced by 1."""
    ring = {"13A": "B4", "3A": "A5", "50A": "A6", "24A": "C5", "20A": "C6"}  # round the panzers' B5
    s = world({**PANZERS, **ring, "43A": "B6"}, turn=2)
    assert not in_supply(s, _unit(s, "4PzGp"))
    s = _attack(s, "B6", "4PzGp", "46PzK")
    s, ev = apply(s, action_from_text("roll 3"))  # 2:1, read as die 2: D (not R1)
    assert [e.data["result"] for e in ev if e.kind == "combat"] == ["D"]


def test_town_terrain_shifts_one_column_left() -> None:
    """§3.4 (reconstruction): a town -1 column: 10 against 3 in Sukhinichi (F4) is 3:1 -> 2:1."""
    s = play(
        world({"4PzGp": "F3", "46PzK": "F3", "6PzDiv": "F3", "43A": "F4"}),
        "attack 4PzGp F4",
        "attack 46PzK F4",
        "attack 6PzDiv F4",
    )
    assert s.battle is not None
    col, why = odds(s, s.battle)
    assert s.rules.columns[col] == "2:1" and "-1 terrain (3.4)" in why


def test_an_accepted_exchange_costs_attack_factors_and_leaves_the_rest_ready() -> None:
    """7.10: the attacker loses factors equal to the defense factors; the survivors are not Dispersed."""
    units = {**PANZERS, "6PzDiv": "B5", "43A": "B6", "2PzDiv": "B7", "17PzDiv": "A7", "4PzDiv": "C7"}
    s = _attack(world(units, turn=2), "B6", "4PzGp", "46PzK", "6PzDiv")  # 10:3 = 3:1
    s = play(s, "roll 3", "exchange yes", "lose 46PzK")  # R1, surrounded; 3 factors pay for 43A's 3
    assert s.loc[_unit(s, "46PzK")] == ELIM and s.loc[_unit(s, "43A")] == ELIM
    assert s.status[_unit(s, "4PzGp")] != DISPERSED
    assert s.battle is not None and s.battle.step == "advance"
