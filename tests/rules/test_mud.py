"""Mud (seed 002, «Грязь»; bfm_data §8).

Turns 3 and 4 are mud turns: all movement except Soviet rail movement is reduced to one hex
per phase; rail movement is not affected; the combat strength of all units is halved when
attacking (not when defending); EX losses of the attacker count printed strength. VPG: only
panzer units are halved.

Reading (engine, movement_phase.py): "one hex per phase" means any one adjacent hex, forest
included (a forest's cost of 2 does not stop a one-hex move).
"""

from __future__ import annotations

import pytest

from .helpers import VPG, battle_data, fight, legal, moves, pos, ref_neighbours
from .test_movement import EXAMPLE


@pytest.mark.parametrize("turn", [3, 4])
def test_one_hex_per_phase(turn: int) -> None:
    """«Грязь»: movement is reduced to one hex per phase. The movement example's 5th Army
    (1008) may only move to one of its six neighbours (1009 among them, in XXIV's zone)."""
    s = pos(**{**EXAMPLE, "t": turn})
    assert legal(s) == {f"move 5A 1008-{h}" for h in ref_neighbours("1008")} | {"end"}


@pytest.mark.parametrize("turn", [2, 5, 6, 7])
def test_no_mud_on_other_turns(turn: int) -> None:
    """«Как играть», turn track: only turns 3 and 4 are mud turns."""
    s = pos(**{**EXAMPLE, "t": turn})
    assert len(moves(s, "5A")) == 45


def test_mud_panzers_also_one_hex_and_panzer_phase() -> None:
    """«Грязь»: *all* movement (panzers, their own phase included) is one hex per phase."""
    s = pos(G="XLVII@1208", S="16A@0101/h", t=3, ph="german_panzer_movement")
    assert moves(s, "XLVII") == ref_neighbours("1208")
    s = pos(G="XLVII@1208", S="16A@0101/h", t=4, ph="german_movement")
    assert moves(s, "XLVII") == ref_neighbours("1208")


def test_mud_one_hex_into_forest_reading() -> None:
    """Reading: in mud a unit may move one hex into a forest (0907 -> 0906)."""
    s = pos(G="XXIV@0101", S="5A@0907/h", t=3, ph="soviet_movement")
    assert "0906" in moves(s, "5A")
    assert moves(s, "5A") == ref_neighbours("0907")


def test_mud_cannot_enter_enemy_hex() -> None:
    """«Ограничения» hold in mud: the enemy's hex is never entered."""
    s = pos(G="XXXV@1208", S="16A@1308/h", t=3, ph="german_movement")
    assert moves(s, "XXXV") == ref_neighbours("1208") - {"1308"}


def test_mud_rail_unaffected() -> None:
    """«Грязь»: Soviet rail movement is not affected by mud (see test_rail for the line)."""
    s = pos(G="XXIV@0101", S="16A@1402/h", t=3, ph="soviet_rail_movement")
    assert len(moves(s, "16A")) == 8


def test_mud_infantry_attack_halved_gdw() -> None:
    """«Грязь» (GDW): the strength of *all* units is halved in attack: VII (7) alone against a
    half army (4) is 3.5 against 4, below 1:1 -- no effect; on turn 5 it is 1:1."""
    s, ev = fight(pos(G="VII@1108,XXIV@0101", S="16A@1208/h,3A@1410/h", t=3), "1208", "VII")
    d = battle_data(ev)
    assert (d["attack"], d["column"]) == (3.5, 0)
    assert not any(e.kind == "roll" for e in ev)
    _, ev = fight(pos(G="VII@1108,XXIV@0101", S="16A@1208/h,3A@1410/h", t=5), "1208", "VII")
    assert battle_data(ev)["final"] == 1


def test_mud_defence_not_halved() -> None:
    """«Грязь»: strength is halved in attack, *not in defence*: the Soviet defender counts its
    full 8, and a Soviet attack on a German corps in mud is halved too (GDW: all units)."""
    s = pos(G="XXXV@1208", S="16A@1108,3A@1109", t=3, ph="soviet_combat")
    _, ev = fight(s, "1208", "16A", "3A")
    d = battle_data(ev)
    assert (d["attack"], d["defense"], d["final"]) == (8, 8, 1)


def test_vpg_mud_halves_only_panzers() -> None:
    """VPG (bfm_data §8): in mud only panzers are halved in attack. XLVII (9 -> 4.5) + VII (7)
    = 11.5; VII alone is 7 against 4, 1:1 (GDW: 3.5, no effect); Soviet armies keep their
    full attack."""
    s = pos(ed=VPG, G="XLVII@1108,VII@1109", S="16A@1208/h,3A@1410/h", t=3)
    _, ev = fight(s, "1208", "XLVII", "VII")
    assert battle_data(ev)["attack"] == 11.5
    s = pos(ed=VPG, G="VII@1108,XXIV@0101", S="16A@1208/h,3A@1410/h", t=3)
    _, ev = fight(s, "1208", "VII")
    d = battle_data(ev)
    assert (d["attack"], d["final"]) == (7, 1)
    s = pos(ed=VPG, G="XXXV@1208", S="16A@1108,3A@1109", t=3, ph="soviet_combat")
    _, ev = fight(s, "1208", "16A", "3A")
    assert battle_data(ev)["attack"] == 16  # Soviet armies are not halved in VPG mud


def test_vpg_mud_movement_one_hex() -> None:
    """VPG (bfm_data §8): one hex per non-rail movement phase in mud as well."""
    s = pos(ed=VPG, G="XLVII@1208", S="16A@0101/h", t=3, ph="german_movement")
    assert moves(s, "XLVII") == ref_neighbours("1208", VPG)
